"""ESC601 and ESC602 beyond the data cases: the labeled sets' scores, the
exemptions, the rows ``source`` may leave unread, and flake8 end to end.

The cases are in tests/data/tex_labeled.py and tests/data/doctest_labeled.py.
"""
from __future__ import annotations

import ast
import doctest
import io
import tokenize
import warnings

import pytest

from flake8_escapes import checks, doctests, fix, rules, source, tex
from helpers import data_cases, finders, labeled_score, processor_for, reports, results
from test_flake8 import flake8


@pytest.mark.parametrize('name, code', [('tex_labeled.py', 'ESC601'), ('doctest_labeled.py', 'ESC602')])
def test_labeled_set_precision_and_recall(name, code):
    score = labeled_score(name, (code,))
    assert score['hazard cases'] >= 20 and score['clean cases'] >= 20, score
    assert score['fp'] == 0, score
    assert score['tp'] / (score['tp'] + score['fn']) >= 0.9, score


def docstrings(src: str) -> list[str]:
    """The docstrings of a source's module, classes and functions, as CPython reads them."""
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', SyntaxWarning)
        warnings.simplefilter('ignore', DeprecationWarning)
        tree = ast.parse(src)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            text = ast.get_docstring(node, clean=False)
            if text is not None:
                found.append(text)
    return found


def examples(text: str) -> list[tuple[str, str]] | str:
    """doctest's own reading of a docstring: each example's source and expected
    output, or the error doctest raises on it (an example it cannot read)."""
    try:
        return [(item.source, item.want) for item in doctest.DocTestParser().get_examples(text)]
    except ValueError as error:
        return f'ValueError: {error}'


def raw_spelling(src: str) -> str:
    """``src`` with an ``r`` before each str literal that has no prefix: the examples as written."""
    lines = io.StringIO(src).readlines()
    inserts = [tok.start for tok in tokenize.generate_tokens(io.StringIO(src).readline)
               if tok.type == tokenize.STRING and tok.string[0] in '\'"']
    for row, col in reversed(inserts):
        lines[row - 1] = lines[row - 1][:col] + 'r' + lines[row - 1][col:]
    return ''.join(lines)


@pytest.mark.parametrize('case', data_cases('doctest_labeled.py'), ids=lambda case: case[0])
def test_doctest_labels_agree_with_doctest(case):
    """By doctest's own parser: a hazard's docstring gives other examples than
    its raw spelling (the examples as written); every example doctest reads
    from a clean docstring compiles."""
    _, src, expected = case
    value = docstrings(src)
    if expected:
        written = docstrings(raw_spelling(src))
        assert any(examples(a) != examples(b) for a, b in zip(value, written)), value
        return
    for text in value:
        found = examples(text)
        assert not isinstance(found, str), found
        for example, _ in found:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter('always')
                compile(example, '<example>', 'single')
            # only an invalid escape (issue 40: '\\d+' leaves '\d+'), which keeps its backslash
            assert all('invalid escape sequence' in str(item.message) for item in caught), caught


def run(src: str) -> tuple[set[str], list[rules.Silenced]]:
    """(``{'2:5 ESC601', ...}``, the silenced candidates) for ``src``, through ``checks.all_reports``."""
    processor = processor_for(lines=io.StringIO(src, newline=None).readlines())
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', SyntaxWarning)
        warnings.simplefilter('ignore', DeprecationWarning)
        tree, tokens = processor.build_ast(), processor.file_tokens
    silenced: list[rules.Silenced] = []
    found = checks.all_reports(tree, tokens, processor.lines, (), silenced=silenced)
    return {f'{report.line}:{report.col + 1} {report.code}' for report in found}, silenced


FAMILIES = [(tex, exemption) for exemption in tex.EXEMPTIONS] + [
    (doctests, exemption) for exemption in doctests.EXEMPTIONS]


def _id(item: tuple[object, rules.Exemption]) -> str:
    return item[1].name


