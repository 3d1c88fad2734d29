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
(``example_rows``), inside a docstring's rows (``docstring_rows``): that is
what ``source`` asks of a row before it is read.
"""
from __future__ import annotations

import ast
import re
import string
from bisect import bisect_right
from typing import Callable, Iterable, Iterator, NamedTuple

from flake8_escapes import escapes, literals, rules
from flake8_escapes.literals import Found, Piece
from flake8_escapes.names import statement_parts

#: (line, col, rule, message fields, the escape): formatted only at the plugin's edge.
Finding = tuple[int, int, rules.Rule, dict[str, str], Found]

#: doctest's prompts (``doctest.DocTestParser``): ``>>>`` starts an example, ``...`` goes on with it.
PS1 = re.compile(r'[ \t]*>>>(?:[ \t]|$)')
PS2 = re.compile(r'[ \t]*\.\.\.(?:[ \t]|$)')
#: ... at a position inside a docstring's value (the row a line continuation joins).
PS2_AHEAD = re.compile(r'[ \t]*\.\.\.(?=[ \t\n]|$)')
#: Escapes that are never candidates: they spell the character doctest needs
#: (``\\\\``, a quote) or join rows (a line continuation).
NEVER = frozenset({'\\\\', "\\'", '\\"'})
#: The nodes whose first statement is a docstring.
DEFINITIONS = frozenset({ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef})
#: The characters that end a line for doctest and the tokenizer.
LINE_BREAKS = frozenset('\n\r')
#: A line's kinds: an example's source, its expected output.
SOURCE = 'source'
OUTPUT = 'output'
#: Where a character stands in its line: outside strings, in a string, in a raw string.
OUTSIDE = 'outside'
IN_STRING = 'string'
IN_RAW_STRING = 'raw string'
IN_COMMENT = 'comment'
#: The letters of a string's prefix, as the prompt's code may spell them.
ASCII_LETTERS = frozenset(string.ascii_letters)

_ESC602 = (rules.ESC602.code,)
LINE_LAYOUT = rules.Exemption(
    'line-layout', _ESC602,
    'A `\\n` (or `\\r`) outside the strings of an example or its output ends the line: a docstring '
    'written on one line (in an example\'s comment too, unless the row\'s real line break follows it).',
    'def add(a, b):\n    """Example:\\n\\n    >>> add(1, 1)\\n    2\\n"""\n    return a + b\n',
)
PRINTABLE = rules.Exemption(
    'printable-character', _ESC602,
    "An escape that gives a printable character (`'\\xe9'` shown as `é`) in an example's source, or in "
    'the quotes of its output, gives the example the character it would read there itself.',
    'def name():\n    """>>> name(\'caf\\xe9\')\n    4\n    """\n    return 4\n',
)
PRINTED_TEXT = rules.Exemption(
    'printed-text', _ESC602,
    'Outside the quotes of an expected output, a tab or another character is printed text or blank '
    'space, as meant (`>>> print(table)` with a tab in its output).',
    'def show():\n    """>>> show()\n    a\\tb\n    """\n    print(\'a\\tb\')\n',
)
JOINED_CODE = rules.Exemption(
    'joined-code', _ESC602,
    "A line continuation in an example whose next row has no `...` prompt joins the rows into one "
    'line, as Python would join them.',
    'def total():\n    \"\"\">>> total(1,\\\n                2)\n    3\n    \"\"\"\n',
)
#: Every exemption of ESC602, in the order they are tried.
EXEMPTIONS: tuple[rules.Exemption, ...] = (LINE_LAYOUT, PRINTABLE, PRINTED_TEXT, JOINED_CODE)
# The finding rules of issue 30 (``FINDERS``): what the docs show, not only what doctest runs.
SHOWN_CONTROL = rules.Finder(
    'shown-control-character', _ESC602,
    'An escape that puts a control character (C0 with the tab, DEL, C1) or another character Python '
    'does not print (a no-break space, a soft hyphen) into an example\'s source or its comment is '
    'reported: doctest runs it alike, but `help()` and Sphinx show the raw character.',
    'def fields(text):\n    """>>> fields(\'x\\ty\')\n    [\'x\', \'y\']\n    """\n',
)
CUT_COMMENT = rules.Finder(
    'cut-comment', _ESC602,
    "A line break escape in an example's comment that the row's real line break follows cuts the "
    'example\'s line in two.',
    'def sep():\n    """>>> sep = chr(10)  # sep is \\n\n    """\n',
)
STRING_ACROSS_LINES = rules.Finder(
    'string-across-lines', _ESC602,
    'A string that a line break escape cut goes on over the next lines, in an expected output as in '
    'an example: each of its line breaks is reported.',
    'def g():\n    """>>> g()\n    \'a\\nb\\nc\'\n    """\n',
)
JOINED_PROMPT = rules.Finder(
    'joined-prompt', _ESC602,
    "A line continuation in an example whose next row starts with a `...` prompt joins the prompt "
    'into the example\'s line (into its string, or into its code).',
    "def deprecated():\n    \"\"\">>> @deprecated('''\\\n    ...     Use g.''')\n"
    "    ... def f(): pass\n    \"\"\"\n",
)
DOUBLED_PATH = rules.Finder(
    'doubled-path', _ESC602,
    "A `\\\\` leaves one backslash in an example's string; where that backslash makes a valid escape "
    '(`\\t`) in a string that then reads as a Windows path, as ESC501 reads one in code, doctest runs '
    'a control character where the example shows a separator.',
    'def format_path(path):\n    """>>> format_path("test_folder\\\\test_file")\n'
    "    'test_folder/test_file'\n    \"\"\"\n",
)
DOUBLED_OUTPUT = rules.Finder(
    'doubled-output', _ESC602,
    "A `\\\\` in the quotes of an expected output leaves one backslash before a character that a repr "
    "never escapes (`'2 \\\\| 5'` expects `'2 \\| 5'`): the real repr never matches it.",
    "def table():\n    \"\"\">>> table()\n    '2 \\\\| 5'\n    \"\"\"\n",
)
#: Every finding rule of ESC602.
FINDERS: tuple[rules.Finder, ...] = (
    SHOWN_CONTROL, CUT_COMMENT, STRING_ACROSS_LINES, JOINED_PROMPT, DOUBLED_PATH, DOUBLED_OUTPUT,
)
#: The escape of a ``\\\\`` (it leaves one backslash in the docstring's value).
DOUBLED = '\\\\'
#: What follows a backslash in an example's str to make a valid escape: the string changes.
VALID_AFTER = frozenset('abfnrtv01234567xuU')
#: What follows a backslash in a repr (of a str or bytes): ``\\\\``, a quote, ``\\n``, ``\\x41``, ...
REPR_AFTER = frozenset('\\\'ntrxuU')
#: Does an example's string (its text as the example spells it), on the example's line, read as a
#: Windows path whose escape at the offset is a hazard, as ESC501 reads code?  (``paths.ExampleReader``,
#: given by ``checks``: a family does not import another.)
PathReader = Callable[[str, str, int], bool]


