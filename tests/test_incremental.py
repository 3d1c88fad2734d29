"""``api.Linter``: a text linted again after each edit, its AST parsed again only where it changed
(``chunks.Chunked``), gives exactly what ``api.lint`` gives the whole text, and its AST is exactly
``ast.parse``'s (positions included), after random sequences of edits (hypothesis)."""
from __future__ import annotations

import ast
import io
import random
import warnings

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from flake8_escapes import api, chunks

#: Lines that make and break statements across chunk edges: blocks, brackets and strings that span
#: lines, continuations, decorators, docstrings, imports that give a literal its role, noqa.
LINES = [
    'import re\n', 'import os\n', 'from re import sub\n', 'x = 1\n', "y = '\\d'\n", "p = 'C:\\new'\n",
    "found = re.sub(r'(a)', '<\\1>', s)\n", "found = sub('(a)', '\\1', s)\n", "os.path.join('a\\b')\n",
    'def f():\n', '    """Doc \\d."""\n', "    return '\\w'\n", '    pass\n', 'class C:\n', '@deco\n',
    'z = [\n', ']\n', ')\n', "'\\q',\n", 'w = (1 +\n', 'v = 1 + \\\n', '"""\n', "s = '''\n", "'''\n",
    '# a comment\n', '\n', '    \n', "t = '\\d'  # noqa: ESC301\n", "u = '\\777'\n", "k = 'C:\\Users'\n",
    '    >>> print("\\d")\n', 'if x:\n', 'else:\n', "r = b'\\d'\n", "q = f'{x}\\d'\n", '\x0c\n',
    '    y = 2\n', 'x = 1; z = 2\n', "s = 'a\u2028\\d'\n", 'x = 2\r\n', 'x = 3\r', 'x = (\n',
    'g = f"""{x}\n', '\\d{y!r:>{w}}"""\n', "h = f'{x:\\d}' 'C:\\temp'\n", "b = rb'\\d' b'\\q'\n",
    "p = re.compile('\\b' + x)\n", "a = 'x' \\\n", "  '\\d'\n",
]

texts = st.lists(st.sampled_from(LINES), max_size=30)
edit = st.tuples(st.sampled_from(['insert', 'delete', 'replace', 'char']), st.integers(0, 40),
                 st.sampled_from(LINES), st.sampled_from(['\\', "'", '"', ' ', '(', '#', 'd', '\n', ':']))


def edited(lines: list[str], kind: str, at: int, line: str, char: str) -> list[str]:
    lines = list(lines)
    index = at % (len(lines) + 1)
    if kind == 'insert':
        lines.insert(index, line)
    elif lines and kind == 'delete':
        del lines[index % len(lines)]
    elif lines and kind == 'replace':
        lines[index % len(lines)] = line
    elif lines:
        text = ''.join(lines)
        spot = (at * 7) % (len(text) + 1)
        lines = (text[:spot] + char + text[spot:]).splitlines(keepends=True)
    return lines


def outcome(lint, text: str, prefilter: bool) -> object:
    """The diagnostics, or the exception the engine raised (the same either way: on 3.12+, a
    triple-quoted f-string that holds a form feed line makes ``lint``'s pre-filter raise
    IndexError in ``source._formatted_tokens``, on main too)."""
    try:
        return lint(text, prefilter=prefilter)
    except Exception as error:
        return type(error).__name__


def read(text: str) -> list[str]:
    """The lines as the API reads them: split at line ends only (a form feed, U+2028: none)."""
    return io.StringIO(text, newline='').readlines()


def dumped(parse, text: str) -> str:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            return ast.dump(parse(text), include_attributes=True)
    except (SyntaxError, ValueError) as error:
        return f'{type(error).__name__}'


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texts, st.lists(edit, max_size=8), st.integers(1, 4))
def test_each_edit_is_linted_and_parsed_as_the_whole_text(start, edits, size):
    linter = api.Linter(size)
    parser = chunks.Chunked(size)
    lines = start
    for step in [None, *edits]:
        if step is not None:
            lines = edited(lines, *step)
        text = ''.join(lines)
        for prefilter in (False, True):
            assert outcome(linter.lint, text, prefilter) == outcome(api.lint, text, prefilter), text
        assert dumped(lambda source: parser.parse(source, read(source)), text) == \
            dumped(ast.parse, text), text