@pytest.mark.parametrize('family, exemption', FAMILIES, ids=list(map(_id, FAMILIES)))
def test_exemption_example_is_quiet_and_named(family, exemption):
    found, silenced = run(exemption.example)
    assert not {item for item in found if item.endswith(exemption.codes)}
    assert silenced and exemption.name in {item.exemption for item in silenced}


@pytest.mark.parametrize('family, exemption', FAMILIES, ids=list(map(_id, FAMILIES)))
def test_exemption_example_is_reported_without_it(family, exemption, monkeypatch):
    others = tuple(item for item in family.EXEMPTIONS if item is not exemption)
    monkeypatch.setattr(family, 'EXEMPTIONS', others)
    found, silenced = run(exemption.example)
    assert {item for item in found if item.endswith(exemption.codes)}
    assert exemption.name not in {item.exemption for item in silenced}


@pytest.mark.parametrize('src, expected', [
    ("x = '$\\theta$'\n", {'1:7 ESC601'}),
    ("x = '$\\thetas$'\n", set()),         # not a command: the whole name must follow
    ("x = '$\\the$'\n", set()),            # a part of one is not one either
    ("x = '$\\theta_0$'\n", {'1:7 ESC601'}),  # a non-letter ends the name
    ("x = '$\\t$'\n", set()),              # one-letter accents are left out
    ("x = b'$\\theta$'\n", set()),         # bytes are never TeX
    ("x = '$\\\\theta$'\n", set()),        # doubled
    ("x = u'$\\frac{a}{b}$'\n", {'1:8 ESC601'}),
    ("x = '\\\\alpha + \\beta'\n", {'1:16 ESC601'}),   # beside a doubled command
    ("x = '\\sigma \\times 2'\n", {'1:13 ESC601'}),    # beside an invalid escape's command
    ("x = 'a^{2} \\times b'\n", {'1:12 ESC601'}),      # beside a superscript in braces
    ("x = '$x$ \\nu $y$'\n", set()),       # between two math spans, not inside one
    ("x = 'N\\N{GREEK SMALL LETTER NU}\\nu'\n", set()),   # \N{...} is not a command with an argument
    # after the science survey (tests/data/survey_science.md): generated source, a newline before e
    ("x = \"a = Symbol('a_{b}')\\ne = a\"\n", set()),
    ("x = '$a \\ne b$'\n", {'1:9 ESC601'}),      # an everyday word inside $...$ is TeX
    ('def f():\n    """Ratio :math:`\\nu_{12}`."""\n', {'2:21 ESC601'}),  # ... and in a :math: role
    # ... and code disabled in a string statement
    ("import os\n'''\nplt.xlabel(r'$\\beta$')\n'''\n", set()),
])
def test_tex_cases(src, expected):
    assert {item for item in results(src) if item.endswith('ESC601')} == expected


@pytest.mark.parametrize('src', [
    "plt.title(f'$\\theta$ = {theta}')\n",
    "plt.title(f'{name}: $\\alpha$')\n",
])
def test_tex_in_fstrings(src):
    assert {item.split()[1] for item in results(src)} == {'ESC601'}


def test_every_command_is_a_whole_name_of_its_escape_letter():
    for letter, names in tex.COMMANDS.items():
        assert letter in 'abfnrtv'
        for name in names:
            assert name.startswith(letter) and name.isalpha() and len(name) >= 2, name
            assert tex.may_hold_command('\\' + name) and not tex.may_hold_command('\\' + name + 'x')
    assert tex.EVERYDAY_WORDS <= {name for names in tex.COMMANDS.values() for name in names}


@pytest.mark.parametrize('code', ['ESC601', 'ESC602'])
def test_no_report_on_a_row_source_leaves_unread(code):
    """The labeled hazards' rows are all read: ``source.reportable_rows``
    keeps every row a report stands on."""
    name = 'tex_labeled.py' if code == 'ESC601' else 'doctest_labeled.py'
    for _, src, expected in data_cases(name):
        lines = io.StringIO(src, newline=None).readlines()
        with warnings.catch_warnings():
            warnings.simplefilter('ignore', SyntaxWarning)
            warnings.simplefilter('ignore', DeprecationWarning)
            rows = set(source.reportable_rows(lines, source.Statements(ast.parse(src), len(lines))))
        for item in expected:
            assert int(item.split(':')[0]) in rows, (src, item)


