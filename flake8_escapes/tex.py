"""ESC601: a valid escape that cuts a TeX command (``'$\\theta$'`` is a tab and ``heta``).

A TeX command is a backslash and letters, and seven letters make a valid
Python escape: ``a b f n r t v``.  A candidate is such an escape, in a
non-raw str, f- or t-string, followed in the source by the rest of a command
of ``COMMANDS`` and then a non-letter (the whole name: ``\\nu`` in
``'\\nu_0'``, never ``\\nu`` in ``'\\number'``).  It is reported when the
text around it reads as TeX (``EVIDENCE``): inside ``$...$``, beside other TeX
in the same line of the literal, in a docstring's ``:math:`` role or ``..
math::`` block, or passed to an API that takes TeX (``roles.TEX``, the
``apis.TEX_ROWS``).  Each rule that keeps a look-alike quiet is a named
entry of ``EXEMPTIONS``.

Every candidate's row of source holds the escape and the whole command
name, then a non-letter or the row's end (a name holds no line break):
``may_hold_command`` is what ``source`` asks of a row before it is read.
"""
from __future__ import annotations

import os
import re
from bisect import bisect_left, bisect_right
from typing import Iterable, Iterator, NamedTuple

from flake8_escapes import escapes, literals, roles as role_pass, rules
from flake8_escapes.literals import Found, Piece

#: (line, col, rule, message fields, the escape): formatted only at the plugin's edge.
Finding = tuple[int, int, rules.Rule, dict[str, str], Found]

#: The TeX command names, generated from KaTeX's sources and the LaTeX
#: kernel (the file's header names both, with their versions, and the
#: command that made it: ``tests/make_tex_commands.py``).
COMMANDS_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'data', 'tex_commands.txt')
#: The letters of a valid escape of one letter that a command may begin with.
COMMAND_LETTERS = 'abfnrtv'


def _read_names(path: str) -> frozenset[str]:
    """The names of ``path``: one a line, ``#`` lines are its header."""
    with open(path, encoding='utf-8') as file:
        return frozenset(line for line in file.read().split('\n') if line and not line.startswith('#'))


ALL_COMMANDS = _read_names(COMMANDS_FILE)
#: The command names (two letters or more) that begin with a letter of a valid
#: escape, by that letter: the candidates.  One-letter accents (``\\b``,
#: ``\\t``, ``\\v``) are left out: ``'\\t{'`` is a tab.
COMMANDS: dict[str, frozenset[str]] = {
    letter: frozenset(name for name in ALL_COMMANDS if name[0] == letter) for letter in COMMAND_LETTERS
}
NAMES = frozenset(name for names in COMMANDS.values() for name in names)
#: Other TeX names of common packages (physics, sectioning, TeX primitives) that the
#: generated list lacks: beside a candidate they say the literal is TeX, never a candidate.
OTHER_COMMANDS = frozenset({
    'dd', 'expval', 'hfill', 'limits', 'section', 'subsection', 'ket', 'vskip', 'vbox', 'vfill',
    'noindent', 'norm', 'appendix', 'tableofcontents', 'baselineskip',
})
#: Every TeX name: a doubled or invalid-escape one beside a candidate says TeX.
TEX_NAMES = ALL_COMMANDS | OTHER_COMMANDS
#: Commands whose letters after the escape's are an ordinary word or a
#: one-letter name (``\\ne``: a newline and ``e`` in ``'c = 4\\ne = 5'``;
#: ``\\tan``: a tab and ``an``; ``\\rangle``: a carriage return and ``angle``):
#: an API that takes TeX alone does not make them TeX.  Every name of two
#: letters is one too (``is_everyday``).
EVERYDAY_WORDS = frozenset({
    'neq', 'nexists', 'top', 'tan', 'rangle', 'rfloor', 'rbrace', 'rbrack', 'rarr', 'rang', 'rgroup',
    'rparen', 'nless', 'nmid', 'nsim', 'nparallel', 'null', 'not', 'neg',
})
#: A backslash, an escape's letter and letters, as the source spells them:
#: a command of ``NAMES`` when the letters are one (searched in C on the rows of
#: every file, the names then looked up in a set: no pattern of 600 names to compile).
COMMAND_SHAPE = re.compile(r'\\([abfnrtv][A-Za-z]+)')
#: A backslash (doubled or not) and letters: another TeX command when they are one of ``TEX_NAMES``.
OTHER_SHAPE = re.compile(r'\\\\?([A-Za-z]+)')
_LETTERS = re.compile('[A-Za-z]*')


