"""The plugin tokenizes a file only when a backslash may stand in a literal and be reported.

Each expected value is written from the source text; each case is also
checked against the checks run on the whole file's tokens: a file said to
need no tokens must have no report.
"""
from __future__ import annotations

import ast
import io
import sys
import tokenize
import warnings
from itertools import compress
from typing import Iterator

import pytest
from flake8.main.application import Application

from flake8_escapes import checks, escapes, literals, paths, rules, source
from helpers import parsed, reports

import differential


def lines_of(src: str) -> list[str]:
    return io.StringIO(src, newline=None).readlines()


def whole_file_reports(tree: ast.AST, lines: list[str]) -> list[tuple[int, int, str]]:
    """The checks' reports on the whole file's tokens (what no skipping may change)."""
    tokens = source.file_tokens(lines)
    return [(r.line, r.col, r.rule.code) for r in checks.all_reports(tree, tokens, lines, ())]


@pytest.mark.parametrize('src, needs', [
    ('x = 1\n', False),                                      # no backslash at all
    ('# C:\\new \\d\nx = 1\n', False),                       # a comment line
    ('x = f(1)  # \\d here\n', False),                       # a comment after code
    ('x = 1 + \\\n    2\n', False),                          # a line continuation
    ('def f():\n    # \\d\n    return 1\n', False),          # a comment in a body
    ("x = '\\d'\n", True),                                   # in a literal
    ("x = '#' + '\\d'\n", True),                             # a '#' in a string before it
    ("x = 'a'  # \\d\n", True),                              # a quote before the '#': not sure
    ("x = 'a\\d\\\nb'\n", True),                             # a string continued
    ('"""Doc.\n\n# \\d\n"""\n', True),                       # a '#' line in a docstring
    ('x = """a\nb \\d\\\n"""\n', True),                      # a continuation in a string
    # Rows whose escapes no check reports, whatever literal they stand in (source.quiet):
    ("x = 'a\\\nb'\n", False),                               # a continuation in a string
    ('x = """a\nb \\\n"""\n', False),                        # ... in a triple-quoted one
    ("x = 'a\\'b\\\\c\\\"'\n", False),                       # escaped quotes and backslashes
    ("x = 'a\\n\\t\\r\\x41'.join(y)\n", False),              # everyday escapes, no path there
    ("x = '\\n'.join(os.path.join(a, b))\n", False),          # dots, but no path's
    ("x = '\\n'; y = 'b.txt'\n", True),                       # a file name on the row: looked at
    ("x = 'into a program:\\n'\n", False),                   # a colon, not a drive's
    ("x = '\\u00e9\\U0001f600'\n", False),                   # \u in a file with no bytes literal
    ("x = '\\u00e9'\ny = b'a'\n", True),                     # ... with one (\u is ESC302 there)
    ("x = b'''a\n\\u00e9'''\n", True),                       # ... the row inside one
    ("x = '\\u00e9'\ny = 'b' + 'B'\n", False),                # ... 'b' and 'B' are str literals
    ("x = '\\u00e9'\ny = b'a'b'c'\n", True),                 # ... concatenated bytes
    ("x = '\\u00e9'\ny = [rb'a']\n", True),                  # ... a raw one, after a bracket
    ("x = '\\u00e9'\ny = 'ab' 'c'\n", False),                # ... a str that ends in b
    ("x = 'C:\\new'\n", True),                               # ... but in a path (ESC501)
    ("x = '\\new.txt'\n", True),                             # a file name after a separator
    ("x = 'data\\new.txt'\n", True),                         # names ending in one
    ("x = '.\\new'\n", True),                                # a relative start
    ("x = '\\\\\\\\srv\\new'\n", True),                      # a UNC start
    ('x = "C:\\it\'s\\new"\n', True),                        # a quote in a path
    ("x = '''C:\\it's\\new'''\n", True),                     # ... in a triple-quoted one
    ("x = 'C:\\it\\'s\\new'\n", True),                       # ... escaped in its own quotes
    ("x = f'{a[\"k\"]}C:\\new'\n", True),                    # an f-string's field
    ("x = b'\\u00e9'\n", True),                              # \u is invalid in bytes (ESC302)
    ("x = '\\b'\n", True),                                   # a backspace (ESC402)
    ("x = '\\1'\n", True),                                   # an octal escape (ESC401)
    ('@dec("""\n# \\d\n""")\ndef f():\n    pass\n', True),   # in a decorator's string
    ('x = (1 +  # \\d\n     2)\n', False),                  # a comment inside brackets
    ('x = 1 \\ # \\d\n', True),                              # not a continuation (a syntax error)
])
def test_needs_tokens(src, needs):
    lines = lines_of(src)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')  # the compiler's own escape warnings
        try:
            tree = ast.parse(src)
        except SyntaxError:  # the last case
            tree = ast.Module(body=[], type_ignores=[])
    assert source.needs_tokens(tree, lines) is needs
    if not needs:  # the ground truth: no report on the whole file's tokens
        assert whole_file_reports(tree, lines) == []


