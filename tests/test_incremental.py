"""``api.Linter``: a text linted again after each edit, its AST parsed again only where it changed
(``chunks.Chunked``), gives exactly what ``api.lint`` gives the whole text, and its AST is exactly
``ast.parse``'s (positions included), after random sequences of edits (hypothesis)."""
from __future__ import annotations

import ast
import io
import warnings

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
