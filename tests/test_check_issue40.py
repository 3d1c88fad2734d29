"""Issue 40's rows about ``flake8-escapes check``'s output: a bad format string (item 7) and the
JSON formats with ``--count``, ``--statistics`` and ``--show-source`` (item 9).

Each test runs the command in a subprocess, as a user does (``tests/test_check_issue32.py``'s
helpers); every test here failed on main before issue 40.
"""
from __future__ import annotations

import ast
import json
import os
import signal
import socket
import subprocess
import sys
import warnings

import pytest

from test_check_issue32 import BAD, escapes, flake8, write

CLEAN = 'x = 1\n'


# -- item 7: a format string flake8 cannot apply is refused before any file is read --------------

def cpython_says(form: str) -> str:
    """What CPython's ``%`` says of ``form`` applied to a report as flake8's formatter applies it
    (the wording changes between Pythons: 3.15 rewrote these messages)."""
    try:
        form % {'code': 'ESC301', 'text': 'message', 'path': 'a.py', 'row': 1, 'col': 1,
                'bold': '', 'reset': ''}
    except KeyError as error:
        return f'unknown key {error.args[0]!r} (known: path, row, col, code, text)'
    except (ValueError, TypeError) as error:
        return str(error)
    raise AssertionError(f'{form!r} is a good format')


@pytest.mark.parametrize('form', [
    '%(colum)d', '%(path)s:%(row)d %', '%(path)d', '%(row)d %s', '%(row)d %(col)y'])
@pytest.mark.parametrize('files', [['bad.py'], ['clean.py'], []])
@pytest.mark.parametrize('zero', [[], ['--exit-zero']])
def test_a_bad_format_string_is_one_line_and_exit_2(tmp_path, form, files, zero):
    """Before: flake8's formatter raised at the first report (KeyError, ValueError, TypeError):
    a 20-line traceback and exit 1, even with --exit-zero, and nothing at all where no file had a
    report (flake8 itself does the same).  Now the string is tried once before any file is read:
    one line naming it and CPython's reason, exit 2 (bad usage), whatever the files hold."""
    write(tmp_path, {'bad.py': BAD, 'clean.py': CLEAN})
    assert escapes(tmp_path, 'check', *zero, f'--format={form}', *files) == (
        2, [], f'flake8-escapes check: error: --format {form!r}: {cpython_says(form)}\n')


def test_a_bad_format_string_in_the_config_file(tmp_path):
    """flake8 reads ``format`` from its config file too: refused the same way, named as such."""
    write(tmp_path, {'bad.py': BAD, 'setup.cfg': '[flake8]\nformat = %(colum)d\n'})
    assert escapes(tmp_path, 'check', 'bad.py') == (
        2, [], "flake8-escapes check: error: the configuration's format '%(colum)d': unknown key "
               "'colum' (known: path, row, col, code, text)\n")
    # --format on the command line wins over the file's, as in flake8
    assert escapes(tmp_path, 'check', '--format=pylint', 'bad.py')[:2] == flake8(
        tmp_path, '--select=ESC', '--format=pylint', 'bad.py')


@pytest.mark.parametrize('form', [
    '%(path)s|%(row)d|%(col)d|%(code)s|%(text).20s %%',
    '%(bold)s%(path)s%(reset)s:%(row)3d %(code)s',  # flake8's colour keys, empty without a terminal
    '%(code)s',
])
def test_a_good_format_string_still_works(tmp_path, form):
    write(tmp_path, {'bad.py': BAD})
    expected = flake8(tmp_path, '--isolated', '--select=ESC', f'--format={form}', 'bad.py')
    assert expected[0] == 1 and len(expected[1]) == 3
    assert escapes(tmp_path, 'check', '--isolated', f'--format={form}', 'bad.py') == (*expected, '')


# -- item 9: standard output stays one JSON document ---------------------------------------------

STATISTICS = ['1     ESC301 invalid-escape', '1     ESC302 str-escape-in-bytes',
              '1     ESC303 octal-escape-overflow']


