"""A file as flake8 hands it over: its lines and tree cost nothing more, its tokens do.

flake8 tokenizes a file a second time for any plugin that asks for
``file_tokens`` (``FileProcessor.file_tokens`` is built on first use), and
every code of this plugin is about a backslash in a literal.  So the lines
are searched for a backslash first (in C), and a file is tokenized only when
one of them may stand in a literal: most files hold no backslash at all, and
in many of the others every backslash is in a comment or ends a line
(a line continuation).
"""
from __future__ import annotations

import ast
import tokenize
from bisect import bisect_left
from itertools import compress, count, repeat
from operator import contains
from typing import Iterable

#: Nodes whose tokens are literals; a row strictly inside one may be inside a string token.
STRING_NODES = tuple(
    getattr(ast, name) for name in ('Constant', 'JoinedStr', 'TemplateStr') if hasattr(ast, name))
LINE_ENDS = ('\n', '\r\n')
#: Statement parts that hold a body of their own.
CLAUSES = (ast.excepthandler, ast.match_case)
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


def _first_row(node: ast.AST) -> int | None:
    """The row of a node's first token (a decorator's, for a decorated definition)."""
    row = getattr(node, 'lineno', None)
    decorators = getattr(node, 'decorator_list', None)
    if row is not None and decorators:
        row = min(row, *(item.lineno for item in decorators))
    return row


def starts_inside_literal(tree: ast.AST, row: int) -> bool:
    """Could the text of ``row`` start inside a string token (a literal that
    began on an earlier row)?  Visits only the nodes that span the row."""
    stack = [tree]
    while stack:
        for child in ast.iter_child_nodes(stack.pop()):
            first = _first_row(child)
            if first is not None:
                if not first <= row <= (child.end_lineno or first):
                    continue
                if first < row and isinstance(child, STRING_NODES):
                    return True
            stack.append(child)
    return False


def rows_to_tokenize(tree: ast.AST, lines: list[str]) -> list[int]:
    """The rows whose backslashes may stand in a literal: those the plugin
    must see tokens for."""
    rows = backslash_rows(lines)
    unsure, sure = [], []
    for row in rows:
        (sure if comment_or_continuation(lines[row - 1]) else unsure).append(row)
    if sure and any(map(contains, lines, repeat('\r'))):
        # Rows are counted alike by the AST and the lines only without a lone '\r'
        # (flake8 reads with universal newlines, so this is for other callers).
        return rows
    return sorted(unsure + [row for row in sure if starts_inside_literal(tree, row)])


def needs_tokens(tree: ast.AST, lines: list[str]) -> bool:
    """May a backslash of the file stand in a literal (so that it must be tokenized)?"""
    return bool(rows_to_tokenize(tree, lines))


def _child_statements(node: ast.AST) -> list[ast.stmt]:
    """The statements right inside ``node`` (clauses' bodies too), in source order."""
    children: list[ast.stmt] = []
    for value in ast.iter_child_nodes(node):
        if isinstance(value, ast.stmt):
            children.append(value)
        elif isinstance(value, CLAUSES):
            children.extend(value.body)
    return children


def statement_rows(tree: ast.AST, row: int, last_row: int) -> tuple[int, int]:
    """The rows to tokenize for ``row``: those of the innermost simple
    statement that holds it, or else those between the statements of the
    innermost compound one (a clause header, ``except ...:``, ``case ...:``)."""
    node, first, last = tree, 1, last_row
    while True:
        children = _child_statements(node)
        index = bisect_left(children, row, key=_end_row)
        if index < len(children) and (_first_row(children[index]) or row) <= row:
            node = children[index]
            first, last = _first_row(node) or row, _end_row(node)
            continue
        if not children:
            return first, last
        if index:
            first = _end_row(children[index - 1]) + 1
        if index < len(children):
            last = (_first_row(children[index]) or row) - 1
        return first, last


def _end_row(node: ast.AST) -> int:
    return getattr(node, 'end_lineno', None) or getattr(node, 'lineno', 0)


def tokens_for(tree: ast.AST, lines: list[str]) -> list[tokenize.TokenInfo]:
    """The tokens the checks need: none for a file whose backslashes are all
    in comments or line continuations; else those of the statements that
    hold the other backslashes, at their places in the file (each statement
    is tokenized on its own, from a fresh tokenizer, as the file's tokenizer
    meets it); the whole file's when a statement does not tokenize alone.

    A tokenize error of the file is raised as flake8's ``file_tokens`` would
    raise it (flake8 reports it as E902/E999).
    """
    rows = rows_to_tokenize(tree, lines)
    if not rows:
        return []
    spans: list[tuple[int, int]] = []
    for row in rows:
        if spans and spans[-1][0] <= row <= spans[-1][1]:
            continue
        first, last = statement_rows(tree, row, len(lines))
        while spans and first <= spans[-1][1]:  # statements that share a row
            first = min(first, spans.pop()[0])
        spans.append((first, max(last, row)))
    if spans == [(1, len(lines))]:
        return file_tokens(lines)
    found: list[tokenize.TokenInfo] = []
    for first, last in spans:
        if first > 1 and starts_inside_literal(tree, first):
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
                found.append(TokenInfo(kind, text, (row + shift, col), (end_row + shift, end_col), line))
    return found


def file_tokens(lines: Iterable[str]) -> list[tokenize.TokenInfo]:
    """The tokens of ``lines``, exactly as flake8's ``FileProcessor.file_tokens``
    makes them (so a tokenize error is the one flake8 would report)."""
    line_iter = iter(lines)
    return list(tokenize.generate_tokens(lambda: next(line_iter)))
