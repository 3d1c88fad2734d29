"""``flake8-escapes check`` and the configuration it shares with flake8 and ``fix``.

Every test runs the real programs in subprocesses and compares ``check`` with
``flake8 --select=ESC`` itself, or with output written by hand from the source.
"""
from __future__ import annotations

import functools
import json
import os
import re
import subprocess
import sys
import textwrap

import pytest

import differential
from flake8_escapes import apis
from test_flake8 import BAD, BAD_OUT, flake8

DATA = os.path.join(os.path.dirname(__file__), 'data')


def check(cwd, *args, stdin=None):
    """Run ``flake8-escapes check``; return (exit code, stdout lines)."""
    return escapes(cwd, 'check', *args, stdin=stdin)[:2]


def escapes(cwd, *args, stdin=None):
    proc = subprocess.run([sys.executable, '-m', 'flake8_escapes', *args], cwd=cwd, input=stdin,
                          capture_output=True, text=True, timeout=600)
    assert 'Traceback' not in proc.stderr, proc.stderr
    return proc.returncode, proc.stdout.splitlines(), proc.stderr


def write(root, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding='utf-8')


# -- one configuration for flake8, check and fix -------------------------------------------------

SECTION = """\
[flake8]
extend-exclude = build
per-file-ignores =
    pkg/b.py: ESC301
escapes-regex-functions =
    mylib.rx_sub:0:1
    mylib.rx_find:0
"""
PROJECT = {
    'pkg/__init__.py': '',
    # ESC301, and ESC401/ESC402 only through the configured regex functions
    'pkg/a.py': """\
        import mylib
        DIGITS = '\\d+'
        TAGGED = mylib.rx_sub('(a)', '<\\1>', text)
        FOUND = mylib.rx_find('\\bword', text)
        FINE = r'\\d'
        """,
    # per-file-ignores drops its ESC301; its ESC303 stays
    'pkg/b.py': """\
        SPACE = '\\s'
        MASK = '\\777'
        """,
    'pkg/clean.py': 'x = 1\n',
    # extend-exclude
    'build/gen.py': "GENERATED = '\\d'\n",
}
#: (path, line) of each report, written from the sources above.
CONCERNED = {('./pkg/a.py', 2), ('./pkg/a.py', 3), ('./pkg/a.py', 4), ('./pkg/b.py', 2)}


def as_named(lines: set[tuple[str, int]]) -> set[tuple[str, int]]:
    """check's (path, line) pairs with each path as a diff names it: relative, without ``./``."""
    return {(os.path.normpath(path), line) for path, line in lines}


def reported_lines(out: list[str]) -> set[tuple[str, int]]:
    return {(path, int(line)) for path, line, _ in (item.split(':', 2) for item in out)}


def diff_lines(diff: list[str]) -> set[tuple[str, int]]:
    """(path, line) of every line a unified diff removes."""
    found, path, line = set(), None, 0
    for text in diff:
        if text.startswith('--- '):  # git's a/ name, relative to the folder fix ran in
            path = text[4:].strip()
            assert path.startswith('a/'), text
            path = path[2:]
        elif text.startswith('@@'):
            line = int(re.match(r'@@ -(\d+)', text).group(1))
        elif text.startswith('-'):
            found.add((path, line))
            line += 1
        elif text.startswith(' '):
            line += 1
    return found


@pytest.mark.parametrize('config_file', ['setup.cfg', 'tox.ini', '.flake8'])
def test_flake8_check_and_fix_agree(tmp_path, config_file):
    write(tmp_path, {**PROJECT, config_file: SECTION})
    code, out = flake8(tmp_path, '--select=ESC', '.')
    assert code == 1 and reported_lines(out) == CONCERNED
    assert check(tmp_path, '.') == (1, out)
    assert check(tmp_path, '--jobs=2', '.') == (1, out)
    code, diff, _ = escapes(tmp_path, 'fix', '--unsafe', '--diff', '.')
    assert code == 1 and diff_lines(diff) == as_named(CONCERNED)


def test_without_the_section_everything_is_concerned(tmp_path):
    """The same project without its [flake8] section: build/ is checked, b.py's ESC301 is
    reported, and the regex wrappers are unknown, for check and fix alike."""
    write(tmp_path, PROJECT)
    concerned = {('./build/gen.py', 1), ('./pkg/a.py', 2), ('./pkg/b.py', 1), ('./pkg/b.py', 2)}
    code, out = check(tmp_path, '.')
    assert code == 1 and reported_lines(out) == concerned
    code, diff, _ = escapes(tmp_path, 'fix', '--unsafe', '--diff', '.')
    assert code == 1 and diff_lines(diff) == as_named(concerned)


