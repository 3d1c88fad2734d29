"""``flake8-escapes fix``: the files flake8 would check, each fixed by the fixer
(``fix.fix_bytes``) in worker processes with ``--jobs``, written atomically or shown as a diff.

Exit status (pre-commit's convention): 0 when nothing changed, 1 when files
were changed or ``--diff`` showed changes, 2 on bad usage or a file that
could not be read, fixed or written (the other files are still fixed).
"""
from __future__ import annotations

import argparse
import contextlib
import io
import multiprocessing
import os
import signal
import stat
import sys
import threading
import warnings
from collections import Counter
from typing import Iterator, NamedTuple

from flake8_escapes import api, apis, config, fix, notebook, output
from flake8_escapes.commands import check
from flake8_escapes.fix.diff import unified_diff

FIXABLE = fix.SAFE + fix.UNSAFE
shown, say = output.shown, output.say
#: The code of an escape CPython refuses (the file does not compile), and the
#: command whose fix (``fix.refused``) makes such a file compile: unsafe, and no other fix.
REFUSED = 'ESC304'
REPAIR = f'flake8-escapes fix --unsafe --select {REFUSED}'
#: ... and of a backslash that escapes a path's closing quote (``fix.closing``).
CLOSING = 'ESC305'


def _summary(codes: list[str]) -> str:
    counts = Counter(codes)
    return ', '.join(f'{code} x{n}' if n > 1 else code for code, n in sorted(counts.items()))


class Job(NamedTuple):
    """One file to fix, with what the main process decided for it."""
    path: str
    codes: frozenset[str]          # the codes to fix there (flake8 reports them there)
    unsafe_shown: frozenset[str]   # the unsafe codes flake8 reports there, for the count
    diff: bool
    regex_functions: tuple[apis.Api, ...]
    notebook: bool = False         # read as a notebook (``notebook``): its name ends with .ipynb
    name: str = ''                 # standard input's: --stdin-display-name ('stdin'), as check names it


class Fixed(NamedTuple):
    """What the fixer made of one file: the result (None: left alone), the exit status,
    the lines that say why or what was skipped, and for a notebook its cells (``where``)
    and each changed cell's number and source before and after (for ``--diff``)."""
    result: fix.BytesResult | None
    status: int
    said: list[str]
    book: notebook.Notebook | None = None
    cells: list[tuple[int, str, str]] = []


class Outcome(NamedTuple):
    """What fixing one file gave: the exit status, what to print, the reports left for --unsafe."""
    status: int
    printed: list[tuple[bool, str]]   # (on stderr, line)
    diff: bytes
    unsafe_left: list[str]


def read_bytes(path: str) -> tuple[bytes, fix.Snapshot | None] | None:
    """A file's bytes and its state as it was read (``fix.snapshot``, for the
    re-check before it is replaced; None for standard input); None for what is
    not a regular file (a FIFO, a device)."""
    if path == '-':
        return sys.stdin.buffer.read(), None
    # O_NONBLOCK: opening a FIFO must not wait for a writer; it is then skipped.
    try:
        fd = os.open(path, output.READ_FLAGS)
    except OSError:
        if os.path.exists(path) and not os.path.isfile(path):  # a socket cannot be opened (ENXIO)
            return None
        raise
    with os.fdopen(fd, 'rb') as f:
        if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
            return None
        data = f.read()
        return data, fix.snapshot(path, f.fileno())


