"""``flake8-escapes check``: the plugin's reports without running flake8's other checkers.

What flake8 does for the plugin, and nothing else: the configuration and the
file list come from ``config`` (flake8's own option machinery), each file is
read by flake8's ``FileProcessor`` (BOM stripped, universal newlines, latin-1
fallback, ``# flake8: noqa``), its AST and tokens are built as flake8 builds
them, and every report goes through flake8's ``StyleGuideManager`` (select,
ignore, per-file-ignores, ``# noqa``) and a flake8 formatter.  So the output
is ``flake8 --select=ESC``'s, line for line, without pycodestyle, pyflakes,
mccabe or the logical-line builder; except that virtual
environments are skipped, and a coding cookie on a line ended by a lone CR is
honoured as CPython honours it (flake8's reader sees one long line; before
3.14 tokenize decodes it as UTF-8 to find the cookie, fails, and flake8 falls
back to latin-1: its columns after a non-ASCII character are CPython's plus
the extra bytes; ``source_lines``).

Only a file that may report is parsed: one with no row whose backslash can be
reported is read but neither parsed nor tokenized, nor is one whose literals
on those rows, lexed without the AST (``source.lexed_literals``), hold no
escape a check looks at (``checks.may_report``): most files with a backslash
in a literal.  So plain ``check`` is as fast as ``--select ESC`` (issue 32),
and a file that does not parse gets flake8's ``E999`` line (E999 is selected
by default, as in flake8) only when it may report: then also the reports its
literals' text alone gives (``text_results``), and the run goes on.  The
tokens are the plugin's (``source.tokens_for``: quiet rows skipped, literals
read at the AST's place), not flake8's full tokenization.  The
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
import signal
import stat
import sys
import tokenize
import warnings
from typing import Optional, TextIO

from flake8.checker import FileChecker
from flake8.formatting.base import BaseFormatter
from flake8.formatting.default import SimpleFormatter
from flake8.processor import FileProcessor
from flake8.statistics import Statistics
from flake8.style_guide import Decision
from flake8.violation import Violation

from flake8_escapes import (
    api, apis, checks, collector_paused, config, escapes, notebook, output, rules, source,
)

#: code, line, 0-based col, text, noqa line, 0-based end column (past the escape's last character),
#: and in a notebook (cell number, the line of the notebook's JSON text that holds the row), else None
Result = tuple[str, int, int, str, Optional[str], int, Optional[tuple[int, int]]]
#: A result before it is placed: the first six of ``Result``.
Found = tuple[str, int, int, str, Optional[str], int]
#: A file's results: its display name, its reports, and the line that says it could not be read (exit 2)
FileResults = tuple[str, list[Result], str]
CODES = tuple(rule.code for rule in rules.RULES)
#: The codes ``check`` reports: ours, and flake8's for a file that does not parse or tokenize.
KNOWN = (*CODES, 'E902', 'E999')
#: Each code's name, as ``--statistics`` and ``--format=json`` give it (ruff's names for E902, E999).
NAMES = {**{rule.code: rule.name for rule in rules.RULES}, 'E902': 'io-error', 'E999': 'syntax-error'}
#: The code of an escape CPython refuses: a file that does not parse only because of them is checked whole.
REFUSED = 'ESC304'
IGNORED_ALL = ('flake8-escapes: the configuration ignores every ESC code (flake8 matches by prefix: '
               '"E" ignores ESC too); add extend-select = ESC to report them')
NOT_SELECTED = ('flake8-escapes: no ESC code is selected (select = {}); add extend-select = ESC '
                'to report them')
FIRST_LINES = re.compile(rb'([^\r\n]*(?:\r\n|\r|\n)?)([^\r\n]*(?:\r\n|\r|\n)?)')
FLAKE8_WORD = re.compile('flake8', re.IGNORECASE)
#: Encodings (as ``tokenize.detect_encoding`` names them) whose only byte for a backslash is its ASCII
#: one, and which read no other byte as one (unlike a multi-byte encoding's, or UTF-7's '+AFw-').
ASCII_ENCODINGS = frozenset({'utf-8', 'utf-8-sig', 'iso-8859-1'})
#: Set in each process: the parent's, inherited by fork, or re-read from argv.
_settings: config.Config | None = None
#: Standard input's bytes, once read (``stdin_bytes``).
_stdin: bytes | None = None


class Ranged(BaseFormatter):
    """A formatter that shows where a report's escape ends: ``end``, the 0-based column past
    its last character on the report's row, is set (``report``) before each report is handled;
    so are ``path``, the file's name, and in a notebook ``cell`` (its number among all cells)
    and ``json_row`` (the line of the notebook's JSON text that holds the report's row): a
    notebook's report is handed to flake8 as the path ``nb.ipynb:cell 3``, ruff's way."""

    end = 0
    path = ''
    cell = 0
    json_row = 0

    def end_column(self, error: Violation) -> int:
        """The 1-based column of the escape's last character (of the reported character where
        there is no escape: E999, E902)."""
        return max(self.end, int(error.column_number))


class GitHub(Ranged):
    """GitHub Actions workflow commands: one ``::error`` annotation per report, from its
    backslash (``col``) to its escape's last character (``endColumn``).  No source line under
    it (``--show-source``): the runner would read a line of the file that starts with ``::``
    (after spaces) as a workflow command, and the annotation shows the span."""

    def show_source(self, error: Violation) -> str | None:
        return None

    def format(self, error: Violation) -> str:
        def escape(text: str, *more: str) -> str:
            for char in ('%', '\r', '\n', *more):
                text = text.replace(char, f'%{ord(char):02X}')
            return text
        if self.cell:  # the notebook's file, at the line of its JSON that holds the cell's row
            fields: tuple[tuple[str, object], ...] = (('file', self.path), ('line', self.json_row),
                                                      ('endLine', self.json_row), ('title', error.code))
            text = f'cell {self.cell}:{error.line_number}:{error.column_number}: {error.code} {error.text}'
        else:
            fields = (('file', error.filename), ('line', error.line_number),
                      ('endLine', error.line_number), ('col', error.column_number),
                      ('endColumn', self.end_column(error)), ('title', error.code))
            text = f'{error.code} {error.text}'
        where = ','.join(f'{key}={escape(str(value), ":", ",")}' for key, value in fields)
        return f'::error {where}::{escape(text)}'


class JSONLines(Ranged):
    """One JSON object per report and line: path, line, column (1-based), code, message; and in
    a notebook ``cell`` (its number among all cells; the line is the row within the cell).  No
    source line under it (``--show-source``): each line must stay a JSON object."""

    def show_source(self, error: Violation) -> str | None:
        return None

    def format(self, error: Violation) -> str:
        found: dict[str, object] = {'path': self.path or error.filename, 'line': error.line_number,
                                    'column': error.column_number, 'code': error.code, 'message': error.text}
        if self.cell:
            found['cell'] = self.cell
        return json.dumps(found)


class JSON(Ranged):
    """One JSON array of the reports, ruff's ``--output-format json`` where its keys fit: ``code``,
    ``message``, ``filename`` (as flake8 names it; ruff's is absolute), ``location`` and
    ``end_location`` (``row``, ``column``: 1-based, the end one past the escape's last character,
    as ruff's), ``name`` (the rule's), and ``cell`` in a notebook (ruff's: the cell's number among
    all cells, the rows within it; null elsewhere); ruff's ``fix``, ``noqa_row`` and ``url`` left out."""

    def after_init(self) -> None:
        self.found: list[dict[str, object]] = []

    def handle(self, error: Violation) -> None:
        self.found.append({
            'code': error.code, 'message': error.text, 'filename': self.path or error.filename,
            'name': NAMES.get(error.code), 'cell': self.cell or None,
            'location': {'row': error.line_number, 'column': error.column_number},
            'end_location': {'row': error.line_number, 'column': self.end_column(error) + 1}})

    def stop(self) -> None:
        self._write(json.dumps(self.found, indent=2, sort_keys=True))
        super().stop()


#: Our formatters, beside flake8's (default, pylint, quiet-filename, quiet-nothing, and any plugin's).
FORMATTERS: dict[str, type[BaseFormatter]] = {'github': GitHub, 'json': JSON, 'json-lines': JSONLines}
#: The module of flake8's own formatters, which print the path as text (``nb.ipynb:cell 3``).
FLAKE8_FORMATTERS = 'flake8.formatting.default'


def points_at_files(formatter: BaseFormatter) -> bool:
    """Does ``formatter`` point at files, so that a notebook's report must name the notebook
    itself, at the line of its JSON that holds the cell's row (ours: ``github``; a plugin's: SARIF
    and the like, whose path must be a file), rather than ``nb.ipynb:cell 3`` as text?"""
    return isinstance(formatter, GitHub) or not (
        isinstance(formatter, Ranged) or type(formatter).__module__ == FLAKE8_FORMATTERS)


#: The formatters whose output is JSON: ``--count`` and ``--statistics`` are printed on standard
#: error beside them, so that what they write (standard output or ``--output-file``) still parses.
DOCUMENTS = (JSON, JSONLines)


def aside(formatter: BaseFormatter) -> TextIO:
    """Where ``--count`` and ``--statistics`` go: standard error beside a JSON document
    (``DOCUMENTS``), else standard output as in flake8 (the statistics: the formatter's output)."""
    return sys.stderr if isinstance(formatter, DOCUMENTS) else sys.stdout


def _init(argv: list[str]) -> None:
    global _settings
    # Ctrl-C is the main process's (no worker traceback); the pool's SIGTERM at its end must end
    # the worker at once, not run the main process's handler inherited by fork (a deadlock)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
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
    should read the file (it falls back to latin-1); none (``[]``) for a file
    with no backslash (``no_backslash``), which nothing can be reported on."""
    if filename == '-':
        data = stdin_bytes()
        return source_lines(data) or io.StringIO(data.decode('latin-1'), newline=None).readlines()
    with os.fdopen(os.open(filename, output.READ_FLAGS), 'rb') as f:
        data = f.read()
    return [] if no_backslash(data) else source_lines(data)


def no_backslash(data: bytes) -> bool:
    """Does a source surely hold no backslash, however it is read?  When its bytes
    hold none and its encoding writes each ASCII character as its one byte
    (``ASCII_ENCODINGS``): its text holds none then, nor its latin-1 reading
    (flake8's, when it does not decode)."""
    if b'\\' in data:
        return False
    try:
        return encoding_of(data) in ASCII_ENCODINGS
    except (LookupError, SyntaxError):  # a cookie that names no encoding: read as flake8 reads it
        return False


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
    if isinstance(error, (RecursionError, MemoryError)):  # the parser's: nested too deep to compile
        return 'E999', 1, 0, f'{type(error).__name__}: {str(error) or "nested too deep to parse"}'
    if isinstance(error, tokenize.TokenError):
        row, column = FileChecker._extract_syntax_information(error)
        return 'E902', row, column, f'{type(error).__name__}: {error.args[0]}'
    return 'E902', 1, 0, f'{type(error).__name__}: {error}'


def file_results(filename: str) -> FileResults:
    """(display name, results) as flake8's FileChecker would give them for the
    plugin alone; the cyclic garbage collector paused meanwhile (a file's
    objects, its AST's nodes, are freed by their reference counts: about 7%
    less CPU on the standard library, issue 24).  An error of ours while checking it gives
    no report and the one line that says so (``output.internal_error``): the run goes on, and exits 2."""
    try:
        with collector_paused():
            return _file_results(filename)
    except Exception as error:
        name = filename
        if filename == '-':  # as flake8 names it (``_python_results``)
            name = (_settings.options.stdin_display_name if _settings else '') or 'stdin'
        return name, [], output.internal_error(name, error)


def _file_results(filename: str) -> FileResults:
    settings = _settings
    assert settings is not None
    if notebook.is_notebook(settings.options.stdin_display_name if filename == '-' else filename):
        return notebook_results(filename, settings)
    name, found = _python_results(filename, settings)
    return name, [(*item, None) for item in found], ''


def _python_results(filename: str, settings: config.Config) -> tuple[str, list[Found]]:
    try:
        lines = read_lines(filename)
        if lines == [] and filename != '-':  # no backslash (or empty): nothing to report, not even E999
            return filename, []
        processor = FileProcessor(filename, settings.options, lines=lines)
    except OSError as error:
        return filename, [('E902', 0, 0, f'{type(error).__name__}: {error}', None, 1)]
    if filename == '-':  # flake8's reader names standard input as it reads it; ours was given the lines
        processor.filename = settings.options.stdin_display_name or 'stdin'
    name = processor.filename
    lines = processor.lines
    # The plugin's own path: a row whose backslashes nothing can report is not read; a file
    # with no other row is neither parsed nor tokenized (no E999 then: issue 32).
    rows = source.reportable_rows(lines) if any(settings.reports(code, name) for code in CODES) else []
    if not may_report(lines, rows):  # E999 and E902 too come only from a file that may report
        return name, []
    escapes = bool(rows)
    text = ''.join(lines)
    # flake8's test, line by line, only where the word is (its regex ignores case)
    if FLAKE8_WORD.search(text) and processor.should_ignore_file():
        return name, []
    reports, problem = api.checked(text, lines, settings.regex_functions, escapes=escapes)
    found = _formatted(reports)  # a text that parses holds no NUL
    if problem is not None:
        found = [_problem(problem)]
        if escapes and isinstance(problem, api.UNPARSED):
            found += text_results(name, lines, problem, settings.regex_functions)
    return name, with_noqa_lines(found, lines, text, settings.options.show_source)


def read_notebook(filename: str) -> notebook.Notebook:
    """The notebook at ``filename`` ('-': standard input).  Raises OSError, ``notebook.Unreadable``."""
    if filename == '-':
        return notebook.Notebook.read(stdin_bytes())
    with os.fdopen(os.open(filename, output.READ_FLAGS), 'rb') as f:
        return notebook.Notebook.read(f.read())


def notebook_results(filename: str, settings: config.Config) -> FileResults:
    """A notebook's results (``notebook``: its code cells checked as one module, each
    report at its cell and row); a file that is not a notebook gets one line (exit 2)."""
    name = (settings.options.stdin_display_name or 'stdin') if filename == '-' else filename
    try:
        book = read_notebook(filename)
    except OSError as error:
        return name, [('E902', 0, 0, f'{type(error).__name__}: {error}', None, 1, None)], ''
    except notebook.Unreadable as error:
        return name, [], f'{output.shown(name)}: cannot read: {error}'
    if not notebook.is_python(book):  # ruff too leaves out a notebook in another language
        output.say(f'{output.shown(name)}: skipped, a notebook in {book.language}, not Python', sys.stderr)
        return name, [], ''
    lines = book.masked
    rows = source.reportable_rows(lines) if any(settings.reports(code, name) for code in CODES) else []
    if not may_report(lines, rows):
        return name, [], ''
    text = ''.join(lines)
    if not settings.options.disable_noqa and api.file_ignored(text, lines):
        return name, [], ''
    found = cells_checked(book, name, text, settings, escapes=bool(rows))
    github = points_at_files(settings.formatter)
    results: list[Result] = []
    shown_source = settings.options.show_source
    for code, line, col, message, noqa_line, end in with_noqa_lines(found, lines, text, shown_source):
        cell, row = book.where(line)
        place = (cell, notebook.json_row(book, line) if github else 0)
        results.append((code, row, col, message, noqa_line, end, place))
    return name, results, ''


def cells_checked(book: notebook.Notebook, name: str, text: str, settings: config.Config,
                  escapes: bool) -> list[tuple[str, int, int, str]]:
    """The reports of a notebook's module, at module rows (``api.cells_checked``: the engine's
    reading of a notebook whose module does not parse), with an E999 for each code cell that
    does not parse alone, or for the module, and a line on standard error for each that says
    what was checked there."""
    checked = api.cells_checked(book, settings.regex_functions, escapes=escapes)
    found = _formatted(checked.reports, book.masked if checked.problem else None)
    if checked.problem is None:
        return found
    if not checked.failing:  # no cell fails alone, yet the whole does not parse
        if checked.whole is not None:
            _say_unparsed(name, checked.problem, checked.whole.how)
        return [_problem(checked.problem), *found]
    for cell, error, how in checked.failing:
        code, row, col, message = _problem(error)
        found.append((code, row + cell.first - 1, col, message))
        if escapes:
            _say_unparsed(f'{name}:cell {cell.number}', error, how)
    return found


def text_results(
    name: str, lines: list[str], error: SyntaxError | UnicodeDecodeError | RecursionError | MemoryError,
    regex_functions: tuple[apis.Api, ...],
) -> list[tuple[str, int, int, str]]:
    """The reports of a file that does not parse (ESC304 above all: an escape
    CPython refuses): every check's, where the escapes CPython refuses are
    all that keeps it from parsing (``api.refused_checked``, issue 39); else
    those its literals' text alone gives (``checks.text_reports``), from its
    literals lexed without the AST (``source.unparsed_literals``): ``api.unparsed_checked``.
    One line on standard error says so, and which checks were skipped.  (3.12+ raise
    UnicodeDecodeError, not SyntaxError, for a refused escape in an f-string's
    format spec.)"""
    text = api.unparsed_checked(lines, regex_functions)
    _say_unparsed(name, error, text.how)
    return _formatted(text.reports, lines)


def _say_unparsed(name: str, error: BaseException, how: str) -> None:
    """The line on standard error that says how a file or cell that does not parse was checked."""
    where = f' at line {error.lineno}' if isinstance(error, SyntaxError) and error.lineno else ''
    said = f'{output.shown(name)}: does not parse ({type(error).__name__}{where})'
    if how == api.EVERY_CHECK:
        output.say(f'{said}: only its escapes CPython refuses ({REFUSED}); every check ran', sys.stderr)
    elif how == api.UNREAD:
        output.say(f'{said}: not checked, its literals cannot be read', sys.stderr)
    else:
        output.say(f'{said}: checked {checks.TEXT_CHECKS} on its literals; '
                   f'skipped {checks.AST_CHECKS}, which need the AST', sys.stderr)


def _formatted(reports: list[rules.Report],
               lines: list[str] | None = None) -> list[tuple[str, int, int, str]]:
    """(code, line, col, message) of each report; of a text that does not parse (``lines``), none
    at a backslash before a NUL: no escape anyone wrote, CPython refuses the NUL first (the E999),
    and a UTF-16 file read as latin-1 has one after each backslash (issue 40's attacks)."""
    return [(report.code, report.line, report.col, report.rule.message.format(**report.fields))
            for report in reports
            if lines is None or lines[report.line - 1][report.col + 1:report.col + 2] != '\0']


def may_report(lines: list[str], rows: list[int]) -> bool:
    """May a file with these ``reportable_rows`` get a report?  Not when it has
    none, nor when its literals there, lexed without the AST, hold no escape
    a check looks at (``checks.may_report``): it is not parsed, so it gets
    no E999 or E902 either (issue 32: plain ``check`` as fast as ``--select ESC``)."""
    return api.may_report(lines, rows)


def with_noqa_lines(found: list[tuple[str, int, int, str]], lines: list[str], text: str,
                    show_source: bool) -> list[Found]:
    """Each report with the line(s) flake8 searches for its ``# noqa`` and shows with
    ``--show-source`` (``noqa_lines``); where neither can matter (no ``noqa`` in the file,
    no source shown), the report's own row, without tokenizing the file.  Then the end of
    its escape (``escape_end``)."""
    if found and (show_source or 'noqa' in text.lower()):
        noqa = noqa_lines(lines)
        return [(*item, noqa.get(item[1]), escape_end(lines, *item)) for item in found]
    return [(*item, lines[item[1] - 1] if 0 < item[1] <= len(lines) else None, escape_end(lines, *item))
            for item in found]


def escape_end(lines: list[str], code: str, line: int, col: int, text: str = '') -> int:
    """The 0-based column past the last character of the escape whose backslash a report is
    at, the same way for every code: the escape the grammar reads there (``escapes``: a str
    literal's, but a bytes literal's for ESC302, the one code about bytes whose escape differs:
    ``\\u`` and not ``\\u00e9``); one character where there is no backslash (E999, E902).  An
    escape never runs past its row (a line break ends it)."""
    row = lines[line - 1] if 0 < line <= len(lines) else ''
    if not row.startswith('\\', col):
        return col + 1
    match = escapes.ESCAPE_PATTERNS[code == 'ESC302'].match(row, col)
    # the row's end before its line break, found in constant time (a long row has many reports)
    last = len(row) - (2 if row.endswith('\r\n') else 1 if row.endswith(('\n', '\r')) else 0)
    return last if match is None else min(match.end(), last)


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


def configured(args: argparse.Namespace, argv: list[str]) -> config.Config:
    """The run's configuration, with the formatter ``--format`` names: ours (``FORMATTERS``), or
    else flake8's ``--format``: one of flake8's formatters, a plugin's, or a format string
    (``%(path)s:%(row)d: ...``); another name is refused, with the names known, and so is a
    config file's ``format`` (flake8's only: flake8 reads the file too, and would print an
    unknown name as each report's line)."""
    ours = FORMATTERS.get(args.format or '')
    if args.format and not ours:
        argv.insert(0, f'--format={args.format}')
    settings = config.Config(argv, ours, args.output_file)
    form = args.format or settings.options.format
    where = '--format' if args.format else "the configuration's format"
    if not ours and form not in settings.reporters and '%(' not in form:
        known = [*sorted(settings.reporters), *(FORMATTERS if args.format else ())]
        also = '' if args.format else f"; {', '.join(FORMATTERS)}: with --format only"
        raise config.Unusable(f"{where}: unknown format {form!r} (known: {', '.join(known)}, or a "
                              f"flake8 format string such as '%(path)s:%(row)d: %(code)s %(text)s'{also})")
    if isinstance(settings.formatter, SimpleFormatter):
        format_refused(settings.formatter, where)
    return settings


def format_refused(formatter: SimpleFormatter, where: str) -> None:
    """Refuse a format string flake8 would fail on at each report (``%(colum)d``, ``%(row)d %``,
    ``%(path)d``: flake8 prints a traceback then, at the first report only): tried once on a
    report before any file is read, so that a run with no report fails too (``Unusable``)."""
    sample = Violation('ESC301', 'a.py', 1, 1, 'message', None)
    try:
        formatter.format(sample)
    except KeyError as error:
        why = f'unknown key {error.args[0]!r} (known: path, row, col, code, text)'
    except (ValueError, TypeError) as error:
        why = str(error)
    else:
        return
    raise config.Unusable(f'{where} {formatter.error_format!r}: {why}')


def selection_note(settings: config.Config, codes: tuple[str, ...], args: argparse.Namespace) -> str | None:
    """One line when the configuration reports none of ``codes`` (as flake8 would not): it ignores
    them all (``IGNORED_ALL``), or a config file's ``select`` names none (``select = F``, ``select =``
    left empty: ``NOT_SELECTED``); a run that prints nothing then says why.  Not a ``--select``
    given on the command line: that is what the user asked for."""
    if settings.ignores_all(codes):
        return IGNORED_ALL
    decider = settings.guide.default_style_guide.decider
    if (getattr(args, config.PASSED_ON + 'select', None) is not None
            or any(decider.decision_for(code) is Decision.Selected for code in codes)):
        return None
    return NOT_SELECTED.format(','.join(settings.options.select or ()))


def files_to_read(settings: config.Config, paths: list[str]) -> tuple[list[str], bool]:
    """(the files to check, was a path given missing?): the walk (``config.walk``), without a
    path named that is not a regular file (said on standard error)."""
    files = []
    named = set(settings.options.filenames)  # the walk yields regular files only: test the names given
    walked, missing = config.walk(settings, paths)
    for name in walked:
        if name not in named or regular(name):
            files.append(name)
        else:
            output.say(f'{output.shown(name)}: skipped, not a regular file', sys.stderr)
    return files, missing


def run(args: argparse.Namespace) -> int:
    global _settings, _stdin
    _stdin = None  # read again by a second run in the same process
    argv = config.flake8_argv(args, args.paths)
    settings = _settings = configured(args, argv)
    note = selection_note(settings, CODES, args)
    if note:
        output.say(note, sys.stderr)
    files, missing = files_to_read(settings, args.paths or ['.'])
    jobs = job_count(settings, files)
    gc.freeze()  # the modules and the configuration, never garbage: not scanned again (inherited by fork)
    if jobs > 1:
        with multiprocessing.Pool(jobs, _init, (argv,)) as pool:
            results = list(pool.imap_unordered(
                file_results, files, chunksize=max(1, len(files) // (jobs * 16))))
            pool.close()  # the workers leave when the tasks are done: no SIGTERM to stop them
            pool.join()  # (the pool's own end sends one only after an error or Ctrl-C)
    else:
        results = [file_results(name) for name in files]
    gc.unfreeze()  # back to the collector, for a caller in the same process (a test)
    results.sort(key=operator.itemgetter(0))
    unreadable = [said for _, _, said in results if said]
    for said in unreadable:  # a notebook that is not one, an error of ours: said, and the run exits 2
        output.say(said, sys.stderr)
    try:
        shown = report(settings, results)
    except BrokenPipeError:  # check ... | head: the reader has what it wanted
        output.closed(sys.stdout)
        shown = report(settings, results)  # again, into the null device: the count for the exit status
    if settings.options.count:
        output.say(str(shown), aside(settings.formatter))
    if missing or unreadable:  # a path given that does not exist (said by the walk), a notebook not
        return 2  # read: a typo must fail, even --exit-zero
    return 0 if settings.options.exit_zero else int(shown > 0)


def show_statistics(formatter: BaseFormatter, statistics: Statistics) -> None:
    """flake8's ``--statistics`` lines, each code with its count and its rule's name (``NAMES``,
    as ruff's statistics name the rule), not flake8's message of the code's first report (which
    named one escape for all: "4 ESC501 ... is a tab" where two were newlines).  A formatter
    with statistics of its own (a plugin's) prints them its way."""
    if type(formatter).show_statistics is not BaseFormatter.show_statistics:
        formatter.show_statistics(statistics)
        return
    for code in statistics.error_codes():
        count = sum(stat.count for stat in statistics.statistics_for(code))
        line = f'{count:<5} {code} {NAMES.get(code, "")}'.rstrip()
        if isinstance(formatter, DOCUMENTS):
            output.say(line, aside(formatter))
        else:
            formatter._write(line)


def report(settings: config.Config, results: list[FileResults]) -> int:
    """Hand the results to flake8's style guide and formatter: the number of
    reports shown.  A name that is not valid UTF-8 is matched as it is and
    printed with its bytes escaped (flake8's formatter would fail on it)."""
    shown = 0
    settings.formatter.start()
    formatter = settings.formatter
    foreign = points_at_files(formatter) and not isinstance(formatter, Ranged)
    for name, found, _ in results:
        found.sort(key=lambda item: (item[6] or (0, 0))[0:1] + item[1:3])  # by cell, row, column
        guide = settings.guide.style_guide_for(name)
        printed = output.shown(name)
        with settings.guide.processing_file(name):
            for code, line, col, text, noqa_line, end, place in found:
                if isinstance(formatter, Ranged):
                    formatter.end, formatter.path = end, printed
                    formatter.cell, formatter.json_row = place or (0, 0)
                # a notebook's report names its cell in the path, as ruff prints it: nb.ipynb:cell 3:2:14;
                # for a plugin's formatter that points at files, the notebook at its JSON line
                where = f'{printed}:cell {place[0]}' if place else printed
                if place and foreign:
                    where, text = printed, f'cell {place[0]}:{line}:{col + 1}: {text}'
                    line, col = place[1], 0
                shown += guide.handle_error(code, where, line, col, text, noqa_line)
    if settings.options.statistics:
        show_statistics(settings.formatter, settings.guide.stats)
    settings.formatter.stop()
    sys.stdout.flush()
    if hasattr(sys.stdout, 'buffer'):
        sys.stdout.buffer.flush()  # a closed pipe is found here, not at exit
    return shown
