"""The command line as a newcomer meets it (issue 25) and under misuse (issue 24, items 9-15):
flake8's everyday options with flake8's meaning, diffs that git and patch apply, no traceback.

``check``'s output is compared with flake8's own, run on the same files with the same options.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys

import pytest

import flake8_escapes
from flake8_escapes import cli, fix
from flake8_escapes.commands import check
from flake8_escapes.fix import diff
from test_flake8 import BAD, BAD_OUT, flake8

#: ESC401 (a backreference) and ESC501 twice (a Windows path), besides one safe ESC301.
UNSAFE_SOURCE = 'import re\nre.sub("(a)", "\\1", s)\nx = "\\d"\nopen("C:\\temp\\new.txt")\n'


def run(cwd, *args, stdin=None):
    """Run ``flake8-escapes``; return (exit code, stdout, stderr) as text."""
    proc = subprocess.run([sys.executable, '-m', 'flake8_escapes', *args], cwd=cwd, input=stdin,
                          capture_output=True, timeout=300)
    err = proc.stderr.decode('utf-8', 'replace')
    assert 'Traceback' not in err, err
    return proc.returncode, proc.stdout.decode('utf-8', 'replace'), err


# -- issue 25, item 3: counting and options -------------------------------------------------------

def test_the_unsafe_count_leaves_out_what_per_file_ignores_hides(tmp_path):
    """The issue's 7 where flake8 shows 5: a file whose ESC501 per-file-ignores hides."""
    (tmp_path / 'r.py').write_text(UNSAFE_SOURCE)
    (tmp_path / 'quiet.py').write_text(UNSAFE_SOURCE)
    (tmp_path / 'setup.cfg').write_text('[flake8]\nper-file-ignores = quiet.py: ESC501\n')
    code, out = flake8(tmp_path, '--select=ESC4,ESC5', '.')
    assert code == 1 and len(out) == 4  # r.py: ESC401, ESC501 x2; quiet.py: ESC401
    code, _, err = run(tmp_path, 'fix', '.')
    assert code == 1
    assert err == ('4 reports left that only --unsafe can fix (ESC401 x2, ESC501 x2): '
                   'check them with --unsafe --diff\n')


@pytest.mark.parametrize('option, left', [
    ('--extend-ignore=ESC303', {'ESC301', 'ESC302'}),
    ('--ignore=ESC301,ESC302', {'ESC303'}),
    ('--per-file-ignores=bad.py:ESC30', set()),
    ('--per-file-ignores=other.py:ESC30', {'ESC301', 'ESC302', 'ESC303'}),
])
def test_fix_takes_flake8s_selection_options(tmp_path, option, left):
    """fix fixes exactly what flake8 with the same option reports."""
    (tmp_path / 'bad.py').write_text(BAD)
    _, out = flake8(tmp_path, '--select=ESC', option, 'bad.py')
    assert {line.split()[1] for line in out} == left
    code, diff, _ = run(tmp_path, 'fix', '--diff', option, 'bad.py')
    assert code == int(bool(left))
    assert ("+PATTERN = re.compile(r'\\d+')" in diff) == ('ESC301' in left)
    assert ("+DATA = b'\\\\u00e9" in diff) == ('ESC302' in left)
    assert ("\\xff'" in diff) == ('ESC303' in left)


def test_fix_extend_select_brings_back_what_ignore_e_drops(tmp_path):
    (tmp_path / 'bad.py').write_text(BAD)
    (tmp_path / 'setup.cfg').write_text('[flake8]\nextend-ignore = E\n')
    assert run(tmp_path, 'fix', '--diff', 'bad.py')[0] == 0
    assert run(tmp_path, 'fix', '--diff', '--extend-select=ESC', 'bad.py')[0] == 1