def test_fix_skips_what_flake8_excludes(tmp_path):
    """The issue's example: tox.ini excludes the test data, so fix leaves it alone."""
    write(tmp_path, {'tox.ini': '[flake8]\nexclude = tests/data\n', 'tests/data/bad.py': BAD})
    assert flake8(tmp_path, '.') == (0, [])
    assert escapes(tmp_path, 'fix', '--diff', '.')[:2] == (0, [])
    assert escapes(tmp_path, 'fix', '--isolated', '--diff', '.')[0] == 1


def test_fix_only_codes_flake8_reports(tmp_path):
    write(tmp_path, {'setup.cfg': '[flake8]\nextend-ignore = ESC303\n', 'bad.py': BAD})
    code, diff, _ = escapes(tmp_path, 'fix', '--diff', 'bad.py')
    assert code == 1 and diff_lines(diff) == {('bad.py', 3), ('bad.py', 5)}
    assert "+DATA = b'\\\\u00e9\\777'" in diff  # ESC302 fixed, ESC303 left as flake8 ignores it


def test_regex_functions_on_the_command_line_replace_the_configs(tmp_path):
    write(tmp_path, {**PROJECT, 'setup.cfg': SECTION})
    code, out = check(tmp_path, '--escapes-regex-functions=mylib.rx_find:0', 'pkg/a.py')
    assert [line.split()[1] for line in out] == ['ESC301', 'ESC402']
    assert flake8(tmp_path, '--select=ESC', '--escapes-regex-functions=mylib.rx_find:0', 'pkg/a.py') == (
        code, out)


@pytest.mark.parametrize('value, expected', [
    ('\nmylib.rx_sub:0:1\nmylib.rx_find:0\n',
     (apis.Api('mylib.rx_sub', apis.PATTERN, (0,)), apis.Api('mylib.rx_sub', apis.REPLACEMENT, (1,)),
      apis.Api('mylib.rx_find', apis.PATTERN, (0,)))),
    ('a:0,\r\n  b::1,', (apis.Api('a', apis.PATTERN, (0,)), apis.Api('b', apis.REPLACEMENT, (1,)))),
])
def test_regex_functions_one_per_line(value, expected):
    assert apis.parse_functions(value) == expected


# -- flake8's prefix matching ----------------------------------------------------------------------

@pytest.mark.parametrize('args, shown', [
    ([], True),
    (['--extend-ignore=E'], False),              # E is a prefix of ESC
    (['--ignore=E,W'], False),
    (['--extend-ignore=E', '--extend-select=ESC'], True),  # the longer prefix decides
    (['--ignore=E,W', '--extend-select=ESC'], True),
    (['--select=E'], True),
    (['--select=F'], False),
    (['--extend-ignore=ESC3'], False),
])
def test_prefixes_as_flake8_matches_them(tmp_path, args, shown):
    (tmp_path / 'bad.py').write_text(BAD)
    expected = (1, BAD_OUT) if shown else (0, [])
    assert [line for line in flake8(tmp_path, *args, 'bad.py')[1] if ': ESC' in line] == expected[1]
    if args == ['--select=F']:  # a code check never reports: refused (issue 32), not "nothing to report"
        expected = (2, [])
    assert check(tmp_path, *args, 'bad.py') == expected


def test_prefixes_in_the_config_file(tmp_path):
    write(tmp_path, {'bad.py': BAD, 'setup.cfg': '[flake8]\nignore = E,W\n'})
    assert check(tmp_path, 'bad.py') == (0, [])
    write(tmp_path, {'setup.cfg': '[flake8]\nignore = E,W\nextend-select = ESC\n'})
    assert check(tmp_path, 'bad.py') == (1, BAD_OUT)


# -- check against flake8 --------------------------------------------------------------------------

def pycodestyle_stops_flake8(cwd, path) -> bool:
    """pycodestyle's W605 raises IndexError on ``f"\\{x}"`` from 3.12 (README), and flake8 stops."""
    proc = subprocess.run([sys.executable, '-m', 'flake8', '--isolated', path], cwd=cwd,
                          capture_output=True, text=True, timeout=300)
    return 'IndexError' in proc.stderr and 'pycodestyle' in proc.stderr


