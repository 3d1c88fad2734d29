"""tests/recall_finder.py, the recall survey's candidate finder (issue 30), on small inline cases.

Each expected value is checked against CPython itself, not against the finder's reading: a candidate is
an escape that CPython's compiler turns into a character other than the backslash that was written
(doubling that backslash changes the compiled value), and a literal left out is one whose compiled value
keeps the backslash (doubled, raw) or is not a str (bytes).
"""
from __future__ import annotations

import ast
import importlib.util
import io
import os
import tokenize
import warnings
from collections import Counter

import pytest

import recall_finder
import recall_join
import survey

COMMANDS = recall_finder.tex_commands()


def found(src: str) -> set[tuple[int, int, str, str]]:
    """(line, 1-based column, kind, escape) of every candidate of ``src``."""
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        tree = ast.parse(src)
    tokens = list(tokenize.generate_tokens(io.StringIO(src).readline))
    lines = src.splitlines(keepends=True)
    listed = recall_finder.candidates(lines, tree, tokens, COMMANDS)
    return {(c.line, c.col + 1, c.kind, c.escape) for c in listed}


def constants(src: str) -> list[object]:
    """The values of every constant CPython compiles ``src`` to, in order."""
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        tree = ast.parse(src)
    values = [node.value for node in ast.walk(tree) if isinstance(node, ast.Constant)]
    values += [part.value for node in ast.walk(tree) if isinstance(node, ast.JoinedStr)
               for part in node.values if isinstance(part, ast.Constant)]
    return values


def doubled(src: str, line: int, column: int) -> str:
    """``src`` with the backslash at (line, 1-based column) doubled."""
    lines = src.splitlines(keepends=True)
    text = lines[line - 1]
    assert text[column - 1] == '\\', (line, column, text)
    lines[line - 1] = text[:column - 1] + '\\' + text[column - 1:]
    return ''.join(lines)


def is_escape(src: str, line: int, column: int) -> bool:
    """CPython reads the backslash at (line, column) as an escape: doubling it changes a compiled value."""
    return constants(doubled(src, line, column)) != constants(src)


# (source, the expected candidates: (line, column, kind, escape)), each with its justification
CASES = [
    # a docstring with \theta in prose: CPython compiles '\t' + 'heta' (a tab), 'theta' is a command
    ('def f():\n    """Returns the angle \\theta in radians."""\n', {(2, 26, 'ESC601', '\\t')}),
    # doubled: the value keeps the backslash ('\\theta' is backslash, 't', ...): not an escape of a letter
    ("x = '\\\\theta'\n", set()),
    # raw: the value keeps the backslash
    ("x = r'\\nabla'\n", set()),
    # bytes: not a str literal, left out
    ("x = b'\\nabla'\n", set()),
    # '\n' + 'abla': a newline, and 'nabla' is a command
    ("x = '\\nabla'\n", {(1, 6, 'ESC601', '\\n')}),
    # '\n' + 'umber': a newline, but 'number' is not a command name (nor 'n' alone: two letters at least)
    ("x = '\\number'\n", set()),
    # a doctest example: '\t' in the example's source is a tab in the docstring doctest reads
    ('def f():\n    """Split.\n\n    >>> f(\'a\\tb\')\n    """\n', {(4, 13, 'ESC602', '\\t')}),
    # the expected output after the example is an example line too; a doubled backslash is not an escape
    ('def f():\n    """\n    >>> g()\n    \'x\\ny\'\n    \'x\\\\ny\'\n    """\n', {(4, 7, 'ESC602', '\\n')}),
    # a blank line ends the example: the next line is prose again (and 'ny' is no command)
    ('def f():\n    """\n    >>> g()\n\n    x\\ny\n    """\n', set()),
    # a command inside an example is both kinds
    ('"""\n>>> h(\'\\rho\')\n"""\n', {(2, 8, 'ESC601', '\\r'), (2, 8, 'ESC602', '\\r')}),
    # a raw docstring: no escape at all
    ('def f():\n    r"""\n    >>> f(\'a\\tb\')\n    """\n', set()),
    # an example line in a string that is not a docstring (the second statement): no ESC602
    ('def f():\n    pass\n    """\n    >>> f(\'a\\tb\')\n    """\n', set()),
    # an f-string's text is read outside its fields; '\x1b' and '\101' in an example are escapes too
    ("x = f'{a}\\times {b!r:>3}'\n", {(1, 10, 'ESC601', '\\t')}),
    ('"""\n>>> p(\'\\x1b[1m\\101\')\n"""\n', {(2, 8, 'ESC602', '\\x1b'), (2, 15, 'ESC602', '\\101')}),
    # an invalid escape (\s) is not a valid one: left to ESC3xx; \\ and \' are never ESC602
    ('"""\n>>> re.split(\'\\s\', \'\\\\\', \'\\\'\')\n"""\n', set()),
]