def test_an_edit_parses_only_the_chunks_it_touched():
    lines = [f'def f{n}():\n    return {n}\n' for n in range(100)]
    parser = chunks.Chunked(10)
    text = ''.join(lines)
    parser.parse(text, read(text))
    assert parser.parsed_lines == 200 and len(parser.chunks) == 20
    lines[50] = 'def f50():\n    return "changed"\n'
    text = ''.join(lines)
    assert ast.dump(parser.parse(text, read(text))) == ast.dump(ast.parse(text))
    assert parser.parsed_lines == 10  # one chunk: its 10 lines
    lines.insert(50, 'x = 1\n')  # a line more: the chunks after it are parsed at their new place
    text = ''.join(lines)
    assert ast.dump(parser.parse(text, read(text)), include_attributes=True) == \
        ast.dump(ast.parse(text), include_attributes=True)


def test_a_chunk_whose_later_line_changed_is_read_again():
    """The tokens kept for a chunk are those of its whole text at its place: an escape changed
    on its third line, the first line the same, is seen (and one on a line added before it)."""
    linter = api.Linter(10)
    lines = ['import re\n', 'x = [\n', "    'a',\n", ']\n', *(f'y{n} = {n}\n' for n in range(30))]
    changes = ((2, "    '\\d',\n"), (2, "    '\\q\\w',\n"), (3, "] + ['\\777']\n"), (0, 'import os\n'))
    for index, line in changes:
        lines[index] = line
        text = ''.join(lines)
        assert linter.lint(text) == api.lint(text), text
        assert linter.lint(text) != [] or '\\' not in text
    lines.insert(1, "z = '\\d'\n")
    text = ''.join(lines)
    assert linter.lint(text) == api.lint(text)
    assert len(api.lint(text)) == 4  # \d, \q, \w, \777


def test_an_edit_scans_only_the_chunks_it_touched():
    """The escapes of a chunk that stands the same at the same place are not scanned again
    (``Linter._scan``); the diagnostics are the whole text's, and a line added before the other
    chunks has them scanned at their new place."""
    linter = api.Linter(10)
    lines = [f"def f{n}():\n    return re.sub('a', '<\\1>', 'C:\\new{n}')\n" for n in range(100)]
    text = ''.join(['import re\n', *lines])
    assert linter.lint(text) == api.lint(text) != []
    assert linter.scanned == len(linter.scans) == len(linter.chunks.chunks) > 10
    lines[50] = "def f50():\n    return '\\d'\n"
    text = ''.join(['import re\n', *lines])
    assert linter.lint(text) == api.lint(text)
    assert linter.scanned == 1
    text = ''.join(['import re\n', '\n', *lines])
    assert linter.lint(text) == api.lint(text)
    assert linter.scanned == len(linter.chunks.chunks)


#: More lines for the fixer's plans: names that give a literal a role from another statement,
#: f-strings' '=' text, t-strings (3.14), noqa (a file's too), a future import that changes the
#: grammar, expression statements that would read as the module's docstring alone, ESC303.
FIX_LINES = [
    *LINES, "P = '(a)\\d\\1'\n", "re.sub(P, 'x', s)\n", "re.compile(Q)\n", "Q = '\\d\\w'\n",
    "x = f'{y=}\\d'\n", "x = f'{y!r}\\q{\"\\d\"=}'\n", "x = t'{y}\\d'\n", "x = t'\\d{y=}'\n",
    '# flake8: noqa\n', 'from __future__ import barry_as_FLUFL\n', 'x = 1 <> 2\n', "'\\d'\n",
    '"""Mod \\d.\n', "w = '\\d' '\\q' 'x\\n'\n", "v = 'a\\d\\777'  # noqa: ESC303\n", "u = b'\\777\\d'\n",
    "def g(x='\\d'):\n", "    '''>>> print('\\d')'''\n", "re.sub('(a)', '\\1', s)  # noqa: ESC401\n",
    "m = '\\d'; n = '\\1'\n", "open('C:\\data\\d.txt')\n",
]


