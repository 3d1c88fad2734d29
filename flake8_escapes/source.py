"""The tokens the checks need, found without tokenizing a clean file.

flake8 tokenizes a file a second time for any plugin that asks for
``file_tokens``, and every code of this plugin is about a backslash in a
literal.  So the file is tokenized only where a backslash may stand in a
literal and be reported, in four steps, each cheaper than the next:

1. **Rows with a backslash** (``backslash_rows``, in C).  Most files have none.
2. **Quiet rows are dropped** (``quiet``, ``reportable_rows``).  A row is quiet
   when, pairing its backslashes from the row's start, every escape is
   ``\\\\``, ``\\'``, ``\\"`` or a final line continuation (no code reports
   one), or also an everyday escape (``\\n``, ``\\t``, ``\\x41``, and
   ``\\u....`` when the file holds no bytes literal) while no literal of the
   row can be a Windows path (``paths.may_hold_path``), no escape of the row
   begins a TeX command (``tex.may_hold_command``) and no doctest example
   can stand on it (``doctests.example_rows``).  Why this is sound: a row
   starts either outside any literal, where a backslash only ends the row or
   stands in a comment, or inside one right after a line break, where
   escapes pair afresh, so the pairing sees the escapes the tokenizer sees;
   the everyday escapes are valid in str and bytes and only ESC501, ESC601
   and ESC602 report them; a path's text stands on one row and shows itself
   there, a TeX command's name follows its escape on the same row, and a
   doctest example's rows are found from the docstrings.
3. **Backslashes outside literals are dropped** (``comment_or_continuation``,
   ``rows_to_tokenize``): a row whose backslashes are all in its comment, or
   whose only one ends it, needs no tokens unless the AST shows a literal
   that began on an earlier row spanning it.
4. **Literals are read, not tokenized** (``read_literals``): the str and bytes
   literals of a statement alone on its rows are read at the AST's place as
   the tokenizer reads them.  Only a statement that holds an f- or t-string
   (the AST does not place their parts), or that shares a row with another's
   quote, is tokenized, on its own (``statement_spans``, ``span_tokens``); the
   whole file when a statement does not tokenize alone.

``check`` (not the plugin: flake8 has parsed the file already) goes one step
before the AST: ``lexed_literals`` reads the literals on the reportable rows
from the text alone, and a file whose literals there hold no escape a check
looks at (``checks.may_report``) is not parsed at all.
"""
from __future__ import annotations

import ast
import re
import sys
import tokenize
import warnings
from bisect import bisect_left, bisect_right
from itertools import accumulate, compress, count, repeat
from operator import attrgetter, contains
from typing import Iterable, Iterator, cast

from flake8_escapes import doctests, escapes, paths, tex
from flake8_escapes.literals import START, Position, Positions, char_col, fields_close, formatted_end
from flake8_escapes.names import statement_parts

#: CPython 3.12.0 to 3.12.3 copy the whole line into every token (3.12.4 caches it:
#: https://github.com/python/cpython/issues/119118): kept, the tokens of one long row of
#: literals took memory quadratic in its length (a 50 KB row: 850 MB in ``check``, issue 34).
TOKENS_COPY_THE_LINE = (3, 12) <= sys.version_info < (3, 12, 4)
#: Nodes whose tokens are literals; a row strictly inside one may be inside a string token.
STRING_NODES = tuple(
    getattr(ast, name) for name in ('Constant', 'JoinedStr', 'TemplateStr') if hasattr(ast, name))
#: Literals whose parts only the tokenizer places.
FORMATTED_NODES = tuple(getattr(ast, name) for name in ('JoinedStr', 'TemplateStr') if hasattr(ast, name))
LINE_ENDS = ('\n', '\r\n')
END_LINENO = attrgetter('end_lineno')
#: Rows from which a simple statement's literals are found in its AST rather
#: than read from its text from the start (a table of thousands of rows).
LONG_STATEMENT = 20
ERRORTOKEN = tokenize.ERRORTOKEN
STRING = tokenize.STRING
TokenInfo = tokenize.TokenInfo
#: Possessive quantifiers where the ``re`` module knows them (3.11+): a run of
#: characters read once is not read again, one character at a time, by backtracking
#: (the patterns below never need it: they match the same text either way).
_RUN, _MANY = ('++', '*+') if sys.version_info >= (3, 11) else ('', '*')
#: The body of a literal from its opening quote, as the tokenizer ends it (a
#: backslash escapes any character, a line break too; the first unescaped
#: closing quote ends it).
_BODY = r"""(?:
    \'\'\'(?:[^'\\]{run}|\\.|'(?!'')){many}\'\'\'
  | \"\"\"(?:[^"\\]{run}|\\.|"(?!"")){many}\"\"\"
  | '(?:[^'\\\r\n]{run}|\\(?:\r\n|.)){many}'
  | "(?:[^"\\\r\n]{run}|\\(?:\r\n|.)){many}"
)""".format(run=_RUN, many=_MANY)
#: A str or bytes literal (not an f- or t-string), from its prefix to its
#: closing quote, by the rule of ``_BODY``.
STRING_LITERAL = re.compile('[rRbBuU]{0,2}' + _BODY, re.DOTALL | re.VERBOSE)
#: The prefixes of a str or bytes literal.
STR_PREFIXES = frozenset({'', 'r', 'u', 'b', 'br', 'rb'})
QUOTE_OR_HASH = re.compile('[\'"#]')
#: A doctest prompt, anywhere on a row (``_in_examples``).
PROMPT = re.compile('>>>')
#: The body of a literal from its opening quote, by the same rule as ``STRING_LITERAL``'s.
LITERAL_BODY = re.compile(_BODY, re.DOTALL | re.VERBOSE)
#: The prefixes of an f-string, and of a t-string where the tokenizer knows them (3.14).
FORMATTED_PREFIXES = frozenset(
    {'f', 'fr', 'rf'} | ({'t', 'tr', 'rt'} if hasattr(tokenize, 'TSTRING_START') else set()))