#: One row per family that the row filter (``source.reportable_rows``) must keep,
#: in a file whose other rows are quiet, and the code reported there.
KEPT_ROWS = [
    ("x = '\\n'\ny = '\\d'\nz = '\\t'\n", 2, 'ESC301'),                     # ESC3: an invalid escape
    ("import re\nx = '\\n'\nre.sub('a', '\\1', s)\n", 3, 'ESC401'),         # ESC4: a regex's octal escape
    ("x = '\\n'\nopen('C:\\new\\data.txt')\n", 2, 'ESC501'),               # ESC5: a Windows path
    ("x = '\\n'\ny = '$\\theta$'\n", 2, 'ESC601'),                           # ESC601: a TeX command
    (rules.ESC602.bad, 4, 'ESC602'),                                          # ESC602: a doctest example
]


@pytest.mark.parametrize('src, row, code', KEPT_ROWS, ids=[code for _, _, code in KEPT_ROWS])
def test_the_row_filter_keeps_each_familys_rows(src, row, code):
    lines = lines_of(src)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')  # the compiler's own escape warnings
        tree = ast.parse(src)
    assert source.reportable_rows(lines, source.Statements(tree, len(lines))) == [row]
    assert (row, code) in {(line, found) for line, _, found in whole_file_reports(tree, lines)}


@pytest.mark.parametrize('text, holds', [
    ("b'a'", True),                 # at the start of the text
    ("x = b'a'", True),
    ('x = B"a"', True),
    ("x = rb'a'", True),            # raw, either order, any case
    ("x = bR'a'", True),
    ("x = Rb'a'", True),
    ("x = 'ab'", False),            # a str that ends in b
    ("x = 'a' 'b'", False),         # 'b' is a str
    ("x = sub'a'", False),          # after a letter (not valid Python: no prefix)
    ("x = _b'a'", False),
    ("x = rrb'a'", False),
    ("x = 'a'b'c'", False),         # after a quote
    ("b'a'r", True),                # an r at the text's end is not before the prefix
    ('x = 1', False),
])
def test_holds_bytes(text, holds):
    assert escapes.holds_bytes(text) is holds