def other_tex(text: str) -> Iterator[re.Match[str]]:
    """The TeX commands of ``text``, doubled or with an invalid or valid escape, each name in group 1."""
    return (match for match in OTHER_SHAPE.finditer(text) if match[1] in TEX_NAMES)


# What the text around a candidate must show to read as TeX (and ``other_tex``).
#: TeX's syntax: a superscript or a subscript in braces, a command with an argument
#: (two letters or more: not ``\\N{...}``).
TEX_SYNTAX = re.compile(r'[\^_]\{|\\[A-Za-z]{2,}\{')
#: An unescaped dollar sign (``$$``, display math's, counts as one).
DOLLAR = re.compile(r'(?<!\\)\$\$?')
#: ``$...$`` on one line, its first and last characters not blank (not ``$HOME and $PATH``).
DOLLAR_PAIR = re.compile(r'(?<!\\)\$[^\s$][^$\n]*?(?<![\s\\])\$')
#: A ``:math:`...``` role of reStructuredText.
MATH_ROLE = re.compile(r':math:`[^`]*`')
#: A ``.. math::`` directive (or one misspelled: ``..math:``, ``.. math:``), at a row's start or the
#: literal's, and what stands after it.
MATH_DIRECTIVE = re.compile(r'^([ \t]*|[A-Za-z]*(?:"""|\'\'\'|"|\'))\.\.[ \t]?math::?(.*)$', re.MULTILINE)
#: Text in reST's default role (single backquotes, not a role's, a literal's or a link's).
DEFAULT_ROLE = re.compile(r'(?<![`:\w])`[^`\n]+`(?![`_\w])')
#: A file's extension after a name (``results\\beta.csv``).
EXTENSION = re.compile(r'\.[A-Za-z][A-Za-z0-9]{0,4}(?![A-Za-z0-9])')
#: A subscript or superscript: a brace, a digit, a ``%`` field or one letter after ``_`` or ``^``.
SUBSCRIPT = re.compile(r'[_^](?:[{%0-9]|[A-Za-z](?![A-Za-z]))')
#: A literal's prefix and opening quote.
LITERAL_START = re.compile(r'[A-Za-z]*(?:\'\'\'|"""|\'|")')
#: The line breaks of a literal.
LINE_BREAK = re.compile('\n')
#: The letters that make a valid escape of one letter (the others make an invalid one: ``\\sigma``).
ESCAPE_LETTERS = frozenset('abfnrtvNuUx')

#: The kinds of evidence, as ``evidence`` names them.
IN_MATH = 'inside $...$'
BESIDE_TEX = 'beside other TeX'
MATH_DOCSTRING = 'in a :math: role or a .. math:: block'
TEX_API = 'passed to an API that takes TeX'

