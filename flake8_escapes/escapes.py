"""The escape grammar of Python str and bytes literals.

The table this module encodes is the language reference's:
https://docs.python.org/3/reference/lexical_analysis.html#escape-sequences

Nothing here knows about tokens or positions: ``escapes_in`` takes the text of
one literal piece and yields every escape in it with its offset in that text.
"""
from __future__ import annotations

from typing import Iterator, NamedTuple

#: Escapes valid in both str and bytes literals (after the backslash).
SIMPLE_ESCAPES = frozenset('\\\'"abfnrtv')
#: A backslash before a line end continues the literal on the next line.
#: flake8 hands plugins lines with universal newlines, but a caller may not.
LINE_ENDS = frozenset('\n\r')
OCTAL_DIGITS = frozenset('01234567')
HEX_DIGITS = frozenset('0123456789abcdefABCDEF')
#: ``\N{name}``, ``\uXXXX`` and ``\UXXXXXXXX`` are escapes in str literals
#: only; in a bytes literal they are unrecognized and stay as written.
STR_ONLY_ESCAPES = frozenset('NuU')
#: How many hex digits follow each hex-like escape letter.
HEX_LENGTH = {'x': 2, 'u': 4, 'U': 8}
#: The largest octal escape that fits a byte; CPython warns above it since
#: 3.11 (https://github.com/python/cpython/issues/91668).
MAX_OCTAL = 0o377

# What an escape is.  Each name is also the kind's value so reports stay
# readable in tests and debugging.
SIMPLE = 'simple'                    # \n \t \\ \' ...
CONTINUATION = 'continuation'        # backslash-newline
OCTAL = 'octal'                      # \0 .. \377
OCTAL_OVERFLOW = 'octal-overflow'    # \400 .. \777
HEX = 'hex'                          # \xhh
UNICODE = 'unicode'                  # \uXXXX, \UXXXXXXXX (str)
NAMED = 'named'                      # \N{...} (str)
STR_ONLY_IN_BYTES = 'str-only-in-bytes'  # \N \u \U in bytes
INVALID = 'invalid'                  # anything else: \d, \8, \{, \é ...


class Escape(NamedTuple):
    """One escape: ``text`` starts at ``offset`` of the scanned string."""

    offset: int
    text: str
    kind: str


def octal_value(text: str) -> int:
    """Value of an octal escape such as ``'\\777'``."""
    return int(text[1:], 8)


def escapes_in(
    text: str,
    is_bytes: bool,
    start: int = 0,
    end: int | None = None,
    lookahead: str = '',
) -> Iterator[Escape]:
    """Yield every escape whose backslash lies in ``text[start:end]``.

    ``lookahead`` is the source character after ``text`` when the text stops
    right after a backslash (a 3.12+ f-string piece ``'\\'`` cut before ``{``).
    """
    if end is None:
        end = len(text)
    size = len(text)
    find = text.find
    pos = find('\\', start, end)
    while pos != -1:
        nxt = pos + 1
        char = text[nxt] if nxt < size else lookahead
        stop = nxt + 1
        if char in SIMPLE_ESCAPES:
            kind = SIMPLE
        elif char in LINE_ENDS:
            kind = CONTINUATION
            if char == '\r' and stop < size and text[stop] == '\n':
                stop += 1
        elif char in OCTAL_DIGITS:
            while stop < size and stop < nxt + 3 and text[stop] in OCTAL_DIGITS:
                stop += 1
            kind = OCTAL if int(text[nxt:stop], 8) <= MAX_OCTAL else OCTAL_OVERFLOW
        elif char == 'x' or (char in STR_ONLY_ESCAPES and not is_bytes):
            if char == 'N':
                close = find('}', stop)
                stop = close + 1 if close != -1 else stop
                kind = NAMED
            else:
                limit = min(size, stop + HEX_LENGTH[char])
                while stop < limit and text[stop] in HEX_DIGITS:
                    stop += 1
                kind = HEX if char == 'x' else UNICODE
        elif char in STR_ONLY_ESCAPES:
            kind = STR_ONLY_IN_BYTES
        elif not char:
            # A lone backslash at the very end of a piece with nothing after
            # it cannot come from valid source; there is nothing to report.
            return
        else:
            kind = INVALID
        yield Escape(pos, '\\' + char if stop > size else text[pos:stop], kind)
        pos = find('\\', stop, end) if stop < end else -1
