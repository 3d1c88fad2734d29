"""An adversarial round of the command line (nits40): ``fix --diff``'s names for standard input and
for a file outside the current folder, one line (not a traceback) for an error of ours on one file
while the others are still reported, and ESC501's advice for a path that also spells ``\\\\``.

Every test here failed on main before this round.
"""
from __future__ import annotations

import multiprocessing
import os
import shutil
import subprocess
import sys
import textwrap
import warnings

import pytest

from flake8_escapes import cli, rules
from flake8_escapes.commands import check, fix as fixing
from test_command_line import run

SOURCE = b'import re\nx = re.compile("\\d")\n'
FIXED = b'import re\nx = re.compile(r"\\d")\n'


# -- item 1: standard input's diff and messages carry --stdin-display-name, as check's reports do --

@pytest.mark.parametrize('given, name', [(['--stdin-display-name', 'x.py'], 'x.py'),
                                         (['--stdin-display-name=pkg/y.py'], 'pkg/y.py'),
                                         ([], 'stdin')])
def test_the_diff_of_standard_input_is_named_as_check_names_it(tmp_path, given, name):
    """Before: ``--- a/-`` whatever the display name (and ``-: ...`` in the messages)."""
    code, diff, err = run(tmp_path, 'fix', '--diff', *given, '-', stdin=SOURCE)
    assert (code, err) == (1, '')
    assert diff.startswith(f'--- a/{name}\n+++ b/{name}\n@@ -1,2 +1,2 @@\n')
    # check names the file so too
    assert run(tmp_path, 'check', *given, '-', stdin=SOURCE)[1].startswith(f'{name}:2:17: ESC301 ')


def test_the_diff_of_standard_input_applies_to_the_file_named(tmp_path):
    if not shutil.which('git'):
        pytest.skip('needs git')
    (tmp_path / 'x.py').write_bytes(SOURCE)
    diff = run(tmp_path, 'fix', '--diff', '--stdin-display-name=x.py', '-', stdin=SOURCE)[1]
    (tmp_path / 'fix.diff').write_text(diff)
    subprocess.run(['git', 'apply', 'fix.diff'], cwd=tmp_path, check=True, capture_output=True)
    assert (tmp_path / 'x.py').read_bytes() == FIXED


def test_the_messages_about_standard_input_carry_its_display_name(tmp_path):
    """Before: ``-: skipped, does not parse ...``."""
    source = b'x = "\\d" "\\xZ"\n'  # ESC304: does not compile
    code, out, err = run(tmp_path, 'fix', '--stdin-display-name=y.py', '-', stdin=source)
    assert (code, out) == (0, source.decode())
    assert err.startswith('y.py: skipped, does not parse (ESC304 at line 1)')
    err = run(tmp_path, 'fix', '-', stdin=source)[2]
    assert err.startswith('stdin: skipped, does not parse (ESC304 at line 1)')


# -- item 2: a file outside the current folder is named as git diff --no-index names it -----------

def outside(tmp_path):
    """(the folder fix runs in, the file outside it)."""
    (tmp_path / 'here').mkdir()
    (tmp_path / 'there').mkdir()
    path = tmp_path / 'there' / 'a.py'
    path.write_bytes(SOURCE)
    return tmp_path / 'here', path


def absolute_name(path):
    return os.path.abspath(path).lstrip(os.sep).replace(os.sep, '/')


@pytest.mark.parametrize('relative', [False, True])
def test_a_file_outside_the_current_folder_is_named_by_its_absolute_path(tmp_path, relative):
    """Before: ``--- a/../there/a.py``, a name ``git apply`` refuses (invalid path) and GNU
    ``patch`` ignores, from every folder.  Now git's name for it (``git diff --no-index``)."""
    here, path = outside(tmp_path)
    given = os.path.join('..', 'there', 'a.py') if relative else str(path)
    code, diff, err = run(here, 'fix', '--diff', given)
    assert (code, err) == (1, '')
    name = absolute_name(path)
    assert diff.startswith(f'--- a/{name}\n+++ b/{name}\n@@ -1,2 +1,2 @@\n')


@pytest.mark.skipif(sys.platform == 'win32', reason='applied from the root of a POSIX file system')
@pytest.mark.parametrize('tool', [['git', '-C', '/', 'apply'], ['patch', '-p1', '-s', '-d', '/', '-i']])
def test_a_diff_of_a_file_outside_applies_from_the_root(tmp_path, tool):
    """As docs/fix.md says: neither tool writes outside the folder it runs in, so such a diff is
    applied from the root."""
    if not shutil.which(tool[0]):
        pytest.skip(f'needs {tool[0]}')
    here, path = outside(tmp_path)
    diff = run(here, 'fix', '--diff', str(path))[1]
    (tmp_path / 'fix.diff').write_text(diff)
    subprocess.run([*tool, str(tmp_path / 'fix.diff')], cwd=here, check=True, capture_output=True)
    assert path.read_bytes() == FIXED


def test_a_file_inside_keeps_its_relative_name_even_given_absolute(tmp_path):
    """An absolute path under the current folder: named relative, applied from there."""
    (tmp_path / 'pkg').mkdir()
    (tmp_path / 'pkg' / 'a.py').write_bytes(SOURCE)
    diff = run(tmp_path, 'fix', '--diff', str(tmp_path / 'pkg' / 'a.py'))[1]
    assert diff.startswith('--- a/pkg/a.py\n+++ b/pkg/a.py\n')
