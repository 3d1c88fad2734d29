"""``flake8-escapes fix`` and ``explain``: the rewrites, the proof that safe
fixes are safe, and the command line as users meet it."""
from __future__ import annotations

import ast
import os
import re
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings

import differential
import fix_proof
from flake8_escapes import cli, fix, rules

PY = sys.version_info[:2]
SAFE = set(fix.SAFE)
ALL = set(fix.SAFE + fix.UNSAFE)


@pytest.mark.parametrize('before, after', [
    # every backslash starts an invalid escape: raw keeps the value
    ('x = "\\d+"\n', 'x = r"\\d+"\n'),
    ("x = b'\\d\\N{x}'\n", "x = rb'\\d\\N{x}'\n"),
    ("x = B'\\q'\n", "x = rB'\\q'\n"),
    # a valid escape next to it: double the bad backslash only
    ('x = "\\d\\n"\n', 'x = "\\\\d\\n"\n'),
    ('x = "\\d\\\\"\n', 'x = "\\\\d\\\\"\n'),
    # no 'ur' prefix in Python 3
    ("x = u'\\w'\n", "x = u'\\\\w'\n"),
    # octal overflow: the same character spelled another way
    ('x = "\\777"\n', 'x = "\\u01ff"\n'),
    ("x = b'\\777'\n", "x = b'\\xff'\n"),
    ("x = '\\d\\777'\n", "x = '\\\\d\\u01ff'\n"),
    # f-strings: doubled, also in a format spec
    ('x = f"{a}\\s{b:\\d}"\n', 'x = f"{a}\\\\s{b:\\\\d}"\n'),
    ("x = f'\\{a}'\n", "x = f'\\\\{a}'\n"),
    # implicit concatenation: each literal on its own
    ('x = ("\\d" "\\n\\w")\n', 'x = (r"\\d" "\\n\\\\w")\n'),
    # raw literals and unreported escapes stay as they are
    ('x = r"\\d" + "\\n" + re.sub("(a)", "\\1", s)\n', None),
])
def test_safe_fixes(before, after):
    result = fix.fix_text(before, SAFE)
    assert result.text == (before if after is None else after)
    assert ast.dump(fix.parse(result.text)) == ast.dump(fix.parse(before))


@pytest.mark.parametrize('before, after', [
    ('import re\ny = re.sub(r"(\\w+)", "<\\1>", s)\n', 'import re\ny = re.sub(r"(\\w+)", r"<\\1>", s)\n'),
    ('import re\ny = re.search("\\bword\\b\\n", s)\n', 'import re\ny = re.search("\\\\bword\\\\b\\n", s)\n'),
    ('open("C:\\temp\\new.txt")\n', 'open(r"C:\\temp\\new.txt")\n'),
    # the invalid \\d goes raw with the path's escapes
    ("p = 'C:\\data\\file.txt'\n", "p = r'C:\\data\\file.txt'\n"),
])
def test_unsafe_fixes(before, after):
    assert fix.fix_text(before, ALL).text == after
    assert fix.fix_text(before, SAFE).text != after  # never without --unsafe


def test_windows_path_safe_part_only():
    """Safe mode fixes the invalid escape of a path and leaves \\f alone."""
    assert fix.fix_text("p = 'C:\\data\\file.txt'\n", SAFE).text == "p = 'C:\\\\data\\file.txt'\n"


def test_only_literal_characters_change():
    """CRLF, form feeds, tabs and wide characters stay as they were (the BOM:
    test_a_file_is_written_in_its_own_encoding)."""
    text = '# \u00e9t\u00e9\r\n\x0cx = {\t"\u4e2d": "\\d"}\r\ny = 1'
    result = fix.fix_text(text, SAFE)
    assert result.text == text.replace('"\\d"', 'r"\\d"')


