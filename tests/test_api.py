"""The public API (flake8_escapes.api): lint a text, plan its fixes, silence a report."""
from __future__ import annotations

import ast
import os
import pathlib
import subprocess
import sys
import warnings

import pytest

from flake8_escapes import api, cli
from flake8_escapes.fix.files import apply

REGEX = "import re\nfound = re.sub(r'(a)', '<\\1>', text)\n"


def compiled_warnings(source: str) -> list[int]:
    """The lines CPython itself warns about (an invalid escape), compiling ``source``."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        compile(source, '<test>', 'exec')
    return sorted(w.lineno for w in caught if issubclass(w.category, (SyntaxWarning, DeprecationWarning)))


def dumped(source: str) -> str:
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')  # the escapes compiled on purpose
        return ast.dump(ast.parse(source))


def ranges(source: str, **kwargs) -> list[tuple[str, str]]:
    lines = source.splitlines(keepends=True)
    return [(item.code, lines[item.line - 1][item.column:item.end_column])
            for item in api.lint(source, **kwargs)]


def test_lint_gives_the_range_of_each_escape_in_code_points():
    source = "x = '😀\\d'\ny = 'caf\\u00e9\\q'\n"
    assert ranges(source) == [('ESC301', '\\d'), ('ESC301', '\\q')]
    assert [item.line for item in api.lint(source)] == compiled_warnings(source)
    first = api.lint(source)[0]
    assert (first.line, first.column, first.end_line, first.end_column) == (1, 6, 1, 8)  # the emoji is one
    assert first.fix == 'safe' and first.message.startswith("invalid escape sequence '\\d'")


def test_lint_reports_what_check_reports_on_a_text_that_does_not_parse():
    source = "home = 'C:\\Users\\me'\n"
    with pytest.raises(SyntaxError) as refused:
        compile(source, '<test>', 'exec')
    assert 'position 2-3: truncated \\UXXXXXXXX' in str(refused.value)  # CPython's range: the '\U'
    assert ranges(source) == [('ESC304', '\\U'), ('ESC301', '\\m')]


def test_lint_honours_noqa_and_the_configuration(tmp_path):
    assert api.lint("x = '\\d'  # noqa: ESC301\n") == []
    assert [item.code for item in api.lint("x = '\\d'  # noqa: E501\n")] == ['ESC301']
    (tmp_path / 'setup.cfg').write_text('[flake8]\nper-file-ignores = tests/*: ESC301\n'
                                        'escapes-regex-functions = mylib.sub:0:1\n')
    settings = api.settings(str(tmp_path))
    source = "import mylib\nx = '\\d'\nmylib.sub(r'(a)', '<\\1>', y)\n"
    assert [item.code for item in api.lint(source, settings, str(tmp_path / 'a.py'))] == ['ESC301', 'ESC401']
    assert [item.code for item in api.lint(source, settings, str(tmp_path / 'tests' / 'a.py'))] == ['ESC401']
    assert [item.code for item in api.lint(source)] == ['ESC301']  # without the settings: not a regex call


def test_fix_plans_the_fixers_edits_and_proofs():
    source = "x = '\\d' + '\\q'\n" + REGEX
    planned = api.fix(source)
    assert apply(source, planned.edits) == planned.text
    assert planned.fixed == ['ESC301', 'ESC301'] and planned.unsafe_left == ['ESC401']
    assert dumped(planned.text) == dumped(source)  # safe: same values
    assert [item.code for item in api.lint(planned.text)] == ['ESC401']
    unsafe = api.fix(source, unsafe=True)
    assert apply(source, unsafe.edits) == unsafe.text and api.lint(unsafe.text) == []


def test_fix_all_over_several_rounds_gives_edits_on_the_text_given():
    source = "home = 'C:\\Users\\new'\n"  # ESC304 repaired first, then the rounds run on it
    planned = api.fix(source, unsafe=True)
    assert planned.text == "home = r'C:\\Users\\new'\n"
    assert apply(source, planned.edits) == planned.text


def test_fixes_plan_one_diagnostic_alone():
    source = "x = '\\d'\ny = '\\q'\n"
    first, second = api.lint(source)
    one, two = api.fixes(source, [first, second])
    assert one.text == "x = r'\\d'\ny = '\\q'\n" and one.fixed == ['ESC301']
    assert two.text == "x = '\\d'\ny = r'\\q'\n"


def test_a_text_that_cannot_be_fixed_says_why():
    planned = api.fix("x = '\\d'\ndef (:\n")
    assert planned.edits == [] and planned.refused.startswith('does not parse')


@pytest.mark.parametrize('source, expected', [
    ("x = '\\d'\n", "x = '\\d'  # noqa: ESC301\n"),
    ("x = '\\d'  # noqa: E501\n", "x = '\\d'  # noqa: E501,ESC301\n"),
    ("x = '\\d'  # noqa:E501, W291  \n", "x = '\\d'  # noqa:E501, W291,ESC301  \n"),
    ('x = """\n\\d\n"""\n', 'x = """\n\\d\n"""  # noqa: ESC301\n'),  # flake8 reads the string's last line
    ('x = f(\n    "\\d",  # noqa: E501\n)\n', 'x = f(\n    "\\d",  # noqa: E501,ESC301\n)\n'),
])
def test_noqa_edit_silences_the_report_as_flake8_reads_it(tmp_path, source, expected):
    diagnostic, = api.lint(source)
    edited = apply(source, [api.noqa_edit(source, diagnostic)])
    assert edited == expected
    path = tmp_path / 'a.py'
    path.write_text(edited)
    run = subprocess.run([sys.executable, '-m', 'flake8', '--isolated', '--select=ESC', str(path)],
                         capture_output=True, text=True, cwd=tmp_path,
                         env={**os.environ, 'PYTHONWARNINGS': ''})
    assert run.returncode == 0 and run.stdout == '', run.stdout + run.stderr


@pytest.mark.parametrize('source', [
    "import os  # noqa: F401\nx = '\\d'\n",                  # a noqa of another statement
    "x = '\\d'  # noqa: ESC301\n",                            # on the report's line
    "a = '# noqa'; \\\nx = '\\d'\n",                          # a continuation joins the lines
    'a = """\n# noqa\n"""; x = \'\\d\'\n',                    # a string's lines, then the report
    'x = f("""\n\\d\n""")  # noqa: ESC301\n',                  # the string's last line has the comment
    "@dec(1)  # noqa: ESC301\ndef f(x='\\d'):\n    pass\n",     # a decorator: a line of its own
    "def f():\n    x = '\\d'\n    y = 1  # noqa\n",            # the same statement, another line
    "x = ('\\d',\n     1)  # noqa: ESC301\n",                   # brackets: a line end inside is an NL
])
def test_lint_honours_noqa_on_the_lines_flake8_reads(tmp_path, source):
    path = tmp_path / 'a.py'
    path.write_text(source)
    run = subprocess.run([sys.executable, '-m', 'flake8', '--isolated', '--select=ESC', str(path)],
                         capture_output=True, text=True, cwd=tmp_path,
                         env={**os.environ, 'PYTHONWARNINGS': ''})
    shown = [line.split(':')[1] + ' ' + line.split(': ', 1)[1].split()[0] for line in run.stdout.splitlines()]
    assert [f'{item.line} {item.code}' for item in api.lint(source)] == shown, run.stderr


