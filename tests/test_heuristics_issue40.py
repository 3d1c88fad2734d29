"""Issue 40, items 5, 8, 10 and 11: ESC602's doctest reading is linear, a Windows
path in a docstring is ESC501's (not TeX's), generated parser data made of
escapes is not a path, and a ``\\\\`` that leaves an escape in a doctest example
is ESC602 when the example doctest runs or expects is not the one written."""
from __future__ import annotations

import ast
import doctest
import warnings

import pytest

from flake8_escapes import doctests, fix, paths
from helpers import results


class CountingLine(str):
    """A line that counts the characters read from it by index or slice."""

    read = 0

    def __getitem__(self, key):  # type: ignore[override]
        part = str.__getitem__(self, key)
        CountingLine.read += len(part)
        return part


def test_doctest_strings_are_read_in_linear_work():
    """Item 5: each quote's prefix is read back to the first character that is not
    a letter, not the whole line again (n strings on a line cost n^2 on 0.4.0)."""
    for n in (100, 1000):
        line = CountingLine('[' + "'w\\x01', " * n + "rb'x']")
        CountingLine.read = 0
        for code in (True, False):
            doctests._Strings().places(line, code)
        assert CountingLine.read <= 6 * len(line), (n, CountingLine.read)


@pytest.mark.parametrize('docstring, col', [
    ('Write the report to C:\\data\\root.', 34),
    ('Values live under HKEY_LOCAL_MACHINE\\Software\\value.', 52),
    ('Saved in D:\\work\\tiny.', 23),
    ('Saved in C:\\docs\\title', 23),
])
def test_windows_path_in_a_docstring_is_esc501_not_tex(docstring, col):
    """Item 8: the last part of a path or a registry key that spells a TeX command
    gets the path's code, ESC501, and no ESC601 (0.4.0: ESC601 "cuts TeX's \\root")."""
    src = f'def f():\n    """{docstring}"""\n'
    found = {item for item in results(src) if item.endswith(('ESC501', 'ESC601'))}
    assert found == {f'2:{col + 1} ESC501'}


@pytest.mark.parametrize('src', [
    'def f():\n    """Angle $x:\\theta$ and C:\\data\\root."""\n',   # inside $...$: TeX's
    'import matplotlib.pyplot as plt\nplt.title("Map f:\\theta\\to y")\n',  # an API that takes TeX
])
def test_tex_where_tex_is_written_keeps_esc601(src):
    assert any(item.endswith('ESC601') for item in results(src))


ANTLR = ('from io import StringIO\n'
         'def serializedATN():\n'
         '    with StringIO() as buf:\n'
         '        buf.write(".\\30\\2\\u008b\\u008c\\78\\2\\2\\u008c\\u008d\\7\\t\\2\\2\\u008d\\u008e")\n'
         '        buf.write("..\\30\\2\\u008b\\u008c\\7f\\2\\2")\n'
         '        return buf.getvalue()\n')


def test_parser_data_made_of_escapes_is_not_a_path():
    """Item 10: ANTLR 4.9's serialized ATN chunk that starts with '.' (0.4.0: every
    octal and control escape of it got ESC501, 62 reports in the blind draw)."""
    assert not {item for item in results(ANTLR) if item.endswith('ESC501')}


@pytest.mark.parametrize('body', [
    '.\\30\\2\\u008b\\u008c\\78\\2\\2', '..\\training\\new_memo.doc', 'C:\\\\data\\\\2020\\\\x.txt',
    '.\\t\\2\\4\\3\\t\\3\\x41\\U0001F600\\\\', 'caf\\xe9\\N{BULLET}', '\\\\d\\\\w+\\\\'
])
def test_escape_counts_add_up_to_cpythons_value(body):
    """``escaped-data`` counts the numbered escapes and the value's other characters: together they
    are as many as the characters of the value CPython makes (the text as ``as_fixed`` spells it)."""
    text = paths.as_fixed(body)
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        value = ast.literal_eval(f"'{text}'")
    numbered, others = paths.escape_counts(text)
    assert numbered + others == len(value)


def strings_of(example: str) -> list[str]:
    """The str constants of an example's source as CPython compiles it (warnings recorded, not raised)."""
    with warnings.catch_warnings(record=True):
        warnings.simplefilter('always')
        tree = ast.parse(example)
    return [node.value for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)]


def runs_as_meant(src: str) -> bool:
    """By doctest's own parser, on the docstring's value: does no example run a string with a
    control character in it (a path's ``\\t`` read as a tab), and is every quoted expected output
    the repr of the value it spells (``'2 \\| 5'`` is no repr)?"""
    docstring = ast.get_docstring(ast.parse(src).body[0], clean=False) or ''
    for example in doctest.DocTestParser().get_examples(docstring):
        if any(char < ' ' for text in strings_of(example.source) for char in text):
            return False
        want = example.want.strip()
        with warnings.catch_warnings(record=True):
            warnings.simplefilter('always')  # '2 \\| 5': an invalid escape, kept
            if want[:1] in '\'"' and repr(ast.literal_eval(want)) != want:
                return False
    return True


ITEM_11 = [
    ('def format_path(path):\n    """>>> format_path("test_folder\\\\test_file")\n'
     "    'test_folder/test_file'\n    \"\"\"\n", {'2:36 ESC602'}),
    ('def normalize_path(path):\n    """>>> normalize_path("src\\\\path\\\\to\\\\file.obj")\n'
     "    'src/path/to/file.obj'\n    \"\"\"\n", {'2:37 ESC602', '2:41 ESC602'}),
    ("def row(cells):\n    \"\"\">>> row(['2 | 5'])\n    '2 \\\\| 5'\n    \"\"\"\n", {'3:8 ESC602'}),
    ("def digits(s):\n    \"\"\">>> re.sub('\\\\d+', '#', s)\n    '#'\n    \"\"\"\n", set()),
    ("def tabbed():\n    \"\"\">>> tabbed()\n    'a\\\\tb'\n    \"\"\"\n", set()),
    ("def temp():\n    \"\"\">>> temp()\n    'C:\\\\\\\\temp'\n    \"\"\"\n", set()),
]


@pytest.mark.parametrize('src, expected', ITEM_11)
def test_doubled_backslash_in_a_doctest_example(src, expected):
    """Item 11: ESC602 where the one backslash a ``\\\\`` leaves in a non-raw docstring makes an
    escape that changes what doctest runs or expects (judged here by doctest and CPython), quiet
    where it is what the example means."""
    assert {item for item in results(src) if item.endswith('ESC602')} == expected
    assert runs_as_meant(src) == (not expected)
    fixed = fix.fix_text(src, set(fix.SAFE + fix.UNSAFE)).text
    assert runs_as_meant(fixed) and fix.fix_text(fixed, set(fix.SAFE + fix.UNSAFE)).text == fixed
