"""The fixer under attack (issue 24): one test per item, each named after it.

Expected values are CPython's: a fixed literal is evaluated by the compiler,
and what it must equal is the text the author wrote between the quotes (the
backslashes kept), not a value read back from the fixer.
"""
from __future__ import annotations

import ast
import os
import sys
import warnings

import pytest

from flake8_escapes import cli, fix, plugin
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
    # a safe run does not respell it ('\u013f', '\x00'): the path is left for --unsafe
    safe = fix.fix_text(source, SAFE)
    assert 'ESC303' in {item.code for item in safe.left_alone} and 'ESC501' in safe.unsafe_left
    assert literal_values(fix.fix_text(safe.text, ALL).text)[-1] == meant


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
    # (3.12 and 3.13 read a nested f-string's debug text unescaped: there its fix changes nothing)
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
    # each report is fixed or left alone with its reason
    assert result.left_alone or 'ESC301' not in {line.split()[1] for line in results(result.text)}


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


# 5. The file is looked at again right before it is replaced -------------------

def leftovers(folder) -> list[str]:
    return [path.name for path in folder.iterdir() if path.name.endswith('.flake8-escapes')]


def test_item5_an_edit_saved_while_fixing_is_kept(tmp_path):
    path = tmp_path / 'a.py'
    path.write_bytes(b"x = '\\d'\n")
    before = fix.snapshot(str(path))
    path.write_bytes(b"x = '\\d'  # saved by the user meanwhile\n")
    with pytest.raises(OSError, match='changed'):
        fix.write_atomic(str(path), b"x = r'\\d'\n", before)
    assert path.read_bytes() == b"x = '\\d'  # saved by the user meanwhile\n"
    assert leftovers(tmp_path) == []


def test_item5_a_file_swapped_for_a_symlink_is_not_followed(tmp_path):
    path, other = tmp_path / 'a.py', tmp_path / 'other.py'
    path.write_bytes(b"x = '\\d'\n")
    other.write_bytes(b'secret = 1\n')
    before = fix.snapshot(str(path))
    path.unlink()
    path.symlink_to(other)
    with pytest.raises(OSError, match='symlink'):
        fix.write_atomic(str(path), b"x = r'\\d'\n", before)
    assert other.read_bytes() == b'secret = 1\n' and path.is_symlink()
    assert leftovers(tmp_path) == []


def test_item5_an_unchanged_file_and_a_symlink_there_at_the_read_are_replaced(tmp_path):
    real, link = tmp_path / 'real.py', tmp_path / 'link.py'
    real.write_bytes(b"x = '\\d'\n")
    link.symlink_to(real)
    fix.write_atomic(str(link), b"x = r'\\d'\n", fix.snapshot(str(link)))
    assert real.read_bytes() == b"x = r'\\d'\n" and link.is_symlink()


def fix_while(path, monkeypatch, meanwhile, capsys) -> tuple[int, str]:
    """``flake8-escapes fix PATH``, with ``meanwhile()`` run after the file was
    read and fixed in memory, before it is replaced: (exit status, stderr)."""
    fix_bytes = fix.fix_bytes

    def slow_fix(*args, **kwargs):
        result = fix_bytes(*args, **kwargs)
        meanwhile()
        return result

    monkeypatch.setattr(fix, 'fix_bytes', slow_fix)
    status = cli.main(['fix', '--jobs=1', str(path)])
    return status, capsys.readouterr().err


def test_item5_fix_keeps_an_edit_saved_while_it_runs(tmp_path, monkeypatch, capsys):
    path = tmp_path / 'a.py'
    path.write_bytes(b"x = '\\d'\n")
    saved = b"x = '\\d'  # saved by the user meanwhile\n"
    status, err = fix_while(path, monkeypatch, lambda: path.write_bytes(saved), capsys)
    assert status == 2 and 'left as it was' in err, err
    assert path.read_bytes() == saved
    assert leftovers(tmp_path) == []


def test_item5_fix_does_not_follow_a_symlink_put_there_while_it_runs(tmp_path, monkeypatch, capsys):
    path, other = tmp_path / 'a.py', tmp_path / 'other.py'
    path.write_bytes(b"x = '\\d'\n")
    other.write_bytes(b'secret = 1\n')

    def swap():
        path.unlink()
        path.symlink_to(other)

    status, err = fix_while(path, monkeypatch, swap, capsys)
    assert status == 2 and 'left as it was' in err, err
    assert other.read_bytes() == b'secret = 1\n' and path.is_symlink()
    assert leftovers(tmp_path) == []


def test_item5_fix_replaces_a_file_nobody_touched(tmp_path, monkeypatch, capsys):
    path = tmp_path / 'a.py'
    path.write_bytes(b"x = '\\d'\n")
    status, err = fix_while(path, monkeypatch, lambda: None, capsys)
    assert status == 1 and path.read_bytes() == b"x = r'\\d'\n", err


# 6. Owner, group, extended attributes and hard links are kept -----------------

@pytest.mark.skipif(not hasattr(os, 'geteuid') or os.geteuid() != 0, reason='only root may give a file away')
def test_item6_owner_and_group_are_kept(tmp_path):
    path = tmp_path / 'a.py'
    path.write_bytes(b"x = '\\d'\n")
    os.chown(path, 1234, 2345)
    fix.write_atomic(str(path), b"x = r'\\d'\n")
    assert (path.stat().st_uid, path.stat().st_gid) == (1234, 2345)


@pytest.mark.skipif(not hasattr(os, 'setxattr'), reason='no extended attributes here')
def test_item6_extended_attributes_are_kept(tmp_path):
    path = tmp_path / 'a.py'
    path.write_bytes(b"x = '\\d'\n")
    try:
        os.setxattr(path, 'user.flake8-escapes-test', b'kept')
    except OSError:
        pytest.skip('the file system takes no user attributes')
    fix.write_atomic(str(path), b"x = r'\\d'\n")
    assert os.getxattr(path, 'user.flake8-escapes-test') == b'kept'


def test_item6_every_hard_link_sees_the_fix(tmp_path):
    path, other = tmp_path / 'a.py', tmp_path / 'b.py'
    path.write_bytes(b"x = '\\d'\n")
    os.link(path, other)
    fix.write_atomic(str(path), b"x = r'\\d'\n")
    assert other.read_bytes() == b"x = r'\\d'\n"
    assert path.stat().st_ino == other.stat().st_ino
