"""Issue 40, items 5, 8, 10 and 11: ESC602's doctest reading is linear, a Windows
path in a docstring is ESC501's (not TeX's), generated parser data made of
escapes is not a path, and a ``\\\\`` that leaves an escape in a doctest example
is ESC602 when the example doctest runs or expects is not the one written."""
from __future__ import annotations

from flake8_escapes import doctests


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