@pytest.mark.parametrize('more, aside', [
    (['--count'], ['3']),
    (['--statistics'], STATISTICS),
    (['--count', '--statistics', '--show-source'], [*STATISTICS, '3']),
])
def test_json_with_count_and_statistics_is_one_document(tmp_path, more, aside):
    """Before: the statistics before the array and the count after it, on standard output: not
    JSON any more.  Now the array alone is on standard output (as without them) and the count and
    statistics, as flake8 prints them, are on standard error; ruff instead prints only the
    statistics, as their own JSON array (docs/check.md says so)."""
    write(tmp_path, {'bad.py': BAD})
    plain = escapes(tmp_path, 'check', '--format=json', 'bad.py')
    code, out, err = escapes(tmp_path, 'check', '--format=json', *more, 'bad.py')
    assert (code, out) == plain[:2] and len(json.loads('\n'.join(out))) == 3
    assert err.splitlines() == aside


def test_json_with_an_output_file_keeps_the_file_one_document(tmp_path):
    """--output-file: the statistics went into the file, after the array."""
    write(tmp_path, {'bad.py': BAD})
    code, out, err = escapes(tmp_path, 'check', '--format=json', '--statistics', '--count',
                             '--output-file=out.json', 'bad.py')
    assert (code, out, err.splitlines()) == (1, [], [*STATISTICS, '3'])
    assert len(json.loads((tmp_path / 'out.json').read_text())) == 3


@pytest.mark.parametrize('more, aside', [
    (['--count'], ['3']),
    (['--statistics'], STATISTICS),
    (['--show-source'], []),
    (['--count', '--statistics', '--show-source'], [*STATISTICS, '3']),
])
def test_json_lines_stay_json_objects(tmp_path, more, aside):
    """Before: the count, statistics and each report's source line and caret came between and
    after the objects.  Now every line of standard output is one report's object."""
    write(tmp_path, {'bad.py': BAD})
    code, out, err = escapes(tmp_path, 'check', '--format=json-lines', *more, 'bad.py')
    assert code == 1 and [json.loads(line)['code'] for line in out] == ['ESC301', 'ESC302', 'ESC303']
    assert err.splitlines() == aside


def test_github_shows_no_source_line(tmp_path):
    """Before: --show-source printed the file's line under each annotation, and the runner reads a
    line that starts with '::' (after spaces) as a workflow command: a docstring could mask a
    secret's value or stop the commands.  The annotation has the span; the count and statistics
    stay on standard output (the runner prints them in the log)."""
    write(tmp_path, {'bad.py': 'def f():\n    """\n    ::stop-commands::x \\d\n    """\n'})
    code, out, err = escapes(tmp_path, 'check', '--format=github', '--show-source', '--count',
                             '--statistics', 'bad.py')
    assert (code, err) == (1, '')
    assert out == ['::error file=bad.py,line=3,endLine=3,col=24,endColumn=25,title=ESC301::ESC301 '
                   "invalid escape sequence '\\d'; write '\\\\d' or use a raw string",
                   '1     ESC301 invalid-escape', '1']


# -- issue 40's attacks on the command line (beyond its items) -----------------------------------

def test_a_utf16_file_gets_e999_and_no_escape_at_its_nul_bytes(tmp_path):
    """A UTF-16 file (BOM, no cookie) does not compile: CPython refuses its NUL bytes, E999 says so.
    Before: read as latin-1, each backslash was followed by a NUL, reported as ESC301
    "invalid escape sequence '\\<U+0000>'; write '\\\\<U+0000>'", advice that fits no file.  A real
    escape beside a NUL byte is still reported."""
    (tmp_path / 'u16.py').write_bytes(b'\xff\xfe' + 'x = "\\d"\n'.encode('utf-16-le'))
    (tmp_path / 'nul.py').write_bytes(b'x = "\\d"\x00\n')
    code, out, _ = escapes(tmp_path, 'check', 'u16.py', 'nul.py')
    e999 = 'E999 SyntaxError: source code string cannot contain null bytes'
    esc301 = "ESC301 invalid escape sequence '\\d'; write '\\\\d' or use a raw string"
    assert (code, out) == (1, [f'nul.py:1:1: {e999}', f'nul.py:1:6: {esc301}', f'u16.py:1:1: {e999}'])


