"""Time the plugin against pycodestyle's W605 on the same files, in one process;
then what the plugin adds to a whole flake8 run on files with no report.

Files are prepared as flake8 prepares them (FileProcessor: lines, tokens,
AST), outside the timed part.  W605 (``python_3000_invalid_escape_sequence``)
is called once per logical line with that line's tokens, as flake8 calls it;
the plugin once per file with the file's AST and lines (it tokenizes a file
itself when a backslash may stand in a literal: that is in its time).  The
rounds alternate (W605, plugin, W605, ...), so that a change of load hits
both sides; prints each side's best total and the ratio (target: at most 0.5).

Then, on the files where a default flake8 run (this plugin included) reports
nothing -- the state of a project whose CI passes --:

- how many of them flake8 tokenizes again because of the plugin (counted in
  one in-process flake8 run; target: only those with a backslash in a literal);
- the CPU time of whole ``flake8`` processes with and without the plugin,
  rounds alternated, the ratio of the medians (target: at most 1.01), and
  the median and quartiles of each round's own ratio (its two runs are
  next to each other, so a slower minute of the machine hits both);
- the same ratio counted: the CPU of the plugin's import in a flake8
  process, of the checks' modules (imported by the first file that needs
  them, when one does) and of its runs on those files, measured apart, over
  flake8's.

Then, unless ``--check-jobs 0``, two lines from bench_check.py: ``flake8-escapes
check`` against ``flake8 --select=ESC``, whole processes, same --jobs; and its
CPU time against ``ruff check --select W605`` (when ruff is installed).

    python tests/benchmark.py [PATH ...]     # default: the standard library
    python tests/benchmark.py --corpus FILE  # keep the list of no-report files in FILE
"""
from __future__ import annotations

import argparse
import compileall
import os
import resource
import statistics
import subprocess
import sys
import sysconfig
import time
import tokenize

import pycodestyle
from flake8.checker import FileChecker
from flake8.main.application import Application
from flake8.plugins import finder

import bench_check
import flake8_escapes
from flake8_escapes import checks, source
from flake8_escapes.plugin import Plugin
from helpers import parsed
from survey_files import python_files

W605 = pycodestyle.python_3000_invalid_escape_sequence


def logical_lines(tokens: list[tokenize.TokenInfo]) -> list[list[tokenize.TokenInfo]]:
    """Split tokens where flake8 runs its logical-line checks."""
    lines, current, depth = [], [], 0
    for tok in tokens:
        current.append(tok)
        if tok.type == tokenize.OP and tok.string in '([{':
            depth += 1
        elif tok.type == tokenize.OP and tok.string in ')]}':
            depth -= 1
        elif tok.type == tokenize.NEWLINE or (tok.type == tokenize.NL and depth == 0):
            if len(current) > 1:  # flake8 skips blank lines
                lines.append(current)
            current = []
    if current:
        lines.append(current)
    return lines


def prepare(paths: list[str]) -> list[tuple]:
    prepared = []
    for path in paths:
        parts = parsed(path)
        if parts is not None:
            tree, lines, tokens = parts
            prepared.append((tree, tokens, logical_lines(tokens), lines))
    return prepared


def time_w605(prepared: list[tuple]) -> float:
    began = time.perf_counter()
    for _, _, lines, _ in prepared:
        for tokens in lines:
            for _ in W605('', tokens, False):
                pass
    return time.perf_counter() - began


def time_plugin(prepared: list[tuple]) -> float:
    began = time.perf_counter()
    for tree, tokens, _, lines in prepared:
        for _ in Plugin(tree, lines).run():
            pass
    return time.perf_counter() - began


def time_checks(prepared: list[tuple]) -> float:
    """The checks alone, on flake8's tokens of the files the plugin tokenizes
    (what the plugin cost when flake8's file_tokens were its input)."""
    began = time.perf_counter()
    for tree, tokens, _, lines in prepared:
        if source.needs_tokens(tree, lines):
            for _ in checks.all_reports(tree, tokens, lines, ()):
                pass
    return time.perf_counter() - began


#: Runs flake8's command line; with ``without`` first, flake8 does not load this plugin.
FLAKE8 = """
import sys
from flake8.main import cli
from flake8.plugins import finder
if sys.argv[1] == 'without':
    found = finder._find_importlib_plugins
    finder._find_importlib_plugins = lambda: (p for p in found() if p.package != 'flake8-escapes')
sys.exit(cli.main(sys.argv[2:]))
"""


