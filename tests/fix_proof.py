"""Safe fixes are safe: the proof ``flake8-escapes fix`` must pass on a corpus.

For every file that parses: the module's AST (``ast.dump``, the text of
f-string ``=`` fields and t-string expressions included) is identical before
and after the safe fix; nothing was left alone and no ESC301-ESC303 report is
left, but for a literal in such a field (its text is part of a value), one
whose fix would hide a report it does not fix (ESC401 on '(\\w+)\\1') and an
octal escape that ESC501 also reports (the path keeps its backslash): these
are left alone and stay reported; and a second fix changes nothing.  The
corpora: the standard library of the running Python, the project's test
data, generated literals (tests/differential.py's generator) and any folder
given with ``--tree`` (a survey's checkouts).

With ``--unsafe`` every fix is made (ESC304's repair and the value-changing
fixes too) and the proof is: the fixed file compiles (a file that did not
parse too, once repaired), its AST is the same but for the values of str and
bytes constants, each changed one spanning a line where a report being fixed
stood, and a second fix changes nothing.  (The text of an f-string's
``{x=}`` field is a constant too: that it is kept is the fixer's own proof,
``proof.fields_kept``, and test_fix_issue34's.)

Run ``python tests/fix_proof.py [--generated N] [--tree DIR ...]`` for the
counts; ``--generated 0 --no-stdlib --tree DIR`` proves one folder alone.
Each corpus line counts the files changed, the escapes fixed and the fixes
left alone (refused), by reason.
"""
from __future__ import annotations

import argparse
import ast
import functools
import io
import os
import sys
import time
import tokenize
import warnings
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable

from hypothesis import HealthCheck, given, settings

import differential
from flake8_escapes import checks, fix

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'data')
LITERAL_STARTS = {tokenize.STRING} | {
    getattr(tokenize, name) for name in ('FSTRING_START', 'TSTRING_START') if hasattr(tokenize, name)}


@dataclass
class Proof:
    files: int = 0
    literals: int = 0
    changed_files: int = 0
    fixed: int = 0
    skipped: int = 0       # files that do not parse
    refused: Counter[str] = field(default_factory=Counter)   # fixes left alone, by reason
    failures: list[tuple[str, str]] = field(default_factory=list)
    unsafe: bool = False   # every fix, proved as the module docstring says
    repaired: int = 0      # --unsafe: files that did not parse, repaired (ESC304)


def safe_reports(text: str) -> list[str]:
    lines = io.StringIO(text, newline='').readlines()
    tokens = list(tokenize.generate_tokens(iter(lines).__next__))
    return [f'{report.line}:{report.col} {report.code}'
            for report in checks.all_reports(fix.parse(text), tokens, lines, ())
            if report.code in fix.SAFE]


def dump(text: str) -> str:
    """The AST of ``text``: values, and the source text the AST keeps (a
    ``{x=}`` field's text, a t-string's ``Interpolation.str``, PEP 750)."""
    return ast.dump(ast.parse(text))


def prove_text(text: str, name: str, proof: Proof) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', SyntaxWarning)
        warnings.simplefilter('ignore', DeprecationWarning)
        try:
            before = dump(text)
        except (SyntaxError, ValueError):
            if not (proof.unsafe and repaired(text, name, proof)):
                proof.skipped += 1
            return
        proof.files += 1
        proof.literals += sum(
            tok.type in LITERAL_STARTS
            for tok in tokenize.generate_tokens(io.StringIO(text, newline='').readline))
        if proof.unsafe:
            prove_unsafe(text, name, proof)
            return
        result = fix.fix_text(text, set(fix.SAFE))
        proof.refused.update(item.reason for item in result.left_alone)
        by_design = [item.code for item in result.left_alone if fix.proof.by_design(item.reason)]
        if len(by_design) != len(result.left_alone):
            proof.failures.append((name, f'left alone: {result.left_alone}'))
        if result.text == text:
            if result.fixed:
                proof.failures.append((name, 'fixes claimed but nothing changed'))
            return
        proof.changed_files += 1
        proof.fixed += len(result.fixed)
        if dump(result.text) != before:
            proof.failures.append((name, 'AST changed'))
        left = safe_reports(result.text)
        if sorted(report.split()[1] for report in left) != sorted(by_design):
            proof.failures.append((name, f'reports left: {left}'))
        if fix.fix_text(result.text, set(fix.SAFE)).text != result.text:
            proof.failures.append((name, 'a second fix changed the file again'))


ALL = set(fix.SAFE + fix.UNSAFE)


def reported_lines(text: str) -> set[int]:
    """The lines where a report of a code the fixer fixes stands."""
    lines = io.StringIO(text, newline='').readlines()
    tokens = list(tokenize.generate_tokens(iter(lines).__next__))
    return {report.line for report in checks.all_reports(fix.parse(text), tokens, lines, ())
            if report.code in ALL}


def changed_beyond(before: str, after: str, reported: set[int]) -> str | None:
    """How the AST of ``after`` differs from that of ``before`` beyond the
    values of str and bytes constants that span a line of ``reported``, or None."""
    old, new = list(ast.walk(ast.parse(before))), list(ast.walk(ast.parse(after)))
    if len(old) != len(new):
        return f'{len(old)} AST nodes, {len(new)} after'
    for was, now in zip(old, new):
        if isinstance(was, ast.Constant) and isinstance(now, ast.Constant) and was.value != now.value:
            if type(was.value) is not type(now.value) or not isinstance(was.value, (str, bytes)):
                return f'line {was.lineno}: {was.value!r} became {now.value!r}'
            if not reported & set(range(was.lineno, (was.end_lineno or was.lineno) + 1)):
                return f'line {was.lineno}: {was.value!r} became {now.value!r}, no report there'
            continue
        if type(was) is not type(now) or _own_fields(was) != _own_fields(now):
            return f'line {getattr(was, "lineno", "?")}: {ast.dump(was)[:200]} became {ast.dump(now)[:200]}'
    return None


