"""ESC301-ESC303: hand-written cases (tests/data) and messages."""
from __future__ import annotations

import io
import sys
import tokenize
import warnings

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import differential
from helpers import data_cases, reports, results

HAS_PEP701 = sys.version_info >= (3, 12)
HAS_TSTRINGS = hasattr(tokenize, 'TSTRING_START')

CASES = [pytest.param(src, expected, id=case_id) for case_id, src, expected in data_cases('invalid.py')]
CASES += [pytest.param(src, expected, id=case_id) for case_id, src, expected in data_cases('regex.py')]
CASES += [pytest.param(src, expected, id=case_id) for case_id, src, expected in data_cases('paths.py')]
CASES += [pytest.param(src, expected, id=case_id,
                       marks=pytest.mark.skipif(not HAS_PEP701, reason='PEP 701: 3.12+'))
          for case_id, src, expected in data_cases('pep701.py')]
CASES += [pytest.param(src, expected, id=case_id,
                       marks=pytest.mark.skipif(not HAS_TSTRINGS, reason='t-strings: 3.14+'))
          for case_id, src, expected in data_cases('tstrings.py')]


@pytest.mark.parametrize('src, expected', CASES)
def test_data_case(src, expected):
    assert results(src) == expected


@pytest.mark.parametrize('src, expected', CASES)
def test_data_case_agrees_with_cpython(src, expected):
    """The same cases through the differential comparison with CPython."""
    tally = differential.compare_source(src)
    assert tally.disagreements == []


@pytest.mark.parametrize('src, message', [
    ("x = '\\d'\n", "ESC301 invalid escape sequence '\\d'; write '\\\\d' or use a raw string"),
    ("x = b'\\u00e9'\n",
     "ESC302 '\\u' is a str-only escape, invalid in bytes; write '\\\\u' or encode a str"),
    ("x = '\\777'\n",
     "ESC303 octal escape '\\777' is above '\\377'; write '\\u01ff', the value it has now"),
    ("x = b'\\777'\n",
     "ESC303 octal escape '\\777' is above '\\377'; write '\\xff', the value it has now"),
    # An unprintable character after the backslash is named, not printed.
    ("x = '\\\x0c'\n",
     "ESC301 invalid escape sequence '\\<U+000C>'; write '\\\\<U+000C>' or use a raw string"),
])
def test_message(src, message):
    assert [m for _, _, m in reports(src)] == [message]


@pytest.mark.parametrize('literal', ["'\\777'", "'\\400'", "b'\\777'", "b'\\400'", "b'\\4000'"])
def test_esc303_suggestion_keeps_the_value(literal):
    """The spelling ESC303 suggests has the value CPython gives the octal escape."""
    (_, _, message), = reports(f'x = {literal}\n')
    suggested = message.split("write '")[1].split("'")[0]
    prefix = 'b' if literal.startswith('b') else ''
    rest = literal[len(prefix) + 5:-1]  # what follows the 3-digit escape
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')  # CPython warns about the original on purpose
        original = eval(literal)
    assert eval(f"{prefix}'{suggested}{rest}'") == original


def test_crlf_kept_in_lines():
    """CRLF, as flake8 reads it (translated) and kept in the lines."""
    src = "x = '''a\r\n\\d'''\r\ny = '\\\r\n\\q'\r\n"
    assert results(src) == {'2:1 ESC301', '4:1 ESC301'}
    assert results(src, io.StringIO(src, newline='').readlines()) == {'2:1 ESC301', '4:1 ESC301'}


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(st.text(alphabet='\\\'"{}:!=rfbx01Nu9 \n\té中\r\x0c', max_size=30),
       st.sampled_from(['', 'f', 'b', 'r', 'rb', 'rf', 'u']),
       st.sampled_from(["'", '"', "'''", '"""']))
def test_never_raises_and_points_at_backslashes(body, prefix, quote):
    """Whatever literal parses, every report points at a backslash in the file."""
    src = f'x = {prefix}{quote}{body}{quote}\n'
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        try:
            compile(src, '<fuzz>', 'exec')
        except (SyntaxError, ValueError):
            assume(False)
    lines = io.StringIO(src, newline=None).readlines()
    for line, col, _ in reports(src):
        assert lines[line - 1][col - 1] == '\\'