def no_report_files(paths: list[str], corpus: str | None) -> list[str]:
    """The files on which a default flake8 run (this plugin included) reports nothing."""
    if corpus and os.path.exists(corpus):
        with open(corpus, encoding='utf-8') as f:
            return f.read().split()
    run = subprocess.run(
        [sys.executable, '-c', FLAKE8, 'with', '--isolated', '--format=%(path)s', *paths],
        capture_output=True, text=True, check=False)
    reported = set(run.stdout.split())
    found = [path for path in paths if path not in reported]
    if corpus:
        with open(corpus, 'w', encoding='utf-8') as f:
            f.write('\n'.join(found) + '\n')
    return found


def tokenize_calls(files: list[str], plugin: bool) -> dict[str, int]:
    """Calls of ``tokenize.generate_tokens`` per file in one in-process flake8
    run (``--jobs=1``), with or without this plugin."""
    current = ['']
    calls: dict[str, int] = {}
    generate_tokens, run_checks = tokenize.generate_tokens, FileChecker.run_checks
    find_plugins = finder._find_importlib_plugins

    def counting_generate_tokens(*args, **kwargs):  # type: ignore[no-untyped-def]
        calls[current[0]] = calls.get(current[0], 0) + 1
        return generate_tokens(*args, **kwargs)

    def naming_run_checks(self):  # type: ignore[no-untyped-def]
        current[0] = self.filename
        return run_checks(self)

    tokenize.generate_tokens, FileChecker.run_checks = counting_generate_tokens, naming_run_checks
    if not plugin:
        finder._find_importlib_plugins = lambda: (p for p in find_plugins() if p.package != 'flake8-escapes')
    try:
        Application().run(['--isolated', '--jobs=1', *files])
    finally:
        tokenize.generate_tokens, FileChecker.run_checks = generate_tokens, run_checks
        finder._find_importlib_plugins = find_plugins
    return calls


def tokenized_again(files: list[str]) -> set[str]:
    """The files that a flake8 run tokenizes more often with this plugin than
    without it (flake8 itself tokenizes a file once, and again for ``# noqa``
    when it has a report, even one that ``# noqa`` silences)."""
    without, with_ = tokenize_calls(files, plugin=False), tokenize_calls(files, plugin=True)
    return {path for path, calls in with_.items() if calls > without.get(path, 0)}


def literal_backslash_files(files: list[str]) -> tuple[int, int]:
    """How many files hold a backslash, and how many hold one in a literal (a string token)."""
    anywhere = in_literal = 0
    for path in files:
        parts = parsed(path)
        if parts is None:
            continue
        _, lines, tokens = parts
        anywhere += any('\\' in line for line in lines)
        in_literal += any('\\' in tok.string for tok in tokens if tok.type != tokenize.COMMENT)
    return anywhere, in_literal


#: The plugin's import as a flake8 process meets it: flake8's own modules
#: loaded and every distribution's metadata read (as flake8's plugin finder does).
IMPORT = """
import importlib.metadata, time
from flake8.main import application
from flake8 import checker, processor
for dist in importlib.metadata.distributions():
    dist.metadata['Name'], dist.entry_points
began = time.process_time()
import flake8_escapes.plugin
loaded = time.process_time()
import flake8_escapes.checks
print(loaded - began, time.process_time() - loaded)
"""


def import_cpu(rounds: int = 9) -> tuple[float, float]:
    """The CPU seconds of the plugin's import in a flake8 process, and of
    the modules the first file that needs the checks imports then (best of
    ``rounds`` processes each)."""
    runs = [subprocess.run([sys.executable, '-c', IMPORT], capture_output=True, text=True,
                           check=True).stdout.split() for _ in range(rounds)]
    return min(float(run[0]) for run in runs), min(float(run[1]) for run in runs)


def run_cpu(files: list[str], rounds: int = 5) -> float:
    """The CPU seconds of the plugin's runs on ``files`` (flake8 has built
    their AST and lines), best of ``rounds``."""
    prepared = prepare(files)
    best = float('inf')
    for _ in range(rounds):
        began = time.process_time()
        for tree, _, _, lines in prepared:
            for _ in Plugin(tree, lines).run():
                pass
        best = min(best, time.process_time() - began)
    return best