class Candidate(NamedTuple):
    """An escape on an example's line: where it stands there."""

    found: Found
    line_kind: str     # SOURCE or OUTPUT
    place: str         # OUTSIDE, IN_STRING, IN_RAW_STRING or IN_COMMENT
    before_break: bool = False  # the row's real line break follows the escape's character
    joins_prompt: bool = False  # a line continuation whose next row starts with a '...' prompt
    doubled: str = ''  # a ``\\``'s: the escape its one backslash makes in the example ('\\t')


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


def joined_to_prompt(lines: list[str], prompt: int, row: int) -> bool:
    """Is ``row`` in ``example_rows`` through the row ``prompt``, which holds ``>>>``
    (no blank row between them that a line continuation does not join)?"""
    for number in range(prompt + 1, row + 1):
        if not lines[number - 1].strip() and not lines[number - 2].rstrip('\r\n').endswith('\\'):
            return False
    return True


def docstring_span(body: list[ast.stmt]) -> tuple[int, int] | None:
    """The (first, last) rows of the docstring that opens ``body``, if one does."""
    first = body[0] if body else None
    if type(first) is ast.Expr:
        value = first.value
        if type(value) is ast.Constant and type(value.value) is str:
            return value.lineno, value.end_lineno or value.lineno
    return None


def docstring_rows(tree: ast.AST) -> list[tuple[int, int]]:
    """The (first, last) rows of the docstrings of a module, its classes and
    its functions, found by walking statements only (never expressions)."""
    found = []
    pending: list[ast.AST] = [tree]
    while pending:
        node = pending.pop()
        kind = type(node)
        if kind in DEFINITIONS:
            span = docstring_span(node.body)  # type: ignore[attr-defined]
            if span is not None:
                found.append(span)
        for field, clauses in statement_parts(kind):  # simple statements have none
            value = getattr(node, field, None)
            if not value or not isinstance(value, list):
                continue
            if clauses:
                for clause in value:
                    pending.extend(clause.body)
            else:
                pending.extend(value)
    return found


