"""Issue 40, items 5, 8, 10 and 11: ESC602's doctest reading is linear, a Windows
path in a docstring is ESC501's (not TeX's), generated parser data made of
escapes is not a path, and a ``\\\\`` that leaves an escape in a doctest example
is ESC602 when the example doctest runs or expects is not the one written."""
from __future__ import annotations

import pytest

from flake8_escapes import doctests
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
    found = {item for item in results(f'def f():\n    """{docstring}"""\n') if item.endswith(('ESC501', 'ESC601'))}
    assert found == {f'2:{col + 1} ESC501'}


@pytest.mark.parametrize('src', [
    'def f():\n    """Angle $x:\\theta$ and C:\\data\\root."""\n',   # inside $...$: TeX's
    'import matplotlib.pyplot as plt\nplt.title("Map f:\\theta\\to y")\n',  # an API that takes TeX
])
def test_tex_where_tex_is_written_keeps_esc601(src):
    assert any(item.endswith('ESC601') for item in results(src))
