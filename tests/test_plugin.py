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


def test_a_files_checks_leave_no_reference_cycle():
    """The role pass's objects (``names.Names``, whose bound methods refer back to it and to
    its owner) are freed by their reference counts, the file's AST with them: otherwise
    they wait for the cyclic collector, which ``check`` pauses while it checks a file."""
    src = "import re\nPATTERN = '\\bword'\nre.search(PATTERN, TEXT)\n"
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        tree = ast.parse(src)
    lines = src.splitlines(True)
    assert list(Plugin(tree, lines).run())  # the role pass ran (a regex candidate); imports done
    gc.collect()
    was = gc.isenabled()
    gc.disable()
    try:
        found = [(line, col, message.split()[0]) for line, col, message, _ in Plugin(tree, lines).run()]
        gc.set_debug(gc.DEBUG_SAVEALL)
        cycles = gc.collect()
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if was:
            gc.enable()
    assert found == [(2, 11, 'ESC402')]
    assert cycles == 0
