"""Draw the projects of the paths (issue 22) and science (issue 23) blind surveys by a seeded draw.

    python tests/pick_surveys.py paths PYPI_TSV > tests/data/survey_paths.txt
    python tests/pick_surveys.py science PYPI_TSV > tests/data/survey_science.txt
    python tests/pick_surveys.py paths2 PYPI_TSV > tests/data/survey_paths2.txt
    python tests/pick_surveys.py science2 PYPI_TSV > tests/data/survey_science2.txt
    python tests/pick_surveys.py science3 PYPI_TSV > tests/data/survey_science3.txt
    python tests/pick_surveys.py science4 PYPI_TSV > tests/data/survey_science4.txt

The method of tests/pick_blind.py (which made survey_blind.txt, and is left
as it was): PYPI_TSV is a list of PyPI's packages made on one day (header
line; columns name, version, month, rank_among_15000_most_downloaded,
summary).  The draw reads names, months and summaries only, never code, so it
cannot favour what the checker gets right or wrong.  Only unranked projects
are drawn (none of the 15,000 most downloaded: they are few, large, and
linted already).  A survey is a list of groups, each a summary pattern and an
era of the listed month (old or current); the groups are drawn in order with
one ``random.Random(SEED)``, each leaving out the names drawn before it, and
every draw leaves out every project of the earlier survey lists (names
normalised as PyPI does).  The science survey also leaves out the names of
survey_paths.txt.  The output is a list for tests/fetch_releases.py: the
last release uploaded before BEFORE, with the seed and the rule in its header.
"""
from __future__ import annotations

import csv
import os
import random
import re
import sys
from typing import NamedTuple

BEFORE = '2026-12-01'
EARLIER = ('survey_releases.txt', 'survey_unseen.txt', 'survey_holdout.txt', 'survey_blind.txt')


class Group(NamedTuple):
    """Draw ``size`` unranked projects whose summary matches ``pattern`` and whose listed month
    is in [``since``, ``until``) (months compare as 'YYYY-MM' text; '' is open)."""

    title: str
    pattern: re.Pattern[str]
    since: str
    until: str
    size: int


class Survey(NamedTuple):
    """One survey's seed, what it is for, the lists it must not overlap, and its groups."""

    issue: str
    seed: int
    excluded: tuple[str, ...]
    groups: tuple[Group, ...]


def words(*alternatives: str) -> re.Pattern[str]:
    """A case-blind pattern matching any of ``alternatives`` as whole words."""
    return re.compile(r'\b(' + '|'.join(alternatives) + r')\b', re.IGNORECASE)


WINDOWS = words('windows', 'win32', 'win64', 'excel', 'xlsx?')
DATA = words('csv', 'pandas', 'dataframes?', 'data analysis', 'machine learning', 'images?', 'opencv')
SCRIPTING = words('scripts?', 'scripting', 'automation', 'automate', 'batch', 'folders?', 'files?')
PATHS_OLD = '2016'  # listed before 2016: old code, where Windows paths were written by hand

PLOTTING = words('matplotlib', 'plots?', 'plotting', 'visuali[sz]ations?')
ASTRONOMY = words('astronomy', 'astronomical', 'astrophysics', 'astrophysical', 'astropy', 'telescopes?',
                  'cosmology', 'cosmological')
PHYSICS = words('physics', 'quantum', 'particles?', 'optics', 'mechanics', 'thermodynamics')
STATISTICS = words('statistics', 'statistical', 'bayesian', 'regression', 'probability', 'stochastic')
TEACHING = words('course', 'courses', 'lectures?', 'tutorials?', 'notebooks?', 'teaching', 'homework',
                 'exercises')
MATH = words('latex', 'equations?', 'symbolic', 'sympy', 'mathematical', 'calculus', 'algebra')
SCIENCE_OLD = ('2010', '2019')  # listed 2010-2018