def test_a_noqa_outside_the_reports_statements_needs_no_tokenizing(monkeypatch):
    """flake8's noqa lines take a pass of the tokenizer; a text whose ``# noqa`` comments
    stand in other top-level statements than its reports is spared it."""
    passes = []
    noqa_lines = api._noqa_lines
    monkeypatch.setattr(api, '_noqa_lines', lambda lines: passes.append(1) or noqa_lines(lines))
    assert [item.code for item in api.lint("import os  # noqa: F401\nx = '\\d'\n")] == ['ESC301']
    assert passes == []
    assert api.lint("import os\nx = '\\d'  # noqa: ESC301\n") == [] and passes == [1]


DATA = pathlib.Path(__file__).parent / 'data'
DATA_FILES = sorted([*DATA.glob('*.py'), *(DATA / 'refused').glob('*.py')])


@pytest.mark.parametrize('path', DATA_FILES, ids=lambda path: path.name)
def test_lint_gives_what_the_check_command_gives(path, capsys):
    """The API against ``flake8-escapes check`` on the test data, refused files included."""
    text = path.read_text(encoding='utf-8')
    cli.main(['check', '--isolated', '--select=ESC', str(path)])
    shown = {tuple(line.split(': ', 1)[0].split(':')[1:]) + (line.split(': ', 1)[1].split()[0],)
             for line in capsys.readouterr().out.splitlines()}
    linted = {(str(item.line), str(item.column + 1), item.code) for item in api.lint(text)}
    assert linted == shown
    assert all(text.splitlines()[item.line - 1][item.column] == '\\' for item in api.lint(text))


