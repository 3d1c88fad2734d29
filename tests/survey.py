"""Run the plugin over a tree (default: the standard library) and list reports.

    python tests/survey.py [--select ESC4 --select ESC5 | --select ESC4,ESC5] [--py2]
                           [--tsv FILE] [PATH ...]

Prints every report whose code starts with one of the --select prefixes as
``name-version file:line:col: CODE message``, then counts per code.  The
package is the folder of PATH (or of a "before DATE" group folder inside it)
that holds the file, as tests/fetch_releases.py lays them out; the file is
relative to it.  --tsv also writes the reports as a table for
tests/survey_diff.py (package, version, file, line, column, code, mark,
exemption, message, found_by: the finding rule of an ESC501 report; column 1-based as flake8 prints it).

When ``checks.all_reports`` takes ``silenced=`` (a list that receives each
candidate a named exemption kept quiet, with the exemption's name), the
silenced candidates of the selected codes are listed too, marked
``[silenced by NAME]``, counted per exemption, and written to the table with
the exemption's name (empty for a report).

Used to read the reports of the opinionated families on real code.  With
--py2, a file that does not parse is converted by lib2to3 first (Python 3.12
and older) and its reports are marked "(2to3)": old releases hold Python 2
code, and the conversion keeps string literals as they are written; read the
original file before calling a report real.
"""
from __future__ import annotations

import argparse
import ast
import inspect
import io
import os
import sys
import sysconfig
import tokenize
import warnings
from collections import Counter
from typing import Iterator, NamedTuple

from helpers import parsed, processor_for
from survey_files import converted, located, python_files, why_unreadable

from flake8_escapes import checks, invalid, paths, regex
from flake8_escapes.plugin import Plugin

COLUMNS = ('package', 'version', 'file', 'line', 'column', 'code', 'mark', 'exemption', 'message', 'found_by')


class Row(NamedTuple):
    """One report, located in its package."""

    package: str
    version: str
    file: str      # relative to the package folder, with forward slashes
    line: int
    column: int    # 1-based, as flake8 prints it
    code: str
    mark: str      # '2to3' when the file was read through lib2to3, else ''
    exemption: str  # for a silenced candidate, the exemption that kept it quiet; '' for a report
    message: str
    found_by: str = ''  # for an ESC501 report, the finding rule (paths.FINDERS) or 'whole-path'


def parts_of(text: str) -> tuple[ast.AST, list[tokenize.TokenInfo], list[str]] | None:
    """(tree, tokens, lines) of a converted source, as flake8 prepares them."""
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        try:
            processor = processor_for(lines=io.StringIO(text, newline=None).readlines())
            return processor.build_ast(), processor.file_tokens, processor.lines
        except (SyntaxError, ValueError, tokenize.TokenError):
            return None


def exemption_codes() -> dict[str, tuple[str, ...]]:
    """Each named exemption's codes, from the family modules that have a table of them
    (a dict by name or a sequence of ``rules.Exemption``)."""
    codes = {}
    for module in (invalid, regex, paths):
        table = getattr(module, 'EXEMPTIONS', ())
        for exemption in (table.values() if isinstance(table, dict) else table):
            codes[exemption.name] = exemption.codes
    return codes


def silenced_entry(item) -> tuple[int, int, str, str]:
    """(line, 0-based col, escape text, exemption name) of one recorded silenced candidate:
    a (Found, name) pair, or a record with line, col, escape and exemption."""
    if hasattr(item, 'exemption'):
        line, col, escape, name = item.line, item.col, item.escape, item.exemption
    else:
        (line, col, escape, *_), name = item
    return line, col, getattr(escape, 'text', escape), getattr(name, 'name', name)


def silenced_code(codes: tuple[str, ...], escape_text: str) -> str:
    """The code a silenced candidate would have had: its exemption's, told apart by the escape."""
    if len(codes) > 1 and {'ESC401', 'ESC402'} <= set(codes):
        return 'ESC402' if escape_text == '\\b' else 'ESC401'
    return '/'.join(codes) or '?'


