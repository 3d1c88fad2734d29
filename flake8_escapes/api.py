"""The public Python API: lint a source text, plan the fixes of a source text.

One engine for every front end: ``flake8-escapes check`` (``checked``,
``text_reports``), ``fix`` (``fix_bytes``), the editor server and the pylsp
plugin (``lint``, ``fix``, ``fixes``, ``noqa_edit``) all call these, and these
call ``checks`` and the fixer (``fix``): no front end repeats another's logic.

Positions: lines count from 1; columns from 0, in code points of the line (the
characters of a Python ``str``, as ``tokenize`` and flake8 count them), never
in bytes or UTF-16 units; an editor converts them to its own unit.  Line ends
are read as the compiler reads them: ``\\r\\n``, a lone ``\\r`` and ``\\n``.
Documented in docs/api.md.

The fixer is imported by the first call that plans a fix: ``check`` and the
flake8 plugin's users never pay its import.
"""
from __future__ import annotations

import ast
import bisect
import contextlib
import io
import os
import tokenize
import warnings
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, NamedTuple, Sequence

from flake8.defaults import NOQA_INLINE_REGEXP

from flake8_escapes import apis, checks, chunks, collector_paused, config, invalid, notebook, rules, source
from flake8_escapes.noqa import (  # flake8's noqa, as the engine honours it
    file_ignored as file_ignored, inline_ignored as _inline_ignored, may_be_silenced as _may_be_silenced,
    noqa_lines as _noqa_lines, runs as _runs,
)

if TYPE_CHECKING:
    from flake8_escapes import fix as fixer
    from flake8_escapes.fix.files import Edit
    from flake8_escapes.fix.proof import LeftAlone

__all__ = [
    'SAFE', 'UNSAFE', 'CODES', 'Diagnostic', 'Edit', 'LeftAlone', 'Fix', 'Checked',
    'lint', 'fix', 'fixes', 'noqa_edit', 'noqa_edits', 'settings', 'checked', 'text_reports',
    'refused_checked', 'refusals', 'Refusals', 'fix_bytes', 'load_fixer',
    'parsed', 'fix_title', 'noqa_title', 'FIX_ALL_TITLE', 'excluded', 'is_python', 'Linter',
]

#: The codes whose fix keeps every value, and those whose fix changes a value to what was meant.
SAFE = tuple(rule.code for rule in rules.RULES if rule.fix == rules.SAFE)
SAFE_SET = frozenset(SAFE)
UNSAFE = tuple(rule.code for rule in rules.RULES if rule.fix == rules.UNSAFE)
CODES = tuple(rule.code for rule in rules.RULES)
#: Why a text is not checked or fixed as a whole (``Checked.error``).
PROBLEMS = (SyntaxError, tokenize.TokenError, SystemError, UnicodeDecodeError, RecursionError, MemoryError)
#: Those of a text CPython does not compile (the parser's RecursionError or MemoryError: nested too
#: deep, ``1+1+...`` 5,000 times): its literals' text still gives reports (``text_reports``).
UNPARSED = (SyntaxError, UnicodeDecodeError, RecursionError, MemoryError)
#: The exceptions the fixer raises for a text it cannot fix (it does not parse, ...), besides ``fix.Refused``.
UNFIXABLE = (SyntaxError, ValueError, UnicodeDecodeError, RecursionError, MemoryError)
#: The title of the action that makes every safe fix (``fix``), in every editor.
FIX_ALL_TITLE = 'Fix all safe escape problems'
#: What an unsafe fix changes, for its title: "Make raw (changes the value: ...)".
CHANGES = {
    'ESC304': '`{escape}` becomes a backslash and its letters, and the file compiles',
    'ESC305': 'the literal ends at its quote, with one backslash at its end, and the file compiles',
    'ESC401': '`{escape}` becomes a backreference',
    'ESC402': '`\\b` becomes a word boundary',
    'ESC501': '`{escape}` becomes a backslash in the path',
    'ESC601': "`{escape}` becomes the start of TeX's command",
    'ESC602': '`{escape}` reaches the doctest example as written',
}


def _fixer() -> Any:
    """The fixer (``flake8_escapes.fix``), imported when first needed."""
    from flake8_escapes import fix
    return fix


def load_fixer() -> None:
    """Import the fixer now, not at the first plan (an editor's server does it once its first
    diagnostics are out, so that the first quick fix asked does not wait for the import)."""
    _fixer()


def __getattr__(name: str) -> Any:
    """``api.Edit`` and ``api.LeftAlone``: the fixer's types, imported when first asked."""
    if name == 'Edit':
        from flake8_escapes.fix.files import Edit
        return Edit
    if name == 'LeftAlone':
        from flake8_escapes.fix.proof import LeftAlone
        return LeftAlone
    raise AttributeError(f'module {__name__!r} has no attribute {name!r}')


def fix_bytes(data: bytes, codes: set[str], regex_functions: tuple[apis.Api, ...] | None = None,
              ) -> fixer.BytesResult:
    """A file's bytes fixed (``flake8-escapes fix``): only the edited literals' bytes change.
    Raises as ``fix.fix_bytes`` does (``fix.Refused``, SyntaxError, UnicodeDecodeError)."""
    result: fixer.BytesResult = _fixer().fix_bytes(data, codes, regex_functions)
    return result