def test_fix_with_jobs_prints_what_one_process_prints(tmp_path):
    for index in range(12):
        (tmp_path / f'm{index:02}.py').write_text(UNSAFE_SOURCE if index % 3 else BAD)
    (tmp_path / 'broken.py').write_text('x = (\n')
    one = run(tmp_path, 'fix', '--diff', '--jobs=1', '.')
    two = run(tmp_path, 'fix', '--diff', '--jobs=2', '.')
    assert one == two and one[0] == 1 and one[1].count('\n--- a/') == 11  # and the first
    assert run(tmp_path, 'fix', '--jobs=2')[0] == 1  # writes
    assert run(tmp_path, 'fix', '--jobs=2', '.')[:2] == (0, '')  # nothing left to fix


def test_fix_standard_input_to_standard_output(tmp_path):
    code, out, err = run(tmp_path, 'fix', '-', stdin=BAD.encode())
    assert (code, err) == (1, '')
    assert out == fix.fix_bytes(BAD.encode(), set(fix.SAFE)).data.decode()
    assert out.startswith("import re\n\nPATTERN = re.compile(r'\\d+')\n")
    assert run(tmp_path, 'fix', '-', stdin=out.encode()) == (0, out, '')  # the same bytes out
    code, diff, _ = run(tmp_path, 'fix', '--diff', '-', stdin=BAD.encode())
    assert code == 1 and diff.startswith('--- a/stdin\n+++ b/stdin\n')  # as check names it
    (tmp_path / 'setup.cfg').write_text('[flake8]\nper-file-ignores = bad.py: ESC301\n')
    code, out, _ = run(tmp_path, 'fix', '--stdin-display-name=bad.py', '-', stdin=BAD.encode())
    assert code == 1 and "re.compile('\\d+')" in out and "\\xff'" in out


def test_fix_defaults_to_the_current_folder(tmp_path):
    (tmp_path / 'pkg').mkdir()
    (tmp_path / 'pkg' / 'bad.py').write_text(BAD)
    assert run(tmp_path, 'fix')[:2] == (1, './pkg/bad.py: fixed ESC301, ESC302, ESC303\n')


@pytest.mark.parametrize('options', [
    ['--count'], ['--statistics'], ['--show-source'], ['--count', '--statistics', '--show-source'],
    ['--exit-zero'], ['--count', '--exit-zero'], ['--format=pylint', '--show-source'],
])
def test_check_output_options_as_flake8(tmp_path, options):
    (tmp_path / 'bad.py').write_text(BAD)
    (tmp_path / 'other.py').write_text('x = "\\d"\ny = "\\w"\n')
    code, lines = flake8(tmp_path, '--select=ESC', *options, '.')
    # --statistics: each code's rule name where flake8 shows its first report's message (issue 32)
    lines = [re.sub(r'^(\d+ +(ESC\d+)) .*', lambda m: f'{m[1]} {check.NAMES[m[2]]}', line) for line in lines]
    assert run(tmp_path, 'check', *options, '.')[:2] == (code, '\n'.join(lines) + '\n')


def test_check_output_file_as_flake8(tmp_path):
    (tmp_path / 'bad.py').write_text(BAD)
    assert flake8(tmp_path, '--select=ESC', '--output-file=flake8.txt', '--count', 'bad.py') == (1, ['3'])
    assert run(tmp_path, 'check', '--output-file=check.txt', '--count', 'bad.py') == (1, '3\n', '')
    assert (tmp_path / 'check.txt').read_text() == (tmp_path / 'flake8.txt').read_text()
    assert (tmp_path / 'check.txt').read_text().splitlines() == BAD_OUT


def test_check_version(tmp_path):
    import flake8 as flake8_package
    code, out, _ = run(tmp_path, 'check', '--version')
    assert code == 0
    assert out == f'flake8-escapes check {flake8_escapes.__version__} (flake8 {flake8_package.__version__})\n'


