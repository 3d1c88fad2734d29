"""The scaling benchmark's inputs at their large size: no error, the reports
they were written to give (tests/scaling.py times them; nothing is timed here).

Slow until the regex module's per-candidate costs are linear: ``-m scaling``.
"""
from __future__ import annotations

import ast
import warnings

import pytest

import scaling

from flake8_escapes import fix

pytestmark = pytest.mark.scaling


@pytest.mark.parametrize('dimension', scaling.DIMENSIONS, ids=lambda d: d.name)
def test_large_size_gives_one_report_per_item(dimension):
    size = dimension.base * 10
    chains = 20 if dimension.source is scaling.terms_in_a_chain else 1
    # One report per item: per literal, escape, call, \b; one per chain (its '\b').
    expected = chains if chains > 1 else size
    assert scaling.reports(dimension.source(size)) == expected


def parses(src: str) -> bool:
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        try:
            ast.parse(src)
        except (RecursionError, MemoryError, SyntaxError):
            return False
    return True


def test_longest_chain_cpython_parses():
    """A '+' chain as long as this CPython parses (3.10: 100,000 terms; 3.11 to
    3.13: a few thousand) gives its report without a RecursionError."""
    size = next(n for n in (100_000, 30_000, 10_000, 5_000, 2_500, 2_000, 1_500, 1_000)
                if parses(scaling.terms_in_a_chain(n, chains=1)))
    assert scaling.reports(scaling.terms_in_a_chain(size, chains=1)) == 1


#: The fixer's dimensions (issue 24 item 7): ``python tests/scaling.py`` times them.
FIXING = [d for d in scaling.DIMENSIONS if d.fixing is not None]


@pytest.mark.parametrize('dimension', FIXING, ids=lambda d: d.name)
def test_large_size_is_fixed_and_a_second_run_changes_nothing(dimension):
    src = dimension.source(dimension.base * 10)
    fixed = fix.fix_text(src, dimension.fixing)
    assert fixed.text != src and scaling.reports(fixed.text) < scaling.reports(src)
    assert fix.fix_text(fixed.text, dimension.fixing).text == fixed.text


@pytest.mark.parametrize('dimension', scaling.MEMORY, ids=lambda d: d.name)
def test_memory_grows_linearly(dimension):
    """Item 8 of issue 34: the peak memory of check, fix and the plugin on one long row at 10x
    the literals is at most 15x (on CPython 3.12.1 it was 73x to 91x: each token held a copy
    of the row). Memory, not time: the same on a busy machine."""
    small, large = scaling.memory_ratio(dimension)
    assert large / small <= scaling.TARGET, (small, large)


@pytest.mark.parametrize('dimension', scaling.NOTEBOOK_DIMENSIONS, ids=lambda d: d.name)
def test_large_notebook_gives_four_reports_per_code_cell(tmp_path, dimension):
    """10,000 cells: check gives ESC601, ESC401, ESC301 and ESC501 in each code cell; fix --unsafe
    fixes them all."""
    size = dimension.base * 10
    result = scaling.notebook_work(dimension, size, str(tmp_path))()
    if dimension.codes is None:
        assert len(result[1]) == 4 * (size - 1)
        assert {place[0] for *_, place in result[1]} == set(range(2, size + 1))
    else:
        assert sorted(set(result.result.fixed)) == ['ESC301', 'ESC401', 'ESC501', 'ESC601']
        assert len(result.result.fixed) == 4 * (size - 1)
