"""Rewrite literals so that their reports go away (``flake8-escapes fix``).

The rule: after any run, each file is either exactly as it was or correctly
fixed.  A round plans the edits (``plan``: which reports, one edit per
escape), proves them (``proof``: values, regexes, the module still parses)
and makes them on the original bytes (``files``); fixing runs to a fixed
point, bounded by ``ROUNDS``, since a fix can expose another report.
"""
from __future__ import annotations

import ast
import io
from typing import NamedTuple

from flake8_escapes import apis, collector_paused
from flake8_escapes.fix import closing, plan, proof, refused
from flake8_escapes.fix.files import (
    Edit, Snapshot, apply, apply_bytes, detect_encoding, normalized, read, snapshot, splice_problem,
    write_atomic,
)
from flake8_escapes.fix.plan import SAFE, UNSAFE
from flake8_escapes.fix.proof import NOT_PARSED, LeftAlone, parse

__all__ = [
    'SAFE', 'UNSAFE', 'ROUNDS', 'NOT_PARSED', 'Edit', 'LeftAlone', 'Result', 'BytesResult', 'Refused',
    'fix_text', 'fix_bytes', 'parse', 'read', 'splice_problem', 'write_atomic', 'Snapshot', 'snapshot',
]

#: A fix can expose another report ('\\missing\\foo': once \\m is fixed the
#: literal reads as a Windows path): the fixer runs again, at most this often.
ROUNDS = 4


class Result(NamedTuple):
    text: str
    fixed: list[str]               # one code per escape fixed
    left_alone: list[LeftAlone]    # fixes not made, and why
    unsafe_left: list[str] = []    # codes of reports only --unsafe would fix
    rounds: list[list[Edit]] = []  # each round's edits, on the text the round before left


class BytesResult(NamedTuple):
    data: bytes
    fixed: list[str]
    left_alone: list[LeftAlone]
    unsafe_left: list[str]


class Refused(Exception):
    """A file the fixer leaves alone as a whole; the message says why."""


class _Round(NamedTuple):
    """What one round did: its edits, the codes fixed, the fixes left alone,
    the codes only --unsafe would fix, and the AST of the fixed text."""

    edits: list[Edit]
    fixed: list[str]
    left: list[LeftAlone]
    unsafe_left: list[str]
    tree: ast.AST | None


def _round(
    text: str, codes: set[str], functions: tuple[apis.Api, ...], tree: ast.AST | None = None,
    at: frozenset[tuple[int, int]] | None = None,
) -> _Round:
    """One pass over normalized ``text`` (``tree``: its AST, when known; ``at``: only
    the reports at these (line, col), an editor's fix of one diagnostic)."""
    lines = io.StringIO(text, newline='').readlines()
    if plan.file_silenced(text, lines):
        return _Round([], [], [], [], None)
    if tree is None:
        try:
            tree = parse(text)  # before tokenizing: a file that does not parse raises SyntaxError
        except (SyntaxError, UnicodeDecodeError):  # 3.12+: UnicodeDecodeError for '\x4' in a format spec
            mended = closing.repair(text, codes)  # ESC305, with ESC304 where both are needed
            if mended is None and refused.CODE in codes:
                mended = refused.repair(text)
            if mended is None:
                raise
            return _Round(mended.edits, mended.fixed, [], [], mended.tree)
    tokens = plan.tokens_of(lines)
    context = plan.Context(text, lines, tree, tokens, {}, functions)
    by_piece, unsafe = plan.reports_to_fix(context, codes)
    if at is not None:
        by_piece = _only_at(by_piece, at)
    unsafe_left = [report.code for report in unsafe]
    by_piece, held = plan.held_for_unsafe(by_piece, unsafe)
    held_back = [LeftAlone(found.line, found.col, code, proof.FOR_UNSAFE) for code, found in held]
    if not by_piece:
        return _Round([], [], held_back, unsafe_left, None)
    context = context._replace(starts=plan.piece_starts(tokens))
    found, in_fields = plan.in_text_fields(plan.units(by_piece, context), context)
    chosen, left, refused_fixes = proof.proved(found, context)
    left += proof.left_alone(in_fields, proof.TEXT_IN_VALUE)
    chosen, left, new_tree = proof.module_parses(text, chosen, left)
    chosen, changed, new_tree = proof.module_kept(context.tree, text, chosen, new_tree, context)
    left += changed
    chosen, changed, new_tree = proof.fields_kept(chosen, new_tree, context)
    left += changed
    chosen, hiding, new_tree = proof.reports_kept(chosen, new_tree, context, unsafe, refused_fixes)
    left += hiding
    edits = [edit for unit in chosen for edit in unit.edits]
    fixed = [code for unit in chosen for code in plan.fixed_codes(unit)]
    return _Round(edits, fixed, held_back + left, unsafe_left, new_tree)


