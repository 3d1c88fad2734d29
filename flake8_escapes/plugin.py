"""The flake8 glue: thin on purpose; the work is in literals, context and checks."""
from __future__ import annotations

import argparse
import ast
import tokenize
from typing import Any, Iterator

from flake8_escapes import __version__, checks, context, literals

REGEX_FUNCTIONS_OPTION = '--escapes-regex-functions'


def _regex_functions(value: str) -> dict[str, context.Signature]:
    try:
        return context.parse_functions(value)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


class Plugin:
    """flake8 entry point ``ESC``."""

    name = 'flake8-escapes'
    version = __version__
    regex_functions: dict[str, context.Signature] = {}

    def __init__(
        self, tree: ast.AST, file_tokens: list[tokenize.TokenInfo], lines: list[str],
    ) -> None:
        self.tree = tree
        self.file_tokens = file_tokens
        self.lines = lines

    @classmethod
    def add_options(cls, parser: Any) -> None:
        parser.add_option(
            REGEX_FUNCTIONS_OPTION,
            default='',
            parse_from_config=True,
            type=_regex_functions,
            help='Your own regex functions, whose arguments ESC4xx checks like re.sub\'s: '
                 'comma-separated NAME:PATTERN_POS[:REPL_POS] (positions from 0, either may be '
                 'empty), e.g. "mylib.rx_sub:0:1,mylib.rx_find:0".',
        )

    @classmethod
    def parse_options(cls, options: argparse.Namespace) -> None:
        value = options.escapes_regex_functions
        # argparse converts a default given as a string; flake8 6 may hand the raw text.
        cls.regex_functions = _regex_functions(value) if isinstance(value, str) else value

    def run(self) -> Iterator[tuple[int, int, str, type]]:
        found = list(literals.escapes(self.file_tokens, self.lines, checks.looks_like_windows_path))
        for line, col, message in checks.invalid_escapes(found):
            yield line, col, message, type(self)
        for line, col, message in checks.windows_path_hazards(found):
            yield line, col, message, type(self)
        candidates = [item for item in found if checks.is_regex_candidate(item)]
        if candidates:  # the AST pass only for files that need it
            lines = sorted({item.line for item in candidates})
            roles = context.regex_roles(self.tree, self.lines, self.regex_functions, lines)
            for line, col, message in checks.regex_hazards(candidates, roles):
                yield line, col, message, type(self)
