"""tests/recall_notebooks.py, the notebook survey's candidate finder (issue 39), on a small notebook.

Positions are where ``str.index`` finds the backslash in the cell's own source (cells counted from 1
among all cells, rows within the cell); what an escape is comes from CPython: ``refused`` rows are
escapes whose literal CPython refuses to compile, ``invalid`` rows are escapes CPython warns about,
and the ``tex`` and ``regex`` rows are escapes CPython turns into a character other than a backslash.
"""
from __future__ import annotations

import json
import sys
import warnings

import recall_notebooks

COMMANDS = recall_notebooks.tex_commands()
#: 3.12+ tokenizes an f-string in parts: the finder scans such a cell instead.
F_CELL = 'scanned+' if sys.version_info >= (3, 12) else ''

CELLS = [
    ('markdown', "A label $\\theta$ in Markdown: never read"),
    ('code', "%matplotlib inline\nimport re\n!pip install x\nplt.xlabel('$\\theta$')"),
    ('code', "%%bash\necho '\\d'"),
    ('raw', "'\\d'"),
    ('code', "obj?\nre.sub('(a)', '<\\1>', s)\npd.read_csv('C:\\data\\new.csv')"),
    ('code', "x = '\\Upsilon'\ny = 'unterminated\nz = '\\d'"),
    ('code', "s = f'{x}\\alpha'\nb = b'\\N{DASH}'\nfine = r'\\theta' + '\\\\theta'"),
]


def notebook(tmp_path) -> str:
    cells = [{'cell_type': kind, 'metadata': {}, 'source': src.splitlines(keepends=True),
              **({'outputs': [], 'execution_count': None} if kind == 'code' else {})}
             for kind, src in CELLS]
    path = tmp_path / 'n.ipynb'
    path.write_text(json.dumps({'nbformat': 4, 'nbformat_minor': 5, 'metadata': {}, 'cells': cells}))
    return str(path)


def rows(tmp_path) -> dict[tuple[int, int, int], tuple[str, str]]:
    return {(r.cell, r.row, r.col): (r.kinds, r.mark)
            for r in recall_notebooks.notebook_rows(notebook(tmp_path), COMMANDS)}


def at(cell: int, needle: str, occurrence: int = 0) -> tuple[int, int, int]:
    """The 1-based cell, row and column of the backslash that starts ``needle`` in that cell."""
    source = CELLS[cell - 1][1]
    index = -1
    for _ in range(occurrence + 1):
        index = source.index(needle, index + 1)
    row = source.count('\n', 0, index) + 1
    return cell, row, index - (source.rfind('\n', 0, index) + 1) + 1


def compiles(literal: str) -> tuple[bool, list[str], object]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        try:
            value = eval(compile(literal, 'x', 'eval'))
        except SyntaxError:
            return False, [], None
    return True, [str(w.category.__name__) for w in caught], value


def test_the_rows_are_where_cpython_says(tmp_path) -> None:
    listed = rows(tmp_path)
    # the TeX label after two IPython lines: \t of \theta is a tab to CPython
    assert compiles("'$\\theta$'")[2] == '$' + chr(9) + 'heta$'
    assert listed[at(2, '\\theta')] == ('tex', '')
    # the regex replacement's \1 is chr(1), the path's \d is kept and warned about, \n is a newline
    assert compiles("'<\\1>'")[2] == '<\x01>'
    assert listed[at(5, '\\1')] == ('regex', '')
    assert 'DeprecationWarning' in compiles("'\\d'")[1] or 'SyntaxWarning' in compiles("'\\d'")[1]
    assert listed[at(5, '\\d')] == ('invalid+path', '')
    assert listed[at(5, '\\n')] == ('path', '')
    # a cell that does not tokenize is scanned: \U without 8 hex digits is refused by CPython
    assert compiles("'\\Upsilon'")[0] is False
    assert listed[at(6, '\\U')] == ('refused', 'scanned')
    assert listed[at(6, '\\d')] == ('invalid', 'scanned')
    # an f-string's \a before "lpha" makes \alpha; \N in bytes is not an escape (kept, warned)
    assert compiles("f'{1}\\alpha'")[2] == '1\x07lpha'
    assert listed[at(7, '\\alpha')] == ('tex', F_CELL.rstrip('+'))
    ok, caught, value = compiles("b'\\N{DASH}'")
    assert ok and value == b'\\N{DASH}' and caught
    assert listed[at(7, '\\N')] == ('invalid', F_CELL + 'bytes')


def test_nothing_else_is_listed(tmp_path) -> None:
    """Markdown, raw cells, a %%bash cell, raw literals and doubled backslashes give no row."""
    expected = {at(2, '\\theta'), at(5, '\\1'), at(5, '\\d'), at(5, '\\n'), at(6, '\\U'), at(6, '\\d'),
                at(7, '\\alpha'), at(7, '\\N')}
    assert set(rows(tmp_path)) == expected


def test_blanking_keeps_rows() -> None:
    source = "%time x = 1\ny = !ls \\\n  -l\nobj??\nz = '\\t'"
    code = recall_notebooks.blanked(source)
    assert code.split('\n') == ['', '', '', '', "z = '\\t'"]
    assert recall_notebooks.blanked("\n%%writefile a.py\nprint('\\d')") == '\n\n'