@pytest.mark.parametrize('command', ['check', 'fix'])
def test_a_configuration_that_ignores_every_code_says_so(tmp_path, command):
    (tmp_path / 'bad.py').write_text(BAD)
    (tmp_path / 'setup.cfg').write_text('[flake8]\nextend-ignore = E\n')
    code, out, err = run(tmp_path, command, 'bad.py')
    assert (code, out) == (0, '')
    assert err == check.IGNORED_ALL + '\n'
    assert len(err.splitlines()) == 1 and 'extend-select = ESC' in err
    # merely not selecting them is what the user asked for: nothing said
    assert run(tmp_path, 'check', '--isolated', '--select=E999', 'bad.py') == (0, '', '')
    (tmp_path / 'setup.cfg').write_text('[flake8]\nextend-ignore = E\nextend-select = ESC\n')
    assert run(tmp_path, command, 'bad.py')[2] == ''


def flake8_option_names() -> set[str]:
    """Every option string flake8 itself registers (its own option list, not ours)."""
    from flake8.main.options import register_default_options, stage1_arg_parser
    from flake8.options.manager import OptionManager
    preliminary = stage1_arg_parser()  # --config, --isolated, --output-file, ...: read before the rest
    manager = OptionManager(version='0', plugin_versions='', parents=[preliminary], formatter_names=[])
    register_default_options(manager)
    return {name for action in manager.parser._actions for name in action.option_strings}


def option_names(command: str) -> set[str]:
    commands = next(action for action in cli.parser()._actions
                    if isinstance(action, argparse._SubParsersAction))
    return {name for action in commands.choices[command]._actions for name in action.option_strings}


#: Ours alone: not flake8 options (the plugin's option is registered by the plugin).
OWN = {'check': {'--escapes-regex-functions'},
       'fix': {'--escapes-regex-functions', '--unsafe', '--diff', '--select'}}
#: The everyday flake8 options issue 25 asks each command to take.
ASKED = {
    'check': {'--count', '--statistics', '--exit-zero', '--output-file', '--show-source', '--version',
              '--select', '--extend-select', '--ignore', '--extend-ignore', '--per-file-ignores', '--jobs',
              '--format', '--stdin-display-name', '--config', '--append-config', '--isolated',
              '--exclude', '--extend-exclude'},
    'fix': {'--ignore', '--extend-ignore', '--extend-select', '--per-file-ignores', '--jobs',
            '--stdin-display-name', '--config', '--append-config', '--isolated', '--exclude',
            '--extend-exclude'},
}


@pytest.mark.parametrize('command', ['check', 'fix'])
def test_option_parity_with_flake8(command):
    """Every option we take under a flake8 name is one of flake8's; the asked ones are there."""
    ours = option_names(command) - {'-h', '--help'}
    assert ours - OWN[command] <= flake8_option_names()
    assert ASKED[command] <= ours
    assert ASKED[command] <= flake8_option_names()


# -- issue 25, item 4; issue 24, item 15: diffs that git apply and patch -p1 take -----------------

NAMES = ['pkg/a.py', 'pkg/with space.py', 'pkg/with\ttab.py', 'pkg/sub/b.py', 'top.py']


@pytest.mark.skipif(not shutil.which('git'), reason='needs git')
@pytest.mark.skipif(not shutil.which('patch'), reason='needs GNU patch (apt-get install -y patch)')
@pytest.mark.parametrize('given', ['.', 'pkg'])
@pytest.mark.parametrize('tool', [['git', 'apply'], ['patch', '-p1', '-s', '-i']])
def test_diffs_apply_from_the_repository_root(tmp_path, given, tool):
    for name in NAMES:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(b'x = "\\d"\n')
    subprocess.run(['git', 'init', '-q', '.'], cwd=tmp_path, check=True)
    code, diff, err = run(tmp_path, 'fix', '--diff', given)
    assert (code, err) == (1, '')
    assert '--- "a/pkg/with\\ttab.py"\n' in diff and '--- a/pkg/with space.py\t\n' in diff
    (tmp_path / 'fix.diff').write_text(diff)
    subprocess.run([*tool, 'fix.diff'], cwd=tmp_path, check=True, capture_output=True)
    for name in NAMES:
        fixed = name.startswith(given) or given == '.'
        assert (tmp_path / name).read_bytes() == (b'x = r"\\d"\n' if fixed else b'x = "\\d"\n'), name