@pytest.mark.parametrize('src', [
    'a = """x\n"""; b = \'\\d\'\n',                        # a string ends where the statement starts
    '@dec(\'\\d\')\ndef f():\n    return \'\\e\'\n',        # a decorator, a nested statement
    'match x:\n    case \'\\d\':\n        pass\n',           # a case pattern (between statements)
    'try:\n    pass\nexcept E(\'\\d\'):\n    pass\n',         # an except clause
    'if x: y = \'\\d\'\nelse: z = \'\\e\'\n',               # clauses and bodies on one row
    'x = 1 + \\\n    len(\'\\d\')\n',                      # a continuation, then a literal
    'x = [\n    \'\\d\',\n]\n',                             # a literal inside brackets
    'class A:\n\tx = \'\\d\'\n\n\n# \\d\n',                    # tabs; a comment after the class
    'def f():\n    x = 1\n    if x:\n        return f\'{x:\\d}\' \'\\e\'\n',  # f-string, indented
    'x = 1; y = (\'a\'  # \\d \'\n     \'\\e\' r"\\f" """\\g\n""")\n',  # parts read from the text
    'x = \'\\d\'; y = 2\n',                                      # code after it on its row
    'x = 1 if y else \'\\d\'; z = \'\\e\'\n',                     # two statements' literals on a row
    'd = {\n    \'k\': \'a\\\\b\\d\',\n    \'m\': b\'\\e\' B\'\\f\',\n}\n',  # a table of literals
    'x = "\\d" \\\n    "\\e"\n',                                  # parts joined by a continuation
    'def f(a=\'\\d\'):\n    return \'\\e\'\n',                    # a default, a body
    'x = \'\u00e9\u00e9\\d\' + \'\\e\'\n',                         # wide characters before it
    'x = (\'\\d\'\n     # \'\n     \'\\e\')\n',                   # a quote in a comment between parts
])
def test_statements_give_the_files_escapes(src):
    lines = lines_of(src)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')  # the compiler's own escape warnings
        tree = ast.parse(src)
    some, whole = source.tokens_for(tree, lines), source.file_tokens(lines)
    assert 0 < len(some)
    expected = list(literals.escapes(whole, lines))
    assert expected  # each case has escapes to find
    assert list(literals.escapes(some, lines)) == expected


def test_a_lone_carriage_return_is_tokenized():
    """Rows of the AST and of the lines may differ then: no skipping on the AST's word."""
    lines = ['# \\d\r\n', 'x = 1\n']
    assert source.needs_tokens(ast.parse(''.join(lines)), lines)


def test_file_tokens_is_flake8s():
    lines = lines_of("x = '\\d'\n")
    assert source.file_tokens(lines) == differential.processor_for(lines=lines).file_tokens


def test_tokens_hold_their_rows_own_string():
    """Item 8 of issue 34: CPython 3.12.0-3.12.3 copy the whole line into every token; kept, the tokens
    of one long row of literals took memory quadratic in its length (a 50 KB row: 850 MB in check
    and fix). The same tokens as flake8's, those of a row sharing one string as their line."""
    lines = lines_of('x = [' + "'\\d', " * 1000 + ']\ny = """a\n\\d"""\n')
    tokens = source.file_tokens(lines)
    assert len(tokens) > 2000
    flake8s = differential.processor_for(lines=lines).file_tokens
    assert [tok[:4] for tok in tokens] == [tok[:4] for tok in flake8s]
    assert len({id(tok.line) for tok in tokens if tok.start[0] == 1}) == 1


@pytest.fixture
def generate_tokens_calls(monkeypatch):
    calls = []
    original = tokenize.generate_tokens

    def counting(*args, **kwargs):
        calls.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(tokenize, 'generate_tokens', counting)
    return calls


def test_no_tokenizing_without_a_backslash_in_a_literal(generate_tokens_calls):
    assert reports('import re\n# re.sub("(a)", "\\1", s)\nx = 1 + \\\n    2\n') == []
    assert generate_tokens_calls == []


def test_no_tokenizing_for_str_and_bytes_literals_alone_on_their_rows(generate_tokens_calls):
    assert [report[:2] for report in reports("x = 1\ny = '\\d'\nz = (1,\n     b'\\N')\n")] == [(2, 6), (4, 8)]
    assert generate_tokens_calls == []


def test_one_tokenizing_for_an_f_string(generate_tokens_calls):
    assert [report[:2] for report in reports("x = 1\ny = f'\\d'\n")] == [(2, 7)]
    assert len(generate_tokens_calls) == 1


def test_one_tokenizing_for_a_row_with_another_statements_literal(generate_tokens_calls):
    assert [report[:2] for report in reports("x = 'a'; y = '\\d'\n")] == [(1, 15)]
    assert len(generate_tokens_calls) == 1


