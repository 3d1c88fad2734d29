"""Tokens to literal pieces, and the escapes in each piece at their exact position.

This is the only module that knows how the tokenizer differs between Pythons:

- 3.10 and 3.11 give one STRING token per f-string, format specs included, so
  the literal parts of an f-string are found here (``fstring_literal_spans``),
  following CPython's own ``fstring_find_literal``.
- 3.12 and later give FSTRING_START / FSTRING_MIDDLE / FSTRING_END (PEP 701).
  A MIDDLE is cut at ``{{`` and ``}}`` (its text keeps one brace, at its end)
  and before a replacement field, so positions come from each MIDDLE's own
  start, and a MIDDLE that ends in a lone backslash takes the escaped
  character from the next token (``f"\\{x}"`` is MIDDLE ``\\`` then ``{``).
- 3.14 adds TSTRING_START / TSTRING_MIDDLE / TSTRING_END (PEP 750), handled
  like f-strings.

Columns are 0-based offsets in characters of the line, as tokenize and flake8
count them.
"""
from __future__ import annotations

import re
import tokenize
import warnings
from bisect import bisect_right
from itertools import compress, count, repeat
from operator import contains, itemgetter
from typing import Callable, Iterator, NamedTuple

from flake8_escapes.escapes import EVERYDAY_ONLY, Escape, escapes_in

Position = tuple[int, int]

STRING = tokenize.STRING
# -1 never matches a token type: these token kinds do not exist before 3.12
# (f-strings) and 3.14 (t-strings).
FSTRING_START = getattr(tokenize, 'FSTRING_START', -1)
FSTRING_MIDDLE = getattr(tokenize, 'FSTRING_MIDDLE', -1)
FSTRING_END = getattr(tokenize, 'FSTRING_END', -1)
TSTRING_START = getattr(tokenize, 'TSTRING_START', -1)
TSTRING_MIDDLE = getattr(tokenize, 'TSTRING_MIDDLE', -1)
TSTRING_END = getattr(tokenize, 'TSTRING_END', -1)

#: Tokens whose text can hold escapes.
PIECE_TYPES = frozenset({STRING, FSTRING_MIDDLE, TSTRING_MIDDLE})
MIDDLE_TYPES = frozenset({FSTRING_MIDDLE, TSTRING_MIDDLE})
START_TYPES = frozenset({FSTRING_START, TSTRING_START})
END_TYPES = frozenset({FSTRING_END, TSTRING_END})
#: What a replacement field's depth is counted from in ``fields_close``.
FIELD_MARKS = re.compile(r'''[{}'"#\\]''')
#: The longest first row ``formatted_end`` hands to the tokenizer: it copies the whole row into
#: its buffer for each f-string (and each token, on 3.12.0-3.12.3), so a longer one is parsed instead.
LONG_ROW = 4096
PREFIX_CHARS = 'rRbBuUfFtT'
START = itemgetter(2)


class Piece(NamedTuple):
    """Text of one token that may hold escapes, scanned only in ``spans``."""

    start: Position        # where text[0] stands in the file
    text: str
    spans: tuple[tuple[int, int], ...]
    is_bytes: bool
    lookahead: str         # the source character just after ``text``


class Found(NamedTuple):
    """An escape at its absolute (line, 0-based col), and the piece it is in."""

    line: int
    col: int
    escape: Escape
    piece: Piece
    kept: str = ''  # what ``keep_everyday`` said of the piece ('': skip its everyday escapes)


def holds_escaped_backslash(piece: Piece) -> bool:
    """Does the piece spell a backslash as ``\\\\`` (meant: a raw literal would keep both)?
    Then a Windows path's lone backslashes are doubled, not made raw (ESC304, ESC501)."""
    return '\\\\' in piece.text and any(
        escape.text == '\\\\' for begin, end in piece.spans
        for escape in escapes_in(piece.text, piece.is_bytes, begin, end))


