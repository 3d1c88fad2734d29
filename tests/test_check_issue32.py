"""Issue 32's rows about ``flake8-escapes check`` (and the walk ``fix`` shares), one group per row.

Each test runs the command in a subprocess, through ``python -m flake8_escapes``, so that it runs
unchanged against 0.3.0 (where the command's module was ``flake8_escapes/check.py``): every test
here failed there (the report of issue 32's check helper lists the failures).
"""
from __future__ import annotations

import importlib.metadata
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import textwrap

import pytest

#: Three reports: ESC301 at 3:22, ESC302 at 4:13, ESC303 at 5:8.
BAD = 'import re\n\nDIGITS = re.compile("\\d+")\nDATA = b"caf\\u00e9"\nMASK = "\\777"\n'


def escapes(cwd, *args, env=None, stdin=None):
    """(exit code, stdout lines, stderr) of ``python -m flake8_escapes ARGS``."""
    proc = subprocess.run([sys.executable, '-m', 'flake8_escapes', *args], cwd=cwd, capture_output=True,
                          text=True, timeout=300, env=env, input=stdin)
    assert 'Traceback' not in proc.stderr, proc.stderr
    return proc.returncode, proc.stdout.splitlines(), proc.stderr


def flake8(cwd, *args, env=None):
    proc = subprocess.run([sys.executable, '-m', 'flake8', *args], cwd=cwd, capture_output=True,
                          text=True, timeout=300, env=env)
    return proc.returncode, proc.stdout.splitlines()


def write(root, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding='utf-8')


# -- row 1: a path that does not exist fails the run ---------------------------------------------

@pytest.mark.parametrize('select', [[], ['--select=ESC']])
@pytest.mark.parametrize('path', ['missing.py', 'nodir/'])
def test_check_a_path_that_does_not_exist_exits_2(tmp_path, select, path):
    """0.3.0: nothing and exit 0 with --select=ESC, an E902 line and exit 1 without (flake8's);
    ruff says E902 and exits 1.  A typo in a CI path must fail the job: said on stderr, exit 2,
    the other paths still checked; --exit-zero does not hide it."""
    write(tmp_path, {'bad.py': BAD})
    code, out, err = escapes(tmp_path, 'check', *select, path, 'bad.py')
    assert (code, len(out), err) == (2, 3, f'{path}: cannot read: No such file or directory\n')
    assert escapes(tmp_path, 'check', '--exit-zero', *select, path)[::2] == (
        2, f'{path}: cannot read: No such file or directory\n')


@pytest.mark.parametrize('path', ['missing.py', 'nodir/'])
def test_fix_a_path_that_does_not_exist_exits_2(tmp_path, path):
    """The same walk (config.walk) and line in fix, where the other files are still fixed."""
    write(tmp_path, {'bad.py': BAD})
    code, out, err = escapes(tmp_path, 'fix', path, 'bad.py')
    assert (code, out, err) == (2, ['bad.py: fixed ESC301, ESC302, ESC303'],
                                f'{path}: cannot read: No such file or directory\n')


# -- row 2: unknown codes refused, as ruff refuses an unknown rule selector ---------------------

@pytest.mark.parametrize('args, says', [
    (['--select', 'XYZ'], "--select: unknown code 'XYZ' (known: ESC, ESC3 = ESC301-ESC305, "
                          "ESC4 = ESC401-ESC402, ESC5 = ESC501, ESC6 = ESC601-ESC602, E902, E999)"),
    # pycodestyle's: check never reports it
    (['--select', 'ESC,W605'], "--select: unknown code 'W605' (known: ESC, "),
    (['--extend-select', 'ESC9'], "--extend-select: unknown code 'ESC9' (known: ESC, "),
    (['--ignore', 'ESC7'], "--ignore: unknown code 'ESC7' (known: ESC, "),
    (['--extend-ignore', 'ESC39'], "--extend-ignore: unknown code 'ESC39' (known: ESC, "),
    # ruff refuses `--select e501`; flake8 matches codes as written, so esc301 would select nothing
    (['--select', 'esc301'], "--select: unknown code 'esc301': codes are upper case, as flake8 matches "
                             "them ('ESC301')"),
    (['--ignore', 'esc3'], "--ignore: unknown code 'esc3': codes are upper case"),
])
def test_an_unknown_code_is_refused(tmp_path, args, says):
    write(tmp_path, {'bad.py': BAD})
    code, out, err = escapes(tmp_path, 'check', *args, '.')
    assert (code, out) == (2, [])
    assert f'flake8-escapes check: error: argument {says}' in err, err


