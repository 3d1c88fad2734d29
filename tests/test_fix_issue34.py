"""The fixer under attack, round four (issue 34): one test per item, each named after it.

Expected values are CPython's: what a fixed f-string or t-string shows is
evaluated by the running CPython, before and after the fix.
"""
from __future__ import annotations

import os
import sys
import warnings

import pytest

from flake8_escapes import cli, fix
from flake8_escapes.fix import plan, proof
from helpers import results

SAFE = set(fix.SAFE)
ALL = set(fix.SAFE + fix.UNSAFE)


def shown(source: str) -> object:
    """What CPython makes of ``x``'s f-string (its text, debug texts included)
    or t-string (each interpolation's expression and value)."""
    space: dict[str, object] = {'y': 1}
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')  # the escapes being fixed warn
        exec(compile(source, '<test>', 'exec'), space)
    value = space['x']
    if isinstance(value, str):
        return value
    return [(item.expression, item.value) for item in value.interpolations]  # type: ignore[attr-defined]


# 2. --unsafe leaves a literal in an f-string's {...=} field or a t-string's field alone ----

IN_TEXT_FIELDS = [
    # the debug text shows the literal as written: r"$\theta$" would show instead
    ("x = f'{\"$\\theta$\"=}'\n", (3, 12)),
    ("x = f'{\"C:\\temp\\new.txt\"=}'\n", (3, 12)),
    ("x = f'{\"$\\theta$\" = !r:>20}'\n", (3, 12)),
    ("x = f'''{\n\"$\\theta$\"\n=}'''\n", (3, 12)),
    ("x = f'\u00e9{\"$\\theta$\"=}'\n", (3, 12)),        # the AST counts utf-8 bytes
    ("x = f'{f\"{y}$\\theta$\"=}'\n", (3, 12)),         # a nested f-string
    ("x = f'\\d{\"$\\theta$\"=}'\n", (3, 12)),           # the f-string's own text is still fixed
    # a t-string interpolation's expression is the field's text
    ("x = t'{\"$\\theta$\"}'\n", (3, 14)),
    ("x = t'{\"$\\theta$\"=}'\n", (3, 14)),
]


@pytest.mark.parametrize('source, since', IN_TEXT_FIELDS)
def test_item2_unsafe_fix_keeps_debug_texts_and_t_string_fields(source, since):
    if sys.version_info < since:
        pytest.skip('a backslash in a field: 3.12+; t-strings: 3.14+')
    unsafe = {line.split()[1] for line in results(source)} & set(fix.UNSAFE)
    assert unsafe
    result = fix.fix_text(source, ALL)
    assert shown(result.text) == shown(source)
    assert {item.code for item in result.left_alone if item.reason == proof.TEXT_IN_VALUE} == unsafe
    assert fix.fix_text(result.text, ALL).text == result.text


@pytest.mark.parametrize('source, since', IN_TEXT_FIELDS)
def test_item2_the_whole_module_proof_catches_it_without_the_planner(source, since, monkeypatch):
    """Even a planner that does not set such literals aside cannot write the change."""
    if sys.version_info < since:
        pytest.skip('a backslash in a field: 3.12+; t-strings: 3.14+')
    monkeypatch.setattr(plan, 'in_text_fields', lambda found, context: (found, []), raising=False)
    result = fix.fix_text(source, ALL)
    assert shown(result.text) == shown(source)
    assert proof.TEXT_IN_VALUE in {item.reason for item in result.left_alone}


@pytest.mark.skipif(sys.version_info < (3, 12), reason='a backslash in a field: 3.12+')
def test_item2_a_field_without_equals_is_still_fixed():
    source = "x = f'{\"$\\theta$\"}' + f'{\"$\\theta$\"=}'\n"
    result = fix.fix_text(source, ALL)
    assert result.text == "x = f'{r\"$\\theta$\"}' + f'{\"$\\theta$\"=}'\n"
    assert shown(result.text) == '$\\theta$' + shown("x = f'{\"$\\theta$\"=}'\n")


@pytest.mark.skipif(sys.version_info < (3, 12), reason='a backslash in a field: 3.12+')
def test_item2_said_on_stderr(tmp_path, capsys):
    path = tmp_path / 'a.py'
    path.write_text("x = f'{\"$\\theta$\"=}'\n")
    assert cli.main(['fix', '--unsafe', '--isolated', str(path)]) == 0
    assert path.read_text() == "x = f'{\"$\\theta$\"=}'\n"
    err = capsys.readouterr().err
    assert f"{path}:1:10: ESC601 left alone: {proof.TEXT_IN_VALUE}\n" in err


# 10. A report whose fix was refused stays visible after the run -----------------

