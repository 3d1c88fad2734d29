"""``flake8-escapes fix`` never makes a file worse (issue 13): each file is
either exactly as it was or correctly fixed.

Expected files are written by hand from the source text; what flake8 and
CPython say is asked of flake8 and CPython themselves.
"""
from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import warnings

import pytest

from flake8_escapes import cli, fix

SAFE = set(fix.SAFE)
ALL = set(fix.SAFE + fix.UNSAFE)


def run(cwd, *args, env=None, timeout=120):
    proc = subprocess.run([sys.executable, '-m', 'flake8_escapes', *args], cwd=cwd, capture_output=True,
                          timeout=timeout, env={**os.environ, **(env or {})})
    return proc.returncode, proc.stdout.decode('utf-8', 'replace'), proc.stderr.decode('utf-8', 'replace')


def fixed(data: bytes, codes=SAFE) -> bytes:
    return fix.fix_bytes(data, codes).data


# 2. Only the fixed literals' bytes change. ----------------------------------

def test_bytes_that_do_not_round_trip_stay_as_they_were():
    """cp932 reads 87 90 as U+2252, which it writes back as 81 e0: a comment
    holding it must keep its bytes."""
    data = b'# coding: cp932\r\n# \x87\x90 \x95\x5c\r\nx = "\x87\x90\\d"\r\n'
    assert b'\x87\x90'.decode('cp932').encode('cp932') == b'\x81\xe0'  # the trap is real
    assert fixed(data) == b'# coding: cp932\r\n# \x87\x90 \x95\x5c\r\nx = r"\x87\x90\\d"\r\n'


def test_a_backslash_after_a_wide_character_is_found_by_characters():
    """Shift-JIS's 95 5c is one character (a 5c byte that is no backslash); the
    fix lands on the real backslash after it, counted in characters."""
    data = '# coding: cp932\nx = "\u8868\\d\\n"\n'.encode('cp932')
    assert data.count(b'\\') == 3
    assert fixed(data) == '# coding: cp932\nx = "\u8868\\\\d\\n"\n'.encode('cp932')


@pytest.mark.parametrize('cookie, says', [
    ('iso2022_jp', 'stateful'),
    ('utf-7', 'stateful'),
    ('hz', 'stateful'),
    ('iso2022_kr', 'stateful'),
    ('unicode_escape', 'not ASCII-compatible'),
    ('raw_unicode_escape', 'not ASCII-compatible'),
    ('idna', 'not ASCII-compatible'),
    ('utf-16', 'not ASCII-compatible'),
    ('shift_jis_2004', 'not ASCII-compatible'),  # 5c is the yen sign there
    ('rot13', 'not a text encoding'),
])
def test_codecs_that_cannot_be_spliced_are_refused(tmp_path, cookie, says):
    path = tmp_path / 'a.py'
    data = f'# coding: {cookie}\nx = "\\d{"a" * 70}"\n'.encode('ascii')
    path.write_bytes(data)
    (tmp_path / 'b.py').write_bytes(b'x = "\\d"\n')
    code, out, err = run(tmp_path, 'fix', '--unsafe', 'a.py', 'b.py')
    assert (code, out) == (2, 'b.py: fixed ESC301\n')
    assert path.read_bytes() == data
    assert err.count('\n') == 1
    if sys.version_info >= (3, 14) and cookie in ('utf-16', 'rot13'):  # the compiler refuses them too
        assert err.startswith(('a.py: cannot read: invalid or missing encoding', "a.py: left alone: 'rot13'"))
    else:
        assert err.startswith(f'a.py: left alone: {cookie!r} ') and says in err


def test_refusals_and_the_other_files(tmp_path):
    """An unknown codec is one line, exit 2, and the next file is still fixed."""
    (tmp_path / 'a.py').write_bytes(b'# coding: nosuch\nx = "\\d"\n')
    (tmp_path / 'b.py').write_bytes(b'x = "\\d"\n')
    code, out, err = run(tmp_path, 'fix', 'a.py', 'b.py')
    assert (code, out) == (2, 'b.py: fixed ESC301\n')
    assert err.count('\n') == 1 and err.startswith('a.py: cannot read: unknown encoding')
    assert (tmp_path / 'a.py').read_bytes() == b'# coding: nosuch\nx = "\\d"\n'
    assert (tmp_path / 'b.py').read_bytes() == b'x = r"\\d"\n'