#: Does the tokenizer read an f-string as one STRING token (3.10, 3.11), by the
#: rule of ``STRING_LITERAL``?  From 3.12 (PEP 701) a replacement field may hold
#: the f-string's own quote, so the rule holds only for fields without quotes.
FSTRING_IS_STRING = not hasattr(tokenize, 'FSTRING_START')
#: Code, comments and one-line literals without a backslash that are not
#: f- or t-strings (the tokenizer reads them as this does, on every
#: Python), skipped in C; then the text ``_lexed_spans`` looks at (group 1):
#: a literal from its opening quote (``LITERAL_BODY``), a quote that opens
#: none, a backslash outside a literal, or nothing at the end of the text.
LEXEME = re.compile(r"""(?:[^'"\#\\]+|\#[^\n]*
      |(?<![fFtT])(?<![fFtT][rR])(?:'(?!'')[^'\\\n]*'|"(?!"")[^"\\\n]*"))""" + _MANY + r"""
    (""" + _BODY + r"""|['"]|\\)?""", re.DOTALL | re.VERBOSE)
#: The characters a literal's prefix may end with.
PREFIX_ENDS = 'rRbBuUfFtT'
#: The tokens after a literal tokenized alone (``_formatted_tokens``).
AFTER_LITERAL = frozenset({tokenize.NEWLINE, tokenize.NL, tokenize.ENDMARKER})
#: The prefixes ``lexed_literals`` reads.
KNOWN_PREFIXES = STR_PREFIXES | FORMATTED_PREFIXES
FORMATTED_CHARS = frozenset('fFtT')
#: A row as the tokenizer reads it, its line end with it (``_rows``).
ROW = re.compile(r'[^\n]*\n|[^\n]+')
#: What may stand between the parts of an implicitly concatenated literal.
BETWEEN = re.compile(r'(?:[ \t\f]+|\\\r?\n|\r?\n|\#[^\r\n]*)*')


def backslash_rows(lines: list[str]) -> list[int]:
    """The 1-based numbers of the lines that hold a backslash (in C: map, compress)."""
    return list(compress(count(1), map(contains, lines, repeat('\\'))))


def quiet(line: str, str_only: bool = False) -> bool:
    """Is nothing on this row reportable, whatever literal its backslashes
    stand in, provided that it holds no doctest example's line (see
    ``reportable_rows``)?  Its escapes are only ``\\\\``, quotes and a line
    continuation (``escapes.PLAIN_ROW``), or also everyday escapes where no
    literal of the row can be a Windows path (``escapes.EVERYDAY_ROW``,
    ``paths.may_hold_path``) and none begins a TeX command
    (``tex.may_hold_command``): most rows with a backslash (``'\\n'``).
    ``str_only``: the file holds no bytes literal, so ``\\u....`` is everyday too."""
    everyday = escapes.EVERYDAY_STR_ROW if str_only else escapes.EVERYDAY_ROW
    return everyday.fullmatch(line) is not None and _quiet_everyday(line)


def _quiet_everyday(line: str, commands: bool = True) -> bool:
    """``quiet`` for a row whose escapes are everyday ones (PLAIN_ROW's rows are
    among them); ``commands``: False when no row of the file may hold a TeX command."""
    return ((not paths.may_hold_path(line) and not (commands and tex.may_hold_command(line)))
            or escapes.PLAIN_ROW.fullmatch(line) is not None)