def test_header_names_as_git_writes_them():
    assert diff.header_name(b'a/x.py') == b'a/x.py'
    assert diff.header_name(b'a/x y.py') == b'a/x y.py\t'
    assert diff.header_name(b'a/x\ty.py') == b'"a/x\\ty.py"'
    assert diff.header_name(b'a/\xc3\xa9 "q"\\.py') == b'"a/\\303\\251 \\"q\\"\\\\.py"'


# -- issue 24, items 9-14: misuse and odd files, one line and no traceback --------------------------

@pytest.mark.skipif(sys.platform in ('win32', 'darwin'), reason='file names must be bytes (Linux)')
@pytest.mark.parametrize('form', ['default', 'pylint', 'github', 'json', 'json-lines'])
def test_a_file_name_that_is_not_utf8(tmp_path, form):
    """Item 9: the name is printed with its bytes escaped, and no report is lost."""
    os.makedirs(os.path.join(os.fsencode(tmp_path), b'd\xff'))
    for name in (b'd\xff/bad\xe9.py', b'good.py'):
        with open(os.path.join(os.fsencode(tmp_path), name), 'w') as f:
            f.write(BAD)
    code, out, err = run(tmp_path, 'check', f'--format={form}', '.')
    assert (code, err) == (1, '')
    # three reports in each file (json: one array)
    assert len(json.loads(out) if form == 'json' else out.splitlines()) == 6
    assert ('d\\xff/bad\\xe9.py' if not form.startswith('json') else 'd\\\\xff/bad\\\\xe9.py') in out


@pytest.mark.parametrize('where', ['command line', 'config'])
@pytest.mark.parametrize('command', ['check', 'fix'])
def test_a_malformed_per_file_ignores(tmp_path, where, command):
    """Item 10: exit 2 (bad usage) and one line, for check and fix, not exit 1 ("files were changed")."""
    (tmp_path / 'bad.py').write_text(BAD)
    args = ['--per-file-ignores=bad.py'] if where == 'command line' else []
    if where == 'config':
        (tmp_path / 'setup.cfg').write_text('[flake8]\nper-file-ignores = bad.py\n')
    code, out, err = run(tmp_path, command, *args, 'bad.py')
    assert (code, out) == (2, '')
    assert len(err.splitlines()) == 1 and 'per-file-ignores' in err
    assert (tmp_path / 'bad.py').read_text() == BAD


def test_a_closed_pipe_stops_the_printing_not_the_work(tmp_path):
    """Item 11: `check | head -1` and `fix DIR | head -1`: quiet, and every file is fixed."""
    for index in range(300):
        (tmp_path / f'm{index:03}.py').write_text(BAD)
    for command in ('check .', 'check --count --statistics .', 'fix --diff .', 'fix .'):
        proc = subprocess.run(f'{sys.executable} -m flake8_escapes {command} | head -1', shell=True,
                              cwd=tmp_path, capture_output=True, text=True, timeout=300)
        assert proc.stderr == '', (command, proc.stderr)
        assert len(proc.stdout.splitlines()) == 1
    assert all((tmp_path / f'm{index:03}.py').read_text() != BAD for index in range(300))
    assert run(tmp_path, 'fix', '.')[:2] == (0, '')


