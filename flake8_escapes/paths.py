"""ESC5xx: valid escapes in literals that are Windows paths."""
from __future__ import annotations

import re

from typing import Iterable, Iterator

from flake8_escapes import escapes, rules, usage
from flake8_escapes.literals import Found, Piece

#: (line, col, rule, message fields): formatted only at the plugin's edge.
Finding = tuple[int, int, rules.Rule, dict]


#: What a literal's source text must show to be taken for a Windows path.
#: The whole text must read as one path (path characters only) and show a
#: drive with a well-known folder, two names or a file name (C:\\temp,
#: C:\\data\\file.txt), a UNC share with a folder (\\\\server\\share\\dir), a
#: relative start with two names (..\\training\\new_memo.doc), or two or more
#: names ending in a file name with an extension (logs\\new.txt).  Labels and
#: text ('Q:\\n', '.\\n', LaTeX's '\\\\item\\n', 'pyth\\xf6n.org') do not qualify.
_NAME = r"[\w .$~()'+,;=@\[\]{}&!#%-]"
_KNOWN = (r'(?:Users|Program\ Files(?:\ \(x86\))?|ProgramData|Windows|WINDOWS|AppData|temp|Temp|TEMP|tmp'
          r'|Documents\ and\ Settings|inetpub|Python\d*)')
_EXTENSION = r'\.[A-Za-z][A-Za-z0-9]{0,3}'
#: A backslash that separates names, not one that spells a character of a
#: name ('\\xf6', '\\u00e9', '\\N{...}', an octal digit).
_SEPARATOR = r'\\\\?(?!x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|N\{|[0-7])'
#: A separator as the source spells it: one backslash, or two (a path written
#: half escaped, 'c:\\stuff\temp', still holds a tab).
_SEP = r'(?:\\\\?)'
WINDOWS_PATH = re.compile(
    rf"""
    [A-Za-z]:{_SEP}(?:{_KNOWN}(?:{_SEP}{_NAME}*)*|{_NAME}{{2,}}(?:{_SEP}{_NAME}+)+|{_NAME}+{_EXTENSION}){_SEP}?
    | \\\\(?:\\\\)?[\w.$-]{{2,}}\\{_NAME}{{2,}}(?:\\{_NAME}{{2,}})+\\?
    | \.{{1,2}}(?:{_SEP}{_NAME}+){{2,}}{_SEP}?
    | [\w.$-]+(?:{_SEPARATOR}[\w.$-]+)+{_EXTENSION}
    """,
    re.VERBOSE,
)  # matched against the whole text (fullmatch)

#: Line ends spelled as text: a protocol line or a paragraph, not a path.
LINE_ENDS = re.compile(r'\\r\\n|\\n\\r|\\n\\n|\\[nr]$')

#: What each valid escape puts into a path instead of a separator and a name.
ESCAPE_MEANINGS = {
    '\\a': 'a bell', '\\b': 'a backspace', '\\f': 'a form feed', '\\n': 'a newline',
    '\\r': 'a carriage return', '\\t': 'a tab', '\\v': 'a vertical tab',
}
PATH_HAZARDS = frozenset({
    escapes.OCTAL, escapes.OCTAL_OVERFLOW, escapes.HEX, escapes.UNICODE, escapes.NAMED,
})


#: What a literal's text must show to be a path when it is used as one
#: (``usage.PATH``): only path characters, after a drive (C:\new), a UNC
#: start (\\server\new) or a relative start (.\test), or a file name after a
#: separator, to be joined to a folder (venv + '\activate_this.py').
WEAK_WINDOWS_PATH = re.compile(
    rf"""
    (?:[A-Za-z]:|\\\\[\w.$-]+|\.{{1,2}})(?:{_SEP}{_NAME}*)+
    | (?:{_SEP}[\w.$-]+)+{_EXTENSION}
    """,
    re.VERBOSE,
)
#: ``Found.kept`` of a literal that is a path by its text alone, and of one
#: that is a path when it is used as one.
PATH_BY_TEXT = 'text'
PATH_IF_USED = 'if used'


def looks_like_windows_path(piece: Piece) -> str:
    """Is the literal's text, as the source spells it, a Windows path?
    PATH_BY_TEXT, PATH_IF_USED (when the AST shows it is used as a path), or ''."""
    if not piece.spans:
        return ''
    text, begin, end = piece.text, piece.spans[0][0], piece.spans[-1][1]
    if WINDOWS_PATH.fullmatch(text, begin, end) is not None:
        kind = PATH_BY_TEXT
    elif WEAK_WINDOWS_PATH.fullmatch(text, begin, end) is not None:
        kind = PATH_IF_USED
    else:
        return ''  # most pieces: no line-end search needed
    return '' if LINE_ENDS.search(text, begin, end) is not None else kind


def meaning(escape: escapes.Escape) -> str:
    if escape.text in ESCAPE_MEANINGS:
        return ESCAPE_MEANINGS[escape.text]
    if escape.kind == escapes.NAMED:
        return 'a named character'
    return f'the character U+{ord(escapes.value_of(escape)):04X}'


def is_path_hazard(escape: escapes.Escape) -> bool:
    return escape.text in ESCAPE_MEANINGS or escape.kind in PATH_HAZARDS


def reports(found: Iterable[Found], roles: list[usage.Role] = ()) -> Iterator[Finding]:
    """ESC501: valid escapes in a literal that is a Windows path.

    Whether it is one was decided once per piece, by ``literals.escapes``
    calling ``looks_like_windows_path`` (``Found.kept``); a literal that is a
    path only if used as one needs a ``usage.PATH`` role in ``roles``.
    """
    for line, col, escape, _, kept in found:
        if not kept or not is_path_hazard(escape):
            continue
        if kept == PATH_IF_USED:
            if usage.role_at(roles, line, col, (usage.PATH,)) is None:
                continue
        yield line, col, rules.ESC501, {'escape': escape.text, 'meaning': meaning(escape)}