def _own_fields(node: ast.AST) -> list[tuple[str, object]]:
    """A node's fields but its child nodes (``ast.walk`` visits them), and the length of each list of them."""
    return [(name, [item if not isinstance(item, ast.AST) else type(item).__name__ for item in value]
             if isinstance(value, list) else type(value).__name__ if isinstance(value, ast.AST) else value)
            for name, value in ast.iter_fields(node)]


def repaired(text: str, name: str, proof: Proof) -> bool:
    """--unsafe on a file that does not parse: if the fixer changes it (ESC304's
    repair), the result must compile and a second fix change nothing."""
    try:
        result = fix.fix_text(text, ALL)
    except (SyntaxError, UnicodeDecodeError, ValueError):
        return False
    if result.text == text:  # no backslash: not even tried
        return False
    proof.repaired += 1
    proof.fixed += len(result.fixed)
    if compiles(result.text, name, proof, 'repaired file'):
        settled(result.text, name, proof, 'repaired file')
    return True


def compiles(text: str, name: str, proof: Proof, what: str) -> bool:
    """Does the fixed ``text`` compile?  A failure recorded when not."""
    try:
        compile(text, name, 'exec', dont_inherit=True)
    except (SyntaxError, ValueError) as error:
        proof.failures.append((name, f'the {what} does not compile: {error}'))
        return False
    return True


def settled(text: str, name: str, proof: Proof, what: str) -> None:
    """A second --unsafe fix of the fixed ``text`` must change nothing."""
    if fix.fix_text(text, ALL).text != text:
        proof.failures.append((name, f'a second fix changed the {what} again'))


def prove_unsafe(text: str, name: str, proof: Proof) -> None:
    result = fix.fix_text(text, ALL)
    proof.refused.update(item.reason for item in result.left_alone)
    if result.text == text:
        if result.fixed:
            proof.failures.append((name, 'fixes claimed but nothing changed'))
        return
    proof.changed_files += 1
    proof.fixed += len(result.fixed)
    if not compiles(result.text, name, proof, 'fixed file'):
        return
    problem = changed_beyond(text, result.text, reported_lines(text))
    if problem:
        proof.failures.append((name, f'AST changed: {problem}'))
    settled(result.text, name, proof, 'file')


def prove_files(paths: list[str], proof: Proof) -> Proof:
    for path in paths:
        with open(path, 'rb') as f:
            data = f.read()
        try:
            text, _ = fix.read(data)
        except (SyntaxError, UnicodeDecodeError):
            proof.skipped += 1
            continue
        prove_text(text, path, proof)
    return proof


def tree_files(root: str) -> list[str]:
    """The ``*.py`` files under ``root``, in a stable order (symbolic links not followed)."""
    found: list[str] = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d != '__pycache__')
        found.extend(os.path.join(folder, f) for f in sorted(files)
                     if f.endswith('.py') and os.path.isfile(os.path.join(folder, f))
                     and not os.path.islink(os.path.join(folder, f)))
    return found


def prove_tree(root: str, unsafe: bool) -> Proof:
    return prove_files(tree_files(root), Proof(unsafe=unsafe))


def data_files() -> list[str]:
    return [os.path.join(DATA, name) for name in sorted(os.listdir(DATA)) if name.endswith('.py')]


def prove_generated(count: int, proof: Proof) -> Proof:
    @settings(max_examples=count, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow])
    @given(differential.source())
    def run(src: str) -> None:
        prove_text(src, src, proof)

    run()
    return proof


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--generated', type=int, default=2000, metavar='N',
                        help='generated sources to prove (0: none)')
    parser.add_argument('--tree', action='append', default=[], metavar='DIR',
                        help="a folder's *.py files, proved as one more corpus (repeatable)")
    parser.add_argument('--no-stdlib', action='store_true',
                        help="leave out the standard library and the project's test data")
    parser.add_argument('--unsafe', action='store_true', help='make every fix (see above for the proof)')
    args = parser.parse_args()
    began = time.perf_counter()
    total = 0
    corpora: list[tuple[str, Callable[[], Proof]]] = [] if args.no_stdlib else [
        ('stdlib', lambda: prove_files(differential.stdlib_files(), Proof(unsafe=args.unsafe))),
        ('test data', lambda: prove_files(data_files(), Proof(unsafe=args.unsafe)))]
    if args.generated:
        corpora.append(('generated', lambda: prove_generated(args.generated, Proof(unsafe=args.unsafe))))
    corpora += [(root, functools.partial(prove_tree, root, args.unsafe)) for root in args.tree]
    for name, prove in corpora:
        proof = prove()
        print(f'Python {sys.version.split()[0]}{" --unsafe" * args.unsafe} {name}: {proof.files} files, '
              f'{proof.literals} literals, '
              f'{proof.changed_files} files changed, {proof.fixed} escapes fixed, '
              f'{proof.skipped} skipped (do not parse){f", {proof.repaired} repaired" * proof.unsafe}, '
              f'{len(proof.failures)} failures', flush=True)
        for reason, count in proof.refused.most_common():
            print(f'    left alone x{count}: {reason}')
        for failure in proof.failures[:10]:
            print('   ', failure)
        total += len(proof.failures)
    print(f'in {time.perf_counter() - began:.0f}s')
    return 1 if total else 0


if __name__ == '__main__':
    sys.exit(main())