@pytest.mark.parametrize('args', [
    ['--select', 'ESC3,ESC401'], ['--select', 'E'], ['--select', 'E9,ESC'],  # prefixes of known codes
    ['--ignore', 'W503,E203'], ['--extend-ignore', 'C901'],  # another plugin's: ignoring it changes nothing
])
def test_known_codes_and_other_plugins_codes_to_ignore_pass(tmp_path, args):
    write(tmp_path, {'bad.py': BAD})
    assert escapes(tmp_path, 'check', *args, '.')[0] == 1


def test_other_plugins_codes_in_the_config_file_do_not_break(tmp_path):
    """A flake8 config file is shared with flake8's other plugins: its codes are not checked."""
    write(tmp_path, {'bad.py': BAD, 'setup.cfg': textwrap.dedent('''\
        [flake8]
        select = E,W,F,C90,B,ESC
        extend-ignore = E203,W503,XYZ1
        per-file-ignores = tests/*: S101
        ''')})
    code, out, err = escapes(tmp_path, 'check', '.')
    assert (code, len(out), err) == (1, 3, '')


# -- row 3: nothing to check is said ------------------------------------------------------------

def test_a_folder_without_python_files_is_said(tmp_path):
    """0.3.0: nothing and exit 0, where fix said 'no Python file found'."""
    write(tmp_path, {'docs/a.txt': "x = '\\d'\n", 'pkg/bad.py': BAD})
    (tmp_path / 'empty').mkdir()
    assert escapes(tmp_path, 'check', 'empty', 'docs') == (
        0, [], 'empty: no Python file found\ndocs: no Python file found\n')
    assert escapes(tmp_path / 'empty', 'check') == (0, [], '.: no Python file found\n')
    assert escapes(tmp_path, 'check', 'pkg', 'empty')[::2] == (1, 'empty: no Python file found\n')


# -- row 4: plain check parses only what may report -------------------------------------------

#: Run check in process and print the sources the compiler was handed meanwhile (``ast.parse``
#: compiles: the audit event ``compile`` carries the source).
COMPILED = '''
import json, sys
from flake8_escapes.cli import main
sources = []
sys.addaudithook(lambda event, args: event == 'compile' and sources.append(args[0]))
code = main(sys.argv[1:])
print(json.dumps([s if isinstance(s, str) else s.decode('utf-8', 'replace') for s in sources
                  if isinstance(s, (str, bytes))]))
'''
#: Files no check can report in: no backslash, everyday escapes only, a syntax error without one.
CANNOT_REPORT = {
    'plain.py': 'x = 1\n',
    'everyday.py': "x = 'a\\tb\\n' + '\\N{EM DASH}'\n",
    'broken.py': 'def f(:\n    return 1\n',
}
MAY_REPORT = {'bad.py': BAD, 'broken_escape.py': "x = '\\d'\ndef f(:\n"}


def test_plain_check_parses_only_the_files_that_may_report(tmp_path):
    """0.3.0 parsed every file when E999 was shown (the default), so plain ``check .`` took 4x the
    CPU of ``--select ESC`` on the standard library.  A file that may report and does not parse still
    gets E999, the reports its literals' text gives, and one line saying the rest was skipped."""
    write(tmp_path, {**CANNOT_REPORT, **MAY_REPORT})
    for args in ([], ['--select=ESC,E999'], ['--select=E']):
        proc = subprocess.run([sys.executable, '-c', COMPILED, 'check', '--jobs=1', *args, '.'],
                              cwd=tmp_path, capture_output=True, text=True, timeout=300)
        *out, sources = proc.stdout.splitlines()
        compiled = json.loads(sources)
        parsed = {name for name, text in {**CANNOT_REPORT, **MAY_REPORT}.items() if text in compiled}
        assert parsed == set(MAY_REPORT), args
        assert not any(line.startswith('./broken.py') for line in out)
        names = [line.split(':')[0] + ' ' + line.split()[1] for line in out]
        assert names.count('./broken_escape.py E999') == 1 and './broken_escape.py ESC301' in names
        assert proc.stderr.count('broken_escape.py: does not parse') == 1, proc.stderr
        assert 'skipped' in proc.stderr and 'broken.py:' not in proc.stderr.replace('broken_escape.py', '')


