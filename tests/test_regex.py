"""ESC401/ESC402 beyond the data cases: the option, and flake8 end to end.

Every import form and call shape is a case in tests/data/regex.py.
"""
from __future__ import annotations

import re
import subprocess
import sys

import pytest

from flake8_escapes import usage
from flake8_escapes.plugin import Plugin
from helpers import labeled_score, results
from test_flake8 import flake8


@pytest.mark.parametrize('value, expected', [
    ('mylib.rx_sub:0:1', {'mylib.rx_sub': usage.Signature(0, 1, '', '')}),
    (' a.b:0 , c::2 ', {'a.b': usage.Signature(0, None, '', ''), 'c': usage.Signature(None, 2, '', '')}),
    ('', {}),
])
def test_parse_functions(value, expected):
    assert usage.parse_functions(value) == expected


@pytest.mark.parametrize('value, says', [
    ('mylib.rx_sub', 'is not NAME:PATTERN_POS[:REPL_POS]'),
    ('my-lib.f:0', 'is not NAME:PATTERN_POS[:REPL_POS]'),
    ('f:x', "argument position 'x' is not a whole number"),
    ('f::', 'names neither a pattern nor a replacement position'),
    ('f:0:1:2', 'is not NAME:PATTERN_POS[:REPL_POS]'),
])
def test_parse_functions_rejects(value, says):
    with pytest.raises(ValueError, match=re.escape(says)):
        usage.parse_functions(value)


def test_own_functions(monkeypatch):
    src = ("from mylib.text import rx_sub\nimport mylib\n"
           "rx_sub('(a)', '\\1', s)\nmylib.text.rx_sub('\\bx', '', s)\n")
    assert results(src) == set()
    monkeypatch.setattr(Plugin, 'regex_functions', usage.parse_functions('mylib.text.rx_sub:0:1'))
    assert results(src) == {'3:16 ESC401', '4:20 ESC402'}


BAD = "import re\nhtml = re.sub(r'(\\w+)', '<\\1>', text)\nfound = re.search('\\bword', text)\n"


def test_end_to_end(tmp_path):
    (tmp_path / 'bad.py').write_text(BAD)
    assert flake8(tmp_path, '--select=ESC', 'bad.py') == (1, [
        "bad.py:2:27: ESC401 '\\1' is the control character U+0001, not a backreference; use r'\\1'",
        "bad.py:3:20: ESC402 '\\b' is a backspace in this regex, not a word boundary; use r'\\b'",
    ])


def test_option_from_the_config_file(tmp_path):
    (tmp_path / 'bad.py').write_text("import mylib\nmylib.rx_sub('(a)', '\\1', s)\n")
    config = '[flake8]\nselect = ESC\nescapes-regex-functions = mylib.rx_sub:0:1\n'
    (tmp_path / 'setup.cfg').write_text(config)
    code, out = flake8(tmp_path, 'bad.py')
    assert (code, [line.split(' ')[:2] for line in out]) == (1, [['bad.py:2:22:', 'ESC401']])


@pytest.mark.parametrize('where', ['command line', 'config file'])
def test_bad_option_value_stops_flake8_naming_the_option(tmp_path, where):
    (tmp_path / 'ok.py').write_text('x = 1\n')
    args = [sys.executable, '-m', 'flake8', 'ok.py']
    if where == 'command line':
        args.insert(3, '--escapes-regex-functions=mylib.rx_sub')
    else:
        (tmp_path / 'setup.cfg').write_text('[flake8]\nescapes-regex-functions = mylib.rx_sub\n')
    proc = subprocess.run(args, cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert proc.returncode != 0
    assert '--escapes-regex-functions' in proc.stderr
    assert "'mylib.rx_sub' is not NAME:PATTERN_POS[:REPL_POS]" in proc.stderr
    assert 'Traceback' not in proc.stderr


def test_labeled_set_precision_and_recall():
    score = labeled_score('regex_labeled.py', ('ESC401', 'ESC402'))
    assert score['hazard cases'] >= 40 and score['clean cases'] >= 40, score
    precision = score['tp'] / (score['tp'] + score['fp'])
    recall = score['tp'] / (score['tp'] + score['fn'])
    assert precision == 1.0, score
    assert recall >= 0.9, score


def test_grammar_library_through_the_option(monkeypatch):
    """The README's textX example: a grammar handed to metamodel_from_str."""
    src = "from textx import metamodel_from_str\nmeta = metamodel_from_str('''\nrule: /[0-9]+\\b/;\n''')\n"
    assert results(src) == set()
    monkeypatch.setattr(Plugin, 'regex_functions', usage.parse_functions('textx.metamodel_from_str:0'))
    assert results(src) == {'3:14 ESC402'}


if __name__ == '__main__':
    print(labeled_score('regex_labeled.py', ('ESC401', 'ESC402')))