def parses(path: str) -> bool:
    with open(path, 'rb') as f:
        return differential.compiles(path) or b'\\' not in f.read()


#: The lines on which pycodestyle stops flake8, and the first Python where it does (README, ESC301's
#: known limits and check's section).
PYCODESTYLE_STOPS = [
    ('f"C:\\reports\\{year}\\summary.xlsx"', (3, 12)),
    ("t'C:\\temp\\{x}'", (3, 14)),
]


@pytest.mark.parametrize('literal, since', PYCODESTYLE_STOPS)
def test_the_pythons_where_pycodestyle_stops_flake8_are_the_docs(tmp_path, literal, since):
    """Item 14 of issue 34: the README named 3.12 and 3.13 only, and no t-string, while 3.14 and 3.15
    stop on both. Checked on the running Python: flake8 stops there exactly from the Python named."""
    from test_docs import README, read
    page = read('docs/ESC301.md')
    known_limits = ' '.join(page[page.index('## Known limits\n\n`f"\\{x}"`'):][:600].split())
    named = {(3, 12): 'from Python 3.12 (3.12 to 3.15 in our runs)', (3, 14): "from 3.14 on a t-string's too"}
    assert named[since] in known_limits and ("`t'C:\\temp\\{x}'`" in known_limits)
    check_section = README[README.index('From Python 3.12, pycodestyle stops'):][:300]
    assert f'`{literal}`' in ' '.join(check_section.split())
    if sys.version_info < since and literal.startswith('t'):
        return  # not Python before 3.14
    (tmp_path / 'x.py').write_text(f'year = x = 2024\ny = {literal}\n')
    assert pycodestyle_stops_flake8(tmp_path, 'x.py') == (sys.version_info >= since)
    code, out = check(tmp_path, 'x.py')  # check has no pycodestyle in it: it reports the line
    assert code == 1 and out and all(line.startswith('x.py:2:') for line in out)


def test_test_data_line_for_line():
    names = sorted(name for name in os.listdir(DATA) if name.endswith('.py'))
    stopped = [name for name in names if pycodestyle_stops_flake8(DATA, name)]
    assert not stopped or sys.version_info >= (3, 12)
    # the files this Python cannot parse (a newer Python's syntax): flake8 says E999 only, check
    # also what their literals' text tells (ESC304's section of the README)
    unparsed = [name for name in names if not parses(os.path.join(DATA, name))]
    # flake8 reads no notebook: check's notebooks have their own tests (test_notebook.py)
    common = ('--isolated', f'--extend-exclude={",".join(["refused", "*.ipynb", *stopped, *unparsed])}')
    flake8_says = flake8(DATA, *common, '--select=ESC', '.')
    assert flake8_says[0] == 1 and len(flake8_says[1]) > 100
    assert check(DATA, *common, '--select=ESC', '.') == flake8_says
    assert check(DATA, *common, '--select=ESC', '--jobs=2', '.') == flake8_says
    assert check(DATA, *common, '.') == flake8(DATA, *common, '--select=ESC,E999', '.')
    for name in unparsed:  # without --select, flake8's E999 line is among check's where it may report
        e999, = flake8(DATA, '--isolated', '--select=E999', name)[1]
        reports = check(DATA, '--isolated', '--select=ESC', name)[1]
        # a file that cannot report is not parsed (issue 32): no E999 then
        assert (e999 in check(DATA, '--isolated', name)[1]) is bool(reports), name
    for name in stopped:  # check goes on where flake8 stops
        assert check(DATA, '--isolated', name)[0] == 1


def stdlib_sample() -> list[str]:
    """Every eighth file of the standard library, in a stable order: the
    comparison on every Python, where flake8 itself (pycodestyle, pyflakes)
    over the whole of it would take most of the suite's time."""
    return differential.stdlib_files()[::8]


@pytest.mark.slow
@pytest.mark.parametrize('sample', [
    pytest.param(True, id='every-eighth-file'),
    # the whole of it once, in tox's clients env (one Python): minutes of flake8
    pytest.param(False, id='whole', marks=pytest.mark.clients),
])
def test_standard_library_line_for_line(sample):
    root = os.path.dirname(differential.stdlib_files()[0])
    paths = stdlib_sample() if sample else [root]
    args = ['--isolated', '--select=ESC', '--jobs=2', '--extend-exclude=site-packages', *paths]
    proc = subprocess.run([sys.executable, '-m', 'flake8', *args], capture_output=True, text=True,
                          timeout=3600)  # minutes on two busy cores
    assert proc.returncode in (0, 1) and 'Traceback' not in proc.stderr, proc.stderr[-2000:]
    assert check(os.getcwd(), *args) == (proc.returncode, proc.stdout.splitlines())


