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
import io
import os
import warnings

import pytest

import differential
from flake8_escapes import api, source
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


def disagreements(src: str) -> list[tuple]:
    """Where ``api.lint``'s ESC301-ESC303 reports and CPython's warnings differ (none: they agree)."""
    lines = lines_of(src)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')  # the escapes, compiled on purpose
        compile(src, '<case>', 'exec')  # each case compiles
        tokens = source.file_tokens(lines)
    tally = differential.Tally()
    found = [(item.line, item.column, f'{item.code} {item.message}') for item in api.lint(src)]
    differential.compare_reports(lines, tokens, found, tally, '<case>')
    assert tally.compared  # a literal with a backslash was compared
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
    assert [(line, col - 1, message.split()[0]) for line, col, message in reports(src)] == found


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