_ESC601 = (rules.ESC601.code,)
# The finding rules of issue 30 (``FINDERS``): TeX as scientists write it in docstrings and tables.
DOCSTRING_PROSE = rules.Finder(
    'docstring-prose', _ESC601,
    'In a docstring, a command that is not a short name or an everyday word (`EVERYDAY_WORDS`) is '
    'TeX written as prose, unless it reads as a part of a file\'s path (an extension after it, or a '
    'backslash after it and a letter or digit before it).',
    'def grad(f):\n    """Gradient \\nabla f of the loss."""\n',
)
TEX_DOCSTRING = rules.Finder(
    'tex-docstring', _ESC601,
    'A docstring that shows TeX anywhere (a `.. math::` block, a `:math:` role, `$...$`, a doubled '
    'command such as `\\\\psi`, an invalid-escape command such as `\\sigma`) makes a command on any '
    'of its lines TeX, a short name or an everyday word too.',
    'def density(x):\n    """Density :math:`\\\\rho`.\n\n    Zero when x \\ne 0.\n    """\n',
)
PARTIAL_ESCAPING = rules.Finder(
    'partial-escaping', _ESC601,
    'A literal that writes another command doubled (`\\\\psi`) or with an invalid escape (`\\sigma`) '
    'on any of its lines is TeX: its single commands are reported.',
    's = """\\\\mathbf{x}\n\\rtimes y"""\n',
)
MISSPELLED_MATH = rules.Finder(
    'misspelled-math', _ESC601,
    'A misspelled math role or directive (`..math:`, `.. math:`, `:math:\\tau` without backquotes) '
    'is read as the right one, and in a docstring so is text in single backquotes (reST\'s default '
    'role, where a project writes math).',
    'def f(x):\n    """The map `x \\to y`."""\n',
)
TEX_TABLE = rules.Finder(
    'tex-table', _ESC601,
    'In the keys, the values or the items of a dict, list, tuple or set, one command written doubled, '
    'raw or with an invalid escape (`\'\\sigma\'`) makes the table TeX, and each command in it a report.',
    "names = {'\\theta': 'θ', '\\\\sigma': 'σ'}\n",
)
GROUP_COMMAND = rules.Finder(
    'group-command', _ESC601,
    'A command right after `{` and before a space, a line break or `}` is a TeX group (`{\\rm E}`, '
    '`_{\\bf x}`), a short name too.',
    'labels = {"r": "r_{\\rm eff}"}\n',
)
SYMBOL_NAME = rules.Finder(
    'symbol-name', _ESC601,
    "A literal that begins with a command and a subscript or superscript (`_` or `^`, then a brace, a "
    "digit, a `%` field or one letter: `'\\alpha_%i'`, `'\\theta_0'`) names a TeX symbol, unless the "
    'command is a short name or an everyday word.',
    "names.append('\\alpha_%i' % k)\n",
)
#: Every finding rule of ESC601, in the order they are tried.
FINDERS: tuple[rules.Finder, ...] = (
    GROUP_COMMAND, MISSPELLED_MATH, TEX_TABLE, TEX_DOCSTRING, PARTIAL_ESCAPING, DOCSTRING_PROSE,
    SYMBOL_NAME,
)
FINDER_NAMES = frozenset(finder.name for finder in FINDERS)
#: The evidence that makes a short name or an everyday word TeX.
EVERYDAY_PROOF = frozenset({IN_MATH, MATH_DOCSTRING, GROUP_COMMAND.name, MISSPELLED_MATH.name,
                            TEX_TABLE.name, TEX_DOCSTRING.name})

