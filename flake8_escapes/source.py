"""A file as flake8 hands it over: its lines and tree cost nothing more, its tokens do.

flake8 tokenizes a file a second time for any plugin that asks for
``file_tokens`` (``FileProcessor.file_tokens`` is built on first use), and
every code of this plugin is about a backslash in a literal.  So the lines
are searched for a backslash first (in C), and a file is tokenized only when
one of them may stand in a literal: most files hold no backslash at all, and
in many of the others every backslash is in a comment or ends a line
(a line continuation).  Even then only the statements that hold such a
backslash are tokenized, each on its own, found through the AST.
"""
from __future__ import annotations

import ast
import tokenize
from bisect import bisect_left
from itertools import compress, count, repeat
from operator import contains
from typing import Iterable, cast

#: Nodes whose tokens are literals; a row strictly inside one may be inside a string token.
STRING_NODES = tuple(
    getattr(ast, name) for name in ('Constant', 'JoinedStr', 'TemplateStr') if hasattr(ast, name))
LINE_ENDS = ('\n', '\r\n')
#: Statement parts that hold a body of their own.
CLAUSES = (ast.ExceptHandler, ast.match_case)  # ExceptHandler: excepthandler's only kind
ERRORTOKEN = tokenize.ERRORTOKEN
TokenInfo = tokenize.TokenInfo


def backslash_rows(lines: list[str]) -> list[int]:
    """The 1-based numbers of the lines that hold a backslash (in C: map, compress)."""
    return list(compress(count(1), map(contains, lines, repeat('\\'))))


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


class Statements:
    """Where a row stands among a module's statements, found by bisection
    (each statement list is gathered once): the cost does not grow with
    the number of statements around it."""

    def __init__(self, tree: ast.AST, last_row: int) -> None:
        self.tree = tree
        self.last_row = last_row
        self._children: dict[int, list[ast.stmt]] = {}

    def children(self, node: ast.AST) -> list[ast.stmt]:
        """The statements right inside ``node`` (clauses' bodies too), in source order."""
        found = self._children.get(id(node))
        if found is None:
            found = []
            for value in ast.iter_child_nodes(node):
                if isinstance(value, ast.stmt):
                    found.append(value)
                elif isinstance(value, CLAUSES):
                    found.extend(value.body)
            self._children[id(node)] = found
        return found

    def innermost(self, row: int) -> tuple[ast.AST, list[ast.stmt], int]:
        """The innermost statement that holds ``row`` (the module if none does),
        its statements, and the index of the first of them that ends on or after ``row``."""
        node = self.tree
        while True:
            children = self.children(node)
            index = bisect_left(children, row, key=_end_row)
            if index == len(children) or _first_row(children[index]) > row:
                return node, children, index
            node = children[index]

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
    """The rows whose backslashes may stand in a literal: those the plugin
    must see tokens for."""
    rows = backslash_rows(lines)
    unsure: list[int] = []
    sure: list[int] = []
    for row in rows:
        (sure if comment_or_continuation(lines[row - 1]) else unsure).append(row)
    if not sure:
        return unsure
    if any(map(contains, lines, repeat('\r'))):
        # Rows are counted alike by the AST and the lines only without a lone '\r'
        # (flake8 reads with universal newlines, so this is for other callers).
        return rows
    statements = statements or Statements(tree, len(lines))
    return sorted(unsure + [row for row in sure if statements.starts_inside_literal(row)])


def needs_tokens(tree: ast.AST, lines: list[str]) -> bool:
    """May a backslash of the file stand in a literal (so that it must be tokenized)?"""
    return bool(rows_to_tokenize(tree, lines))


def tokens_for(tree: ast.AST, lines: list[str]) -> list[tokenize.TokenInfo]:
    """The tokens the checks need: none for a file whose backslashes are all
    in comments or line continuations; else those of the statements that
    hold the other backslashes, at their places in the file (each statement
    is tokenized on its own, from a fresh tokenizer, as the file's tokenizer
    meets it); the whole file's when a statement does not tokenize alone.

    A tokenize error of the file is raised as flake8's ``file_tokens`` would
    raise it (flake8 reports it as E902/E999).
    """
    statements = Statements(tree, len(lines))
    rows = rows_to_tokenize(tree, lines, statements)
    if not rows:
        return []
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
    if spans[0][:2] == (1, len(lines)):
        return file_tokens(lines)
    found: list[tokenize.TokenInfo] = []
    make = TokenInfo._make  # in C, unlike TokenInfo(...)
    for first, last, fresh in spans:
        if not fresh and statements.starts_inside_literal(first):
            return file_tokens(lines)
        try:
            part = file_tokens(lines[first - 1:last])
        except (tokenize.TokenError, SyntaxError):
            return file_tokens(lines)
        shift = first - 1
        for kind, text, (row, col), (end_row, end_col), line in part:
            if kind == ERRORTOKEN:
                return file_tokens(lines)
            if row + shift <= last:  # not the DEDENTs and ENDMARKER after the statement
                found.append(make((kind, text, (row + shift, col), (end_row + shift, end_col), line)))
    return found


def file_tokens(lines: Iterable[str]) -> list[tokenize.TokenInfo]:
    """The tokens of ``lines``, exactly as flake8's ``FileProcessor.file_tokens``
    makes them (so a tokenize error is the one flake8 would report)."""
    line_iter = iter(lines)
    return list(tokenize.generate_tokens(lambda: next(line_iter)))