class Diagnostic(NamedTuple):
    """One report: the code, where its escape is (the backslash to just after its
    last character), the one-line message without the code, and its fix safety."""

    code: str
    line: int          # 1-based line of the backslash
    column: int        # 0-based column of the backslash, in code points of the line
    end_line: int      # the line of the escape's last character
    end_column: int    # just after the escape's last character (exclusive), code points
    message: str       # flake8's text without the code
    fix: str           # rules.SAFE ('safe') or rules.UNSAFE ('unsafe')
    escape: str        # the escape as written ('\\d', '\\1', '\\N{...}')


class Fix(NamedTuple):
    """The fixer's plan for a text: the fixed text, the edits that make it (in the
    coordinates of the text given, sorted, none overlapping), one code per escape
    fixed, the fixes its proofs refused and why, the codes left for ``unsafe``,
    and why the text was not fixed at all ('' when it was looked at)."""

    text: str
    edits: list[Edit]
    fixed: list[str]
    left_alone: list[LeftAlone]
    unsafe_left: list[str]
    refused: str = ''


class Checked(NamedTuple):
    """The reports of a text that parses, or why it does not (then no report)."""

    reports: list[rules.Report]
    error: Exception | None


def parsed(text: str) -> ast.Module:
    """``ast.parse``, with a NUL byte a SyntaxError on every Python: 3.11+ raises
    ``SyntaxError: source code string cannot contain null bytes`` (E999 at 1:1 in
    flake8), 3.10 a ValueError."""
    try:
        return ast.parse(text)
    except ValueError as error:
        raise SyntaxError(str(error)) from None


def checked(text: str, lines: list[str], regex_functions: Iterable[apis.Api],
            *, escapes: bool = True) -> Checked:
    """Every report of the checks on ``text`` (``lines``: its lines), or the
    error (``PROBLEMS``) that stopped them: it does not parse or tokenize.
    ``escapes=False``: parse only (no row can report; E999 is still found)."""
    return _checked(text, lines, regex_functions, escapes)[0]


def _checked(text: str, lines: list[str], regex_functions: Iterable[apis.Api],
             escapes: bool = True, parse: Callable[[str, list[str]], ast.Module] | None = None,
             tokens_for: Callable[[ast.Module, list[str]], list[tokenize.TokenInfo]] | None = None,
             scan_for: Callable[[list[tokenize.TokenInfo], list[str]], checks.Scan] | None = None,
             ) -> tuple[Checked, ast.Module | None]:
    """``checked``, and the text's AST when the checks ran on it (``parse``: how it is parsed,
    ``parsed`` by default; ``tokens_for``: how its tokens are read, ``source.tokens_for``;
    ``scan_for``: how they are scanned, ``checks.scan``).
    ``text`` is parsed, ``lines`` tokenized: they differ where ``refused_checked``
    masks the escapes the parser refuses, at the same lines and columns."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')  # the compiler's own escape warnings
            tree = parse(text, lines) if parse else parsed(text)
            tokens = (tokens_for or source.tokens_for)(tree, lines) if escapes else []
            scanned = scan_for(tokens, lines) if scan_for and tokens else None
            found = list(checks.all_reports(tree, tokens, lines, regex_functions, scanned=scanned)
                         ) if tokens else []
    except PROBLEMS as error:
        return Checked([], error), None
    return Checked(found, None), tree


def may_report(lines: list[str], rows: list[int]) -> bool:
    """May a text with these ``source.reportable_rows`` get a report?  Not when
    it has none, nor when its literals there, lexed without the AST, hold no
    escape a check looks at (``checks.may_report``; an escape CPython refuses
    is one), and no row may hold a backslash that escapes a path's closing quote
    (``checks.may_close_badly``: ESC305): then it need not be parsed."""
    if rows:
        lexed = source.lexed_literals(lines, rows)
        if lexed is None or checks.may_report(lexed, lines):
            return True
    return checks.may_close_badly(lines)


def text_reports(lines: list[str]) -> list[rules.Report] | None:
    """The reports of a text that does not parse that its literals' text alone
    gives (``checks.TEXT_CHECKS``: ESC304 and ESC305 above all), the literals
    read with each ESC305 backslash doubled (they end where meant) and the reports
    put back at their columns as written; None when its literals cannot be read."""
    closed = checks.closing_reports(lines)  # ESC305: literals that run on, ended where meant
    tokens = source.unparsed_literals(closed.mended)
    if tokens is None:
        return closed.reports or None
    found = checks.text_reports(tokens, closed.mended)
    return closed.reports + list(checks.unmended(found, closed)) if closed.reports else list(found)


def refused_checked(lines: list[str], regex_functions: Iterable[apis.Api]) -> Checked | None:
    """Every report of a text that does not parse only because of escapes
    CPython refuses (ESC304): each check runs on the real text's literals,
    with the AST of the text whose refused escapes are masked
    (``checks.refused_masked``: no line or column moved, no field or literal
    gained or lost), and ESC304 is reported at each (issue 39).  None where
    the masked text does not parse either (``text_reports`` then)."""
    masked = _masked(lines)
    if masked is None:
        return None
    (found, error), tree = _checked(''.join(masked.lines), lines, regex_functions)
    if error is not None:
        return None
    return Checked(sorted([*found, *masked.refused], key=lambda report: (report.line, report.col)), None)


def _masked(lines: list[str]) -> checks.Masked | None:
    """The text's lines with its refused escapes masked (``checks.refused_masked``); None
    where it has none, or its literals cannot be read."""
    tokens = source.unparsed_literals(lines)
    masked = None if tokens is None else checks.refused_masked(tokens, lines)
    return masked if masked is not None and masked.refused else None


#: How ``unparsed_checked`` read a text that does not parse.
EVERY_CHECK, TEXT_ONLY, UNREAD = 'every check', 'text only', 'unread'


class Unparsed(NamedTuple):
    """The reports of a text that does not parse (``unparsed_checked``), and how they were found."""

    reports: list[rules.Report]
    how: str  # EVERY_CHECK: only escapes CPython refuses keep it from parsing; TEXT_ONLY; UNREAD


def unparsed_checked(lines: list[str], regex_functions: Iterable[apis.Api]) -> Unparsed:
    """The reports of a text that does not parse: every check's where the escapes CPython refuses
    are all that keeps it from parsing (``refused_checked``), else those its literals' text gives
    (``text_reports``), else none (its literals cannot be read)."""
    whole = refused_checked(lines, regex_functions)
    if whole is not None:
        return Unparsed(whole.reports, EVERY_CHECK)
    reports = text_reports(lines)
    return Unparsed([], UNREAD) if reports is None else Unparsed(reports, TEXT_ONLY)


class Failing(NamedTuple):
    """A notebook's code cell that does not parse alone (``cells_checked``), and how it was read."""

    cell: notebook.Cell
    error: SyntaxError
    how: str  # EVERY_CHECK: the module was checked whole; else its own ``unparsed_checked``'s


