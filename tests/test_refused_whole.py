"""ESC304 (escapes CPython refuses) beyond the literal: issues 39 and 40.

- A literal that CPython refuses for a ``\\U`` above U+10FFFF never crashes a
  command, whatever else its text holds (issue 40, item 1), and generated
  literals with refused escapes of every kind in paths, regexes, TeX, docstrings,
  f-strings and bytes never make ``check``, ``api.lint`` or ``fix`` raise.
- ESC304's fix keeps a deliberate ``\\\\`` (issue 40, item 2): the refused
  backslashes are doubled, not the literal made raw.
- A file that does not parse only because of refused escapes is checked whole
  (issue 39, item 2).
- ``fix`` names the real reason a file it cannot make parse is left alone (issue 39, item 4).

Expected values come from CPython: the fixed text is compiled and its literals'
values read with ``ast.literal_eval``.
"""
from __future__ import annotations

import ast
import io
import re
import subprocess
import sys
import tokenize
import warnings

import pytest
from hypothesis import HealthCheck, example, given, settings, strategies as st

import differential
from flake8_escapes import api, checks, fix, source

ALL = set(fix.SAFE + fix.UNSAFE)


def compiles(src: str) -> bool:
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        try:
            compile(src, '<case>', 'exec', dont_inherit=True)
        except (SyntaxError, ValueError):  # UnicodeDecodeError (3.12+, a format spec) is a ValueError
            return False
    return True


def values(src: str) -> list[object]:
    """The value of each ``name = literal`` line of ``src``, as CPython reads it."""
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        return [ast.literal_eval(line.split(' = ', 1)[1]) for line in src.splitlines() if ' = ' in line]


def run(cwd, *args):
    proc = subprocess.run([sys.executable, '-m', 'flake8_escapes', *args], cwd=cwd,
                          capture_output=True, text=True, timeout=600)
    assert 'Traceback' not in proc.stderr, proc.stderr
    return proc.returncode, proc.stdout.splitlines(), proc.stderr.splitlines()


# Issue 40, item 1: a path by its text with a \U above U+10FFFF.

CRASH = 'p = "C:\\\\temp\\U0011ffff"\n'


def test_the_crash_source_does_not_compile():
    assert not compiles(CRASH)


def test_check_reports_it_and_the_other_files(tmp_path):
    (tmp_path / 'crash.py').write_text(CRASH, encoding='utf-8')
    (tmp_path / 'good.py').write_text('x = "\\d"\n', encoding='utf-8')
    code, out, err = run(tmp_path, 'check', '--select', 'ESC', 'crash.py', 'good.py')
    assert [line.split(' ')[:2] for line in out] == [['crash.py:1:14:', 'ESC304'], ['good.py:1:6:', 'ESC301']]
    assert code == 1


def test_lint_reports_it():
    assert [(item.code, item.line, item.column, item.escape) for item in api.lint(CRASH)] == [
        ('ESC304', 1, 13, '\\U0011ffff')]


def test_fix_repairs_it_to_the_path_meant(tmp_path):
    path = tmp_path / 'crash.py'
    path.write_text(CRASH, encoding='utf-8')
    code, out, err = run(tmp_path, 'fix', '--unsafe', 'crash.py')
    fixed = path.read_text(encoding='utf-8')
    assert code == 1 and out == ['crash.py: fixed ESC304']
    assert compiles(fixed)
    assert values(fixed) == ['C:\\temp\\U0011ffff']  # the path as written, its '\\' one backslash


# Issue 40, item 2: a literal that holds a deliberate '\\' is repaired by doubling.

@pytest.mark.parametrize('src, meant', [
    ('p = "\\\\\\\\fileserver\\share\\Users\\john"\n', '\\\\fileserver\\share\\Users\\john'),
    ('p = "C:\\Users\\john\\\\"\n', 'C:\\Users\\john\\'),
    (CRASH, 'C:\\temp\\U0011ffff'),
    ('p = "C:\\\\data\\Users\\x.txt"\n', 'C:\\data\\Users\\x.txt'),  # '\\x.' refused as well
    ('p = b"C:\\\\data\\x.txt"\n', b'C:\\data\\x.txt'),
    ('p = f"C:\\\\temp\\Users\\{name}"\n', None),  # an f-string: compared below by its text
])
def test_fix_keeps_a_deliberate_double_backslash(src, meant):
    assert not compiles(src)
    fixed = fix.fix_text(src, ALL).text
    assert compiles(fixed)
    if meant is None:
        assert fixed == 'p = f"C:\\\\temp\\\\Users\\\\{name}"\n'
    else:
        assert values(fixed) == [meant]
    assert fix.fix_text(fixed, ALL).text == fixed  # a second run changes nothing