@pytest.mark.skipif(not hasattr(os, 'mkfifo'), reason='no FIFOs here')
def test_check_skips_a_fifo_and_a_device_as_fix_does(tmp_path):
    """Item 12: named on the command line, a FIFO blocked check and /dev/zero read without end."""
    os.mkfifo(tmp_path / 'pipe.py')
    (tmp_path / 'bad.py').write_text(BAD)
    names = ['pipe.py', 'bad.py'] + (['/dev/zero'] if os.path.exists('/dev/zero') else [])
    code, out, err = run(tmp_path, 'check', *names)
    assert (code, out) == (1, '\n'.join(BAD_OUT) + '\n')
    skipped = [f'{name}: skipped, not a regular file' for name in names if name != 'bad.py']
    assert err.splitlines() == skipped
    assert run(tmp_path, 'fix', '--diff', *names)[2].splitlines() == skipped


def test_a_tokenizer_system_error_is_that_files_e902(tmp_path, monkeypatch, capsysbinary):
    """Item 13: CPython 3.12.1 and 3.13.0's tokenizer raises SystemError on some sources that
    compile; here it is made to, for one file: that file gets E902 and the others are checked."""
    import tokenize
    real = tokenize.generate_tokens

    def failing(readline):  # on any source whose first line names FAIL (check tokenizes f-strings)
        first = readline()
        if 'FAIL' in first:
            raise SystemError('Negative size passed to PyUnicode_New')
        return real(iter([first, *iter(readline, '')]).__next__)
    monkeypatch.setattr(tokenize, 'generate_tokens', failing)
    (tmp_path / 'a.py').write_text('x = f"\\d{FAIL}"\n')
    (tmp_path / 'bad.py').write_text(BAD)
    monkeypatch.chdir(tmp_path)
    assert cli.main(['check', '--jobs=1', 'a.py', 'bad.py']) == 1
    out = capsysbinary.readouterr().out.decode().splitlines()
    assert out == ['a.py:1:1: E902 SystemError: Negative size passed to PyUnicode_New', *BAD_OUT]


#: A lone-CR file whose cookie is on its second line: CPython reads it as cp932 (one character
#: for the two bytes 82 a0, 'あ'); a reader that sees one long first line misses the cookie,
#: fails on UTF-8 and falls back to latin-1 (two characters).
LONE_CR = b'#!/usr/bin/env python\r# -*- coding: cp932 -*-\rx = "\x82\xa0\\d"\r'


def test_a_lone_cr_file_with_a_cookie_is_read_as_cpython_reads_it(tmp_path):
    """Item 14: the escape is at column 7 of line 3 (x = "あ\\d": x, space, =, space, quote, あ)."""
    import warnings
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        compile(LONE_CR, 'lone.py', 'exec')  # CPython reads it: it compiles, and warns at line 3
    assert [warning.lineno for warning in caught] == [3]
    (tmp_path / 'lone.py').write_bytes(LONE_CR)
    expected = "lone.py:3:7: ESC301 invalid escape sequence '\\d'; write '\\\\d' or use a raw string\n"
    assert run(tmp_path, 'check', 'lone.py') == (1, expected, '')
    assert run(tmp_path, 'check', '--stdin-display-name=lone.py', '-', stdin=LONE_CR) == (1, expected, '')
    # the fixer reads it so too: the same place is fixed
    assert fix.fix_bytes(LONE_CR, set(fix.SAFE)).data == LONE_CR.replace(b'"\x82', b'r"\x82')


#: A lone-CR file with a gb18030 cookie on its first line (item 11 of issue 34): '中' is two bytes.
GB18030 = '# -*- coding: gb18030 -*-\rx = "中\\d中\\w"\r'.encode('gb18030')