class CellsChecked(NamedTuple):
    """A notebook's reports at module rows (``cells_checked``), and what kept its module from parsing."""

    reports: list[rules.Report]
    problem: Exception | None       # the module's error (None: it parsed)
    failing: list[Failing]          # the cells that do not parse alone
    whole: Unparsed | None          # no cell fails alone, yet the module does not: read by its text


def cells_checked(book: notebook.Notebook, regex_functions: Iterable[apis.Api],
                  escapes: bool = True) -> CellsChecked:
    """The reports of a notebook's module (``book.masked``), at module rows.  When it does not
    parse, the code cells that do not parse alone (the kernel compiles each cell alone) are found:
    where escapes CPython refuses are all that stops them, every check runs on the whole module
    (``refused_checked``); else the other cells are checked as one module without them, and each
    gets the reports its own text gives (``unparsed_checked``); where no cell fails alone, the
    module gets its text's.  ``check`` and the language server read a notebook so (issue 39)."""
    functions = tuple(regex_functions)
    (reports, problem), _ = _checked(''.join(book.masked), book.masked, functions, escapes)
    if problem is None:
        return CellsChecked(reports, None, [], None)
    failing = book.failing()
    whole = refused_checked(book.masked, functions) if escapes and failing else None
    if whole is not None:
        every = [Failing(cell, error, EVERY_CHECK) for cell, error in failing]
        return CellsChecked(whole.reports, problem, every, None)
    lines = book.without([cell for cell, _ in failing])
    (reports, still), _ = _checked(''.join(lines), lines, functions, escapes)
    if still is not None or not failing:
        text = unparsed_checked(book.masked, functions) if escapes and isinstance(problem, UNPARSED) else None
        return CellsChecked(text.reports if text else [], problem, [], text)
    cells = []
    for cell, error in failing:
        text = unparsed_checked(book.cell_lines(cell), functions) if escapes else Unparsed([], UNREAD)
        shift = cell.first - 1
        reports += [report._replace(line=report.line + shift, found=report.found._replace(
            line=report.found.line + shift)) for report in text.reports]
        cells.append(Failing(cell, error, text.how))
    return CellsChecked(sorted(reports, key=lambda report: (report.line, report.col)), problem, cells, None)


class Refusals(NamedTuple):
    """What keeps a text from parsing, as far as the escapes CPython refuses go (``refusals``)."""

    first: int                  # the line of its first refused escape (ESC304); 0 where it has none
    besides: SyntaxError | None  # the error it would still raise were they right; None if none


def refusals(lines: list[str]) -> Refusals:
    """Where a text that does not parse holds its first escape CPython refuses
    (ESC304), and the parser's error on the text with them masked
    (``checks.refused_masked``): the line that would still fail (a Python 2
    ``print "x"`` beside a ``'C:\\Users'``), None where they are all that keeps
    it from parsing (issue 39)."""
    masked = _masked(lines)
    if masked is None:
        return Refusals(0, None)
    first = min(report.line for report in masked.refused)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            parsed(''.join(masked.lines))
    except SyntaxError as error:
        return Refusals(first, error)
    except PROBLEMS:
        return Refusals(0, None)
    return Refusals(first, None)


def _lines(text: str) -> tuple[str, list[str]]:
    """The text with its line ends read as the compiler reads them (``\\r\\n`` and a lone ``\\r``
    as ``\\n``: universal newlines), and its lines."""
    lines = io.StringIO(text, newline=None).readlines()
    return ''.join(lines), lines


def lint(text: str, settings: config.Config | None = None, filename: str = 'stdin', *,
         prefilter: bool = True) -> list[Diagnostic]:
    """Every ESC report of ``text``, as ``flake8-escapes check`` gives it for a
    file named ``filename`` under ``settings`` (select, ignore, per-file-ignores,
    ``# noqa`` and escapes-regex-functions; None: every code, ``# noqa``
    honoured), sorted by place.  A text that does not parse gets the reports its
    literals' text gives (ESC304, ESC301-ESC303, ESC501 by its text).

    ``prefilter=False`` skips check's pre-filter (``may_report``), which spares
    the parse of a text that cannot report and only costs time on one that
    does: the reports are the same, it is quicker for a text likely to report
    (an editor's text whose last version did)."""
    return _lint(text, settings, filename, prefilter, None)


