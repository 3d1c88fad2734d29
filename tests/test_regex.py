"""ESC401/ESC402 beyond the data cases: the option, and flake8 end to end.

Every import form and call shape is a case in tests/data/regex.py.
"""
from __future__ import annotations

import ast
import io
import re
import subprocess
import sys
import warnings

import hypothesis
import pytest

from flake8_escapes import apis, checks, regex, roles
from flake8_escapes.plugin import Plugin
from helpers import labeled_score, processor_for, results
from test_flake8 import flake8


@pytest.mark.parametrize('value, expected', [
    ('mylib.rx_sub:0:1',
     (apis.Api('mylib.rx_sub', apis.PATTERN, (0,)), apis.Api('mylib.rx_sub', apis.REPLACEMENT, (1,)))),
    (' a.b:0 , c::2 ', (apis.Api('a.b', apis.PATTERN, (0,)), apis.Api('c', apis.REPLACEMENT, (2,)))),
    ('', ()),
])
def test_parse_functions(value, expected):
    assert apis.parse_functions(value) == expected


@pytest.mark.parametrize('value, says', [
    ('mylib.rx_sub', 'is not NAME:PATTERN_POS[:REPL_POS]'),
    ('my-lib.f:0', 'is not NAME:PATTERN_POS[:REPL_POS]'),
    ('f:x', "argument position 'x' is not a whole number"),
    ('f::', 'names neither a pattern nor a replacement position'),
    ('f:0:1:2', 'is not NAME:PATTERN_POS[:REPL_POS]'),
])
def test_parse_functions_rejects(value, says):
    with pytest.raises(ValueError, match=re.escape(says)):
        apis.parse_functions(value)


def test_own_functions(monkeypatch):
    src = ("from mylib.text import rx_sub\nimport mylib\n"
           "rx_sub('(a)', '\\1', s)\nmylib.text.rx_sub('\\bx', '', s)\n")
    assert results(src) == set()
    monkeypatch.setattr(Plugin, 'regex_functions', apis.parse_functions('mylib.text.rx_sub:0:1'))
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
    monkeypatch.setattr(Plugin, 'regex_functions', apis.parse_functions('textx.metamodel_from_str:0'))
    assert results(src) == {'3:14 ESC402'}


if __name__ == '__main__':
    print(labeled_score('regex_labeled.py', ('ESC401', 'ESC402')))


def codes(src: str) -> set[str]:
    """The ESC4xx codes reported on ``src``."""
    return {item.split()[1] for item in results(src) if item.split()[1].startswith('ESC4')}


# --- exemptions: every entry keeps its README example quiet, and only it ----

#: Written by hand: a new exemption needs a line here, its example and its README bullet.
EXEMPTION_NAMES = [
    'discarded-string', 'printable-octal', 'character-class', 'groupless-marker', 'missing-group',
    'backspace-pattern',
    'terminal-controls', 'data-text', 'no-regex-role', 'escaped-backreference', 'nul-sentinel',
    'looked-for-marker',
]


def test_exemption_table_lists_each_rule_and_its_test():
    assert list(regex.EXEMPTIONS) == EXEMPTION_NAMES
    assert list(regex.APPLIES) == EXEMPTION_NAMES
    for name, exemption in regex.EXEMPTIONS.items():
        assert exemption.name == name
        assert set(exemption.codes) <= {'ESC401', 'ESC402'}
        assert exemption.rule.endswith('.') and '\n' not in exemption.rule


@pytest.mark.parametrize('name', EXEMPTION_NAMES)
def test_exemption_example_is_quiet_only_through_its_entry(name, monkeypatch):
    exemption = regex.EXEMPTIONS[name]
    assert codes(exemption.example) == set()
    monkeypatch.delitem(regex.EXEMPTIONS, name)
    assert codes(exemption.example) == set(exemption.codes)


@pytest.mark.parametrize('name', EXEMPTION_NAMES)
def test_exemption_is_recorded_as_the_silencer(name):
    exemption = regex.EXEMPTIONS[name]
    silenced: list[regex.Silenced] = []
    tree, tokens, lines = parts(exemption.example)
    assert not [r for r in checks.all_reports(tree, tokens, lines, (), silenced=silenced)
                if r.code.startswith('ESC4')]
    assert name in {item.exemption for item in silenced}