def test_a_tokenize_error_is_flake8s_e902(tmp_path, monkeypatch, capsys):
    """As when flake8's file_tokens raised for the plugin: E902, not a crash.

    No source is known that parses but does not tokenize, so tokenize is
    made to fail here.
    """
    def failing(lines):
        raise tokenize.TokenError('EOF in multi-line statement', (2, 0))

    monkeypatch.setattr(source, 'file_tokens', failing)
    (tmp_path / 'a.py').write_text("x = f'\\d'\n")  # an f-string is tokenized
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')  # the compiler's own escape warnings
        Application().run(['--isolated', '--jobs=1', '--select=E,ESC', str(tmp_path / 'a.py')])
    out = capsys.readouterr().out.splitlines()
    assert out == [f'{tmp_path / "a.py"}:2:1: E902 TokenError: EOF in multi-line statement']


def stdlib_parsed() -> Iterator[tuple[str, ast.AST, list[str], list[tokenize.TokenInfo]]]:
    """Each standard library file that parses, as flake8 prepares it."""
    for path in differential.stdlib_files():
        parts = parsed(path)
        if parts is not None:
            yield (path, *parts)


@pytest.mark.slow
def test_standard_library_skips_only_files_without_a_report():
    skipped_with_backslash = skipped_with_escape = files = 0
    for path, tree, lines, tokens in stdlib_parsed():
        files += 1
        if not source.needs_tokens(tree, lines):
            if any('\\' in tok.string for tok in tokens if tok.type != tokenize.COMMENT):
                skipped_with_escape += 1
                assert list(checks.all_reports(tree, tokens, lines, ())) == [], path
            skipped_with_backslash += bool(source.backslash_rows(lines))
    # Comments, continuations and quiet rows are skipped on real code: 355 of
    # 1,784 files on 3.11, 307 of them with a backslash in a literal.
    assert skipped_with_backslash >= files // 20
    assert skipped_with_escape >= files // 20


@pytest.mark.slow
def test_standard_library_statements_give_the_files_escapes():
    """Tokens of the statements that hold backslashes give every escape, at
    the place the whole file's tokens give it."""
    partial = files = 0
    for path, tree, lines, tokens in stdlib_parsed():
        files += 1
        some = source.tokens_for(tree, lines)
        partial += 0 < len(some) < len(tokens)
        found = list(literals.escapes(some, lines, paths.PathJudge(some, lines)))
        expected = list(literals.escapes(tokens, lines, paths.PathJudge(tokens, lines)))
        # Each escape found is the whole file's, at its place; none is missed but on a quiet row.
        assert set(found) <= set(expected), path
        quiet = set(source.backslash_rows(lines)) - set(source.reportable_rows(lines))
        assert [item for item in expected if item not in found and item.line not in quiet] == [], path
        assert list(checks.all_reports(tree, some, lines, ())) == list(
            checks.all_reports(tree, tokens, lines, ())), path
    # Files read in part (the rest are all quiet, or have no backslash): 461 of
    # 1,784 on 3.11, 442 of 1,707 on 3.10, 139 of 626 on Debian's 3.14.
    assert partial > files // 6


@pytest.mark.slow
def test_standard_library_literals_read_from_the_text_are_the_tokenizers():
    """Every str and bytes literal of the standard library outside an f- or
    t-string, read from its text at the AST's place, gives the tokenizer's
    STRING tokens (text, start, end)."""
    literals_read = 0
    for path, tree, lines, tokens in stdlib_parsed():
        strings = {tok.start: tok for tok in tokens if tok.type == tokenize.STRING}
        stack: list[ast.AST] = [tree]
        while stack:
            for node in ast.iter_child_nodes(stack.pop()):
                if isinstance(node, source.FORMATTED_NODES):
                    continue
                if isinstance(node, ast.Constant) and isinstance(node.value, (str, bytes)):
                    read = source.string_tokens(node, lines)
                    assert read, (path, node.lineno)
                    for tok in read:
                        expected = strings[tok.start]
                        assert tok[:3] == expected[:3], path
                        # 3.12.1 gives a multi-line token's end column in bytes of
                        # the whole token (the checks do not use that column there)
                        if tok.start[0] == tok.end[0] or sys.version_info[:2] != (3, 12):
                            assert tok.end == expected.end, path
                    literals_read += 1
                stack.append(node)
    assert literals_read > 20_000


