"""ESC301-ESC303 agree with CPython: generated literals and the standard library.

See tests/differential.py for how a literal is compared one escape at a time.
"""
from __future__ import annotations

import sys
import warnings

import pytest
from hypothesis import HealthCheck, given, settings

import differential

PY = sys.version_info[:2]


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(differential.source())
def test_generated_literals_agree_with_cpython(src):
    tally = differential.compare_source(src)
    assert tally.disagreements == []


@pytest.mark.parametrize('src, reason', [
    ("'\\é'", 'non-ascii'),
    pytest.param("'\\777'", 'octal-before-3.11',
                 marks=pytest.mark.skipif(PY >= (3, 11), reason='CPython warns since 3.11')),
    pytest.param("f'{x:a\\}'", 'spec-brace-before-3.12',
                 marks=pytest.mark.skipif(PY >= (3, 12), reason='CPython warns since 3.12')),
])
def test_intended_differences_are_the_only_ones(src, reason):
    tally = differential.compare_source(f'x = 1\nv = {src}\n')
    assert tally.disagreements == []
    assert tally.intended == {reason: 1}


def test_harness_catches_a_missed_escape():
    """The comparison fails when a report is missing (the harness can fail)."""
    tally = differential.Tally()
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        differential.compare_literal("'\\d\\q'", [(1, 'ESC301')], tally, 'x')
    assert [d[1] for d in tally.disagreements] == ['cpython-only']


def test_harness_catches_an_extra_report():
    tally = differential.Tally()
    differential.compare_literal("'\\\\d'", [(2, 'ESC301')], tally, 'x')
    assert [d[1] for d in tally.disagreements] == ['ours-only']


@pytest.mark.slow
def test_standard_library_agrees_with_cpython():
    paths = differential.stdlib_files()
    tally = differential.compare_files(paths, differential.Tally())
    # Every file there is compared, however many the distribution ships
    # (Debian's 3.14 ships the stdlib's own tests apart: about 630 files).
    assert len(paths) > 500
    assert tally.files + tally.skipped == len(paths)
    assert tally.skipped < len(paths) / 20
    assert tally.disagreements == []
    # ESC4xx and ESC5xx on the same files: none (pydoc's backspace patterns
    # are meant; no literal there is a Windows path with escapes in it).
    assert tally.family_reports == []