def _lint(text: str, settings: config.Config | None, filename: str, prefilter: bool,
          parse: Callable[[str, list[str]], ast.Module] | None = None,
          tokens_for: Callable[[ast.Module, list[str]], list[tokenize.TokenInfo]] | None = None,
          keep: Callable[[Linted], None] | None = None,
          scan_for: Callable[[list[tokenize.TokenInfo], list[str]], checks.Scan] | None = None,
          book: notebook.Notebook | None = None) -> list[Diagnostic]:
    text, lines = _lines(text)
    if '\\' not in text or (file_ignored(text, lines) and not _noqa_off(settings)):
        return []
    if prefilter and not may_report(lines, source.reportable_rows(lines)):  # check's fast path: not parsed
        return []
    functions = settings.regex_functions if settings else ()
    (reports, error), tree = _checked(text, lines, functions, parse=parse, tokens_for=tokens_for,
                                      scan_for=scan_for)
    if keep is not None and tree is not None:
        keep(Linted(text, lines, tree, reports, tuple(functions), {}))
    if isinstance(error, UNPARSED):  # check's reports of such a file
        reports = (cells_checked(book, functions) if book else unparsed_checked(lines, functions)).reports
    shown = _reported(settings, filename)
    reports = [report for report in reports if report.code in shown]
    silenced = 'noqa' in text.lower() and not _noqa_off(settings) and _may_be_silenced(reports, lines, tree)
    noqa = _noqa_lines(lines) if silenced else {}
    found = [_diagnostic(report) for report in reports if not _inline_ignored(report, noqa.get(report.line))]
    return sorted(found, key=lambda item: (item.line, item.column, item.code))


class Linted(NamedTuple):
    """What ``Linter.lint`` saw of the last text it checked that parsed: the text (its line ends
    read as the compiler reads them) and its lines, its AST, every report of the checks (before
    the settings' select and ignore and ``# noqa``) and the regex functions they were found with."""

    text: str
    lines: list[str]
    tree: ast.Module
    reports: list[rules.Report]
    functions: tuple[apis.Api, ...]
    runs: dict[str, list[tuple[int, int, list[ast.stmt]]]]  # its ``_runs``, made on first need

    def run_at(self, line: int) -> tuple[int, int, list[ast.stmt]] | None:
        """The run of top-level statements (``_runs``) that holds ``line``, if any."""
        runs = self.runs.get('')
        if runs is None:
            runs = self.runs[''] = _runs(self.tree, self.lines)  # two threads may both: the same
        index = bisect.bisect_right(runs, (line, len(self.lines) + 1)) - 1
        return runs[index] if index >= 0 and runs[index][1] >= line else None


