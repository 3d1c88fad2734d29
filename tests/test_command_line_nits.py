"""An adversarial round of the command line (nits40): ``fix --diff``'s names for standard input and
for a file outside the current folder, one line (not a traceback) for an error of ours on one file
while the others are still reported, and ESC501's advice for a path that also spells ``\\\\``.

Every test here failed on main before this round.
"""
from __future__ import annotations

import multiprocessing
import os
import shutil
import subprocess
import sys
import textwrap
import warnings

import pytest

from flake8_escapes import checks, cli, fix
from flake8_escapes.commands import fix as fixing
from test_command_line import run
from test_flake8 import BAD, BAD_OUT

SOURCE = b'import re\nx = re.compile("\\d")\n'
FIXED = b'import re\nx = re.compile(r"\\d")\n'


# -- item 1: standard input's diff and messages carry --stdin-display-name, as check's reports do --

@pytest.mark.parametrize('given, name', [(['--stdin-display-name', 'x.py'], 'x.py'),
                                         (['--stdin-display-name=pkg/y.py'], 'pkg/y.py'),
                                         ([], 'stdin')])
def test_the_diff_of_standard_input_is_named_as_check_names_it(tmp_path, given, name):
    """Before: ``--- a/-`` whatever the display name (and ``-: ...`` in the messages)."""
    code, diff, err = run(tmp_path, 'fix', '--diff', *given, '-', stdin=SOURCE)
    assert (code, err) == (1, '')
    assert diff.startswith(f'--- a/{name}\n+++ b/{name}\n@@ -1,2 +1,2 @@\n')
    # check names the file so too
    assert run(tmp_path, 'check', *given, '-', stdin=SOURCE)[1].startswith(f'{name}:2:17: ESC301 ')


def test_the_diff_of_standard_input_applies_to_the_file_named(tmp_path):
    if not shutil.which('git'):
        pytest.skip('needs git')
    (tmp_path / 'x.py').write_bytes(SOURCE)
    diff = run(tmp_path, 'fix', '--diff', '--stdin-display-name=x.py', '-', stdin=SOURCE)[1]
    (tmp_path / 'fix.diff').write_text(diff)
    subprocess.run(['git', 'apply', 'fix.diff'], cwd=tmp_path, check=True, capture_output=True)
    assert (tmp_path / 'x.py').read_bytes() == FIXED


def test_the_messages_about_standard_input_carry_its_display_name(tmp_path):
    """Before: ``-: skipped, does not parse ...``."""
    source = b'x = "\\d" "\\xZ"\n'  # ESC304: does not compile
    code, out, err = run(tmp_path, 'fix', '--stdin-display-name=y.py', '-', stdin=source)
    assert (code, out) == (0, source.decode())
    assert err.startswith('y.py: skipped, does not parse (ESC304 at line 1)')
    err = run(tmp_path, 'fix', '-', stdin=source)[2]
    assert err.startswith('stdin: skipped, does not parse (ESC304 at line 1)')


# -- item 2: a file outside the current folder is named as git diff --no-index names it -----------

def outside(tmp_path):
    """(the folder fix runs in, the file outside it)."""
    (tmp_path / 'here').mkdir()
    (tmp_path / 'there').mkdir()
    path = tmp_path / 'there' / 'a.py'
    path.write_bytes(SOURCE)
    return tmp_path / 'here', path


def absolute_name(path):
    return os.path.abspath(path).lstrip(os.sep).replace(os.sep, '/')


@pytest.mark.parametrize('relative', [False, True])
def test_a_file_outside_the_current_folder_is_named_by_its_absolute_path(tmp_path, relative):
    """Before: ``--- a/../there/a.py``, a name ``git apply`` refuses (invalid path) and GNU
    ``patch`` ignores, from every folder.  Now git's name for it (``git diff --no-index``)."""
    here, path = outside(tmp_path)
    given = os.path.join('..', 'there', 'a.py') if relative else str(path)
    code, diff, err = run(here, 'fix', '--diff', given)
    assert (code, err) == (1, '')
    name = absolute_name(path)
    assert diff.startswith(f'--- a/{name}\n+++ b/{name}\n@@ -1,2 +1,2 @@\n')


@pytest.mark.skipif(sys.platform == 'win32', reason='applied from the root of a POSIX file system')
@pytest.mark.parametrize('tool', [['git', '-C', '/', 'apply'], ['patch', '-p1', '-s', '-d', '/', '-i']])
def test_a_diff_of_a_file_outside_applies_from_the_root(tmp_path, tool):
    """As docs/fix.md says: neither tool writes outside the folder it runs in, so such a diff is
    applied from the root."""
    if not shutil.which(tool[0]):
        pytest.skip(f'needs {tool[0]}')
    here, path = outside(tmp_path)
    diff = run(here, 'fix', '--diff', str(path))[1]
    (tmp_path / 'fix.diff').write_text(diff)
    subprocess.run([*tool, str(tmp_path / 'fix.diff')], cwd=here, check=True, capture_output=True)
    assert path.read_bytes() == FIXED


