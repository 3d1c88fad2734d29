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
from itertools import compress, count, repeat
from operator import contains
from typing import Iterable

#: Nodes whose tokens are literals; a row strictly inside one may be inside a string token.
STRING_NODES = tuple(
    getattr(ast, name) for name in ('Constant', 'JoinedStr', 'TemplateStr') if hasattr(ast, name))
LINE_ENDS = ('\n', '\r\n')


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


def needs_tokens(tree: ast.AST, lines: list[str]) -> bool:
    """May a backslash of the file stand in a literal (so that it must be tokenized)?"""
    rows = backslash_rows(lines)
    if not rows:
        return False
    if not all(comment_or_continuation(lines[row - 1]) for row in rows):
        return True
    # Rows are counted alike by the AST and the lines only without a lone '\r'
    # (flake8 reads with universal newlines, so this is for other callers).
    if any(map(contains, lines, repeat('\r'))):
        return True
    return any(starts_inside_literal(tree, row) for row in rows)


def file_tokens(lines: Iterable[str]) -> list[tokenize.TokenInfo]:
    """The tokens of ``lines``, exactly as flake8's ``FileProcessor.file_tokens``
    makes them (so a tokenize error is the one flake8 would report)."""
    line_iter = iter(lines)
    return list(tokenize.generate_tokens(lambda: next(line_iter)))
