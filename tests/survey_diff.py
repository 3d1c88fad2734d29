"""Compare a new survey run with the triaged table, to re-triage only what changed.

    python tests/survey.py --select ESC4,ESC5 --py2 --tsv NEW.tsv DIR
    python tests/survey_diff.py [--select ESC4] NEW.tsv [tests/data/survey_triage.tsv]

A report is the same as a triaged row when package, version, file, line,
column and code agree (the sources do not change between runs).  Prints the
new reports (to triage: add them to the table), the triaged reports that are
gone (a false alarm silenced, or a real hazard missed; with the exemption that
silenced it when the run recorded one), and per code: reports,
true and false among the triaged ones, new ones, and the precision counting
the new ones as unknown (bounds: all false .. all true).  Exits 1 when there
are new reports.  With --select, the run's rows and the triaged rows of other
codes are left out (so a run that also selected ESC3 compares with a table of
ESC4/ESC5 verdicts).  The table holds every report triaged so far, whichever
checker version first made it.
"""
from __future__ import annotations

import argparse
import csv
import os
import sys
from collections import Counter

KEY = ('package', 'version', 'file', 'line', 'column', 'code')
TRIAGE = os.path.join(os.path.dirname(__file__), 'data', 'survey_triage.tsv')


def table(path: str) -> list[dict[str, str]]:
    with open(path, encoding='utf-8', newline='') as f:
        return list(csv.DictReader(f, delimiter='\t', quoting=csv.QUOTE_NONE))


def key(row: dict[str, str]) -> tuple[str, ...]:
    return tuple(row[name] for name in KEY)


def precision(true: int, false: int) -> str:
    return f'{true / (true + false):.3f}' if true + false else '-'


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('new', help='the --tsv output of tests/survey.py')
    parser.add_argument('triage', nargs='?', default=TRIAGE)
    parser.add_argument('--select', action='append', default=[],
                        help='the prefixes the run selected (repeat, or separate by commas); default: all')
    args = parser.parse_args()
    prefixes = tuple(p.strip() for item in args.select or [''] for p in item.split(','))
    run = [row for row in table(args.new) if row['code'].startswith(prefixes)]  # e.g. an ESC3 run's ESC301
    new = [row for row in run if not row.get('exemption')]
    silenced = {key(row): row['exemption'] for row in run if row.get('exemption')}
    triaged = {key(row): row for row in table(args.triage) if row['code'].startswith(prefixes)}
    seen = {key(row) for row in new}
    untriaged = [row for row in new if key(row) not in triaged]
    gone = [row for k, row in triaged.items() if k not in seen]
    for title, rows in (('new (to triage)', untriaged), ('gone', gone)):
        print(f'## {title}: {len(rows)}')
        for row in rows:
            if 'verdict' in row:  # a triaged row: a real one not reported is a hazard missed
                verdict = 'MISSED real' if row['verdict'] == 'real' else 'false'
                what = f'{row["code"]} {verdict}: {row["reason"]}'
            else:
                what = row['message'] + (' (2to3)' if row.get('mark') else '')
            if key(row) in silenced:
                what += f' [silenced by {silenced[key(row)]}]'
            print(f'{row["package"]}-{row["version"]} {row["file"]}:{row["line"]}:{row["column"]}: {what}')
    counts: Counter = Counter()
    for row in new:
        verdict = triaged[key(row)]['verdict'] if key(row) in triaged else 'new'
        counts[row['code'], verdict] += 1
    print('## per code: reports, true, false, new, precision (new counted false .. true)')
    for code in sorted({code for code, _ in counts} | {row['code'] for row in triaged.values()}):
        true, false, fresh = (counts[code, v] for v in ('real', 'false', 'new'))
        print(f'{code}: {true + false + fresh} reports, {true} true, {false} false, {fresh} new, '
              f'precision {precision(true, false + fresh)} .. {precision(true + fresh, false)}')
    by_exemption = Counter((k[5], name) for k, name in silenced.items())
    if by_exemption:
        print('## silenced candidates per exemption: ' + ', '.join(
            f'{code} {name} {n}' for (code, name), n in sorted(by_exemption.items())))
    return 1 if untriaged else 0


if __name__ == '__main__':
    sys.exit(main())