def test_example_rows_end_at_a_blank_row():
    lines = ['def f():\n', '    """>>> f()\n', "    'a\\tb'\n", '\n', "    'c\\td'\n", '    """\n']
    assert doctests.example_rows(lines) == {2, 3}  # row 5's escape is in prose


@pytest.mark.parametrize('example, named', [
    (">>> g(r'\\xa0')", 'the character U+00A0 in a raw string'),  # a no-break space
    (">>> g(r'\\1')", 'a control character in a raw string'),
    (">>> h()\n    '\\x96'", 'a control character in the output'),     # C1 control: repr() writes it escaped
    (">>> g(1,\\\n    ...   2)", "its '...' prompt included, part of the example's code"),
    (">>> g('''\\\n    ...   x''')", "its '...' prompt included, part of a string"),
])
def test_doctest_message_names_the_character(example, named):
    messages = [message for _, _, message in reports(f'def f():\n    """\n    {example}\n    """\n')]
    assert messages and all(named in message for message in messages), messages


def test_end_to_end(tmp_path):
    (tmp_path / 'bad.py').write_text("import matplotlib.pyplot as plt\nplt.xlabel('$\\theta$ [rad]')\n"
                                     'def f(s):\n    """>>> f(\'a\\nb\')"""\n')
    assert flake8(tmp_path, '--select=ESC', 'bad.py') == (1, [
        "bad.py:2:14: ESC601 '\\t' is a tab that cuts TeX's \\theta; use a raw string",
        "bad.py:4:16: ESC602 '\\n' in a doctest example makes a line break inside a string; "
        "use a raw docstring or '\\\\n'",
    ])


@pytest.mark.parametrize('before, after', [
    ("plt.xlabel('$\\theta$ [rad]')\n", "plt.xlabel(r'$\\theta$ [rad]')\n"),
    # another escape of the literal is meant: the command's backslash doubled
    ("f.write('\\textbf{Total} & 1\\n')\n", "f.write('\\\\textbf{Total} & 1\\n')\n"),
    ("plt.title(f'$\\alpha$ = {a}')\n", "plt.title(f'$\\\\alpha$ = {a}')\n"),
    ('def f(s):\n    """>>> f(\'a\\nb\')\n    2\n    """\n',
     'def f(s):\n    r""">>> f(\'a\\nb\')\n    2\n    """\n'),
    # the docstring's other newline lays it out: doubled, not raw
    ('def f(s):\n    """Example:\\n>>> f(\'a\\nb\')\\n2\\n"""\n',
     'def f(s):\n    """Example:\\n>>> f(\'a\\\\nb\')\\n2\\n"""\n'),
])
def test_unsafe_fixes(before, after):
    assert fix.fix_text(before, set(fix.SAFE + fix.UNSAFE)).text == after
    assert fix.fix_text(before, set(fix.SAFE)).text == before  # never without --unsafe
    assert not {item for item in results(after) if item.endswith(('ESC601', 'ESC602'))}


# Issue 30: the finding rules ------------------------------------------------------------------

FINDERS = [(tex, finder) for finder in tex.FINDERS] + [(doctests, finder) for finder in doctests.FINDERS]


def _finder_id(item: tuple[object, rules.Finder]) -> str:
    return item[1].name


def finders_of(src: str) -> set[str]:
    """The finding rules of the ESC601 reports of ``src``."""
    return finders(src, 'ESC601')