class Linter:
    """``lint`` of one text again and again, as an editor's buffer changes: the same diagnostics,
    with the text's AST parsed again only where it changed (``chunks.Chunked``: from the chunks of
    top-level statements the last text had, the lines between the first and the last line changed
    parsed again), the tokens the checks read kept per chunk (``_tokens``), and the cyclic
    collector paused meanwhile.  The language server holds one per document."""

    def __init__(self, size: int = chunks.SIZE) -> None:
        self.chunks = chunks.Chunked(size)
        self.tokens: dict[tuple[int, tuple[str, ...]], list[tokenize.TokenInfo]] = {}
        self.scans: dict[tuple[int, tuple[str, ...]], checks.Scan] = {}
        self.read: tuple[list[tokenize.TokenInfo], list[tuple[int, tuple[str, ...]]]] | None = None
        self.scanned = 0  # the chunks ``_scan`` scanned for the last text (a measure)
        self.last: Linted | None = None  # replaced whole: read by another thread (``fixes``)
        self.local_plans = 0  # the plans ``fixes`` and ``fix_all`` made on statements alone (a measure)
        self.run_plans: dict[tuple[object, ...], RunPlan | None] = {}  # ``_local_fix_all``'s

    def lint(self, text: str, settings: config.Config | None = None, filename: str = 'stdin', *,
             prefilter: bool = True, book: notebook.Notebook | None = None) -> list[Diagnostic]:
        """``lint(text, settings, filename, prefilter=prefilter)``; ``book``: the notebook whose
        module ``text`` is (``notebook.Notebook.text``), read as ``check`` reads one when its
        module does not parse (``cells_checked``)."""
        self.last = None
        with collector_paused():
            return _lint(text, settings, filename, prefilter, self._parsed, self._tokens, self._keep,
                         self._scan, book)

    def _keep(self, linted: Linted) -> None:
        self.last = linted

    def fixes(self, text: str, diagnostics: Sequence[Diagnostic], settings: config.Config | None = None,
              filename: str = 'stdin') -> list[Fix]:
        """``fixes(text, diagnostics, settings, filename)``, the same plans; that of a safe
        diagnostic of the text last linted made on the top-level statement that holds it alone
        where that is sure to give the whole text's plan (``_local_fix``), else on the
        whole text."""
        planned = []
        for item in diagnostics:
            with collector_paused():
                local = _local_fix(self.last, text, item, settings)
            self.local_plans += local is not None
            planned.append(local if local is not None else fixes(text, [item], settings, filename)[0])
        return planned

    def fix_all(self, text: str, settings: config.Config | None = None, filename: str = 'stdin') -> Fix:
        """``fix(text, settings, filename)``, the same plan: ``local_fix_all``'s where it can be
        made so, else the whole text's."""
        local = self.local_fix_all(text, settings, filename)
        chosen = set(SAFE) & _reported(settings, filename)
        return local if local is not None else _planned(text, chosen, settings, None)

    def local_fix_all(self, text: str, settings: config.Config | None = None,
                      filename: str = 'stdin') -> Fix | None:
        """``fix(text, settings, filename)``'s plan made of the plans of the runs of top-level
        statements that hold a safe report, each planned on its lines alone and kept while it
        stands the same at the same place (``_local_fix_all``), where that is sure to give the
        whole text's plan; None where it is not."""
        chosen = SAFE_SET & _reported(settings, filename)
        with collector_paused():
            local = _local_fix_all(self.last, text, chosen, settings, self.run_plans)
        self.local_plans += local is not None
        return local

    def _tokens(self, tree: ast.Module, lines: list[str]) -> list[tokenize.TokenInfo]:
        """``source.tokens_for(tree, lines)``, read chunk by chunk (each chunk's statements, on
        the text with every other line blank): a chunk's tokens are kept while it stands the same
        at the same place.  The whole text's where the AST did not come from the chunks, or where
        a chunk's tokens reach past its lines (a statement that did not tokenize alone: the file's
        tokens)."""
        made = self.chunks.chunks
        kept: dict[tuple[int, tuple[str, ...]], list[tokenize.TokenInfo]] = {}
        found: list[tokenize.TokenInfo] = []
        self.read = None
        if made and sum(len(chunk.body) for chunk in made) == len(tree.body):
            for chunk in made:
                key = (chunk.first, chunk.lines)
                tokens = self.tokens.get(key)
                if tokens is None:
                    blank = [*(['\n'] * chunk.first), *chunk.lines, *(['\n'] * (len(lines) - chunk.end))]
                    tokens = source.tokens_for(ast.Module(body=chunk.body, type_ignores=[]), blank)
                    if not all(chunk.first < token.start[0] <= token.end[0] <= chunk.end for token in tokens):
                        break
                kept[key] = tokens
                found.extend(tokens)
            else:
                self.tokens = kept
                self.read = (found, list(kept))
                return found
        self.tokens = {}
        return source.tokens_for(tree, lines)

    def _scan(self, tokens: list[tokenize.TokenInfo], lines: list[str]) -> checks.Scan:
        """``checks.scan(tokens, lines)``, made of each chunk's scan (``checks.merged``) where
        ``tokens`` are those ``_tokens`` just read chunk by chunk: a chunk's scan is kept while it
        stands the same at the same place (its escapes and verdicts read only its own lines)."""
        read, self.read = self.read, None
        if read is None or read[0] is not tokens:
            self.scans, self.scanned = {}, 0
            return checks.scan(tokens, lines)
        kept = {}
        self.scanned = 0
        for key in read[1]:
            part = self.scans.get(key)
            if part is None:
                part = checks.scan(self.tokens[key], lines)
                part = part._replace(compiler=list(invalid.reports(part.found)))  # kept with it
                self.scanned += 1
            kept[key] = part
        self.scans = kept
        return checks.merged(list(kept.values()), tokens, lines)

    def _parsed(self, text: str, lines: list[str]) -> ast.Module:
        """``parsed(text)``, from the chunks."""
        try:
            return self.chunks.parse(text, lines)
        except ValueError as error:  # a NUL byte, on 3.10 (``parsed``)
            raise SyntaxError(str(error)) from None


def _local_fix(last: Linted | None, text: str, item: Diagnostic,
               settings: config.Config | None) -> Fix | None:
    """The plan of ``item``'s fix made on the lines of the top-level statements that hold it
    (``_runs``: those that share a line merged) parsed alone, at their line 1, when ``last`` is
    what the checks saw of ``text``, and it is sure to be the whole text's plan; None if not sure.

    The fixer's plan of one safe escape reads the reports of its literal, the tokens and the AST of
    its statement, and proves that the module's AST does not change and still parses: the whole
    text's AST is its statements', so where the statement's lines alone parse to the same
    statements (positions included, shifted) and give the same reports as in the whole text,
    planned on them alone the edits are the same.  Not sure, so None: a diagnostic of an unsafe
    code, or a statement that holds one (the regex proof reads names, and a safe fix is checked
    not to hide an unsafe report: the whole text's reports again); a fix that would be left alone
    or refused (the whole text says why); a text that ``# flake8: noqa`` silences, or whose
    ``# noqa`` may silence one of the reports an unsafe fix would change (``Fix.unsafe_left``).
    """
    functions = tuple(settings.regex_functions) if settings else ()
    if last is None or item.fix != rules.SAFE or functions != last.functions:
        return None
    if _normalized(text) != last.text:
        return None
    run = _local_run(last, item)
    if run is None:
        return None
    lines = _alone(last, run, functions)
    if lines is None:
        return None
    shift = run[0] - 1
    unsafe = sorted(report.code for report in last.reports if report.code in UNSAFE)
    at = (shift, sum(map(len, last.lines[:shift])))
    return _planned_alone(text, ''.join(lines), item, functions, at, unsafe)