@pytest.mark.parametrize('src, expected', CASES)
def test_candidates(src, expected):
    assert found(src) == expected
    for line, column, _kind, _escape in expected:
        assert is_escape(src, line, column)


@pytest.mark.parametrize('src, kept', [
    ("x = '\\\\theta'\n", '\\theta'),   # the backslash is kept: TeX written right
    ("x = r'\\nabla'\n", '\\nabla'),
    ("x = '\\number'\n", '\nu' + 'mber'),  # a real newline, but 'number' is not in the list
    ("x = b'\\nabla'\n", b'\nabla'),   # bytes
])
def test_left_out_cases_as_cpython_compiles_them(src, kept):
    assert constants(src) == [kept]
    if isinstance(kept, str) and kept.startswith('\n'):
        assert 'number' not in COMMANDS and 'nabla' in COMMANDS


def test_the_command_list_has_the_names_of_issue_30():
    for name in ('arabic', 'textup', 'textsl', 'theta', 'nabla', 'rightarrow', 'times', 'rho', 'frac'):
        assert name in COMMANDS
    assert not any(len(name) < 2 or not name.isalpha() for name in COMMANDS)


def test_both_tools_read_and_skip_the_same_files(tmp_path):
    package = tmp_path / '2026-12-01' / 'pkg-1.0'
    package.mkdir(parents=True)
    (package / 'good.py').write_text("x = '\\nabla'\n")
    (package / 'py2.py').write_text("print 'a\\tb'\n")
    (package / 'broken.py').write_text('def f(:\n')
    for py2 in (False, True) if importlib.util.find_spec('lib2to3') else (False,):  # lib2to3: 3.12 and older
        counts: Counter = Counter()
        unreadable: list[str] = []
        listed = list(recall_finder.rows([str(tmp_path)], py2, counts, unreadable))
        checker_unreadable: list[str] = []
        list(survey.rows([str(tmp_path)], ('ESC6',), py2, Counter(), checker_unreadable))
        assert unreadable == checker_unreadable
        names = sorted(os.path.basename(path) for path in unreadable)
        assert names == (['broken.py'] if py2 else ['broken.py', 'py2.py'])
        assert listed[0][:7] == ('pkg', '1.0', 'good.py', '1', '6', 'ESC601', '\\n')


def test_the_join_marks_reported_candidates_and_lists_reports_that_are_not_candidates():
    place = {'package': 'pkg', 'version': '1.0', 'file': 'a.py', 'line': '3'}
    candidates = [{**place, 'column': '5', 'kind': 'ESC601', 'source': 's'},
                  {**place, 'column': '9', 'kind': 'ESC601', 'source': 's'}]
    run = [{**place, 'column': '5', 'code': 'ESC601', 'exemption': ''},
           {**place, 'column': '9', 'code': 'ESC601', 'exemption': 'no-tex-context'},
           {**place, 'column': '9', 'code': 'ESC602', 'exemption': ''}]  # same place, another code
    columns, rows = recall_join.joined(list(candidates[0]), candidates, run, 'first')
    assert columns[-1] == 'source' and columns[-3:-1] == ['label', 'note']
    marks = [(row['reported_first'], row['silenced_first']) for row in rows]
    assert marks == [('yes', ''), ('no', 'no-tex-context')]
    assert recall_join.not_candidates(rows, run) == [run[2]]
