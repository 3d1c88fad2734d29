"""``flake8-escapes check``: the plugin's reports without running flake8's other checkers.

What flake8 does for the plugin, and nothing else: the configuration and the
file list come from ``config`` (flake8's own option machinery), each file is
read by flake8's ``FileProcessor`` (BOM stripped, universal newlines, latin-1
fallback, ``# flake8: noqa``), its AST and tokens are built as flake8 builds
them, and every report goes through flake8's ``StyleGuideManager`` (select,
ignore, per-file-ignores, ``# noqa``) and a flake8 formatter.  So the output
is ``flake8 --select=ESC``'s, line for line, without pycodestyle, pyflakes,
mccabe or the logical-line builder.

A file that does not parse gets flake8's ``E999`` line (when E999 would be
shown) and the run goes on.  Files without a backslash hold no escape: unless
``E999`` is to be shown they are read but neither parsed nor tokenized.
"""
from __future__ import annotations

import argparse
import ast
import json
import multiprocessing
import operator
import tokenize
import warnings
from typing import Optional

from flake8.checker import FileChecker
from flake8.formatting.base import BaseFormatter
from flake8.main.options import JobsArgument
from flake8.processor import FileProcessor
from flake8.violation import Violation

from flake8_escapes import checks, config, rules

Result = tuple[str, int, int, str, Optional[str]]  # code, line, 0-based col, text, noqa line
CODES = tuple(rule.code for rule in rules.RULES)
FORMATS = ('default', 'pylint', 'github', 'json')
#: Set in each process: the parent's, inherited by fork, or re-read from argv.
_settings: config.Config | None = None


class GitHub(BaseFormatter):
    """GitHub Actions workflow commands: one ``::error`` annotation per report."""

    def format(self, error: Violation) -> str:
        def escape(text: str, *more: str) -> str:
            for char in ('%', '\r', '\n', *more):
                text = text.replace(char, f'%{ord(char):02X}')
            return text
        where = ','.join(f'{key}={escape(str(value), ":", ",")}' for key, value in (
            ('file', error.filename), ('line', error.line_number), ('col', error.column_number),
            ('title', error.code)))
        return f'::error {where}::{escape(f"{error.code} {error.text}")}'


class JSONLines(BaseFormatter):
    """One JSON object per report and line: path, line, column (1-based), code, message."""

    def format(self, error: Violation) -> str:
        return json.dumps({'path': error.filename, 'line': error.line_number,
                           'column': error.column_number, 'code': error.code, 'message': error.text})


FORMATTERS = {'github': GitHub, 'json': JSONLines}


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    checking = commands.add_parser(
        'check', help='report as flake8 --select=ESC would, without flake8',
        description='Report what flake8 --select=ESC reports, at the same positions and in the same '
                    'format, reading the same configuration, without running flake8\'s other checkers. '
                    'Exit status: 0 no report, 1 reports, 2 bad usage.')
    config.add_arguments(checking)
    checking.add_argument('--jobs', dest=config.PASSED_ON + 'jobs', type=JobsArgument, metavar='N',
                          help="processes, or 'auto' (flake8's default)")
    checking.add_argument('--format', choices=FORMATS, default='default',
                          help='default: path:line:col: CODE message; github: workflow annotations; '
                               'json: one object per line (path, line, column, code, message)')
    checking.add_argument('--stdin-display-name', dest=config.PASSED_ON + 'stdin_display_name',
                          metavar='NAME',
                          help='the name of standard input (-) in reports and per-file-ignores')
    checking.add_argument('paths', nargs='*', metavar='PATH',
                          help="files or directories (default: '.'); '-' for standard input")


def _init(argv: list[str]) -> None:
    global _settings
    if _settings is None:  # spawn or forkserver: read the configuration again
        _settings = config.Config(argv)


def file_results(filename: str) -> tuple[str, list[Result]]:
    """(display name, results) as flake8's FileChecker would give them for the plugin alone."""
    settings = _settings
    assert settings is not None
    try:
        processor = FileProcessor(filename, settings.options)
    except OSError as error:
        return filename, [('E902', 0, 0, f'{type(error).__name__}: {error}', None)]
    name = processor.filename
    source = ''.join(processor.lines)
    escapes = '\\' in source and bool(settings.reported(CODES, name))
    if not escapes and not settings.reports('E999', name) or processor.should_ignore_file():
        return name, []
    found: list[tuple[str, int, int, str]] = []
    try:
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')  # the compiler's own escape warnings
            tree = ast.parse(source)
            if escapes:
                for report in checks.all_reports(
                        tree, processor.file_tokens, processor.lines, settings.regex_functions):
                    found.append((report.code, report.line, report.col,
                                  report.rule.message.format(**report.fields)))
    except (SyntaxError, tokenize.TokenError) as error:
        code = 'E902' if isinstance(error, tokenize.TokenError) else 'E999'
        row, column = FileChecker._extract_syntax_information(error)
        found = [(code, row, column, f'{type(error).__name__}: {error.args[0]}')]
    return name, [(*item, processor.noqa_line_for(item[1])) for item in found]


def _jobs(settings: config.Config, files: list[str]) -> int:
    """flake8's job count: none for standard input, 'auto' is the CPU count."""
    jobs = settings.options.jobs
    if '-' in files:
        return 0
    return min(len(files), multiprocessing.cpu_count() if jobs.is_auto else jobs.n_jobs)


def run(args: argparse.Namespace) -> int:
    global _settings
    argv = config.flake8_argv(args, args.paths)
    if args.format == 'pylint':
        argv.insert(0, '--format=pylint')
    settings = _settings = config.Config(argv, FORMATTERS.get(args.format))
    files = list(settings.files())
    jobs = _jobs(settings, files)
    if jobs > 1:
        with multiprocessing.Pool(jobs, _init, (argv,)) as pool:
            results = list(pool.imap_unordered(
                file_results, files, chunksize=max(1, len(files) // (jobs * 16))))
    else:
        results = [file_results(name) for name in files]
    results.sort(key=operator.itemgetter(0))
    shown = 0
    settings.formatter.start()
    for name, found in results:
        found.sort(key=operator.itemgetter(1, 2))
        with settings.guide.processing_file(name):
            for code, line, col, text, noqa_line in found:
                shown += settings.guide.handle_error(code, name, line, col, text, noqa_line)
    settings.formatter.stop()
    return int(shown > 0)
