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

from flake8_escapes import api, apis, config, fix, output
from flake8_escapes.commands import check
from flake8_escapes.fix.diff import unified_diff

FIXABLE = fix.SAFE + fix.UNSAFE
shown, say = output.shown, output.say
#: The code of an escape CPython refuses (the file does not compile), and the
#: command whose fix (``fix.refused``) makes such a file compile: unsafe, and no other fix.
REFUSED = 'ESC304'
REPAIR = f'flake8-escapes fix --unsafe --select {REFUSED}'


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
            return None, 0, _not_parsed(name, data, job, str(error), None)
        return None, 2, f'{name}: cannot read: {error}'
    except SyntaxError as error:
        message = str(error.msg or error)
        if message.startswith(('unknown encoding', 'invalid or missing encoding', 'encoding problem')):
            return None, 2, f'{name}: cannot read: {message}'
        return None, 0, _not_parsed(name, data, job, message, error.lineno)
    except ValueError as error:  # null bytes
        return None, 0, f'{name}: skipped, does not parse: {error}'
    except (RecursionError, MemoryError):  # the parser's, for a source nested too deep (issue 40)
        return None, 2, f'{name}: left alone: nested too deeply for this Python to check'
    except Exception as error:  # never stop the run: one line, exit 2
        return None, 2, f'{name}: left alone: {type(error).__name__}: {error}'


def _not_parsed(name: str, data: bytes, job: Job, message: str, line: int | None) -> str:
    """The line for a file that does not parse: CPython's message, or, when the
    reason is an escape CPython refuses that ``REPAIR`` would fix (tried
    here: the file then parses), where the first one is and that command."""
    refused = _refused_lines(data, job)
    if refused:
        count = f' x{len(refused)}, first' if len(refused) > 1 else ''
        return (f'{name}: skipped, does not parse ({REFUSED}{count} at line {refused[0]}): '
                f'`{REPAIR}` can repair it')
    where = f' (line {line})' if line else ''  # none for a NUL byte (3.11+)
    return f'{name}: skipped, does not parse: {message}{where}'


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


def fix_file(job: Job) -> Outcome:
    """Fix one file (in a worker process with --jobs): its outcome, printed by the main process."""
    name = shown(job.path)
    try:
        read = read_bytes(job.path)
    except OSError as error:
        return Outcome(2, [(True, f'{name}: cannot read: {error.strerror or error}')], b'', [])
    if read is None:
        return Outcome(0, [(True, f'{name}: skipped, not a regular file')], b'', [])
    data, before = read
    result, status, why = fixed_bytes(name, data, job)
    if result is None:
        return Outcome(status, [(True, why)], data if job.path == '-' else b'', [])
    printed = [(True, f'{name}:{line}:{col + 1}: {code} left alone: {reason}')
               for line, col, code, reason in result.left_alone]
    unsafe_left = [code for code in result.unsafe_left if code in job.unsafe_shown]
    if job.path == '-':  # a filter: the whole source out, fixed or not
        diff = unified_diff('-', data, result.data) if job.diff else result.data
        return Outcome(int(result.data != data), printed, diff, unsafe_left)
    if result.data == data:
        return Outcome(0, printed, b'', unsafe_left)
    if job.diff:
        return Outcome(1, printed, unified_diff(job.path, data, result.data), unsafe_left)
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
    else:
        yield from map(fix_file_whole, jobs)


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
    jobs = []
    files, missing = config.walk(settings, paths, once=True)
    for path in files:
        where = settings.options.stdin_display_name if path == '-' else path  # for per-file-ignores
        jobs.append(Job(path, frozenset(settings.reported(codes, where)),
                        frozenset(settings.reported(fix.UNSAFE, where)), args.diff, settings.regex_functions))
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