def parts(src: str) -> tuple[ast.AST, list, list[str]]:
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        processor = processor_for(lines=io.StringIO(src, newline=None).readlines())
        return processor.build_ast(), processor.file_tokens, processor.lines


# --- recognised functions: one hand-written call per table entry -------------

def _re_calls(module: str) -> dict[str, tuple[str, set[str]]]:
    """https://docs.python.org/3/library/re.html#functions, regex's extras."""
    pattern_only = ['compile', 'search', 'match', 'fullmatch', 'findall', 'finditer', 'split', 'template',
                    'splititer', 'subf', 'subfn']
    calls = {f'{module}.{name}': (f"{module}.{name}('\\bx', s)", {'ESC402'}) for name in pattern_only}
    calls[f'{module}.sub'] = (f"{module}.sub('\\bx', '(\\1)', s)", {'ESC401', 'ESC402'})
    calls[f'{module}.subn'] = (f"{module}.subn(pattern='\\bx', repl='(\\1)', string=s)", {'ESC401', 'ESC402'})
    return calls


TABLE_CASES = {
    'REGEX_FUNCTIONS': {**_re_calls('re'), **_re_calls('regex')},
    'OTHER_REGEX_FUNCTIONS': {
        'pytest.raises': ("import pytest\npytest.raises(E, match='\\bx')", {'ESC402'}),
        'pytest.warns': ("from pytest import warns\nwarns(W, match='\\bx')", {'ESC402'}),
        'pytest.deprecated_call': ("import pytest\npytest.deprecated_call(match='\\bx')", {'ESC402'}),
        'django.urls.re_path': ("from django.urls import re_path\nre_path('^a\\b', v)", {'ESC402'}),
        'django.conf.urls.url': ("from django.conf.urls import url\nurl('^a\\b', v)", {'ESC402'}),
        'django.conf.urls.re_path': ("from django.conf.urls import re_path\nre_path(route='x\\b', view=v)",
                                     {'ESC402'}),
        'django.core.validators.RegexValidator': (
            "from django.core.validators import RegexValidator\nRegexValidator(regex='^\\bx')", {'ESC402'}),
        'warnings.filterwarnings': ("import warnings\nwarnings.filterwarnings('ignore', '.*\\bx')",
                                    {'ESC402'}),
        'pyparsing.Regex': ("import pyparsing as pp\npp.Regex('(a)\\1')", {'ESC401'}),
        'nltk.tokenize.RegexpTokenizer': (
            "from nltk.tokenize import RegexpTokenizer\nRegexpTokenizer('\\bx')", {'ESC402'}),
        'nltk.RegexpTokenizer': ("import nltk\nnltk.RegexpTokenizer(pattern='\\bx')", {'ESC402'}),
        'nltk.tokenize.regexp_tokenize': (
            "from nltk.tokenize import regexp_tokenize\nregexp_tokenize(s, '\\bx')", {'ESC402'}),
        'nltk.regexp_tokenize': ("import nltk\nnltk.regexp_tokenize(s, pattern='\\bx')", {'ESC402'}),
    },
    'REGEX_METHODS': {
        'assertRegex': ("self.assertRegex(s, '\\bx')", {'ESC402'}),
        'assertNotRegex': ("self.assertNotRegex(s, unexpected_regex='\\bx')", {'ESC402'}),
        'assertRaisesRegex': ("self.assertRaisesRegex(E, '\\bx', f)", {'ESC402'}),
        'assertWarnsRegex': ("case.assertWarnsRegex(W, expected_regex='\\bx')", {'ESC402'}),
        'assertRegexpMatches': ("self.assertRegexpMatches(s, '\\bx')", {'ESC402'}),
        'assertNotRegexpMatches': ("self.assertNotRegexpMatches(s, '\\bx')", {'ESC402'}),
        'assertRaisesRegexp': ("self.assertRaisesRegexp(E, expected_regexp='\\bx')", {'ESC402'}),
        'filter': ("df.filter(regex='\\bx')", {'ESC402'}),
    },
    'PANDAS_REGEX_METHODS': {
        name: (f"df.str.{name}('\\bx')", {'ESC402'})
        for name in ('contains', 'count', 'extract', 'extractall', 'findall', 'fullmatch', 'match')
    },
    'PANDAS_REGEX_IF_ASKED': {
        'replace': ("df.str.replace('\\bx', '(\\1)', regex=True)", {'ESC401', 'ESC402'}),
        'split': ("df.str.split(pat='\\bx', regex=True)", {'ESC402'}),
    },
    'PANDAS_FRAME_REGEX_IF_ASKED': {
        'replace': ("df.replace('\\bx', '(\\1)', regex=True)", {'ESC401', 'ESC402'}),
    },
    'PATTERN_SUB_METHODS': {
        'sub': ("p = re.compile(x)\np.sub('(\\1)', s)", {'ESC401'}),
        'subn': ("re.compile(x).subn('(\\1)', s)", {'ESC401'}),
    },
    'PATTERN_MATCH_METHODS': {
        name: (f"m = re.compile(x).{name}(s)\nm.expand('(\\1)')", {'ESC401'})
        for name in ('match', 'search', 'fullmatch')
    },
    'MATCH_EXPAND': {
        'expand': ("m = re.fullmatch(x, s)\nm.expand('(\\1)')", {'ESC401'}),
    },
    'COMPILE_FUNCTIONS': {
        name: (f"p = {name}(x)\np.sub('(\\1)', s)", {'ESC401'}) for name in ('re.compile', 'regex.compile')
    },
    'MATCH_FUNCTIONS': {
        f'{module}.{name}': (f"m = {module}.{name}(x, s)\nm.expand('(\\1)')", {'ESC401'})
        for module in ('re', 'regex') for name in ('match', 'search', 'fullmatch')
    },
    'LEXER_WORDS': {
        name: (f"{imports}\nclass L(RegexLexer):\n    tokens = {{'root': [(words(w, suffix='x\\b'), K)]}}",
               {'ESC402'})
        for name, imports in (
            ('pygments.lexer.words', 'from pygments.lexer import RegexLexer, words'),
            ('words', 'from pygments.lexer import *'),
        )
    },
}