def _in_examples(rows: list[int], lines: list[str], statements: Statements | None, text: str) -> list[int]:
    """Those of ``rows`` (sorted) that may hold a doctest example's line
    (``doctests.example_rows``: on or after a row with ``>>>``, no blank row
    between) inside a docstring (``Statements.in_docstring``; any, without
    ``statements``); ``text`` is the lines joined."""
    # in C; a prompt after the last of the rows opens no example that holds one.
    # Most files have none: one search of the text before the rows' end says so.
    before = lines[:rows[-1]]
    if PROMPT.search(text, 0, len(text) - sum(map(len, lines[rows[-1]:]))) is None:
        return []
    prompts = list(compress(count(1), map(contains, before, repeat('>>>'))))
    if statements is not None and '\r' in text:
        statements = None  # the AST's rows are the lines' only without a lone '\r'
    kept = []
    answer, first, last = True, 1, 0  # the last docstring answer, and the rows it holds for
    joined = (0, 0)  # a prompt and the last row known to be joined to it
    for row in rows[bisect_left(rows, prompts[0]):]:
        if statements is not None and not first <= row <= last:
            answer, last = statements.in_docstring(row)
            first = row
        if not answer:
            continue
        prompt = prompts[bisect_right(prompts, row) - 1]
        since = joined[1] if joined[0] == prompt else prompt  # rows up to here are known joined
        if doctests.joined_to_prompt(lines, since, row):
            joined = (prompt, row)
            kept.append(row)
    return kept


def reportable_rows(lines: list[str], statements: Statements | None = None) -> list[int]:
    """The rows that hold a backslash and are not ``quiet``, or that may hold
    a doctest example's line (``_in_examples``: any escape there may change the
    example)."""
    text = ''.join(lines)
    if '\\' not in text:  # most files, found in C
        return []
    if statements is not None:
        statements.lone_cr = '\r' in text
    rows: list[int] = []
    left: list[int] = []  # quiet rows, unless a doctest example holds them
    str_only: bool | None = None  # known once a row needs it
    numbers = backslash_rows(lines)
    texts = [lines[row - 1] for row in numbers]
    commands = tex.may_hold_command(''.join(texts))  # one search for the whole file, most often False
    for row, line, everyday in zip(numbers, texts, map(escapes.EVERYDAY_ROW.fullmatch, texts)):
        if everyday is not None and _quiet_everyday(line, commands):  # quiet(line), first test in C
            left.append(row)
            continue
        if '\\u' in line or '\\U' in line:
            if str_only is None:
                str_only = not escapes.holds_bytes(text)
            if str_only and quiet(line, str_only):
                left.append(row)
                continue
        rows.append(row)
    if left:
        more = _in_examples(left, lines, statements, text)
        if more:
            rows = sorted(rows + more)
    return rows


def comment_or_continuation(line: str) -> bool:
    """Are all the backslashes of ``line`` in its comment, or is its only one a
    line continuation, provided that the line does not start inside a string?

    Only what the text shows for sure counts: no quote before the ``#`` (or
    before the final backslash), so no string can open before it.
    """
    first = line.find('\\')
    code = line[:first]
    hash_at = code.find('#')
    if hash_at != -1:
        code = code[:hash_at]
    if "'" in code or '"' in code:
        return False
    return hash_at != -1 or line[first + 1:] in LINE_ENDS


def _first_row(node: ast.AST) -> int:
    """The row of a statement's first token (a decorator's, for a decorated definition)."""
    row: int = getattr(node, 'lineno', 0)
    decorators = getattr(node, 'decorator_list', None)
    if decorators:
        row = min(row, *(item.lineno for item in decorators))
    return row


def _end_row(node: ast.AST) -> int:
    return getattr(node, 'end_lineno', 0) or getattr(node, 'lineno', 0)


def _end_rows(nodes: list[ast.stmt]) -> list[int]:
    """``_end_row`` of each node, read in C (``END_LINENO``) unless a node
    lacks its end (one built without positions)."""
    try:
        ends: list[int] = list(map(END_LINENO, nodes))
    except AttributeError:
        ends = []
    if len(ends) != len(nodes) or not all(ends):
        ends = [_end_row(node) for node in nodes]
    return ends