#: Whole statements, so that more of the texts parse (where the plan of one may be local).
BLOCKS = [
    'import re\n', 'def f():\n    """Doc \\d."""\n    return \'\\w\'\n', "class C:\n    x = '\\d'\n",
    "@deco\ndef g(x='\\d'):\n    pass\n", "z = [\n'\\q',\n]\n", "s = '''\n\\d\n'''\n", 'x = (1 +\n  2)\n',
    "a = 'x' \\\n  '\\d'\n", "if x:\n    y = '\\d'\nelse:\n    y = 2\n", 'g = f"""{x}\n\\d{y!r:>{w}}"""\n',
    "t = '\\d'  # noqa: ESC301\n", "u = '\\777'\n", "'\\d'\n", "x = f'{y=}\\d'\n", "x = t'{y}\\d'\n",
    "m = '\\d'; n = '\\w'\n", "v = 1 + \\\n  len('\\d')\n", '# a comment \\\n', '\n', "P = '(a)\\d\\1'\n",
    "re.sub(P, 'x', s)\n", "h = f'{x:\\d}' 'C:\\temp'\n", "def k():\n    return '''\n>>> '\\d'\n'''\n",
    "x = f'{y!r}\\q{\"\\d\"=}'\n", "w = '\\d' '\\q' 'x\\n'\n", "u = b'\\777\\d'\n",
]


def planned(plan, *args: object) -> object:
    """``plan(*args)``, or the name of the exception it raised (the same either way)."""
    try:
        return plan(*args)
    except Exception as error:  # noqa: PIE786 - compared, not hidden
        return type(error).__name__


def linted(linter: api.Linter, lines: list[str], steps: list) -> object:
    """(text, diagnostics) of each text ``linter`` lints: ``lines``, then after each of ``steps``
    (``edited``'s arguments).  A text that makes the engine raise is left out (both raise:
    test_each_edit_is_linted_and_parsed_as_the_whole_text's)."""
    for step in [None, *steps]:
        if step is not None:
            lines = edited(lines, *step)
        text = ''.join(lines)
        try:
            found = linter.lint(text)
        except Exception:  # noqa: PIE786 - see above
            continue
        yield text, found


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(FIX_LINES), max_size=25) | st.lists(st.sampled_from(BLOCKS), max_size=25),
       st.lists(edit, max_size=3), st.integers(1, 4))
def test_a_quick_fix_planned_on_its_statement_is_the_whole_text_s(start, edits, size):
    """``Linter.fixes`` plans a safe diagnostic's fix on its top-level statements alone where that
    is sure to give ``fixes``' plan on the whole text: for random texts, after random edits, every
    diagnostic's plan is the whole text's, edits, codes, what is left alone and why."""
    linter = api.Linter(size)
    for text, found in linted(linter, start, edits):
        for item in found:
            assert planned(linter.fixes, text, [item]) == planned(api.fixes, text, [item]), (text, item)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(FIX_LINES), max_size=25) | st.lists(st.sampled_from(BLOCKS), max_size=25),
       st.lists(edit, max_size=3), st.integers(1, 4))
def test_fix_all_made_of_its_statements_plans_is_the_whole_text_s(start, edits, size):
    """``Linter.fix_all`` plans fix-all run by run of top-level statements where that is sure to
    give ``fix``'s plan on the whole text, and keeps each run's plan while it stands the same: for
    random texts, after random edits, the plan is the whole text's (text, edits, codes, what is
    left alone and why)."""
    linter = api.Linter(size)
    for text, _ in linted(linter, start, edits):
        assert planned(linter.fix_all, text) == planned(api.fix, text), text


