"""The server's check of an edited text in one process (issue 41; a benchmark, not a timed test).

    python tests/bench_linter.py [--rounds N] [--lines N,N]

For each of ``bench_server.generated``'s files (2,000 and 20,000 lines by default), one
``api.Linter`` checks the text, then the text with its middle line changed and changed back, in
turn (a one-character edit, as typing makes), ``prefilter=False`` as the server asks once a text has
diagnostics; printed: the mean seconds of a check of an edited text (the best of ``--rounds`` means
of 20), the chunks it scanned again, and the ratio of the last file's time to the first's.
"""
from __future__ import annotations

import argparse
import time

from bench_server import generated

from flake8_escapes import api


def edit_time(lines: int, rounds: int) -> tuple[float, int]:
    text = generated(lines)
    rows = text.splitlines(keepends=True)
    middle = len(rows) // 2
    texts = [text, ''.join([*rows[:middle], rows[middle].rstrip('\n') + ' \n', *rows[middle + 1:]])]
    linter = api.Linter()
    for turn in range(3):
        linter.lint(texts[turn % 2], prefilter=False)
    best = float('inf')
    for _ in range(rounds):
        start = time.perf_counter()
        for turn in range(20):
            linter.lint(texts[turn % 2], prefilter=False)
        best = min(best, (time.perf_counter() - start) / 20)
    return best, getattr(linter, "scanned", -1)  # -1: a Linter from before the scans were kept


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--rounds', type=int, default=5)
    parser.add_argument('--lines', default='2000,20000')
    args = parser.parse_args()
    found = []
    for lines in map(int, args.lines.split(',')):
        seconds, scanned = edit_time(lines, args.rounds)
        found.append(seconds)
        print(f'{lines} lines: an edit checked in {seconds * 1000:.1f} ms ({scanned} chunks scanned again)')
    print(f'the last against the first: {found[-1] / found[0]:.1f}x')


if __name__ == '__main__':
    main()