class RunPlan(NamedTuple):
    """The safe fixes of a run of top-level statements planned on its lines alone (``_run_plan``):
    its fixed lines' text, its edits (in the whole text's lines), the codes fixed."""

    text: str
    edits: list[Edit]
    fixed: list[str]


def _local_fix_all(last: Linted | None, text: str, chosen: frozenset[str], settings: config.Config | None,
                   kept: dict[tuple[object, ...], RunPlan | None]) -> Fix | None:
    """Fix-all's plan of ``text`` (the safe ``chosen`` codes) made of its runs' plans
    (``_run_plan``), when ``last`` is what the checks saw of it and each is sure to be what the
    whole text's plan does there; None if not sure (``_local_fix``'s conditions, for every run
    that holds a report).  ``kept``: the runs' plans, kept by place and lines across texts."""
    functions = tuple(settings.regex_functions) if settings else ()
    if last is None or functions != last.functions or _normalized(text) != last.text:
        return None
    if file_ignored(last.text, last.lines) or any(report.code not in SAFE_SET for report in last.reports):
        return None  # an unsafe report: a safe fix is checked not to hide one, on the whole text
    rows = sorted({report.line for report in last.reports if report.code in chosen})
    if not rows:
        return Fix(text, [], [], [], [])
    plans: list[tuple[int, int, RunPlan]] = []
    made: dict[tuple[object, ...], RunPlan | None] = {}
    for row in rows:
        run = last.run_at(row)
        if run is None:
            return None
        if plans and plans[-1][0] == run[0]:
            continue
        first, end, statements = run
        key = (first, tuple(last.lines[first - 1:end]), tuple(sorted(chosen)), functions)
        plan = kept[key] if key in kept else _run_plan(last, run, chosen, functions)
        made[key] = plan
        if plan is None:
            kept.clear()
            kept.update(made)
            return None
        plans.append((first, end, plan))
    kept.clear()
    kept.update(made)
    return _joined(text, last, plans)


def _run_plan(last: Linted, run: tuple[int, int, list[ast.stmt]], chosen: frozenset[str],
              functions: tuple[apis.Api, ...]) -> RunPlan | None:
    """The safe fixes of ``run`` planned on its lines alone, at their line 1: None unless its
    lines alone parse to the same statements (positions shifted) and give the same reports as in
    the whole text, and the fixer made one round of edits there with nothing left alone."""
    lines = _alone(last, run, functions)
    if lines is None:
        return None
    shift, alone = run[0] - 1, ''.join(lines)
    fixer = _fixer()
    try:
        result = fixer.fix_text(alone, chosen, functions)
    except (*UNFIXABLE, fixer.Refused, tokenize.TokenError):
        return None
    if result.left_alone or result.unsafe_left or len(result.rounds) > 1:
        return None
    made = result.rounds[0] if result.rounds else []
    edits = sorted(edit._replace(line=edit.line + shift) for edit in made)
    return RunPlan(result.text, edits, list(result.fixed))


def _joined(text: str, last: Linted, plans: list[tuple[int, int, RunPlan]]) -> Fix:
    """The whole text's plan made of its runs' (``_local_fix_all``), in order."""
    from flake8_escapes.fix.files import apply
    edits = [edit for _, _, plan in plans for edit in plan.edits]
    fixed = sorted(code for _, _, plan in plans for code in plan.fixed)  # as the fixer gives them
    if '\r' in text:
        return Fix(apply(text, edits), edits, fixed, [], [])
    starts = [0]
    for line in last.lines:
        starts.append(starts[-1] + len(line))
    parts, at = [], 0
    for first, end, plan in plans:
        parts += [text[at:starts[first - 1]], plan.text]
        at = starts[end]
    parts.append(text[at:])
    return Fix(''.join(parts), edits, fixed, [], [])


def _alone(last: Linted, run: tuple[int, int, list[ast.stmt]], functions: tuple[apis.Api, ...]
           ) -> list[str] | None:
    """The lines of ``run`` where, parsed alone at their line 1, they give the same statements
    (positions shifted) and the same reports as in the whole text ``last``: the fixer's plan on
    them is then the whole text's there; None where they do not."""
    first, end, statements = run
    shift = first - 1
    lines = last.lines[shift:end]
    (found, error), tree = _checked(''.join(lines), lines, functions)
    inside = [report for report in last.reports if first <= report.line <= end]
    if tree is None or _seen(found, shift) != _seen(inside, 0):
        return None
    ast.increment_lineno(tree, shift)
    if [ast.dump(node, include_attributes=True) for node in tree.body] != \
            [ast.dump(node, include_attributes=True) for node in statements]:
        return None
    return lines


def _local_run(last: Linted, item: Diagnostic) -> tuple[int, int, list[ast.stmt]] | None:
    """The run of top-level statements that holds ``item`` (``Linted.run_at``), where nothing
    outside it may decide ``item``'s plan (``_local_fix``); None if something may."""
    run = last.run_at(item.line)
    if run is None or file_ignored(last.text, last.lines):
        return None
    if any(report.code not in SAFE for report in last.reports if run[0] <= report.line <= run[1]):
        return None
    unsafe = [report for report in last.reports if report.code in UNSAFE]
    if 'noqa' in last.text.lower() and _may_be_silenced(unsafe, last.lines, last.tree):
        return None
    return run