def fixed_bytes(name: str, data: bytes, job: Job) -> tuple[fix.BytesResult | None, int, str]:
    """(result, status, the line saying why there is none) of fixing ``data``."""
    try:
        return api.fix_bytes(data, set(job.codes), job.regex_functions), 0, ''
    except fix.Refused as error:
        return None, 2, f'{name}: left alone: {error}'
    except UnicodeDecodeError as error:
        if error.encoding == 'unicodeescape':  # 3.12+: a refused escape in an f-string's format spec
            return (None, *_not_parsed(name, data, job, str(error), None))
        return None, 2, f'{name}: cannot read: {error}'
    except SyntaxError as error:
        message = str(error.msg or error)
        if message.startswith(('unknown encoding', 'invalid or missing encoding', 'encoding problem')):
            return None, 2, f'{name}: cannot read: {message}'
        return (None, *_not_parsed(name, data, job, message, error.lineno))
    except (RecursionError, MemoryError):  # the parser's, for a source nested too deep (issue 40)
        return None, 2, f'{name}: left alone: nested too deeply for this Python to check'
    except Exception as error:  # an error of ours: never stop the run: one line, exit 2
        return None, 2, output.internal_error(name, error)


def _not_parsed(name: str, data: bytes, job: Job, message: str, line: int | None) -> tuple[int, str]:
    """The exit status and the line for a file that does not parse: CPython's
    message, or, when the reason is an escape CPython refuses that ``REPAIR``
    would fix (tried here: the file then parses), where the first one is and
    that command.  A file that would still not parse were its refused escapes
    right names the line that still fails, not an escape (issue 39); when
    ``REPAIR`` was asked for, the file could not be fixed: status 2."""
    refused = _refused_lines(data, job)
    if refused:
        count = f' x{len(refused)}, first' if len(refused) > 1 else ''
        return 0, (f'{name}: skipped, does not parse ({REFUSED}{count} at line {refused[0]}): '
                   f'`{REPAIR}` can repair it')
    hint = _closing_hint(name, data, job)
    if hint:
        return 0, hint
    first, besides = _refusals(data)
    if besides is not None:
        where = f'line {besides.lineno}' if besides.lineno else 'it'
        why = besides.msg or besides
        said = f'does not parse: {where} fails even with its {REFUSED} escapes mended: {why}'
        if REFUSED in job.codes:
            return 2, f'{name}: left alone, {said}'
        return 0, f'{name}: skipped, {said}'
    if first and REFUSED in job.codes and REFUSED in job.unsafe_shown and _shown(data):  # tried: it failed
        return 2, (f'{name}: left alone, does not parse: its {REFUSED} fix would not make it parse '
                   f'(line {first}): {message}')
    where = f' (line {line})' if line else ''  # none for a NUL byte (3.11+)
    return 0, f'{name}: skipped, does not parse: {message}{where}'


def _refusals(data: bytes) -> api.Refusals:
    """Where ``data``'s first refused escape is, and the parser's error were they right (``api.refusals``)."""
    try:
        return api.refusals(io.StringIO(fix.read(data)[0], newline=None).readlines())
    except (SyntaxError, UnicodeDecodeError, LookupError):
        return api.Refusals(0, None)


def _shown(data: bytes) -> bool:
    """Is an escape CPython refuses in ``data`` reported, not under ``# noqa`` (which the fixer honours)?"""
    text = fix.read(data)[0]
    return 'noqa' not in text.lower() or any(item.code == REFUSED for item in api.lint(text))


def _refused_lines(data: bytes, job: Job) -> list[int]:
    """The lines of the escapes CPython refuses in ``data`` (its ESC304
    reports), when ``REPAIR`` fixes them and the file then compiles; [] when
    it would not (another syntax error, an escape under ``# noqa``, ESC304 not
    reported there by the configuration, or being fixed already)."""
    if REFUSED in job.codes or REFUSED not in job.unsafe_shown:
        return []
    try:
        repaired = fix.read(api.fix_bytes(data, {REFUSED}, job.regex_functions).data)[0]
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')  # the compiler's warnings about other escapes
            compile(repaired, '<repaired>', 'exec', dont_inherit=True)
        lines = io.StringIO(fix.read(data)[0], newline='').readlines()
        return sorted(report.line for report in api.text_reports(lines) or [] if report.code == REFUSED)
    except Exception:  # the repair does not reach a file that compiles: no hint
        return []


