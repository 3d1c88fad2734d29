"""End to end: the real flake8, in a subprocess, as users and editors run it."""
from __future__ import annotations

import subprocess
import sys

import pytest

import flake8_escapes

BAD = "import re\n\nPATTERN = re.compile('\\d+')\nRAW = r'\\d+'\nDATA = b'\\u00e9\\777'\n"
BAD_OUT = [
    "bad.py:3:23: ESC301 invalid escape sequence '\\d'; write '\\\\d' or use a raw string",
    "bad.py:5:10: ESC302 '\\u' is a str-only escape, invalid in bytes; write '\\\\u' or encode a str",
    "bad.py:5:16: ESC303 octal escape '\\777' is above '\\377'; write '\\xff', the value it has now",
]


def flake8(cwd, *args, stdin=None):
    """Run flake8; return (exit code, stdout lines)."""
    proc = subprocess.run(
        [sys.executable, '-m', 'flake8', *args], cwd=cwd, input=stdin,
        capture_output=True, text=True, timeout=300,
    )
    assert 'Traceback' not in proc.stderr, proc.stderr
    return proc.returncode, proc.stdout.splitlines()


@pytest.fixture
def project(tmp_path):
    (tmp_path / 'bad.py').write_text(BAD, encoding='utf-8')
    return tmp_path


def test_select(project):
    assert flake8(project, '--select=ESC', 'bad.py') == (1, BAD_OUT)


def test_on_by_default(project):
    code, out = flake8(project, 'bad.py')
    assert code == 1
    assert [line for line in out if ': ESC' in line] == BAD_OUT
    assert any(': W605 ' in line for line in out)  # pycodestyle reports the same escape


def test_extend_ignore(project):
    assert flake8(project, '--select=ESC', '--extend-ignore=ESC303', 'bad.py') == (1, BAD_OUT[:2])


def test_per_file_ignores(project):
    (project / 'setup.cfg').write_text('[flake8]\nselect = ESC\nper-file-ignores = bad.py: ESC301,ESC302\n')
    assert flake8(project, 'bad.py') == (1, BAD_OUT[2:])


def test_noqa_on_the_line(project):
    (project / 'bad.py').write_text("x = '\\d'  # noqa: ESC301\ny = '\\d'  # noqa: E501\n")
    assert flake8(project, '--select=ESC', 'bad.py') == (
        1, ["bad.py:2:6: ESC301 invalid escape sequence '\\d'; write '\\\\d' or use a raw string"])


def test_noqa_after_a_multiline_string(project):
    src = 'x = """\n  \\d\n  \\w\n"""  # noqa: ESC301\ny = """\n  \\q\n"""\n'
    (project / 'bad.py').write_text(src)
    assert flake8(project, '--select=ESC', 'bad.py') == (
        1, ["bad.py:6:3: ESC301 invalid escape sequence '\\q'; write '\\\\q' or use a raw string"])


def test_jobs_2_same_as_jobs_1(project):
    for number in range(6):
        (project / f'm{number}.py').write_text(BAD)
    serial = flake8(project, '--select=ESC', '--jobs=1', '.')
    parallel = flake8(project, '--select=ESC', '--jobs=2', '.')
    assert serial[0] == parallel[0] == 1
    assert sorted(serial[1]) == sorted(parallel[1])
    assert len(parallel[1]) == 7 * len(BAD_OUT)


def test_stdin_as_editors_run_it(project):
    code, out = flake8(project, '--select=ESC', '--stdin-display-name=bad.py', '-', stdin=BAD)
    assert (code, out) == (1, BAD_OUT)


def test_version_lists_the_plugin(project):
    code, out = flake8(project, '--version')
    assert code == 0
    assert f'flake8-escapes: {flake8_escapes.__version__}' in ' '.join(out)


@pytest.mark.parametrize('name, data, expected', [
    # CRLF: flake8 reads with universal newlines; a backslash before CRLF continues.
    ('crlf.py', b"x = '\\d'\r\ny = '''\r\n\\q'''\r\nz = 'a\\\r\nb'\r\n", ['1:6', '3:1']),
    ('bom.py', b"\xef\xbb\xbfx = '\\d'\n", ['1:6']),
    ('latin1.py', b"# -*- coding: latin-1 -*-\nx = '\xe9\\d'\n", ['2:7']),
    ('formfeed.py', b"\x0cx = '\\d'\n\x0c\ny = 1\n", ['1:7']),
    ('tabs.py', b"if True:\n\tx = '\\d'\n", ['2:7']),
    ('wide.py', "x = '\u4e2d\u6587\U0001F600\\d'\n".encode(), ['1:9']),
])
def test_odd_files(tmp_path, name, data, expected):
    (tmp_path / name).write_bytes(data)
    code, out = flake8(tmp_path, '--select=ESC', name)
    assert code == 1
    assert [line.split(': ')[0].split(':', 1)[1] for line in out] == expected


def test_syntax_error_is_flake8s_to_report(tmp_path):
    (tmp_path / 'broken.py').write_text("x = 'C:\\Users\\me'\ny = '\\d'\n")
    code, out = flake8(tmp_path, '--select=ESC,E999', 'broken.py')
    assert code == 1
    assert len(out) == 1 and ': E999 ' in out[0]


@pytest.mark.parametrize('jobs', ['--jobs=1', '--jobs=2'])
def test_no_compiler_warnings_on_stderr(project, jobs):
    """On 3.12+ CPython's own SyntaxWarning for each escape would reach stderr
    as flake8 parses the file ('<unknown>:3: SyntaxWarning: ...'): the plugin
    hides those, and only those, in every worker."""
    (project / 'other.py').write_text("y = b'\\q'\nz = '\\777'\n", encoding='utf-8')
    proc = subprocess.run(
        [sys.executable, '-m', 'flake8', '--select=ESC', jobs, 'bad.py', 'other.py'], cwd=project,
        capture_output=True, text=True, timeout=300,
    )
    assert proc.returncode == 1
    assert len(proc.stdout.splitlines()) == len(BAD_OUT) + 2
    assert proc.stderr == ''


@pytest.mark.parametrize('loaded', [False, True])
def test_only_escape_warnings_hidden(tmp_path, loaded):
    """The filter names escape warnings only: CPython's other SyntaxWarnings
    (here 'is' with a literal) still reach the user; without the plugin both
    would (the test can fail)."""
    code = ("import ast, warnings\n"
            "warnings.simplefilter('default')\n"
            f"{'import flake8_escapes.plugin' if loaded else ''}\n"
            "with warnings.catch_warnings(record=True) as seen:\n"
            "    compile(\"x = 1\\nif x is 'a':\\n    pass\\nv = '\\\\d'\\n\", '<unknown>', 'exec')\n"
            "print(sorted('escape' in str(w.message) for w in seen))\n")
    proc = subprocess.run([sys.executable, '-c', code], cwd=tmp_path, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == ('[False]' if loaded else '[False, True]')
