"""ESC305: a backslash that escapes the closing quote of a Windows path (issue 39, item 3).

The labeled cases are blocks of tests/data/quotes_labeled.txt (each its own source: most do not
parse); ``python tests/test_quotes.py`` prints the labeled set's precision and recall.  Every
statement about a source (it does not compile, the value the fix gives) is CPython's.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
import warnings
from typing import NamedTuple

import pytest

from flake8_escapes import api, paths, quotes

DATA = os.path.join(os.path.dirname(__file__), 'data', 'quotes_labeled.txt')
HEADER = re.compile(r'^#: (ESC305|missed|quiet)((?: \d+:\d+)*)(?: x=(.*))?$')
#: A line that does not parse, added to each quiet block: the look-alike goes through the path of a
#: file that does not parse, where ESC305 is looked for.
BROKEN = "print 'py2'\n"


class Case(NamedTuple):
    label: str                      # ESC305, missed or quiet
    places: list[tuple[int, int]]   # (row, 1-based col) of each backslash
    value: str | None               # what `x` is meant to hold (ESC305)
    source: str
    number: int                     # the header's line in the data file


def cases() -> list[Case]:
    found: list[Case] = []
    with open(DATA, encoding='utf-8') as f:
        lines = f.readlines()
    for number, line in enumerate(lines, 1):
        match = HEADER.match(line.rstrip('\n'))
        if match is None:
            if found and not line.startswith('#   ') and not line.startswith('# '):
                found[-1] = found[-1]._replace(source=found[-1].source + line)
            continue
        label, places, value = match.groups()
        rows_cols = [(int(place.split(':')[0]), int(place.split(':')[1])) for place in places.split()]
        found.append(Case(label, rows_cols, value, '', number))
    return found


CASES = cases()
IDS = [f'{case.label}-{case.number}' for case in CASES]


def compiles(src: str) -> bool:
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        try:
            compile(src, '<case>', 'exec', dont_inherit=True)
        except SyntaxError:
            return False
    return True


def linted(src: str) -> set[tuple[int, int]]:
    """The (row, 1-based col) of each ESC305 ``api.lint`` reports on ``src``."""
    return {(item.line, item.column + 1) for item in api.lint(src) if item.code == 'ESC305'}


def source_of(case: Case) -> str:
    return case.source if case.label != 'quiet' else case.source + BROKEN


def test_the_data_is_what_it_says():
    """Each place is a backslash before a quote; each hazard's source does not compile; a quiet
    block compiles alone, but for the look-alikes that are themselves broken in another way."""
    assert sum(case.label == 'ESC305' for case in CASES) >= 25
    assert sum(case.label == 'quiet' for case in CASES) >= 15
    for case in CASES:
        rows = case.source.splitlines()
        for row, col in case.places:
            assert rows[row - 1][col - 1] == '\\' and rows[row - 1][col] in '\'"', (case.number, row, col)
        if case.label != 'quiet':
            assert not compiles(case.source), case.number
        assert not compiles(source_of(case)), case.number


@pytest.mark.parametrize('case', CASES, ids=IDS)
def test_labeled_case(case):
    found = linted(source_of(case))
    if case.label == 'ESC305':
        assert found == set(case.places)
    else:
        assert found == set()


@pytest.mark.parametrize('case', [case for case in CASES if case.label == 'ESC305'],
                         ids=[i for i, case in zip(IDS, CASES) if case.label == 'ESC305'])
def test_fix_unsafe_keeps_the_meant_value(case):
    """``fix --unsafe`` makes the file compile, each reported backslash repaired, and ``x`` holds the
    path with one backslash at its end (CPython's value of the fixed source); a second run changes
    nothing."""
    fixed = api.fix(case.source, unsafe=True)
    assert 'ESC305' in fixed.fixed and fixed.fixed.count('ESC305') == len(case.places)
    assert compiles(fixed.text)
    if case.value is not None:
        namespace: dict[str, object] = {}
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            try:
                exec(compile(fixed.text, '<fixed>', 'exec', dont_inherit=True), namespace)
            except OSError:  # open() of a path that is not there: the argument is what counts
                pytest.skip('opens a file')
        value = namespace['x']
        expected = eval(case.value) if case.value.startswith(('b', '(')) else case.value
        assert value == expected
    assert api.fix(fixed.text, unsafe=True).text == fixed.text


def test_fix_without_unsafe_leaves_the_file_alone():
    src = "x = r'C:\\reports\\'\n"
    assert api.fix(src).text == src
    assert api.fix(src, unsafe=True).text == "x = r'C:\\reports' '\\\\'\n"


def test_fix_honours_noqa():
    src = "x = 'C:\\data\\'  # noqa: ESC305\n"
    assert api.fix(src, unsafe=True).text == src


def test_with_refused_escape_the_repair_keeps_one_closing_backslash():
    """``'C:\\Users\\'``: ESC305's repair leaves a deliberate ``\\\\`` at the end, so ESC304's repair
    doubles the refused backslashes rather than make the literal raw (issue 40 item 2; raw, the doubled
    one would stay two): CPython's value is the path with one backslash at its end."""
    fixed = api.fix("x = 'C:\\Users\\me\\'\n", unsafe=True)
    assert fixed.text == "x = 'C:\\\\Users\\\\me\\\\'\n"
    namespace: dict[str, object] = {}
    exec(fixed.text, namespace)
    assert namespace['x'] == 'C:\\Users\\me\\'


def test_repair_of_each_prefix_keeps_the_value():
    """``quotes.repair`` on each prefix: the repaired literal compiles to the path with one
    backslash (a t-string's value is compared by its strings, where the running Python has them)."""
    for prefix in ('', 'r', 'b', 'rb', 'Br', 'u', 'f', 'rf', 'FR'):
        for quote in ("'", '"', "'''", '"""'):
            src = f'{prefix}{quote}C:\\dir\\{quote}'
            found = quotes.escaped_quotes(f'x = {src}\n')
            assert len(found) == 1, src
            length, new = quotes.repair(found[0])
            at = found[0].col
            fixed = f'x = {src}\n'
            fixed = fixed[:at] + new + fixed[at + length:]
            namespace: dict[str, object] = {}
            with warnings.catch_warnings():
                warnings.simplefilter('ignore')
                exec(fixed, namespace)
            expected = 'C:\\dir\\'
            assert namespace['x'] == (expected.encode() if 'b' in prefix.lower() else expected), fixed


def test_check_reports_it_and_says_what_was_skipped(tmp_path):
    (tmp_path / 'bad.py').write_text("x = r'C:\\reports\\'\ny = '\\d'\n")
    proc = subprocess.run([sys.executable, '-m', 'flake8_escapes', 'check', '--select=ESC', 'bad.py'],
                          capture_output=True, text=True, cwd=tmp_path, check=False)
    assert proc.stdout.splitlines() == [
        "bad.py:1:17: ESC305 '\\'' escapes the closing quote; "
        "end the raw path with r'...' '\\\\' or use pathlib",
        "bad.py:2:6: ESC301 invalid escape sequence '\\d'; write '\\\\d' or use a raw string",
    ]
    assert 'ESC301-ESC305' in proc.stderr and proc.returncode == 1


def test_columns_of_other_reports_on_the_row_are_as_written():
    """The text checks run on the lines with the closing backslashes doubled; their reports come back
    at their columns as written."""
    src = "x = 'C:\\a\\' + 'C:\\b\\' + '\\d'\n"
    escaped = [index for index in range(len(src)) if src.startswith("\\'", index)]
    found = {(item.code, item.column) for item in api.lint(src)}
    assert found == {('ESC305', escaped[0]), ('ESC305', escaped[1]), ('ESC301', src.index('\\d'))}


def test_a_file_that_parses_is_never_reported():
    """``'C:\\dir\\' # '`` is valid Python (the string ``C:\\dir' # ``): only its author knows."""
    src = "x = 'C:\\dir\\' # '\n"
    assert compiles(src)
    assert linted(src) == set()


def test_the_statement_must_tokenize():
    """A deliberate ``\\"`` in a path literal (``"He said \\"C:\\dir\\""``) in a file that does not parse:
    doubling the last backslash ends the literal, but the quote after it opens one that never ends."""
    src = 'x = "He said \\"C:\\dir\\""\n' + BROKEN
    found = quotes.escaped_quotes(src)
    assert found == []


def labeled_score() -> dict[str, int]:
    score = {'tp': 0, 'fn': 0, 'fp': 0, 'hazard cases': 0, 'clean cases': 0}
    for case in CASES:
        found = linted(source_of(case))
        if case.label == 'quiet':
            score['clean cases'] += 1
            score['fp'] += len(found)
            continue
        score['hazard cases'] += 1
        score['tp'] += len(found & set(case.places))
        score['fn'] += len(set(case.places) - found)
        score['fp'] += len(found - set(case.places))
    return score


def test_labeled_set_precision_and_recall():
    score = labeled_score()
    assert score['fp'] == 0, score
    assert score['tp'] / (score['tp'] + score['fn']) >= 0.9, score


if __name__ == '__main__':
    result = labeled_score()
    tp, fn, fp = result['tp'], result['fn'], result['fp']
    print(result, f'precision {tp / (tp + fp):.3f}, recall {tp / (tp + fn):.3f}')


def test_fix_command_names_the_repair_and_unsafe_makes_it(tmp_path):
    """Without ``--unsafe`` the file is left alone and the line names the command that repairs it
    (with ESC304 where the file needs both); with it, the file compiles and holds the paths."""
    bad = tmp_path / 'bad.py'
    bad.write_text("x = r'C:\\reports\\'\ny = 'C:\\Users\\me\\'\n")
    run = [sys.executable, '-m', 'flake8_escapes', 'fix', 'bad.py']
    proc = subprocess.run(run, capture_output=True, text=True, cwd=tmp_path, check=False)
    assert proc.stderr.splitlines() == ['bad.py: skipped, does not parse (ESC305 x2, first at line 1): '
                                        '`flake8-escapes fix --unsafe --select ESC304,ESC305` can repair it']
    assert bad.read_text() == "x = r'C:\\reports\\'\ny = 'C:\\Users\\me\\'\n"
    proc = subprocess.run([*run, '--unsafe'], capture_output=True, text=True, cwd=tmp_path, check=False)
    namespace: dict[str, object] = {}
    exec(bad.read_text(), namespace)
    assert (namespace['x'], namespace['y']) == ('C:\\reports\\', 'C:\\Users\\me\\')


@pytest.mark.skipif(sys.version_info < (3, 14), reason='t-strings are 3.14+')
def test_t_string_repair_keeps_the_strings():
    """A raw t-string gets ``t'\\\\'`` joined (a t-string joins only t-strings): CPython's Template
    holds the path with one backslash at its end."""
    for prefix in ('t', 'rt', 'Tr'):
        src = f"d = 'D'\nx = {prefix}'C:\\dir\\{{d}}\\'\n"
        found = quotes.escaped_quotes(src)
        assert [(item.line, item.col) for item in found] == [(2, src.splitlines()[1].rindex('\\'))]
        fixed = api.fix(src, unsafe=True).text
        namespace: dict[str, object] = {}
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            exec(fixed, namespace)
        template = namespace['x']
        assert ''.join(str(part) if isinstance(part, str) else part.value
                       for part in template) == 'C:\\dir\\D\\', fixed  # type: ignore[attr-defined]


def test_editor_quick_fix_and_its_title():
    """The server's quick fix of an ESC305 diagnostic is the fixer's plan, titled with what it
    changes; its severity is an error by default (the file does not compile), as ESC304's."""
    src = "x = r'C:\\reports\\'\n"
    [diagnostic] = api.lint(src)
    [planned] = api.fixes(src, [diagnostic])
    assert planned.text == "x = r'C:\\reports' '\\\\'\n"
    assert api.fix_title(diagnostic, planned.edits) == (
        "Write `' '\\\\'` (changes the value: the literal ends at its quote, with one backslash at its end, "
        'and the file compiles)')
    pytest.importorskip('pygls', reason='the server needs pygls: pip install "flake8-escapes[server]"')
    from flake8_escapes.commands import server
    assert server.DEFAULT_SEVERITY['ESC305'] == 'error'


PATHS = ['C:\\reports', 'D:\\data\\in', '\\\\server\\share', '..\\logs', 'C:\\Program Files\\App', 'C:/x/y']
PREFIXES = ['', 'r', 'b', 'rb', 'u', 'f', 'rf', 'R', 'Br']
QUOTES = ["'", '"', "'''", '"""']
#: What follows the literal in the statement (each valid after a literal that ends where meant).
RESTS = ['', ' + name', ', name)', ')  # a comment', ' if name else "x"', ', "y", name)', " # don't",
         " # '", ' # "', " # '''", ' # """']  # the last four pair the quotes up where they match


def _statements_of(path: str, prefix: str, quote: str, rest: str) -> tuple[str, str]:
    """(the statement as written, with the closing backslash doubled), in a call when the rest
    closes one."""
    opened = 'f(' if rest.startswith((',', ')')) else ''
    written = f"name = 'N'\nx = {opened}{prefix}{quote}{path}\\{quote}{rest}\n"
    doubled = f"name = 'N'\nx = {opened}{prefix}{quote}{path}\\\\{quote}{rest}\n"
    return written, doubled


@pytest.mark.parametrize('quote', QUOTES)
def test_reported_exactly_where_cpython_says_doubling_repairs(quote):
    """Over paths x prefixes x rests: ESC305 is reported, once, at the backslash, exactly when the
    source does not compile as written and compiles with that backslash doubled (CPython's
    verdict); otherwise (the rest pairs the quotes up, a literal that compiles) nothing."""
    for path in PATHS:
        for prefix in PREFIXES:
            for rest in RESTS:
                written, doubled = _statements_of(path, prefix, quote, rest)
                meant = not compiles(written) and compiles(doubled)
                row = written.splitlines()[1]
                at = (2, row.rindex('\\' + quote[0]) + 1)
                assert linted(written) == ({at} if meant else set()), written


def test_the_command_line_rule_finds_what_the_path_tests_miss(monkeypatch):
    """``command-line-path``: the literal's text is no path whole (the path family's tests say
    nothing), its last word is; without the rule its example is not reported."""
    example = quotes.COMMAND_LINE.example
    assert paths.path_kind('copy a.txt C:\\backup\\') == '' and paths.path_kind('C:\\backup\\')
    assert [item.code for item in api.lint(example)] == ['ESC305']
    monkeypatch.setattr(quotes, 'ANCHORED', re.compile('(?!)'))
    assert [item.code for item in api.lint(example)] == []