def char_col(line: str, byte_col: int) -> int:
    """A column in characters from the AST's UTF-8 byte column."""
    if line.isascii():
        return byte_col
    return len(line.encode('utf-8')[:byte_col].decode('utf-8', errors='replace'))


def split_prefix(text: str) -> tuple[str, int, int]:
    """Return (lower-case prefix, body start, body end) of a STRING token."""
    stripped = text.lstrip(PREFIX_CHARS)
    quote_at = len(text) - len(stripped)
    quote = stripped[:3] if stripped[:3] in ('"""', "'''") else stripped[:1]
    return text[:quote_at].lower(), quote_at + len(quote), len(text) - len(quote)


def fstring_literal_spans(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Literal parts of a non-raw f-string body ``text[start:end]`` (3.10/3.11).

    Mirrors CPython 3.11's ``fstring_find_literal``/``fstring_find_expr``: a
    doubled brace at the top level ends a part (keeping one brace), ``\\N{...}``
    does not open a field, ``\\{`` leaves the backslash at the end of its part,
    and a format spec's literal text is a part of its own.
    """
    spans: list[tuple[int, int]] = []
    _literal_parts(text, start, end, 0, spans)
    return spans


def _literal_parts(
    text: str, i: int, end: int, depth: int, spans: list[tuple[int, int]],
) -> int:
    """Collect literal parts from ``i``; return the index of a closing ``}``."""
    while i < end:
        begin = i
        while i < end:
            char = text[i]
            if char == '\\' and i + 1 < end:
                char = text[i + 1]
                if char == 'N' and text.startswith('{', i + 2):
                    close = text.find('}', i + 3, end)
                    i = close + 1 if close != -1 else end
                    continue
                if char not in '{}':
                    i += 2
                    continue
                i += 1
            if char in '{}':
                if depth == 0 and i + 1 < end and text[i + 1] == char:
                    spans.append((begin, i + 1))
                    i += 2
                    begin = i
                    continue
                break
            i += 1
        if i > begin:
            spans.append((begin, i))
        if i >= end:
            return end
        if text[i] == '}':
            if depth:
                return i
            i += 1  # a lone '}' is a SyntaxError; keep scanning regardless
            continue
        i = _skip_field(text, i + 1, end, depth, spans)
    return end


def _skip_field(
    text: str, i: int, end: int, depth: int, spans: list[tuple[int, int]],
) -> int:
    """Skip a replacement field's expression; parse its format spec, if any."""
    nesting = 0
    while i < end:
        char = text[i]
        if char in '\'"':
            quote = text[i:i + 3] if text[i:i + 3] in ('"""', "'''") else char
            close = text.find(quote, i + len(quote), end)
            i = close + len(quote) if close != -1 else end
            continue
        if char in '([{':
            nesting += 1
        elif char in ')]}':
            if not nesting and char == '}':
                return i + 1
            nesting = max(nesting - 1, 0)
        elif not nesting:
            if char in '!=<>' and text.startswith('=', i + 1):
                i += 2
                continue
            if char == '!':
                i += 2  # the conversion character
                continue
            if char == ':':
                close = _literal_parts(text, i + 1, end, depth + 1, spans)
                return close + 1
        i += 1
    return end


def owner_index(tokens: list[tokenize.TokenInfo], index: int, known: tuple[int, int] = (-1, -1)) -> int:
    """The index of the FSTRING_START/TSTRING_START of the f-/t-string that holds ``tokens[index]``.

    ``known``: (index, owner) of an earlier MIDDLE token; met at the same
    nesting level, it is in the same f-string, so the search stops there (the
    pieces of one f-string then cost one pass over its tokens, not one each).
    """
    depth = 0
    for back in range(index - 1, -1, -1):
        kind = tokens[back][0]
        if kind in END_TYPES:
            depth += 1
        elif kind in START_TYPES:
            if not depth:
                return back
            depth -= 1
        elif back == known[0] and not depth:
            return known[1]
    return index  # unreachable for tokens of valid code


def candidates(tokens: list[tokenize.TokenInfo], lines: list[str]) -> list[int]:
    """Indices of the string tokens that hold a backslash, in order.

    This runs on every file, so it does not visit every token of a whole
    file: it finds the lines that hold a backslash (in C: map, compress), and
    for each backslash the token that holds it, by bisection on the tokens'
    starts (they are sorted).  A multi-line string is found from any of its
    lines.  Tokens fewer than the lines (a whole file gives more: the
    plugin's own, see ``source.tokens_for``) are each looked at instead,
    with no pass over the lines.
    """
    if len(tokens) <= len(lines):
        return [index for index, tok in enumerate(tokens) if tok[0] in PIECE_TYPES and '\\' in tok[1]]
    rows = compress(count(1), map(contains, lines, repeat('\\')))
    found: list[int] = []
    lo = 0
    for row in rows:
        line = lines[row - 1]
        col = line.find('\\')
        while col != -1:
            index = bisect_right(tokens, (row, col), lo, key=START) - 1
            if index < 0:
                break  # a row before the first token: not tokenized (see source.tokens_for)
            lo = index
            tok = tokens[lo]
            if tok[0] in PIECE_TYPES and (not found or found[-1] < lo) and '\\' in tok[1]:
                found.append(lo)
            end_row, end_col = tok[3]
            if end_row != row:
                break  # the token holds the rest of the line
            if tok[2][0] != row:
                # 3.12.1 counts the last line of a multi-line token in bytes
                # (its end column), so that column is not to be trusted.
                end_col = col + 1
            col = line.find('\\', max(end_col, col + 1))
    return found


def pieces(tokens: list[tokenize.TokenInfo], lines: list[str]) -> Iterator[Piece]:
    """Yield the non-raw pieces of ``tokens`` that contain a backslash."""
    known = (-1, -1)  # the last MIDDLE piece and its owner
    for index in candidates(tokens, lines):
        tok = tokens[index]
        text = tok[1]
        if tok[0] == STRING:
            prefix, body_start, body_end = split_prefix(text)
            if 'r' in prefix:
                continue
            if 'f' in prefix or 't' in prefix:
                spans = tuple(fstring_literal_spans(text, body_start, body_end))
            else:
                spans = ((body_start, body_end),)
            yield Piece(tok[2], text, spans, 'b' in prefix, '')
        else:
            known = (index, owner_index(tokens, index, known))
            owner = tokens[known[1]]
            if 'r' in split_prefix(owner[1])[0]:
                continue
            after = tokens[index + 1][1][:1] if index + 1 < len(tokens) else ''
            yield Piece(tok[2], text, ((0, len(text)),), False, after)


def position(start: Position, text: str, offset: int) -> Position:
    """(line, col) of ``text[offset]`` when ``text[0]`` stands at ``start``."""
    newlines = text.count('\n', 0, offset)
    if not newlines:
        return start[0], start[1] + offset
    return start[0] + newlines, offset - text.rfind('\n', 0, offset) - 1


class Positions:
    """(line, col) of offsets of one piece asked in increasing order, as
    ``position`` gives them, reading the text between two offsets once:
    the escapes of a big literal cost time in proportion to its length, not
    to its length times their number."""

    __slots__ = ('start', 'text', 'seen', 'newlines', 'line_start')

    def __init__(self, start: Position, text: str) -> None:
        self.start = start
        self.text = text
        self.seen = 0          # offsets before this one are counted
        self.newlines = 0      # newlines in text[:seen]
        self.line_start = 0    # offset just after the last of them

    def at(self, offset: int) -> Position:
        if offset < self.seen:
            return position(self.start, self.text, offset)
        text = self.text
        newlines = text.count('\n', self.seen, offset)
        if newlines:
            self.newlines += newlines
            self.line_start = text.rfind('\n', self.seen, offset) + 1
        self.seen = offset
        if not self.newlines:
            return self.start[0], self.start[1] + offset
        return self.start[0] + self.newlines, offset - self.line_start


def escapes(
    tokens: list[tokenize.TokenInfo],
    lines: list[str],
    keep_everyday: Callable[[Piece], str] = lambda piece: '',
) -> Iterator[Found]:
    """Yield the escapes of the non-raw literals of ``tokens`` that a check may
    report, in order: those of a piece that holds only everyday escapes
    (``\\n``, ``\\x41``, ...; ``escapes.EVERYDAY_ONLY``) are skipped, unless
    ``keep_everyday(piece)`` says they matter there (a Windows path).

    ``lines`` are the physical lines the tokens were made from.
    """
    for piece in pieces(tokens, lines):
        text = piece.text
        everyday = EVERYDAY_ONLY[piece.is_bytes].fullmatch
        keep = keep_everyday(piece)
        positions = Positions(piece.start, text)
        for begin, end in piece.spans:
            if not keep and everyday(text, begin, end):
                continue  # nothing any check looks at: skip the scan
            for escape in escapes_in(text, piece.is_bytes, begin, end, piece.lookahead):
                line, col = positions.at(escape.offset)
                yield Found(line, col, escape, piece, keep)


def fields_close(text: str, begin: int, end: int) -> bool:
    """Does the f- or t-string ``text[begin:end]`` (from its opening quote,
    ended by ``STRING_LITERAL``'s rule) surely end there on 3.12+?  Yes when
    each replacement field closes before the end and holds no quote, ``#``,
    backslash or ``{{`` (which could hide a brace or the f-string's own quote),
    and no ``\\N{`` stands outside them."""
    depth = 0
    after_pair = -1  # the second brace of a doubled one outside the fields
    for found in FIELD_MARKS.finditer(text, begin + 1, end - 1):
        at = found.start()
        mark = text[at]
        if at == after_pair:
            continue
        if depth:
            if mark == '{' and text[at + 1] != '{':
                depth += 1
            elif mark == '}':
                depth -= 1
            else:
                return False  # a quote, '#', backslash or '{{' inside a field
        elif mark in '{}':
            if text[at + 1] == mark:
                after_pair = at + 1
            elif mark == '}':
                return False
            else:
                depth = 1
        elif mark == '\\' and text.startswith('N{', at + 1):
            return False
    return depth == 0


def formatted_end(text: str, begin: int, quote: int) -> int | None:
    """Where the f- or t-string whose prefix is at ``begin`` (its opening quote at
    ``quote``) ends (3.12+), as the tokenizer reads it from there: at the END
    token that closes its START.  (The tokenizer reads left to right, and a
    literal's end does not depend on what follows it, so the file's tokenizer
    ends it there too.)  None when it does not tokenize alone, or its first
    row is ``LONG_ROW`` or longer (the tokenizer copies a whole row each time)."""
    if (text.find('\n', begin) + 1 or len(text)) - begin >= LONG_ROW:
        return None
    starts = [begin]  # the offset in ``text`` of each row handed to the tokenizer

    def readline() -> str:
        at = starts[-1]
        stop = text.find('\n', at) + 1 or len(text)
        starts.append(stop)
        return text[at:stop]

    start_size = quote - begin + (3 if text.startswith(text[quote] * 3, quote) else 1)
    depth = 0
    try:
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')  # 3.12+'s tokenizer warns about the escapes
            for kind, tok_text, _, (row, col), _ in tokenize.generate_tokens(readline):
                if kind in START_TYPES and (depth or len(tok_text) == start_size):
                    depth += 1
                elif kind in END_TYPES and depth:
                    depth -= 1
                    if not depth:
                        return starts[row - 1] + col
                elif kind == tokenize.ERRORTOKEN or not depth:
                    return None  # not the literal the text shows, or not one at all
    except (tokenize.TokenError, SyntaxError, SystemError):  # SystemError: 3.12.1 and 3.13.0's tokenizer
        return None
    return None