@pytest.mark.parametrize('family, finder', FINDERS, ids=list(map(_finder_id, FINDERS)))
def test_finder_example_is_reported(family, finder):
    found = {item for item in results(finder.example) if item.endswith(finder.codes)}
    assert found, finder.name
    assert found == {item for item in run(finder.example)[0] if item.endswith(finder.codes)}
    if family is tex:
        assert finders_of(finder.example) == {finder.name}


@pytest.mark.parametrize('family, finder', FINDERS, ids=list(map(_finder_id, FINDERS)))
def test_finder_example_loses_a_report_without_it(family, finder, monkeypatch):
    found = {item for item in run(finder.example)[0] if item.endswith(finder.codes)}
    monkeypatch.setattr(family, 'FINDERS', tuple(item for item in family.FINDERS if item is not finder))
    assert {item for item in run(finder.example)[0] if item.endswith(finder.codes)} < found


@pytest.mark.parametrize('src, expected', [
    # issue 30, item 1: TeX in docstring prose
    ('def f():\n    """Gradient \\nabla f of the loss."""\n', {'2:17 ESC601'}),
    ('def f():\n    """Returns the angle \\theta in radians."""\n', {'2:26 ESC601'}),
    ('def f():\n    """Cost grows as n \\times m."""\n', {'2:24 ESC601'}),
    ('def f():\n    """Maps A \\rightarrow B."""\n', {'2:15 ESC601'}),
    ('def f():\n    """Use \\approx for large n."""\n', {'2:12 ESC601'}),
    ('def f():\n    """Printed as {\\tt name}."""\n', {'2:20 ESC601'}),
    ('def f():\n    """Angle \\theta."""\n', {'2:14 ESC601'}),    # a full stop is not an extension
    # item 2: the docstring is the context
    ('def f():\n    """Density.\n\n    .. math:: \\\\rho = m / V\n\n    Zero when x \\neq 0.\n    """\n',
     {'6:17 ESC601'}),
    ('def f():\n    """Uses $x$.\n\n    Then \\nu is small.\n    """\n', {'4:10 ESC601'}),
    ('def f():\n    """Uses \\sigma.\n\n    Then \\to the end.\n    """\n', {'4:10 ESC601'}),
    # item 3: partial escaping, on another line of the literal
    ('s = """\\\\mathbf{x}\n\\rtimes y"""\n', {'2:1 ESC601'}),
    # item 4: misspelled roles and directives, the default role
    ('def f():\n    """..math: \\frac12"""\n', {'2:16 ESC601'}),
    ('def f():\n    """.. math: \\nu"""\n', {'2:17 ESC601'}),
    ('def f():\n    """:math:\\tau is the time."""\n', {'2:14 ESC601'}),
    ('def f():\n    """The map `x \\to y` here."""\n', {'2:19 ESC601'}),
    # item 5: tables
    ("t = {'\\theta': 'θ', '\\rho': 'ρ', '\\\\sigma': 'σ'}\n", {'1:7 ESC601', '1:22 ESC601'}),
    ("t = {'theta': '\\theta', 'nu': '\\nu', 'sigma': r'\\sigma'}\n", {'1:16 ESC601', '1:32 ESC601'}),
    ("t = ['\\theta', '\\sigma']\n", {'1:7 ESC601'}),
    # item 6: group commands and labels
    ('labels = {"r": "r_{\\rm eff}"}\n', {'1:20 ESC601'}),
    ("u = '{\\rm E}'\n", {'1:7 ESC601'}),
    ("plot(x, label='{\\bf x}')\n", {'1:17 ESC601'}),
    ('x = """$$ {\\bf\nb}_{i}$$"""\n', {'1:12 ESC601'}),   # a group whose line breaks after the command
    ("x = '$$\\theta$$'\n", {'1:8 ESC601'}),           # display math: $$ is one delimiter
    # a literal that names a TeX symbol
    ("names.append('\\alpha_%i' % k)\n", {'1:15 ESC601'}),
    ("names.append('\\nu_%i' % k)\n", set()),       # a short name: \n and u_ ... in generated code
    # a command of the generated list the hand-typed one lacked
    ("x = '$\\arabic{page}$'\n", {'1:7 ESC601'}),
])
def test_issue_30_tex_forms(src, expected):
    found = {item for item in results(src) if item.endswith('ESC601')}
    assert found == expected
    assert found == {item for item in run(src)[0] if item.endswith('ESC601')}  # row hints = full tokens