@pytest.mark.parametrize('src, meant', [
    # no deliberate '\\': raw, as before (the '\\n' of a path was meant as a separator)
    ('p = "C:\\Users\\new"\n', 'C:\\Users\\new'),
    ('p = "C:\\Users\\john\\x.txt"\n', 'C:\\Users\\john\\x.txt'),
])
def test_fix_makes_a_path_without_one_raw(src, meant):
    fixed = fix.fix_text(src, ALL).text
    assert fixed == src.replace(' "', ' r"')
    assert values(fixed) == [meant]


@pytest.mark.parametrize('src, message', [
    ('p = "\\\\\\\\fileserver\\share\\Users\\john"\n',
     '\'\\U\' starts a unicode escape, but "\\\\\\\\fileserver\\share\\Users\\john" is a Windows path: '
     'double each lone backslash ("\\\\\\\\fileserver\\\\share\\\\Users\\\\john") or use forward slashes'),
    ('p = "C:\\Users\\john\\\\"\n',
     '\'\\U\' starts a unicode escape, but "C:\\Users\\john\\\\" is a Windows path: '
     'double each lone backslash ("C:\\\\Users\\\\john\\\\") or use forward slashes'),
    ('p = "C:\\\\Program Files\\Users\\AppData\\Local\\Temp\\stuff.txt"\n',
     "'\\U' starts a unicode escape, but this literal is a Windows path: "
     'double each lone backslash or use forward slashes'),
])
def test_message_says_to_double(src, message):
    assert [item.message for item in api.lint(src) if item.code == 'ESC304'] == [message]
    meant = message.split('backslash ("', 1)[1].split('")', 1)[0] if '("' in message else None
    if meant is not None:  # the literal the message shows is the path the author meant
        assert values(f'p = "{meant}"\n') == values(fix.fix_text(src, ALL).text)


# Generated literals: no command raises on a refused escape, whatever surrounds it.

REFUSED = ['\\x', '\\x4', '\\xg', '\\u', '\\u12', '\\U1', '\\U0011ffff', '\\U00110000', '\\UFFFFFFFF',
           '\\N{nonsense}', '\\N', '\\N{', '\\Users', '\\N{BULLET']
PLAIN = ['C:', 'a.txt', '\\\\', '\\d+', '(\\w+)', '\\1', '\\b', '$\\alpha', '\\frac{a}{b}', '\\theta',
         '>>> f("a\\\\b")', '\\n', '\\t', '\\x41', '\\u00e9', '\\N{BULLET}', '\\\\U', '.', ' ', '\\root']
HEADS = ['', 'C:', 'C:\\\\temp', 'C:\\\\temp\\\\', '\\\\\\\\server\\\\share', '.', '$', '>>> x = "']
FIELDS = ['{x}', '{x!r}', '{x:>4}', '{x:\\x4}', '{{', '}}']
PREFIXES = {'str': ['', 'u', 'r'], 'bytes': ['b', 'rb'], 'formatted': ['f', 'rf', 'F']}
CONTEXTS = [
    'x = {lit}\n',
    'import re\nm = re.compile({lit})\ns = re.sub("(a)", {lit}, s)\n',
    'import matplotlib.pyplot as plt\nplt.xlabel({lit})\n',
    'def f():\n    {lit}\n    return 1\n',
    'import os\nopen({lit})\nos.path.join({lit}, "a")\n',
    'x = 1\ny = ({lit}\n     {lit})\n',
]


