"""One function per family: escapes in, (line, col, message) out."""
from __future__ import annotations

from typing import Iterable, Iterator

from flake8_escapes import escapes, rules
from flake8_escapes.literals import Found

Report = tuple[int, int, str]


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


def invalid_escapes(found: Iterable[Found]) -> Iterator[Report]:
    """ESC301-ESC303: escapes the compiler warns about (all of them)."""
    for line, col, escape, is_bytes, _ in found:
        kind = escape.kind
        if kind == escapes.INVALID:
            rule = rules.ESC301
        elif kind == escapes.STR_ONLY_IN_BYTES:
            rule = rules.ESC302
        elif kind == escapes.OCTAL_OVERFLOW:
            yield line, col, rules.ESC303.format(
                escape=escape.text, value=spelled_value(escape.text, is_bytes),
            )
            continue
        else:
            continue
        text = shown(escape.text)
        yield line, col, rule.format(escape=text, doubled='\\' + text)
