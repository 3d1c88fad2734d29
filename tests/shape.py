"""The package's shape, checked in the lint env (issue 21): one job per unit, small enough to read.

    python tests/shape.py [PACKAGE_DIR]

Fails (exit 1, one line per problem) when a function or method is above radon's
cyclomatic-complexity grade C (complexity over 20), a module is below
maintainability grade B (radon's index under 10), or a class spans more than
MAX_CLASS_LINES lines.  Needs radon (tox's lint env installs it).
"""
from __future__ import annotations

import ast
import os
import sys

from radon.complexity import cc_rank, cc_visit
from radon.metrics import mi_rank, mi_visit

MAX_COMPLEXITY_RANK = 'C'
MIN_MAINTAINABILITY_RANK = 'B'
MAX_CLASS_LINES = 200


def problems(path: str) -> list[str]:
    """What is wrong with one module's shape, one line each."""
    with open(path, encoding='utf-8') as f:
        text = f.read()
    found = []
    for block in cc_visit(text):
        rank = cc_rank(block.complexity)
        if rank > MAX_COMPLEXITY_RANK:
            found.append(f'{path}:{block.lineno}: {block.fullname} has complexity '
                         f'{block.complexity} (grade {rank}; at most {MAX_COMPLEXITY_RANK}): split it by job')
    index = mi_visit(text, multi=True)
    if mi_rank(index) > MIN_MAINTAINABILITY_RANK:
        found.append(f'{path}: maintainability index {index:.1f} (grade {mi_rank(index)}; '
                     f'at least {MIN_MAINTAINABILITY_RANK})')
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ClassDef):
            lines = (node.end_lineno or node.lineno) - node.lineno + 1
            if lines > MAX_CLASS_LINES:
                found.append(f'{path}:{node.lineno}: class {node.name} spans {lines} lines '
                             f'(at most {MAX_CLASS_LINES})')
    return found


def main(argv: list[str]) -> int:
    root = argv[0] if argv else os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                             'flake8_escapes')
    found = []
    for folder, _, names in sorted(os.walk(root)):
        for name in sorted(names):
            if name.endswith('.py'):
                found.extend(problems(os.path.join(folder, name)))
    for line in found:
        print(line)
    return 1 if found else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