@pytest.mark.parametrize('path', DATA_FILES, ids=lambda path: path.name)
def test_lint_without_the_prefilter_gives_the_same_reports(path):
    """``prefilter=False`` (the server, on a text whose last version reported) only skips
    check's pre-filter: the same reports, on texts that parse and on refused ones."""
    text = path.read_text(encoding='utf-8')
    assert api.lint(text, prefilter=False) == api.lint(text)


@pytest.mark.parametrize('source', [
    "x = 'a\\tb'  # '\\d'\n",   # everyday escapes, a backslash in a comment: the pre-filter says no
    "x = 'C:\\temp'\n",           # a path by its text
    "x = '\\d'\ndef (:\n",         # does not parse: the text's reports
    "x = '\\t'\ndef (:\n",         # does not parse, nothing to report
])
def test_lint_without_the_prefilter_on_small_texts(source):
    assert api.lint(source, prefilter=False) == api.lint(source)


def test_titles_say_what_the_fix_does_and_what_an_unsafe_one_changes():
    """One wording for the server and the pylsp plugin, from the fix's own edits."""
    source = "import re\nx = '\\d'\ny = '\\d\\n'\nz = '\\777'\nfound = re.sub(r'(a)', '<\\1>', s)\n"
    found = api.lint(source)
    assert [item.code for item in found] == ['ESC301', 'ESC301', 'ESC303', 'ESC401']
    titles = [api.fix_title(item, planned.edits) for item, planned in zip(found, api.fixes(source, found))]
    assert titles == [
        'Make raw (same value)',                 # x = r'\d'
        'Double the backslash (same value)',     # '\n' must stay a newline: y = '\\d\n'
        'Write `\\u01ff` (same value)',          # the value CPython stores for '\777', as written
        'Make raw (changes the value: `\\1` becomes a backreference)',
    ]
    assert api.fix_title(found[0], []) == 'Fix ESC301 (same value)'  # no edit: offered disabled
    assert api.noqa_title(found[3]) == 'Ignore ESC401 on this line'


def test_noqa_edits_tokenize_the_text_once_for_every_diagnostic(monkeypatch):
    source = "x = '\\d'\ny = f(\n    '\\q',  # noqa: E501\n)\n"
    found = api.lint(source)
    passes = []
    noqa_lines = api._noqa_lines
    monkeypatch.setattr(api, '_noqa_lines', lambda lines: passes.append(1) or noqa_lines(lines))
    edits = api.noqa_edits(source, found)
    assert len(passes) == 1
    assert apply(source, [edit for edit in edits if edit is not None]) == (
        "x = '\\d'  # noqa: ESC301\ny = f(\n    '\\q',  # noqa: E501,ESC301\n)\n")
    assert edits == [api.noqa_edit(source, item) for item in found]


def test_the_fix_of_a_refused_escape_makes_the_text_compile():
    source = "home = 'C:\\Users'\nx = '\\d'\n"
    refused = next(item for item in api.lint(source) if item.code == 'ESC304')
    planned, = api.fixes(source, [refused])
    assert planned.text == "home = r'C:\\Users'\nx = '\\d'\n"
    dumped(planned.text)  # it parses now
    assert api.fix(source).refused.startswith('does not parse')  # the safe fixes need a text that parses


@pytest.mark.parametrize('head', ['# flake8: noqa\n', '# flake8: noqa: E501\n', '# flake8:noqa\n', '',
                                  'y = 1  # flake8: noqa\n'])
def test_a_file_flake8_ignores_gets_no_report(tmp_path, head):
    source = head + "x = '\\d'\n"
    path = tmp_path / 'a.py'
    path.write_text(source)
    run = subprocess.run([sys.executable, '-m', 'flake8', '--isolated', '--select=ESC', str(path)],
                         capture_output=True, text=True, cwd=tmp_path,
                         env={**os.environ, 'PYTHONWARNINGS': ''})
    assert [item.code for item in api.lint(source)] == (['ESC301'] if run.stdout else [])