# -- row 5: --format ------------------------------------------------------------------------------

@pytest.mark.parametrize('form', ['pylint', 'quiet-filename', 'quiet-nothing', 'default',
                                  '%(path)s|%(row)d|%(col)d|%(code)s|%(text)s'])
def test_flake8_formatters_and_format_strings(tmp_path, form):
    """0.3.0 took four names only (default, pylint, github, json)."""
    write(tmp_path, {'bad.py': BAD, 'other.py': "x = '\\w'\n"})
    expected = flake8(tmp_path, '--isolated', '--select=ESC', f'--format={form}', '.')
    assert escapes(tmp_path, 'check', '--isolated', f'--format={form}', '.')[:2] == expected
    if form.startswith('%'):
        assert expected[1][0] == "./bad.py|3|22|ESC301|invalid escape sequence '\\d'; " \
                                 "write '\\\\d' or use a raw string"


FORMATTER = '''\
from flake8.formatting.base import BaseFormatter


class Upper(BaseFormatter):
    def format(self, error):
        return f'UPPER {error.code} {error.filename} {error.line_number}'
'''


def test_a_formatter_plugin_installed(tmp_path):
    """A third-party formatter (flake8-sarif's kind): an entry point of flake8.report."""
    site = tmp_path / 'site'
    write(site, {'escfmt.py': FORMATTER,
                 'escfmt-0.1.dist-info/METADATA': 'Metadata-Version: 2.1\nName: escfmt\nVersion: 0.1\n',
                 'escfmt-0.1.dist-info/entry_points.txt': '[flake8.report]\nupper = escfmt:Upper\n'})
    write(tmp_path, {'pkg/bad.py': BAD})
    env = {**os.environ,
           'PYTHONPATH': os.pathsep.join([str(site), *filter(None, [os.environ.get('PYTHONPATH')])])}
    out = ['UPPER ESC301 ./pkg/bad.py 3', 'UPPER ESC302 ./pkg/bad.py 4', 'UPPER ESC303 ./pkg/bad.py 5']
    assert flake8(tmp_path, '--select=ESC', '--format=upper', '.', env=env) == (1, out)
    assert escapes(tmp_path, 'check', '--format=upper', '.', env=env) == (1, out, '')
    code, _, err = escapes(tmp_path, 'check', '--format=upper', '.')  # not installed here
    assert code == 2 and "flake8-escapes check: error: --format: unknown format 'upper' (known: " in err


#: One escape of each length the codes report, each with its report's code and 1-based columns
#: (backslash, last character), counted by hand from the source.
SPANS = {
    'spans.py': (textwrap.dedent('''\
        import re
        a = '\\d'
        b = b'\\N{EM DASH}'
        c = '\\777'
        d = re.sub('(a)', '\\1', s)
        e = re.compile('\\bword')
        f = open('C:\\temp.txt')
        g = '$\\frac{1}{2}$'
        h = '\\N{EM DASH}\\d'
        '''), [('ESC301', 2, '\\d'), ('ESC302', 3, '\\N'), ('ESC303', 4, '\\777'), ('ESC401', 5, '\\1'),
               ('ESC402', 6, '\\b'), ('ESC501', 7, '\\t'), ('ESC601', 8, '\\f'), ('ESC301', 9, "\\d'")]),
    # does not parse: ESC304 from its literal's text (E999 is not selected here)
    'refused.py': ("x = '\\x4'\ny = '\\N{NO SUCH NAME}'\n",
                   [('ESC304', 1, '\\x4'), ('ESC304', 2, '\\N{NO SUCH NAME}')]),
}


