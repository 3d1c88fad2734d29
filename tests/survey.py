"""Run the plugin over a tree (default: the standard library) and list reports.

    python tests/survey.py [--select ESC4] [--py2] [PATH ...]

Prints every report whose code starts with --select, then counts per code.
Used to read the reports of the opinionated families on real code.  With
--py2, a file that does not parse is converted by lib2to3 first (Python 3.12
and older) and its reports are marked "(2to3)": old releases hold Python 2
code, and the conversion keeps string literals as they are written; read the
original file before calling a report real.
"""
from __future__ import annotations

import argparse
import functools
import sys
import sysconfig
import warnings
from collections import Counter

from benchmark import python_files
from helpers import parsed, reports

from flake8_escapes.plugin import Plugin


@functools.lru_cache(maxsize=None)
def refactoring_tool():  # lib2to3 is imported only when --py2 asks for it
    """lib2to3's converter with all its fixers, built once."""
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')  # lib2to3 is deprecated
        from lib2to3 import refactor
    return refactor.RefactoringTool(refactor.get_fixers_from_package('lib2to3.fixes'))


def converted(path: str) -> str | None:
    """The file's text after lib2to3, or None if it cannot be read or converted."""
    tool = refactoring_tool()
    try:
        with open(path, encoding='utf-8') as f:
            text = f.read()
        return str(tool.refactor_string(text if text.endswith('\n') else text + '\n', path))
    except Exception:  # anything lib2to3 cannot read is skipped
        return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('paths', nargs='*', default=[sysconfig.get_paths()['stdlib']])
    parser.add_argument('--select', default='ESC4')
    parser.add_argument('--py2', action='store_true', help='convert files that do not parse with lib2to3')
    args = parser.parse_args()
    counts: Counter = Counter()
    files = converted_files = 0
    for path in python_files(args.paths):
        parts = parsed(path)
        if parts is not None:
            found = [(line, col + 1, message) for line, col, message, _ in Plugin(*parts[:2]).run()]
            mark = ''
        elif args.py2 and (text := converted(path)) is not None:
            try:
                found = reports(text)
            except (SyntaxError, ValueError):
                continue
            mark = '(2to3) '
            converted_files += 1
        else:
            continue
        files += 1
        for line, col, message in found:
            code = message.split()[0]  # the plugin's output, as flake8 prints it
            if code.startswith(args.select):
                counts[code] += 1
                print(f'{path}:{line}:{col}: {mark}{message}')
    extra = f' ({converted_files} converted by lib2to3)' if args.py2 else ''
    print(f'Python {sys.version.split()[0]}: {files} files{extra}, reports {dict(sorted(counts.items()))}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
