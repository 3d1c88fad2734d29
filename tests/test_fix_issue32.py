"""``flake8-escapes fix`` as ruff users expect it (issue 32): one test per item.

A file that does not parse because of escapes CPython refuses (ESC304) says
which command repairs it, only when that command does: the tests run the
command the line names and compile the result on the running CPython.
"""
from __future__ import annotations

import re
import subprocess
import sys
import warnings

import pytest

from flake8_escapes import fix

HINT = re.compile(r'does not parse \(ESC304(?: x(\d+), first)? at line (\d+)\): `flake8-escapes (fix [^`]*)` '
                  r'can repair it$')


def run(tmp_path, *args):
    proc = subprocess.run([sys.executable, '-m', 'flake8_escapes', *args], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    return proc.returncode, proc.stdout, proc.stderr


def compiles(source: str) -> bool:
    """Does the running CPython compile ``source`` (its warnings about other escapes aside)?"""
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        try:
            compile(source, '<fixed>', 'exec', dont_inherit=True)
        except (SyntaxError, ValueError):
            return False
    return True


# 1. A file that does not parse because of an escape CPython refuses names the repair ---------

REPAIRABLE = {
    # a Windows path: '\U' starts a unicode escape (line 3, as check reports it)
    'path.py': "import os\n\np = os.path.join('C:\\Users\\me', 'x')\n",
    # two refused escapes; CPython 3.12+ places the first at the literal's line 2, the report is on 4
    'two.py': 'x = 1\ny = """a\nb\nC:\\Users\\me"""\nz = "\\x4"\n',
    # 3.12+: a refused escape in a format spec raises UnicodeDecodeError, not SyntaxError
    'spec.py': 'x = 1\nz = f"{x:\\x4}"\n',
}
#: The first refused escape's line and how many there are, read off the sources above.
WHERE = {'path.py': (3, 1), 'two.py': (4, 2), 'spec.py': (2, 1)}
NOT_REPAIRABLE = {
    # another syntax error besides the refused escape: the repair would not make it parse
    'other.py': 'y = "\\x4"\ndef (:\n',
    # the refused escape is under '# noqa': the fixer leaves it, so the file stays broken
    'noqa.py': 'y = "\\x4"  # noqa: ESC304\n',
    # ESC304 not reported there (per-file-ignores): the hinted command would not touch it
    'ignored.py': "p = 'C:\\Users\\me'\n",
}


def test_a_refused_escape_names_the_command_that_repairs_it(tmp_path):
    for name, text in {**REPAIRABLE, **NOT_REPAIRABLE}.items():
        (tmp_path / name).write_text(text)
    (tmp_path / 'setup.cfg').write_text('[flake8]\nper-file-ignores = ignored.py:ESC304\n')
    code, out, err = run(tmp_path, 'fix', *REPAIRABLE, *NOT_REPAIRABLE)
    assert (code, out) == (0, '')
    said = dict(line.split(': skipped, ', 1) for line in err.splitlines())
    assert set(said) == set(REPAIRABLE) | set(NOT_REPAIRABLE)
    commands = set()
    for name in REPAIRABLE:
        match = HINT.search(said[name])
        assert match, said[name]
        count, line, command = match.groups()
        assert (int(line), int(count or 1)) == WHERE[name]
        commands.add(command)
    for name in NOT_REPAIRABLE:
        assert said[name].startswith('does not parse: ') and 'repair' not in said[name]
    # the line names what still fails, not the escape (issue 39, tests/test_refused_whole.py)
    assert said['other.py'] == ('does not parse: line 2 fails even with its ESC304 escapes mended: '
                                'invalid syntax')
    # the command named repairs each file so that it compiles, and a second run changes nothing
    [command] = commands
    code, out, err = run(tmp_path, *command.split(), *REPAIRABLE, *NOT_REPAIRABLE)
    # other.py could not be made to parse: exit status 2 (issue 39)
    assert code == 2 and err.count(', does not parse') == len(NOT_REPAIRABLE)
    assert 'other.py: left alone, does not parse: line 2 fails' in err
    fixed_lines = dict(line.split(': fixed ', 1) for line in out.splitlines())
    assert set(fixed_lines) == set(REPAIRABLE) and all('ESC304' in codes for codes in fixed_lines.values())
    for name, text in REPAIRABLE.items():
        fixed = (tmp_path / name).read_text()
        assert fixed != text and not compiles(text) and compiles(fixed)
    for name, text in NOT_REPAIRABLE.items():
        assert (tmp_path / name).read_text() == text
    assert run(tmp_path, *command.split(), *REPAIRABLE)[:2] == (0, '')


def test_the_repair_is_named_under_a_narrower_selection_too(tmp_path):
    """``--select ESC301`` (no --unsafe): the repair is still ESC304's own command."""
    (tmp_path / 'path.py').write_text(REPAIRABLE['path.py'])
    code, _, err = run(tmp_path, 'fix', '--select', 'ESC301', 'path.py')
    assert code == 0 and HINT.search(err.strip()), err


@pytest.mark.skipif(sys.version_info < (3, 12), reason='3.12+ raise UnicodeDecodeError here')
def test_a_refused_escape_in_a_format_spec_is_not_unreadable(tmp_path):
    """3.12+: ``ast.parse`` raises UnicodeDecodeError for it: the file was read (exit 0), it does
    not parse."""
    with pytest.raises(UnicodeDecodeError):
        fix.parse(REPAIRABLE['spec.py'])
    (tmp_path / 'spec.py').write_text(REPAIRABLE['spec.py'])
    code, out, err = run(tmp_path, 'fix', 'spec.py')
    assert (code, out) == (0, '') and 'cannot read' not in err and 'does not parse' in err


# 4. An unknown --select code: the known prefixes listed ---------------------------------------

@pytest.mark.parametrize('select', ['XYZ', 'ESC7', 'ESC3,ESC30X'])
def test_an_unknown_select_lists_the_known_prefixes(tmp_path, select):
    code, out, err = run(tmp_path, 'fix', '--select', select, 'x.py')
    bad = next(item for item in select.split(',') if not fix_codes(item))
    assert (code, out) == (2, '')
    assert err.splitlines()[-1] == (
        f"flake8-escapes fix: error: argument --select: '{bad}' matches no code the fixer knows "
        '(ESC, ESC3 = ESC301-ESC305, ESC4 = ESC401-ESC402, ESC5 = ESC501, ESC6 = ESC601-ESC602)')


@pytest.mark.parametrize('command', ['fix', 'check'])
@pytest.mark.parametrize('select', ['esc301', 'ESC3,esc4'])
def test_a_lower_case_code_is_refused_by_fix_as_by_check(tmp_path, command, select):
    """ruff refuses ``--select w605``; flake8 would match ``esc301`` to nothing: both commands
    refuse it the same way, naming the upper-case code (fix accepted it in 0.4.0)."""
    (tmp_path / 'x.py').write_text("x = '\\d'\n")
    code, out, err = run(tmp_path, command, '--select', select, 'x.py')
    bad = next(item for item in select.split(',') if item != item.upper())
    assert (code, out) == (2, '')
    assert err.splitlines()[-1] == (
        f"flake8-escapes {command}: error: argument --select: unknown code '{bad}': codes are upper "
        f"case, as flake8 matches them ('{bad.upper()}')")


def fix_codes(prefix: str) -> list[str]:
    return [code for code in fix.SAFE + fix.UNSAFE if code.startswith(prefix.upper())]