@pytest.mark.parametrize('encoding', ['latin-1', 'cp1252', 'utf-8', 'gbk', 'big5', 'euc_jp'])
def test_ascii_compatible_codecs_are_spliced(encoding):
    wide = '\u00e9' if encoding in ('latin-1', 'cp1252', 'utf-8') else '\u4e2d'
    text = f'# coding: {encoding}\n# {wide}\n'
    data = (text + 'x = "\\d"\n').encode(encoding)
    assert fix.splice_problem(encoding) is None
    assert fixed(data) == (text + 'x = r"\\d"\n').encode(encoding)


# 3. A fix is made only when the result parses. ------------------------------

@pytest.mark.parametrize('before, after, codes', [
    # a keyword or name just before the literal: r would join it
    ("open(x or'C:\\temp\\new.txt')\n", "open(x or r'C:\\temp\\new.txt')\n", ALL),
    ("y = a if z else'\\d'\n", "y = a if z else r'\\d'\n", SAFE),
    ("y = a if z else b'\\d'\n", "y = a if z else rb'\\d'\n", SAFE),
    ("y = [c for c in'\\d']\n", "y = [c for c in r'\\d']\n", SAFE),
    ("y = not'\\d'\n", "y = not r'\\d'\n", SAFE),
    # nothing to pad after an operator or a bracket
    ("y = ('\\d')+'\\d'\n", "y = (r'\\d')+r'\\d'\n", SAFE),
])
def test_r_is_padded_after_a_name(before, after, codes):
    result = fix.fix_text(before, codes)
    assert result.text == after and not result.left_alone


def test_a_literal_whose_fix_does_not_parse_is_left_alone(monkeypatch):
    """Were a plan to make a fix that does not parse, the fix is not made."""
    monkeypatch.setattr(fix.plan, '_joins_name', lambda char: False)  # the bug of issue 13: 'orr'
    result = fix.fix_text("x = y or'\\d'\nz = '\\d'\n", SAFE)
    assert result.text == "x = y or'\\d'\nz = r'\\d'\n"
    assert [item[:3] for item in result.left_alone] == [(1, 9, 'ESC301')]
    assert result.left_alone[0].reason == fix.NOT_PARSED


def test_a_safe_fix_that_changes_a_value_is_left_alone(monkeypatch):
    """The value of each edited literal is compared, before and after."""
    monkeypatch.setattr(fix.plan, '_can_be_raw', lambda piece, fixing, codes: piece.spans[0][0] > 0)
    result = fix.fix_text('x = "\\d\\n"\ny = "\\d"\n', SAFE)
    assert result.text == 'x = "\\d\\n"\ny = r"\\d"\n'
    assert result.left_alone == [(1, 5, 'ESC301', 'its fix would change the value of the literal')]


# 4. Unsafe regex fixes must compile, with valid group references. -----------

@pytest.mark.parametrize('before, after', [
    # no group 1 in the pattern: r'\1' would raise re.error at run time
    ("import re\nre.sub(r'\\}', '\\1', s)\n", None),
    ("import re\nre.sub(r'\\}', repl='\\1', string=s, pattern='x')\n", None),
    # a reference to a group not yet closed
    ("import re\nre.compile('\\1\\2(x)')\n", None),
    # the pattern has the group: fixed
    ("import re\nre.sub(r'(\\w+)', '<\\1>', s)\n", "import re\nre.sub(r'(\\w+)', r'<\\1>', s)\n"),
    ("import re\nre.search('(a)\\1', s)\n", "import re\nre.search(r'(a)\\1', s)\n"),
    # ESC402: r'\bx\q' would be a bad escape to re
    ("import re\nre.search('\\bx\\q', s)\n", "import re\nre.search('\\bx\\\\q', s)\n"),
    ("import re\nre.search('\\bx\\.', s)\n", "import re\nre.search(r'\\bx\\.', s)\n"),
    # a compiled pattern's method: the pattern is not known here, the template is well formed
    ("import re\np = re.compile(a)\np.sub('\\1', s)\n", "import re\np = re.compile(a)\np.sub(r'\\1', s)\n"),
])
def test_unsafe_regex_fixes_compile(before, after):
    result = fix.fix_text(before, ALL)
    assert result.text == (after or before)
    if after is None or '\\\\q' in after:  # the safe part of a refused literal is still fixed
        assert result.left_alone and all(item.code == 'ESC401' or item.code == 'ESC402'
                                         for item in result.left_alone)
        assert 'compile' in result.left_alone[0].reason or 'not valid' in result.left_alone[0].reason
    else:
        assert not result.left_alone