class Statements:
    """Where a row stands among a module's statements, found by bisection
    (each statement list is gathered once): the cost does not grow with
    the number of statements around it."""

    def __init__(self, tree: ast.AST, last_row: int) -> None:
        self.tree = tree
        self.last_row = last_row
        self._children: dict[int, list[ast.stmt]] = {}
        self._ends: dict[int, list[int]] = {}  # the end rows of each children list
        #: Does the file hold a '\r'?  (Then the AST's rows are not the lines'.)
        #: Known once ``reportable_rows`` has read the file's text (``carriage_return``).
        self.lone_cr: bool | None = None

    def children(self, node: ast.AST) -> list[ast.stmt]:
        """The statements right inside ``node`` (clauses' bodies too), in source order."""
        found = self._children.get(id(node))
        if found is None:
            found = []
            for field, clauses in statement_parts(type(node)):  # only statements hold statements
                value = getattr(node, field, None)
                if value and isinstance(value, list):  # not an IfExp's or a Lambda's body
                    if clauses:
                        for clause in value:
                            found.extend(clause.body)
                    else:
                        found.extend(value)
            self._children[id(node)] = found
        return found

    def innermost(self, row: int) -> tuple[ast.AST, list[ast.stmt], int]:
        """The innermost statement that holds ``row`` (the module if none does),
        its statements, and the index of the first of them that ends on or after ``row``."""
        _, node, children, index = self._descend(row)
        return node, children, index

    def _descend(self, row: int) -> tuple[ast.AST | None, ast.AST, list[ast.stmt], int]:
        """``innermost``'s answer, after the statement that holds it (None for the module)."""
        parent: ast.AST | None = None
        node = self.tree
        while True:
            children = self.children(node)
            ends = self._ends.get(id(node))
            if ends is None:
                ends = self._ends[id(node)] = _end_rows(children)
            index = bisect_left(ends, row)  # on ints, in C: no key function called per step
            if index == len(children) or _first_row(children[index]) > row:
                return parent, node, children, index
            parent, node = node, children[index]

    def in_docstring(self, row: int) -> tuple[bool, int]:
        """Is ``row`` on the rows of the docstring of the module, a class or a
        function?  And the last row the answer holds for (those of the simple
        statement that holds ``row``)."""
        parent, node, _, _ = self._descend(row)
        if parent is None:
            return False, row
        holds = row if self.children(node) else _end_row(node)
        if type(parent) not in doctests.DEFINITIONS:
            return False, holds
        span = doctests.docstring_span(parent.body)  # type: ignore[attr-defined]
        return span is not None and span[0] <= row <= span[1], holds

    def rows_for(self, row: int, lines: list[str]) -> tuple[int, int, bool]:
        """The rows to tokenize for ``row``: those of the innermost simple
        statement that holds it, or else those between the statements of the
        innermost compound one (a clause header, ``except ...:``, ``case ...:``);
        and whether the first of them surely starts outside any literal."""
        node, children, index = self.innermost(row)
        if node is self.tree:
            first, last, fresh = 1, self.last_row, True
        else:
            stmt = cast(ast.stmt, node)  # not the module: one of the statements
            first, last = _first_row(stmt), _end_row(stmt)
            # Only blanks before the statement on its row: nothing from an
            # earlier one (a multi-line string) goes on there.
            fresh = first == stmt.lineno and not lines[first - 1][:stmt.col_offset].strip(' \t\f')
        if children:
            if index:
                first, fresh = _end_row(children[index - 1]) + 1, True
            if index < len(children):
                last = _first_row(children[index]) - 1
        return first, max(last, row), fresh

    def starts_inside_literal(self, row: int) -> bool:
        """Could the text of ``row`` start inside a string token (a literal that
        began on an earlier row)?  Only the innermost statement that holds the
        row can tell, and only its nodes that span the row are visited."""
        node = self.innermost(row)[0]
        if node is self.tree:
            return False
        stack = [node]
        while stack:
            for child in ast.iter_child_nodes(stack.pop()):
                if isinstance(child, ast.stmt):
                    continue  # none of them holds the row
                first = getattr(child, 'lineno', None)
                if first is not None:
                    # ast.AST's stub declares no positions; a node with a lineno has an end_lineno
                    if not first <= row <= (child.end_lineno or first):  # type: ignore[attr-defined]
                        continue
                    if first < row and isinstance(child, STRING_NODES):
                        return True
                stack.append(child)
        return False


def rows_to_tokenize(tree: ast.AST, lines: list[str], statements: Statements | None = None) -> list[int]:
    """The rows whose backslashes may stand in a literal and be reported:
    those the plugin must see tokens for (not the ``quiet`` ones)."""
    statements = statements or Statements(tree, len(lines))
    rows = reportable_rows(lines, statements)
    unsure: list[int] = []
    sure: list[int] = []
    for row in rows:
        (sure if comment_or_continuation(lines[row - 1]) else unsure).append(row)
    if not sure:
        return unsure
    if carriage_return(statements, lines):
        # Rows are counted alike by the AST and the lines only without a lone '\r'
        # (flake8 reads with universal newlines, so this is for other callers).
        return rows
    return sorted(unsure + [row for row in sure if statements.starts_inside_literal(row)])


def carriage_return(statements: Statements, lines: list[str]) -> bool:
    """Does the file hold a '\\r' (so that the AST's rows are not the lines')?
    Read from ``statements`` once ``reportable_rows`` has searched the text."""
    if statements.lone_cr is None:
        statements.lone_cr = any(map(contains, lines, repeat('\r')))
    return statements.lone_cr


def needs_tokens(tree: ast.AST, lines: list[str]) -> bool:
    """May a backslash of the file stand in a literal and be reported (so that it must be tokenized)?"""
    return bool(rows_to_tokenize(tree, lines))