@st.composite
def refused_sources(draw) -> str:
    kind = draw(st.sampled_from(sorted(PREFIXES)))
    prefix = draw(st.sampled_from(PREFIXES[kind]))
    quote = draw(st.sampled_from(["'", '"', "'''", '"""']))
    atoms = REFUSED + PLAIN + (FIELDS if kind == 'formatted' else [])
    atoms = draw(st.lists(st.sampled_from(atoms), min_size=1, max_size=4))
    body = draw(st.sampled_from(HEADS)) + ''.join(atoms)
    if kind == 'bytes':
        body = body.replace('\u00e9', 'e')
    body = body.replace(quote[0], '')
    if (len(body) - len(body.rstrip('\\'))) % 2:
        body += 'z'  # a backslash that escapes the closing quote is another error (ESC305)
    return draw(st.sampled_from(CONTEXTS)).replace('{lit}', prefix + quote + body + quote)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(refused_sources())
@example(CRASH)
@example('x = 1\ny = (f"C:\\\\temp\\U0011ffff{x}"\n     b"\\\\\\x4")\n')
def test_no_command_raises_on_a_refused_escape(src):
    lint = api.lint(src)
    assert api.lint(src, prefilter=False) == lint
    planned = api.fix(src, unsafe=True)
    if planned.edits:
        assert compiles(planned.text) or not compiles(src.replace('\\', '/')), planned.text
    # 3.12.1 and 3.13.0 refuse '\\x4' in a raw f-string's spec too (CPython issue 137314): not ESC304
    spec_bug = re.search('(?i)rf|fr', src) is not None and sys.version_info[:3] in ((3, 12, 1), (3, 13, 0))
    if not compiles(src) and compiles(src.replace('\\', '/')) and not spec_bug:  # only its escapes fail
        assert 'ESC304' in {item.code for item in lint}
        assert compiles(planned.text), (src, planned.refused)


def test_check_and_fix_never_raise_on_generated_files(tmp_path):
    """The commands' own paths (their reading, parsing and printing) on a few files at once."""
    sources = [CRASH, 'x = "\\\\\\\\srv\\share\\N{nonsense}\\\\"\n',
               "import re\nre.sub('(a)', '\\1\\x4', s)\n",
               'def f():\n    """>>> f("C:\\\\temp\\U00110000")\n    """\n', "x = rf'{1:\\x4}' b'\\x4'\n"]
    names = []
    for number, src in enumerate(sources):
        (tmp_path / f'f{number}.py').write_text(src, encoding='utf-8')
        names.append(f'f{number}.py')
    code, out, err = run(tmp_path, 'check', *names)
    assert code == 1 and {line.split(':')[0] for line in out} == set(names)
    code, out, err = run(tmp_path, 'fix', '--unsafe', *names)
    assert code in (1, 2)


# Issue 39, item 2: a file that does not parse only because of refused escapes is checked whole.

WHOLE = '''import re
import matplotlib.pyplot as plt

path = "C:\\Users\\me\\new.txt"
html = re.sub(r'(\\w+)', '<\\1>', text)
plt.xlabel('$\\theta$')
name = f'\\N{nonsense} {path}'
open('C:\\data\\table.csv')


def f():
    """Split it.

    >>> f('a\\tb')
    """
'''


def found(src: str) -> list[str]:
    return [f'{item.line}:{item.column + 1} {item.code}' for item in api.lint(src)]


def test_whole_file_is_checked():
    assert not compiles(WHOLE)
    assert found(WHOLE) == [
        '4:11 ESC304', '4:17 ESC301', '4:20 ESC501',  # the path: what its text tells
        '5:27 ESC401',  # a regex replacement: the AST tells
        '6:14 ESC601',  # a TeX label: the AST tells
        '7:10 ESC304',
        '8:9 ESC301', '8:14 ESC501',  # a path by its use
        '14:13 ESC602',  # a docstring: the AST tells
    ]


def test_check_says_nothing_was_skipped(tmp_path):
    (tmp_path / 'a.py').write_text(WHOLE, encoding='utf-8')
    code, out, err = run(tmp_path, 'check', '--select', 'ESC', 'a.py')
    assert [line.split(' ')[0][:-1] + ' ' + line.split(' ')[1] for line in out] == [
        'a.py:' + item for item in found(WHOLE)]
    assert err == ['a.py: does not parse (SyntaxError at line 4): only its escapes CPython refuses (ESC304); '
                   'every check ran']
    code, out, err = run(tmp_path, 'check', 'a.py')  # E999 as flake8 gives it, and every report
    assert [line.split(' ')[1] for line in out].count('E999') == 1 and len(out) == len(found(WHOLE)) + 1