def compile_plugin() -> None:
    """Byte-compile the plugin as pip does when it installs a wheel: a checkout
    (an editable install) run with PYTHONDONTWRITEBYTECODE would compile its
    sources again in every flake8 process, a cost no installed user pays."""
    compileall.compile_dir(os.path.dirname(flake8_escapes.__file__), quiet=1)


def flake8_cpu(files: list[str], plugin: bool) -> float:
    """CPU seconds (user + system) of a default ``flake8`` process and its workers."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, '-c', FLAKE8, 'with' if plugin else 'without', '--isolated', *files],
                   stdout=subprocess.DEVNULL, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('paths', nargs='*', default=[sysconfig.get_paths()['stdlib']])
    parser.add_argument('--rounds', type=int, default=5)
    parser.add_argument('--check-jobs', type=int, default=2,
                        help='also time flake8-escapes check against flake8 --select=ESC, whole processes '
                             'with this --jobs (bench_check.py); 0: skip')
    parser.add_argument('--corpus', help='file that keeps the list of no-report files between runs')
    parser.add_argument('--flake8-rounds', type=int, default=5, help='rounds of whole flake8 runs')
    args = parser.parse_args()
    files = python_files(args.paths)
    prepared = prepare(files)
    tokens = sum(len(t) for _, t, _, _ in prepared)
    w605_times, plugin_times, check_times = [], [], []
    for _ in range(args.rounds):
        w605_times.append(time_w605(prepared))
        plugin_times.append(time_plugin(prepared))
        check_times.append(time_checks(prepared))
    w605, plugin, check = min(w605_times), min(plugin_times), min(check_times)
    print(f'Python {sys.version.split()[0]}, {len(prepared)} files, {tokens} tokens, '
          f'best of {args.rounds}: W605 {w605 * 1000:.0f} ms, flake8-escapes {plugin * 1000:.0f} ms '
          f'(its own tokenizing included), ratio {plugin / w605:.2f}; its checks alone on flake8\'s '
          f'tokens {check * 1000:.0f} ms, ratio {check / w605:.2f}')
    if args.check_jobs:
        print(bench_check.check_against_flake8(args.paths, args.check_jobs, rounds=1))
        print(bench_check.check_against_ruff(args.paths, rounds=3))
    if not args.flake8_rounds:
        return 0
    clean = no_report_files(files, args.corpus)
    anywhere, in_literal = literal_backslash_files(clean)
    again = tokenized_again(clean)
    print(f'{len(clean)} files with no report from flake8: {anywhere} hold a backslash, '
          f'{in_literal} in a literal; tokenized again because of the plugin: {len(again)}')
    compile_plugin()
    runs: dict[bool, list[float]] = {True: [], False: []}
    for round_ in range(args.flake8_rounds):
        for with_plugin in ((False, True) if round_ % 2 == 0 else (True, False)):  # neither always first
            runs[with_plugin].append(flake8_cpu(clean, with_plugin))
    without, with_ = statistics.median(runs[False]), statistics.median(runs[True])
    # Each round's two runs follow each other: their ratio does not see the machine's slower minutes.
    paired = sorted(w / wo for w, wo in zip(runs[True], runs[False]))
    quartiles = statistics.quantiles(paired, n=4) if len(paired) > 1 else paired * 3
    print(f'flake8 on those files, CPU median of {args.flake8_rounds}: without the plugin {without:.2f} s, '
          f'with it {with_:.2f} s, ratio {with_ / without:.3f} (best of each: '
          f'{min(runs[True]) / min(runs[False]):.3f}; median of the rounds\' own ratios '
          f'{statistics.median(paired):.3f}, quartiles {quartiles[0]:.3f} .. {quartiles[2]:.3f})')
    # The same, counted: what the plugin adds to such a process, measured apart (less noisy).
    (imported, later), ran = import_cpu(), run_cpu(clean)
    checked = sum(source.needs_tokens(tree, lines) for tree, _, _, lines in prepare(clean))
    later = later if checked else 0.0  # the checks' modules, imported by the first file that needs them
    print(f'what the plugin adds, counted apart: its import {imported * 1000:.1f} ms, the checks\' '
          f'{later * 1000:.1f} ms ({checked} of the files need them) and its runs on those '
          f'files {ran * 1000:.1f} ms, {(imported + later + ran) / without:.2%} of flake8 without it: '
          f'ratio {1 + (imported + later + ran) / without:.3f}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
