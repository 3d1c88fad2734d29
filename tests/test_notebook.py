"""Jupyter notebooks in ``check`` and ``fix`` (issue 39, item 1): the code cells read as one
module through ``flake8_escapes.notebook``, each report at ruff's ``nb.ipynb:cell N:row:col``
(the cell counted among all cells), fixes spliced into the notebook's own JSON text.

Positions are read off CPython: each expected report's cell is tokenized alone, and the
backslash must stand inside one of its string tokens at that row and column (and CPython's
own SyntaxWarning names the row of an invalid escape)."""
from __future__ import annotations

import ast
import io
import json
import subprocess
import sys
import tokenize
import warnings

import pytest

from flake8_escapes import notebook, rules

MARKDOWN = 'markdown'
#: The acceptance notebook: a TeX label, a Windows path, a regex replacement whose ``import re``
#: is in an earlier cell, magics, a %%bash cell and a Markdown cell, all holding backslashes.
CELLS = [
    (MARKDOWN, '# Analysis\nThe angle $\\theta$, read from C:\\Users\\me\\new.csv'),
    ('code', '%matplotlib inline\nimport re\nimport matplotlib.pyplot as plt\n!pip install pandas'),
    ('code', "plt.xlabel('$\\theta$')\nplt.ylabel(r'$\\alpha$')\ndata = open('C:\\data\\new.csv')"),
    ('code', 's = "a b"\nprint(re.sub(r"(\\w+)", "<\\1>", s))\nre.sub?'),
    ('code', "%%bash\necho 'C:\\temp\\new' | sed 's/\\d/x/'"),
    ('raw', 'C:\\temp\\new'),
    ('code', "x = 'C:\\temp'  # noqa: ESC501\nif x:\n    %time print('\\d')\n    y = 1"),
]
#: (cell, row, 1-based column, code): what a reader expects, checked against CPython below.
EXPECTED = [
    (3, 1, 14, 'ESC601'),  # '\t' of '$\theta$' cuts the TeX command
    (3, 3, 16, 'ESC301'),  # '\d' of 'C:\data\new.csv'
    (3, 3, 21, 'ESC501'),  # '\n' of the same path is a newline
    (4, 2, 26, 'ESC401'),  # '\1' of the replacement "<\1>": re imported in cell 2
]


def notebook_text(cells, *, ascii_only=False, as_string=False, newline='\n', indent=1) -> str:
    """A notebook's JSON text as nbformat writes it (indent 1, raw UTF-8, sources as lists of
    lines); ``ascii_only``: \\uXXXX escapes; ``as_string``: each source one string."""
    def source(text):
        return text if as_string else notebook.line_list(text)
    data = {'cells': [
        {'cell_type': kind, 'id': f'cell-{number}', 'metadata': {}, 'source': source(text),
         **({'execution_count': None, 'outputs': []} if kind == 'code' else {})}
        for number, (kind, text) in enumerate(cells, 1)],
        'metadata': {'language_info': {'name': 'python'}}, 'nbformat': 4, 'nbformat_minor': 5}
    text = json.dumps(data, indent=indent, ensure_ascii=ascii_only, sort_keys=True) + '\n'
    return text.replace('\n', newline)


def escapes(cwd, *args, stdin=None):
    """(exit code, stdout lines, stderr) of ``python -m flake8_escapes ARGS``."""
    proc = subprocess.run([sys.executable, '-m', 'flake8_escapes', *args], cwd=cwd, capture_output=True,
                          text=True, timeout=300, input=stdin)
    assert 'Traceback' not in proc.stderr, proc.stderr
    return proc.returncode, proc.stdout.splitlines(), proc.stderr


def placed(out):
    """(cell, row, col, code) of each ``name:cell N:row:col: CODE ...`` line."""
    found = []
    for line in out:
        where, _, rest = line.partition(': ')
        _, cell, row, col = where.rsplit(':', 3)
        assert cell.startswith('cell ')
        found.append((int(cell[5:]), int(row), int(col), rest.split()[0]))
    return found


def in_string_token(text: str, row: int, col: int) -> bool:
    """Does the backslash at (row, 1-based col) of ``text`` stand in a string token (CPython's tokenizer)?"""
    assert text.splitlines()[row - 1][col - 1] == '\\'
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.STRING and token.start <= (row, col - 1) < token.end:
                return True
            if token.type == getattr(tokenize, 'FSTRING_MIDDLE', -1) and token.start[0] == row:
                return True
    return False


