"""Run the plugin over a tree (default: the standard library) and list reports.

    python tests/survey.py [--select ESC4] [PATH ...]

Prints every report whose code starts with --select, then counts per code.
Used to read the reports of the opinionated families on real code.
"""
from __future__ import annotations

import argparse
import sys
import sysconfig
from collections import Counter

from benchmark import python_files
from helpers import parsed

from flake8_escapes.plugin import Plugin


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('paths', nargs='*', default=[sysconfig.get_paths()['stdlib']])
    parser.add_argument('--select', default='ESC4')
    args = parser.parse_args()
    counts: Counter = Counter()
    files = 0
    for path in python_files(args.paths):
        parts = parsed(path)
        if parts is None:
            continue
        files += 1
        for line, col, message, _ in Plugin(*parts).run():
            code = message.split()[0]
            if code.startswith(args.select):
                counts[code] += 1
                print(f'{path}:{line}:{col + 1}: {message}')
    print(f'Python {sys.version.split()[0]}: {files} files, reports {dict(sorted(counts.items()))}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
