"""ESC304: escapes CPython refuses, so that the file does not compile.

``check`` reports them (and the other checks that need only the literals'
text) on a file that does not parse, ``fix --unsafe`` fixes them, and the
reports agree with CPython's own refusals (``differential.compare_refused``).
The real cases are in ``tests/data/refused``: each ``NAME.py`` as found in
public code, and ``NAME.fixed`` as ``fix --unsafe`` must leave it (written by hand).
"""
from __future__ import annotations

import io
import os
import subprocess
import sys
import warnings

import pytest
from hypothesis import HealthCheck, given, settings

import differential
from flake8_escapes import checks, fix, rules, source

PY = sys.version_info[:2]
REFUSED = os.path.join(os.path.dirname(__file__), 'data', 'refused')
CASES = sorted(name[:-3] for name in os.listdir(REFUSED) if name.endswith('.py'))
ALL = set(fix.SAFE + fix.UNSAFE)

#: The refused escapes of each real case (line:col, 1-based), found by reading it.
EXPECTED = {
    'file_header': {'6:18'},
    'firefox_profile': {'4:24'},
    'fstring_user_folder': {'5:14'},
    'new_folder': {'4:34'},
    'notebook_export': {'15:21', '15:40'},
    'os_stat_pictures': {'4:23'},
    'pasted_traceback': {'9:11', '11:11'},
    'pathlib_desktop': {'4:24'},
    'serial_bytes': {'5:14', '5:25'},
    'unet_weights': {'4:45'},
    'unicode_digits': {'4:15'},
    'winnotify_icon': {'4:53', '4:59'},  # 'C:\Users\username': \U, then \u
    'xampp_docroot': {'2:20'},
}


def text_reports(src: str) -> list[rules.Report]:
    lines = io.StringIO(src).readlines()
    tokens = source.unparsed_literals(lines)
    assert tokens is not None
    return list(checks.text_reports(tokens, lines))


def refused(src: str) -> set[str]:
    return {f'{r.line}:{r.col + 1}' for r in text_reports(src) if r.code == 'ESC304'}


def messages(src: str) -> list[str]:
    return [r.message for r in text_reports(src) if r.code == 'ESC304']


def read(name: str) -> str:
    with open(os.path.join(REFUSED, name), encoding='utf-8') as f:
        return f.read()


def compiles(src: str) -> bool:
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        try:
            compile(src, '<case>', 'exec')
        except (SyntaxError, UnicodeDecodeError):
            return False
    return True


def test_every_case_is_listed():
    assert sorted(EXPECTED) == CASES


@pytest.mark.parametrize('name', CASES)
def test_real_case_does_not_compile_and_is_found(name):
    src = read(name + '.py')
    assert not compiles(src)
    assert refused(src) == EXPECTED[name]


@pytest.mark.parametrize('name', CASES)
def test_real_case_is_fixed_and_compiles(name):
    result = fix.fix_bytes(read(name + '.py').encode(), ALL)
    assert result.data.decode() == read(name + '.fixed')
    assert result.fixed.count('ESC304') == len(EXPECTED[name])
    assert compiles(result.data.decode())
    assert fix.fix_bytes(result.data, ALL).data == result.data  # a second run changes nothing


@pytest.mark.parametrize('src, message', [
    ('path = "C:\\Users\\me\\new.txt"\n',
     'ESC304 \'\\U\' starts a unicode escape, but "C:\\Users\\me\\new.txt" is a Windows path: '
     'make it raw (r"C:\\Users\\me\\new.txt") or use forward slashes'),
    ("x = '\\x4'\n", "ESC304 '\\x4' needs two hex digits: write '\\x04', or '\\\\x4' for a backslash"),
    ("x = b'\\x4'\n", "ESC304 '\\x4' needs two hex digits: write '\\x04', or '\\\\x4' for a backslash"),
    ("x = '\\u12'\n", "ESC304 '\\u12' needs four hex digits: write '\\u0012', or '\\\\u12' for a backslash"),
    ("x = '\\U1F600'\n",
     "ESC304 '\\U1F600' needs eight hex digits: write '\\U0001F600', or '\\\\U1F600' for a backslash"),
    ("x = '\\x'\n", "ESC304 '\\x' needs two hex digits; write '\\\\x' for a backslash"),
    ("x = '\\U00110000'\n",
     "ESC304 '\\U00110000' is above '\\U0010ffff', the last code point; "
     "write '\\\\U00110000' for a backslash"),
    ("x = '\\N{NO SUCH NAME}'\n",
     "ESC304 '\\N{NO SUCH NAME}' names no Unicode character: check the name, "
     "or write '\\\\N{NO SUCH NAME}' for a backslash"),
    ("x = '\\N'\n",
     "ESC304 '\\N' needs a character name in braces ('\\N{BULLET}'); write '\\\\N' for a backslash"),
    # a long literal is not quoted whole
    ('x = "C:\\Users\\me\\AppData\\Roaming\\Mozilla\\Firefox\\Profiles\\default"\n',
     "ESC304 '\\U' starts a unicode escape, but this literal is a Windows path: "
     'make it raw (r"...") or use forward slashes'),
    ('x = f"C:\\Users\\{name}\\data.csv"\n',
     "ESC304 '\\U' starts a unicode escape, but this literal is a Windows path: "
     'make it raw (add r to its prefix) or use forward slashes'),
])
def test_message(src, message):
    assert messages(src) == [message]