def test_a_pattern_re_refuses_is_left_alone_where_only_the_regex_package_would_take_it(monkeypatch):
    """The ``regex`` package takes a reference to a group not yet closed, which ``re`` refuses: its
    verdict counts only in a module that imports it (the pollution of an environment with
    ``regex`` installed made the fix of ``re.compile('\\1\\2(x)')`` raise at run time)."""
    import types
    monkeypatch.setitem(sys.modules, 'regex', types.SimpleNamespace(compile=lambda value: None))
    before = "import re\nre.compile('\\1\\2(x)')\n"
    assert fix.fix_text(before, ALL).text == before
    assert fix.fix_text(before.replace('import re', 'import re, regex'), ALL).text != \
        before.replace('import re', 'import re, regex')


def test_the_regex_check_can_fail():
    """What the fixer refuses, re refuses too (asked of re, not of our code)."""
    import re
    with pytest.raises(re.error, match='invalid group reference'):
        re.sub(r'\}', r'\1', '}')
    with pytest.raises(re.error):
        re.compile(r'\1\2(x)')


# 5. noqa, as flake8 reads it. ------------------------------------------------

NOQA_CASES = {
    # name: (source, fixed by --unsafe when flake8 reports it)
    'bare': "import re\nre.compile('(a)\\1')  # noqa\n",
    'code': "import re\nre.compile('(a)\\1')  # noqa: ESC401\n",
    'nospace': "import re\nre.compile('(a)\\1')  # noqa:ESC401\n",
    'prefix': "import re\nre.compile('(a)\\1')  # NOQA: ESC4\n",
    'list': "import re\nre.compile('(a)\\1')  # noqa: E501,ESC401\n",
    'other': "import re\nre.compile('(a)\\1')  # noqa: E501\n",
    'lower': "import re\nre.compile('(a)\\1')  # noqa:esc401\n",
    'safe': "x = '\\d'  # noqa: ESC301\ny = '\\d'  # noqa: ESC401\n",
    'multiline': "x = '''\n\\d\n'''  # noqa: ESC301\ny = '''\n\\d\n'''\n",
    'continued': "x = ('\\d'\n     '\\q')  # noqa\n",
    'file': "# flake8: noqa\nx = '\\d'\n",
    'in-string': "x = '# noqa \\d'\n",
}


def flake8_lines(folder) -> dict[str, set[int]]:
    proc = subprocess.run([sys.executable, '-m', 'flake8', '--select', 'ESC', '--format',
                           '%(path)s %(row)d', '.'], cwd=folder, capture_output=True, text=True, timeout=120)
    found: dict[str, set[int]] = {}
    for line in proc.stdout.splitlines():
        path, row = line.rsplit(' ', 1)
        found.setdefault(os.path.splitext(os.path.basename(path))[0], set()).add(int(row))
    return found


def test_noqa_as_flake8_reads_it(tmp_path):
    """A line is changed exactly when flake8 reports something on it."""
    for name, source in NOQA_CASES.items():
        (tmp_path / f'{name}.py').write_text(source)
    reported = flake8_lines(tmp_path)
    assert reported.get('bare') is None and reported['other'] == {2}  # flake8 did run
    for name, source in NOQA_CASES.items():
        after = fix.fix_text(source, ALL).text
        changed = {number for number, (a, b) in enumerate(
            zip(source.splitlines(), after.splitlines()), 1) if a != b}
        # a multi-line string is reported on the line of its escape, fixed where it starts
        starts = {number - 1 if source.splitlines()[number - 2].endswith("'''") else number
                  for number in reported.get(name, set())}
        assert changed == starts, name