def test_a_file_inside_keeps_its_relative_name_even_given_absolute(tmp_path):
    """An absolute path under the current folder: named relative, applied from there."""
    (tmp_path / 'pkg').mkdir()
    (tmp_path / 'pkg' / 'a.py').write_bytes(SOURCE)
    diff = run(tmp_path, 'fix', '--diff', str(tmp_path / 'pkg' / 'a.py'))[1]
    assert diff.startswith('--- a/pkg/a.py\n+++ b/pkg/a.py\n')


# -- item 3: an error of ours on one file is one line on stderr; the others are reported; exit 2 ---

#: A file the patched function fails on (its text names BOOM), with an escape to report.
BOOM = 'x = "\\d"  # BOOM\n'
INTERNAL = 'flake8-escapes: internal error on a.py: TypeError: boom; please report it'


def failing(real, error=TypeError):
    """``real``, raising ``error`` when one of its arguments names BOOM (a bug of ours)."""
    def fails(*args, **kwargs):
        if any('BOOM' in str(arg) for arg in args):
            raise error('boom')
        return real(*args, **kwargs)
    return fails


@pytest.fixture
def files(tmp_path, monkeypatch):
    (tmp_path / 'a.py').write_text(BOOM)
    (tmp_path / 'bad.py').write_text(BAD)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_check_goes_on_after_an_error_of_ours(files, monkeypatch, capsysbinary):
    """Before: the TypeError went up through ``check``: a traceback and no report of bad.py."""
    monkeypatch.setattr(checks, 'all_reports', failing(checks.all_reports))
    assert cli.main(['check', '--jobs=1', 'a.py', 'bad.py']) == 2
    out, err = capsysbinary.readouterr()
    assert out.decode().splitlines() == BAD_OUT
    assert err.decode().splitlines() == [INTERNAL]
    # even with --exit-zero: CI must see it
    assert cli.main(['check', '--jobs=1', '--exit-zero', '.']) == 2
    assert capsysbinary.readouterr().err.decode().splitlines() == [INTERNAL.replace('a.py', './a.py')]


def test_check_names_standard_input_in_that_line(files, monkeypatch, capsysbinary):
    monkeypatch.setattr(checks, 'all_reports', failing(checks.all_reports))
    monkeypatch.setattr(sys, 'stdin', open(files / 'a.py'))
    try:
        assert cli.main(['check', '--stdin-display-name=z.py', '-']) == 2
    finally:
        sys.stdin.close()
    assert capsysbinary.readouterr().err.decode().splitlines() == [INTERNAL.replace('a.py', 'z.py')]


def test_fix_goes_on_after_an_error_of_ours_in_the_fixer(files, monkeypatch, capsys):
    """Before: ``a.py: left alone: TypeError: boom``, which read as the file's fault."""
    monkeypatch.setattr(fix, 'fix_bytes', failing(fix.fix_bytes))
    assert cli.main(['fix', '--jobs=1', 'a.py', 'bad.py']) == 2
    out, err = capsys.readouterr()
    assert out == 'bad.py: fixed ESC301, ESC302, ESC303\n'
    assert err.splitlines() == [INTERNAL]
    assert (files / 'a.py').read_text() == BOOM


def test_a_value_error_of_ours_in_the_fixer_is_not_a_file_that_does_not_parse(files, monkeypatch, capsys):
    """Before: a ValueError of ours read as a NUL byte's (``a.py: skipped, does not parse: boom``, exit
    0); a NUL byte, which CPython refuses, is the file's and still says so."""
    monkeypatch.setattr(fix, 'fix_bytes', failing(fix.fix_bytes, ValueError))
    assert cli.main(['fix', '--jobs=1', 'a.py', 'bad.py']) == 2
    out, err = capsys.readouterr()
    assert out == 'bad.py: fixed ESC301, ESC302, ESC303\n'
    assert err.splitlines() == [INTERNAL.replace('TypeError', 'ValueError')]
    (files / 'nul.py').write_bytes(b'x = "\\d"\ny = 1\0\n')
    assert cli.main(['fix', 'nul.py']) == 0
    assert capsys.readouterr().err == \
        'nul.py: skipped, does not parse: source code string cannot contain null bytes\n'


def test_fix_diff_goes_on_after_an_error_of_ours_beyond_the_fixer(files, monkeypatch, capsysbinary):
    """Before: the TypeError of the diff went up through ``fix``: a traceback, no other diff."""
    monkeypatch.setattr(fixing, 'unified_diff', failing(fixing.unified_diff))
    monkeypatch.setattr(fixing, 'read_bytes', failing(fixing.read_bytes))  # its own try too
    (files / 'c.py').write_text(BAD.replace('import re', 'import re  # BOOM'))
    assert cli.main(['fix', '--jobs=1', '--diff', 'a.py', 'bad.py', 'c.py']) == 2
    out, err = capsysbinary.readouterr()
    assert out.decode().startswith('--- a/bad.py\n+++ b/bad.py\n')
    assert out.decode().count('--- ') == 1
    assert err.decode().splitlines() == [INTERNAL, INTERNAL.replace('a.py', 'c.py')]
    assert (files / 'bad.py').read_text() == BAD