@pytest.mark.parametrize('form', ['json', 'pylnt'])
def test_an_unknown_format_in_the_config_file_is_refused(tmp_path, form):
    """Before: a config file's ``format = json`` (or a typo) printed the word as each report's line,
    as flake8 does (its Default formatter takes an unknown name for a format string).  Now refused
    as --format refuses it; check's own formats are --format's only (flake8 reads the file too)."""
    write(tmp_path, {'bad.py': BAD, 'setup.cfg': f'[flake8]\nformat = {form}\n'})
    code, out, err = escapes(tmp_path, 'check', 'bad.py')
    assert (code, out) == (2, [])
    assert err.startswith(f"flake8-escapes check: error: the configuration's format: unknown format "
                          f"{form!r} (known: default, pylint, ")
    assert err.endswith("; github, json, json-lines: with --format only)\n")
    assert escapes(tmp_path, 'check', '--format=json-lines', 'bad.py')[0] == 1  # the command line wins


@pytest.mark.parametrize('select, shown', [('F', 'F'), ('', ''), ('E999,F', 'E999,F'), ('E', None)])
@pytest.mark.parametrize('command', ['check', 'fix'])
def test_a_configuration_that_selects_no_esc_code_says_so(tmp_path, select, shown, command):
    """flake8 reports nothing then (its select wins, ``select =`` left empty selects nothing), and
    so do check and fix; before, silently (exit 0, a CI job green for ever), now with one line on
    standard error, as when the configuration ignores every ESC code."""
    write(tmp_path, {'bad.py': BAD, 'setup.cfg': f'[flake8]\nselect = {select}\n'})
    if shown is None:  # 'E' selects ESC by its prefix: nothing said
        assert escapes(tmp_path, command, 'bad.py')[::2] == (1, '')
        return
    assert flake8(tmp_path, 'bad.py') == (0, [])
    # --select on check's command line is what the user asked for: nothing said
    assert escapes(tmp_path, 'check', '--select=E999', 'bad.py') == (0, [], '')
    assert escapes(tmp_path, command, 'bad.py') == (
        0, [], f'flake8-escapes: no ESC code is selected (select = {shown}); add extend-select = ESC '
               'to report them\n')
    assert (tmp_path / 'bad.py').read_text() == BAD


@pytest.mark.skipif(not os.path.exists('/dev/full'), reason='needs /dev/full (a full disk)')
@pytest.mark.parametrize('args', [
    ['check', 'bad.py'], ['check', '--format=json', 'bad.py'], ['check', '--count', 'bad.py'],
    ['fix', '--diff', 'bad.py'], ['explain', 'ESC301'],
])
def test_an_output_that_cannot_be_written_is_one_line(tmp_path, args):
    """Before: a traceback (OSError: No space left on device) and exit 1, as flake8 does; a CI
    job would read exit 1 as 'reports'.  Now one line and exit 2."""
    write(tmp_path, {'bad.py': BAD})
    with open('/dev/full', 'w') as full:
        proc = subprocess.run([sys.executable, '-m', 'flake8_escapes', *args], cwd=tmp_path, stdout=full,
                              stderr=subprocess.PIPE, text=True, timeout=300)
    said = f'flake8-escapes {args[0]}: error: No space left on device\n'
    assert (proc.returncode, proc.stderr) == (2, said)
    assert (tmp_path / 'bad.py').read_text() == BAD


def test_an_output_file_that_is_a_folder_is_one_line(tmp_path):
    write(tmp_path, {'bad.py': BAD})
    (tmp_path / 'out').mkdir()
    assert escapes(tmp_path, 'check', '--output-file=out', 'bad.py') == (
        2, [], 'flake8-escapes check: error: out: Is a directory\n')


#: Sources CPython cannot parse for their depth: its parser raises RecursionError ('1+1+...', 3.11+)
#: or MemoryError (nested lambdas, unary minus: 3.10-3.15) instead of a SyntaxError.
TOO_DEEP = ['y = 1' + '+1' * 100_000, 'y = ' + 'lambda: ' * 100_000 + '1', 'y = ' + '-' * 200_000 + '1']


