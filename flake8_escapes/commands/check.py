"""``flake8-escapes check``: the plugin's reports without running flake8's other checkers.

What flake8 does for the plugin, and nothing else: the configuration and the
file list come from ``config`` (flake8's own option machinery), each file is
read by flake8's ``FileProcessor`` (BOM stripped, universal newlines, latin-1
fallback, ``# flake8: noqa``), its AST and tokens are built as flake8 builds
them, and every report goes through flake8's ``StyleGuideManager`` (select,
ignore, per-file-ignores, ``# noqa``) and a flake8 formatter.  So the output
is ``flake8 --select=ESC``'s, line for line, without pycodestyle, pyflakes,
mccabe or the logical-line builder; except that without ``--select`` a file
that does not parse or tokenize gets flake8's E999 or E902 line, virtual
environments are skipped, and a coding cookie on a line ended by a lone CR is
honoured as CPython honours it (flake8's reader sees one long line; before
3.14 tokenize decodes it as UTF-8 to find the cookie, fails, and flake8 falls
back to latin-1: its columns after a non-ASCII character are CPython's plus
the extra bytes; ``source_lines``).

A file that does not parse gets flake8's ``E999`` line (when E999 would be
shown) and the run goes on.  The tokens are the plugin's (``source.tokens_for``:
quiet rows skipped, literals read at the AST's place), not flake8's full
tokenization; a file with no row whose backslash can be reported is read but,
unless ``E999`` or ``E902`` is to be shown, neither parsed nor tokenized, nor
is one whose literals on those rows, lexed without the AST
(``source.lexed_literals``), hold no escape a check looks at
(``checks.may_report``): most files with a backslash in a literal.  The
cyclic garbage collector is paused while a file is checked.
"""
from __future__ import annotations

import argparse
import gc
import io
import json
import multiprocessing
import operator
import os
import re
import stat
import sys
import tokenize
import warnings
from typing import Optional

from flake8.checker import FileChecker
from flake8.formatting.base import BaseFormatter
from flake8.processor import FileProcessor
from flake8.violation import Violation

from flake8_escapes import api, checks, config, output, rules, source

Result = tuple[str, int, int, str, Optional[str]]  # code, line, 0-based col, text, noqa line
CODES = tuple(rule.code for rule in rules.RULES)
FORMATS = ('default', 'pylint', 'github', 'json')
IGNORED_ALL = ('flake8-escapes: the configuration ignores every ESC code (flake8 matches by prefix: '
               '"E" ignores ESC too); add extend-select = ESC to report them')
FIRST_LINES = re.compile(rb'([^\r\n]*(?:\r\n|\r|\n)?)([^\r\n]*(?:\r\n|\r|\n)?)')
FLAKE8_WORD = re.compile('flake8', re.IGNORECASE)
#: Set in each process: the parent's, inherited by fork, or re-read from argv.
_settings: config.Config | None = None
#: Standard input's bytes, once read (``stdin_bytes``).
_stdin: bytes | None = None


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


def _init(argv: list[str]) -> None:
    global _settings
    if _settings is None:  # spawn or forkserver: read the configuration again
        _settings = config.Config(argv)
        gc.freeze()


def encoding_of(data: bytes) -> str:
    """A source's encoding as CPython finds it: ``tokenize.detect_encoding`` on
    its first two lines as the compiler splits them (a coding cookie on a line
    ended by a lone CR counts; tokenize's readline would see one long line)."""
    lines = iter(FIRST_LINES.match(data).groups())  # type: ignore[union-attr]  # it matches b''
    return tokenize.detect_encoding(lambda: next(lines))[0]


def source_lines(data: bytes) -> list[str] | None:
    """The lines of a source as CPython reads it: its coding cookie found on
    lines split as the compiler splits them (a lone CR ends a line, which
    flake8's reader misses), universal newlines; None when it does not decode."""
    try:
        text = data.decode(encoding_of(data))
    except (LookupError, SyntaxError, UnicodeDecodeError):
        return None
    return io.StringIO(text, newline=None).readlines()


def read_lines(filename: str) -> list[str] | None:
    """A file's (or standard input's) lines: None where flake8's own reader
    should read the file (it falls back to latin-1)."""
    if filename == '-':
        data = stdin_bytes()
        return source_lines(data) or io.StringIO(data.decode('latin-1'), newline=None).readlines()
    with os.fdopen(os.open(filename, output.READ_FLAGS), 'rb') as f:
        return source_lines(f.read())