DISCARDED_STRING = rules.Exemption(
    'discarded-string', _ESC601,
    'A string statement that is not a docstring is thrown away (code kept in a string to disable '
    'it): nothing in it is shown, so nothing in it is reported.',
    'import matplotlib.pyplot as plt\n"""\nax.set_xlabel(r\'$\\beta$\')\n"""\n',
)
NO_TEX_CONTEXT = rules.Exemption(
    'no-tex-context', _ESC601,
    'A command after an escape in text that shows no TeX (no `$...$`, no other TeX command, `^{` '
    'or `_{` on its line, no `:math:` role or `.. math::` block, no API that takes TeX) is not '
    'reported: a file name, a name or a word that happens to spell one after a backslash.',
    "table = 'results\\beta.csv'\n",
)
EVERYDAY_WORD = rules.Exemption(
    'everyday-word', _ESC601,
    'A newline, tab or carriage return before a one-letter name or an ordinary word that spells a '
    'command with it (`\\ne`: a newline and `e`; `\\tan`, `\\rangle`, ...: `EVERYDAY_WORDS`; every '
    'name of two letters) reads as TeX only inside `$...$`, in a math role or block, or in a TeX '
    'docstring, table or group; other TeX beside it or an API that takes TeX is not enough.',
    "import matplotlib.pyplot as plt\nplt.title('c = %d\\ne = %d' % (c, e))\n",
)
ESCAPED_LAYOUT = rules.Exemption(
    'escaped-layout', _ESC601,
    'In a docstring laid out by `\\n` escapes (one of them before no letter), a `\\n` before a short '
    'name or an everyday word is a line break, unless it stands inside `$...$`, a math role or block, '
    'or a group.',
    'def area(r):\n    """Area :math:`\\\\pi r^2`.\\n\\ne.g. 3 for 1."""\n',
)
PATH_ESCAPE = rules.Exemption(
    'path-escape', _ESC601,
    'An escape that ESC501 reports in a Windows path or a registry key (`\\root` in `C:\\data\\root`) '
    'is the path\'s, unless it stands inside `$...$`, a math role or block, a TeX group or table, or is '
    'passed to an API that takes TeX.',
    'def save():\n    """Write the report to C:\\data\\root."""\n',
)
#: Every exemption of ESC601, in the order they are tried.
EXEMPTIONS: tuple[rules.Exemption, ...] = (
    DISCARDED_STRING, NO_TEX_CONTEXT, PATH_ESCAPE, EVERYDAY_WORD, ESCAPED_LAYOUT,
)
#: The evidence that a command stands where TeX is written (math, a group, a table, a TeX API):
#: there an escape ESC501 also reports is TeX's too (``PATH_ESCAPE``).
TEX_PLACES = frozenset({IN_MATH, MATH_DOCSTRING, GROUP_COMMAND.name, MISSPELLED_MATH.name,
                        TEX_TABLE.name, TEX_API})
#: A ``\\n`` escape before no letter (it lays a literal out: no command follows it).
LAYOUT_NEWLINE = re.compile(r'(?<!\\)(?:\\\\)*\\n(?![A-Za-z])')


class Candidate(NamedTuple):
    """An escape that begins a TeX command: the escape, and the command's name."""

    found: Found
    name: str          # the whole command name, the escape's letter first ('theta')


def may_hold_command(line: str) -> bool:
    """Could an escape of this row of source begin a TeX command?  False
    only when no backslash of the row is followed by a command of
    ``COMMANDS`` and then a non-letter (see the module's docstring)."""
    return not NAMES.isdisjoint(COMMAND_SHAPE.findall(line))


def may_hold_candidate(piece: Piece) -> bool:
    """Could the piece hold a candidate?  (A str piece whose text spells a command after a backslash.)"""
    return not piece.is_bytes and may_hold_command(piece.text)


def command_after(text: str, escape: escapes.Escape) -> str:
    """The whole command name an escape begins in ``text`` (its letter and
    every letter after it), if that is a command of ``COMMANDS``; else ''."""
    if escape.kind != escapes.SIMPLE or escape.text[1] not in COMMANDS:
        return ''
    start = escape.offset + 1
    match = _LETTERS.match(text, start)
    name = match[0] if match is not None else ''
    return name if name in COMMANDS[escape.text[1]] else ''


def candidates(pieces: Iterable[Piece]) -> Iterator[Candidate]:
    """The escapes of ``pieces`` that begin a TeX command, in order."""
    for piece in pieces:
        if piece.is_bytes:
            continue
        text = piece.text
        positions = literals.Positions(piece.start, text)
        for begin, end in piece.spans:
            for escape in escapes.escapes_in(text, False, begin, end, piece.lookahead):
                name = command_after(text, escape)
                if name:
                    line, col = positions.at(escape.offset)
                    yield Candidate(Found(line, col, escape, piece), name)


def is_everyday(name: str) -> bool:
    """Is the command a short name (its escape's letter and one more) or an everyday word?"""
    return name in EVERYDAY_WORDS or (len(name) <= 2 and name[0] in COMMAND_LETTERS)


def is_written_tex(match: re.Match[str]) -> bool:
    """Is an ``other_tex`` match a command that only TeX writes so: doubled
    (``\\\\psi``) or with an invalid escape (``\\sigma``), and not a short
    name or an everyday word (``'\\\\ne'`` is code that writes a newline)?"""
    name = match[1]
    doubled = match.end() - match.start() - len(name) == 2
    return (doubled or name[0] not in ESCAPE_LETTERS) and not is_everyday(name)