@pytest.mark.parametrize('deep', TOO_DEEP, ids=['sum', 'lambdas', 'minus'])
def test_a_source_nested_too_deep_is_e999_and_the_run_goes_on(tmp_path, deep):
    """Before: the parser's RecursionError or MemoryError went up through check (a traceback, the
    other files' reports lost) and api.lint (the server published nothing for the buffer).  Now
    the file gets E999 (CPython does not compile it) and the reports its literals' text gives."""
    source = f'x = "\\d"\n{deep}\n'
    try:
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')  # the compiler's own warning about '\d'
            ast.parse(source)  # as flake8 reads a file (3.10 parses the sum; only its compiler refuses it)
    except (SyntaxError, RecursionError, MemoryError) as error:
        refused = type(error).__name__
    else:
        pytest.skip('this Python parses it')
    write(tmp_path, {'deep.py': source, 'good.py': BAD})
    code, out, err = escapes(tmp_path, 'check', 'deep.py', 'good.py')
    assert code == 1 and out[0].startswith('deep.py:') and f'E999 {refused}: ' in out[0]
    assert out[1:] == ["deep.py:1:6: ESC301 invalid escape sequence '\\d'; write '\\\\d' or use a raw string",
                       *escapes(tmp_path, 'check', 'good.py')[1]]
    assert err.startswith(f'deep.py: does not parse ({refused}')
    from flake8_escapes import api
    assert [(item.code, item.line, item.column) for item in api.lint(source)] == [('ESC301', 1, 5)]


@pytest.mark.skipif(not hasattr(socket, 'AF_UNIX'), reason='needs Unix sockets')
@pytest.mark.parametrize('command', ['check', 'fix'])
def test_a_socket_named_is_skipped_as_a_fifo_is(tmp_path, command):
    """Before: fix said 'sock.py: cannot read: No such device or address' and exited 2 (a socket
    cannot be opened), where check, and fix for a FIFO, say it is skipped."""
    write(tmp_path, {'bad.py': BAD})
    server = socket.socket(socket.AF_UNIX)
    try:
        try:
            server.bind(str(tmp_path / 'sock.py'))
        except OSError:  # a temporary folder's path too long for a socket's name
            pytest.skip('cannot make a socket there')
        os.mkfifo(tmp_path / 'fifo.py')
        code, _, err = escapes(tmp_path, command, 'sock.py', 'fifo.py')
    finally:
        server.close()
    assert (code, err) == (0, 'sock.py: skipped, not a regular file\nfifo.py: skipped, not a regular file\n')


@pytest.mark.parametrize('deep', TOO_DEEP, ids=['sum', 'lambdas', 'minus'])
def test_fix_leaves_a_source_nested_too_deep_alone_in_one_line(tmp_path, deep):
    """fix said so for the parser's RecursionError; its MemoryError (nested lambdas, unary minus)
    gave 'left alone: MemoryError: ' in fix and went up through api.fix (the server's fix-all)."""
    source = f'x = "\\d"\n{deep}\n'
    write(tmp_path, {'deep.py': source})
    code, out, err = escapes(tmp_path, 'fix', '--diff', 'deep.py')
    assert (code, out[:5], err) in (
        (2, [], 'deep.py: left alone: nested too deeply for this Python to check\n'),
        (1, ['--- a/deep.py', '+++ b/deep.py', '@@ -1,2 +1,2 @@', '-x = "\\d"', '+x = r"\\d"'], ''))  # 3.10
    from flake8_escapes import api
    assert api.fix(source).text in (source, source.replace('"\\d"', 'r"\\d"', 1))


