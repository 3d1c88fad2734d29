"""Time ``flake8-escapes check`` against ``flake8 --select=ESC``: whole processes, same --jobs.

Both read no config (--isolated), skip site-packages, and must print the same
lines; the best wall time of each over the rounds, and the speed-up (target:
check at least 3x faster).

Then, when ruff is installed, the CPU time (user + system, workers included)
of plain ``check`` (no ``--select``: E999 on, as in flake8; issue 32's target:
at most 2.5x ruff's) and of ``check --select=ESC`` (issue 24's: at most 5x)
against ``ruff check --select W605`` on the same files.

    python tests/bench_check.py [--jobs N] [--rounds N] [--no-flake8] [PATH ...]   # default: the stdlib

Issue 32's measurement, on each Python's standard library (the machine is shared: run it niced):

    nice python tests/bench_check.py --no-flake8 --rounds 3 STDLIB   # python3.X -c 'import sysconfig;
    # print(sysconfig.get_paths()["stdlib"])' for 3.11, 3.12 and 3.13
"""
from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import sysconfig
import time


def wall_time(argv: list[str]) -> tuple[float, list[str]]:
    began = time.perf_counter()
    proc = subprocess.run(argv, capture_output=True, text=True)
    elapsed = time.perf_counter() - began
    if proc.returncode not in (0, 1):
        raise SystemExit(f'{argv[:4]} failed ({proc.returncode}): {proc.stderr[-2000:]}')
    return elapsed, proc.stdout.splitlines()


def check_against_flake8(paths: list[str], jobs: int, rounds: int) -> str:
    """One line: both programs' best wall time and the ratio."""
    common = ['--isolated', '--select=ESC', f'--jobs={jobs}', '--extend-exclude=site-packages', *paths]
    best = {}
    for _ in range(rounds):
        for name, argv in (('check', [sys.executable, '-m', 'flake8_escapes', 'check', *common]),
                           ('flake8', [sys.executable, '-m', 'flake8', *common])):
            elapsed, out = wall_time(argv)
            best[name] = min(best.get(name, (elapsed, out)), (elapsed, out))
    if best['check'][1] != best['flake8'][1]:
        raise SystemExit('check and flake8 --select=ESC printed different lines')
    check, flake8 = best['check'][0], best['flake8'][0]
    return (f'--jobs={jobs}, best of {rounds}: flake8-escapes check {check:.1f} s, '
            f'flake8 --select=ESC {flake8:.1f} s, check {flake8 / check:.1f}x faster (target: 3x), '
            f'{len(best["check"][1])} reports')


def ruff() -> str | None:
    """The ruff beside this Python (its virtualenv's), or on PATH; None when not installed."""
    return shutil.which('ruff', path=os.path.dirname(sys.executable)) or shutil.which('ruff')


def cpu_time(argv: list[str]) -> float:
    """CPU seconds (user + system) of a process and the workers it waited for."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if proc.returncode not in (0, 1):
        raise SystemExit(f'{argv[:4]} failed ({proc.returncode}): {proc.stderr[-2000:]}')
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def check_against_ruff(paths: list[str], rounds: int) -> str:
    """Two lines: the best CPU time of plain ``check`` and of ``check --select=ESC``, each against
    ``ruff check --select W605``'s."""
    program = ruff()
    if program is None:
        return 'ruff is not installed (pip install ruff): check against ruff skipped'
    check = [sys.executable, '-m', 'flake8_escapes', 'check', '--isolated', '--extend-exclude=site-packages']
    argvs = {'check': [*check, *paths], 'check --select=ESC': [*check, '--select=ESC', *paths],
             'ruff': [program, 'check', '--isolated', '--no-cache', '--select=W605', '--exit-zero',
                      '--extend-exclude=site-packages', *paths]}
    best: dict[str, float] = {}
    for _ in range(rounds):
        for name, argv in argvs.items():
            best[name] = min(best.get(name, float('inf')), cpu_time(argv))
    return '\n'.join(
        f'CPU, best of {rounds}: flake8-escapes {name} {best[name]:.2f} s, ruff check --select W605 '
        f'{best["ruff"]:.2f} s, ratio {best[name] / best["ruff"]:.2f} (target: at most {target})'
        for name, target in (('check', 2.5), ('check --select=ESC', 5)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('paths', nargs='*', default=[sysconfig.get_paths()['stdlib']])
    parser.add_argument('--jobs', type=int, default=2)
    parser.add_argument('--rounds', type=int, default=1)
    parser.add_argument('--no-flake8', action='store_true', help='only the CPU times against ruff')
    args = parser.parse_args()
    print(f'Python {sys.version.split()[0]}, {" ".join(args.paths)}'
          + ('' if args.no_flake8 else ': ' + check_against_flake8(args.paths, args.jobs, args.rounds)))
    print(check_against_ruff(args.paths, max(args.rounds, 3)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
