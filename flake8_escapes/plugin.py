"""The flake8 glue: thin on purpose; the work is in literals, roles and the family modules."""
from __future__ import annotations

import argparse
import ast
import warnings
from typing import Any, Iterator

import flake8_escapes
from flake8_escapes import apis, collector_paused, source

REGEX_FUNCTIONS_OPTION = '--escapes-regex-functions'

#: CPython's own warnings about invalid escapes, as flake8's parse and
#: tokenization of a file print them on 3.12+ ('<unknown>:2: SyntaxWarning:
#: "\d" is an invalid escape sequence...'): the same findings as ESC301-303,
#: a second time and without the file's name.  Hidden while the plugin is
#: loaded, and only those: the message (3.10-3.12 "invalid escape sequence
#: '\d'", 3.13+ '"\d" is an invalid escape sequence') and the source name
#: flake8 compiles and tokenizes without ('<unknown>', '<string>') must match.
ESCAPE_WARNING = r'(invalid (octal )?escape sequence |"\\.+" is an invalid (octal )?escape sequence)'
for _category in (SyntaxWarning, DeprecationWarning):
    for _source in ('<unknown>', '<string>'):
        warnings.filterwarnings('ignore', ESCAPE_WARNING, _category, rf'{_source}\Z')


def regex_functions_argument(value: str) -> tuple[apis.Api, ...]:
    """``--escapes-regex-functions`` as an argparse type (flake8's and the fixer's):
    a malformed value becomes an error that argparse reports with the option's name."""
    try:
        return apis.parse_functions(value)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


class _Version:
    """The package's version as a class attribute, read when first asked
    (``flake8_escapes.__version__``), not when the plugin is loaded."""

    def __get__(self, instance: object, owner: type | None = None) -> str:
        return str(flake8_escapes.__version__)


class Plugin:
    """flake8 entry point ``ESC``."""

    name = 'flake8-escapes'
    version = _Version()
    regex_functions: tuple[apis.Api, ...] = ()

    def __init__(self, tree: ast.AST, lines: list[str]) -> None:
        # Not ``file_tokens``: flake8 would tokenize every file a second time
        # for it.  The plugin tokenizes only files that need it (see run).
        self.tree = tree
        self.lines = lines

    @classmethod
    def add_options(cls, parser: Any) -> None:
        parser.add_option(
            REGEX_FUNCTIONS_OPTION,
            default='',
            parse_from_config=True,
            type=regex_functions_argument,
            help='Your own regex functions, whose arguments ESC4xx checks like re.sub\'s: '
                 'comma-separated NAME:PATTERN_POS[:REPL_POS] (positions from 0, either may be '
                 'empty), e.g. "mylib.rx_sub:0:1,mylib.rx_find:0".',
        )

    @classmethod
    def parse_options(cls, options: argparse.Namespace) -> None:
        value = options.escapes_regex_functions
        # argparse converts a default given as a string; flake8 6 may hand the raw text.
        cls.regex_functions = regex_functions_argument(value) if isinstance(value, str) else value

    def run(self) -> Iterator[tuple[int, int, str, type]]:
        for line, col, message in self.reports():
            yield line, col, message, type(self)

    def reports(self) -> list[tuple[int, int, str]]:
        """The file's reports (line, column, message), made with the cyclic garbage
        collector paused (``collector_paused``); a list, so that flake8 never runs
        with it paused."""
        with collector_paused():
            # No backslash that can stand in a literal: no tokens, nothing to report.
            # A tokenize error leaves run() before any report, as flake8's own
            # file_tokens raised it before: flake8 reports it as E902/E999.
            tokens = source.tokens_for(self.tree, self.lines)
            if not tokens:
                return []
            # Imported by the first file that needs the checks, not when flake8
            # loads the plugin: most files of a project whose CI passes never do.
            from flake8_escapes import checks
            return [(report.line, report.col, report.message)
                    for report in checks.all_reports(self.tree, tokens, self.lines, self.regex_functions)]