def _seen(reports: list[rules.Report], shift: int) -> list[tuple[object, ...]]:
    """What the fixer reads of each report, ``shift`` lines down."""
    return sorted((report.line + shift, report.col, report.code, report.found.escape.text,
                   report.found.piece.text, repr(report.fields)) for report in reports)


def _planned_alone(text: str, alone: str, item: Diagnostic, functions: Iterable[apis.Api],
                   at: tuple[int, int], unsafe: list[str]) -> Fix | None:
    """``item``'s plan on ``alone`` (its statements' lines, ``at``: ``shift`` lines up, and the
    offset of its first line in ``text``), as ``_planned`` would give it on ``text``: None where
    the fixer did not make exactly one round of edits with nothing left alone."""
    from flake8_escapes.fix.files import apply
    fixer = _fixer()
    shift, start = at
    try:
        result = fixer.fix_text(alone, {item.code}, tuple(functions),
                                frozenset({(item.line - shift, item.column)}))
    except (*UNFIXABLE, fixer.Refused, tokenize.TokenError):
        return None
    if result.left_alone or len(result.rounds) != 1 or not result.rounds[0]:
        return None
    edits = sorted(edit._replace(line=edit.line + shift) for edit in result.rounds[0])
    if '\r' in text:
        fixed = apply(text, edits)
    else:  # the lines before and after as they are: no pass over the whole text's line ends
        fixed = text[:start] + result.text + text[start + len(alone):]
    return Fix(fixed, edits, sorted(result.fixed), [], unsafe)


def _normalized(text: str) -> str:
    """``text`` with its line ends read as the compiler reads them (``_lines``)."""
    return text.replace('\r\n', '\n').replace('\r', '\n') if '\r' in text else text


def excluded(settings: config.Config | None, filename: str) -> bool:
    """Does the project leave the file ``filename`` out: would ``flake8``, run in the folder of
    ``settings`` (``settings``), not read it (``exclude``, ``extend-exclude``, a ``filename``
    the configuration names: ``config.Config.skips``)?  An editor's front end gives such a file
    no diagnostics and no fix.  False without settings or a file name."""
    return bool(settings and filename not in ('stdin', '-', '') and settings.skips(filename))


#: The language identifier of a Python document, and the file name endings of one.
PYTHON_LANGUAGE, PYTHON_ENDINGS = 'python', ('.py', '.pyi')


def is_python(language: str | None, filename: str) -> bool:
    """Is a document of this language identifier (an editor's, LSP's ``languageId``) and
    ``filename`` Python, to be checked and fixed?  Its language says so, or else its name
    ends with ``.py`` or ``.pyi`` (a TOML file, a README are not, whatever their escapes)."""
    return language == PYTHON_LANGUAGE or filename.lower().endswith(PYTHON_ENDINGS)


def _noqa_off(settings: config.Config | None) -> bool:
    return bool(settings and getattr(settings.options, 'disable_noqa', False))


def _reported(settings: config.Config | None, filename: str) -> set[str]:
    return settings.reported(CODES, filename) if settings else set(CODES)


def _diagnostic(report: rules.Report) -> Diagnostic:
    escape = report.found.escape.text  # on one line: a reported escape holds no line end
    return Diagnostic(report.code, report.line, report.col, report.line, report.col + len(escape),
                      report.rule.message.format(**report.fields), report.rule.fix, escape)


def fix(text: str, settings: config.Config | None = None, filename: str = 'stdin', *,
        unsafe: bool = False, codes: Iterable[str] | None = None) -> Fix:
    """The fixer's plan for the whole text: the safe fixes (``unsafe``: all of
    them; ``codes``: those codes only) of the reports ``lint`` gives, under the
    fixer's proofs, as ``flake8-escapes fix`` makes them."""
    wanted = set(codes) if codes is not None else set(SAFE + UNSAFE if unsafe else SAFE)
    chosen = wanted & _reported(settings, filename)
    return _planned(text, chosen, settings, None)


def fixes(text: str, diagnostics: Sequence[Diagnostic], settings: config.Config | None = None,
          filename: str = 'stdin') -> list[Fix]:
    """The fixer's plan for each diagnostic alone (its escape, its code: safe
    or unsafe as the diagnostic's ``fix`` says), in the order given.  An ESC304
    fix makes every refused escape of the text right: the text must parse
    before any other fix is proved."""
    return [_planned(text, {item.code}, settings, frozenset({(item.line, item.column)}))
            for item in diagnostics]


def _planned(text: str, codes: set[str], settings: config.Config | None,
             at: frozenset[tuple[int, int]] | None) -> Fix:
    functions = settings.regex_functions if settings else ()
    fixer = _fixer()
    try:
        result = fixer.fix_text(text, codes, functions, at)
    except (*UNFIXABLE, fixer.Refused) as error:
        return Fix(text, [], [], [], [], _refusal(text, error, 'ESC304' in codes))
    return Fix(result.text, _edits(text, result.text, result.rounds), result.fixed, result.left_alone,
               result.unsafe_left)


def _refusal(text: str, error: BaseException, repairing: bool) -> str:
    """Why the fixer left ``text`` alone; where it does not parse because of escapes
    CPython refuses, the line that would still fail without them; or else where the
    first is: the fix of ESC304 comes first, or (``repairing``: it was tried) would
    not make the text parse (issue 39)."""
    if not isinstance(error, (SyntaxError, UnicodeDecodeError)):
        return _why(error)
    first, besides = refusals(_lines(text)[1])
    if besides is not None:
        return _why(besides)
    if first and repairing:
        return f'does not parse, and the fix of its ESC304 escapes would not make it parse (line {first})'
    if first:
        return f'does not parse until its ESC304 escapes are fixed (the first at line {first})'
    return _why(error)


