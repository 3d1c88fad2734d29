"""Draw the projects and notebooks of the notebook survey (issue 39), by seed.

    python tests/pick_notebooks.py order [--holdout]        # the drawn order of the population
    python tests/pick_notebooks.py select MIRRORS [--holdout] [--unpack DIR]

The population is tests/data/survey_notebooks_population.txt: public GitHub repositories whose name
holds "notebooks", "jupyter", "physics" or "lecture", as a search index listed them (names only: the
draw never looks at code, so it cannot favour what the checker already gets right).  Rules:

- ``order`` shuffles the population (duplicates dropped, first place kept) with
  ``random.Random(SEED)``; the held-out draw shuffles it with ``random.Random(HOLDOUT_SEED)``
  and leaves out every repository the first draw looked at (kept or not).
- ``select`` walks that order over the repositories' newest stored snapshots, MIRRORS/<owner>+<name>/repo
  (bare git directories; fetched by hand, in the drawn order), and keeps a repository whose HEAD holds
  at least one *usable* notebook: a ``.ipynb`` file that is JSON, ``nbformat`` 4, has a code cell, and
  whose kernel language (``metadata.kernelspec.language`` or ``metadata.language_info.name``) is
  Python or not given.  It stops at the first repository not fetched, and after KEEP (HOLDOUT_KEEP)
  repositories are kept.  A repository with no snapshot to be had here (none stored, or over 500 MB) is
  named with ``--unfetchable`` and written as a comment line, skipped.
- Of a kept repository at most PER_PROJECT usable notebooks are taken, drawn with
  ``random.Random(f'{SEED}:{repo}')`` among their sorted paths (all of them when there are fewer).

The output list has one line per kept repository: ``repo commit path ...`` (paths with no spaces are
the rule here; a path with a space is written with %20).  ``--unpack DIR`` writes each taken
notebook to DIR/<owner>+<name>/<path> for the survey to run on (machine-local, not committed).
"""
from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys

SEED = 20261207
HOLDOUT_SEED = 39_2026_1207
KEEP = 40
HOLDOUT_KEEP = 15
PER_PROJECT = 12
HERE = os.path.dirname(os.path.abspath(__file__))
POPULATION = os.path.join(HERE, 'data', 'survey_notebooks_population.txt')
PYTHON_NAMES = ('python', 'python3', 'ipython', 'ipython3')


def population() -> list[str]:
    with open(POPULATION, encoding='utf-8') as f:
        names = [line.strip() for line in f if line.strip() and not line.startswith('#')]
    return list(dict.fromkeys(names))


def order(seed: int, leave_out: set[str] = frozenset()) -> list[str]:  # type: ignore[assignment]
    names = [name for name in population() if name not in leave_out]
    random.Random(seed).shuffle(names)
    return names


def git(mirror: str, *args: str) -> bytes:
    return subprocess.run(['git', '--git-dir', mirror, *args], check=True, capture_output=True).stdout


def usable(text: bytes) -> bool:
    try:
        notebook = json.loads(text)
    except ValueError:
        return False
    if not isinstance(notebook, dict) or notebook.get('nbformat') != 4:
        return False
    metadata = notebook.get('metadata') or {}
    language = ((metadata.get('kernelspec') or {}).get('language')
                or (metadata.get('language_info') or {}).get('name') or 'python')
    cells = notebook.get('cells') or []
    return (str(language).lower() in PYTHON_NAMES
            and any(isinstance(c, dict) and c.get('cell_type') == 'code' for c in cells))


def notebooks(mirror: str) -> tuple[str, list[str]]:
    commit = git(mirror, 'rev-parse', 'HEAD').decode().strip()
    listing = git(mirror, 'ls-tree', '-r', '-z', 'HEAD').split(b'\0')
    paths = []
    for entry in listing:
        if not entry:
            continue
        meta, path = entry.split(b'\t', 1)
        if path.endswith(b'.ipynb') and meta.split()[1] == b'blob':
            paths.append((path.decode('utf-8', 'replace'), meta.split()[2].decode()))
    found = []
    for path, blob in sorted(paths):
        try:
            text = git(mirror, 'cat-file', 'blob', blob)
        except subprocess.CalledProcessError:  # a large file listed but absent from the snapshot
            continue
        if usable(text):
            found.append(path)
    return commit, found


def select(mirrors: str, names: list[str], keep: int, seed: int, unpack: str | None,
           unfetchable: set[str]) -> list[str]:
    lines = []
    for name in names:
        if name in unfetchable:
            lines.append(f'# {name}: no snapshot could be brought here, skipped')
            continue
        mirror = os.path.join(mirrors, name.replace('/', '+'), 'repo')
        if os.path.isdir(os.path.join(mirror, '.git')):
            mirror = os.path.join(mirror, '.git')
        if not os.path.isdir(mirror):
            print(f'stopped at {name}: not fetched', file=sys.stderr)
            break
        commit, found = notebooks(mirror)
        if not found:
            print(f'{name}: no usable notebook', file=sys.stderr)
            continue
        taken = sorted(random.Random(f'{seed}:{name}').sample(found, min(PER_PROJECT, len(found))))
        lines.append(' '.join([name, commit] + [p.replace(' ', '%20') for p in taken]))
        print(f'{name}: {len(taken)} of {len(found)} notebooks', file=sys.stderr)
        if unpack:
            for path in taken:
                target = os.path.join(unpack, name.replace('/', '+'), path)
                os.makedirs(os.path.dirname(target), exist_ok=True)
                with open(target, 'wb') as f:
                    f.write(git(mirror, 'show', f'{commit}:{path}'))
        if sum(not line.startswith('#') for line in lines) == keep:
            break
    return lines


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument('action', choices=('order', 'select'))
    parser.add_argument('mirrors', nargs='?')
    parser.add_argument('--holdout', action='store_true')
    parser.add_argument('--first-looked', type=int, default=0,
                        help='with --holdout: how many of the first order the first draw looked at')
    parser.add_argument('--unpack')
    parser.add_argument('--unfetchable', default='',
                        help='comma-separated repositories whose snapshot could not be brought here')
    args = parser.parse_args()
    names = order(SEED)
    seed, keep = SEED, KEEP
    if args.holdout:
        names = order(HOLDOUT_SEED, set(names[:args.first_looked]))
        seed, keep = HOLDOUT_SEED, HOLDOUT_KEEP
    if args.action == 'order':
        print('\n'.join(names))
        return 0
    print('\n'.join(select(args.mirrors, names, keep, seed, args.unpack,
                           set(filter(None, args.unfetchable.split(','))))))
    return 0


if __name__ == '__main__':
    sys.exit(main())