# -- literals lexed without the AST (source.lexed_literals), and checks.may_report ---------------

#: The tokenizer gives an f-string's parts as other tokens (3.12+): lexed_literals says None there.
SPLIT_FSTRINGS = not source.FSTRING_IS_STRING


def tokenizers_literals(tokens: list[tokenize.TokenInfo], rows: list[int]) -> list[tokenize.TokenInfo]:
    """Those of a file's ``tokens`` that ``lexed_literals`` gives for ``rows``:
    each STRING token that holds a backslash and spans one of them, and on
    3.12+ all the tokens of each such f- or t-string, FSTRING_START to END."""
    found = []
    index = 0
    while index < len(tokens):
        tok = tokens[index]
        end = index
        if tok.type in literals.START_TYPES:
            end = literals_end(tokens, index)
        elif tok.type != tokenize.STRING:
            index += 1
            continue
        group = tokens[index:end + 1]
        if (any('\\' in part.string for part in group)
                and any(tok.start[0] <= row <= group[-1].end[0] for row in rows)):
            found.extend(group)
        index = end + 1
    return found


def literals_end(tokens: list[tokenize.TokenInfo], index: int) -> int:
    """The index of the FSTRING_END (TSTRING_END) of the f-string (t-string) whose START is at ``index``."""
    depth = 0
    for end in range(index, len(tokens)):
        if tokens[end].type in literals.START_TYPES:
            depth += 1
        elif tokens[end].type in literals.END_TYPES:
            depth -= 1
            if not depth:
                return end
    raise AssertionError('an f-string without its end')


@pytest.mark.parametrize('src, rows, same', [
    ("x = '\\d'\n", [1], True),                                    # one literal
    ("x = '\\d'\ny = '\\e'\n", [2], True),                          # only those on the rows
    ('x = """\nr\'\\d\'\n"""\n', [2], True),                       # a row inside a triple-quoted string
    ("x = r'''\n'\\d'\n'''\n", [2], True),                         # ... a raw one: not the row's own r
    ('x = """a \'\'\' b\n\\d"""\n', [2], True),                    # the other triple quote inside
    ('x = """it\'s\n"""\ny = \'\\d\'\n', [3], True),                # a quote in an earlier string
    ("# it's here\nx = '\\d'\n", [2], True),                       # a quote in a comment
    ("x = 1  # 'a\ny = \"\\d\"  # b'\n", [2], True),               # ... after code, open quotes
    ("x = '#' + '\\d'  # '\n", [1], True),                          # a '#' in a string
    ("x = 'a\\\n\\d'\n", [2], True),                               # a string continued on the row
    ("x = 1 + \\\n    '\\d'\n", [2], True),                        # a line continuation in code
    ("x = [rb'\\d', Rb'\\d', BR'\\d', u'\\d', b'\\d']\n", [1], True),  # prefixes, any case
    ("def f():\n    return'\\d'\n", [2], True),                    # a keyword before the quote
    ("if'\\d'in x: pass\n", [1], True),                             # 'if' ends in f: not a prefix
    ("x = 'a''\\d' 'b'\n", [1], True),                              # parts side by side
    ("x = ''\ny = '''\\d'''\n", [2], True),                        # an empty string, a triple-quoted one
    ("x = f'{a}{b:>{w}}'\ny = '\\d'\n", [2], True),                  # an f-string before the row
    ("x = f'{{}}'  # '\ny = '\\d'\n", [2], True),                   # doubled braces
    ("x = F'{a}\\d'\n", [1], True),                            # an f-string on the row (3.12+: its parts)
    ("x = rf'{a:>{w}}\\d{{'\n", [1], True),                     # raw, a nested field, a doubled brace
    ("x = f'''{a}\n\\d{b!r}\n'''\n", [2], True),                # a triple-quoted one over rows
    ("x = (f'\\{a}'\n     f'{b}\\t')\n", [1, 2], True),        # a backslash before a field; two parts
    ("x = f'{a[\"k\"]}' + '\\d'\n", [1], True),       # a quote in a field (3.12+: its end tokenized)
    ("x = f'{a!r:#>4}'\ny = '\\d'\n", [2], True),       # a '#' in a field's spec
    ("x = f'\\N{DASH}{a}'\ny = '\\d'\n", [2], True),   # \N{...} is no field
    ("x = f\\\n    + '\\d'\n", [2], True),                # a name f, then a line continuation
    # a t-string (3.14+) with no backslash is left alone, as an f-string is (before 3.14 't' is no prefix)
    *([("x = t'{a}' + '\\d'\n", [1], True)] if source.FORMATTED_PREFIXES > {'t'} else []),
])
def test_lexed_literals_are_the_tokenizers(src, rows, same):
    lines = lines_of(src)
    lexed = source.lexed_literals(lines, rows)
    if same:
        assert lexed is not None
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')  # 3.12+'s tokenizer warns about the escapes
            expected = tokenizers_literals(source.file_tokens(lines), rows)
        assert [tuple(tok[:4]) for tok in lexed] == [tuple(tok[:4]) for tok in expected]
        assert all(tok.line == lines[tok.start[0] - 1] for tok in lexed)  # the first row, as read_literals'
    else:
        assert lexed is None