# The server without its extra: here, since tests/test_server.py is skipped where pygls is missing.
def test_without_pygls_the_command_says_how_to_install_it(tmp_path):
    hide = ('import sys; sys.modules["pygls"] = sys.modules["lsprotocol"] = None\n'
            'from flake8_escapes.cli import main; sys.exit(main(["server"]))\n')
    done = subprocess.run([sys.executable, '-c', hide], capture_output=True, text=True, cwd=tmp_path,
                          env={**os.environ, 'PYTHONWARNINGS': ''}, timeout=60)
    assert done.returncode == 2 and done.stdout == ''
    # the first of the two the server's module imports, whichever is missing (both are, without the extra)
    assert done.stderr in (
        f'flake8-escapes server: needs the server extra ({name} is not installed): '
        'pip install "flake8-escapes[server]"\n' for name in ('pygls', 'lsprotocol'))


# -- issue 40, item 3: a file the project excludes is not an editor's either -------------------

EXCLUDING = ('[flake8]\nextend-exclude = build,gen_*.py,vendored/old.py\n'
             'per-file-ignores = tests/*: ESC302\n')
WALKED = ['a.py', 'build/b.py', 'build/deep/c.py', 'gen_d.py', 'pkg/gen_e.py', 'vendored/old.py',
          'vendored/new.py', 'pkg/build.py']


def flake8_reads(folder: pathlib.Path) -> set[str]:
    """The files flake8 itself, run in ``folder`` over it, reports ESC301 in."""
    run = subprocess.run([sys.executable, '-m', 'flake8', '--select=ESC301', '--format=%(path)s', '.'],
                         cwd=folder, capture_output=True, text=True, timeout=120)
    return {os.path.normpath(line) for line in run.stdout.splitlines()}


def test_excluded_is_what_flake8_leaves_out_of_its_walk(tmp_path):
    (tmp_path / 'setup.cfg').write_text(EXCLUDING)
    for name in WALKED:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("x = '\\d'\n")
    read = flake8_reads(tmp_path)
    assert read == {'a.py', 'vendored/new.py', 'pkg/build.py'}  # 'build' is no match for 'build.py'
    settings = api.settings(str(tmp_path))
    assert {name for name in WALKED if not api.excluded(settings, str(tmp_path / name))} == read
    assert not api.excluded(settings, 'stdin') and not api.excluded(None, str(tmp_path / 'gen_d.py'))


def test_excluded_follows_a_filename_the_configuration_names(tmp_path):
    (tmp_path / 'setup.cfg').write_text('[flake8]\nfilename = *.py,*.pyi\n')
    settings = api.settings(str(tmp_path))
    assert not api.excluded(settings, str(tmp_path / 'a.pyi'))
    assert api.excluded(settings, str(tmp_path / 'script'))  # flake8's walk would not read it
    (tmp_path / 'setup.cfg').write_text('[flake8]\n')  # flake8's default, *.py: an editor knows better
    assert not api.excluded(api.settings(str(tmp_path)), str(tmp_path / 'script'))


def test_only_python_documents_are_checked():
    assert api.is_python('python', 'untitled:1')
    assert api.is_python('plaintext', '/p/a.py') and api.is_python(None, '/p/stubs/a.PYI')
    assert not api.is_python('toml', '/p/pyproject.toml')
    assert not api.is_python('markdown', '/p/README.md')


class Stand:
    """pylsp's config, workspace and document, as far as the plugin reads them."""

    def __init__(self, **fields) -> None:
        self.__dict__.update(fields)

    def plugin_settings(self, name, document_path=None):
        return {}


def test_pylsp_plugin_offers_nothing_in_an_excluded_file(tmp_path):
    from flake8_escapes import pylsp_plugin
    (tmp_path / 'setup.cfg').write_text(EXCLUDING)
    text = "x = '\\d'\n"
    shown = [{'code': 'ESC301', 'range': {'start': {'line': 0, 'character': 5}}}]
    workspace = Stand(root_path=str(tmp_path))

    def actions(name: str) -> list[dict]:
        document = Stand(uri=(tmp_path / name).as_uri(), path=str(tmp_path / name), source=text)
        return pylsp_plugin.code_actions(Stand(), workspace, document, {'diagnostics': shown})
    kinds = [action['kind'] for action in actions('a.py')]
    assert kinds == ['quickfix', 'quickfix', 'source.fixAll.flake8-escapes']
    assert actions('build/b.py') == [] and actions('gen_d.py') == []