def fixed_notebook(name: str, data: bytes, job: Job) -> Fixed:
    """A notebook fixed as one module of its code cells (``notebook``), the fixed source
    lines written into its JSON text (every other byte kept); a cell that does not parse
    alone is left as it is (said), the others fixed without it.  The notebook written
    must read back as the module fixed, or it is left alone."""
    try:
        book = notebook.Notebook.read(data)
    except notebook.Unreadable as error:
        return Fixed(None, 2, [f'{name}: cannot read: {error}'])
    if not notebook.is_python(book):
        return Fixed(None, 0, [f'{name}: skipped, a notebook in {book.language}, not Python'])
    codes, said = set(job.codes), []
    base, skipped = book.masked, set()
    try:
        try:
            result = fix.fix_text(''.join(base), codes, job.regex_functions)
        except (SyntaxError, UnicodeDecodeError):
            failing = book.failing()
            base, skipped = book.without([cell for cell, _ in failing]), {cell.number for cell, _ in failing}
            said = [f'{name}:cell {cell.number}: skipped, does not parse: {error.msg} (line {error.lineno})'
                    for cell, error in failing]
            result = fix.fix_text(''.join(base), codes, job.regex_functions)
    except (SyntaxError, UnicodeDecodeError) as error:
        return Fixed(None, 0, [*said, f'{name}: skipped, does not parse: {error}'], book)
    except fix.Refused as error:
        return Fixed(None, 2, [f'{name}: left alone: {error}'], book)
    except RecursionError:
        return Fixed(None, 2, [f'{name}: left alone: nested too deeply for this Python to check'], book)
    raw = book.spliced(result.text, base)
    again = notebook.Notebook(raw)  # the notebook written must read back as the module fixed
    kept = again.without([cell for cell in again.cells if cell.number in skipped])
    if kept != notebook.line_list(result.text):
        return Fixed(None, 2, [f'{name}: left alone: the notebook written would not read as fixed'], book)
    cells = [(cell.number, before, after) for cell, before, after in book.changed_cells(result.text, base)]
    written = (book.bom + raw).encode('utf-8')
    out = fix.BytesResult(written, result.fixed, result.left_alone, result.unsafe_left)
    return Fixed(out, 0, said, book, cells)


def notebook_diff(path: str, cells: list[tuple[int, str, str]]) -> bytes:
    """``--diff`` of a notebook: each changed cell's source, named ``nb.ipynb:cell 3`` as ruff names it."""
    return b''.join(unified_diff(f'{path}:cell {number}', before.encode('utf-8'), after.encode('utf-8'))
                    for number, before, after in cells)


def fixed_source(name: str, data: bytes, job: Job) -> Fixed:
    """``fixed_bytes`` for a Python file, ``fixed_notebook`` for a notebook."""
    if job.notebook:
        return fixed_notebook(name, data, job)
    result, status, why = fixed_bytes(name, data, job)
    return Fixed(result, status, [why] if why else [])


def _closing_hint(name: str, data: bytes, job: Job) -> str | None:
    """The line for a file that does not parse because of backslashes that escape a
    path's closing quote (ESC305), when their fix makes it compile: where the first is
    and the command; None otherwise."""
    closing, select = _closing_lines(data, job)
    if not closing:
        return None
    count = f' x{len(closing)}, first' if len(closing) > 1 else ''
    return (f'{name}: skipped, does not parse ({CLOSING}{count} at line {closing[0]}): '
            f'`flake8-escapes fix --unsafe --select {select}` can repair it')


