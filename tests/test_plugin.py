"""The flake8 glue (``flake8_escapes.plugin``) in process: what it leaves as it found it."""
from __future__ import annotations

import ast
import gc
import warnings

import pytest

from flake8_escapes import checks
from flake8_escapes.plugin import Plugin

SRC = "import re\nPATTERN = re.compile('\\d+')\n"


@pytest.mark.parametrize('enabled', [True, False])
def test_the_collector_is_paused_while_the_checks_run_then_as_it_was(monkeypatch, enabled):
    """The checks run with the cyclic garbage collector paused (a third of the time on a
    file of a thousand f-strings, ``tests/scaling.py``), and it is left as it was found."""
    seen = []
    all_reports = checks.all_reports

    def watched(*args, **kwargs):
        seen.append(gc.isenabled())
        yield from all_reports(*args, **kwargs)

    monkeypatch.setattr(checks, 'all_reports', watched)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')  # the compiler's own warning about the escape
        tree = ast.parse(SRC)
    was = gc.isenabled()
    (gc.enable if enabled else gc.disable)()
    try:
        found = list(Plugin(tree, SRC.splitlines(True)).run())
        after = gc.isenabled()
    finally:
        (gc.enable if was else gc.disable)()
    assert [row[:2] for row in found] == [(2, 22)]
    assert seen == [False]
    assert after is enabled