def may_hold_candidate(piece: Piece) -> bool:
    """Could the piece hold a candidate?  (A str literal, not an f-string's piece, with a prompt.)"""
    return not piece.is_bytes and bool(piece.spans[0][0]) and '>>>' in piece.text


def _value(piece: Piece, doubled: bool = False) -> tuple[str, list[tuple[int, escapes.Escape]]]:
    """The literal's value, and where in it each escape that may be a
    candidate put its character (not ``NEVER``'s, not an invalid one, which
    the example reads as written, not a line continuation), in order;
    ``doubled``: each ``\\\\`` too (the one backslash it leaves)."""
    text = piece.text
    _, begin, end = literals.split_prefix(text)
    chars: list[str] = []
    marks: list[tuple[int, escapes.Escape]] = []
    at = begin
    size = 0  # the value's length so far
    for escape in escapes.escapes_in(text, piece.is_bytes, begin, end, piece.lookahead):
        chars.append(text[at:escape.offset])
        size += escape.offset - at
        value = escape.text if escape.kind == escapes.INVALID else escapes.value_of(escape)
        if ((value or escape.kind == escapes.CONTINUATION) and escape.kind != escapes.INVALID
                and escape.text not in NEVER) or (doubled and escape.text == DOUBLED):
            marks.append((size, escape))
        chars.append(value)
        size += len(value)
        at = escape.offset + len(escape.text)
    chars.append(text[at:end])
    return ''.join(chars), marks


class _Strings:
    """Where each character of an example's lines stands: outside strings,
    in a string, in a raw string (a Python tokenizer's view, small)."""

    def __init__(self) -> None:
        self.quote = ''      # the open string's quote ('', one or three characters)
        self.raw = False
        self.comment = False  # the line read last ended in a comment
        self.starts: set[int] = set()  # where a backslash starts an escape in a string of the line

    def place(self) -> str:
        if self.comment:
            return IN_COMMENT
        if not self.quote:
            return OUTSIDE
        return IN_RAW_STRING if self.raw else IN_STRING

    def places(self, line: str, code: bool) -> list[str]:
        """The place of each character of ``line``; ``code``: an example's source (prefixes, comments)."""
        found = []
        index = 0
        skip = False
        self.comment = False
        self.starts = set()
        while index < len(line):
            char = line[index]
            found.append(self.place())
            if skip:
                skip = False
            elif self.quote:
                if char == '\\':
                    skip = True
                    self.starts.add(index)
                elif line.startswith(self.quote, index):
                    found.extend([self.place()] * (len(self.quote) - 1))
                    index += len(self.quote) - 1
                    self.quote = ''
            elif char in '\'"':
                self.open(line, index, code)
                found.extend([OUTSIDE] * (len(self.quote) - 1))
                index += len(self.quote) - 1
            elif char == '#' and code:
                found.extend([IN_COMMENT] * (len(line) - index - 1))
                self.comment = True
                break
            index += 1
        return found

    def open(self, line: str, index: int, code: bool) -> None:
        # The letters just before the quote are its prefix: read back to the first other
        # character, never the whole line again (issue 40 item 5: n strings cost n^2).
        start = index
        while code and start and line[start - 1] in ASCII_LETTERS:
            start -= 1
        self.raw = code and 'r' in line[start:index].lower()
        self.quote = line[index:index + 3] if line[index:index + 3] in ('"""', "'''") else line[index]


def _next_line(kind: str, strings: _Strings, line: str) -> tuple[str, _Strings]:
    """The kind of the next line of a docstring's value, read as doctest reads it, and its strings."""
    if kind and len(strings.quote) == 1:
        return kind, strings  # a line break made by an escape cut a string: its line goes on here
    if PS1.match(line):
        return SOURCE, _Strings()
    if kind == SOURCE and PS2.match(line):
        return kind, strings
    if kind and line.strip():
        return OUTPUT, _Strings() if kind == SOURCE else strings
    return '', strings