def test_a_file_is_written_in_its_own_encoding(tmp_path):
    path = tmp_path / 'legacy.py'
    data = '# -*- coding: latin-1 -*-\r\nx = "\u00e9\\d"\r\n'.encode('latin-1')
    path.write_bytes(data)
    assert cli.main(['fix', str(path)]) == 1
    assert path.read_bytes() == data.replace(b'x = "', b'x = r"')
    path.write_bytes(b'\xef\xbb\xbfx = "\\d"\n')
    assert cli.main(['fix', str(path)]) == 1
    assert path.read_bytes() == b'\xef\xbb\xbfx = r"\\d"\n'


def run(tmp_path, *args):
    proc = subprocess.run([sys.executable, '-m', 'flake8_escapes', *args], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    return proc.returncode, proc.stdout, proc.stderr


def test_exit_status_and_messages(tmp_path):
    (tmp_path / 'bad.py').write_text('x = "\\d"\n')
    (tmp_path / 'good.py').write_text('x = "\\n"\n')
    assert run(tmp_path, 'fix', 'good.py') == (0, '', '')
    code, out, err = run(tmp_path, 'fix', '--diff', 'bad.py')
    assert (code, err) == (1, '')
    assert '-x = "\\d"\n+x = r"\\d"\n' in out
    assert (tmp_path / 'bad.py').read_text() == 'x = "\\d"\n'  # --diff writes nothing
    assert run(tmp_path, 'fix', '.') == (1, './bad.py: fixed ESC301\n', '')
    assert (tmp_path / 'bad.py').read_text() == 'x = r"\\d"\n'
    assert run(tmp_path, 'fix', '.') == (0, '', '')  # a second run changes nothing


def test_unsafe_needs_the_flag(tmp_path):
    (tmp_path / 'r.py').write_text('import re\nre.sub("(a)", "\\1", s)\n')
    assert run(tmp_path, 'fix', 'r.py')[0] == 0
    code, _, err = run(tmp_path, 'fix', '--select', 'ESC401', 'r.py')
    assert code == 2 and 'needs --unsafe' in err
    assert run(tmp_path, 'fix', '--unsafe', '--select', 'ESC4', 'r.py') == (1, 'r.py: fixed ESC401\n', '')
    assert (tmp_path / 'r.py').read_text() == 'import re\nre.sub("(a)", r"\\1", s)\n'


@pytest.mark.parametrize('args, says', [
    (['fix', '--select', 'ESC999', 'x.py'], "argument --select: 'ESC999' matches no code"),
    (['fix', '--escapes-regex-functions', 'nope', 'x.py'], '--escapes-regex-functions'),
    (['fix', '--jobs', 'many', 'x.py'], "argument --jobs: 'many' must be 'auto' or an integer"),
    (['explain', 'ESC999'], "unknown code 'ESC999'"),
])
def test_bad_usage(tmp_path, args, says):
    code, _, err = run(tmp_path, *args)
    assert code == 2 and says in err and 'Traceback' not in err


def test_unreadable_and_unparsable_files(tmp_path):
    (tmp_path / 'broken.py').write_text('x = "\\d"\ndef (:\n')
    code, out, err = run(tmp_path, 'fix', 'broken.py', 'missing.py')
    assert code == 2 and out == ''
    assert 'broken.py: skipped, does not parse' in err
    assert 'missing.py: cannot read' in err
    assert (tmp_path / 'broken.py').read_text() == 'x = "\\d"\ndef (:\n'
    (tmp_path / 'bytes.py').write_bytes(b'x = "\xff\\d"\n')  # not UTF-8
    assert run(tmp_path, 'fix', 'bytes.py')[0] == 2


def test_pre_commit_hook_is_declared():
    with open(os.path.join(fix_proof.DATA, '..', '..', '.pre-commit-hooks.yaml'), encoding='utf-8') as f:
        text = f.read()
    assert 'entry: flake8-escapes fix' in text and 'types_or: [python, jupyter]' in text  # notebooks too
    hooks = text.split('- id: ')[1:]
    # Each hook runs once over every file pre-commit names, so that its summary is one total (0.3.0's
    # fix hook ran in parallel batches and printed a partial summary per batch).
    assert len(hooks) == 2 and all('require_serial: true' in hook for hook in hooks)
    # A range of codes in a description covers every code (0.3.0 said "ESC301-ESC501" beside ESC6xx).
    codes = sorted(rule.code for rule in rules.RULES)
    check_hook = next(hook for hook in hooks if 'entry: flake8-escapes check' in hook)
    for first, last in re.findall(r'(ESC\d+)-(ESC\d+)', check_hook):
        assert (first, last) == (codes[0], codes[-1]), f'the check hook names {first}-{last}'


# The proof: AST identical, reports gone, a second run changes nothing. ------

def test_proof_catches_an_unsafe_fix(monkeypatch):
    """The proof can fail: a fixer that made every literal raw is caught
    (here by the fixer's own safety check, which then leaves it alone)."""
    monkeypatch.setattr(fix.plan, '_can_be_raw', lambda piece, fixing, codes: piece.spans[0][0] > 0)
    proof = fix_proof.Proof()
    fix_proof.prove_text('x = "\\d\\n"\n', 'x', proof)
    assert proof.failures and 'left alone' in proof.failures[0][1]


def test_proof_on_the_test_data():
    proof = fix_proof.prove_files(fix_proof.data_files(), fix_proof.Proof())
    assert proof.changed_files >= 4
    assert proof.failures == []


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(differential.source())
def test_proof_on_generated_literals(src):
    proof = fix_proof.Proof()
    fix_proof.prove_text(src, src, proof)
    assert proof.failures == []


@pytest.mark.slow
def test_proof_on_the_standard_library():
    paths = differential.stdlib_files()
    proof = fix_proof.prove_files(paths, fix_proof.Proof())
    assert len(paths) > 500  # every file there, however many the distribution ships
    assert proof.files + proof.skipped == len(paths)
    assert proof.skipped < len(paths) / 20
    assert proof.failures == []


# Issue 22: the fix of a path the finders find keeps a template's and an f-string's fields ---------
PATH_FORMS = [
    ('open("%s\\temp.txt" % root)\n', 'open(r"%s\\temp.txt" % root)\n'),
    ('open("{}\\\\results\\new.csv".format(root))\n', 'open("{}\\\\results\\\\new.csv".format(root))\n'),
    ('open(f"{root}\\new_folder\\data.txt")\n', 'open(f"{root}\\\\new_folder\\\\data.txt")\n'),
    ('open(f"{root!r:>{width}}\\new")\n', 'open(f"{root!r:>{width}}\\\\new")\n'),  # an f-string is doubled
    ('import os\nos.path.join(root, "sub\\new")\n', 'import os\nos.path.join(root, r"sub\\new")\n'),
    ('import os\nLOG_DIR = "logs\\training"\nos.makedirs(LOG_DIR)\n',
     'import os\nLOG_DIR = r"logs\\training"\nos.makedirs(LOG_DIR)\n'),
    ('share = "\\\\\\\\fileserver\\\\public\\new"\n', 'share = "\\\\\\\\fileserver\\\\public\\\\new"\n'),
    ('print("Saved to C:\\new\\file.txt")\n', 'print(r"Saved to C:\\new\\file.txt")\n'),
    # the text around a path found in it keeps its escapes (the newline stays one)
    ('print("Saved to C:\\new\\file.txt\\n")\n', 'print("Saved to C:\\\\new\\\\file.txt\\n")\n'),
]


def fields_of(tree: ast.AST) -> list[str]:
    """The expressions a module's templates and f-strings fill in, in order."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FormattedValue):
            found.append(ast.dump(node))
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
            found.append(ast.dump(node.right))
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr == 'format'):
            found.append(ast.dump(ast.Tuple(node.args, ast.Load())))
    return found


@pytest.mark.parametrize('before, after', PATH_FORMS)
def test_a_found_path_is_fixed_with_its_fields(before, after):
    result = fix.fix_text(before, ALL)
    assert result.text == after
    assert fix.fix_text(after, ALL).text == after  # a second run changes nothing
    assert fields_of(fix.parse(after)) == fields_of(fix.parse(before))
