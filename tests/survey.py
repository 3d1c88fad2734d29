"""Run the plugin over a tree (default: the standard library) and list reports.

    python tests/survey.py [--select ESC4 --select ESC5 | --select ESC4,ESC5] [--py2]
                           [--tsv FILE] [PATH ...]

Prints every report whose code starts with one of the --select prefixes as
``name-version file:line:col: CODE message``, then counts per code.  The
package is the folder of PATH (or of a "before DATE" group folder inside it)
that holds the file, as tests/fetch_releases.py lays them out; the file is
relative to it.  --tsv also writes the reports as a table for
tests/survey_diff.py (package, version, file, line, column, code, mark,
message; column 1-based as flake8 prints it).

Used to read the reports of the opinionated families on real code.  With
--py2, a file that does not parse is converted by lib2to3 first (Python 3.12
and older) and its reports are marked "(2to3)": old releases hold Python 2
code, and the conversion keeps string literals as they are written; read the
original file before calling a report real.
"""
from __future__ import annotations

import argparse
import ast
import functools
import io
import os
import re
import sys
import sysconfig
import tokenize
import warnings
from collections import Counter
from typing import Iterator, NamedTuple

from benchmark import python_files
from helpers import parsed, processor_for

from flake8_escapes import checks
from flake8_escapes.plugin import Plugin

#: How tests/fetch_releases.py names a package folder: ``<name>-<version>``.
PACKAGE = re.compile(r'(?P<name>.+?)-(?P<version>\d[^-]*(?:-.*)?)$')
#: ... inside a folder per "before" date: ``<date>`` (``before <date>`` accepted too).
GROUP = re.compile(r'(before )?\d{4}-\d\d-\d\d$')
COLUMNS = ('package', 'version', 'file', 'line', 'column', 'code', 'mark', 'message')


class Row(NamedTuple):
    """One report, located in its package."""

    package: str
    version: str
    file: str      # relative to the package folder, with forward slashes
    line: int
    column: int    # 1-based, as flake8 prints it
    code: str
    mark: str      # '2to3' when the file was read through lib2to3, else ''
    message: str


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


def parts_of(text: str) -> tuple[ast.AST, list[tokenize.TokenInfo], list[str]] | None:
    """(tree, tokens, lines) of a converted source, as flake8 prepares them."""
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        try:
            processor = processor_for(lines=io.StringIO(text, newline=None).readlines())
            return processor.build_ast(), processor.file_tokens, processor.lines
        except (SyntaxError, ValueError, tokenize.TokenError):
            return None


def located(path: str, roots: list[str]) -> tuple[str, str, str]:
    """(package name, version, file relative to the package folder) of ``path``."""
    for root in roots:
        relative = os.path.relpath(path, root)
        if relative.startswith(os.pardir) or os.path.isabs(relative):
            continue
        parts = relative.replace(os.sep, '/').split('/')
        depth = 1 if len(parts) > 2 and GROUP.match(parts[0]) else 0  # ROOT/<group>/<name>-<version>/...
        if len(parts) > depth + 1 and (match := PACKAGE.match(parts[depth])):
            return match['name'], match['version'], '/'.join(parts[depth + 1:])
        if match := PACKAGE.match(os.path.basename(os.path.normpath(root))):  # ROOT is the package
            return match['name'], match['version'], '/'.join(parts)
        if len(parts) > 1:
            return parts[0], '', '/'.join(parts[1:])
        return os.path.basename(root.rstrip(os.sep)) or root, '', parts[0]
    return '', '', path


def rows(paths: list[str], prefixes: tuple[str, ...], py2: bool, counts: Counter) -> Iterator[Row]:
    """The selected reports of every file under ``paths``; ``counts`` gets 'files' and 'converted'."""
    roots = [p for p in paths if os.path.isdir(p)]
    for path in python_files(paths):
        parts = parsed(path)
        mark = ''
        if parts is None and py2 and (text := converted(path)) is not None:
            parts = parts_of(text)
            mark = '2to3'
        if parts is None:
            continue
        counts['files'] += 1
        counts['converted'] += mark == '2to3'
        try:
            found = list(checks.all_reports(*parts, Plugin.regex_functions))
        except RecursionError:
            print(f'{path}: RecursionError', file=sys.stderr)
            counts['errors'] += 1
            continue
        name, version, relative = located(path, roots)
        for report in found:
            if report.code.startswith(prefixes):
                yield Row(name, version, relative, report.line, report.col + 1, report.code, mark,
                          report.message)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('paths', nargs='*', default=[sysconfig.get_paths()['stdlib']])
    parser.add_argument('--select', action='append', default=[],
                        help='code prefix to list (repeat it, or separate by commas); default ESC4')
    parser.add_argument('--py2', action='store_true', help='convert files that do not parse with lib2to3')
    parser.add_argument('--tsv', help='also write the reports to this file, a table for survey_diff.py')
    args = parser.parse_args()
    prefixes = tuple(p.strip() for item in args.select or ['ESC4'] for p in item.split(',') if p.strip())
    counts: Counter = Counter()
    per_code: Counter = Counter()
    table = []
    for row in rows(args.paths, prefixes, args.py2, counts):
        per_code[row.code] += 1
        table.append(row)
        mark = ' (2to3)' if row.mark else ''
        where = f'{row.package}-{row.version} {row.file}:{row.line}:{row.column}:'
        print(f'{where}{mark} {row.message}', flush=True)
    if args.tsv:
        with open(args.tsv, 'w', encoding='utf-8') as f:
            f.write('\t'.join(COLUMNS) + '\n')
            for row in table:
                f.write('\t'.join(str(value).replace('\t', ' ') for value in row) + '\n')
    extra = f' ({counts["converted"]} converted by lib2to3)' if args.py2 else ''
    errors = f', {counts["errors"]} not checked (RecursionError)' if counts['errors'] else ''
    print(f'Python {sys.version.split()[0]}: {counts["files"]} files{extra}{errors}, '
          f'reports {dict(sorted(per_code.items()))}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