class _Doubled:
    """Which ``\\\\`` of one line of an example leave a backslash that makes an
    escape changing it (``DOUBLED_PATH``, ``DOUBLED_OUTPUT``): each string of
    the line is found and read as a path once, however many it holds."""

    def __init__(self, line: str, places: list[str], starts: set[int], kind: str,
                 read_path: PathReader | None) -> None:
        self.line = line
        self.places = places  # the line's, and its line break's
        self.starts = starts
        self.kind = kind
        self.read_path = read_path if DOUBLED_PATH in FINDERS else None
        self.output = DOUBLED_OUTPUT in FINDERS
        self.bounds: list[int] = []  # where each run of one place starts, found once
        self.paths: dict[int, bool] = {}  # a string's start -> does it read as a path

    def escape_at(self, at: int) -> str:
        """The escape the backslash at ``line[at]`` makes if it changes the example, else ''."""
        after = self.line[at + 1:at + 2]
        if at not in self.starts or not after or self.places[at] != IN_STRING:
            return ''
        if self.kind == OUTPUT:
            changes = self.output and after not in REPR_AFTER
        else:
            changes = after in VALID_AFTER and self.in_path(at)
        return '\\' + after if changes else ''

    def in_path(self, at: int) -> bool:
        """Does the string that holds ``line[at]`` read as a path (``read_path``)?"""
        if self.read_path is None:
            return False
        places = self.places
        if not self.bounds:
            self.bounds = [index for index in range(len(places))
                           if not index or places[index] != places[index - 1]]
        run = bisect_right(self.bounds, at) - 1
        begin = self.bounds[run]
        found = self.paths.get(begin)
        if found is None:
            end = self.bounds[run + 1] if run + 1 < len(self.bounds) else len(places)
            body = self.line[begin:end]
            if end < len(places):  # the string ends on the line: its closing quote left out
                body = body[:-3] if body.endswith(('"""', "'''")) and len(body) >= 3 else body[:-1]
            found = self.paths[begin] = self.read_path(body, self.line, at - begin)
        return found


def _line_candidates(piece: Piece, value: str, marks: list[tuple[int, escapes.Escape]], start: int,
                     kind: str, places: list[str], reading: _Doubled, made: set[int],
                     positions: literals.Positions) -> Iterator[Candidate]:
    """The candidates of one line of an example (``value[start:]``): its ``marks``."""
    for index, escape in marks:
        made_escape = reading.escape_at(index - start) if escape.text == DOUBLED else ''
        if escape.text == DOUBLED and not made_escape:
            continue  # the one backslash left is what the example means
        line_no, col = positions.at(escape.offset)
        real_break = value[index + 1:index + 2] == '\n' and index + 1 not in made
        prompt = escape.kind == escapes.CONTINUATION and PS2_AHEAD.match(value, index) is not None
        yield Candidate(Found(line_no, col, escape, piece), kind, places[index - start], real_break,
                        prompt, made_escape)


def candidates(piece: Piece, read_path: PathReader | None = None) -> Iterator[Candidate]:
    """The escapes on the example lines (and output) of a docstring's value
    (``read_path``: ``DOUBLED_PATH``'s reading of an example's string)."""
    doubled = DOUBLED_PATH in FINDERS or DOUBLED_OUTPUT in FINDERS
    value, marks = _value(piece, doubled)
    if not marks:
        return
    made = {index for index, _ in marks}  # the value's characters made by an escape
    across = STRING_ACROSS_LINES in FINDERS
    positions = literals.Positions(piece.start, piece.text)
    kind = ''          # the kind of the lines being read: SOURCE, OUTPUT or '' (no example)
    strings = _Strings()
    start = mark = 0
    while start <= len(value) and mark < len(marks):
        end = value.find('\n', start)
        end = len(value) if end == -1 else end
        line = value[start:end]
        kind, strings = _next_line(kind, strings, line)
        first = mark
        while mark < len(marks) and marks[mark][0] <= end:  # the escapes of the line and its break
            mark += 1
        if kind and (first < mark or '"""' in line or "'''" in line):
            places = strings.places(line, kind == SOURCE)
            places.append(strings.place())  # the line break that ends the line
            reading = _Doubled(line, places, strings.starts, kind, read_path)
            if kind == OUTPUT and not (across and len(strings.quote) == 1 and end in made):
                strings = _Strings()  # an output line's quotes end with it, unless an escape cut them
            yield from _line_candidates(piece, value, marks[first:mark], start, kind, places, reading,
                                        made, positions)
        elif kind:
            strings = _Strings()  # no escape, no triple quote: no string of it goes on
        start = end + 1


def is_control(value: str) -> bool:
    """Is ``value`` one control character (C0 with the tab, DEL, C1)?"""
    return len(value) == 1 and (ord(value) < 0x20 or 0x7f <= ord(value) < 0xa0)