@pytest.mark.parametrize('name', SPANS)
def test_github_annotations_end_at_the_escapes_last_character(tmp_path, name):
    """0.3.0's annotations had no endLine/endColumn.  Each span is also checked against its message,
    which quotes the escape: the source from col to endColumn is that escape."""
    source, written = SPANS[name]
    lines = source.splitlines()
    spans = []
    for code, line, escape in written:  # "\\d'": the \d right before a quote
        col = lines[line - 1].index(escape) + 1
        spans.append((code, line, col, col + len(escape.rstrip("'")) - 1))
    write(tmp_path, {name: source})
    out = escapes(tmp_path, 'check', '--select=ESC', '--format=github', name)[1]
    found = [tuple(re.match(r'::error file=[^,]+,line=(\d+),endLine=(\d+),col=(\d+),endColumn=(\d+),'
                            r'title=(\w+)::\w+ (.*)', line).groups()) for line in out]
    assert [(code, int(line), int(col), int(end)) for line, _, col, end, code, _ in found] == spans
    for line, end_line, col, end, code, message in found:
        assert end_line == line
        quoted = re.search(r"'(\\[^']*)'", message)[1]  # the message's escape, as it quotes it
        assert lines[int(line) - 1][int(col) - 1:int(end)] == quoted, (code, message)


def test_json_is_one_array_with_ruffs_keys(tmp_path):
    """0.3.0's json was one object per line (json.load failed): that form is json-lines now."""
    write(tmp_path, {'a.py': "x = '\\d'\ny = 'C:\\wx'\n"})
    code, out, err = escapes(tmp_path, 'check', '--format=json', 'a.py')
    assert (code, err) == (1, '')
    message = "invalid escape sequence '\\d'; write '\\\\d' or use a raw string"
    message_w = "invalid escape sequence '\\w'; write '\\\\w' or use a raw string"
    assert json.loads('\n'.join(out)) == [
        {'code': 'ESC301', 'message': message, 'filename': 'a.py', 'name': 'invalid-escape', 'cell': None,
         'location': {'row': 1, 'column': 6}, 'end_location': {'row': 1, 'column': 8}},
        {'code': 'ESC301', 'message': message_w, 'filename': 'a.py', 'name': 'invalid-escape', 'cell': None,
         'location': {'row': 2, 'column': 8}, 'end_location': {'row': 2, 'column': 10}}]
    assert escapes(tmp_path, 'check', '--format=json', '--select=ESC302', 'a.py') == (0, ['[]'], '')
    code, out, err = escapes(tmp_path, 'check', '--format=json-lines', 'a.py')
    assert [json.loads(line) for line in out] == [
        {'path': 'a.py', 'line': 1, 'column': 6, 'code': 'ESC301', 'message': message},
        {'path': 'a.py', 'line': 2, 'column': 8, 'code': 'ESC301', 'message': message_w}]
    ruff = shutil.which('ruff', path=os.path.dirname(sys.executable)) or shutil.which('ruff')
    if ruff:  # ruff's W605 is ESC301 here: the same ranges
        proc = subprocess.run([ruff, 'check', '--isolated', '--no-cache', '--select=W605',
                               '--output-format=json', 'a.py'], cwd=tmp_path, capture_output=True, text=True)
        theirs = [(item['location'], item['end_location']) for item in json.loads(proc.stdout)]
        ours = escapes(tmp_path, 'check', '--format=json', 'a.py')[1]
        assert [(item['location'], item['end_location']) for item in json.loads('\n'.join(ours))] == theirs


# -- row 6: [tool.flake8] in pyproject.toml -------------------------------------------------------

PYPROJECT = '''\
[project]
name = "demo"

[tool.flake8]
extend-ignore = ["ESC303"]
per-file-ignores = ["pkg/b.py:ESC301", "pkg/c.py:ESC302"]
'''


def test_every_python_reads_toml_as_installed():
    """3.11+ read TOML with tomllib; 3.10 with tomli, a dependency there (the installed package's
    metadata says so, and pip installed it)."""
    required = importlib.metadata.requires('flake8-escapes') or []
    assert any(item.startswith('tomli') and 'python_version < "3.11"' in item for item in required), required
    assert sys.version_info >= (3, 11) or importlib.util.find_spec('tomli') is not None


def test_pyproject_tool_flake8_is_read_by_check_and_fix(tmp_path):
    """0.3.0 ignored it.  flake8 itself does not read it (nor the plugin inside flake8)."""
    write(tmp_path, {'pyproject.toml': PYPROJECT, 'pkg/b.py': BAD, 'pkg/c.py': BAD})
    assert escapes(tmp_path, 'check', '.') == (1, [
        "./pkg/b.py:4:13: ESC302 '\\u' is a str-only escape, invalid in bytes; "
        "write '\\\\u' or encode a str",
        "./pkg/c.py:3:22: ESC301 invalid escape sequence '\\d'; write '\\\\d' or use a raw string"], '')
    assert escapes(tmp_path / 'pkg', 'check', 'b.py')[0] == 1  # found from a folder below
    assert [line.split()[1] for line in flake8(tmp_path, '--select=ESC', 'pkg/b.py')[1]] == [
        'ESC301', 'ESC302', 'ESC303']
    code, out, err = escapes(tmp_path, 'fix', 'pkg')
    assert (code, out) == (1, ['pkg/b.py: fixed ESC302', 'pkg/c.py: fixed ESC301'])
    assert 'MASK = "\\777"' in (tmp_path / 'pkg' / 'b.py').read_text()  # ESC303 ignored: left