def _table_cases():
    for table, cases in TABLE_CASES.items():
        for name, (src, expected) in cases.items():
            yield pytest.param(src, expected, id=f'{table}:{name}')


def table_names(table: str) -> set[str]:
    """The names in one of ``apis``' tables: a group of rows, or a set of names."""
    return {row.name if isinstance(row, apis.Api) else row for row in getattr(apis, table)}


def test_every_table_entry_has_a_case():
    for table, cases in TABLE_CASES.items():
        assert set(cases) == table_names(table), table


@pytest.mark.parametrize('src, expected', list(_table_cases()))
def test_table_entry_is_recognised(src, expected):
    assert codes(src) == expected


#: A marker looked for by each of these methods, or by 'in', keeps quiet.
LOOKUPS = ['split', 'rsplit', 'replace', 'find', 'rfind', 'index', 'rindex', 'count', 'startswith',
           'endswith', 'partition', 'rpartition', 'strip', 'lstrip', 'rstrip', 'removeprefix',
           'removesuffix']


def test_every_lookup_method_has_a_case():
    assert sorted(apis.LOOKUP_METHODS) == sorted(LOOKUPS)


@pytest.mark.parametrize('method', LOOKUPS)
def test_a_marker_looked_for_is_quiet(method):
    src = f"import re\ns = re.sub('(a)', '\\1', s)\nt = s.{method}('\\1')\n"
    assert codes(src) == set()
    assert codes(src.replace(f's.{method}(', 's.join(')) == {'ESC401'}


@pytest.mark.parametrize('spelled', ['\\a', '\\f', '\\v', '\\r', '\\x1b', '\\x00', '\\0'])
def test_terminal_controls_beside_a_backspace(spelled):
    assert codes(f"import re\nre.compile('(x\\b|{spelled})')\n") == set()


def test_terminal_controls_table():
    assert regex.TERMINAL_CONTROLS == frozenset('\a\f\v\r\x1b\x00')


@pytest.mark.parametrize('marker', [
    '\\w', '\\W', '\\d', '\\D', '\\s', '\\S', '\\.', '\\(', '\\)', '\\[', '\\]', '\\+', '\\*', '\\?',
    '\\|', '\\$', '\\^', '\\A', '\\Z', '\\B', '\\g<',
])
def test_regex_only_escape_makes_text_read_like_a_regex(marker):
    assert codes(f"x = '(a)\\1 {marker} . . . . . . . . . . . . . . . .'\n") == {'ESC401'}
    assert marker in regex.REGEX_ONLY_ESCAPES