def exemption_for(candidate: Candidate) -> rules.Exemption | None:
    """The exemption that keeps a candidate quiet, or None: it changes the example."""
    escape, place = candidate.found.escape, candidate.place
    if candidate.doubled:
        return None  # found by DOUBLED_PATH or DOUBLED_OUTPUT only where it changes the example
    value = escapes.value_of(escape)
    finders = {finder.name for finder in FINDERS}
    if escape.kind == escapes.CONTINUATION:
        joined = candidate.joins_prompt and JOINED_PROMPT.name in finders
        return None if joined and candidate.line_kind == SOURCE else JOINED_CODE
    if value in LINE_BREAKS:
        if place == IN_COMMENT and candidate.before_break and CUT_COMMENT.name in finders:
            return None
        return LINE_LAYOUT if place in (OUTSIDE, IN_COMMENT) else None
    if candidate.line_kind == OUTPUT:
        if place == OUTSIDE:
            return PRINTED_TEXT
        return PRINTABLE if value.isprintable() else None
    if place == IN_RAW_STRING:
        return None
    if (is_control(value) or not value.isprintable()) and SHOWN_CONTROL.name in finders:
        return None
    return PRINTABLE


#: What an escape that changes an example makes of it, by where it stands
#: (``{char}``: the character, as ``character`` names it).
MEANINGS = {
    (SOURCE, IN_STRING): '{char} in a string',
    (SOURCE, IN_RAW_STRING): '{char} in a raw string',
    (SOURCE, IN_COMMENT): '{char} in a comment',
    (SOURCE, OUTSIDE): '{char} in the example',
    (OUTPUT, IN_STRING): '{char} in the output',
}
#: ... and a line break, by where it stands.
BREAKS = {IN_COMMENT: 'a line break inside a comment'}


def character(value: str) -> str:
    """How a message names the character an escape makes: a control character, or its code point."""
    if is_control(value):
        return 'a control character'
    return 'the character ' + ', '.join(f'U+{ord(c):04X}' for c in value)


def meaning_of(candidate: Candidate) -> str:
    """What the candidate's escape makes of its example, as the message says it."""
    made = candidate.doubled
    if made:
        if candidate.line_kind == OUTPUT:
            return f"'{made}' in the output, which a repr never prints"
        return f"'{made}', {escapes.CONTROL_NAMES.get(made, 'an escape')}, in the example's path"
    value = escapes.value_of(candidate.found.escape)
    if candidate.found.escape.kind == escapes.CONTINUATION:
        where = 'a string' if candidate.place in (IN_STRING, IN_RAW_STRING) else "the example's code"
        return f"the next row, its '...' prompt included, part of {where}"
    if value in LINE_BREAKS:
        return BREAKS.get(candidate.place, 'a line break inside a string')
    meaning = MEANINGS.get((candidate.line_kind, candidate.place), '{char} in a string')
    return meaning.format(char=character(value))


def in_docstring(piece: Piece, docstrings: list[tuple[int, int]]) -> bool:
    """Does the piece (a STRING token) stand on the rows of a docstring (``docstring_rows``)?"""
    first = piece.start[0]
    last = first + piece.text.count('\n')
    return any(start <= first and last <= end for start, end in docstrings)


def reports(
    pieces: Iterable[Piece],
    docstrings: list[tuple[int, int]],
    silenced: list[rules.Silenced] | None = None,
    read_path: PathReader | None = None,
) -> Iterator[Finding]:
    """ESC602: the escapes that change a doctest example of a docstring (on the rows ``docstrings``);
    ``read_path``: how ESC501 reads an example's string (``DOUBLED_PATH``)."""
    active = frozenset(exemption.name for exemption in EXEMPTIONS)
    for piece in pieces:
        if not in_docstring(piece, docstrings):
            continue
        for candidate in candidates(piece, read_path):
            item = candidate.found
            exemption = exemption_for(candidate)
            if exemption is not None and exemption.name in active:
                if silenced is not None:
                    silenced.append(rules.Silenced(item.line, item.col, rules.ESC602.code,
                                                   item.escape.text, exemption.name))
                continue
            text = item.escape.text
            if item.escape.kind == escapes.CONTINUATION:
                text = '\\'  # a backslash at the row's end: the message shows no line break
            yield item.line, item.col, rules.ESC602, {
                'escape': text, 'meaning': meaning_of(candidate),
                'doubled': text * 2 if candidate.doubled else '\\' + text,
            }, item