def _only_at(by_piece: plan.Planned, at: frozenset[tuple[int, int]]) -> plan.Planned:
    """The planned reports whose escape stands at one of ``at``."""
    kept: plan.Planned = {}
    for _, items in by_piece.values():
        for code, found in items:
            if (found.line, found.col) in at:
                plan._add(kept, code, found)
    return kept


@collector_paused()
def fix_text(
    text: str, codes: set[str], regex_functions: tuple[apis.Api, ...] | None = None,
    at: frozenset[tuple[int, int]] | None = None,
) -> Result:
    """Fix the reports of ``codes`` in ``text`` (any line ends); with ``at``, only
    those at these (line, col), in one round.  Raises SyntaxError when the text
    does not parse."""
    fixed: list[str] = []
    left: list[LeftAlone] = []
    unsafe_left: list[str] = []
    rounds: list[list[Edit]] = []
    tree = None
    for _ in range(ROUNDS if at is None else 1):
        if '\\' not in text:
            unsafe_left = []
            break
        edits, now_fixed, now_left, unsafe_left, tree = _round(
            normalized(text), codes, regex_functions or (), tree, at)
        left = now_left  # what the last round could not fix is what is left
        if not edits:
            break
        text = apply(text, edits)
        fixed.extend(now_fixed)
        rounds.append(edits)
    return Result(text, sorted(fixed), sorted(set(left)), sorted(unsafe_left), rounds)


def _encoding_of(data: bytes) -> str:
    """The encoding of ``data``, if its bytes may be edited (else Refused)."""
    try:
        encoding = detect_encoding(data)
    except LookupError as error:  # 3.14: a codec that is not a text encoding
        raise Refused(str(error)) from None
    problem = splice_problem(encoding)
    if problem:
        raise Refused(problem)
    return encoding


@collector_paused()
def fix_bytes(
    data: bytes, codes: set[str], regex_functions: tuple[apis.Api, ...] | None = None,
) -> BytesResult:
    """Fix a file's bytes: only the edited literals' bytes change.

    Raises Refused (the file is left alone, the message says why),
    SyntaxError (bad coding cookie, does not parse) or UnicodeDecodeError.
    """
    encoding = _encoding_of(data)
    if b'\\' not in data:  # an ASCII-compatible codec spells a backslash 5C
        return BytesResult(data, [], [], [])
    fixed: list[str] = []
    left: list[LeftAlone] = []
    unsafe_left: list[str] = []
    tree = None
    for _ in range(ROUNDS):
        text = data.decode(encoding)
        edits, now_fixed, now_left, unsafe_left, tree = _round(
            normalized(text), codes, regex_functions or (), tree)
        left = now_left
        if not edits:
            break
        new = apply_bytes(data, encoding, edits)
        try:
            same = new.decode(encoding) == apply(text, edits)
        except UnicodeDecodeError:
            same = False
        if not same:  # a codec the probes did not catch
            raise Refused(f'{encoding!r}: an edit would change other characters')
        data = new
        fixed.extend(now_fixed)
    return BytesResult(data, sorted(fixed), sorted(set(left)), sorted(unsafe_left))