def test_noqa_as_flake8(tmp_path):
    src = ('x = """\n  \\d\n"""  # noqa: ESC301\ny = "\\q"  # noqa:E501\nz = "\\w"  # NOQA\n'
           'w = "\\777"  # noqa: ESC3\n')
    write(tmp_path, {'a.py': src, 'b.py': "# flake8: noqa\nx = '\\d'\n"})
    out = flake8(tmp_path, '--select=ESC', '.')
    assert out == (1, ["./a.py:4:6: ESC301 invalid escape sequence '\\q'; write '\\\\q' or use a raw string"])
    assert check(tmp_path, '.') == out


def test_noqa_and_show_source_as_flake8_on_multi_line_statements(tmp_path):
    """check builds flake8's noqa lines itself (issue 34 item 8: flake8's ``file_tokens`` kept a copy
    of the row in each token on 3.12.0-3.12.3), and only when they matter: --show-source, a noqa."""
    src = ('x = ("\\d",\n     "\\w")  # noqa: ESC301\ny = """\n\\q\n"""\nz = f"{1}\\s"; w = "\\e"\n'
           'v = ("\\d"\n     )\n')
    write(tmp_path, {'a.py': src, 'b.py': src.replace('# noqa: ESC301', '')})
    for args in (['--show-source'], [], ['--show-source', '--jobs=2']):
        expected = flake8(tmp_path, '--isolated', '--select=ESC', *args, 'a.py', 'b.py')
        assert expected[0] == 1 and len(expected[1]) > 5
        assert check(tmp_path, '--isolated', *args, 'a.py', 'b.py') == expected, args


def test_stdin(tmp_path):
    args = ('--stdin-display-name=bad.py', '-')
    assert check(tmp_path, *args, stdin=BAD) == (1, BAD_OUT)
    (tmp_path / 'setup.cfg').write_text('[flake8]\nper-file-ignores = bad.py: ESC301\n')
    assert check(tmp_path, *args, stdin=BAD) == flake8(tmp_path, '--select=ESC', *args, stdin=BAD)
    assert check(tmp_path, *args, stdin=BAD)[1] == BAD_OUT[1:]


def test_a_file_that_does_not_parse_does_not_stop_the_run(tmp_path):
    write(tmp_path, {'a.py': "x = 'C:\\Users\\me'\ny = '\\d'\n", 'b.py': BAD})
    out = flake8(tmp_path, '--select=ESC,E999', '.')
    assert out[0] == 1 and ': E999 SyntaxError: ' in out[1][0] and len(out[1]) == 4
    # flake8 stops at a.py's E999; check also reports what its literals' text tells (ESC304's section)
    # (E999's column is each Python's own: after the ESC304 on 3.10/3.11, before it on 3.12+)
    e999, *others = out[1]
    with_e999 = check(tmp_path, '--select=ESC,E999', '.')
    text = [line for line in with_e999[1] if line != e999]
    assert e999 in with_e999[1] and with_e999[0] == 1
    assert [' '.join(line.split()[:2]) for line in text[:3]] == [
        './a.py:1:8: ESC304', './a.py:1:14: ESC301', './a.py:2:6: ESC301']
    assert text[3:] == others
    assert check(tmp_path, '--select=ESC', '.') == (1, text)
    assert check(tmp_path, '.') == with_e999  # E999 is on by default, as in flake8


NUL_OUT = 'nul.py:1:1: E999 SyntaxError: source code string cannot contain null bytes'