def tokens_for(tree: ast.AST, lines: list[str]) -> list[tokenize.TokenInfo]:
    """The tokens the checks need (the module docstring's steps): none for a
    file whose backslashes are all quiet, in comments or line continuations;
    else the STRING tokens of the str and bytes literals read from their text,
    and the tokens of the statements that hold the rest, at their places in
    the file; the whole file's when a statement does not tokenize alone.

    A tokenize error of the file is raised as flake8's ``file_tokens`` would
    raise it (flake8 reports it as E902/E999).
    """
    statements = Statements(tree, len(lines))
    rows = rows_to_tokenize(tree, lines, statements)
    if not rows:
        return []
    read: list[tokenize.TokenInfo] = []
    if not carriage_return(statements, lines):  # the AST's rows are the lines'
        read, rows = read_literals(statements, lines, rows)
        if not rows:
            return read
    spans = statement_spans(statements, lines, rows)
    found = span_tokens(statements, lines, spans)
    if found is None:
        return file_tokens(lines)
    if read:
        starts = [span[0] for span in spans]
        read = [tok for tok in read if not _in_spans(tok[2][0], starts, spans)]
        found = sorted(found + read, key=START)
    return found


def statement_spans(statements: Statements, lines: list[str], rows: list[int]) -> list[tuple[int, int, bool]]:
    """The (first, last, fresh) rows to tokenize for ``rows``: the statements
    that hold them (``Statements.rows_for``), those that share a row merged."""
    spans: list[tuple[int, int, bool]] = []
    for row in rows:
        if spans and spans[-1][0] <= row <= spans[-1][1]:
            continue
        first, last, fresh = statements.rows_for(row, lines)
        while spans and first <= spans[-1][1]:  # statements that share a row
            before = spans.pop()
            if before[0] <= first:
                first, fresh = before[0], before[2]
        spans.append((first, last, fresh))
    return spans


def span_tokens(
    statements: Statements, lines: list[str], spans: list[tuple[int, int, bool]],
) -> list[tokenize.TokenInfo] | None:
    """The tokens of each span, tokenized on its own (from a fresh tokenizer,
    as the file's tokenizer meets it) and placed in the file; None when the
    whole file must be tokenized: a span that is the file, that may start
    inside a literal, or that does not tokenize alone."""
    if spans[0][:2] == (1, len(lines)):
        return None
    found: list[tokenize.TokenInfo] = []
    for first, last, fresh in spans:
        if not fresh and statements.starts_inside_literal(first):
            return None
        part = _alone_tokens(lines, first, last)
        if part is None:
            return None
        found.extend(part)
    return found


def _alone_tokens(lines: list[str], first: int, last: int) -> list[tokenize.TokenInfo] | None:
    """The tokens of rows ``first`` to ``last`` tokenized alone, at their rows
    in the file; None when they do not tokenize alone."""
    shift = first - 1
    make = TokenInfo._make  # in C, unlike TokenInfo(...)
    found = []
    try:
        for kind, text, (row, col), (end_row, end_col), line in token_stream(lines[first - 1:last]):
            if kind == ERRORTOKEN:
                return None
            if row + shift <= last:  # not the DEDENTs and ENDMARKER after the statement
                found.append(make((kind, text, (row + shift, col), (end_row + shift, end_col), line)))
    except (tokenize.TokenError, SyntaxError):
        return None
    return found


def _in_spans(row: int, starts: list[int], spans: list[tuple[int, int, bool]]) -> bool:
    index = bisect_right(starts, row) - 1
    return index >= 0 and row <= spans[index][1]


def read_literals(
    statements: Statements, lines: list[str], rows: list[int],
) -> tuple[list[tokenize.TokenInfo], list[int]]:
    """The STRING tokens of the literals that hold the backslashes of
    ``rows``, read from the text of the str and bytes literals the AST shows
    there, without the tokenizer; and the rows left for the tokenizer: those
    of a statement that shares a row with a quote it does not hold, or that
    holds an f- or t-string (the AST does not say where their parts are),
    or whose literal's text does not read as string tokens only.

    The tokens are those the tokenizer gives (type, text, start, end).
    """
    tokens: dict[Position, tokenize.TokenInfo] = {}
    left: list[int] = []
    index = 0
    while index < len(rows):
        row = rows[index]
        node = statements.innermost(row)[0]
        end = index + 1
        compound = False
        if node is not statements.tree:
            last = _end_row(node)
            compound = bool(statements.children(node))
            while end < len(rows) and rows[end] <= last and (
                    not compound or statements.innermost(rows[end])[0] is node):
                end += 1
        group = rows[index:end]
        index = end
        if node is statements.tree or not _alone(node, lines):
            found = None
        elif compound or _end_row(node) - getattr(node, 'lineno') >= LONG_STATEMENT:
            # a compound statement's header and clauses; the literals of a
            # long one (a table) that span the rows, found in its AST
            found = _literals_of(node, group, lines)
        else:
            found = statement_tokens(cast(ast.stmt, node), lines, group)
        if found is None:
            left.extend(group)
        else:
            for tok in found:
                tokens[tok[2]] = tok
    return sorted(tokens.values(), key=START), left