@pytest.mark.parametrize('src, rows', [
    ("x = '\\d\n", [1]),                                 # a literal that does not end
    ("x = '''\\d\n", [1]),
    ("x = 'a\\\ny' + \"\\d\n", [2]),
    ("x = '\\d'\r# a lone CR\n", [1]),                   # rows the lines and the tokenizer count apart
])
def test_lexed_literals_none_when_unsure(src, rows):
    assert source.lexed_literals(lines_of(src) if '\r' not in src else src.splitlines(True), rows) is None


@pytest.mark.skipif(source.FSTRING_IS_STRING, reason='PEP 701: 3.12+')
@pytest.mark.parametrize('src', [
    'x = f"{a["k"]}" + \'\\d\'\n',                          # the f-string's own quote in a field
    'x = f"{a + "}"}" + \'\\d\'\n',                          # ... with a brace
    'x = f"""{a # }\n}""" + \'\\d\'\n',                      # a comment in a field
    'x = f"{\'}\' + "\\d"}"\n',                                # a field the plain rule ends wrongly
    'x = f"{f"{a["k"]}" + "\\d"}" + "\\d"\n',                 # nested, each with its own quotes
    "x = f'{a\n}' + '\\d'\n",                                  # a field over two rows
    'x = f"{a["k"]}"  # "\ny = "\\d"\n',                       # a comment after it, with a quote
    'x = (f"{a["k"]}",\n     "\\d", f"""{b[\'"\']}\n\\t""")\n',  # then a triple-quoted one
])
def test_lexed_literals_of_pep701_fields_are_the_tokenizers(src):
    """The rule of ``STRING_LITERAL`` may end an f-string whose fields hold quotes wrongly (3.12+):
    its end is the tokenizer's (``literals.formatted_end``), and the lexing goes on from there."""
    lines = lines_of(src)
    rows = source.backslash_rows(lines)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        compile(src, '<case>', 'exec', flags=ast.PyCF_ONLY_AST)  # each case is valid code here
        expected = tokenizers_literals(source.file_tokens(lines), rows)
    lexed = source.lexed_literals(lines, rows)
    assert lexed is not None
    assert [tuple(tok[:4]) for tok in lexed] == [tuple(tok[:4]) for tok in expected]