def _closing_lines(data: bytes, job: Job) -> tuple[list[int], str]:
    """The lines of the backslashes that escape a path's closing quote in ``data`` (its
    ESC305 reports) and the codes to select, when their fix (with ESC304's, where the
    file needs it too) makes the file compile; [] where it would not, or where ESC305 is
    not reported there or is being fixed already."""
    if CLOSING in job.codes or CLOSING not in job.unsafe_shown:
        return [], ''
    lines = io.StringIO(fix.read(data)[0], newline='').readlines()
    found = sorted(report.line for report in api.text_reports(lines) or [] if report.code == CLOSING)
    if not found:
        return [], ''
    for codes in ([CLOSING], [REFUSED, CLOSING]):
        if not set(codes) <= job.unsafe_shown:
            continue
        try:
            repaired = fix.read(api.fix_bytes(data, set(codes), job.regex_functions).data)[0]
            with warnings.catch_warnings():
                warnings.simplefilter('ignore')  # the compiler's warnings about other escapes
                compile(repaired, '<repaired>', 'exec', dont_inherit=True)
        except Exception:  # the repair does not reach a file that compiles: no hint
            continue
        return found, ','.join(codes)
    return [], ''


def fix_file(job: Job) -> Outcome:
    """Fix one file (in a worker process with --jobs): its outcome, printed by the main process."""
    name = shown(job.name or job.path)
    try:
        read = read_bytes(job.path)
    except OSError as error:
        return Outcome(2, [(True, f'{name}: cannot read: {error.strerror or error}')], b'', [])
    except Exception as error:  # an error of ours: one line, the run goes on
        return Outcome(2, [(True, output.internal_error(name, error))], b'', [])
    if read is None:
        return Outcome(0, [(True, f'{name}: skipped, not a regular file')], b'', [])
    data, before = read
    try:
        return fixed_outcome(job, name, data, before)
    except Exception as error:  # an error of ours: one line, standard input passed on as it came
        return Outcome(2, [(True, output.internal_error(name, error))], data if job.path == '-' else b'', [])


def fixed_outcome(job: Job, name: str, data: bytes, before: fix.Snapshot | None) -> Outcome:
    """``fix_file``'s outcome for the file's bytes ``data`` (``before``: its state when read)."""
    result, status, said, book, cells = fixed_source(name, data, job)
    if result is None:
        return Outcome(status, [(True, why) for why in said], data if job.path == '-' else b'', [])

    def at(line: int) -> str:  # a report's place: file:line, or in a notebook file:cell N:row
        return f'{name}:cell {book.where(line)[0]}:{book.where(line)[1]}' if book else f'{name}:{line}'
    printed = [(True, why) for why in said] + [(True, f'{at(line)}:{col + 1}: {code} left alone: {reason}')
                                               for line, col, code, reason in result.left_alone]
    unsafe_left = [code for code in result.unsafe_left if code in job.unsafe_shown]
    if job.path == '-':  # a filter: the whole source out, fixed or not
        diff = (notebook_diff(name, cells) if book else unified_diff(name, data, result.data)) if job.diff \
            else result.data
        return Outcome(int(result.data != data), printed, diff, unsafe_left)
    if result.data == data:
        return Outcome(0, printed, b'', unsafe_left)
    if job.diff:
        diff = notebook_diff(job.path, cells) if book else unified_diff(job.path, data, result.data)
        return Outcome(1, printed, diff, unsafe_left)
    try:
        fix.write_atomic(job.path, result.data, before)
    except Exception as error:  # OSError above all (disk full, ulimit -f, read-only)
        detail = error.strerror if isinstance(error, OSError) and error.strerror else error
        return Outcome(2, [*printed, (True, f'{name}: cannot write, left as it was: {detail}')], b'', [])
    return Outcome(1, [*printed, (False, f'{name}: fixed {_summary(result.fixed)}')], b'', unsafe_left)


