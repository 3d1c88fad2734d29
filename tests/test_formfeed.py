"""Form feeds and the other characters ``str.splitlines`` cuts at, inside f- and t-strings.

On 3.12+ ``check``'s pre-filter (``source.lexed_literals``) tokenizes an
f-string's text alone (``source._formatted_tokens``).  It cut that text into
rows with ``str.splitlines``, which also cuts at a form feed, ``\\v``,
``\\x1c``-``\\x1e``, U+0085, U+2028 and U+2029; the tokenizer (and the compiler)
cut at none of them.  So the tokens' rows were counted past the literal's own:
``IndexError`` on the file's last rows, and elsewhere the escapes placed on
the wrong rows, where the pre-filter found nothing to report (a silent miss).

Every expectation here is CPython's: the warnings it records compiling each
file (``differential.compare_reports``, one escape at a time), its tokenizer's
tokens, and the plugin's reports on the tokens flake8 gives it.
"""
from __future__ import annotations

import ast
import contextlib
import io
import warnings

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import differential
from flake8_escapes import api, cli, source
from helpers import reports
from test_check import check, escapes
from test_flake8 import flake8
from test_source import tokenizers_literals

#: The characters ``str.splitlines`` ends a line at that end no row for the tokenizer.
SPLITLINES_ONLY = ('\x0c', '\x0b', '\x1c', '\x1d', '\x1e', '\x85', '\u2028', '\u2029')
#: The file of the report: a form feed alone on a row of a triple-quoted f-string.
REPORTED = 'g = f"""{x}\n\x0c\nh = f\'{x:\\d}\' \'C:\\temp\'\n"""\n'
#: Files with one of those characters (``@``) in an f-string.
TEMPLATES = {
    'reported': REPORTED.replace('\x0c', '@'),
    'rows-after': 'g = f"""@\n{x:\\d}"""\ny = 1\nz = 2\n',          # the report was missed: no crash
    'mid-row': 'g = f"""a@b\\d{x}"""\n',
    'single-quoted': "g = f'@{x}\\d' + '\\q'\n",
    'self-documenting': 'g = f"""{x=}@\n\\d{x = !r:@>{w}}"""\n',
    'format-spec': 'g = f"""{x:@\\d}\n"""\nh = f"{y:@}\\q"\n',
    'raw': 'g = rf"""@\n\\d{x:\\w}@"""\nh = "\\q"\n',
    # a backslash in a field's expression: 3.12+ (PEP 701)
    **({'nested': 'g = f"""{f\'@{x:\\d}\'}\n@\\w"""\ny = 2\n'} if not source.FSTRING_IS_STRING else {}),
}
CASES = {f'{name}-{ord(char):04x}': text.replace('@', char)
         for name, text in TEMPLATES.items() for char in SPLITLINES_ONLY}


def lines_of(src: str) -> list[str]:
    return io.StringIO(src, newline=None).readlines()


def linted(src: str, **kwargs) -> list[tuple[int, int, str]]:
    return [(item.line, item.column, item.code) for item in api.lint(src, **kwargs)]


def disagreements(src: str, compared: bool = True) -> list[tuple]:
    """Where ``api.lint``'s ESC301-ESC303 reports and CPython's warnings differ (none: they agree);
    ``compared``: a literal with a backslash must have been compared."""
    lines = lines_of(src)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')  # the escapes, compiled on purpose
        compile(src, '<case>', 'exec')  # each case compiles
        tokens = source.file_tokens(lines)
    tally = differential.Tally()
    found = [(item.line, item.column, f'{item.code} {item.message}') for item in api.lint(src)]
    differential.compare_reports(lines, tokens, found, tally, '<case>')
    assert tally.compared or not compared
    return tally.disagreements


