"""ESC305's fix: each backslash that escapes the closing quote of a Windows path, repaired so
that the literal ends where meant and its value is the path with one backslash at its end.

A non-raw literal gets the backslash doubled (``'C:\\data\\'`` -> ``'C:\\data\\\\'``); a raw one,
which cannot end in one backslash, is closed before it and a ``'\\\\'`` joined to it
(``r'C:\\reports\\'`` -> ``r'C:\\reports' '\\\\'``, ``quotes.repair``).  Where the file also holds
escapes CPython refuses and ESC304 is being fixed, ESC304's repair runs on the result, and a
literal that it makes raw (``'C:\\Users\\'``) gets the raw repair instead of the doubled
backslash, which a raw literal would keep as two.  The file must parse afterwards, or nothing
is changed; from there the usual rounds and their proofs run on it.
"""
from __future__ import annotations

import io
import tokenize
from bisect import bisect_right

from flake8_escapes import quotes, source
from flake8_escapes.fix import plan, refused
from flake8_escapes.fix.files import Edit, apply
from flake8_escapes.fix.proof import parse

CODE = 'ESC305'


def repair(text: str, codes: set[str]) -> refused.Repair | None:
    """The ESC305 repairs of normalized ``text`` (which does not parse), with ESC304's
    (``refused.repair``) when ``codes`` holds it and the text needs them, if the text then
    parses; None when it does not, or when there is nothing to repair."""
    if CODE not in codes:
        return None
    found = _not_silenced(text, quotes.escaped_quotes(text))
    if not found:
        return None
    edits = [Edit(item.line, item.col, *quotes.repair(item)) for item in found]
    fixed = [CODE] * len(found)
    try:
        return refused.Repair(edits, fixed, parse(apply(text, edits)))
    except (SyntaxError, ValueError):
        pass
    if refused.CODE not in codes:
        return None
    # ESC304's repair, on the text with every closing backslash doubled (the literals end where
    # meant, the columns after each backslash one further); a literal it makes raw gets the raw repair.
    more = refused.repair(quotes.doubled(text, found))
    if more is None:
        return None
    made_raw = {(edit.line, edit.col) for edit in more.edits if edit.length == 0 and edit.text.strip() == 'r'}
    starts = quotes.row_starts(text)
    found = [_raw(item) if _begin(starts, item.begin) in made_raw else item for item in found]
    edits = [Edit(item.line, item.col, *quotes.repair(item)) for item in found]
    edits += [_unshifted(edit, found) for edit in more.edits]
    try:
        return refused.Repair(edits, fixed + more.fixed, parse(apply(text, edits)))
    except (SyntaxError, ValueError):
        return None


def _not_silenced(text: str, found: list[quotes.Closing]) -> list[quotes.Closing]:
    """Those of ``found`` that no ``# noqa`` silences (read on the text with their
    backslashes doubled: the text as written does not tokenize)."""
    if not found or 'noqa' not in text.lower():
        return found
    lines = io.StringIO(quotes.doubled(text, found), newline='').readlines()
    try:
        noqa = source.noqa_lines(plan.tokens_of(lines), lines)
    except (SyntaxError, tokenize.TokenError, SystemError):
        return []  # its # noqa cannot be read: left alone
    return [item for item in found if not plan.silenced(CODE, noqa.get(item.line))]


def _raw(item: quotes.Closing) -> quotes.Closing:
    """``item`` in a literal that ESC304's repair makes raw."""
    return item._replace(prefix='r' + item.prefix)


def _begin(starts: list[int], offset: int) -> tuple[int, int]:
    """(line, 0-based col) of ``offset``."""
    row = bisect_right(starts, offset)
    return row, offset - starts[row - 1]


def _unshifted(edit: Edit, found: list[quotes.Closing]) -> Edit:
    """An edit on the text whose closing backslashes ``found`` were doubled, at its place
    in the text as written (one column less per backslash doubled before it on its row)."""
    cols = sorted(item.col for item in found if item.line == edit.line)
    shift = sum(1 for index, col in enumerate(cols) if col + index < edit.col)
    return edit._replace(col=edit.col - shift)
