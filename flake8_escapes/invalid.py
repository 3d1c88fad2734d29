"""ESC3xx: the escapes the compiler warns about, every one of them."""
from __future__ import annotations

from typing import Iterable, Iterator

from flake8_escapes import escapes, rules
from flake8_escapes.literals import Found

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