def test_the_reported_file():
    # CPython warns once, about the '\d' of line 3 ("h = f'{x:\d}'" is text of g's literal there);
    # '\t' is a valid escape
    assert linted(REPORTED) == [(3, 9, 'ESC301')]
    assert lines_of(REPORTED)[2][9:11] == '\\d'
    assert disagreements(REPORTED) == []


@pytest.mark.skipif(source.FSTRING_IS_STRING, reason='PEP 701: f-strings tokenized alone on 3.12+')
@pytest.mark.parametrize('src', CASES.values(), ids=CASES.keys())
def test_lexed_literals_are_the_tokenizers(src):
    lines = lines_of(src)
    rows = source.backslash_rows(lines)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')  # 3.12+'s tokenizer warns about the escapes
        expected = tokenizers_literals(source.file_tokens(lines), rows)
    lexed = source.lexed_literals(lines, rows)
    assert lexed is not None
    assert [tuple(tok[:4]) for tok in lexed] == [tuple(tok[:4]) for tok in expected]


@pytest.mark.parametrize('src', CASES.values(), ids=CASES.keys())
def test_lint_is_cpythons_and_the_plugins(src):
    found = linted(src)
    assert found  # each case has an escape to report
    assert disagreements(src) == []
    assert linted(src, prefilter=False) == found  # the pre-filter drops nothing
    assert sorted((line, col - 1, message.split()[0]) for line, col, message in reports(src)) == found


@pytest.mark.parametrize('src', CASES.values(), ids=CASES.keys())
def test_a_file_that_does_not_parse_gets_its_literals_reports(src):
    broken = src + 'z = (\n'  # an error after the literals: CPython warns about them, then refuses
    assert linted(broken) == [item for item in linted(src) if item[2] in ('ESC301', 'ESC302', 'ESC303')]


@pytest.mark.parametrize('src', CASES.values(), ids=CASES.keys())
def test_fix_fixes_each_escape_and_keeps_the_value(src):
    planned = api.fix(src)
    assert planned.refused == '' and planned.fixed
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        assert ast.dump(ast.parse(planned.text)) == ast.dump(ast.parse(src))
    assert [code for _, _, code in linted(planned.text)] == []
    assert api.fix(planned.text).text == planned.text


def test_check_fix_and_flake8_on_the_files(tmp_path):
    """The commands, in subprocesses, on every case: ``check`` says what flake8 says,
    ``fix`` leaves files that parse to the same values, a second ``fix`` changes nothing."""
    names = {}
    for number, (case, src) in enumerate(sorted(CASES.items())):
        names[case] = f'case_{number}.py'
        (tmp_path / names[case]).write_bytes(src.encode('utf-8'))
    said = flake8(tmp_path, '--isolated', '--select=ESC', '.')
    assert said[0] == 1 and len(said[1]) >= len(CASES)
    assert check(tmp_path, '--isolated', '--select=ESC', '.') == said
    code, _, err = escapes(tmp_path, 'fix', '--isolated', '.')
    assert code in (0, 1) and err == ''
    for case, name in names.items():
        fixed = (tmp_path / name).read_bytes().decode('utf-8')
        assert fixed == api.fix(CASES[case]).text, case
    assert escapes(tmp_path, 'fix', '--isolated', '--diff', '.')[1] == []


# -- fuzzing: odd characters in f-strings, through every front end -----------------------------

#: Characters around which rows and columns may be counted apart: those above, a tab, a
#: lone CR and a CRLF (line ends for the compiler), a NUL (refused), non-BMP and non-ASCII ones.
ODD = (*SPLITLINES_ONLY, '\t', '\r', '\r\n', '\x00', '\U0001f600', '\U0010fffd', 'é')
ESCAPES = ('\\d', '\\t', '\\f', '\\x0c', '\\\x0c', '\\\t', '\\\U0001f600', '\\N{BULLET}', '\\777', '\\0',
           'C:\\temp', '\\\\', '\\\n', '\\q')
