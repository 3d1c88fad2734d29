"""How the plugin's time (and memory) grows with the size of what it reads, one dimension at a time.

For each dimension a source is written at a base size and at ten times that,
prepared as flake8 prepares it (lines and AST, outside the timed part), and
the plugin is timed on it (best of a few runs; its own tokenizing included);
for the fixer's dimensions, ``fix`` is timed on the source's text instead.
The ratio of the two times is what a 10x bigger input costs: about 10 for
linear work, about 100 for quadratic; the target is at most 15.  The memory
dimensions compare the peak of the memory Python allocates (``tracemalloc``)
while ``check`` reads one file, ``fix`` fixes it or the plugin checks it, at
1x and 10x (after a first run at 1x, so that imports and caches are not
counted): the same target.

    python tests/scaling.py [--only NAME ...] [--rounds N]

Exits 1 when a ratio is above the target.
"""
from __future__ import annotations

import argparse
import ast
import gc
import io
import json
import os
import sys
import tempfile
import time
import tracemalloc
import warnings
from typing import Callable, NamedTuple

from flake8_escapes import config, fix
from flake8_escapes.commands import check
from flake8_escapes.commands import fix as fixing_command
from flake8_escapes.plugin import Plugin
from helpers import processor_for

TARGET = 15


class Dimension(NamedTuple):
    name: str
    base: int                      # the 1x size
    source: Callable[[int], str]   # a module of that size
    fixing: set[str] | None = None  # time ``fix`` with these codes rather than the plugin


def literals_per_file(n: int) -> str:
    return ''.join(f"v{i} = 'x\\d'\n" for i in range(n))


def escapes_per_literal(n: int) -> str:
    # One escape per line of a triple-quoted literal: each position counts the lines before it.
    return 'v = """\n' + 'x \\d\n' * n + '"""\n'


def regex_calls_per_file(n: int) -> str:
    return 'import re\n' + "re.sub('(a)', '\\1', s)\n" * n


def backspaces_per_pattern(n: int) -> str:
    return "import re\nre.compile('" + 'a\\b' * n + "')\n"


def path_calls_per_file(n: int) -> str:
    return "open('C:\\new')\n" * n


def terms_in_a_chain(n: int, chains: int = 20) -> str:
    # Several chains, so that the 1x time is measurable; 10x stays below the
    # depth CPython 3.11 and 3.12 parse (between 1,000 and 3,000 terms).
    return 'import re\n' + ("re.compile('\\b'" + " + 'x'" * (n - 1) + ')\n') * chains


def fields_per_fstring(n: int) -> str:
    # 3.12+ tokenizes each piece between fields apart: each must not look back over the others.
    # (3.10 and 3.11's own parser takes 25 to 40 times as long for this f-string at 10x, and the
    # fixer parses the module and the literal before and after: there its ratio is about 20, 11
    # without the parsing.  3.12.0 to 3.12.3's tokenize copies the whole row into every token,
    # https://github.com/python/cpython/issues/119118: 70 times as long at 10x, and the fixer's
    # ratio 16 to 20 there, 12 without the tokenizing.)
    return 'x = f"' + '{a}\\d' * n + '"\n'


def fstrings_per_file(n: int) -> str:
    # 3.12+: each f-string's path verdict is read from its tokens, not from a copy of the rest.
    return ''.join(f"open(f'C:\\new_{{v{i}}}.txt')\n" for i in range(n))


def replacement_pieces_per_file(n: int) -> str:
    # --unsafe: the replacement's '\1' is not the first piece, so its role is looked up by position.
    return 'import re\n' + "re.sub('(a)', 'x' '\\1', s)\n" * n


def paths_in_one_text(n: int) -> str:
    # anchored-in-text: the paths inside one long literal are found once for it, not once per escape.
    return 'x = """\n' + 'see C:\\new.txt\n' * n + '"""\n'


def paths_in_one_literal(n: int) -> str:
    # --unsafe: whether the literal can become raw asks each reported escape's position (issue 34 item 4).
    return "x = '" + 'saved to C:\\new.txt and ' * n + "'\n"


def commands_in_one_literal(n: int) -> str:
    # ESC601's evidence is read once per literal (tex.Reading), not once per candidate.
    return "x = '" + '$\\theta$ ' * n + "'\n"


def math_roles_in_a_docstring(n: int) -> str:
    return 'def f():\n    """' + ':math:`\\theta` ' * n + '"""\n'


def rows_of_a_math_block(n: int) -> str:
    return 'def f():\n    """Doc.\n\n    .. math::\n\n' + '        \\theta = 1\n' * n + '    """\n'


def strings_in_a_doctest_output(n: int) -> str:
    # ESC602 reads each quote's prefix back to the first character that is not a letter, not the
    # whole line before it (issue 40 item 5: an output listing 10,000 words took 14 s).
    return 'def f():\n    """>>> f()\n    [' + "'w\\x01', " * n + ']\n    """\n'