def stdin_bytes() -> bytes:
    """Standard input's bytes, read once per run: ``check - -`` reports them
    twice, as flake8 does (its ``stdin_get_value`` is cached)."""
    global _stdin
    if _stdin is None:
        _stdin = sys.stdin.buffer.read()
    return _stdin


def _problem(error: Exception) -> tuple[str, int, int, str]:
    """A file's single report when it cannot be checked: E999 (does not parse)
    or E902 (the tokenizer failed; CPython 3.12.1 and 3.13.0 raise SystemError
    on some sources that compile)."""
    if isinstance(error, SyntaxError):
        row, column = FileChecker._extract_syntax_information(error)
        return 'E999', row, column, f'{type(error).__name__}: {error.args[0]}'
    if isinstance(error, tokenize.TokenError):
        row, column = FileChecker._extract_syntax_information(error)
        return 'E902', row, column, f'{type(error).__name__}: {error.args[0]}'
    return 'E902', 1, 0, f'{type(error).__name__}: {error}'


def file_results(filename: str) -> tuple[str, list[Result]]:
    """(display name, results) as flake8's FileChecker would give them for the
    plugin alone; the cyclic garbage collector paused meanwhile (a file's
    objects, its AST's nodes, are freed by their reference counts: about 7%
    less CPU on the standard library, issue 24)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _file_results(filename)
    finally:
        if enabled:
            gc.enable()


def _file_results(filename: str) -> tuple[str, list[Result]]:
    settings = _settings
    assert settings is not None
    try:
        processor = FileProcessor(filename, settings.options, lines=read_lines(filename))
    except OSError as error:
        return filename, [('E902', 0, 0, f'{type(error).__name__}: {error}', None)]
    if filename == '-':  # flake8's reader names standard input as it reads it; ours was given the lines
        processor.filename = settings.options.stdin_display_name or 'stdin'
    name = processor.filename
    lines = processor.lines
    # The plugin's own path: a row whose backslashes nothing can report is not read; a file
    # with no other row is neither parsed (unless E999 is shown) nor tokenized.
    rows = source.reportable_rows(lines) if settings.reported(CODES, name) else []
    problems = settings.reports('E999', name) or settings.reports('E902', name)
    if not problems and not may_report(lines, rows):
        return name, []
    escapes = bool(rows)
    text = ''.join(lines)
    # flake8's test, line by line, only where the word is (its regex ignores case)
    if FLAKE8_WORD.search(text) and processor.should_ignore_file():
        return name, []
    reports, problem = api.checked(text, lines, settings.regex_functions, escapes=escapes)
    found = [(report.code, report.line, report.col, report.rule.message.format(**report.fields))
             for report in reports]
    if problem is not None:
        found = [_problem(problem)]
        if escapes and isinstance(problem, (SyntaxError, UnicodeDecodeError)):
            found += text_results(name, lines, problem)
    return name, with_noqa_lines(found, lines, text, settings.options.show_source)


def text_results(
    name: str, lines: list[str], error: SyntaxError | UnicodeDecodeError,
) -> list[tuple[str, int, int, str]]:
    """The reports of a file that does not parse (ESC304 above all: an escape
    CPython refuses) that its literals' text alone gives
    (``checks.text_reports``), from its literals lexed without the AST
    (``source.unparsed_literals``).  One line on standard error says so, and
    which checks were skipped.  (3.12+ raise
    UnicodeDecodeError, not SyntaxError, for a refused escape in an f-string's
    format spec.)"""
    where = f' at line {error.lineno}' if isinstance(error, SyntaxError) and error.lineno else ''
    said = f'{output.shown(name)}: does not parse ({type(error).__name__}{where})'
    reports = api.text_reports(lines)
    if reports is None:
        output.say(f'{said}: not checked, its literals cannot be read', sys.stderr)
        return []
    output.say(f'{said}: checked {checks.TEXT_CHECKS} on its literals; '
               f'skipped {checks.AST_CHECKS}, which need the AST', sys.stderr)
    return [(report.code, report.line, report.col, report.rule.message.format(**report.fields))
            for report in reports]


def may_report(lines: list[str], rows: list[int]) -> bool:
    """May a file with these ``reportable_rows`` get a report?  Not when it has
    none, nor when its literals there, lexed without the AST, hold no escape
    a check looks at (``checks.may_report``): it need not be parsed.  Asked
    only when E999 and E902 are not shown (a file that does not parse or
    tokenize gets nothing else from flake8)."""
    return api.may_report(lines, rows)


def with_noqa_lines(found: list[tuple[str, int, int, str]], lines: list[str], text: str,
                    show_source: bool) -> list[Result]:
    """Each report with the line(s) flake8 searches for its ``# noqa`` and shows with
    ``--show-source`` (``noqa_lines``); where neither can matter (no ``noqa`` in the file,
    no source shown), the report's own row, without tokenizing the file."""
    if found and (show_source or 'noqa' in text.lower()):
        noqa = noqa_lines(lines)
        return [(*item, noqa.get(item[1])) for item in found]
    return [(*item, lines[item[1] - 1] if 0 < item[1] <= len(lines) else None) for item in found]