def _why(error: BaseException) -> str:
    if isinstance(error, SyntaxError):
        where = f' (line {error.lineno})' if error.lineno else ''
        return f'does not parse: {error.msg or error}{where}'
    if isinstance(error, (RecursionError, MemoryError)):
        return 'nested too deeply for this Python to check'
    return f'{type(error).__name__}: {error}'


def _edits(before: str, after: str, rounds: list[list[Edit]]) -> list[Edit]:
    """The edits from ``before`` to ``after``: the fixer's own when one round
    made them; else, per line changed, its changed span (an edit never adds or
    removes a line end, so the lines of ``before`` and ``after`` match)."""
    if len(rounds) == 1:
        return sorted(rounds[0])
    if not rounds:
        return []
    old, new = _lines(before)[1], _lines(after)[1]
    return list(_line_edits(old, new))


def _line_edits(old: list[str], new: list[str]) -> Iterator[Edit]:
    from flake8_escapes.fix.files import Edit
    for number, (was, now) in enumerate(zip(old, new), 1):
        if was == now:
            continue
        start, end = notebook.changed_span(was, now)
        yield Edit(number, start, len(was) - end - start, now[start:len(now) - end])


def fix_title(diagnostic: Diagnostic, edits: Sequence[Edit]) -> str:
    """The title of ``diagnostic``'s quick fix made of ``edits`` (its plan from
    ``fixes``), the same in every editor: what the edits do ("Make raw",
    "Double the backslash", "Write `\\u01ff`": the new text as written; "Fix
    ESC301" without edits), then "(same value)" for a safe fix, or what an
    unsafe one changes: "Make raw (changes the value: `\\1` becomes a
    backreference)"."""
    if edits and all(edit.length == 0 and edit.text.strip() == 'r' for edit in edits):
        what = 'Make raw'
    elif edits and all(edit.length == 0 and edit.text == '\\' for edit in edits):
        what = 'Double the backslash' + ('es' if len(edits) > 1 else '')
    elif len(edits) == 1:
        what = f'Write `{edits[0].text}`'  # as written (a repr would double its backslash)
    else:
        what = f'Fix {diagnostic.code}'
    if diagnostic.fix == rules.UNSAFE:
        return f'{what} (changes the value: {CHANGES[diagnostic.code].format(escape=diagnostic.escape)})'
    return f'{what} (same value)'


def noqa_title(diagnostic: Diagnostic) -> str:
    """The title of the action that adds ``diagnostic``'s code to its line's ``# noqa`` (``noqa_edit``)."""
    return f'Ignore {diagnostic.code} on this line'


def noqa_edit(text: str, diagnostic: Diagnostic) -> Edit | None:
    """The edit that silences ``diagnostic`` as flake8 reads ``# noqa``: its code
    added to the first ``# noqa: CODES`` comment of the lines flake8 searches
    for it (its logical line, a multi-line string's included), or
    ``  # noqa: CODE`` at the end of their last line; None where the text does
    not tokenize (flake8 would find no ``# noqa``)."""
    return noqa_edits(text, [diagnostic])[0]


def noqa_edits(text: str, diagnostics: Sequence[Diagnostic]) -> list[Edit | None]:
    """``noqa_edit`` of each diagnostic, in the order given, the text tokenized
    once for them all (an editor asks for the actions of several at a time)."""
    text, lines = _lines(text)
    mapping = _noqa_lines(lines) if diagnostics else {}
    return [_noqa_edit(lines, mapping, item) for item in diagnostics]


def _noqa_edit(lines: list[str], mapping: dict[int, str], diagnostic: Diagnostic) -> Edit | None:
    from flake8_escapes.fix.files import Edit
    joined = mapping.get(diagnostic.line)
    if joined is None:
        return None
    first = last = diagnostic.line
    while mapping.get(first - 1) is joined:  # the lines of one logical line share one text
        first -= 1
    while mapping.get(last + 1) is joined:
        last += 1
    for number in range(first, last + 1):
        match = NOQA_INLINE_REGEXP.search(lines[number - 1])
        if match is None:
            continue
        listed = match.group('codes')
        if not listed:
            return None  # a bare '# noqa' silences every code already
        return Edit(number, match.start('codes') + len(listed.rstrip(', \t\r\n')), 0, f',{diagnostic.code}')
    body = lines[last - 1].rstrip('\r\n')
    code = body.rstrip()
    return Edit(last, len(code), len(body) - len(code), f'  # noqa: {diagnostic.code}')


def settings(folder: str, argv: Sequence[str] = ()) -> config.Config:
    """The configuration flake8 would use run in ``folder``: its setup.cfg,
    tox.ini or .flake8 (found as flake8 finds it, from ``folder`` up), then
    ``argv``; per-file-ignores' patterns read from ``folder`` as flake8 reads
    them from the current folder.  Raises ``config.Unusable`` for a
    configuration flake8 refuses."""
    with _in_folder(folder):
        return config.Config([*argv, '--'])


@contextlib.contextmanager
def _in_folder(folder: str) -> Iterator[None]:
    here = os.getcwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(here)