def test_a_nul_byte_is_a_syntax_error_on_every_python(tmp_path):
    """Item 5 of issue 34: on 3.10 ``ast.parse`` raises ValueError on a NUL byte (3.11+: SyntaxError,
    E999 at 1:1 in flake8); the run stopped there with a traceback and good.py's report was lost."""
    (tmp_path / 'nul.py').write_bytes(b'x = "\\d"\ny = 1\x00\n')
    (tmp_path / 'bad.py').write_text(BAD)
    # the file does not parse, so check also reports what its literals' text tells (ESC304's section)
    nul_text = "nul.py:1:6: ESC301 invalid escape sequence '\\d'; write '\\\\d' or use a raw string"
    assert check(tmp_path, 'nul.py', 'bad.py') == (1, [*BAD_OUT, NUL_OUT, nul_text])
    assert check(tmp_path, '--select=ESC', 'nul.py', 'bad.py') == (1, [*BAD_OUT, nul_text])
    assert check(tmp_path, '-', stdin='x = "\\d"\x00\n') == (
        1, [NUL_OUT.replace('nul.py', 'stdin'), nul_text.replace('nul.py', 'stdin')])
    if sys.version_info >= (3, 11):  # flake8 itself stops on 3.10 (its AST plugins, pyflakes too)
        assert flake8(tmp_path, '--select=ESC,E999', 'nul.py', 'bad.py') == (1, [*BAD_OUT, NUL_OUT])
    code, out, err = escapes(tmp_path, 'fix', 'nul.py', 'bad.py')
    assert (code, out) == (1, ['bad.py: fixed ESC301, ESC302, ESC303'])
    assert err == 'nul.py: skipped, does not parse: source code string cannot contain null bytes\n'


def test_a_missing_file(tmp_path):
    # flake8 says E902 (exit 1) when E902 is selected, nothing with --select=ESC; check always says
    # it on standard error and exits 2 (issue 32: test_check_issue32)
    assert flake8(tmp_path, 'gone.py')[1][0].startswith('gone.py:0:1: E902 FileNotFoundError')
    said = 'gone.py: cannot read: No such file or directory\n'
    assert escapes(tmp_path, 'check', 'gone.py') == (2, [], said)


def test_fstring_that_stops_pycodestyle(tmp_path):
    """On 3.12+ pycodestyle's W605 raises IndexError on this line and flake8 stops;
    check has no pycodestyle in it."""
    (tmp_path / 'fs.py').write_text('year = 2024\nreport = f"C:\\reports\\{year}\\summary.xlsx"\n')
    code, out = check(tmp_path, 'fs.py')
    assert code == 1
    assert {"fs.py:2:22: ESC301 invalid escape sequence '\\{'; write '\\\\{' or use a raw string",
            "fs.py:2:29: ESC301 invalid escape sequence '\\s'; write '\\\\s' or use a raw string"} <= set(out)


def test_formats(tmp_path):
    (tmp_path / 'bad.py').write_text(BAD)
    code, out = check(tmp_path, '--format=json-lines', 'bad.py')
    assert code == 1
    assert json.loads(out[0]) == {
        'path': 'bad.py', 'line': 3, 'column': 23, 'code': 'ESC301',
        'message': "invalid escape sequence '\\d'; write '\\\\d' or use a raw string"}
    assert len(out) == 3
    code, out = check(tmp_path, '--format=github', 'bad.py')
    assert out[0] == ("::error file=bad.py,line=3,endLine=3,col=23,endColumn=24,title=ESC301::ESC301 "
                      "invalid escape sequence "
                      "'\\d'; write '\\\\d' or use a raw string")
    assert check(tmp_path, '--format=pylint', 'bad.py') == flake8(
        tmp_path, '--select=ESC', '--format=pylint', 'bad.py')


@pytest.mark.parametrize('args', [['--select'], ['--jobs=x', '.'], ['--format=xml', '.'],
                                  ['--escapes-regex-functions=f:x', '.'], ['--config=missing.cfg', '.']])
def test_bad_usage(tmp_path, args):
    assert check(tmp_path, *args)[0] == 2


def test_nothing_to_report(tmp_path):
    (tmp_path / 'ok.py').write_text("x = r'\\d'\n")
    assert check(tmp_path, '.') == (0, [])


# -- the walk --------------------------------------------------------------------------------------

def test_walk_skips_virtualenvs_fifos_and_symlinked_folders(tmp_path):
    write(tmp_path, {'project/a.py': BAD, 'project/venv/pyvenv.cfg': 'home = /usr/bin\n',
                     'project/venv/lib/site.py': BAD, 'outside/b.py': BAD,
                     'project/.hidden/c.py': BAD})
    os.symlink(tmp_path / 'outside', tmp_path / 'project' / 'link')
    os.mkfifo(tmp_path / 'project' / 'pipe.py')
    code, out = check(tmp_path / 'project', '.')
    # flake8 lints hidden folders that are not in its default exclude, and so does check
    assert reported_lines(out) == {('./a.py', line) for line in (3, 5)} | {
        ('./.hidden/c.py', line) for line in (3, 5)}
    code, diff, _ = escapes(tmp_path / 'project', 'fix', '--diff', '.')
    assert {path for path, _ in diff_lines(diff)} == {'a.py', '.hidden/c.py'}