def test_noqa_cases_by_hand():
    assert fix.fix_text(NOQA_CASES['safe'], SAFE).text == (
        "x = '\\d'  # noqa: ESC301\ny = r'\\d'  # noqa: ESC401\n")
    assert fix.fix_text(NOQA_CASES['multiline'], SAFE).text == (
        "x = '''\n\\d\n'''  # noqa: ESC301\ny = r'''\n\\d\n'''\n")
    assert fix.fix_text(NOQA_CASES['lower'], ALL).text == "import re\nre.compile(r'(a)\\1')  # noqa:esc401\n"


# 6. Lone CR line ends. ---------------------------------------------------------

@pytest.mark.parametrize('before, after, codes', [
    ("x = 'f(\\\rb'\ry = '\\d'\r", "x = 'f(\\\rb'\ry = r'\\d'\r", SAFE),
    ('s = """a\rb\\qc"""\rz = 1\r', 's = r"""a\rb\\qc"""\rz = 1\r', SAFE),
    ('s = """a\rb\\qc\\n"""\rz = "\\d"\r', 's = """a\rb\\\\qc\\n"""\rz = r"\\d"\r', SAFE),
    ('import re\rs = """(a)\r\\1"""\rre.sub(x, s, y)\r',
     'import re\rs = r"""(a)\r\\1"""\rre.sub(x, s, y)\r', ALL),
    ('a = 1\r\nb = "\\d"\rc = "\\d"\n', 'a = 1\r\nb = r"\\d"\rc = r"\\d"\n', SAFE),
])
def test_lone_cr_line_ends(before, after, codes):
    result = fix.fix_text(before, codes)
    assert result.text == after
    assert fixed(before.encode(), codes) == after.encode()