@pytest.mark.skipif(source.FSTRING_IS_STRING, reason='PEP 701: 3.12+')
@pytest.mark.parametrize('src', [
    'x = f"{a["k"] + "\n"' + " " * literals.LONG_ROW + '}" + \'\\d\'\n',   # its row is too long to tokenize
    'x = f"{a["k"]\n' + "'\\d'\n",                               # it does not end
])
def test_lexed_literals_none_for_pep701_fields(src):
    lines = lines_of(src)
    assert source.lexed_literals(lines, source.backslash_rows(lines)) is None


def test_lexed_literals_without_rows():
    assert source.lexed_literals(lines_of("x = '\\d'\n"), []) == []


@pytest.mark.parametrize('src, may', [
    ("x = '\\d'\n", True),                                     # ESC301
    ("x = b'\\u00e9'\n", True),                                 # ESC302
    ("x = '\\777'\n", True),                                    # ESC303
    ("x = re.sub('(a)', '\\1', s)\n", True),                    # an ESC401 candidate: the AST says
    ("x = '\\bword'\n", True),                                  # ... ESC402
    ("x = 'C:\\new\\a.txt'\n", True),                           # ESC501 from the text alone
    ("x = open('C:\\new')\n", True),                            # ESC501 if used as a path: the AST says
    ("x = '$\\theta$'\n", True),                                # an ESC601 candidate
    ('def f():\n    """>>> print(\'a\\tb\')"""\n', True),        # an ESC602 candidate
    ('def f():\n    """>>> f()\\n    2\n    """\n', False),       # ... none: a line break outside strings
    ("x = '\\N{EM DASH}'\n", False),                            # valid, and no check looks at it
    ("x = '\\u00e9'\ny = b'a'\n", False),                       # \u in a str (the row is not quiet)
    ("x = r'\\d\\1\\b'\n", False),                              # raw
    ("x = b'\\x00\\0'\n", False),                               # octal NUL in bytes, no path
    ("x = ('a'\n     '\\N{EM DASH}\\d')\n", True),                 # one escape of many
])
def test_may_report(src, may):
    lines = lines_of(src)
    rows = source.reportable_rows(lines)
    assert rows  # each case has a row to look at
    lexed = source.lexed_literals(lines, rows)
    assert lexed is not None
    assert checks.may_report(lexed, lines) is may
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        tree = ast.parse(src)
    if not may:  # the ground truth: no report on the whole file's tokens
        assert whole_file_reports(tree, lines) == []
    else:
        assert checks.may_report(source.file_tokens(lines), lines)


@pytest.mark.slow
def test_standard_library_lexed_literals_are_the_tokenizers():
    """Wherever ``lexed_literals`` answers, its tokens are the tokenizer's
    STRING tokens on the reportable rows; and a file ``may_report`` says
    nothing of has no report on the whole file's tokens."""
    lexed_files = skipped = files = 0
    for path, tree, lines, tokens in stdlib_parsed():
        rows = source.reportable_rows(lines)
        if not rows:
            continue
        files += 1
        lexed = source.lexed_literals(lines, rows)
        if lexed is None:
            continue
        lexed_files += 1
        expected = tokenizers_literals(tokens, rows)
        assert [tok[:3] for tok in lexed] == [tok[:3] for tok in expected], path
        # 3.12.1 gives a multi-line token's end column in bytes (see above)
        trusted = [tok.start[0] == tok.end[0] or sys.version_info[:2] != (3, 12) for tok in expected]
        assert list(compress((tok.end for tok in lexed), trusted)) == list(
            compress((tok.end for tok in expected), trusted)), path
        if not checks.may_report(lexed, lines):
            skipped += 1
            assert list(checks.all_reports(tree, tokens, lines, ())) == [], path
    # 3.11: 482 files with a reportable row, all lexed, 443 of them need no AST
    assert lexed_files > files * 3 // 4
    assert skipped > files // 2