def _worker_started() -> None:
    """Ctrl-C (SIGINT, sent to every process of the terminal's group) is the main process's to
    handle: it stops the pool, whose SIGTERM ends each worker once its file is done
    (``signals_deferred``), at once otherwise (not by the main process's handler, inherited by
    fork: the worker would raise SystemExit wherever it waits, and may hang); a worker prints no
    traceback of its own."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


@contextlib.contextmanager
def signals_deferred() -> Iterator[None]:
    """Ctrl-C and SIGTERM wait while a file is fixed, and act as they would have right after:
    a signal that arrives while the temporary file is made (``mkstemp``'s open) would stop the
    process before ``fix.files.write`` could remove it, and leave it beside the file.  A signal
    ignored (a worker's SIGINT) stays ignored."""
    caught: list[int] = []
    kept = {}
    main = threading.current_thread() is threading.main_thread()  # only there can handlers be set
    for number in (signal.SIGINT, signal.SIGTERM) if main else ():
        if signal.getsignal(number) is not signal.SIG_IGN:
            kept[number] = signal.signal(number, lambda got, frame: caught.append(got))
    try:
        yield
    finally:
        for number, handler in kept.items():
            signal.signal(number, handler)
    if caught:
        signal.raise_signal(caught[0])  # its own handler now: KeyboardInterrupt, or the end


def fix_file_whole(job: Job) -> Outcome:
    """``fix_file``, not cut short by a signal (``signals_deferred``)."""
    with signals_deferred():
        return fix_file(job)


def outcomes(jobs: list[Job], processes: int) -> Iterator[Outcome]:
    """Each job's outcome, in the jobs' order (in ``processes`` worker processes when more than one)."""
    if processes > 1:
        with multiprocessing.Pool(processes, _worker_started) as pool:
            yield from pool.imap(fix_file_whole, jobs)
            pool.close()  # the workers leave when the tasks are done: no SIGTERM to stop them
            pool.join()  # (the pool's own end sends one only after an error or Ctrl-C)
    else:
        yield from map(fix_file_whole, jobs)


def job_for(path: str, settings: config.Config, codes: set[str], diff: bool) -> Job:
    """The job of the file at ``path`` ('-': standard input, named as check names it)."""
    name = (settings.options.stdin_display_name or 'stdin') if path == '-' else ''
    where = name or path  # for per-file-ignores
    return Job(path, frozenset(settings.reported(codes, where)),
               frozenset(settings.reported(fix.UNSAFE, where)), diff, settings.regex_functions,
               notebook.is_notebook(where), name)


def run(args: argparse.Namespace) -> int:
    codes = set(args.select or (FIXABLE if args.unsafe else fix.SAFE))
    if not args.unsafe and codes & set(fix.UNSAFE):
        names = ', '.join(sorted(codes & set(fix.UNSAFE)))
        say(f'flake8-escapes fix: error: --select {names} needs --unsafe: '
            'these fixes change the value of the literal', sys.stderr)
        return 2
    paths = args.paths or ['.']
    settings = config.Config(config.flake8_argv(args, paths))  # what flake8 would check
    note = check.selection_note(settings, FIXABLE, args)
    if note:
        say(note, sys.stderr)
    files, missing = config.walk(settings, paths, once=True)
    jobs = [job_for(path, settings, codes, args.diff) for path in files]
    status = 2 if missing else 0  # a path given that does not exist: said by the walk
    unsafe_left: list[str] = []
    filtering = '-' in paths  # standard output holds the fixed source: every message on stderr
    for outcome in outcomes(jobs, check.job_count(settings, [job.path for job in jobs])):
        status = max(status, outcome.status)
        for on_stderr, line in outcome.printed:
            say(line, sys.stderr if on_stderr or filtering else sys.stdout)
        if outcome.diff:
            output.write_bytes(outcome.diff)
        unsafe_left.extend(outcome.unsafe_left)
    if unsafe_left and not args.unsafe:
        count = len(unsafe_left)
        say(f'{count} report{"s" if count > 1 else ""} left that only --unsafe can fix '
            f'({_summary(unsafe_left)}): check them with --unsafe --diff', sys.stderr)
    return status