SURVEYS = {
    'paths': Survey('Paths survey (issue 22, ESC501)', 20261204, EARLIER, (
        Group('Windows, win32 or Excel, listed before 2016', WINDOWS, '', PATHS_OLD, 60),
        Group('Windows, win32 or Excel, listed since 2016', WINDOWS, PATHS_OLD, '', 60),
        Group('CSV, pandas, dataframes, data analysis, machine learning, images or OpenCV, '
              'listed before 2016', DATA, '', PATHS_OLD, 50),
        Group('CSV, pandas, dataframes, data analysis, machine learning, images or OpenCV, '
              'listed since 2016', DATA, PATHS_OLD, '', 50),
        Group('scripts, automation, batch, folders or files, listed before 2016',
              SCRIPTING, '', PATHS_OLD, 50),
        Group('scripts, automation, batch, folders or files, listed since 2016',
              SCRIPTING, PATHS_OLD, '', 50),
    )),
    'science': Survey('Science survey (issue 23, ESC6xx)', 20261205, EARLIER + ('survey_paths.txt',), tuple(
        Group(f'{what}, listed {era}', pattern, since, until, 28)
        for what, pattern in (('matplotlib, plots, plotting or visualisation', PLOTTING),
                              ('astronomy, astrophysics, astropy, telescopes or cosmology', ASTRONOMY),
                              ('physics, quantum, particles, optics, mechanics or thermodynamics', PHYSICS),
                              ('statistics, Bayesian, regression, probability or stochastic', STATISTICS),
                              ('courses, lectures, tutorials, notebooks, teaching, homework or exercises',
                               TEACHING),
                              ('LaTeX, equations, symbolic, SymPy, mathematical, calculus or algebra', MATH))
        for era, since, until in (('2010-2018', *SCIENCE_OLD), ('since 2019', SCIENCE_OLD[1], '')))),
}
# Held-out draws, made after the finders of issue 22 and the codes of issue 23 were written and before
# their final run: the same groups with new seeds, leaving out every earlier list (and each other).
# The first paths survey drew every old Windows project there was but 22, so the other groups draw 60.
SURVEYS['paths2'] = SURVEYS['paths']._replace(
    issue='Held-out paths survey (issue 22, ESC501)', seed=20261206,
    excluded=EARLIER + ('survey_paths.txt', 'survey_science.txt'),
    groups=tuple(group._replace(size=60) for group in SURVEYS['paths'].groups))
SURVEYS['science2'] = SURVEYS['science']._replace(
    issue='Held-out science survey (issue 23, ESC6xx)', seed=20261207,
    excluded=EARLIER + ('survey_paths.txt', 'survey_science.txt', 'survey_paths2.txt'))
# Issue 30's recall surveys, both drawn (and committed) before any run of the recall finder or the
# checker on them: science3 to measure recall first and tune on, science4 held out and run once
# with the final rules.  The science groups, new seeds, every earlier list left out (and each other).
SURVEYS['science3'] = SURVEYS['science']._replace(
    issue='Recall survey (issue 30, ESC601/ESC602)', seed=20261208,
    excluded=EARLIER + ('survey_paths.txt', 'survey_science.txt', 'survey_paths2.txt', 'survey_science2.txt'))
SURVEYS['science4'] = SURVEYS['science']._replace(
    issue='Held-out recall survey (issue 30, ESC601/ESC602)', seed=20261209,
    excluded=SURVEYS['science3'].excluded + ('survey_science3.txt',))


def normalised(name: str) -> str:
    return re.sub(r'[-_.]+', '-', name).lower()


def listed_names(listings: tuple[str, ...]) -> set[str]:
    """The normalised project names of the survey lists in tests/data."""
    names = set()
    for listing in listings:
        with open(os.path.join(os.path.dirname(__file__), 'data', listing), encoding='utf-8') as f:
            for line in f:
                line = line.split('#', 1)[0].strip()
                if line and not line.startswith('before '):
                    names.update(normalised(name) for name in line.split())
    return names


def candidates(pypi_tsv: str, survey: Survey) -> list[list[str]]:
    """Per group, the sorted names it may draw from (before leaving out earlier groups' picks)."""
    seen = listed_names(survey.excluded)
    pools: list[list[str]] = [[] for _ in survey.groups]
    with open(pypi_tsv, encoding='utf-8', newline='') as f:
        for row in csv.DictReader(f, delimiter='\t', quoting=csv.QUOTE_NONE):
            name, month, summary = row['name'], row['month'] or '', row['summary'] or ''
            if row['rank_among_15000_most_downloaded'] or normalised(name) in seen or not month:
                continue
            for pool, group in zip(pools, survey.groups):
                if group.since <= month and (not group.until or month < group.until) \
                        and group.pattern.search(summary):
                    pool.append(name)
    return [sorted(set(pool)) for pool in pools]


def main() -> int:
    survey = SURVEYS[sys.argv[1]]
    draw = random.Random(survey.seed)
    picked: set[str] = set()
    print(f'# {survey.issue}: drawn by tests/pick_surveys.py {sys.argv[1]} (seed {survey.seed}) from a')
    print('# list of PyPI packages (names, months and summaries only), unranked projects, none in')
    print(f'# {", ".join(survey.excluded)}.  Groups drawn in order, each without the')
    print('# names drawn before it (summary words matched whole, case-blind).  Not edited after the draw.')
    print(f'before {BEFORE}')
    for group, pool in zip(survey.groups, candidates(sys.argv[2], survey)):
        pool = [name for name in pool if name not in picked]
        chosen = sorted(draw.sample(pool, min(group.size, len(pool))), key=str.lower)
        picked.update(chosen)
        print(f'# {len(chosen)} of {len(pool)} whose summary names {group.title}')
        for start in range(0, len(chosen), 8):
            print(' '.join(chosen[start:start + 8]))
    return 0


if __name__ == '__main__':
    sys.exit(main())