@pytest.mark.parametrize('src', [
    "print('Error\\nnot found')\n",                # a newline before a word in a message
    "header = '\\tName\\tValue'\n",                 # a table header with tabs
    'code = "x = 1\\ni = 0"\n',                     # code in a string: \ni is a newline and i
    "name = 'results\\beta.csv'\n",                 # a file name
    'def f():\n    """Writes "x = 1\\ni = 0"."""\n',   # code in a docstring: a short name
    'def f():\n    """Saved to results\\beta.csv."""\n',    # a file name in a docstring
    'def f():\n    """Reads data\\ref\\run1.txt."""\n',      # a path's part in a docstring
    'def f():\n    """Returns\\nnot a list."""\n',      # a newline before "not": \nnot is no command
    'def f():\n    """Tabs: a\\tb and c\\td."""\n',
    "t = {'a': '\\t', 'b': '\\n'}\n",              # a table of escapes, not of TeX
    "t = ['\\theta', 'beta']\n",                    # a table with no TeX item: the name alone
    "x = '{\\n}'\n",
    'def f():\n    """Rate \\nu of decay."""\n',     # a short name needs one more sign
    'label = QLabel("(Harmonics can be included\\neg 50, 100, 150)")\n',  # a newline before "eg"
    "path = '\\bar_chart.png'\n",                   # a file name, not a symbol
    'def f():\n    """Cost $5 and $6.\n\n    Then \\to it.\n    """\n',  # dollars that hold no math
])
def test_issue_30_tex_look_alikes(src):
    assert not {item for item in results(src) if item.endswith('ESC601')}


@pytest.mark.parametrize('src, expected', [
    # item 8: a control character in an example's source or comment
    ('def f():\n    """>>> plain(\'\\x1b[1mbold\')\n    """\n', {'2:19 ESC602'}),
    ('def f():\n    """>>> fields(\'x\\ty\')\n    """\n', {'2:21 ESC602'}),
    ('def f():\n    """>>> f()  # a\\x7fb\n    """\n', {'2:20 ESC602'}),
    # item 9: a line break in a comment that the row's real line break follows
    ('def f():\n    """>>> sep = chr(10)  # sep is \\n\n    """\n', {'2:36 ESC602'}),
    # item 10: every line break of one string of an output, and across ... lines
    ('def f():\n    """>>> f()\n    \'a\\nb\\nc\'\n    """\n', {'3:7 ESC602', '3:10 ESC602'}),
    # the survey: a continuation before a '...' row joins the prompt into the code, or into a string
    ('def f():\n    """>>> g(1,\\\n    ...   2)\n    """\n', {'2:16 ESC602'}),
    # the survey: a no-break space, which Python does not print, in an example's source
    ('def f():\n    """>>> g(\'a\\xa0b\')\n    """\n', {'2:16 ESC602'}),
    ('def f():\n    """>>> g(\'\'\'\\\n    ...   x\'\'\')\n    """\n', {'2:17 ESC602'}),
])
def test_issue_30_doctest_forms(src, expected):
    assert expected
    found = {item for item in results(src) if item.endswith('ESC602')}
    assert found == expected
    assert found == {item for item in run(src)[0] if item.endswith('ESC602')}


@pytest.mark.parametrize('src', [
    'def f():\n    """>>> f(\'caf\\xe9\')\n    """\n',      # printable: the character shown
    'def f():\n    """>>> f()  # one\\n1\\n"""\n',           # one-line layout in a comment
    'def f():\n    """>>> g(1,\\\n            2)\n    """\n',   # a continuation that joins code
    'def f():\n    """>>> g(\'x\\xb5\')\n    """\n',      # a printable character (micro sign)
    'def f():\n    """>>> f()\n    \\tName\\tValue\n    """\n',   # a printed table header
    'def f():\n    """Writes \'Error\\nnot found\'.\n\n    >>> f()\n    """\n',  # prose, not an example
])
def test_issue_30_doctest_look_alikes(src):
    assert not {item for item in results(src) if item.endswith('ESC602')}