@pytest.mark.parametrize('src, expected', [
    # every one in the file, where CPython names the first only
    ("a = '\\x4'\nb = ('\\u1' '\\N{NO SUCH}')\nc = b'\\x'\n", {'1:6', '2:7', '2:13', '3:7'}),
    # a name never holds a backslash: CPython reads on after '\N{'
    ("x = '\\N{\\x4}'\n", {'1:6', '1:9'}),
    # valid ones: none
    ("x = '\\x41\\u00e9\\U0010ffff\\N{bullet}\\N{BYTE ORDER MARK}'\ny = b'\\N{x}\\x41'\n", set()),
    # raw literals keep their backslashes
    ("x = r'C:\\Users'\ny = rb'\\x4'\n", set()),
    # the same after an escaped backslash: fine
    ("x = '\\\\x4\\\\Users'\n", set()),
    # a named sequence is not a character: CPython refuses it
    ("x = '\\N{LATIN CAPITAL LETTER A WITH MACRON AND GRAVE}'\n", {'1:6'}),
])
def test_where(src, expected):
    assert refused(src) == expected
    assert compiles(src) == (not expected)


def test_a_format_spec_refusal_does_not_stop_check(tmp_path):
    """3.12+ raise UnicodeDecodeError, not SyntaxError, for '\\x4' in a format spec."""
    (tmp_path / 'a.py').write_text("x = 1\ny = f'{x:\\x4}'\n", encoding='utf-8')
    code, out, err = run(tmp_path, 'check', '--select', 'ESC', 'a.py')
    assert out == ["a.py:2:10: ESC304 '\\x4' needs two hex digits: write '\\x04', or '\\\\x4' "
                   "for a backslash"]
    assert code == 1


def run(cwd, *args):
    proc = subprocess.run([sys.executable, '-m', 'flake8_escapes', *args], cwd=cwd,
                          capture_output=True, text=True, timeout=600)
    assert 'Traceback' not in proc.stderr, proc.stderr
    return proc.returncode, proc.stdout.splitlines(), proc.stderr.splitlines()


ISSUE = 'import re\n\npath = "C:\\Users\\me\\new.txt"\ndigits = re.findall(\'\\d+\', path)\n'


def test_check_reports_what_the_text_tells_on_a_file_that_does_not_parse(tmp_path):
    (tmp_path / 'a.py').write_text(ISSUE, encoding='utf-8')
    code, out, err = run(tmp_path, 'check', '--select', 'ESC', 'a.py')
    assert [line.split(' ')[:2] for line in out] == [
        ['a.py:3:11:', 'ESC304'], ['a.py:3:17:', 'ESC301'], ['a.py:3:20:', 'ESC501'],
        ['a.py:4:22:', 'ESC301']]
    assert code == 1
    # only its refused escape keeps it from parsing: checked whole (issue 39, test_refused_whole.py)
    assert err == ['a.py: does not parse (SyntaxError at line 3): only its escapes CPython refuses (ESC304); '
                   'every check ran']
    # without --select, flake8's E999 line too
    code, out, err = run(tmp_path, 'check', 'a.py')
    codes = [line.split(' ')[1] for line in out]  # E999's column is each Python's own
    assert codes.count('E999') == 1 and [code for code in codes if code != 'E999'] == [
        'ESC304', 'ESC301', 'ESC501', 'ESC301']