# -- pre-commit ------------------------------------------------------------------------------------

@pytest.mark.clients
def test_pre_commit_hook(tmp_path):
    """The ``flake8-escapes`` hook as a project on ruff would add it; the project's [flake8]
    section still applies to the files pre-commit names."""
    from test_clients import git, published_copy, tool
    repo, rev = published_copy(tmp_path / 'flake8-escapes')
    project = tmp_path / 'project'
    # pre-commit names every file: as with flake8, an exclude pattern must match the file itself
    write(project, {'bad.py': BAD, 'vendor/old.py': BAD, 'setup.cfg': '[flake8]\nextend-exclude = vendor/*\n',
                    '.pre-commit-config.yaml': f'repos:\n  - repo: {repo}\n    rev: {rev}\n'
                                               '    hooks:\n      - id: flake8-escapes\n'})
    git(project, 'init', '-q')
    git(project, 'add', '-A')
    env = dict(os.environ, PRE_COMMIT_HOME=str(tmp_path / 'cache'))
    proc = subprocess.run([tool('pre-commit'), 'run', '--all-files'], cwd=project, env=env,
                          capture_output=True, text=True, timeout=900)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert [line for line in proc.stdout.splitlines() if ': ESC' in line] == BAD_OUT


def test_a_bad_value_in_the_config_stops_both(tmp_path):
    write(tmp_path, {'bad.py': BAD, 'setup.cfg': '[flake8]\nescapes-regex-functions = mylib.rx_sub\n'})
    for program in ('flake8', 'flake8_escapes check'):
        proc = subprocess.run([sys.executable, '-m', *program.split(), 'bad.py'], cwd=tmp_path,
                              capture_output=True, text=True, timeout=300)
        assert proc.returncode == 2 and 'is not NAME:PATTERN_POS' in proc.stderr, program


def typed_options() -> dict[str, str]:
    """Every option of flake8 and its installed plugins whose config value flake8 converts
    (int, count, a boolean flag, a type of its own), with a value it refuses."""
    import configparser
    from flake8.main.options import register_default_options, stage1_arg_parser
    from flake8.options.manager import OptionManager
    from flake8.plugins import finder
    empty = configparser.RawConfigParser()
    plugin_options = finder.parse_plugin_options(empty, '.', enable_extensions=None, require_plugins=None)
    plugins = finder.load_plugins(finder.find_plugins(empty, plugin_options), plugin_options)
    manager = OptionManager(version='', plugin_versions='', parents=[stage1_arg_parser()],
                            formatter_names=list(plugins.reporters))
    register_default_options(manager)
    manager.register_plugins(plugins)
    bad = {}
    for option in manager.options:
        name = option.long_option_name.lstrip('-')
        if not option.parse_from_config:
            continue
        if option.type is int or option.action == 'count':
            bad[name] = 'abc'
        elif option.action in ('store_true', 'store_false'):
            bad[name] = 'maybe'
        elif callable(option.type) and not isinstance(option.type, functools.partial):
            bad[name] = 'f:x'  # neither a job count nor NAME:PATTERN_POS
    bad['ignore'] = bad['extend-ignore'] = 'E1,$$'  # not a code (flake8 checks these two)
    return bad


def test_every_bad_value_in_the_config_is_one_line_and_exit_2(tmp_path, monkeypatch, capsys):
    """Item 6 of issue 34: ``max-line-length = abc`` (flake8's ValueError), ``jobs = x`` (flake8's
    argparse: ``usage: flake8``), ``count = maybe``...: a traceback and exit 1 ("files were
    changed", for fix), or flake8's usage line. Now one line naming the file and the option, exit 2."""
    from flake8_escapes import cli
    bad = typed_options()
    assert {'max-line-length', 'max-doc-length', 'indent-size', 'jobs', 'count', 'quiet',
            'escapes-regex-functions', 'max-complexity', 'ignore'} <= set(bad)
    write(tmp_path, {'bad.py': BAD})
    monkeypatch.chdir(tmp_path)
    for name, value in bad.items():
        for config_file in ('tox.ini', 'extra.cfg'):
            (tmp_path / config_file).write_text(f'[flake8]\nselect = ESC\n{name} = {value}\n')
            args = ['--append-config=extra.cfg'] * (config_file == 'extra.cfg') + ['bad.py']
            for command in ('check', 'fix'):
                assert cli.main([command, *args]) == 2, (name, command)
                out, err = capsys.readouterr()
                assert out == '' and err.startswith(f'flake8-escapes {command}: error: {config_file}: '
                                                    f'[flake8] {name}: '), (name, err)
                assert len(err.splitlines()) == 1, err
            os.remove(tmp_path / config_file)
    assert (tmp_path / 'bad.py').read_text() == BAD


