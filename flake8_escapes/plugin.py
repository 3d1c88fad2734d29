"""The flake8 glue: thin on purpose; the work is in literals and checks."""
from __future__ import annotations

import ast
import tokenize
from typing import Iterator

from flake8_escapes import __version__, checks, literals


class Plugin:
    """flake8 entry point ``ESC``."""

    name = 'flake8-escapes'
    version = __version__

    def __init__(
        self, tree: ast.AST, file_tokens: list[tokenize.TokenInfo], lines: list[str],
    ) -> None:
        self.tree = tree
        self.file_tokens = file_tokens
        self.lines = lines

    def run(self) -> Iterator[tuple[int, int, str, type]]:
        found = literals.escapes(self.file_tokens, self.lines)
        for line, col, message in checks.invalid_escapes(found):
            yield line, col, message, type(self)
