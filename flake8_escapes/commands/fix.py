"""``flake8-escapes fix``: the files flake8 would check, each fixed by the fixer
(``fix.fix_bytes``) in worker processes with ``--jobs``, written atomically or shown as a diff.

Exit status (pre-commit's convention): 0 when nothing changed, 1 when files
were changed or ``--diff`` showed changes, 2 on bad usage or a file that
could not be read, fixed or written (the other files are still fixed).
"""
from __future__ import annotations

import argparse
import multiprocessing
import os
import stat
import sys
from collections import Counter
from typing import Iterator, NamedTuple

from flake8_escapes import api, apis, config, fix, output
from flake8_escapes.commands import check
from flake8_escapes.fix.diff import unified_diff

FIXABLE = fix.SAFE + fix.UNSAFE
shown, say = output.shown, output.say


def _summary(codes: list[str]) -> str:
    counts = Counter(codes)
    return ', '.join(f'{code} x{n}' if n > 1 else code for code, n in sorted(counts.items()))


def _files(settings: config.Config, paths: list[str]) -> Iterator[str]:
    """The files flake8 would check under ``paths``, each once (a path given
    twice, or through a symlink, is fixed once); a file found in a folder
    whose real path is outside every folder given (a symlink out of the tree)
    is left alone, with one line, unless it is named itself."""
    seen = set()
    folders = [os.path.join(os.path.realpath(path), '') for path in paths if os.path.isdir(path)]
    for given in paths:
        count = 0
        for name in settings.files([given]):
            count += 1
            key = os.path.realpath(name) if name != '-' else name
            if name != given and not key.startswith(tuple(folders)):
                say(f'{shown(name)}: left alone: it leads to {shown(key)}, outside the folders given '
                    '(name it to fix it)', sys.stderr)
            elif key not in seen:
                seen.add(key)
                yield name
        if not count and os.path.isdir(given):
            say(f'{shown(given)}: no Python file found', sys.stderr)


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
    with os.fdopen(os.open(path, output.READ_FLAGS), 'rb') as f:
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
        return None, 2, f'{name}: cannot read: {error}'
    except SyntaxError as error:
        message = str(error.msg or error)
        if message.startswith(('unknown encoding', 'invalid or missing encoding', 'encoding problem')):
            return None, 2, f'{name}: cannot read: {message}'
        where = f' (line {error.lineno})' if error.lineno else ''  # none for a NUL byte (3.11+)
        return None, 0, f'{name}: skipped, does not parse: {message}{where}'
    except ValueError as error:  # null bytes
        return None, 0, f'{name}: skipped, does not parse: {error}'
    except RecursionError:
        return None, 2, f'{name}: left alone: nested too deeply for this Python to check'
    except Exception as error:  # never stop the run: one line, exit 2
        return None, 2, f'{name}: left alone: {type(error).__name__}: {error}'


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


def outcomes(jobs: list[Job], processes: int) -> Iterator[Outcome]:
    """Each job's outcome, in the jobs' order (in ``processes`` worker processes when more than one)."""
    if processes > 1:
        with multiprocessing.Pool(processes) as pool:
            yield from pool.imap(fix_file, jobs)
    else:
        yield from map(fix_file, jobs)


def run(args: argparse.Namespace) -> int:
    codes = set(args.select or (FIXABLE if args.unsafe else fix.SAFE))
    if not args.unsafe and codes & set(fix.UNSAFE):
        names = ', '.join(sorted(codes & set(fix.UNSAFE)))
        say(f'flake8-escapes fix: error: --select {names} needs --unsafe: '
            'these fixes change the value of the literal', sys.stderr)
        return 2
    paths = args.paths or ['.']
    settings = config.Config(config.flake8_argv(args, paths))  # what flake8 would check
    if settings.ignores_all(FIXABLE):
        say(check.IGNORED_ALL, sys.stderr)
    jobs = []
    for path in _files(settings, paths):
        where = settings.options.stdin_display_name if path == '-' else path  # for per-file-ignores
        jobs.append(Job(path, frozenset(settings.reported(codes, where)),
                        frozenset(settings.reported(fix.UNSAFE, where)), args.diff, settings.regex_functions))
    status = 0
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