FIELDS = ('{x}', '{x=}', '{x = }', '{x=!r}', '{x:\\d}', '{x:>{w}}', '{x!r:@}', '{x:@\\d}', '{\x0cx}',
          '{x\x0c}', '{x=:@>9}', '{{', '}}', '\\{x}', '{x:{w}\\w}')
#: A t-string where the tokenizer knows them (3.14+).
T_PREFIXES = ['t'] if source.FORMATTED_PREFIXES > {'t'} else []


@st.composite
def fstrings(draw, depth: int = 0) -> str:
    quote = draw(st.sampled_from(['"', "'", '"""', "'''"]))
    prefix = draw(st.sampled_from(['f', 'f', 'rf', 'F', *T_PREFIXES]))
    odd = draw(st.sampled_from(ODD))
    atoms = [*ODD, *ESCAPES, *(field.replace('@', odd) for field in FIELDS), 'a', ' ']
    if len(quote) == 3:
        atoms += ['\n', '\n\x0c\n', '\x0c\n']
    if depth < 1:  # a nested one, with the other quote (with a backslash: 3.12+ only)
        other = '"' if quote[0] == "'" else "'"
        inner = draw(fstrings(depth + 1)).replace(quote[0], other)
        atoms.append('{' + inner + '}')
    body = ''.join(draw(st.lists(st.sampled_from(atoms), min_size=1, max_size=6)))
    return prefix + quote + body + quote


@st.composite
def odd_sources(draw) -> str:
    statements = draw(st.lists(fstrings(), min_size=1, max_size=3))
    joiner = draw(st.sampled_from(['\n', '\r\n', '\n\x0c\n', '\n\n']))
    tail = draw(st.sampled_from(['\n', '', '\nz = "\\q"\n', '\nz = (\n']))
    return 'x = w = y = 1\n' + joiner.join(f'v{n} = {text}' for n, text in enumerate(statements)) + tail


def compiled(src: str) -> bool:
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        try:
            compile(src, '<case>', 'exec')
        except (SyntaxError, ValueError):
            return False
    return True


def check_says(path) -> list[tuple[int, int, str]]:
    out = io.TextIOWrapper(io.BytesIO(), encoding='utf-8')  # flake8's formatter writes to its buffer
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        cli.main(['check', '--isolated', '--select=ESC', str(path)])
    out.flush()
    printed = out.buffer.getvalue().decode('utf-8')  # type: ignore[attr-defined]
    found = [line[len(str(path)) + 1:].split(':', 2) for line in printed.splitlines()]
    return [(int(row), int(col) - 1, text.split()[0]) for row, col, text in found]


def parsed_dump(data: bytes) -> str | None:
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        try:
            return ast.dump(ast.parse(data))
        except (SyntaxError, ValueError):
            return None


def fixed_file(path, unsafe: bool) -> bytes:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        cli.main(['fix', '--isolated', *(['--unsafe'] if unsafe else []), str(path)])
    return path.read_bytes()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(odd_sources())
def test_odd_characters_in_fstrings(tmp_path_factory, src):
    found = linted(src)  # never raises
    assert linted(src, prefilter=False) == found
    path = tmp_path_factory.mktemp('odd') / 'case.py'
    data = src.encode('utf-8')
    path.write_bytes(data)
    said = check_says(path)
    before = parsed_dump(data)
    if compiled(src):
        assert disagreements(src, compared=False) == []
        assert sorted((line, col - 1, message.split()[0]) for line, col, message in reports(src)) == found
        assert said == found
    for unsafe in (False, True):
        path.write_bytes(data)
        new = fixed_file(path, unsafe)
        after = parsed_dump(new)
        if before is None:
            assert new == data  # a file that does not parse is left as it was
            continue
        assert after is not None and (unsafe or after == before)
        assert fixed_file(path, unsafe) == new  # a second run changes nothing
        planned = api.fix(src, unsafe=unsafe)
        assert parsed_dump(planned.text.encode('utf-8')) in ((after,) if unsafe else (before,))
