"""Join the notebook survey's labelled candidates (tests/recall_notebooks.py) with a run of `check`.

    flake8-escapes check --format json-lines ROOT > RUN.jsonl
    python tests/recall_notebooks_join.py CANDIDATES RUN.jsonl --root ROOT --run-name first [--output FILE]

RUN.jsonl has one report a line (path, line, column, code, message, cell); a path is
ROOT/<owner>+<name>/<notebook>.  The candidates' table gets a column ``reported_NAME``: the codes the
run reported at the candidate's notebook, cell, row and column (``no`` when none).  Printed: per
family (the code the label names; ``-`` for a hazard no code claims) the hazards found and reported
(recall), then every report that is not at a candidate (to be read for precision), and the counts of
reports at hazards and at look-alikes.
"""
from __future__ import annotations

import argparse
import csv
import json
import os
import sys
from collections import Counter, defaultdict

Key = tuple[str, str, int, int, int]


def read_table(path: str) -> tuple[list[str], list[dict[str, str]]]:
    with open(path, encoding='utf-8', newline='') as f:
        reader = csv.DictReader(f, delimiter='\t', quoting=csv.QUOTE_NONE)
        return list(reader.fieldnames or ()), list(reader)


def candidate_key(row: dict[str, str]) -> Key:
    return row['project'], row['notebook'], int(row['cell']), int(row['row']), int(row['col'])


def read_run(path: str, root: str) -> list[tuple[Key, str, str]]:
    reports = []
    with open(path, encoding='utf-8') as f:
        for line in f:
            if not line.strip():
                continue
            report = json.loads(line)
            relative = os.path.relpath(report['path'], root)
            project, notebook = relative.split(os.sep, 1)
            key = (project, notebook, int(report.get('cell') or 0), int(report['line']),
                   int(report['column']))
            reports.append((key, report['code'], report['message']))
    return reports


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument('candidates')
    parser.add_argument('run')
    parser.add_argument('--root', required=True)
    parser.add_argument('--run-name', required=True)
    parser.add_argument('--output')
    args = parser.parse_args()
    columns, rows = read_table(args.candidates)
    reports = read_run(args.run, args.root)
    by_key: dict[Key, list[str]] = defaultdict(list)
    for key, code, _ in reports:
        by_key[key].append(code)
    column = f'reported_{args.run_name}'
    if column not in columns:
        columns.insert(columns.index('source'), column)
    found, reported = Counter(), Counter()
    at_hazard, at_lookalike = Counter(), Counter()
    for row in rows:
        codes = by_key.get(candidate_key(row), [])
        row[column] = ','.join(codes) or 'no'
        if row['label'] == 'hazard':
            found[row['code']] += 1
            reported[row['code']] += row['code'] in codes
            for code in codes:
                at_hazard[code] += 1
        else:
            for code in codes:
                at_lookalike[code] += 1
    print(f'{len(reports)} reports, {len(rows)} candidates')
    print('family  hazards  reported  recall')
    for code in sorted(found):
        print(f'{code:7} {found[code]:7} {reported[code]:9}  {reported[code] / found[code]:.0%}')
    claimed = [code for code in found if code != '-']
    total, hit = sum(found[c] for c in claimed), sum(reported[c] for c in claimed)
    if total:
        print(f'claimed {total:7} {hit:9}  {hit / total:.0%}')
    print('reports at hazards:', dict(at_hazard), ' at look-alikes:', dict(at_lookalike))
    keys = {candidate_key(row) for row in rows}
    for key, code, message in reports:
        if key not in keys:
            print('not a candidate:', '\t'.join(map(str, key)), code, message, sep='\t')
    if args.output:
        with open(args.output, 'w', encoding='utf-8', newline='') as f:
            f.write('\t'.join(columns) + '\n')
            for row in rows:
                f.write('\t'.join(row.get(name, '') for name in columns) + '\n')
    return 0


if __name__ == '__main__':
    sys.exit(main())