def test_check_on_a_file_that_does_not_parse_for_another_reason(tmp_path):
    """The literals are still read: the '\\d' is reported, and the line says why the rest is not."""
    (tmp_path / 'a.py').write_text("x = '\\d'\ndef f(:\n", encoding='utf-8')
    code, out, err = run(tmp_path, 'check', '--select', 'ESC', 'a.py')
    assert [line.split(' ')[1] for line in out] == ['ESC301']
    assert err == [f'a.py: does not parse (SyntaxError at line 2): checked {checks.TEXT_CHECKS} on its '
                   f'literals; skipped {checks.AST_CHECKS}, which need the AST']


def test_fix_diff_shows_it_and_needs_unsafe(tmp_path):
    path = tmp_path / 'a.py'
    path.write_text(ISSUE, encoding='utf-8')
    code, out, err = run(tmp_path, 'fix', '--diff', 'a.py')
    assert code == 0 and out == [] and 'skipped, does not parse' in err[0]
    code, out, err = run(tmp_path, 'fix', '--unsafe', '--diff', 'a.py')
    assert code == 1
    assert '+path = r"C:\\Users\\me\\new.txt"' in out
    assert "+digits = re.findall(r'\\d+', path)" in out
    assert path.read_text(encoding='utf-8') == ISSUE
    code, out, err = run(tmp_path, 'fix', '--unsafe', 'a.py')
    # the raw path fixes its '\\m' and '\\n' too; the pattern is fixed in the next round
    assert code == 1 and out == ['a.py: fixed ESC301 x2, ESC304, ESC501']
    assert compiles(path.read_text(encoding='utf-8'))


@pytest.mark.parametrize('src, after', [
    # raw where every other escape keeps its meaning in a raw literal
    ("x = '\\x4\\d'\n", "x = r'\\x4\\d'\n"),
    # else the bad backslash is doubled
    ("x = '\\x4\\n'\n", "x = '\\\\x4\\n'\n"),
    ("x = b'\\x4\\x41'\n", "x = b'\\\\x4\\x41'\n"),
    ("x = u'\\x4'\n", "x = u'\\\\x4'\n"),
    # f-strings are doubled; the fields stay as they are
    ("x = 1\ny = f'\\x4{x!r}\\N{NO SUCH}'\n", "x = 1\ny = f'\\\\x4{x!r}\\\\N{{NO SUCH}}'\n"),
    # a Windows path becomes raw, its '\\n' with it
    ('x = "C:\\Users\\new"\n', 'x = r"C:\\Users\\new"\n'),
    # a name before the literal: padded
    ("x = 1 if y else'\\x4'\n", "x = 1 if y else r'\\x4'\n"),
])
def test_fix(src, after):
    assert fix.fix_text(src, ALL).text == after


def test_fix_honours_noqa():
    src = "x = '\\x4'  # noqa: ESC304\n"
    with pytest.raises(SyntaxError):
        fix.fix_text(src, ALL)


@pytest.mark.parametrize('src', [
    "x = '\\x4'\ndef f(:\n",
    # a format spec has no doubled braces: its '\\N{...}' cannot be written as text
    "x = 1\ny = f'{x:\\N{NO SUCH}}'\n",
])
def test_fix_leaves_a_file_that_would_still_not_parse(src):
    with pytest.raises((SyntaxError, UnicodeDecodeError)):
        fix.fix_text(src, ALL)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(differential.refused_source())
def test_generated_literals_agree_with_cpython(src):
    tally = differential.compare_refused_source(src)
    assert tally.disagreements == []


def test_harness_catches_a_missed_refusal():
    tally = differential.Tally()
    differential.compare_refused("'\\x4\\u1'", [(1, 'x')], tally, 'x')
    assert [d[1] for d in tally.disagreements] == ['cpython-only-refusal']


def test_harness_catches_an_extra_refusal():
    tally = differential.Tally()
    differential.compare_refused("'\\x41'", [(1, 'x')], tally, 'x')
    assert [d[1] for d in tally.disagreements] == ['ours-only-refusal']


def test_harness_catches_a_misplaced_refusal():
    tally = differential.Tally()
    differential.compare_refused("'\\d\\x4'", [(1, 'x')], tally, 'x')
    assert [d[1] for d in tally.disagreements] == ['other-place']