class Reading:
    """What one literal's text (or a 3.12+ f-string piece's row of source)
    shows of TeX, read once for all its candidates: each question is then a
    bisection, so that a literal with n candidates costs n log n, not n²."""

    def __init__(self, text: str, docstring: bool) -> None:
        self.text = text
        self.docstring = docstring
        self.breaks = [match.start() for match in LINE_BREAK.finditer(text)]
        self.dollars = [match.start() for match in DOLLAR.finditer(text)] if '$' in text else []
        self.syntax_rows = {self.row(match.start()) for match in TEX_SYNTAX.finditer(text)}
        self.commands: dict[int, list[int]] = {}  # row -> starts of its other TeX commands
        self.written = False  # a command written doubled or with an invalid escape
        for match in other_tex(text):
            if is_everyday(match[1]):
                continue
            self.commands.setdefault(self.row(match.start()), []).append(match.start())
            self.written = self.written or is_written_tex(match)
        self.math = merged(self._math_spans())
        self.math_starts = [start for start, _ in self.math]
        self.default: tuple[list[tuple[int, int]], list[int]] | None = None  # single backquotes
        self.layout: bool | None = None  # ``laid_out``, once asked
        self.shows_tex = docstring and bool(self.written or self.math or DOLLAR_PAIR.search(text))

    def laid_out(self) -> bool:
        """Does a ``\\n`` escape before no letter lay the literal out?  (Searched once.)"""
        if self.layout is None:
            self.layout = LAYOUT_NEWLINE.search(self.text) is not None
        return self.layout

    def row(self, at: int) -> int:
        return bisect_left(self.breaks, at)

    def row_span(self, at: int) -> tuple[int, int]:
        """Where the row of ``at`` starts and ends in the text."""
        row = self.row(at)
        first = self.breaks[row - 1] + 1 if row else 0
        return first, self.breaks[row] if row < len(self.breaks) else len(self.text)

    def _math_spans(self) -> Iterator[tuple[int, int]]:
        """The spans of ``:math:`` roles and ``.. math::`` blocks (each directive's line and the rows
        indented under it)."""
        text = self.text
        if ':math:' in text:
            yield from (match.span() for match in MATH_ROLE.finditer(text))
        for directive in MATH_DIRECTIVE.finditer(text):
            indent = len(directive[1])
            end = directive.end()
            while end < len(text):
                row_end = text.find('\n', end + 1)
                row_end = len(text) if row_end == -1 else row_end
                row = text[end + 1:row_end]
                if row.strip() and len(row) - len(row.lstrip()) <= indent:
                    break
                end = row_end
            yield directive.start(), end

    def in_math(self, at: int, end: int) -> bool:
        """Is ``text[at:end]`` inside ``$...$`` on its row?"""
        if not self.dollars:
            return False
        first, last = self.row_span(at)
        before = bisect_left(self.dollars, at) - bisect_left(self.dollars, first)
        after = bisect_left(self.dollars, end)
        return bool(before % 2) and after < len(self.dollars) and self.dollars[after] < last

    def in_math_docstring(self, at: int) -> bool:
        """Is ``at`` in a ``:math:`...``` role or a ``.. math::`` block (or one misspelled)?"""
        return inside(self.math, self.math_starts, at)

    def beside_tex(self, at: int) -> bool:
        """Does the row of ``at`` hold other TeX (``TEX_SYNTAX``, another command)?"""
        row = self.row(at)
        if row in self.syntax_rows:
            return True
        starts = self.commands.get(row, ())
        return len(starts) > 1 or (len(starts) == 1 and starts[0] != at)

    def default_role(self, at: int) -> bool:
        """Is ``at`` in single backquotes (a docstring's default role)?"""
        if self.default is None:
            spans = merged(match.span() for match in DEFAULT_ROLE.finditer(self.text))
            self.default = spans, [start for start, _ in spans]
        return inside(*self.default, at)

    def evidence(self, at: int, name: str) -> str:
        """The strongest evidence that the command ``name`` whose escape stands at ``at`` is TeX, or ''."""
        text = self.text
        end = at + 1 + len(name)
        if self.in_math(at, end):
            return IN_MATH
        if self.in_math_docstring(at):
            return MATH_DOCSTRING
        if text[at - 1:at] == '{' and text[end:end + 1] in (' ', '}', '\n'):
            return GROUP_COMMAND.name
        if text[max(at - 6, 0):at] == ':math:' or (self.docstring and self.default_role(at)):
            return MISSPELLED_MATH.name
        if self.shows_tex:
            return TEX_DOCSTRING.name
        if self.beside_tex(at):
            return BESIDE_TEX
        if path_part(text, at, end):
            return ''
        if self.written:
            return PARTIAL_ESCAPING.name
        if self.docstring and not is_everyday(name):
            return DOCSTRING_PROSE.name
        if SUBSCRIPT.match(text, end) and LITERAL_START.fullmatch(text, 0, at) and not is_everyday(name):
            return SYMBOL_NAME.name
        return ''