def _alone(node: ast.AST, lines: list[str]) -> bool:
    """Is no quote on the rows of ``node`` outside it (so that every literal there is its own)?"""
    first: int = getattr(node, 'lineno')
    line = lines[first - 1]
    if _has_quote(line[:char_col(line, getattr(node, 'col_offset'))]):
        return False
    line = lines[_end_row(node) - 1]
    return not _has_quote(line[char_col(line, getattr(node, 'end_col_offset')):])


def _has_quote(text: str) -> bool:
    return "'" in text or '"' in text


def _literals_of(node: ast.AST, group: list[int], lines: list[str]) -> list[tokenize.TokenInfo] | None:
    """The STRING tokens of the str and bytes literals of ``node`` (not of
    the statements inside it) that span a row of ``group``; None when the
    tokenizer must tell (see ``read_literals``)."""
    found: list[tokenize.TokenInfo] = []
    stack = [node]
    while stack:
        for child in ast.iter_child_nodes(stack.pop()):
            if isinstance(child, ast.stmt):
                continue  # its rows are not in the group
            first = getattr(child, 'lineno', None)
            if first is None:  # arguments, comprehension, withitem, match_case: no positions
                stack.append(child)
                continue
            at = bisect_left(group, first)
            if at == len(group) or group[at] > (getattr(child, 'end_lineno', None) or first):
                continue  # spans no row of the group
            if isinstance(child, FORMATTED_NODES):
                return None
            if isinstance(child, ast.Constant):
                if isinstance(child.value, (str, bytes)):
                    tokens = string_tokens(child, lines, group)
                    if tokens is None:
                        return None
                    found.extend(tokens)
                continue
            stack.append(child)
    return found


def string_tokens(
    node: ast.Constant, lines: list[str], rows: list[int] | None = None,
) -> list[tokenize.TokenInfo] | None:
    """The STRING tokens of a str or bytes literal (its implicitly
    concatenated parts; given ``rows``, those that hold a backslash and span
    one of them), read from its text at the AST's place; None if the text is
    not string parts with only blanks, comments and line breaks between them.
    Given ``rows``, the parts that start after the last of them are not read."""
    row, text, at, end = _text_of(node, lines)
    last = node.end_lineno or row
    after = end  # where the rows after the last of ``rows`` start in ``text``
    if rows and rows[-1] < last:
        after = len(text) - sum(map(len, lines[rows[-1]:last]))
    spans = []
    while True:
        match = STRING_LITERAL.match(text, at, end)
        if match is None:
            return None
        spans.append(match.span())
        if match.end() == end or match.end() >= after:
            break
        between = BETWEEN.match(text, match.end(), end)  # it matches the empty text too
        at = between.end() if between else match.end()
    return _string_tokens(spans, text, row, lines, rows)


def _text_of(node: ast.Constant | ast.stmt, lines: list[str]) -> tuple[int, str, int, int]:
    """The first row of ``node``, the text of its rows, and where it starts and ends in that text."""
    row, end_row = node.lineno, node.end_lineno or node.lineno
    last_line = lines[end_row - 1]
    text = last_line if row == end_row else ''.join(lines[row - 1:end_row])
    end = len(text) - len(last_line) + char_col(last_line, node.end_col_offset or 0)
    return row, text, char_col(lines[row - 1], node.col_offset), end


def statement_tokens(node: ast.stmt, lines: list[str], rows: list[int]) -> list[tokenize.TokenInfo] | None:
    """The STRING tokens of a simple statement that hold a backslash and
    span one of ``rows``, read from its text as the tokenizer reads it (from
    its start, outside any literal: a ``#`` starts a comment, a quote a
    literal, whose end the tokenizer's rule finds); None if it holds an f-
    or t-string or a literal that does not end."""
    row, text, at, end = _text_of(node, lines)
    spans = []
    search = QUOTE_OR_HASH.search
    while True:
        found = search(text, at, end)
        if found is None:
            break
        at = found.start()
        if text[at] == '#':
            at = text.find('\n', at, end)
            if at == -1:
                break
            continue
        begin = at
        while begin > 0 and (text[begin - 1].isalnum() or text[begin - 1] == '_'):
            begin -= 1
        if text[begin:at].lower() not in STR_PREFIXES:
            return None  # an f- or t-string
        match = STRING_LITERAL.match(text, begin, end)
        if match is None:
            return None
        spans.append(match.span())
        at = match.end()
    return _string_tokens(spans, text, row, lines, rows)