def test_fix_all_made_of_its_statements_plans_on_texts_drawn_by_seed():
    """The same, on 300 texts drawn by seed with three random edits each (hypothesis's draws
    missed what these found first: the codes fixed in the order the fixer gives them, sorted)."""
    draw = random.Random(20261207)
    local = 0
    for _ in range(300):
        pool = draw.choice([FIX_LINES, BLOCKS])
        lines = [draw.choice(pool) for _ in range(draw.randint(0, 30))]
        linter = api.Linter(draw.randint(1, 4))
        steps = []
        for _ in range(3):
            kind = draw.choice(['insert', 'delete', 'replace', 'char'])
            char = draw.choice(['\\', "'", '"', ' ', '(', '#', 'd', '\n', ':'])
            steps.append((kind, draw.randint(0, 40), draw.choice(pool), char))
        for text, _ in linted(linter, lines, steps):
            assert planned(linter.fix_all, text) == planned(api.fix, text), text
        local += linter.local_plans
    assert local > 50  # the plans made of statements' plans are among them


def test_fix_all_is_planned_on_its_statements_and_an_edit_replans_one():
    """On a long text, fix-all is made of its statements' plans (the whole text's plan), and after
    an edit only the edited statement's plan is made again."""
    blocks = [f"def f{n}(text):\n    found = re.search(r'\\d+{n}', text)\n    return '\\d{n}'\n"
              for n in range(300)]
    text = 'import re\n' + ''.join(blocks)
    linter = api.Linter()
    linter.lint(text)
    assert linter.fix_all(text) == api.fix(text) and linter.local_plans == 1
    assert len(linter.run_plans) == 300
    made = dict(linter.run_plans)
    blocks[150] = blocks[150].replace("'\\d150'", "'\\w150'")
    text = 'import re\n' + ''.join(blocks)
    linter.lint(text)
    assert linter.fix_all(text) == api.fix(text) and linter.local_plans == 2
    assert [key for key in linter.run_plans if made.get(key) is not linter.run_plans[key]] == [
        key for key in linter.run_plans if "'\\w150'" in ''.join(key[1])]
    assert linter.fix_all(text + '# changed\n') == api.fix(text + '# changed\n')  # not the text linted
    assert linter.local_plans == 2


def test_a_safe_quick_fix_is_planned_on_its_statement_alone():
    """On a long text, the plan of a safe diagnostic's fix is made on its statement alone (its
    edit the whole text's), and only for the text last linted."""
    blocks = [f"def f{n}(text):\n    found = re.search(r'\\d+{n}', text)\n    return '\\d{n}'\n"
              for n in range(300)]
    text = 'import re\n' + ''.join(blocks)
    linter = api.Linter()
    found = linter.lint(text)
    assert len(found) == 300
    for item in (found[0], found[150], found[-1]):
        assert linter.fixes(text, [item]) == api.fixes(text, [item])
    assert linter.local_plans == 3
    assert linter.fixes(text, [found[150]])[0].edits == [api.Edit(found[150].line, 11, 0, 'r')]
    other = text.replace('f7(', 'g7(')  # not the text last linted: the whole text's plan
    assert linter.fixes(other, [found[150]]) == api.fixes(other, [found[150]])
    assert linter.local_plans == 4


@pytest.mark.parametrize('text, line', [
    # its literal's role comes from another statement: an unsafe report in the statement
    ("import re\np = '(a)\\d\\1'\nre.sub(p, 'x', s)\n", 2),
    # a noqa may silence an unsafe report: Fix.unsafe_left is the whole text's
    ("x = '\\d'\nimport re\nre.sub('(a)', '\\1', s)  # noqa: ESC401\n", 1),
    # an unsafe diagnostic
    ("import re\nre.sub('(a)', '\\1', s)\n", 2),
])
def test_a_quick_fix_is_planned_on_the_whole_text_where_its_statement_is_not_enough(text, line):
    linter = api.Linter()
    item = next(item for item in linter.lint(text) if item.line == line)
    assert linter.fixes(text, [item]) == api.fixes(text, [item])
    assert linter.local_plans == 0