def path_part(text: str, at: int, end: int) -> bool:
    """Does the command ``text[at:end]`` read as a part of a file's path: a
    file extension after it (``results\\beta.csv``), or a backslash after it
    and a letter or digit before it (``data\\ref\\x``)?"""
    if EXTENSION.match(text, end) is not None:
        return True
    return text[end:end + 1] == '\\' and text[at - 1:at].isalnum()


def merged(spans: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """The union of ``spans`` as disjoint spans, in order."""
    found: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if found and start <= found[-1][1]:
            found[-1] = (found[-1][0], max(end, found[-1][1]))
        else:
            found.append((start, end))
    return found


def inside(spans: list[tuple[int, int]], starts: list[int], at: int) -> bool:
    """Is ``at`` strictly inside one of the disjoint ``spans`` (``starts``: their starts)?"""
    index = bisect_left(starts, at) - 1
    return index >= 0 and at < spans[index][1]


class Readings:
    """The ``Reading`` of each literal (and f-string row) of a file, made when first asked."""

    def __init__(self, lines: list[str], docstrings: list[tuple[int, int]]) -> None:
        self.lines = lines
        self.docstrings = docstrings
        self.found: dict[tuple[int, int], Reading] = {}

    def of(self, candidate: Candidate) -> tuple[Reading, int]:
        """The reading of the candidate's literal, and its escape's offset there."""
        found = candidate.found
        piece = found.piece
        if piece.spans[0][0]:  # a STRING token: the whole literal
            key, at = piece.start, found.escape.offset
        else:  # a 3.12+ f-string piece, whose literal goes on beyond the piece: its row
            key, at = (found.line, -1), found.col
        reading = self.found.get(key)
        if reading is None:
            if key[1] == -1:
                reading = Reading(self.lines[found.line - 1], False)
            else:
                reading = Reading(piece.text, in_docstring(piece, self.docstrings))
            self.found[key] = reading
        return reading, at


def in_docstring(piece: Piece, docstrings: list[tuple[int, int]]) -> bool:
    """Does the piece (a STRING token) stand on the rows of a docstring (``doctests.docstring_rows``)?"""
    first = piece.start[0]
    last = first + piece.text.count('\n')
    index = bisect_right(docstrings, (first, float('inf'))) - 1
    return index >= 0 and docstrings[index][0] <= first and last <= docstrings[index][1]


class Tables:
    """Which literals of the file's dicts, lists, tuples and sets (the role
    pass's ``TABLE`` roles) stand in a table of TeX commands."""

    def __init__(self, roles: list[role_pass.Role], lines: list[str]) -> None:
        self.tex: set[int] = set()
        for role in roles:
            if role.role == role_pass.TABLE and role.table not in self.tex and is_tex_item(role, lines):
                self.tex.add(role.table)

    def holds(self, roles: list[role_pass.Role], line: int, col: int) -> bool:
        if not self.tex:
            return False
        role = role_pass.role_at(roles, line, col, (role_pass.TABLE,))
        return role is not None and role.table in self.tex


def is_tex_item(role: role_pass.Role, lines: list[str]) -> bool:
    """Is the item (a literal on one row) a TeX command written doubled, raw or with an invalid escape?"""
    (line, col), (end_line, end) = role.start, role.end
    if line != end_line:
        return False
    text = lines[line - 1][col:end]
    prefix = _LETTERS.match(text)
    raw = prefix is not None and 'r' in prefix[0].lower()
    for match in other_tex(text):
        if raw or is_written_tex(match):
            return True
    return False


def proof_of(candidate: Candidate, roles: list[role_pass.Role], reading: Reading, offset: int,
             tables: Tables) -> str:
    """The strongest evidence that the candidate is TeX (a finding rule's name among them), or ''."""
    item, name = candidate
    proof = reading.evidence(offset, name)
    if proof not in EVERYDAY_PROOF and tables.holds(roles, item.line, item.col):
        proof = TEX_TABLE.name
    if proof in FINDER_NAMES and proof not in {finder.name for finder in FINDERS}:
        proof = ''  # a finding rule left out (the tests' monkeypatch)
    if not proof and role_pass.role_at(roles, item.line, item.col, (role_pass.TEX,)) is not None:
        proof = TEX_API
    return proof


def exemption_for(candidate: Candidate, roles: list[role_pass.Role], readings: Readings, tables: Tables,
                  path_escapes: frozenset[tuple[int, int]] = frozenset()) -> tuple[str, str]:
    """(the exemption that keeps a candidate quiet, or ''; the evidence that it is TeX, or '').
    ``path_escapes``: the (line, col) of each escape ESC501 reports."""
    item, name = candidate
    active = frozenset(exemption.name for exemption in EXEMPTIONS)
    discarded = role_pass.role_at(roles, item.line, item.col, (role_pass.DISCARDED,))
    if DISCARDED_STRING.name in active and discarded:
        return DISCARDED_STRING.name, ''
    reading, offset = readings.of(candidate)
    proof = proof_of(candidate, roles, reading, offset, tables)
    if not proof and NO_TEX_CONTEXT.name in active:
        return NO_TEX_CONTEXT.name, ''
    in_path = (item.line, item.col) in path_escapes
    if in_path and proof and proof not in TEX_PLACES and PATH_ESCAPE.name in active:
        return PATH_ESCAPE.name, proof
    everyday = is_everyday(name)
    if everyday and proof not in EVERYDAY_PROOF and EVERYDAY_WORD.name in active:
        return EVERYDAY_WORD.name, proof
    if (everyday and proof == TEX_DOCSTRING.name and item.escape.text == '\\n'
            and ESCAPED_LAYOUT.name in active and reading.laid_out()):
        return ESCAPED_LAYOUT.name, proof
    return '', proof


def reports(
    found: Iterable[Candidate],
    roles: list[role_pass.Role],
    lines: list[str],
    docstrings: list[tuple[int, int]],
    silenced: list[rules.Silenced] | None = None,
    path_escapes: frozenset[tuple[int, int]] = frozenset(),
) -> Iterator[Finding]:
    """ESC601: the candidates whose text reads as TeX, or that an API takes as TeX (``roles``),
    but not the escapes ESC501 reports (``path_escapes``: their (line, col))."""
    readings = Readings(lines, sorted(docstrings))
    tables = Tables(roles, lines)
    for candidate in found:
        item = candidate.found
        exemption, proof = exemption_for(candidate, roles, readings, tables, path_escapes)
        if exemption:
            if silenced is not None:
                silenced.append(rules.Silenced(item.line, item.col, rules.ESC601.code, item.escape.text,
                                               exemption))
            continue
        escape = item.escape.text
        yield item.line, item.col, rules.ESC601, {
            'escape': escape, 'command': '\\' + candidate.name, 'meaning': escapes.CONTROL_NAMES[escape],
            'finder': proof,
        }, item
