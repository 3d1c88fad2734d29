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
from helpers import data_cases, labeled_score, processor_for, reports, results
from test_docs import readme_section
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
            compile(example, '<example>', 'single')


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


@pytest.mark.parametrize('family, exemption', FAMILIES, ids=list(map(_id, FAMILIES)))
def test_readme_lists_the_exemption_with_its_example(family, exemption):
    section = readme_section(exemption.codes[0]).split('**Known limits.**', 1)[1]
    assert f'`{exemption.name}`' in section
    assert f'```python\n{exemption.example}```' in section


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


if __name__ == '__main__':
    print(labeled_score('tex_labeled.py', ('ESC601',)))
    print(labeled_score('doctest_labeled.py', ('ESC602',)))


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
