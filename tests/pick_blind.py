"""Pick the projects of a blind survey from a list of PyPI's packages, by a seeded draw.

    python tests/pick_blind.py PYPI_TSV > tests/data/survey_blind.txt

PYPI_TSV has a header line and the columns name, version, month,
rank_among_15000_most_downloaded, summary (a list of PyPI's packages made
on one day; this machine has one in its package lists).  The draw looks at
names and summaries only, never at code: it cannot favour what the plugin
already gets right.  Two groups, both drawn with ``random.Random(SEED)``:

- KEYWORD_DRAW projects whose summary names Windows, Excel, folders, files,
  paths, renaming or regular expressions (where the hazards live), and
- RANKED_DRAW projects among the 15,000 most downloaded, and, drawn after
  the first two gave no report at all (7,506 files),
- OLD_DRAW more of the first kind whose listed release is older than
  OLD_BEFORE (old code, where Windows paths were written by hand), without
  those KEYWORD_DRAW picked and without "files" as the only keyword, and,
  drawn after that one gave no report either (1,827 files),
- TEXT_DRAW projects listed before OLD_BEFORE whose summary names text,
  parsing, strings, templates, markup or scraping (regex-heavy code), none
  drawn before,

leaving out every project of the earlier survey lists (names normalised as
PyPI does).  The output is a list for tests/fetch_releases.py: the last
release uploaded before BEFORE.
"""
from __future__ import annotations

import csv
import random
import re
import sys

from pick_surveys import listed_names, normalised

SEED = 20261203
KEYWORD_DRAW = 220
RANKED_DRAW = 60
OLD_DRAW = 250
OLD_BEFORE = '2015'
TEXT_DRAW = 400
TEXT_KEYWORDS = re.compile(r'\b(text|parse|parser|parsing|strings?|templates?|markdown|wiki|html|'
                           r'scrape|scraper|scraping)\b', re.IGNORECASE)
OLD_KEYWORDS = re.compile(r'\b(windows|win32|excel|xlsx|folders?|director(y|ies)|paths?|rename|'
                          r'regex|regexp|regular expressions?)\b', re.IGNORECASE)
BEFORE = '2026-12-01'
KEYWORDS = re.compile(r'\b(windows|win32|excel|xlsx|folders?|director(y|ies)|files?|paths?|rename|'
                      r'regex|regexp|regular expressions?)\b', re.IGNORECASE)
EARLIER = ('survey_releases.txt', 'survey_unseen.txt', 'survey_holdout.txt')


def earlier_names() -> set[str]:
    return listed_names(EARLIER)


def main() -> int:
    seen = earlier_names()
    keyword, ranked, old, text = [], [], [], []
    with open(sys.argv[1], encoding='utf-8', newline='') as f:
        for row in csv.DictReader(f, delimiter='\t', quoting=csv.QUOTE_NONE):
            name = row['name']
            if normalised(name) in seen:
                continue
            if row['rank_among_15000_most_downloaded']:
                ranked.append(name)
                continue
            if row['month'] < OLD_BEFORE and TEXT_KEYWORDS.search(row['summary'] or ''):
                text.append(name)
            if KEYWORDS.search(row['summary'] or ''):
                keyword.append(name)
                if row['month'] < OLD_BEFORE and OLD_KEYWORDS.search(row['summary'] or ''):
                    old.append(name)
    draw = random.Random(SEED)
    picked_keyword = sorted(draw.sample(sorted(keyword), KEYWORD_DRAW), key=str.lower)
    picked_ranked = sorted(draw.sample(sorted(ranked), RANKED_DRAW), key=str.lower)
    old = sorted(set(old) - set(picked_keyword))
    picked_old = sorted(draw.sample(old, min(OLD_DRAW, len(old))), key=str.lower)
    text = sorted(set(text) - set(picked_keyword) - set(picked_old))
    picked_text = sorted(draw.sample(text, min(TEXT_DRAW, len(text))), key=str.lower)
    print(f'# Blind survey (issue 12): drawn by tests/pick_blind.py (seed {SEED}) from a list of')
    print(f'# PyPI packages: {KEYWORD_DRAW} of {len(keyword)} unranked projects whose summary names')
    print(f'# Windows, files, paths or regexes, then {RANKED_DRAW} of {len(ranked)} among the 15,000 most')
    print('# downloaded; none in the earlier survey lists.  Not edited after the draw.')
    print(f'before {BEFORE}')
    for group in (picked_keyword, picked_ranked):
        for start in range(0, len(group), 8):
            print(' '.join(group[start:start + 8]))
    print(f'# Second draw, after the first gave no report: {len(picked_old)} of {len(old)} unranked')
    print(f'# projects listed before {OLD_BEFORE} whose summary names Windows, paths or regexes.')
    for start in range(0, len(picked_old), 8):
        print(' '.join(picked_old[start:start + 8]))
    print(f'# Third draw, after the second gave no report: {len(picked_text)} of {len(text)} unranked')
    print(f'# projects listed before {OLD_BEFORE} whose summary names text, parsing, strings, templates,')
    print('# markup or scraping, none drawn before.')
    for start in range(0, len(picked_text), 8):
        print(' '.join(picked_text[start:start + 8]))
    return 0


if __name__ == '__main__':
    sys.exit(main())