@pytest.mark.parametrize('text, says', [
    ('[flake8]\nselect = ESC\nselect = E\n', "setup.cfg, line 3: option 'select' of [flake8] given again"),
    ('[flake8]\nselect = ESC\n[flake8]\n', 'setup.cfg, line 3: section [flake8] given again'),
    ('[flake8]\nmax-line-length = abc\n', "setup.cfg: [flake8] max-line-length: invalid literal for int()"),
    ('[flake8]\njobs = x\n', "setup.cfg: [flake8] jobs: 'x' must be 'auto' or an integer"),
])
@pytest.mark.parametrize('command', ['check', 'fix'])
def test_a_config_file_that_does_not_read(tmp_path, text, says, command):
    """Item 6 of issue 34, as a user meets it: no traceback, exit 2 (not fix's 1, "files were
    changed"), one line with the program's own name (item 14: not ``usage: flake8``)."""
    write(tmp_path, {'bad.py': BAD, 'setup.cfg': text})
    code, out, err = escapes(tmp_path, command, 'bad.py')
    assert (code, out) == (2, [])
    assert err.startswith(f'flake8-escapes {command}: error: {says}') and len(err.splitlines()) == 1, err
    assert 'flake8:' not in err and 'usage' not in err


@pytest.mark.parametrize('text, says', [
    ('junk\n[flake8]\n', 'bad.cfg, line 1: text before the first [section]'),
    ('[flake8]\nselect = ESC\nnot a line\n', 'bad.cfg, line 3: neither "name = value" nor a [section]'),
    ('[flake8]\n# \xff\n', "bad.cfg: not UTF-8 ('utf-8' codec can't decode byte 0xff"),
])
def test_a_config_file_named_that_does_not_read(tmp_path, text, says):
    """flake8 skips a found config file that does not parse, and reads one named by --config or
    --append-config: that one's error was a traceback."""
    write(tmp_path, {'bad.py': BAD})
    (tmp_path / 'bad.cfg').write_bytes(text.encode('latin-1'))
    for option in ('--config=bad.cfg', '--append-config=bad.cfg'):
        code, out, err = escapes(tmp_path, 'check', option, 'bad.py')
        assert (code, out) == (2, []) and err.startswith(f'flake8-escapes check: error: {says}'), err
    (tmp_path / 'setup.cfg').write_bytes(text.encode('latin-1'))  # found, not named: skipped, as flake8 does
    assert check(tmp_path, 'bad.py') == flake8(tmp_path, '--select=ESC', 'bad.py') == (1, BAD_OUT)


# -- files read without the AST (source.lexed_literals, checks.may_report) ----------------------

#: Files whose reportable rows hold literals with no escape a check looks at:
#: read, lexed, and neither parsed nor tokenized (E999 shown or not: issue 32).
UNPARSED = {
    'dash.py': "x = '\\N{EM DASH}'\n",
    'accent.py': "x = '\\u00e9'\ny = b'a'\n",
    'raw.py': "import re\nx = re.sub(r'(a)\\d', r'\\1', s)  # it's '\\d'\n",
    'docstring.py': 'def f():\n    r"""\n    \'\\d\' here\n    """\n    return \'\\N{EM DASH}\'\n',
    'fstring.py': "x = f'{a}{b:>{w}}'\ny = '\\N{EM DASH}'\n",
    'fstring_row.py': "x = f'{a}\\t{b:>{w}}\\u00e9'\ny = b'a'\n",  # on the row (3.12+: tokenized alone)
    # a syntax error flake8 reports only as E999: nothing from check (it cannot report: not parsed)
    'broken.py': "x = '\\N{EM DASH}'\ndef f(:\n",
}
#: Files with a report, or a candidate only the AST can judge, beside them.
PARSED = {
    'invalid.py': "x = '\\d'\n",
    'fstring_invalid.py': "x = f'{a}\\d'\n",
    'regex.py': "import re\nx = re.sub('(a)', '\\1', s)\ny = '\\1'\n",
    'path.py': "x = open('C:\\new')\n",
    'broken_escape.py': "x = '\\d'\ndef f(:\n",  # parsed: E999, and its literal's ESC301 (ESC304's section)
    # a doctest example: parsed, and quiet (the tab it prints is the one its output shows)
    'docs.py': 'def f():\n    """\n    >>> print(\'a\\tb\')\n    a\tb\n    """\n',
}


