"""Join a recall survey's candidates (tests/recall_finder.py) with a checker's run (tests/survey.py --tsv).

    python tests/recall_join.py CANDIDATES RUN --run-name first [--output FILE]

Writes the candidates' table with two columns for the run: ``reported_NAME`` (``yes`` when the run
reported the candidate's code at its file, line and column, else ``no``) and ``silenced_NAME`` (the
named exemption that kept it quiet, if the run lists one there); ``label`` and ``note`` columns are
added when missing and kept when present (an existing ``reported_NAME`` is replaced).  Then prints
the run's reports that are not among the candidates (the finder's rules do not reach them: read them
for precision), and the counts.  When labels are filled in (``hazard`` or ``meant``), prints per code
recall (hazards reported / hazards) and precision among the candidates (reported hazards / reported
candidates).
"""
from __future__ import annotations

import argparse
import csv
import sys
from collections import Counter

KEY = ('package', 'version', 'file', 'line', 'column')
#: The columns that follow the finder's own, before its last one (the source line).
ADDED = ('label', 'note')


def read_table(path: str) -> tuple[list[str], list[dict[str, str]]]:
    with open(path, encoding='utf-8', newline='') as f:
        reader = csv.DictReader(f, delimiter='\t', quoting=csv.QUOTE_NONE)
        return list(reader.fieldnames or ()), list(reader)


def key_of(row: dict[str, str], code: str) -> tuple[str, ...]:
    return (*(row[name] for name in KEY), code)


def joined(columns: list[str], candidates: list[dict[str, str]], run: list[dict[str, str]],
           name: str) -> tuple[list[str], list[dict[str, str]]]:
    """The candidates' columns and rows with the run's columns set."""
    reported = {key_of(row, row['code']) for row in run if not row.get('exemption')}
    silenced = {key_of(row, row['code']): row['exemption'] for row in run if row.get('exemption')}
    source_last = [c for c in columns if c != 'source']
    for column in (f'reported_{name}', f'silenced_{name}', *ADDED):
        if column not in source_last:
            source_last.append(column)
    for row in candidates:
        key = key_of(row, row['kind'])
        row[f'reported_{name}'] = 'yes' if key in reported else 'no'
        row[f'silenced_{name}'] = silenced.get(key, '')
        for column in ADDED:
            row.setdefault(column, '')
    return source_last + ['source'], candidates


def not_candidates(candidates: list[dict[str, str]], run: list[dict[str, str]]) -> list[dict[str, str]]:
    """The run's reports whose place and code no candidate has."""
    listed = {key_of(row, row['kind']) for row in candidates}
    return [row for row in run if not row.get('exemption') and key_of(row, row['code']) not in listed]


def scores(rows: list[dict[str, str]], name: str) -> dict[str, tuple[int, int, int, int]]:
    """Per kind: (hazards, hazards reported, candidates reported, reported and labelled hazard)."""
    found: dict[str, Counter] = {}
    for row in rows:
        counts = found.setdefault(row['kind'], Counter())
        hazard, reported = row.get('label') == 'hazard', row[f'reported_{name}'] == 'yes'
        counts['hazards'] += hazard
        counts['hazards reported'] += hazard and reported
        counts['reported'] += reported and row.get('label') in ('hazard', 'meant')
    return {kind: (c['hazards'], c['hazards reported'], c['reported'], c['hazards reported'])
            for kind, c in sorted(found.items())}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('candidates')
    parser.add_argument('run')
    parser.add_argument('--run-name', default='first', help='names the columns: reported_NAME, silenced_NAME')
    parser.add_argument('--output', help='where to write the joined table (default: CANDIDATES itself)')
    args = parser.parse_args(argv)
    columns, candidates = read_table(args.candidates)
    _, run = read_table(args.run)
    columns, rows = joined(columns, candidates, run, args.run_name)
    with open(args.output or args.candidates, 'w', encoding='utf-8', newline='') as f:
        f.write('\t'.join(columns) + '\n')
        for row in rows:
            f.write('\t'.join(row.get(column, '') for column in columns) + '\n')
    missed = not_candidates(candidates, run)
    for row in missed:
        print('not a candidate:', '\t'.join(row[c] for c in (*KEY, 'code', 'mark', 'message')))
    per_code = Counter(row['code'] for row in run if not row.get('exemption'))
    per_kind = Counter(row['kind'] for row in rows)
    reported = Counter(row['kind'] for row in rows if row[f'reported_{args.run_name}'] == 'yes')
    missed_codes = Counter(row['code'] for row in missed)
    print(f'candidates {dict(sorted(per_kind.items()))},'
          f' reported by the run {dict(sorted(reported.items()))};'
          f' the run reports {dict(sorted(per_code.items()))},'
          f' {len(missed)} not among the candidates {dict(sorted(missed_codes.items()))}')
    for kind, (hazards, hit, flagged, right) in scores(rows, args.run_name).items():
        if hazards or flagged:
            recall = f'{hit / hazards:.2f}' if hazards else '-'
            precision = f'{right / flagged:.2f}' if flagged else '-'
            print(f'{kind}: recall {recall} ({hit}/{hazards} hazards reported),'
                  f' precision among labelled candidates {precision} ({right}/{flagged})')
    return 0


if __name__ == '__main__':
    sys.exit(main())