def test_checker_positions_on_lone_cr_files(tmp_path):
    """flake8's lines on a lone-CR file are CPython's: the line of each
    report is the line of CPython's warning (asked of CPython)."""
    source = "a = 1\rb = '\\d'\rc = 2\r\rd = '\\q'\r"
    (tmp_path / 'cr.py').write_bytes(source.encode())
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        compile(source.encode(), 'cr.py', 'exec')
    cpython = sorted(w.lineno for w in caught)
    assert cpython == [2, 5]
    proc = subprocess.run([sys.executable, '-m', 'flake8', '--select', 'ESC', 'cr.py'], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert proc.stdout.splitlines() == [
        "cr.py:2:6: ESC301 invalid escape sequence '\\d'; write '\\\\d' or use a raw string",
        "cr.py:5:6: ESC301 invalid escape sequence '\\q'; write '\\\\q' or use a raw string",
    ]


# 7. Crashes that stopped the run. -----------------------------------------------

def test_a_long_chain_of_literals(tmp_path):
    source = 'x = ' + ' + '.join(['"a\\d"'] * 400) + '\n'
    (tmp_path / 'chain.py').write_text(source)
    code, out, err = run(tmp_path, 'fix', 'chain.py')
    assert 'Traceback' not in err
    if code == 1:
        assert (tmp_path / 'chain.py').read_text() == source.replace('"a', 'r"a')
    else:  # a Python whose compiler cannot take it: one line, exit 2, file as it was
        assert code == 2 and err.count('\n') == 1
        assert (tmp_path / 'chain.py').read_text() == source


@pytest.mark.skipif(sys.platform == 'win32' or sys.platform == 'darwin',
                    reason='the file system must take any bytes as a name')
def test_a_file_name_that_is_not_utf8(tmp_path):
    name = b'caf\xe9.py'
    with open(os.path.join(os.fsencode(tmp_path), name), 'wb') as f:
        f.write(b'x = "\\d"\n')
    (tmp_path / 'broken.py').write_text('x = "\\d"\ndef (:\n')
    code, out, err = run(tmp_path, 'fix', '.', env={'PYTHONIOENCODING': 'utf-8'})
    assert code == 1 and 'Traceback' not in err
    assert out == './caf\\xe9.py: fixed ESC301\n'
    with open(os.path.join(os.fsencode(tmp_path), name), 'rb') as f:
        assert f.read() == b'x = r"\\d"\n'


def test_not_a_regular_file_is_skipped(tmp_path):
    if not hasattr(os, 'mkfifo'):
        pytest.skip('no FIFOs here')
    os.mkfifo(tmp_path / 'x.py')
    (tmp_path / 'y.py').write_text('x = "\\d"\n')
    code, out, err = run(tmp_path, 'fix', '.', 'x.py', timeout=30)
    assert (code, out) == (1, './y.py: fixed ESC301\n')
    # the walk passes over it as flake8's does; named on the command line, it is said
    assert err == 'x.py: skipped, not a regular file\n'


def test_a_folder_without_python_files(tmp_path):
    (tmp_path / 'empty').mkdir()
    (tmp_path / 'docs').mkdir()
    (tmp_path / 'docs' / 'a.txt').write_text('x = "\\d"\n')
    assert run(tmp_path, 'fix', 'empty', 'docs') == (
        0, '', 'empty: no Python file found\ndocs: no Python file found\n')


# 1. Writing: atomic, mode bits kept, symlinks, failures. -------------------------

def test_mode_bits_and_symlinks_are_kept(tmp_path):
    target = tmp_path / 'real.py'
    target.write_text('x = "\\d"\n')
    os.chmod(target, 0o751)
    (tmp_path / 'link.py').symlink_to('real.py')
    assert cli.main(['fix', str(tmp_path / 'link.py')]) == 1
    assert (tmp_path / 'link.py').is_symlink()
    assert target.read_text() == 'x = r"\\d"\n'
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o751
    assert sorted(os.listdir(tmp_path)) == ['link.py', 'real.py']  # no temporary file left


def test_the_same_file_twice_is_fixed_once(tmp_path, capsysbinary):
    (tmp_path / 'a.py').write_text('x = "\\d"\n')
    os.chdir(tmp_path)
    assert cli.main(['fix', '--diff', 'a.py', './a.py', '.']) == 1
    assert capsysbinary.readouterr().out.count(b'--- ') == 1


def test_unsafe_reports_left_after_a_safe_run(tmp_path):
    (tmp_path / 'r.py').write_text(
        'import re\nre.sub("(a)", "\\1", s)\nx = "\\d"\nopen("C:\\temp\\new.txt")\n')
    code, out, err = run(tmp_path, 'fix', 'r.py')
    assert (code, out) == (1, 'r.py: fixed ESC301\n')
    assert err == ('3 reports left that only --unsafe can fix (ESC401, ESC501 x2): '
                   'check them with --unsafe --diff\n')
    assert run(tmp_path, 'fix', '--unsafe', 'r.py')[:2] == (1, 'r.py: fixed ESC401, ESC501 x2\n')


def test_help_lists_the_exit_statuses(tmp_path):
    code, out, _ = run(tmp_path, 'fix', '--help')
    assert code == 0
    for status in ('\n  0  nothing changed', '\n  1  files were changed', '\n  2  bad usage'):
        assert status in out


# 8. --diff that patch and git apply take. -----------------------------------------

DIFF_CASES = {
    'no-final-newline.py': b'x = "\\d"',
    'form-feed.py': b'\x0cx = "\\d"\ny = 1\n',
    'separators.py': b'x = 1  # \x1c\x1d\x1e\ny = "\\d"\n',
    'latin1.py': b'# coding: latin-1\n# \x85 \xe9\nx = "\\d"\n',
    'utf8-separators.py': '# \u2028 \u2029 \x85\nx = "\\d"\n'.encode(),
    'lone-cr.py': b'a = 1\rx = "\\d"\rb = 2\r',
    'crlf.py': b'a = 1\r\nx = "\\d"\r\n',
    'mixed.py': b'a = 1\r\nx = "\\d"\ry = "\\d"\n',
}


@pytest.mark.skipif(not shutil.which('git') or not shutil.which('patch'), reason='needs git and patch')
def test_diffs_apply_with_git_and_patch(tmp_path):
    for name, data in DIFF_CASES.items():
        (tmp_path / name).write_bytes(data)
    subprocess.run(['git', 'init', '-q', '.'], cwd=tmp_path, check=True)
    proc = subprocess.run([sys.executable, '-m', 'flake8_escapes', 'fix', '--diff', *DIFF_CASES, 'crlf.py'],
                          cwd=tmp_path, capture_output=True, timeout=120)
    assert proc.returncode == 1 and proc.stderr == b''
    diff = proc.stdout
    assert diff.count(b'\n--- ') + diff.startswith(b'--- ') == len(DIFF_CASES)  # crlf.py once
    assert b'\\ No newline at end of file\n' in diff
    assert b'\x85 \xe9' in diff  # the latin-1 file's own bytes
    (tmp_path / 'fix.diff').write_bytes(diff)
    subprocess.run(['git', 'apply', '--check', 'fix.diff'], cwd=tmp_path, check=True, capture_output=True)
    subprocess.run(['patch', '-p1', '--dry-run', '-i', 'fix.diff'], cwd=tmp_path, check=True,
                   capture_output=True)
    subprocess.run(['patch', '-p1', '-s', '-i', 'fix.diff'], cwd=tmp_path, check=True)
    patched = {name: (tmp_path / name).read_bytes() for name in DIFF_CASES}
    for name, data in DIFF_CASES.items():  # patch wrote what fix would have written
        assert patched[name] == fixed(data), name
    assert patched['lone-cr.py'] == b'a = 1\rx = r"\\d"\rb = 2\r'
    assert patched['no-final-newline.py'] == b'x = r"\\d"'
    assert patched['separators.py'] == b'x = 1  # \x1c\x1d\x1e\ny = r"\\d"\n'
    assert patched['utf8-separators.py'] == '# \u2028 \u2029 \x85\nx = r"\\d"\n'.encode()
    assert patched['latin1.py'] == b'# coding: latin-1\n# \x85 \xe9\nx = r"\\d"\n'


def test_a_device_is_skipped(capsys):
    if not os.path.exists('/dev/zero'):
        pytest.skip('no /dev/zero')
    assert cli.main(['fix', '/dev/zero']) == 0
    assert capsys.readouterr().err == '/dev/zero: skipped, not a regular file\n'


# 9. One run reaches the fixed point. ------------------------------------------------

def test_a_fix_that_exposes_another_is_done_in_the_same_run(tmp_path):
    """Doubling \\7 leaves the \\b without the control character that made it a
    backspace on purpose: it is then an ESC402, fixed in the same run."""
    source = 'import re\nre.search("(a)(b)(c)(d)(e)(f)(g)\\7\\bword\\n", s)\n'
    (tmp_path / 'r.py').write_text(source)
    assert run(tmp_path, 'fix', '--unsafe', 'r.py')[:2] == (1, 'r.py: fixed ESC401, ESC402\n')
    assert (tmp_path / 'r.py').read_text() == source.replace('\\7\\b', '\\\\7\\\\b')
    assert run(tmp_path, 'fix', '--unsafe', 'r.py') == (0, '', '')


def test_rounds_are_bounded(monkeypatch):
    monkeypatch.setattr(fix, 'ROUNDS', 1)
    source = 'import re\nre.search("(a)(b)(c)(d)(e)(f)(g)\\7\\bword\\n", s)\n'
    assert fix.fix_text(source, ALL).text == source.replace('\\7', '\\\\7')  # the second fix needs a round


@pytest.mark.parametrize('before, after', [
    # bytes: the template is checked against a bytes pattern
    ("import re\nre.sub(rb'\\}', b'\\1', s)\n", None),
    ("import re\nre.sub(rb'(a)', b'<\\1>', s)\n", "import re\nre.sub(rb'(a)', rb'<\\1>', s)\n"),
    # a name bound to the replacement: its pattern is not known, the template is well formed
    ("import re\nsubst = '\\1'\nre.sub(p, subst, s)\n", "import re\nsubst = r'\\1'\nre.sub(p, subst, s)\n"),
])
def test_unsafe_regex_fixes_of_bytes_and_names(before, after):
    assert fix.fix_text(before, ALL).text == (after or before)


def test_a_coding_cookie_on_a_lone_cr_line():
    """The compiler reads the cookie of a lone-CR file (tokenize's own
    readline would see one long first line, and fail on the latin-1 byte)."""
    data = b'# coding: latin-1\rx = "\xe9\\d"\r'
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        assert compile(data, 'cr.py', 'exec')  # CPython takes it
    assert fixed(data) == b'# coding: latin-1\rx = r"\xe9\\d"\r'