def paths_in_a_doctest_example(n: int) -> str:
    # doubled-path: each string of the example's line is read as a path once, and whether the line
    # says path once for the line, not once per string.
    return 'def f():\n    """>>> [open(p) for p in [' + "'logs\\\\training.txt', " * n + ']]\n    """\n'


SAFE = set(fix.SAFE)
ALL = set(fix.SAFE + fix.UNSAFE)

DIMENSIONS = [
    Dimension('literals per file', 1000, literals_per_file),
    # (issue 34 item 15: the fixer's memory grows with the file; 20,000 is where it showed)
    Dimension('literals per file, fix', 20000, literals_per_file, SAFE),
    Dimension('escapes per literal', 1000, escapes_per_literal),
    Dimension('regex calls per file', 500, regex_calls_per_file),
    Dimension('\\b per pattern', 200, backspaces_per_pattern),
    Dimension('path calls per file', 200, path_calls_per_file),
    Dimension('terms in a + chain', 100, terms_in_a_chain),
    Dimension('fields per f-string', 1000, fields_per_fstring),
    Dimension('fields per f-string, fix', 1000, fields_per_fstring, SAFE),
    Dimension('f-strings per file', 1000, fstrings_per_file),
    Dimension('replacement pieces, fix --unsafe', 300, replacement_pieces_per_file, ALL),
    Dimension('paths in one text', 1000, paths_in_one_text),
    Dimension('paths in one literal, fix --unsafe', 1000, paths_in_one_literal, ALL),
    Dimension('TeX commands in one literal', 1000, commands_in_one_literal),
    Dimension(':math: roles in a docstring', 1000, math_roles_in_a_docstring),
    Dimension('rows of a .. math:: block', 1000, rows_of_a_math_block),
    Dimension('strings in a doctest output', 1000, strings_in_a_doctest_output),
    Dimension('paths in a doctest example', 1000, paths_in_a_doctest_example),
]


def literals_on_one_row(n: int) -> str:
    # CPython 3.12.0-3.12.3 copy the whole row into each token (issue 34 item 8): kept, n tokens of
    # an n-literal row took memory quadratic in n.
    return 'x = [' + "'\\d', " * n + ']\n'


def statements_on_one_row(n: int) -> str:
    # Statements that share a row are tokenized together: here, the whole file.
    return "a = '\\d'; " * n + '\n'


class MemoryDimension(NamedTuple):
    name: str
    base: int
    source: Callable[[int], str]
    work: Callable[[str, str], Callable[[], object]]  # (source, folder) -> the work to measure


def checking(src: str, folder: str) -> Callable[[], object]:
    """check's work on one file: flake8's reader, the plugin's path, flake8's noqa lines (asked
    for by --show-source); the configuration read before."""
    path = os.path.join(folder, 'long.py')
    with open(path, 'w', encoding='utf-8') as f:
        f.write(src)
    check._settings = config.Config(['--isolated', '--show-source', path])
    return lambda: check.file_results(path)


def fixing(src: str, folder: str) -> Callable[[], object]:
    return lambda: fix.fix_text(src, SAFE)


def plugin_run(src: str, folder: str) -> Callable[[], object]:
    tree, lines = prepared(src)
    return lambda: list(Plugin(tree, lines).run())


MEMORY = [
    MemoryDimension('literals on one row, check', 500, literals_on_one_row, checking),
    MemoryDimension('statements on one row, check', 500, statements_on_one_row, checking),
    MemoryDimension('literals on one row, fix', 500, literals_on_one_row, fixing),
    MemoryDimension('statements on one row, plugin', 500, statements_on_one_row, plugin_run),
]


def notebook_cells(n: int) -> str:
    """A notebook of ``n`` cells, as nbformat writes it: a Markdown cell with backslashes, then code
    cells in turn, each with a line magic, a TeX label, a regex replacement and a Windows path
    (four reports: ESC601, ESC401, and the path's ESC301 and ESC501)."""
    code = ('%matplotlib inline\nplt.xlabel(\'$\\theta$\')\nre.sub(r"(\\w+)", "<\\1>", s)\n'
            "data = open('C:\\data\\new.csv')")
    cells = [{'cell_type': 'markdown', 'id': 'm', 'metadata': {}, 'source': ['$\\theta$ C:\\Users']}]
    cells += [{'cell_type': 'code', 'execution_count': i, 'id': f'c{i}', 'metadata': {},
               'outputs': [{'name': 'stdout', 'output_type': 'stream', 'text': ['C:\\new\n']}],
               'source': (['import re\n'] if i == 1 else []) + io.StringIO(code).readlines()}
              for i in range(1, n)]
    data = {'cells': cells, 'metadata': {}, 'nbformat': 4, 'nbformat_minor': 5}
    return json.dumps(data, indent=1, ensure_ascii=False) + '\n'


class NotebookDimension(NamedTuple):
    name: str
    base: int
    codes: set[str] | None = None  # time ``fix`` with these codes rather than ``check``


