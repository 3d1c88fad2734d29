"""ESC3xx: the escapes the compiler warns about or refuses, every one of them."""
from __future__ import annotations

from typing import Callable, Iterable, Iterator

from flake8_escapes import escapes, literals, rules
from flake8_escapes.literals import Found, Piece

#: (line, col, rule, message fields): formatted only at the plugin's edge.
Finding = tuple[int, int, rules.Rule, dict[str, str]]


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


def reports(found: Iterable[Found]) -> Iterator[Finding]:
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


#: What each escape letter starts, as ESC304's message for a Windows path names it.
STARTS = {'x': 'a hex escape', 'u': 'a unicode escape', 'U': 'a unicode escape',
          'N': 'a named unicode escape'}
#: The hex digits each escape letter needs.
DIGITS = {'x': (2, 'two'), 'u': (4, 'four'), 'U': (8, 'eight')}
#: The longest literal ESC304's message quotes whole.
QUOTED = 48
#: The end of ESC304's message for a Windows path.
PATH_PROBLEM = 'starts {what}, but {literal} is a Windows path: make it raw ({raw}) or use forward slashes'
#: ... for one that spells a backslash as ``\\`` too, which a raw literal would make two (issue 40).
DOUBLED_PROBLEM = ('starts {what}, but {literal} is a Windows path: double each lone backslash{doubled} '
                   'or use forward slashes')
#: The escapes a path's lone backslashes doubled keep: an escaped backslash or quote, a continuation.
KEPT_AS_WRITTEN = frozenset({'\\\\', "\\'", '\\"'})


def refused(found: Iterable[Found], is_path: Callable[[Piece], bool]) -> Iterator[Finding]:
    """ESC304: every escape CPython refuses (``escapes.refused``), of which the
    compiler names only the first.  ``is_path``: is the piece's literal a
    Windows path by its text (``paths.PathJudge``)?  ``found`` must hold the
    escapes of every piece (``literals.escapes`` skips those of the pieces
    that look everyday: ``\\N{NO SUCH NAME}`` and ``\\U00110000`` do).
    The field ``path`` says which: the fixer makes a path raw."""
    for line, col, escape, piece, _ in found:
        if not escapes.refused(escape):
            continue
        text = shown(_clipped(escape, piece))
        if is_path(piece):
            fields = {'escape': text[:2], 'problem': _path_problem(text, piece), 'path': 'yes'}
        else:
            fields = {'escape': text, 'problem': _problem(text), 'path': ''}
        yield line, col, rules.ESC304, fields


def _clipped(escape: escapes.Escape, piece: Piece) -> str:
    """The escape's text on its line and in its literal's part (``\\N{...`` may run on)."""
    end = next((end for begin, end in piece.spans if begin <= escape.offset < end), len(piece.text))
    if piece.spans[0][0] == 0 and escape.offset + len(escape.text) > end:
        end = len(piece.text)  # a 3.12+ MIDDLE piece
    text = escape.text[:max(2, end - escape.offset)]
    return text.split('\n', 1)[0]


def _path_problem(text: str, piece: Piece) -> str:
    """``starts a unicode escape, but "C:\\Users" is a Windows path: make it raw (r"C:\\Users") ...``;
    where the literal spells a backslash as ``\\\\`` too (``holds_escaped_backslash``), which a
    raw literal would make two: ``... double each lone backslash ("C:\\\\temp\\\\Users") ...``."""
    literal = piece.text
    prefix = literals.split_prefix(literal)[0]
    what = STARTS[text[1]]
    doubled = holds_escaped_backslash(piece)
    quoted = bool(piece.spans[0][0]) and len(literal) <= QUOTED and '\n' not in literal
    if doubled:
        example = f' ({lone_backslashes_doubled(piece)})' if quoted else ''
        named = literal if quoted else 'this literal'
        return DOUBLED_PROBLEM.format(what=what, literal=named, doubled=example)
    if not piece.spans[0][0] or 'f' in prefix or 't' in prefix:  # an f- or t-string
        return PATH_PROBLEM.format(what=what, literal='this literal', raw='add r to its prefix')
    body = literal[len(prefix):]
    if not quoted:
        quote = body[:3] if body[:3] in ('"""', "'''") else body[:1]
        return PATH_PROBLEM.format(what=what, literal='this literal', raw=f'r{quote}...{quote}')
    raw = 'r' + prefix.replace('u', '') + body
    return PATH_PROBLEM.format(what=what, literal=literal, raw=raw)


#: Does the piece spell a backslash as ``\\\\`` (meant: a raw literal would keep both)?
holds_escaped_backslash = literals.holds_escaped_backslash


def lone_backslashes_doubled(piece: Piece) -> str:
    """The piece's text with the backslash of each escape but ``\\\\`` and an escaped quote
    doubled: the path the author meant, written in the literal's own kind."""
    text, out, last = piece.text, [], 0
    for begin, end in piece.spans:
        for escape in escapes.escapes_in(text, piece.is_bytes, begin, end):
            if escape.text not in KEPT_AS_WRITTEN and escape.kind != escapes.CONTINUATION:
                out.append(text[last:escape.offset] + '\\')
                last = escape.offset
    return ''.join(out) + text[last:]


def _problem(text: str) -> str:
    """What is wrong with a refused escape that is not in a Windows path, and the two ways out."""
    letter, digits = text[1], text[2:]
    doubled = '\\' + text
    if letter in DIGITS:
        count, word = DIGITS[letter]
        if len(digits) == count:  # \U00110000
            return f"is above '\\U0010ffff', the last code point; write '{doubled}' for a backslash"
        if digits:
            fixed = f'\\{letter}{digits.zfill(count)}'
            return f"needs {word} hex digits: write '{fixed}', or '{doubled}' for a backslash"
        return f"needs {word} hex digits; write '{doubled}' for a backslash"
    if len(text) > 3:
        return f"names no Unicode character: check the name, or write '{doubled}' for a backslash"
    return f"needs a character name in braces ('\\N{{BULLET}}'); write '{doubled}' for a backslash"
