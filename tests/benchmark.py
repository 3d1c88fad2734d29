"""Time the plugin against pycodestyle's W605 on the same files, in one process.

Files are prepared as flake8 prepares them (FileProcessor: lines, tokens,
AST), outside the timed part.  W605 (``python_3000_invalid_escape_sequence``)
is called once per logical line with that line's tokens, as flake8 calls it;
the plugin once per file with the file's tokens and AST.  Prints each side's
best total over several rounds and the ratio (the target is at most 0.5).

Then, unless ``--check-jobs 0``, one line from bench_check.py: ``flake8-escapes
check`` against ``flake8 --select=ESC``, whole processes, same --jobs.

    python tests/benchmark.py [PATH ...]     # default: the standard library
"""
from __future__ import annotations

import argparse
import os
import sys
import sysconfig
import time
import tokenize

import pycodestyle

import bench_check
from flake8_escapes.plugin import Plugin
from helpers import parsed

W605 = pycodestyle.python_3000_invalid_escape_sequence


def python_files(paths: list[str]) -> list[str]:
    found = []
    for path in paths:
        if os.path.isfile(path):
            found.append(path)
            continue
        for folder, dirs, files in os.walk(path):
            dirs[:] = sorted(d for d in dirs if d not in ('site-packages', '__pycache__'))
            found.extend(os.path.join(folder, f) for f in sorted(files) if f.endswith('.py'))
    return found


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
            tree, tokens, lines = parts
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
        for _ in Plugin(tree, tokens, lines).run():
            pass
    return time.perf_counter() - began


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('paths', nargs='*', default=[sysconfig.get_paths()['stdlib']])
    parser.add_argument('--rounds', type=int, default=5)
    parser.add_argument('--check-jobs', type=int, default=2,
                        help='also time flake8-escapes check against flake8 --select=ESC, whole processes '
                             'with this --jobs (bench_check.py); 0: skip')
    args = parser.parse_args()
    prepared = prepare(python_files(args.paths))
    tokens = sum(len(t) for _, t, _, _ in prepared)
    w605 = min(time_w605(prepared) for _ in range(args.rounds))
    plugin = min(time_plugin(prepared) for _ in range(args.rounds))
    print(f'Python {sys.version.split()[0]}, {len(prepared)} files, {tokens} tokens, '
          f'best of {args.rounds}: W605 {w605 * 1000:.0f} ms, flake8-escapes {plugin * 1000:.0f} ms, '
          f'ratio {plugin / w605:.2f}')
    if args.check_jobs:
        print(bench_check.check_against_flake8(args.paths, args.check_jobs, rounds=1))
    return 0


if __name__ == '__main__':
    sys.exit(main())