def test_a_lone_cr_cookie_flake8_misses_is_a_documented_difference(tmp_path):
    """Item 11 of issue 34: CPython ends the cookie's line at the lone CR and reads the file as
    gb18030 ('中' one character: backslashes at columns 7 and 10 of line 2); flake8's reader sees one
    long line, and before 3.14 tokenize decodes it as UTF-8 to find the cookie, fails, and flake8
    falls back to latin-1 (two characters: 8 and 12). check keeps CPython's columns, and the README
    says so where check's promise is stated."""
    import warnings
    from test_docs import README
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        compile(GB18030, 'g.py', 'exec')
    assert [warning.lineno for warning in caught] == [2]  # CPython reads the cookie, '\d' on line 2
    row = GB18030.decode('gb18030').split('\r')[1]
    assert [col + 1 for col, char in enumerate(row) if char == '\\'] == [7, 10]
    (tmp_path / 'g.py').write_bytes(GB18030)
    code, out, _ = run(tmp_path, 'check', 'g.py')
    assert [line.split(' ')[0] for line in out.splitlines()] == ['g.py:2:7:', 'g.py:2:10:']
    _, flake8_out = flake8(tmp_path, '--select=ESC', 'g.py')
    latin1 = ['g.py:2:8:', 'g.py:2:12:'] if sys.version_info < (3, 14) else ['g.py:2:7:', 'g.py:2:10:']
    assert [line.split(' ')[0] for line in flake8_out] == latin1
    promise = ' '.join(README[README.index('prints what `flake8 --select=ESC` prints'):][:800].split())
    assert 'a file whose coding cookie ends with a lone CR' in promise
    assert 'flake8 on Python 3.10 to 3.13 misses the cookie and falls back to latin-1' in promise


# -- issue 25, item 5: docs a user can trust ------------------------------------------------------------

@pytest.mark.parametrize('columns', ['200', '80'])
def test_fix_help_fits_in_80_columns(tmp_path, columns):
    proc = subprocess.run([sys.executable, '-m', 'flake8_escapes', 'fix', '--help'], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60, env={**os.environ, 'COLUMNS': columns})
    assert proc.returncode == 0 and 'exit status:' in proc.stdout
    assert max(map(len, proc.stdout.splitlines())) <= min(80, int(columns))


def test_w605_reports_each_invalid_escape_as_the_readme_says():
    """The README once said W605 reports "the first of each literal piece"; pycodestyle reports each."""
    import pycodestyle
    from test_docs import README
    lines = ['x = "\\d\\w"\n']
    style = pycodestyle.Checker(lines=lines, select=['W605'], quiet=True)
    assert style.check_all() == 2
    assert "each one (`'\\d\\w'` gets two reports)" in README
    assert 'the first of each literal piece' not in README


def test_the_line_for_line_claim_has_its_qualifier():
    from test_docs import README
    sentence = README[README.index('prints what `flake8 --select=ESC` prints'):][:800]
    assert '`E999` only' in sentence and 'parsed' in sentence and 'virtual' in sentence
    assert '## Reporting a bug' in README


# -- issue 34: the command line under attack, round four ---------------------------------------

def test_fix_standard_input_with_a_file_keeps_standard_output_for_the_source(tmp_path):
    """Item 7: ``fix - a.py`` wrote ``a.py: fixed ...`` into the fixed source on standard output."""
    (tmp_path / 'a.py').write_text(BAD)
    code, out, err = run(tmp_path, 'fix', '-', 'a.py', stdin=BAD.encode())
    assert code == 1
    assert out == fix.fix_bytes(BAD.encode(), set(fix.SAFE)).data.decode()
    assert err == 'a.py: fixed ESC301, ESC302, ESC303\n'
    assert (tmp_path / 'a.py').read_text() == out


def test_standard_input_named_twice_is_reported_twice_as_flake8_does(tmp_path):
    """Item 14: flake8 reads standard input once and checks it for each ``-``; check read it
    again for the second one, found it empty and printed its reports once."""
    (tmp_path / 'bad.py').write_text(BAD)
    stdin = BAD.replace('\\d', '\\w')
    expected = flake8(tmp_path, '--select=ESC', '-', 'bad.py', '-', stdin=stdin)
    assert len(expected[1]) == 9  # three reports for each of the three names
    assert run(tmp_path, 'check', '-', 'bad.py', '-', stdin=stdin.encode())[:2] == (
        expected[0], ''.join(line + '\n' for line in expected[1]))