def rows(paths: list[str], prefixes: tuple[str, ...], py2: bool, counts: Counter,
         unreadable: list[str]) -> Iterator[Row]:
    """The selected reports of every file under ``paths``; ``counts`` gets 'files' and 'converted',
    ``unreadable`` each file that could not be read (not Python 3, and not converted with --py2)."""
    roots = [p for p in paths if os.path.isdir(p)]
    records_silenced = 'silenced' in inspect.signature(checks.all_reports).parameters
    codes_of = exemption_codes()
    for path in python_files(paths):
        prepared = parsed(path)  # (tree, lines, tokens)
        parts = None if prepared is None else (prepared[0], prepared[2], prepared[1])
        mark = ''
        if parts is None and py2 and (text := converted(path)) is not None:
            parts = parts_of(text)
            mark = '2to3'
        if parts is None:
            unreadable.append(path)
            continue
        counts['files'] += 1
        counts['converted'] += mark == '2to3'
        silenced: list = []
        extra = {'silenced': silenced} if records_silenced else {}
        try:
            found = list(checks.all_reports(*parts, Plugin.regex_functions, **extra))
        except RecursionError:
            print(f'{path}: RecursionError', file=sys.stderr)
            counts['errors'] += 1
            continue
        name, version, relative = located(path, roots)
        for report in found:
            if report.code.startswith(prefixes):
                yield Row(name, version, relative, report.line, report.col + 1, report.code, mark,
                          '', report.message, report.fields.get('finder', ''))
        for item in silenced:
            line, col, escape, exemption = silenced_entry(item)
            code = getattr(item, 'code', None) or silenced_code(codes_of.get(exemption, ()), escape)
            if code.startswith(prefixes):
                yield Row(name, version, relative, line, col + 1, code, mark, exemption, '')


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('paths', nargs='*', default=[sysconfig.get_paths()['stdlib']])
    parser.add_argument('--select', action='append', default=[],
                        help='code prefix to list (repeat it, or separate by commas); default ESC4')
    parser.add_argument('--py2', action='store_true', help='convert files that do not parse with lib2to3')
    parser.add_argument('--tsv', help='also write the reports to this file, a table for survey_diff.py')
    parser.add_argument('--verbose', action='store_true',
                        help='list the files that could not be read, and why')
    args = parser.parse_args()
    prefixes = tuple(p.strip() for item in args.select or ['ESC4'] for p in item.split(',') if p.strip())
    counts: Counter = Counter()
    per_code: Counter = Counter()
    per_exemption: Counter = Counter()
    table = []
    unreadable: list[str] = []
    for row in rows(args.paths, prefixes, args.py2, counts, unreadable):
        table.append(row)
        mark = ' (2to3)' if row.mark else ''
        where = f'{row.package}-{row.version} {row.file}:{row.line}:{row.column}:'
        if row.exemption:
            per_exemption[row.code, row.exemption] += 1
            print(f'{where}{mark} {row.code} [silenced by {row.exemption}]', flush=True)
        else:
            per_code[row.code] += 1
            found_by = f' [found by {row.found_by}]' if row.found_by else ''
            print(f'{where}{mark} {row.message}{found_by}', flush=True)
    if args.tsv:
        with open(args.tsv, 'w', encoding='utf-8') as f:
            f.write('\t'.join(COLUMNS) + '\n')
            for row in table:
                f.write('\t'.join(str(value).replace('\t', ' ') for value in row) + '\n')
    extra = f' ({counts["converted"]} converted by lib2to3)' if args.py2 else ''
    errors = f', {counts["errors"]} not checked (RecursionError)' if counts['errors'] else ''
    print(f'Python {sys.version.split()[0]}: {counts["files"]} files{extra}{errors}, '
          f'reports {dict(sorted(per_code.items()))}')
    if per_exemption:
        listed = ', '.join(f'{code} {name} {n}' for (code, name), n in sorted(per_exemption.items()))
        print(f'silenced: {listed}')
    print_unreadable(unreadable, args.py2, args.verbose)
    return 0


def print_unreadable(unreadable: list[str], py2: bool, verbose: bool) -> None:
    """How many files could not be read; with ``verbose``, each one and the parser's reason."""
    if verbose:
        for path in unreadable:
            print(f'not read: {path}: {why_unreadable(path)}')
    how = ('not Python 3, and lib2to3 could not convert them' if py2
           else 'not Python 3; --py2 converts Python 2')
    listed = '' if verbose or not unreadable else ' (--verbose lists them)'
    print(f'{len(unreadable)} files could not be read ({how}){listed}')


if __name__ == '__main__':
    sys.exit(main())