#: A notebook's cost (issue 39): ``check``'s work on one notebook (JSON read, cells masked, one
#: module checked, reports mapped back), and ``fix --unsafe``'s (fixed, spliced into the JSON).
NOTEBOOK_DIMENSIONS = [
    NotebookDimension('cells per notebook, check', 1000),
    NotebookDimension('cells per notebook, fix --unsafe', 1000, ALL),
]


def notebook_work(dimension: NotebookDimension, size: int, folder: str) -> Callable[[], object]:
    path = os.path.join(folder, 'analysis.ipynb')
    with open(path, 'w', encoding='utf-8') as f:
        f.write(notebook_cells(size))
    if dimension.codes is None:
        check._settings = config.Config(['--isolated', path])
        return lambda: check.file_results(path)
    with open(path, 'rb') as f:
        data = f.read()
    job = fixing_command.Job(path, frozenset(dimension.codes), frozenset(fix.UNSAFE), False, (), True)
    return lambda: fixing_command.fixed_notebook(path, data, job)


def notebook_time(dimension: NotebookDimension, size: int, rounds: int) -> float:
    with tempfile.TemporaryDirectory() as folder:
        work = notebook_work(dimension, size, folder)
        best = float('inf')
        for _ in range(rounds):
            gc.collect()
            began = time.process_time()
            work()
            best = min(best, time.process_time() - began)
        return best


def peak_memory(dimension: MemoryDimension, size: int) -> int:
    """The peak of the memory Python allocates (bytes) for ``dimension``'s work at ``size``."""
    with tempfile.TemporaryDirectory() as folder:
        work = dimension.work(dimension.source(size), folder)
        gc.collect()
        tracemalloc.start()
        try:
            work()
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()


def memory_ratio(dimension: MemoryDimension) -> tuple[int, int]:
    """The peaks at 1x and 10x, after a first run at 1x (imports, compiled patterns)."""
    peak_memory(dimension, dimension.base)
    return peak_memory(dimension, dimension.base), peak_memory(dimension, dimension.base * 10)


def prepared(src: str) -> tuple[ast.AST, list[str]]:
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')  # the compiler's own escape warnings
        processor = processor_for(lines=io.StringIO(src, newline=None).readlines())
        return processor.build_ast(), processor.lines


def reports(src: str) -> int:
    """How many reports the plugin makes on ``src`` (untimed: for the test)."""
    return sum(1 for _ in Plugin(*prepared(src)).run())


def plugin_time(src: str, rounds: int) -> float:
    tree, lines = prepared(src)
    best = float('inf')
    for _ in range(rounds):
        gc.collect()  # each round starts alike
        began = time.process_time()  # CPU time: the load of other processes does not count
        for _ in Plugin(tree, lines).run():
            pass
        best = min(best, time.process_time() - began)
    return best


def fix_time(src: str, codes: set[str], rounds: int) -> float:
    best = float('inf')
    for _ in range(rounds):
        gc.collect()
        began = time.process_time()
        fix.fix_text(src, codes)
        best = min(best, time.process_time() - began)
    return best


def timed(dimension: Dimension, size: int, rounds: int) -> float:
    src = dimension.source(size)
    if dimension.fixing is not None:
        return fix_time(src, dimension.fixing, rounds)
    return plugin_time(src, rounds)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--only', nargs='*', help='dimension names (a word of each is enough)')
    parser.add_argument('--rounds', type=int, default=5)
    args = parser.parse_args()
    over = 0
    print(f'Python {sys.version.split()[0]}: plugin (or fix) time at 1x and 10x, best of {args.rounds}')
    for dimension, time_it in [*((each, timed) for each in DIMENSIONS),
                               *((each, notebook_time) for each in NOTEBOOK_DIMENSIONS)]:
        if args.only and not any(word in dimension.name for word in args.only):
            continue
        small = time_it(dimension, dimension.base, args.rounds)
        large = time_it(dimension, dimension.base * 10, args.rounds)
        ratio = large / small
        over += ratio > TARGET
        print(f'{dimension.name:34} {dimension.base:>6}: {small * 1000:9.1f} ms  '
              f'{dimension.base * 10:>6}: {large * 1000:9.1f} ms  ratio {ratio:6.1f}'
              f'{"  (over " + str(TARGET) + ")" if ratio > TARGET else ""}', flush=True)
    print('peak memory (tracemalloc) at 1x and 10x')
    for memory in MEMORY:
        if args.only and not any(word in memory.name for word in args.only):
            continue
        small_peak, large_peak = memory_ratio(memory)
        ratio = large_peak / small_peak
        over += ratio > TARGET
        print(f'{memory.name:34} {memory.base:>6}: {small_peak / 1024:9.0f} KB  '
              f'{memory.base * 10:>6}: {large_peak / 1024:9.0f} KB  ratio {ratio:6.1f}'
              f'{"  (over " + str(TARGET) + ")" if ratio > TARGET else ""}', flush=True)
    return 1 if over else 0


if __name__ == '__main__':
    sys.exit(main())