def noqa_lines(lines: list[str]) -> dict[int, str]:
    """The line(s) whose ``# noqa`` covers each line, as flake8's ``noqa_line_for`` gives
    them, from tokens read one at a time (``source.token_stream``: flake8's ``file_tokens``,
    kept whole, took memory quadratic in a long row on CPython 3.12.0-3.12.3, issue 34);
    none where the tokenizer fails (flake8 maps nothing then), SystemError included (item
    13 of issue 24)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')  # 3.12+'s tokenizer warns about the escapes
            return source.noqa_lines(source.token_stream(lines), lines)
    except (tokenize.TokenError, SyntaxError, SystemError):
        return {}


def regular(path: str) -> bool:
    """Is ``path`` something to read: standard input, a regular file, or a name
    that does not exist (its E902 says so)?  A FIFO or a device is skipped, as
    ``fix`` skips it: reading it could block or never end."""
    try:
        return path == '-' or stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return True


def job_count(settings: config.Config, files: list[str]) -> int:
    """flake8's job count: none for standard input, 'auto' is the CPU count."""
    jobs = settings.options.jobs
    if '-' in files:
        return 0
    return min(len(files), multiprocessing.cpu_count() if jobs.is_auto else jobs.n_jobs)


def run(args: argparse.Namespace) -> int:
    global _settings, _stdin
    _stdin = None  # read again by a second run in the same process
    argv = config.flake8_argv(args, args.paths)
    if args.format == 'pylint':
        argv.insert(0, '--format=pylint')
    settings = _settings = config.Config(argv, FORMATTERS.get(args.format), args.output_file)
    if settings.ignores_all(CODES):
        output.say(IGNORED_ALL, sys.stderr)
    files = []
    named = set(settings.options.filenames)  # the walk yields regular files only: test the names given
    for name in settings.files():
        if name not in named or regular(name):
            files.append(name)
        else:
            output.say(f'{output.shown(name)}: skipped, not a regular file', sys.stderr)
    jobs = job_count(settings, files)
    gc.freeze()  # the modules and the configuration, never garbage: not scanned again (inherited by fork)
    if jobs > 1:
        with multiprocessing.Pool(jobs, _init, (argv,)) as pool:
            results = list(pool.imap_unordered(
                file_results, files, chunksize=max(1, len(files) // (jobs * 16))))
    else:
        results = [file_results(name) for name in files]
    gc.unfreeze()  # back to the collector, for a caller in the same process (a test)
    results.sort(key=operator.itemgetter(0))
    try:
        shown = report(settings, results)
    except BrokenPipeError:  # check ... | head: the reader has what it wanted
        output.closed(sys.stdout)
        shown = report(settings, results)  # again, into the null device: the count for the exit status
    if settings.options.count:
        output.say(str(shown))
    return 0 if settings.options.exit_zero else int(shown > 0)


def report(settings: config.Config, results: list[tuple[str, list[Result]]]) -> int:
    """Hand the results to flake8's style guide and formatter: the number of
    reports shown.  A name that is not valid UTF-8 is matched as it is and
    printed with its bytes escaped (flake8's formatter would fail on it)."""
    shown = 0
    settings.formatter.start()
    for name, found in results:
        found.sort(key=operator.itemgetter(1, 2))
        guide = settings.guide.style_guide_for(name)
        printed = output.shown(name)
        with settings.guide.processing_file(name):
            for code, line, col, text, noqa_line in found:
                shown += guide.handle_error(code, printed, line, col, text, noqa_line)
    if settings.options.statistics:
        settings.formatter.show_statistics(settings.guide.stats)
    settings.formatter.stop()
    sys.stdout.flush()
    if hasattr(sys.stdout, 'buffer'):
        sys.stdout.buffer.flush()  # a closed pipe is found here, not at exit
    return shown
