"""One function per family: escapes in, (line, col, rule, fields) out."""
from __future__ import annotations

import ast
import re
import tokenize
from typing import Iterable, Iterator

from flake8_escapes import context, escapes, literals, rules
from flake8_escapes.literals import Found, Piece

#: (line, col, rule, message fields): formatted only at the plugin's edge.
Finding = tuple[int, int, rules.Rule, dict]


def shown(text: str) -> str:
    """An escape as a message quotes it: unprintable characters as <U+XXXX>."""
    return ''.join(c if c.isprintable() else f'<U+{ord(c):04X}>' for c in text)


def spelled_value(escape_text: str, is_bytes: bool) -> str:
    """How to write the value an overflowing octal escape has now.

    CPython keeps the full code point in a str ('\\777' == '\\u01ff') and the
    low byte in bytes (b'\\777' == b'\\xff').
    """
    value = escapes.octal_value(escape_text)
    if is_bytes:
        return f'\\x{value & 0xFF:02x}'
    return f'\\u{value:04x}'


def invalid_escapes(found: Iterable[Found]) -> Iterator[Finding]:
    """ESC301-ESC303: escapes the compiler warns about (all of them)."""
    for line, col, escape, piece, _ in found:
        kind = escape.kind
        if kind == escapes.INVALID:
            rule = rules.ESC301
        elif kind == escapes.STR_ONLY_IN_BYTES:
            rule = rules.ESC302
        elif kind == escapes.OCTAL_OVERFLOW:
            yield line, col, rules.ESC303, {
                'escape': escape.text, 'value': spelled_value(escape.text, piece.is_bytes),
            }
            continue
        else:
            continue
        text = shown(escape.text)
        yield line, col, rule, {'escape': text, 'doubled': '\\' + text}


# Windows paths (ESC5xx) -------------------------------------------------------

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
#: (``context.PATH``): only path characters, after a drive (C:\new), a UNC
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


def windows_path_hazards(found: Iterable[Found], roles: list[context.Role] = ()) -> Iterator[Finding]:
    """ESC501: valid escapes in a literal that is a Windows path.

    Whether it is one was decided once per piece, by ``literals.escapes``
    calling ``looks_like_windows_path`` (``Found.kept``); a literal that is a
    path only if used as one needs a ``context.PATH`` role in ``roles``.
    """
    for line, col, escape, _, kept in found:
        if not kept or not is_path_hazard(escape):
            continue
        if kept == PATH_IF_USED:
            if role_at(roles, line, col, (context.PATH,)) is None:
                continue
        yield line, col, rules.ESC501, {'escape': escape.text, 'meaning': meaning(escape)}


# Regex hazards (ESC4xx) ------------------------------------------------------

#: Escapes that only mean something to a regex engine: a literal holding one
#: next to a backreference-like octal escape was written for re.
REGEX_ONLY_ESCAPES = (
    '\\w', '\\W', '\\d', '\\D', '\\s', '\\S', '\\.', '\\(', '\\)', '\\[', '\\]',
    '\\+', '\\*', '\\?', '\\|', '\\$', '\\^', '\\A', '\\Z', '\\B', '\\g<',
)


def is_backreference_like(escape: escapes.Escape) -> bool:
    """An octal escape that re, given the raw text, would read as a group.

    re reads a backslash and one or two digits as a group reference unless
    the first digit is 0; three octal digits are an octal escape to re too,
    with the value Python already gave them.  Of the two-digit ones, only
    those that make a control character count: '\\50' is '(' on purpose far
    more often than a reference to group 50.
    """
    if escape.kind != escapes.OCTAL or escape.text[1] == '0':
        return False
    digits = len(escape.text) - 1
    return digits == 1 or (digits == 2 and escapes.octal_value(escape.text) < 0x20)


def is_backspace(escape: escapes.Escape) -> bool:
    return escape.text == '\\b'


def is_regex_candidate(found: Found) -> bool:
    """Could this escape be an ESC4xx hazard (worth the AST pass)?"""
    return is_backreference_like(found.escape) or is_backspace(found.escape)