def warned_rows(text: str) -> set[int]:
    """The rows CPython warns about an invalid escape on, compiling ``text`` alone."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        compile(text, '<cell>', 'exec')
    return {item.lineno for item in caught if 'escape sequence' in str(item.message)}


def test_expected_positions_are_cpythons():
    """The expected places are a literal's backslash by CPython's tokenizer; ESC301's row is where
    CPython warns (3.12+ gives the row; the notebook's cells are tested alone as the kernel runs them)."""
    for cell, row, col, code in EXPECTED:
        text = CELLS[cell - 1][1]
        python = '\n'.join(line for line in text.splitlines() if not line.startswith(('%', '!'))
                           and not line.endswith('?'))
        assert in_string_token(python, row, col), (cell, row, col)
        if code == 'ESC301' and sys.version_info >= (3, 12):
            assert row in warned_rows(python)


def test_acceptance_notebook_gets_exactly_the_expected_reports(tmp_path):
    """0.4.0 printed nothing and exited 0: the notebook was never read."""
    (tmp_path / 'analysis.ipynb').write_text(notebook_text(CELLS), encoding='utf-8')
    code, out, err = escapes(tmp_path, 'check', 'analysis.ipynb')
    assert (code, err) == (1, '')
    assert placed(out) == EXPECTED
    assert all(line.startswith('analysis.ipynb:cell ') for line in out)


def test_folders_include_notebooks_and_extend_exclude_leaves_them_out(tmp_path):
    (tmp_path / 'nb').mkdir()
    (tmp_path / 'nb' / 'analysis.ipynb').write_text(notebook_text(CELLS), encoding='utf-8')
    code, out, err = escapes(tmp_path, 'check', 'nb')
    assert (code, len(out)) == (1, len(EXPECTED))
    assert out[0].startswith('nb/analysis.ipynb:cell 3:1:14: ESC601 ')
    code, out, err = escapes(tmp_path, 'check', '--extend-exclude=*.ipynb', 'nb')
    assert (code, out) == (0, [])
    assert 'no Python file found' in err
    (tmp_path / 'setup.cfg').write_text('[flake8]\nfilename = *.py,*.pyi\n', encoding='utf-8')
    code, out, err = escapes(tmp_path, 'check', 'nb')
    assert (code, out) == (0, [])
    code, out, err = escapes(tmp_path, 'check', 'nb/analysis.ipynb')  # named: always checked
    assert (code, len(out)) == (1, len(EXPECTED))


def test_formats_name_the_cell(tmp_path):
    (tmp_path / 'analysis.ipynb').write_text(notebook_text(CELLS), encoding='utf-8')
    code, out, _ = escapes(tmp_path, 'check', '--format=json', 'analysis.ipynb')
    found = json.loads('\n'.join(out))
    assert [(item['cell'], item['location']['row'], item['location']['column'], item['code'])
            for item in found] == EXPECTED
    assert {item['filename'] for item in found} == {'analysis.ipynb'}
    assert found[0]['end_location'] == {'row': 1, 'column': 16}  # just past '\t'
    code, out, _ = escapes(tmp_path, 'check', '--format=json-lines', 'analysis.ipynb')
    lines = [json.loads(line) for line in out]
    assert [(item['cell'], item['line'], item['column'], item['code']) for item in lines] == EXPECTED
    assert {item['path'] for item in lines} == {'analysis.ipynb'}
    code, out, _ = escapes(tmp_path, 'check', '--format=%(path)s|%(row)d|%(col)d|%(code)s', 'analysis.ipynb')
    assert out[0] == 'analysis.ipynb:cell 3|1|14|ESC601'
    code, out, _ = escapes(tmp_path, 'check', '--format=github', 'analysis.ipynb')
    raw = (tmp_path / 'analysis.ipynb').read_text(encoding='utf-8').splitlines()
    first = out[0]
    assert first.startswith('::error file=analysis.ipynb,line=')
    json_line = int(first.split('line=')[1].split(',')[0])
    assert "plt.xlabel('$\\\\theta$')" in raw[json_line - 1]  # the JSON line that holds the cell's row
    assert first.endswith("::cell 3:1:14: ESC601 '\\t' is a tab that cuts TeX's \\theta; use a raw string")


def test_count_statistics_and_exit_status(tmp_path):
    (tmp_path / 'analysis.ipynb').write_text(notebook_text(CELLS), encoding='utf-8')
    code, out, _ = escapes(tmp_path, 'check', '--count', '--statistics', 'analysis.ipynb')
    assert code == 1
    names = {rule.code: rule.name for rule in rules.RULES}
    codes = ('ESC301', 'ESC401', 'ESC501', 'ESC601')
    assert out[4:] == [f'1     {code} {names[code]}' for code in codes] + ['4']
    code, out, _ = escapes(tmp_path, 'check', '--exit-zero', 'analysis.ipynb')
    assert (code, len(out)) == (0, 4)
    code, out, _ = escapes(tmp_path, 'check', '--extend-ignore=ESC', 'analysis.ipynb')
    assert (code, out) == (0, [])
    code, out, _ = escapes(tmp_path, 'check', '--per-file-ignores=analysis.ipynb:ESC6', 'analysis.ipynb')
    assert placed(out) == EXPECTED[1:]


def test_noqa_on_a_cell_line(tmp_path):
    """Cell 7's 'C:\\temp' (ESC501: a tab) carries ``# noqa: ESC501``; without it, it is reported."""
    cells = list(CELLS)
    cells[6] = ('code', CELLS[6][1].replace('  # noqa: ESC501', ''))
    (tmp_path / 'analysis.ipynb').write_text(notebook_text(cells), encoding='utf-8')
    code, out, _ = escapes(tmp_path, 'check', 'analysis.ipynb')
    assert placed(out) == [*EXPECTED, (7, 1, 8, 'ESC501')]
    assert in_string_token(cells[6][1].replace('%time', 'pass '), 1, 8)


def test_standard_input_as_a_notebook(tmp_path):
    code, out, _ = escapes(tmp_path, 'check', '--stdin-display-name=analysis.ipynb', '-',
                           stdin=notebook_text(CELLS))
    assert code == 1
    assert placed(out) == EXPECTED
    assert out[0].startswith('analysis.ipynb:cell 3:1:14: ')


@pytest.mark.parametrize('text, said', [
    ('{"cells": [', 'not valid JSON'),
    ('[1, 2]', 'not a Jupyter notebook'),
    ('{"nbformat": 3, "worksheets": [{"cells": []}]}', 'nbformat 3 is not read'),
    ('{"nbformat": 4, "cells": [{"cell_type": "code"}]}', 'cell 1 has no "source" text'),
    ('\udcff', 'not UTF-8'),
])
def test_not_a_notebook_is_one_line_and_exit_2(tmp_path, text, said):
    path = tmp_path / 'bad.ipynb'
    path.write_bytes(text.encode('utf-8', 'surrogateescape'))
    (tmp_path / 'good.py').write_text("x = '\\d'\n", encoding='utf-8')
    code, out, err = escapes(tmp_path, 'check', 'bad.ipynb', 'good.py')
    assert code == 2
    assert out == ["good.py:1:6: ESC301 invalid escape sequence '\\d'; write '\\\\d' or use a raw string"]
    assert err.splitlines() == [f'bad.ipynb: cannot read: {err.split("cannot read: ")[1].strip()}']
    assert said in err
    for args in (['fix'], ['fix', '--unsafe'], ['fix', '--diff']):
        code, out, err = escapes(tmp_path, *args, 'bad.ipynb')
        assert code == 2
        assert err.splitlines() == [err.splitlines()[0]] and err.startswith('bad.ipynb: cannot read: ')
        assert path.read_bytes() == text.encode('utf-8', 'surrogateescape')


def test_a_cell_that_does_not_parse_leaves_the_others_checked(tmp_path):
    """Cell 8's 'C:\\Users\\me' is refused by CPython: its literals' text still reports, and the
    cells before it keep every family (ESC601 and ESC401 need the AST)."""
    cells = [*CELLS, ('code', "u = 'C:\\Users\\me'")]
    (tmp_path / 'analysis.ipynb').write_text(notebook_text(cells), encoding='utf-8')
    code, out, err = escapes(tmp_path, 'check', 'analysis.ipynb')
    assert code == 1
    assert placed(out)[:4] == EXPECTED
    found = [item for item in placed(out)[4:] if item[3] != 'E999']
    assert found == [(8, 1, 8, 'ESC304'), (8, 1, 14, 'ESC301')]
    assert [item[:2] for item in placed(out) if item[3] == 'E999'] == [(8, 1)]  # its column: CPython's
    assert err.startswith('analysis.ipynb:cell 8: does not parse (SyntaxError at line 1)')
    with pytest.raises(SyntaxError):
        compile(cells[-1][1], '<cell>', 'exec')


# -- fix ----------------------------------------------------------------------------------------

def changed_lines(before: str, after: str) -> list[tuple[str, str]]:
    return [(old, new) for old, new in zip(before.splitlines(True), after.splitlines(True)) if old != new]


@pytest.mark.parametrize('style', [
    {}, {'ascii_only': True}, {'as_string': True}, {'newline': '\r\n'}, {'indent': 2},
])
def test_fix_changes_only_the_fixed_source_lines(tmp_path, style):
    cells = [*CELLS, ('code', "label = 'é\\d'  # é")]
    before = notebook_text(cells, **style)
    path = tmp_path / 'analysis.ipynb'
    path.write_bytes(before.encode('utf-8'))
    code, out, err = escapes(tmp_path, 'fix', '--unsafe', 'analysis.ipynb')
    assert code == 1, err
    after = path.read_bytes().decode('utf-8')
    assert len(after.splitlines()) == len(before.splitlines())
    changed = changed_lines(before, after)
    # each changed JSON line is a source line, and only characters were inserted into it
    assert changed and all(len(new) > len(old) for old, new in changed)
    if not style.get('as_string'):
        assert len(changed) == 4
    old, new = json.loads(before), json.loads(after)
    assert [cell['cell_type'] for cell in old['cells']] == [cell['cell_type'] for cell in new['cells']]
    for was, now in zip(old['cells'], new['cells']):
        assert {key: value for key, value in was.items() if key != 'source'} == \
               {key: value for key, value in now.items() if key != 'source'}
    fixed = [''.join(cell['source']) for cell in new['cells']]
    assert "plt.xlabel(r'$\\theta$')" in fixed[2]
    assert 'r"<\\1>"' in fixed[3]
    assert fixed[0] == CELLS[0][1] and fixed[4] == CELLS[4][1] and fixed[5] == CELLS[5][1]
    assert ('é' in after) == (not style.get('ascii_only'))
    for text in fixed[1:4] + fixed[6:]:
        python = '\n'.join(line for line in text.splitlines()
                           if not line.lstrip().startswith(('%', '!')) and not line.endswith('?'))
        ast.parse(python)
    assert escapes(tmp_path, 'check', 'analysis.ipynb')[:2] == (0, [])
    assert escapes(tmp_path, 'fix', '--unsafe', 'analysis.ipynb')[0] == 0  # a second run: nothing
    assert path.read_bytes().decode('utf-8') == after


def test_safe_fix_keeps_values_and_diff_names_the_cell(tmp_path):
    path = tmp_path / 'analysis.ipynb'
    before = notebook_text(CELLS)
    path.write_text(before, encoding='utf-8')
    code, out, err = escapes(tmp_path, 'fix', '--diff', 'analysis.ipynb')
    assert code == 1
    assert out[:2] == ['--- a/analysis.ipynb:cell 3\t', '+++ b/analysis.ipynb:cell 3\t']
    assert "+data = open('C:\\\\data\\new.csv')" in out
    assert path.read_text(encoding='utf-8') == before
    code, out, err = escapes(tmp_path, 'fix', 'analysis.ipynb')
    assert (code, out) == (1, ['analysis.ipynb: fixed ESC301'])
    assert 'only --unsafe can fix (ESC401, ESC501, ESC601)' in err
    changed = changed_lines(before, path.read_text(encoding='utf-8'))
    assert changed == [('    "data = open(\'C:\\\\data\\\\new.csv\')"\n',
                        '    "data = open(\'C:\\\\\\\\data\\\\new.csv\')"\n')]


def test_fix_leaves_a_cell_that_does_not_parse(tmp_path):
    cells = [*CELLS, ('code', "u = 'C:\\Users\\me' +\n")]
    path = tmp_path / 'analysis.ipynb'
    before = notebook_text(cells)
    path.write_text(before, encoding='utf-8')
    code, out, err = escapes(tmp_path, 'fix', '--unsafe', 'analysis.ipynb')
    assert code == 1
    assert 'analysis.ipynb:cell 8: skipped, does not parse' in err
    after = path.read_text(encoding='utf-8')
    assert "u = 'C:\\\\Users\\\\me' +" in after
    assert len(changed_lines(before, after)) == 3


def test_fix_standard_input_notebook(tmp_path):
    code, out, err = escapes(tmp_path, 'fix', '--stdin-display-name=x.ipynb', '-', stdin=notebook_text(CELLS))
    assert code == 1
    assert "data = open('C:\\\\\\\\data" in '\n'.join(out)
    json.loads('\n'.join(out))


# -- the adapter --------------------------------------------------------------------------------

@pytest.mark.parametrize('cell, masked', [
    ('%matplotlib inline\nx = 1', 'pass\nx = 1\n'),
    ('!pip install x \\\n  y\nz = 2', 'pass\n\nz = 2\n'),
    ('files = !ls\nn = %env\nlen?\n?len\nos.path??', 'pass\npass\npass\npass\npass\n'),
    ('if x:\n    %time f()\n', 'if x:\n    pass\n'),  # a block whose only line it is still parses
    ('s = """\n%(a)s\n"""', 's = """\n%(a)s\n"""\n'),  # in a string: Python's
    ('f(1,\n  !x)', 'f(1,\n  !x)\n'),  # in brackets: Python's (a syntax error, as in IPython)
    ("s = 'a\\\n%b'", "s = 'a\\\n%b'\n"),  # a single-quoted string continued
    ('x = 1 \\\n  %2', 'x = 1 \\\n  %2\n'),  # a joined line
    ('%%bash\necho \\d\n', '\n\n'),
    ('\n%%timeit\nre.sub("\\d", "", s)', '\npass\nre.sub("\\d", "", s)\n'),
    ('x = 1  # %s\n%who', 'x = 1  # %s\npass\n'),
])
def test_masked_lines(cell, masked):
    lines = notebook.line_list(cell)
    added = not cell.endswith('\n')
    assert ''.join(notebook.masked_lines(lines, added)) == masked
    assert len(notebook.masked_lines(lines, added)) == len(lines)


def test_where_maps_rows_to_cells_counted_among_all():
    cells = [(MARKDOWN, 'a'), ('code', ''), ('code', 'x\ny'), ('code', 'z\n')]
    book = notebook.Notebook(notebook_text(cells))
    assert book.text == 'x\ny\nz\n'
    assert [book.where(row) for row in (1, 2, 3)] == [(3, 1), (3, 2), (4, 1)]


def test_a_notebook_in_another_language_is_skipped_with_a_line(tmp_path):
    """An R notebook's '\\d' is R's business: said on stderr, no report, exit 0, no write."""
    text = notebook_text(CELLS).replace('"name": "python"', '"name": "R"')
    (tmp_path / 'r.ipynb').write_text(text, encoding='utf-8')
    assert escapes(tmp_path, 'check', 'r.ipynb') == (0, [], 'r.ipynb: skipped, a notebook in R, not Python\n')
    assert escapes(tmp_path, 'fix', 'r.ipynb') == (0, [], 'r.ipynb: skipped, a notebook in R, not Python\n')
    assert (tmp_path / 'r.ipynb').read_text(encoding='utf-8') == text


def test_github_row_of_an_error_past_the_last_row(tmp_path):
    """E999 of a cell that ends inside a bracket stands past its last row: still a line of the file."""
    (tmp_path / 'nb.ipynb').write_text(notebook_text([('code', "x = ('\\d',")]), encoding='utf-8')
    code, out, _ = escapes(tmp_path, 'check', '--format=github', 'nb.ipynb')
    assert code == 1
    assert all(line.startswith('::error file=nb.ipynb,line=') for line in out)


def test_fix_splices_a_line_split_across_source_strings(tmp_path):
    """nbformat joins a cell's source strings as they are: a line may run over two of them, and
    a string may escape a character beyond the BMP as a surrogate pair (\\ud83d\\ude00)."""
    text = ('{"cells": [{"cell_type": "code", "execution_count": null, "metadata": {}, "outputs": [],\n'
            '"source": ["x = \'\\ud83d\\ude00 C:\\\\da", "ta\\\\new\' + \'\\\\d\'\\n", "y = 1"]}],\n'
            '"metadata": {}, "nbformat": 4, "nbformat_minor": 2}')
    (tmp_path / 'nb.ipynb').write_text(text, encoding='utf-8')
    code, out, err = escapes(tmp_path, 'fix', '--unsafe', 'nb.ipynb')
    assert code == 1, err
    after = (tmp_path / 'nb.ipynb').read_text(encoding='utf-8')
    source = ''.join(json.loads(after)['cells'][0]['source'])
    assert source == "x = r'\U0001F600 C:\\data\\new' + r'\\d'\ny = 1"
    assert after.replace("r'", "'") == text


def test_a_polyglot_notebooks_other_cells_are_not_read(tmp_path):
    """A .NET Interactive / VS Code polyglot notebook names each cell's kernel: its PowerShell
    cell's '\\d' is PowerShell's (seen in the survey's notebooks); its Python cell is read."""
    text = notebook_text([('code', "x = '\\d'"), ('code', "y = '\\d'")])
    data = json.loads(text)
    data['cells'][0]['metadata'] = {'polyglot_notebook': {'kernelName': 'pwsh'},
                                    'dotnet_interactive': {'language': 'pwsh'}}
    data['cells'][1]['metadata'] = {'polyglot_notebook': {'kernelName': 'python'}}
    (tmp_path / 'nb.ipynb').write_text(json.dumps(data), encoding='utf-8')
    code, out, _ = escapes(tmp_path, 'check', 'nb.ipynb')
    assert placed(out) == [(2, 1, 6, 'ESC301')]


def test_a_cell_vscode_marks_as_another_language_is_not_read(tmp_path):
    """VS Code's Jupyter names a code cell's language in ``metadata.vscode.languageId`` when it is
    not the notebook's: its JavaScript cell's '\\d' is a JavaScript regex (the held-out notebook
    survey's 35 E999 in JavaScript, HTML and CSS cells); a cell it marks Python is read."""
    text = notebook_text([('code', "const r = '\\d'"), ('code', "y = '\\d'")])
    data = json.loads(text)
    data['cells'][0]['metadata'] = {'vscode': {'languageId': 'javascript'}}
    data['cells'][1]['metadata'] = {'vscode': {'languageId': 'python'}}
    (tmp_path / 'nb.ipynb').write_text(json.dumps(data), encoding='utf-8')
    code, out, _ = escapes(tmp_path, 'check', 'nb.ipynb')
    assert placed(out) == [(2, 1, 6, 'ESC301')]


def test_a_byte_order_mark_is_read_and_kept(tmp_path):
    """json refuses a BOM; a notebook an editor saved with one is read, and fixed with it kept."""
    text = notebook_text(CELLS)
    path = tmp_path / 'nb.ipynb'
    path.write_bytes(b'\xef\xbb\xbf' + text.encode('utf-8'))
    code, out, _ = escapes(tmp_path, 'check', 'nb.ipynb')
    assert placed(out) == EXPECTED
    escapes(tmp_path, 'fix', 'nb.ipynb')
    after = path.read_bytes()
    assert after.startswith(b'\xef\xbb\xbf{') and len(changed_lines(text, after[3:].decode('utf-8'))) == 1


def test_a_cell_stopped_only_by_refused_escapes_gets_every_check(tmp_path):
    """Cell 8 does not parse only because of '\\U' (ESC304): with it masked (issue 39 item 2) every
    check runs on the whole notebook, so its regex replacement, whose ``import re`` is in cell 2,
    gets its ESC401 (only the literals' text was read before)."""
    cell = "u = 'C:\\Users\\me'\nre.sub(r\"(\\w)\", \"\\1\", u)"
    cells = [*CELLS, ('code', cell)]
    (tmp_path / 'analysis.ipynb').write_text(notebook_text(cells), encoding='utf-8')
    code, out, err = escapes(tmp_path, 'check', 'analysis.ipynb')
    assert code == 1
    found = [item for item in placed(out) if item[3] != 'E999']
    assert found == [*EXPECTED, (8, 1, 8, 'ESC304'), (8, 1, 14, 'ESC301'), (8, 2, 18, 'ESC401')]
    assert in_string_token(cell.replace('\\U', '\\\\'), 2, 18)
    assert 'analysis.ipynb:cell 8: does not parse (SyntaxError at line 1): only its escapes' in err


def test_a_notebook_from_its_cells_texts_is_the_notebook_read_from_json():
    """``Notebook.of_cells`` (the language server's notebook documents: the cells' texts, None for
    a Markdown or raw cell) gives the module and the map back that reading the JSON gives."""
    read = notebook.Notebook(notebook_text(CELLS))
    given = notebook.Notebook.of_cells([text if kind == 'code' else None for kind, text in CELLS])
    assert given.text == read.text and given.masked == read.masked and given.cells == read.cells
    assert [given.where(row) for row in range(1, len(given.masked) + 1)] == \
        [read.where(row) for row in range(1, len(read.masked) + 1)]
    assert given.where(given.cells[2].first + 1) == (4, 2)  # cell 4's second row ("print(re.sub...")