# --- scopes, classes, role lookup ---------------------------------------------

@pytest.mark.parametrize('text, members', [
    ('[\\b]', [1]),
    ('x[]a\\b]', [4]),          # ']' first is a member
    ('x[^]a\\b]', [5]),
    ('[]]\\b', []),
    ('[\\\\\\\\]\\b', []),        # the value '[\\\\]': a class of one backslash, then '\\b'
    ('\\[\\b]', []),            # an escaped '[' opens nothing
    ('[a\\]\\b]', [4]),          # the value '\\]' is an escaped ']': still in the class
    ('[a]\\b[\\b]', [6]),
])
def test_character_classes(text, members):
    found = [offset for offset in range(len(text))
             if text.startswith('\\b', offset) and regex.in_character_class(text, offset)]
    assert found == members


def test_role_at_picks_the_first_role_in_list_order_among_nested_ones():
    outer = roles.Role((1, 0), (3, 5), roles.PATTERN)
    inner = roles.Role((2, 4), (2, 9), roles.REPLACEMENT)
    later = roles.Role((5, 0), (5, 9), roles.PATTERN)
    found = roles.Roles([later, inner, outer])
    assert roles.role_at(found, 2, 5, (roles.PATTERN, roles.REPLACEMENT)) is inner
    assert roles.role_at(found, 2, 5, (roles.PATTERN,)) is outer
    assert roles.role_at(found, 3, 5, (roles.PATTERN,)) is None
    assert roles.role_at(found, 5, 3, (roles.PATTERN,)) is later
    assert roles.role_at([outer], 1, 0, (roles.PATTERN,)) is outer   # a plain list works too
    assert roles.role_at(found, 4, 0, (roles.PATTERN,)) is None


def _in_a_set(value: str, marker: str) -> bool:
    """Does re read ``marker`` inside a set?  Put a reversed range in its
    place: only inside a set is 'z-y' an error (a bad character range)."""
    try:
        re.compile(value.replace(marker, 'z-y'))
    except re.error as error:
        return 'bad character range' in str(error)
    return False


@hypothesis.settings(max_examples=300, deadline=None)
@hypothesis.given(hypothesis.strategies.lists(
    hypothesis.strategies.sampled_from(['[', ']', '^', 'a', '\\\\', '\\]', '\\[', 'M', 'M']), max_size=12))
def test_character_classes_agree_with_re(parts):
    """Each marker (a distinct '\\xNN') is in a class for us exactly when re reads it in a set."""
    markers = iter(range(1, 40))
    text = ''.join(f'\\x{next(markers):02x}' if part == 'M' else part for part in parts)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')  # invalid escapes kept ('\\]'); FutureWarning: nested set
        value = text.encode('latin-1').decode('unicode_escape')
        try:
            re.compile(value)
        except re.error:
            return
        for match in re.finditer(r'\\x([0-9a-f]{2})', text):
            if text[:match.start()].encode('latin-1').decode('unicode_escape').endswith('\\'):
                continue  # re reads it escaped: the oracle below cannot tell
            expected = _in_a_set(value, chr(int(match[1], 16)))
            assert regex.in_character_class(text, match.start()) == expected, (text, match[0])


def test_explain_silenced_names_the_code_and_the_exemption():
    silenced: list[regex.Silenced] = []
    tree, tokens, lines = parts("import re\nre.compile('\\1\\n'), re.sub('.\\b', '', s)\n")
    assert list(checks.all_reports(tree, tokens, lines, (), silenced=silenced)) == []
    # the list is shared with the paths family ('.\\b' is no path either)
    assert list(regex.explain_silenced(item for item in silenced if item.code.startswith('ESC4'))) == [
        "2:13: ESC401 '\\1' silenced by groupless-marker",
        "2:30: ESC402 '\\b' silenced by backspace-pattern",
    ]


@pytest.mark.parametrize('pattern', [
    '(a)', '(a)(b)', '(?:a)(b)', '(?P<n>a)(?=b)', r'\((a)\)', '[(](a)', '[]()](a)', '[^](](a)(b)',
    '(?i)(a)', '((a)(b))', r'[\]()](a)',
])
def test_groups_opened_agrees_with_re(pattern):
    """The count ``missing-group`` relies on, against re's own count."""
    assert roles.groups_opened(ast.parse(repr(pattern), mode='eval').body) == re.compile(pattern).groups