def test_a_file_that_also_fails_for_another_reason_keeps_the_text_reports(tmp_path):
    src = WHOLE + 'def g(:\n'
    assert found(src) == ['4:11 ESC304', '4:17 ESC301', '4:20 ESC501', '7:10 ESC304', '8:9 ESC301',
                          '8:14 ESC501']
    (tmp_path / 'a.py').write_text(src, encoding='utf-8')
    code, out, err = run(tmp_path, 'check', '--select', 'ESC', 'a.py')
    assert len(out) == 6 and 'skipped ESC4xx, ESC501 where the use decides, ESC601, ESC602' in err[0]


REFUSED_LINES = ['junk = "C:\\Users\\me"', "junk = '\\x4\\d'", "junk = b'\\x'", "junk = '\\N{nonsense}'",
                 "junk = f'{1}\\U0011ffff{2:>3}\\N{no such}'", "junk = f'{1:\\x4}'", "junk = u'\\u12'",
                 'junk = """\\N{BULLET\n"""', "junk = '\\N'"]
CHECKED_LINES = ["import re", "re.sub('(a)', '\\1', s)", "re.match('\\bx', s)", "open('C:\\data\\table')",
                 "plt.xlabel('$\\alpha$')", 'def f():\n    """>>> f(\'\\t\')\n    """', "x = '\\d'",
                 "y = f'{x}\\theta'", "import matplotlib.pyplot as plt"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(REFUSED_LINES + CHECKED_LINES), min_size=1, max_size=8))
def test_other_lines_report_as_in_a_file_that_parses(chosen):
    """Every report outside the refused escapes' lines is the one the file gets
    with those lines made plain: nothing skipped, nothing moved."""
    src = ''.join(line + '\n' for line in chosen)
    plain = ''.join(('junk = 0' + '\n' * line.count('\n') if line in REFUSED_LINES else line) + '\n'
                    for line in chosen)
    assert compiles(plain)
    rows = {number for number, line in enumerate(src.splitlines(), 1) if line.startswith('junk')}
    if not rows:
        return
    assert not compiles(src)
    assert [item for item in found(src) if int(item.split(':')[0]) not in rows] == found(plain)
    assert {int(item.split(':')[0]) for item in found(src) if item.endswith('ESC304')} <= rows


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(differential.refused_source())
def test_masked_text_keeps_every_token_and_parses_when_the_repair_does(src):
    """The text given to the parser tokenizes as the real one does, token by token (only a
    refused escape's characters differ; 3.12+ may cut an f-string's text at a ``\\N{``), and
    parses where ESC304's repair makes the file parse."""
    lines = io.StringIO(src).readlines()
    tokens = source.unparsed_literals(lines)
    masked = tokens and checks.refused_masked(tokens, lines)
    if not masked:
        return
    real, hidden = token_list(src), token_list(''.join(masked.lines))
    if real is None:
        return
    assert hidden is not None
    assert boundaries(hidden) == boundaries(real)
    try:
        repaired = fix.fix_text(src, {'ESC304'}).text
    except (SyntaxError, ValueError):
        return
    if compiles(repaired):
        assert compiles(''.join(masked.lines))


def token_list(src):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        try:
            return list(tokenize.generate_tokens(io.StringIO(src).readline))
        except (SyntaxError, tokenize.TokenError):
            return None


#: The tokens of an f- or t-string's text (3.12+), which the tokenizer may cut at a ``\\N{...}``.
MIDDLES = {getattr(tokenize, name) for name in ('FSTRING_MIDDLE', 'TSTRING_MIDDLE')
           if hasattr(tokenize, name)}


def boundaries(tokens):
    """Each token's type, start and end; the pieces of one f-string text as one."""
    found = []
    for tok in tokens:
        if found and tok.type in MIDDLES and found[-1][0] == tok.type and found[-1][2] == tok.start:
            found[-1] = (tok.type, found[-1][1], tok.end)
        else:
            found.append((tok.type, tok.start, tok.end))
    return found


# Issue 39, item 4: honest refusals in fix.

PY2 = "path = 'C:\\Users\\me'\nprint \"x\"\n"