def test_fix_passes_standard_input_on_after_an_error_of_ours(files, monkeypatch, capsysbinary):
    """A filter (an editor's) gets its source back as it came, exit 2 and the line on stderr."""
    monkeypatch.setattr(fix, 'fix_bytes', failing(fix.fix_bytes))
    monkeypatch.setattr(sys, 'stdin', open(files / 'a.py'))
    try:
        assert cli.main(['fix', '--stdin-display-name=z.py', '-']) == 2
    finally:
        sys.stdin.close()
    out, err = capsysbinary.readouterr()
    assert (out.decode(), err.decode()) == (BOOM, INTERNAL.replace('a.py', 'z.py') + '\n')


#: Run in a subprocess: the patch made before the workers are forked, so that they have it.
WORKERS = textwrap.dedent("""
    import multiprocessing, sys
    multiprocessing.set_start_method('fork')
    from flake8_escapes import checks, cli, fix
    from flake8_escapes.commands import fix as fixing
    def failing(real):
        def fails(*args, **kwargs):
            if any('BOOM' in str(arg) for arg in args):
                raise TypeError('boom')
            return real(*args, **kwargs)
        return fails
    checks.all_reports = failing(checks.all_reports)
    fixing.unified_diff = failing(fixing.unified_diff)
    sys.exit(cli.main(sys.argv[1:]))
""")


@pytest.mark.skipif('fork' not in multiprocessing.get_all_start_methods(), reason='needs fork')
@pytest.mark.parametrize('command', [['check'], ['fix', '--diff']])
def test_workers_go_on_after_an_error_of_ours(files, command):
    """--jobs: the worker's error was sent back to the main process and raised there (a traceback)."""
    for index in range(4):
        (files / f'm{index}.py').write_text(BAD)
    proc = subprocess.run([sys.executable, '-c', WORKERS, *command, '--jobs=2', '.'], cwd=files,
                          capture_output=True, text=True, timeout=300)
    assert proc.stderr.splitlines() == [INTERNAL.replace('a.py', './a.py')]
    assert proc.returncode == 2
    if command == ['check']:
        assert len(proc.stdout.splitlines()) == 5 * len(BAD_OUT)
    else:
        assert proc.stdout.count('--- a/') == 5


# -- item 4: ESC501 says "double each lone backslash" where the path spells a backslash as '\\' ----

def value_of(literal):
    """The literal's value, by CPython (its escape warnings recorded and ignored)."""
    with warnings.catch_warnings(record=True):
        warnings.simplefilter('always')
        return eval(compile(literal, '<literal>', 'eval', dont_inherit=True), {'name': 'file'})


@pytest.mark.parametrize('literal, meant', [
    ('"C:\\temp\\\\file.txt"', 'C:\\temp\\file.txt'),
    ('"C:\\temp\\\\new\\\\file.txt"', 'C:\\temp\\new\\file.txt'),
    ('f"C:\\temp\\\\{name}.txt"', 'C:\\temp\\file.txt'),
    ('b"C:\\temp\\\\file.txt"', b'C:\\temp\\file.txt'),
])
def test_esc501_advises_doubling_where_raw_would_make_two_backslashes(tmp_path, literal, meant):
    """Before: 'use a raw string or forward slashes', wrong advice here: raw keeps the '\\\\' as
    two backslashes (CPython's values below), and the fix doubles the lone one instead."""
    assert value_of(literal) != meant  # a tab where the path has a backslash
    raw = literal.replace('"', 'r"', 1) if literal[0] == '"' else literal[0] + 'r' + literal[1:]
    two = b'\\\\' if isinstance(meant, bytes) else '\\\\'
    assert value_of(raw) != meant and two in value_of(raw) and two not in meant  # raw: two backslashes
    (tmp_path / 'p.py').write_text(f'open({literal})\n')
    code, out, _ = run(tmp_path, 'check', '--select=ESC501', 'p.py')
    assert code == 1
    column = literal.index('\\') + 6  # 1-based, after 'open('
    said = "ESC501 '\\t' in a Windows path is a tab; double each lone backslash or use /"
    assert out == f'p.py:1:{column}: {said}\n'
    assert run(tmp_path, 'fix', '--unsafe', 'p.py')[0] == 1
    fixed = (tmp_path / 'p.py').read_text()[5:-2]
    assert value_of(fixed) == meant, fixed


def test_esc501_keeps_its_raw_advice_elsewhere(tmp_path):
    (tmp_path / 'p.py').write_text('open("C:\\temp\\new.txt")\n')
    out = run(tmp_path, 'check', '--select=ESC501', 'p.py')[1]
    assert out.splitlines() == [
        "p.py:1:9: ESC501 '\\t' in a Windows path is a tab; use a raw string or forward slashes",
        "p.py:1:14: ESC501 '\\n' in a Windows path is a newline; use a raw string or forward slashes"]
    assert run(tmp_path, 'fix', '--unsafe', 'p.py')[0] == 1
    fixed = (tmp_path / 'p.py').read_text()
    assert fixed == 'open(r"C:\\temp\\new.txt")\n'
    assert value_of(fixed[5:-2]) == 'C:' + '\\' + 'temp' + '\\' + 'new.txt'
