"""ESC602: a valid escape that changes a doctest example of a non-raw docstring.

doctest runs the docstring's *value*: in ``'''>>> split_lines('a\\nb')'''``
the example it runs holds a real line break inside its quotes.  The
docstring's value is read line by line as doctest reads it (an example's
``>>>`` and ``...`` lines, then its expected output up to a blank line), with
each character's origin; an escape on such a line is a candidate, reported
when it changes the example (a line break in a string, a character in a raw
string of the example, a control character in the quotes of its output).
Each rule that keeps a candidate quiet is a named entry of ``EXEMPTIONS``.

As written, an example's ``>>>`` stands on a row of source, and its lines
and its output follow on the rows after it with no blank row between
(``example_rows``): that is what ``source`` asks of a row before it is read.
"""
from __future__ import annotations

import re
from typing import Iterable, Iterator, NamedTuple

from flake8_escapes import escapes, literals, roles as role_pass, rules
from flake8_escapes.literals import Found, Piece

#: (line, col, rule, message fields, the escape): formatted only at the plugin's edge.
Finding = tuple[int, int, rules.Rule, dict[str, str], Found]

#: doctest's prompts (``doctest.DocTestParser``): ``>>>`` starts an example, ``...`` goes on with it.
PS1 = re.compile(r'[ \t]*>>>(?:[ \t]|$)')
PS2 = re.compile(r'[ \t]*\.\.\.(?:[ \t]|$)')
#: Escapes that are never candidates: they spell the character doctest needs
#: (``\\\\``, a quote) or join rows (a line continuation).
NEVER = frozenset({'\\\\', "\\'", '\\"'})
#: The characters that end a line for doctest and the tokenizer.
LINE_BREAKS = frozenset('\n\r')
#: A line's kinds: an example's source, its expected output.
SOURCE = 'source'
OUTPUT = 'output'
#: Where a character stands in its line: outside strings, in a string, in a raw string.
OUTSIDE = 'outside'
IN_STRING = 'string'
IN_RAW_STRING = 'raw string'

_ESC602 = (rules.ESC602.code,)
LINE_LAYOUT = rules.Exemption(
    'line-layout', _ESC602,
    'A `\\n` (or `\\r`) outside the strings of an example or its output ends the line: a docstring '
    'written on one line.',
    'def add(a, b):\n    """Example:\\n\\n    >>> add(1, 1)\\n    2\\n"""\n    return a + b\n',
)
SAME_VALUE = rules.Exemption(
    'same-value', _ESC602,
    "Inside a non-raw string of an example (`>>> len('a\\tb')`), or a printable character in the "
    'quotes of its output, the escape gives the example the character it would read there itself.',
    'def width(text):\n    """>>> width(\'a\\tb\')\n    3\n    """\n    return len(text)\n',
)
PRINTED_TEXT = rules.Exemption(
    'printed-text', _ESC602,
    'Outside the strings of an example, and outside the quotes of its output, a tab or another '
    'character is printed text or blank space, as meant (`>>> print(table)` with a tab in its output).',
    'def show():\n    """>>> show()\n    a\\tb\n    """\n    print(\'a\\tb\')\n',
)
#: Every exemption of ESC602, in the order they are tried.
EXEMPTIONS: tuple[rules.Exemption, ...] = (LINE_LAYOUT, SAME_VALUE, PRINTED_TEXT)


class Candidate(NamedTuple):
    """An escape on an example's line: where it stands there."""

    found: Found
    line_kind: str     # SOURCE or OUTPUT
    place: str         # OUTSIDE, IN_STRING or IN_RAW_STRING


def example_rows(lines: list[str]) -> set[int]:
    """The rows of source that may hold an example's line or its output: a
    row with ``>>>``, and the rows after it up to a blank one (one that a
    line continuation does not join to the row before)."""
    rows: set[int] = set()
    total = len(lines)
    for index, line in enumerate(lines):
        if '>>>' not in line:
            continue
        row = index + 1
        while row <= total and row not in rows:
            rows.add(row)
            if row < total and not lines[row].strip() and not lines[row - 1].rstrip('\r\n').endswith('\\'):
                break
            row += 1
    return rows


def may_hold_candidate(piece: Piece) -> bool:
    """Could the piece hold a candidate?  (A str literal, not an f-string's piece, with a prompt.)"""
    return not piece.is_bytes and bool(piece.spans[0][0]) and '>>>' in piece.text


def _value(piece: Piece) -> tuple[str, list[escapes.Escape | None]]:
    """The literal's value, and for each of its characters the escape that made it (None: as written)."""
    text = piece.text
    _, begin, end = literals.split_prefix(text)
    chars: list[str] = []
    origins: list[escapes.Escape | None] = []
    at = begin
    for escape in escapes.escapes_in(text, piece.is_bytes, begin, end, piece.lookahead):
        chars.append(text[at:escape.offset])
        origins.extend([None] * (escape.offset - at))
        value = escape.text if escape.kind == escapes.INVALID else escapes.value_of(escape)
        chars.append(value)
        origins.extend([escape] * len(value))
        at = escape.offset + len(escape.text)
    chars.append(text[at:end])
    origins.extend([None] * (end - at))
    return ''.join(chars), origins


