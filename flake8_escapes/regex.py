"""ESC4xx: valid escapes that change what a regex means."""
from __future__ import annotations

from typing import Iterable, Iterator

from flake8_escapes import escapes, rules, usage
from flake8_escapes.literals import Found, Piece

#: (line, col, rule, message fields): formatted only at the plugin's edge.
Finding = tuple[int, int, rules.Rule, dict]


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


def reports(candidates: Iterable[Found], roles: list[usage.Role]) -> Iterator[Finding]:
    """ESC401, ESC402: valid escapes that change what a regex means."""
    for line, col, escape, piece, _ in candidates:
        used = usage.role_at(roles, line, col, (usage.PATTERN, usage.REPLACEMENT, usage.DISCARDED))
        role = used.role if used else None
        offset = escape.offset
        if role == usage.DISCARDED:
            continue
        if is_backreference_like(escape):
            if role == usage.PATTERN and (used.groupless or in_character_class(piece.text, offset)):
                continue
            if role is None and not reads_like_regex(piece.text):
                continue
            value = escapes.octal_value(escape.text)
            yield line, col, rules.ESC401, {'escape': escape.text, 'codepoint': f'U+{value:04X}'}
        elif (role == usage.PATTERN and not used.means_backspace
              and not in_character_class(piece.text, offset) and not matches_controls(piece)):
            yield line, col, rules.ESC402, {}
