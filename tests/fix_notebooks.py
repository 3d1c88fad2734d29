"""``fix`` and ``fix --unsafe`` on real notebooks, each in a copy, verified from outside the fixer.

    python tests/fix_notebooks.py DIR [--count 50] [--seed 39] [--verbose]

Takes ``--count`` notebooks under DIR whose code cells hold a backslash: every one ``check`` reports
(where a fix can happen), then others drawn by seed; and for each mode (safe, ``--unsafe``), on a
fresh copy:

- the bytes: the JSON text has the same lines; the lines that differ are exactly the changed source
  lines of code cells (counted from the JSON: one line per changed item of a source list, one per
  changed cell whose source is one string); the parsed JSON is equal but for code cells' sources;
- nbformat (when installed) reads the fixed notebook, and ``nbformat.validate`` passes whenever it
  passed on the original;
- ``check`` on the fixed copy: no report of the codes fixed but those ``fix`` said it left alone
  (same cell, row and code) or in a cell that does not parse (E999);
- a second ``fix`` changes nothing.

``--inject``: real notebooks rarely hold a bad escape, so this mode draws ``--count`` notebooks by seed
among all, writes ``\\d`` after the opening quote of every plain one-line str literal of the code cells
(CPython's tokenizer finds them; the notebook's own JSON text is edited there), and verifies the
fixes of those copies the same way: the real JSON styles, outputs and metadata around them.

Prints one line per failure and the counts; exits 1 when any check failed.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import tokenize
import warnings

from flake8_escapes import notebook

SAFE = ('ESC301', 'ESC302', 'ESC303')
PLACE = re.compile(r'^(?P<name>.*?):cell (?P<cell>\d+):(?P<row>\d+):(?P<col>\d+): (?P<code>[A-Z]+\d+)')


def notebooks(folder: str) -> list[str]:
    found = []
    for root, dirs, names in os.walk(folder):
        dirs.sort()
        found += [os.path.join(root, name) for name in sorted(names) if name.endswith('.ipynb')]
    return found


def has_backslash_in_code(path: str) -> bool:
    try:
        with open(path, encoding='utf-8') as f:
            data = json.load(f)
        return any(cell.get('cell_type') == 'code' and '\\' in ''.join(cell.get('source', ''))
                   for cell in data.get('cells', []))
    except (ValueError, OSError, AttributeError, TypeError):
        return False


def run(*args: str, cwd: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, '-m', 'flake8_escapes', *args], cwd=cwd, capture_output=True,
                          text=True, timeout=600)


def source_lines_changed(before: dict, after: dict) -> int:  # type: ignore[type-arg]
    """The JSON lines a splice of the changed source items should touch (nbformat's layout)."""
    count = 0
    for was, now in zip(before['cells'], after['cells']):
        if was.get('cell_type') != 'code' or was['source'] == now['source']:
            continue
        if isinstance(was['source'], str):
            count += 1
        else:
            count += sum(a != b for a, b in zip(was['source'], now['source']))
    return count


def without_sources(data: dict) -> dict:  # type: ignore[type-arg]
    copy = json.loads(json.dumps(data))
    for cell in copy['cells']:
        if cell.get('cell_type') == 'code':
            cell['source'] = None
    return copy


def validates(path: str) -> bool | None:
    try:
        import nbformat
    except ImportError:
        return None
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        try:
            with open(path, encoding='utf-8') as f:
                nbformat.validate(nbformat.read(f, as_version=4))
            return True
        except Exception:
            return False


def verify(path: str, unsafe: bool, folder: str) -> tuple[list[str], dict[str, int]]:
    """The failures of one notebook in one mode, and its counts."""
    copy = os.path.join(folder, 'nb.ipynb')
    shutil.copyfile(path, copy)
    with open(copy, 'rb') as f:
        before = f.read()
    mode = ['--unsafe'] if unsafe else []
    fixed = run('fix', *mode, 'nb.ipynb', cwd=folder)
    with open(copy, 'rb') as f:
        after = f.read()
    failures, counts = [], {'fixed': int(after != before), 'lines': 0, 'left alone': 0}
    if 'Traceback' in fixed.stderr or fixed.returncode not in (0, 1):
        return [f'fix exit {fixed.returncode}: {fixed.stderr.strip()[-300:]}'], counts
    old_lines, new_lines = before.split(b'\n'), after.split(b'\n')
    if len(old_lines) != len(new_lines):
        return ['the JSON text has another number of lines'], counts
    differing = sum(a != b for a, b in zip(old_lines, new_lines))
    counts['lines'] = differing
    old, new = json.loads(before), json.loads(after)
    if without_sources(old) != without_sources(new):
        failures.append('the JSON differs outside code cells\' sources')
    if differing != source_lines_changed(old, new):
        failures.append(f'{differing} JSON lines differ, '
                        f'{source_lines_changed(old, new)} source lines changed')
    if after != before and validates(copy) is False and validates(path) is not False:
        failures.append('nbformat does not validate the fixed notebook')
    left = {m.group('cell', 'row', 'code') for m in map(PLACE.match, fixed.stderr.splitlines())
            if m and ' left alone: ' in m.string}
    counts['left alone'] = len(left)
    skipped = {m.group(1) for m in re.finditer(r':cell (\d+): skipped, does not parse', fixed.stderr)}
    codes = 'ESC' if unsafe else ','.join(SAFE)
    checked = run('check', f'--select={codes}', 'nb.ipynb', cwd=folder)
    for line in checked.stdout.splitlines():
        match = PLACE.match(line)
        if match and match.group('cell', 'row', 'code') not in left and match.group('cell') not in skipped:
            failures.append(f'still reported after fix: {line}')
    again = run('fix', *mode, 'nb.ipynb', cwd=folder)
    with open(copy, 'rb') as f:
        if f.read() != after or again.returncode != 0:
            failures.append(f'a second fix changed something (exit {again.returncode})')
    return failures, counts


def injected(raw: str) -> tuple[str, int]:
    """``raw`` with ``\\d`` written after the opening quote of the first plain one-line str literal
    of each code cell, and how many were written."""
    book = notebook.Notebook(raw)
    lines = list(book.masked)
    count = 0
    for cell in book.cells:
        first = cell.first - 1
        try:
            with warnings.catch_warnings():
                warnings.simplefilter('ignore')
                tokens = list(tokenize.generate_tokens(iter(lines[first:first + len(cell.lines)]).__next__))
        except (SyntaxError, tokenize.TokenError, StopIteration):
            continue
        places = [(first + token.start[0] - 1, token.start[1] + 1) for token in tokens
                  if token.type == tokenize.STRING and token.start[0] == token.end[0]
                  and token.string[0] in '\'"' and not token.string.startswith(('"""', "'''"))]
        for row, col in sorted(places, reverse=True):  # right to left: the columns before stay
            lines[row] = lines[row][:col] + '\\d' + lines[row][col:]
        count += len(places)
    return book.spliced(''.join(lines)), count


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('folder')
    parser.add_argument('--count', type=int, default=50)
    parser.add_argument('--seed', type=int, default=39)
    parser.add_argument('--verbose', action='store_true')
    parser.add_argument('--inject', action='store_true', help='write a bad escape into each code cell first')
    args = parser.parse_args()
    every = notebooks(args.folder)
    if args.inject:
        return injected_runs(args, every)
    candidates = [path for path in every if has_backslash_in_code(path)]
    reported = sorted(path for path in candidates
                      if run('check', '--select=ESC', os.path.abspath(path), cwd=args.folder).stdout)
    others = [path for path in candidates if path not in reported]
    drawn = random.Random(args.seed).sample(others, max(0, min(args.count - len(reported), len(others))))
    chosen = sorted(reported[:args.count] + drawn)
    print(f'{len(every)} notebooks, {len(candidates)} with a backslash in a code cell, {len(reported)} '
          f'reported by check; {len(chosen)} taken: those and {len(drawn)} drawn (seed {args.seed})')
    failed = 0
    for unsafe in (False, True):
        totals = {'fixed': 0, 'lines': 0, 'left alone': 0}
        for path in chosen:
            with tempfile.TemporaryDirectory() as folder:
                failures, counts = verify(path, unsafe, folder)
            for key in totals:
                totals[key] += counts[key]
            failed += bool(failures)
            for failure in failures:
                print(f'{os.path.relpath(path, args.folder)} ({"unsafe" if unsafe else "safe"}): {failure}')
            if args.verbose:
                print(f'  {os.path.relpath(path, args.folder)}: {counts}')
        print(f'fix{" --unsafe" if unsafe else ""}: {totals["fixed"]} notebooks changed, '
              f'{totals["lines"]} JSON lines changed, {totals["left alone"]} fixes left alone')
    print(f'{failed} notebook runs failed a check')
    return 1 if failed else 0


def injected_runs(args: argparse.Namespace, every: list[str]) -> int:
    chosen = sorted(random.Random(args.seed).sample(every, min(args.count, len(every))))
    failed = written = 0
    totals = {mode: {'fixed': 0, 'lines': 0, 'left alone': 0} for mode in (False, True)}
    with tempfile.TemporaryDirectory() as work:
        for number, path in enumerate(chosen):
            try:
                with open(path, encoding='utf-8') as f:
                    raw, count = injected(f.read())
            except (ValueError, notebook.Unreadable):
                print(f'{os.path.relpath(path, args.folder)}: not read')
                continue
            written += count
            source = os.path.join(work, f'{number}.ipynb')
            with open(source, 'w', encoding='utf-8', newline='') as f:
                f.write(raw)
            for unsafe in (False, True):
                with tempfile.TemporaryDirectory() as folder:
                    failures, counts = verify(source, unsafe, folder)
                for key in counts:
                    totals[unsafe][key] += counts[key]
                failed += bool(failures)
                for failure in failures:
                    mode = 'unsafe' if unsafe else 'safe'
                    print(f'{os.path.relpath(path, args.folder)} ({mode}): {failure}')
    print(f'{len(chosen)} notebooks drawn (seed {args.seed}) of {len(every)}, {written} bad escapes written')
    for unsafe in (False, True):
        total = totals[unsafe]
        print(f'fix{" --unsafe" if unsafe else ""}: {total["fixed"]} notebooks changed, '
              f'{total["lines"]} JSON lines changed, {total["left alone"]} fixes left alone')
    print(f'{failed} notebook runs failed a check')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