@pytest.mark.parametrize('source', [
    # text that reads like a regex: raw, the pattern does not compile ('(' is not closed); the
    # ESC301 fixes alone ('\\w', '\\d') would make it read as data, and its ESC401 would go unseen
    'x = "(\\w+)\\1 \\d("\n',
    "x = '(\\d+)-\\1 \\w['\n",
    # a pattern by its call: the safe fixes keep it a pattern, so they are still made
    'import re\nx = re.compile("(\\w+)\\1\\q(")\n',
])
def test_item10_a_refused_report_stays_visible(source):
    before = results(source)
    refused = {line for line in before if 'ESC401' in line}
    assert refused
    result = fix.fix_text(source, ALL)
    after = results(result.text)
    # still reported, where the last round said it was left alone (the places of the fixed text)
    assert {line for line in after if 'ESC401' in line} == {
        f'{item.line}:{item.col + 1} {item.code}' for item in result.left_alone if item.code == 'ESC401'}
    assert len({line for line in after if 'ESC401' in line}) == len(refused)
    # each report of the literal is either fixed or still reported
    assert len(after) + len(result.fixed) == len(before)
    assert fix.fix_text(result.text, ALL).text == result.text


# 13. A symlink in a tree does not lead the fixer out of it ---------------------

@pytest.mark.skipif(not hasattr(os, 'symlink') or sys.platform == 'win32', reason='symlinks')
def test_item13_a_symlink_out_of_the_tree_is_left_alone(tmp_path, capsys):
    tree, outside = tmp_path / 'tree', tmp_path / 'outside'
    tree.mkdir()
    outside.mkdir()
    target = outside / 'real.py'
    target.write_text('x = "\\d"\n')
    (tree / 'a.py').symlink_to(target)
    (tree / 'b.py').write_text('y = "\\d"\n')
    assert cli.main(['fix', '--isolated', str(tree)]) == 1  # b.py is fixed
    assert target.read_text() == 'x = "\\d"\n'
    assert (tree / 'b.py').read_text() == 'y = r"\\d"\n'
    err = capsys.readouterr().err
    assert err == (f'{tree / "a.py"}: left alone: it leads to {target}, outside the folders given '
                   '(name it to fix it)\n')
    # named on the command line, the symlink is followed
    assert cli.main(['fix', '--isolated', str(tree / 'a.py')]) == 1
    assert target.read_text() == 'x = r"\\d"\n'
    assert (tree / 'a.py').is_symlink()


@pytest.mark.skipif(not hasattr(os, 'symlink') or sys.platform == 'win32', reason='symlinks')
def test_item13_a_symlink_inside_the_folders_given_is_fixed_once(tmp_path, capsys):
    tree, other = tmp_path / 'tree', tmp_path / 'other'
    tree.mkdir()
    other.mkdir()
    (other / 'real.py').write_text('x = "\\d"\n')
    (tree / 'a.py').symlink_to(other / 'real.py')
    (tree / 'b.py').symlink_to('c.py')
    (tree / 'c.py').write_text('y = "\\d"\n')
    assert cli.main(['fix', '--isolated', str(tree), str(other)]) == 1
    out, err = capsys.readouterr()
    assert err == ''
    assert (other / 'real.py').read_text() == 'x = r"\\d"\n'
    assert (tree / 'c.py').read_text() == 'y = r"\\d"\n'
    assert out.count('fixed ESC301') == 2


# 4. --unsafe on one literal with many reported escapes: linear -------------------

def test_item4_positions_in_one_literal_are_read_in_one_pass(monkeypatch):
    """Whether a literal can become raw asks the place of each of its escapes:
    read in order (``literals.Positions``), not counted again from the
    literal's start for each, which made n escapes cost n times the literal's
    length.  (``python tests/scaling.py --only 'one literal'`` times it.)"""
    from flake8_escapes import literals
    counted = []
    position = literals.position

    def from_the_start(start, text, offset):
        counted.append(offset)
        return position(start, text, offset)

    source = "x = '" + 'saved to C:\\new.txt and ' * 200 + "'\n"
    monkeypatch.setattr(literals, 'position', from_the_start)
    assert fix.fix_text(source, ALL).text == 'x = r' + source[4:]
    assert len(counted) < 10  # a few (the literal's end), not one per escape


# 15. The fixer on a big file: the collector does not walk its objects again and again --

def test_item15_the_collector_is_paused_while_a_file_is_fixed(monkeypatch):
    import gc
    seen = []
    tokens_of = plan.tokens_of

    def watched(lines):
        seen.append(gc.isenabled())
        return tokens_of(lines)

    monkeypatch.setattr(plan, 'tokens_of', watched)
    assert gc.isenabled()
    assert fix.fix_text("x = '\\d'\n", SAFE).text == "x = r'\\d'\n"
    assert fix.fix_bytes(b"x = '\\d'\n", SAFE).data == b"x = r'\\d'\n"
    assert seen and not any(seen)
    assert gc.isenabled()  # on again after the run
    with pytest.raises(SyntaxError):
        fix.fix_text("x = ('\\d'\n", SAFE)
    assert gc.isenabled()  # and after an error
    gc.disable()
    try:
        fix.fix_text("x = '\\d'\n", SAFE)
        assert not gc.isenabled()  # a caller's choice is kept
    finally:
        gc.enable()