def _string_tokens(
    spans: list[tuple[int, int]], text: str, row: int, lines: list[str], rows: list[int] | None = None,
) -> list[tokenize.TokenInfo]:
    """STRING tokens of the ``spans`` of ``text``, which starts at the start
    of ``row``; given ``rows`` (sorted), only of those that hold a backslash
    and span one of them (the only ones the checks need: a literal on
    ``quiet`` rows only has nothing to report)."""
    positions = Positions((row, 0), text)
    make = TokenInfo._make
    tokens = []
    find = text.find
    for begin, stop in spans:
        if rows is not None and find('\\', begin, stop) == -1:
            continue
        start, end = positions.at(begin), positions.at(stop)
        if rows is not None:
            at = bisect_left(rows, start[0])
            if at == len(rows) or rows[at] > end[0]:
                continue
        tokens.append(make((STRING, text[begin:stop], start, end, lines[start[0] - 1])))
    return tokens


def lexed_literals(lines: list[str], rows: list[int]) -> list[tokenize.TokenInfo] | None:
    """The tokens of the literals that hold a backslash and span one of
    ``rows`` (sorted), lexed without the AST: the text up to the end of the
    last row is read as the tokenizer reads it (a ``#`` outside a literal
    starts a comment, a quote a literal, whose end ``STRING_LITERAL``'s rule
    finds; the name before a quote is its prefix if it is one, else a
    keyword: ``return'a'``).  A STRING token each; on 3.12+ an f- or
    t-string's own tokens, tokenized from its text alone
    (``_formatted_tokens``); where the rule may end one wrongly (3.12+: a
    field holds a quote, ``literals.fields_close``), the tokenizer ends it
    (``literals.formatted_end``).  None when that reading may not be the
    tokenizer's: a literal that does not end, an f- or t-string that does
    not tokenize alone, a lone ``\\r``.  For a file that does not parse, the answer means
    nothing: ``check`` asks only where flake8 would show nothing for such a file.
    """
    if not rows:
        return []
    text = ''.join(lines)
    if '\r' in text:
        return None  # a lone CR ends a row for the tokenizer, not for ``lines``
    ends = list(accumulate(map(len, lines)))  # the offset just after each row
    spans = _lexed_spans(text, ends[rows[-1] - 1])
    if spans is None:
        return None
    starts = [ends[row - 2] if row > 1 else 0 for row in rows]
    spans = [span for span in spans if _spans_row(span, starts, rows, ends)]
    tokens = _string_tokens(spans, text, 1, lines, rows)
    if FSTRING_IS_STRING or not any(_formatted(tok[1]) for tok in tokens):
        return tokens
    found: list[tokenize.TokenInfo] = []
    for tok in tokens:
        parts = _formatted_tokens(tok, lines) if _formatted(tok[1]) else [tok]
        if parts is None:
            return None
        found.extend(parts)
    return found


