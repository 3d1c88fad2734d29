"""The fixer under attack (issue 24): one test per item, each named after it.

Expected values are CPython's: a fixed literal is evaluated by the compiler,
and what it must equal is the text the author wrote between the quotes (the
backslashes kept), not a value read back from the fixer.
"""
from __future__ import annotations

import ast
import sys
import warnings

import pytest

from flake8_escapes import fix, plugin
from helpers import processor_for, results

SAFE = set(fix.SAFE)
ALL = set(fix.SAFE + fix.UNSAFE)


def literal_values(source: str) -> list[object]:
    """The value of each str and bytes constant of ``source``, as CPython reads it."""
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')  # the escapes being fixed warn
        tree = ast.parse(source)
    return [node.value for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, (str, bytes))]


# 2. One edit per escape, even when two codes report it ------------------------

@pytest.mark.parametrize('source, meant', [
    # ESC401 (a replacement's \1) and ESC501 (a path) on the same '\1' of a u'' literal (no raw prefix)
    ("import re\nre.sub('(a)', u'C:\\1.txt', s)\n", 'C:\\1.txt'),
])
def test_item2_one_edit_per_escape_reported_by_two_codes(source, meant):
    places = [line.split()[0] for line in results(source)]
    assert len(places) > len(set(places))  # two codes at one escape
    fixed = fix.fix_text(source, ALL).text
    assert meant in literal_values(fixed)
    assert fix.fix_text(fixed, ALL).text == fixed  # a second run changes nothing


# 3. ESC303 and ESC501 on one escape: the path keeps its backslash -------------

@pytest.mark.parametrize('source, meant', [
    ("open('C:\\temp\\477.txt')\n", 'C:\\temp\\477.txt'),
    ("open(u'C:\\temp\\477.txt')\n", 'C:\\temp\\477.txt'),
    ("open(b'C:\\data\\400\\new.txt')\n", b'C:\\data\\400\\new.txt'),
])
def test_item3_octal_overflow_in_a_path_keeps_the_backslash(source, meant):
    assert {'ESC303', 'ESC501'} <= {line.split()[1] for line in results(source)}
    fixed = fix.fix_text(source, ALL).text
    assert literal_values(fixed)[-1] == meant
    assert fix.fix_text(fixed, ALL).text == fixed


def test_item3_message_on_a_bytes_octal_names_the_byte():
    source = "open(b'C:\\data\\400\\new.txt')\n"
    processor = processor_for(lines=source.splitlines(True))
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        tree = processor.build_ast()
    messages = [message for _, _, message, _ in plugin.Plugin(tree, processor.lines).run()
                if message.startswith('ESC501') and "'\\400'" in message]
    assert messages, 'ESC501 is reported on \\400'
    assert all('U+0100' not in message and '\\x00' in message for message in messages)


# 1. The whole module's AST is the proof of a safe fix --------------------------

def module_dump(source: str) -> str:
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')  # the escapes being fixed warn
        return ast.dump(ast.parse(source))


@pytest.mark.parametrize('source, since', [
    # the '=' debug text holds the field's text: r"\d" would show in the value
    ("x = f'{\"\\d\"=}'\n", (3, 12)),
    ("x = f'{f\"\\d\"=}'\n", (3, 12)),
    ("x = f'{\"\\d\"=}' + f'{\"\\d\"}'\n", (3, 12)),
    # a t-string interpolation's expression is the field's text
    ("x = t'{\"\\d\"}'\n", (3, 14)),
    ("x = t'{\"\\d\"=}'\n", (3, 14)),
])
def test_item1_safe_fix_keeps_the_module_ast(source, since):
    if sys.version_info < since:
        pytest.skip('a backslash in a field: 3.12+; t-strings: 3.14+')
    assert 'ESC301' in {line.split()[1] for line in results(source)}
    result = fix.fix_text(source, SAFE)
    assert module_dump(result.text) == module_dump(source)
    assert result.left_alone  # and says so


# 4. A safe fix does not make an ESC401 report disappear -----------------------

@pytest.mark.parametrize('source', [
    # no regex role; doubling '\w' made it a backslash in every four characters ('data-text')
    "x = '(\\w+)\\1'\n",
    "x = '(\\d)-\\1'\n",
])
def test_item4_safe_fix_keeps_the_esc401_it_does_not_fix(source):
    assert 'ESC401' in {line.split()[1] for line in results(source)}
    result = fix.fix_text(source, SAFE)
    assert 'ESC401' in {line.split()[1] for line in results(result.text)}
    assert result.unsafe_left == ['ESC401']  # what is left for --unsafe is said
    assert literal_values(result.text) == literal_values(source)