@pytest.mark.parametrize('name', sorted(tex.NAMES))
def test_row_hints_reach_every_command_in_prose(name):
    """A docstring row with a command and no ``$`` reaches the checks: the
    plugin (row hints) reports what the full tokens do."""
    src = (f'def f():\n    """Uses \\{name} here.\n\n    And :math:`x` and\n    \\{name}.\n    """\n'
           f"t = {{'\\{name}': 1, '\\\\sigma': 2}}\n")
    assert results(src) == run(src)[0]
    assert {'5:5 ESC601', '7:7 ESC601'} <= results(src)


@pytest.mark.parametrize('before, after', [
    ('def f():\n    """Gradient \\nabla f."""\n', 'def f():\n    r"""Gradient \\nabla f."""\n'),
    ('def f():\n    """:math:`\\\\rho` when x \\ne 0."""\n',
     'def f():\n    """:math:`\\\\rho` when x \\\\ne 0."""\n'),
    ("t = {'\\theta': 'θ', '\\\\sigma': 'σ'}\n", "t = {r'\\theta': 'θ', '\\\\sigma': 'σ'}\n"),
    ('labels = {"r": "r_{\\rm eff}\\n"}\n', 'labels = {"r": "r_{\\\\rm eff}\\n"}\n'),
    ('def f():\n    """>>> f(\'x\\ty\')\n    """\n', 'def f():\n    r""">>> f(\'x\\ty\')\n    """\n'),
    ('def f():\n    """>>> f(\'\\x1b\')  # bold\\n1\\n"""\n',
     'def f():\n    """>>> f(\'\\\\x1b\')  # bold\\n1\\n"""\n'),
    ('def f():\n    """>>> sep = chr(10)  # sep is \\n\n    """\n',
     'def f():\n    r""">>> sep = chr(10)  # sep is \\n\n    """\n'),
    # a continuation inside an example's string: its next row stays a '...' row of the example
    ('def f():\n    """>>> g(\'\'\'\\\n    ...   x\'\'\')\n    """\n',
     'def f():\n    r""">>> g(\'\'\'\\\n    ...   x\'\'\')\n    """\n'),
])
def test_issue_30_unsafe_fixes(before, after):
    first = fix.fix_text(before, set(fix.SAFE + fix.UNSAFE))
    assert first.text == after
    assert fix.fix_text(after, set(fix.SAFE + fix.UNSAFE)).text == after  # a second run changes nothing
    assert not {item for item in results(after) if item.endswith(('ESC601', 'ESC602'))}


def test_control_character_fix_keeps_doctests_examples():
    """The proof: doctest's own parse of the fixed docstring compiles to the
    same ASTs; a NUL, which no example compiles with, is left alone."""
    good = 'def f():\n    """>>> f(\'\\x1b[0m\', 1)\n    2\n    """\n'
    fixed = fix.fix_text(good, set(fix.UNSAFE)).text
    parser = doctest.DocTestParser()
    old, new = (parser.get_examples(text) for text in (docstrings(good)[0], docstrings(fixed)[0]))
    assert [ast.dump(ast.parse(e.source)) for e in old] == [ast.dump(ast.parse(e.source)) for e in new]
    nul = 'def f():\n    """>>> f(\'a\\0b\')\n    """\n'
    result = fix.fix_text(nul, set(fix.UNSAFE))
    assert result.text == nul
    assert any('same AST' in item.reason for item in result.left_alone)


if __name__ == '__main__':
    print(labeled_score('tex_labeled.py', ('ESC601',)))
    print(labeled_score('doctest_labeled.py', ('ESC602',)))