class _Strings:
    """Where each character of an example's lines stands: outside strings,
    in a string, in a raw string (a Python tokenizer's view, small)."""

    def __init__(self) -> None:
        self.quote = ''      # the open string's quote ('', one or three characters)
        self.raw = False

    def place(self) -> str:
        if not self.quote:
            return OUTSIDE
        return IN_RAW_STRING if self.raw else IN_STRING

    def places(self, line: str, code: bool) -> list[str]:
        """The place of each character of ``line``; ``code``: an example's source (prefixes, comments)."""
        found = []
        index = 0
        skip = False
        while index < len(line):
            char = line[index]
            found.append(self.place())
            if skip:
                skip = False
            elif self.quote:
                if char == '\\':
                    skip = True
                elif line.startswith(self.quote, index):
                    found.extend([self.place()] * (len(self.quote) - 1))
                    index += len(self.quote) - 1
                    self.quote = ''
            elif char in '\'"':
                self.open(line, index, code)
                found.extend([OUTSIDE] * (len(self.quote) - 1))
                index += len(self.quote) - 1
            elif char == '#' and code:
                found.extend([OUTSIDE] * (len(line) - index - 1))
                break
            index += 1
        return found

    def open(self, line: str, index: int, code: bool) -> None:
        prefix = re.search(r'[A-Za-z]*\Z', line[:index])
        self.raw = code and prefix is not None and 'r' in prefix[0].lower()
        self.quote = line[index:index + 3] if line[index:index + 3] in ('"""', "'''") else line[index]


def candidates(piece: Piece) -> Iterator[Candidate]:
    """The escapes on the example lines (and output) of a docstring's value."""
    value, origins = _value(piece)
    positions = literals.Positions(piece.start, piece.text)
    seen: set[int] = set()
    kind = ''          # the kind of the lines being read: SOURCE, OUTPUT or '' (no example)
    strings = _Strings()
    start = 0
    while start <= len(value):
        end = value.find('\n', start)
        end = len(value) if end == -1 else end
        line = value[start:end]
        if kind == SOURCE and len(strings.quote) == 1:
            pass  # a line break made by an escape cut a string: its line goes on here
        elif PS1.match(line):
            kind, strings = SOURCE, _Strings()
        elif kind and PS2.match(line) and kind == SOURCE:
            pass
        elif kind and line.strip():
            if kind == SOURCE:
                strings = _Strings()
            kind = OUTPUT
        else:
            kind = ''
        if kind:
            places = strings.places(line, kind == SOURCE)
            places.append(strings.place())  # the line break that ends the line
            if kind == OUTPUT:
                strings = _Strings()  # an output line's quotes end with it
            for index in range(start, min(end + 1, len(value))):
                escape = origins[index]
                if (escape is None or escape.offset in seen or escape.text in NEVER
                        or escape.kind == escapes.INVALID):  # invalid: the example reads it as written
                    continue
                seen.add(escape.offset)
                line_no, col = positions.at(escape.offset)
                yield Candidate(Found(line_no, col, escape, piece), kind, places[index - start])
        start = end + 1


def exemption_for(candidate: Candidate) -> rules.Exemption | None:
    """The exemption that keeps a candidate quiet, or None: it changes the example."""
    escape, place = candidate.found.escape, candidate.place
    value = escapes.value_of(escape)
    if value in LINE_BREAKS:
        return LINE_LAYOUT if place == OUTSIDE else None
    if place == OUTSIDE:
        return PRINTED_TEXT
    if candidate.line_kind == SOURCE:
        return SAME_VALUE if place == IN_STRING else None
    return SAME_VALUE if value.isprintable() else None


#: What an escape that changes an example makes of it, by where it stands.
MEANINGS = {
    (SOURCE, IN_STRING): 'a line break inside a string',
    (SOURCE, IN_RAW_STRING): 'a control character in a raw string',
    (OUTPUT, IN_STRING): 'a control character in the output',
}


def reports(
    pieces: Iterable[Piece],
    roles: list[role_pass.Role],
    silenced: list[rules.Silenced] | None = None,
) -> Iterator[Finding]:
    """ESC602: the escapes that change a doctest example of a docstring (a ``roles.DOCSTRING``)."""
    active = frozenset(exemption.name for exemption in EXEMPTIONS)
    for piece in pieces:
        if role_pass.role_at(roles, *piece.start, (role_pass.DOCSTRING,)) is None:
            continue
        for candidate in candidates(piece):
            item = candidate.found
            exemption = exemption_for(candidate)
            if exemption is not None and exemption.name in active:
                if silenced is not None:
                    silenced.append(rules.Silenced(item.line, item.col, rules.ESC602.code,
                                                   item.escape.text, exemption.name))
                continue
            meaning = MEANINGS.get((candidate.line_kind, candidate.place), 'a control character in a string')
            if escapes.value_of(item.escape) in LINE_BREAKS:
                meaning = 'a line break inside a string'
            text = item.escape.text
            yield item.line, item.col, rules.ESC602, {
                'escape': text, 'meaning': meaning, 'doubled': '\\' + text,
            }, item