def in_character_class(text: str, offset: int) -> bool:
    """Is ``text[offset]`` inside a regex ``[...]`` (where re reads '\\b' and
    '\\1' as characters, as Python did)?"""
    depth = 0
    index = 0
    while index < offset:
        char = text[index]
        if char == '\\':
            index += 2
            continue
        if char == '[' and not depth:
            depth = 1
        elif char == ']' and depth:
            depth = 0
        index += 1
    return bool(depth)


def looks_like_data(text: str) -> bool:
    """Serialized tables and protocol strings: mostly escapes, not a regex."""
    return text.count('\\') * 4 >= len(text)


def reads_like_regex(text: str) -> bool:
    """A literal whose own text is a regex or a template with groups.

    Conservative on purpose: it needs a group (an opening and a closing
    parenthesis) and an escape that only a regex engine gives meaning to
    (``\\w``, ``\\d``, ``\\.``, ...) or ``(?``.
    """
    if looks_like_data(text) or '(' not in text or ')' not in text:
        return False
    return '(?' in text or any(marker in text for marker in REGEX_ONLY_ESCAPES)


#: Control characters a pattern may match on purpose; with one of them
#: beside it, '\\b' is a backspace on purpose too (IPython's ANSI parser:
#: '(\\a|\\b|\\r(?!\\n)|\\r?\\n)').
TERMINAL_CONTROLS = frozenset('\a\f\v\r\x1b\x00')


def matches_controls(piece: Piece) -> bool:
    """Does the piece also spell other terminal control characters?"""
    for begin, end in piece.spans:
        for escape in escapes.escapes_in(piece.text, piece.is_bytes, begin, end, piece.lookahead):
            if escape.text != '\\b' and escapes.value_of(escape) in TERMINAL_CONTROLS:
                return True
    return False


def role_at(
    roles: list[context.Role], line: int, col: int, kinds: tuple[str, ...],
) -> context.Role | None:
    for role in roles:
        if role.role in kinds and role.start <= (line, col) < role.end:
            return role
    return None


def regex_hazards(candidates: Iterable[Found], roles: list[context.Role]) -> Iterator[Finding]:
    """ESC401, ESC402: valid escapes that change what a regex means."""
    for line, col, escape, piece, _ in candidates:
        used = role_at(roles, line, col, (context.PATTERN, context.REPLACEMENT, context.DISCARDED))
        role = used.role if used else None
        offset = escape.offset
        if role == context.DISCARDED:
            continue
        if is_backreference_like(escape):
            if role == context.PATTERN and (used.groupless or in_character_class(piece.text, offset)):
                continue
            if role is None and not reads_like_regex(piece.text):
                continue
            value = escapes.octal_value(escape.text)
            yield line, col, rules.ESC401, {'escape': escape.text, 'codepoint': f'U+{value:04X}'}
        elif (role == context.PATTERN and not used.means_backspace
              and not in_character_class(piece.text, offset) and not matches_controls(piece)):
            yield line, col, rules.ESC402, {}


def all_reports(
    tree: ast.AST,
    tokens: list[tokenize.TokenInfo],
    lines: list[str],
    regex_functions: dict[str, context.Signature],
) -> Iterator[rules.Report]:
    """Every report of the plugin for one file, with the escape it is about."""
    found = list(literals.escapes(tokens, lines, looks_like_windows_path))
    at = {(item.line, item.col): item for item in found}
    reports: list[Finding] = list(invalid_escapes(found))
    candidates = [item for item in found if is_regex_candidate(item)]
    maybe_paths = [item for item in found if item.kept == PATH_IF_USED and is_path_hazard(item.escape)]
    roles: list[context.Role] = []
    if candidates or maybe_paths:  # the AST pass only for files that need it
        candidate_lines = sorted({item.line for item in candidates + maybe_paths})
        roles = context.literal_roles(tree, lines, regex_functions, candidate_lines)
    reports.extend(windows_path_hazards(found, roles))
    if candidates:
        reports.extend(regex_hazards(candidates, roles))
    for line, col, rule, fields in reports:
        yield rules.Report(line, col, rule, fields, at[line, col])