def test_files_read_without_the_ast_print_what_flake8_prints(tmp_path):
    write(tmp_path, {**UNPARSED, **PARSED})
    # flake8 stops at broken_escape.py's E999; check also reports its '\\d' (ESC304's section)
    text = "./broken_escape.py:1:6: ESC301 invalid escape sequence '\\d'; write '\\\\d' or use a raw string"
    for args in (['--select=ESC'], ['--select=ESC', '--jobs=2'], ['--select=ESC,E999'], []):
        expected = flake8(tmp_path, '--isolated', *(args or ['--select=ESC,E999']), '.')
        # broken.py cannot report: not parsed, so no E999 for it (issue 32)
        kept = [line for line in expected[1] if not line.startswith('./broken.py:')]
        expected = (expected[0], sorted([*kept, text], key=lambda line: (
            line.split(':')[0], *map(int, line.split(':')[1:3]))))
        assert check(tmp_path, '--isolated', *args, '.') == expected, args
    assert check(tmp_path, '--isolated', '--select=ESC', *UNPARSED) == (0, [])
    out = check(tmp_path, '--isolated', '--select=ESC', '.')[1]
    reported = {'./invalid.py', './fstring_invalid.py', './regex.py', './path.py', './broken_escape.py',
                './docs.py'}  # docs.py: a tab shown in an example's source (ESC602, issue 30)
    assert {line.split(':')[0] for line in out} == reported


def test_files_read_without_the_ast_are_not_parsed(tmp_path, monkeypatch):
    """In process: ``file_results`` on a file that cannot report never calls ast.parse
    (E999 shown or not: issue 32); on one that may report, it does."""
    from flake8_escapes import config
    from flake8_escapes.commands import check as checking
    write(tmp_path, {**UNPARSED, **PARSED})
    parsed = []

    def parse(text, *args, **kwargs):
        parsed.append(text)
        return real_parse(text, *args, **kwargs)
    real_parse = checking.api.ast.parse  # the API parses for check
    monkeypatch.setattr(checking.api.ast, 'parse', parse)
    monkeypatch.chdir(tmp_path)
    for select in ('ESC', 'ESC,E999', 'ESC,E'):
        monkeypatch.setattr(checking, '_settings', config.Config(['--isolated', f'--select={select}', '.']))
        for name in UNPARSED:
            parsed.clear()
            assert checking.file_results(name)[1] == [], name
            assert not parsed, (select, name)
        for name in PARSED:
            parsed.clear()
            checking.file_results(name)
            assert parsed, (select, name)


PATTERNS = [[], ['*.py'], ['.git', '__pycache__', '*.egg', 'build'], ['sub/*', '*_test.py'],
            ['[ab]*.py', 'x?y'], ['*[!.]*'], ['[', 'a[b'], [os.path.abspath('pkg') + '/*']]
NAMES = ['a.py', 'b_test.py', 'sub/c.py', '.git', 'pkg/mod.py', 'xzy', 'x/y', '[', 'a[b', 'build',
         'deep/build', 'noext', 'A.PY', 'pkg', '.']


@pytest.mark.parametrize('patterns', PATTERNS)
def test_the_walks_patterns_match_as_flake8s_functions(patterns):
    """``config.Patterns`` (one regex for all the patterns, for speed) answers as flake8's own
    ``utils.fnmatch`` (``--filename``) and ``utils.matches_filename`` (``--exclude``) on every
    name, bad patterns included."""
    import logging

    from flake8 import utils

    from flake8_escapes import config
    matching = config.Patterns(patterns)
    for name in NAMES:
        assert matching(name) == utils.fnmatch(name, patterns), (patterns, name)
        flake8s = utils.matches_filename(name, patterns=patterns, log_message=config.EXCLUDED,
                                         logger=logging.getLogger('t'))
        assert matching.excludes(name) == flake8s, (patterns, name)