def _formatted_tokens(tok: tokenize.TokenInfo, lines: list[str]) -> list[tokenize.TokenInfo] | None:
    """The tokens the tokenizer gives an f- or t-string (3.12+: FSTRING_START,
    MIDDLE, its fields' tokens, END), made from its text alone and placed
    where it stands; None when it does not tokenize alone (CPython 3.12.1 and
    3.13.0's tokenizer raises SystemError on some sources that compile: then
    the file is parsed, and ``check`` gives it E902 if its tokens fail too)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')  # 3.12+'s tokenizer warns about the escapes
            part = file_tokens([*_rows(tok[1]), '\n'])
    except (tokenize.TokenError, SyntaxError, SystemError):  # SystemError: 3.12.1 and 3.13.0's tokenizer
        return None
    shift, col = tok[2][0] - 1, tok[2][1]
    make = TokenInfo._make
    found = []
    for kind, text, (row, start_col), (end_row, end_col), _ in part:
        if kind == ERRORTOKEN:
            return None
        if kind in AFTER_LITERAL:
            break
        found.append(make((kind, text, (row + shift, start_col + col if row == 1 else start_col),
                           (end_row + shift, end_col + col if end_row == 1 else end_col),
                           lines[row + shift - 1])))
    return found


def _rows(text: str) -> list[str]:
    """``text`` cut into the rows the tokenizer reads, each with its ``\\n``: not by
    ``str.splitlines``, which also cuts at a form feed, ``\\v``, ``\\x1c``-``\\x1e``,
    U+0085, U+2028 and U+2029 (none ends a row for the tokenizer; ``lexed_literals``
    reads no text with a ``\\r``)."""
    return ROW.findall(text)


def _formatted(literal: str) -> bool:
    """Is this literal (its prefix first) an f- or t-string?"""
    return not FORMATTED_CHARS.isdisjoint(literal[:literal.find(literal[-1])])


def _lexed_spans(text: str, end: int) -> list[tuple[int, int]] | None:
    """The spans of the literals of ``text`` that start before ``end`` and
    hold a backslash, read as ``lexed_literals`` says; None when unsure."""
    spans: list[tuple[int, int]] = []
    match = LEXEME.match
    at = 0
    while True:
        at, stop = match(text, at).span(1)  # type: ignore[union-attr]  # it matches at the end too
        if not 0 <= at < end:
            return spans  # the end of the text, or past the rows
        if stop - at == 1 and text[at] == '\\':
            at = stop
            continue  # a line continuation
        begin = _prefix_start(text, at) if text[at - 1:at] in PREFIX_ENDS else at
        if (not FSTRING_IS_STRING and begin != at and text[begin:at].lower() in FORMATTED_PREFIXES
                and (stop - at == 1 or not fields_close(text, at, stop))):
            found = formatted_end(text, begin, at)
            if found is None:
                return None
            stop = found
        elif stop - at == 1:
            return None  # a quote that opens no literal the rule ends
        if text.find('\\', at, stop) != -1:
            spans.append((begin, stop))
        at = stop


def _prefix_start(text: str, quote: int) -> int:
    """Where the literal whose quote is at ``quote`` starts: at its prefix,
    if the name before the quote is one (``rb'``), else at the quote (the name
    is a keyword, ``return'``: any other name before a quote does not parse)."""
    begin = quote
    while begin > 0 and quote - begin < 3 and _name_char(text[begin - 1]):
        begin -= 1
    if begin == quote or quote - begin > 2 or (begin and _name_char(text[begin - 1])):
        return quote
    return begin if text[begin:quote].lower() in KNOWN_PREFIXES else quote


def _spans_row(span: tuple[int, int], starts: list[int], rows: list[int], ends: list[int]) -> bool:
    """Does ``span`` (offsets) cover some of the rows ``rows``, which start at the offsets ``starts``?"""
    index = bisect_right(starts, span[1] - 1) - 1
    return index >= 0 and ends[rows[index] - 1] > span[0]


def _name_char(char: str) -> bool:
    """May the tokenizer read ``char`` as part of a name (any non-ASCII character may be one)?"""
    return char.isalnum() or char == '_' or not char.isascii()


def file_tokens(lines: list[str]) -> list[tokenize.TokenInfo]:
    """The tokens of ``lines``, as flake8's ``FileProcessor.file_tokens``
    makes them (so a tokenize error is the one flake8 would report), those
    of a row sharing one string as their line (``token_stream``)."""
    return list(token_stream(lines))


def token_stream(lines: list[str]) -> Iterator[tokenize.TokenInfo]:
    """The tokens of ``lines`` one at a time; those of one row share one
    string as their ``line`` (``TOKENS_COPY_THE_LINE``)."""
    line_iter = iter(lines)
    tokens = tokenize.generate_tokens(lambda: next(line_iter))
    return _shared_lines(tokens, lines) if TOKENS_COPY_THE_LINE else tokens


def _shared_lines(tokens: Iterator[tokenize.TokenInfo], lines: list[str]) -> Iterator[tokenize.TokenInfo]:
    """``tokens``, each holding the string of ``lines`` where it starts as its
    ``line`` (nothing here reads a token's line)."""
    make = TokenInfo._make  # in C, unlike TokenInfo(...)
    last = len(lines)
    for kind, text, start, end, _ in tokens:
        yield make((kind, text, start, end, lines[start[0] - 1] if start[0] <= last else ''))


def noqa_lines(tokens: Iterable[tokenize.TokenInfo], lines: list[str]) -> dict[int, str]:
    """flake8's ``FileProcessor._noqa_line_mapping``: each line maps to the
    text of the physical lines its logical line spans (so a multi-line
    string's ``noqa`` may stand on its last line)."""
    mapping: dict[int, str] = {}
    low, high = len(lines) + 2, -1
    for kind, _, (start, _), (end, _), _ in tokens:
        if kind in (tokenize.ENDMARKER, tokenize.DEDENT):
            continue
        low, high = min(low, start), max(high, end)
        if kind in (tokenize.NL, tokenize.NEWLINE):
            joined = ''.join(lines[low - 1:high])
            mapping.update(dict.fromkeys(range(low, high + 1), joined))
            low, high = len(lines) + 2, -1
    return mapping


def unparsed_literals(lines: list[str]) -> list[tokenize.TokenInfo] | None:
    """The literals' tokens of a file that does not parse, for the checks that
    need only their text: every literal with a backslash, lexed
    (``lexed_literals``), or the tokenizer's tokens where that lexing is
    unsure; None when the tokenizer fails too."""
    tokens = lexed_literals(lines, backslash_rows(lines))
    if tokens is not None:
        return tokens
    try:
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')  # 3.12+'s tokenizer warns about the escapes
            return file_tokens(lines)
    except (SyntaxError, tokenize.TokenError, SystemError):
        return None