def test_an_ini_section_wins_and_a_bad_value_is_named(tmp_path):
    write(tmp_path, {'pyproject.toml': PYPROJECT, 'bad.py': BAD})
    assert [line.split()[1] for line in escapes(tmp_path, 'check', '.')[1]] == ['ESC301', 'ESC302']
    (tmp_path / 'tox.ini').write_text('[flake8]\nmax-line-length = 100\n')  # flake8's: pyproject not read
    assert len(escapes(tmp_path, 'check', '.')[1]) == 3
    assert len(escapes(tmp_path, 'check', '--config=pyproject.toml', '.')[1]) == 2  # named: read
    (tmp_path / 'tox.ini').unlink()
    (tmp_path / 'pyproject.toml').write_text('[tool.flake8]\nescapes-regex-functions = "nocolon"\n')
    code, out, err = escapes(tmp_path, 'check', '.')
    assert (code, out) == (2, []) and err.startswith(
        "flake8-escapes check: error: pyproject.toml: [tool.flake8] escapes-regex-functions: "
        "'nocolon' is not ")
    assert err.count('\n') == 1


@pytest.mark.skipif(sys.version_info >= (3, 11), reason='tomllib: 3.11+ always read TOML')
def test_pyproject_on_3_10_without_tomli(tmp_path):
    """3.10 reads TOML with tomli only (a dependency there; blocked here by a module that fails,
    as in an environment installed with --no-deps)."""
    write(tmp_path, {'pyproject.toml': PYPROJECT, 'bad.py': BAD, 'blocked/tomli.py': 'raise ImportError\n'})
    env = {**os.environ, 'PYTHONPATH': str(tmp_path / 'blocked')}
    code, out, err = escapes(tmp_path, 'check', 'bad.py', env=env)
    assert (code, len(out)) == (1, 3)
    assert err == ('pyproject.toml: [tool.flake8] not read: this Python reads TOML only with tomli '
                   'installed (pip install tomli)\n')


# -- row 7: a bad value in the config file names the program and the file -----------------------

@pytest.mark.parametrize('config_file', ['tox.ini', 'setup.cfg', '.flake8'])
def test_a_bad_regex_functions_value_in_the_config_file(tmp_path, config_file):
    """0.3.0: flake8's ``usage: flake8 [options] ...`` and ``flake8: error: argument ...``."""
    write(tmp_path, {'bad.py': BAD, config_file: '[flake8]\nescapes-regex-functions = nocolon\n'})
    code, out, err = escapes(tmp_path, 'check', 'bad.py')
    assert (code, out) == (2, [])
    assert err == (f"flake8-escapes check: error: {config_file}: [flake8] escapes-regex-functions: 'nocolon' "
                   "is not NAME:PATTERN_POS[:REPL_POS] (e.g. mylib.rx_sub:0:1, a dotted name and argument "
                   "positions)\n")


# -- row 8: --statistics names each rule ---------------------------------------------------------

def test_statistics_name_the_rule_not_the_first_message(tmp_path):
    """0.3.0 printed flake8's line: the first report's message ('3 ESC501 ... is a tab' where two
    were newlines).  Now the rule's name, as ruff's --statistics; E999 as ruff names it."""
    write(tmp_path, {'a.py': "open('C:\\temp\\new\\name.txt')\nx = '\\d'\n",
                     'b.py': "x = '\\d'\ndef f(:\n"})
    code, out, err = escapes(tmp_path, 'check', '--statistics', '.')
    assert code == 1
    assert out[-3:] == ['1     E999 syntax-error', '2     ESC301 invalid-escape',
                        '3     ESC501 escape-in-windows-path']
    assert not any('tab' in line for line in out[-3:])