def still_fails(src: str) -> SyntaxError:
    """CPython's error on ``src`` with its refused escape written as meant (by hand)."""
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        try:
            compile(src.replace("'C:\\Users", "r'C:\\Users"), '<case>', 'exec', dont_inherit=True)
        except SyntaxError as error:
            return error
    raise AssertionError('it compiles')


@pytest.mark.parametrize('args, code, said', [
    (['--unsafe'], 2, 'left alone'),
    (['--unsafe', '--diff'], 2, 'left alone'),
    (['--unsafe', '--select', 'ESC304'], 2, 'left alone'),
    ([], 0, 'skipped'),  # not asked to make it parse: skipped as any file that does not parse
])
def test_fix_names_the_line_that_still_fails(tmp_path, args, code, said):
    error = still_fails(PY2)
    assert error.lineno == 2
    (tmp_path / 'py2.py').write_text(PY2, encoding='utf-8')
    status, out, err = run(tmp_path, 'fix', *args, 'py2.py')
    assert (status, out) == (code, [])
    assert err == [f'py2.py: {said}, does not parse: line 2 fails even with its ESC304 escapes mended: '
                   f'{error.msg}']
    assert (tmp_path / 'py2.py').read_text(encoding='utf-8') == PY2


def test_api_fix_names_the_line_that_still_fails():
    error = still_fails(PY2)
    assert api.fix(PY2, unsafe=True).refused == f'does not parse: {error.msg} (line 2)'


def test_api_fix_of_another_code_says_the_refused_escapes_come_first():
    """An editor's quick fix of the ESC401 of a file that does not parse because of ESC304."""
    diagnostic = next(item for item in api.lint(WHOLE) if item.code == 'ESC401')
    [planned] = api.fixes(WHOLE, [diagnostic])
    assert planned.edits == []
    assert planned.refused == 'does not parse until its ESC304 escapes are fixed (the first at line 4)'


@pytest.mark.parametrize('literal, meant', [
    # a bare '\N{' in an f-string: the '}' after it is its text (3.11's parser, 3.12+'s tokenizer)
    ("f'\\N{}'", '\\N{}'),
    ("f'\\N{'", '\\N{'),
    ("f'a\\N{ab}{x}'", 'a\\N{ab}1'),
])
def test_fix_of_a_bare_named_escape_in_an_f_string_compiles(literal, meant):
    src = f'x = 1\ny = {literal}\n'
    assert not compiles(src)
    fixed = fix.fix_text(src, ALL).text
    assert compiles(fixed)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        assert eval(fixed.split('y = ', 1)[1], {'x': 1}) == meant


def test_fix_says_when_its_repair_would_not_make_the_file_parse(tmp_path):
    """A '\\N{...}' in a format spec cannot be written as text (ESC304's page): left alone, status 2."""
    src = 'x = 1\ny = f"{x:\\N{NO SUCH}}"\n'
    (tmp_path / 'spec.py').write_text(src, encoding='utf-8')
    status, out, err = run(tmp_path, 'fix', '--unsafe', 'spec.py')
    assert status == 2 and len(err) == 1
    assert err[0].startswith('spec.py: left alone, does not parse: its ESC304 fix would not make it parse '
                             '(line 2)')
    assert (tmp_path / 'spec.py').read_text(encoding='utf-8') == src
    assert api.fix(src, unsafe=True).refused == (
        'does not parse, and the fix of its ESC304 escapes would not make it parse (line 2)')
    # under '# noqa' the fixer leaves it by choice: skipped, as before
    (tmp_path / 'noqa.py').write_text('y = "\\x4"  # noqa: ESC304\n', encoding='utf-8')
    status, out, err = run(tmp_path, 'fix', '--unsafe', 'noqa.py')
    assert status == 0 and err[0].startswith('noqa.py: skipped, does not parse')


def test_fix_unsafe_fixes_what_check_reports_on_a_file_checked_whole():
    """check and fix agree: ``fix --unsafe`` (ESC304's repair, then its rounds) fixes one escape per
    report ``check`` gave the file that did not parse, and the result compiles and checks clean."""
    result = fix.fix_text(WHOLE, ALL)
    assert sorted(result.fixed) == sorted(item.split(' ')[1] for item in found(WHOLE))
    assert compiles(result.text) and found(result.text) == []