@pytest.mark.skipif(os.name != 'posix', reason="a POSIX shell's >&-")
@pytest.mark.parametrize('args, status', [
    ('check bad.py', 1), ('check --count --format=json bad.py', 1), ('check clean.py', 0),
    ('fix --diff bad.py', 1), ('explain ESC301', 0), ('check bad.py missing.py', 2),
])
@pytest.mark.parametrize('closed', ['>&-', '2>&-', '>&- 2>&-'])
def test_closed_standard_streams(tmp_path, args, status, closed):
    """Before: with standard output closed (`>&-`: Python's sys.stdout is None) flake8's formatter
    raised at its start ('NoneType' object has no attribute 'isatty'): a traceback and exit 1,
    whatever the files held.  Now what would go there goes nowhere, as after a closed pipe, and
    the exit status is the run's.  With standard error closed, its lines went to standard output
    (``print(file=None)``), into the reports (the count inside the JSON's output): now nowhere."""
    write(tmp_path, {'bad.py': BAD, 'clean.py': CLEAN})

    def run(redirect):
        return subprocess.run(f'"{sys.executable}" -m flake8_escapes {args} {redirect}', shell=True,
                              cwd=tmp_path, capture_output=True, text=True, timeout=300)
    proc = run(closed)
    assert 'Traceback' not in proc.stderr
    assert proc.returncode == status
    if closed == '2>&-':
        assert proc.stdout == run('').stdout
    assert (tmp_path / 'bad.py').read_text() == BAD


@pytest.mark.skipif(os.name != 'posix', reason='POSIX signals and process groups')
@pytest.mark.parametrize('command', ['fix', 'check'])
@pytest.mark.parametrize('how, status', [('ctrl-c', 130), ('sigterm', 143)])
def test_an_interrupted_run_ends_in_one_line_and_leaves_each_file_whole(tmp_path, command, how, status):
    """Before: Ctrl-C (SIGINT to the terminal's process group) printed the main process's
    KeyboardInterrupt traceback and each worker's; SIGTERM killed the main process at once (-15)
    and its workers printed BrokenPipeError tracebacks; and a worker stopped while it made its
    temporary file left '.NAME.XXXX.flake8-escapes' beside the file (about 1 run in 3 over 3,000
    files).  Now one line ('interrupted'; 130) or none (SIGTERM: 143), each file whole (fixed or
    as it was) and no temporary file left: a signal waits while a file is fixed."""
    original = 'x = "\\d"\ny = "\\w"\n'
    folder = tmp_path / 't'
    folder.mkdir()
    for number in range(800):
        (folder / f'f{number}.py').write_text(original)
    proc = subprocess.Popen([sys.executable, '-m', 'flake8_escapes', command, '--jobs=2', 't'], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline()  # under way
        if how == 'ctrl-c':
            os.killpg(proc.pid, signal.SIGINT)
        else:
            os.kill(proc.pid, signal.SIGTERM)
        _, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert 'Traceback' not in err
    assert (proc.returncode, err) in (
        (status, f'flake8-escapes {command}: interrupted\n' if how == 'ctrl-c' else ''),
        (1, ''))  # done before the signal came (a fast machine)
    assert sorted(path.name for path in folder.iterdir()) == sorted(f'f{number}.py' for number in range(800))
    assert {path.read_text() for path in folder.iterdir()} <= {original, original.replace('"\\', 'r"\\')}


@pytest.mark.skipif(os.name != 'posix', reason='POSIX signals')
def test_a_worker_ends_at_the_pools_sigterm_at_once():
    """The main process handles SIGTERM (as Ctrl-C); a worker inherits that handler by fork, and
    the pool's own SIGTERM at the end of every run then raised SystemExit wherever the worker
    waited: `check --jobs 2` hung for ever about once in 40 runs.  Each worker's initializer puts
    the default back (fix's keeps a file's SIGTERM deferred until it is written)."""
    code = ('import signal; from flake8_escapes import cli; from flake8_escapes.commands import check, fix\n'
            'signal.signal(signal.SIGTERM, cli._terminated); check._settings = object(); check._init([])\n'
            'print(signal.getsignal(signal.SIGTERM) is signal.SIG_DFL)\n'
            'signal.signal(signal.SIGTERM, cli._terminated); fix._worker_started()\n'
            'print(signal.getsignal(signal.SIGTERM) is signal.SIG_DFL)\n')
    proc = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, timeout=120)
    assert (proc.stdout, proc.stderr) == ('True\nTrue\n', '')
