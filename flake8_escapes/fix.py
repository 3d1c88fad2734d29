"""Rewrite literals so that their reports go away (``flake8-escapes fix``).

Safe fixes keep the value of every literal, so the module's AST does not
change (checked here before a file is written):

- ESC301, ESC302: the literal becomes raw when that spells the same value
  (every backslash in it starts an escape a raw literal keeps as it is),
  otherwise the backslash of each bad escape is doubled;
- ESC303: the escape is spelled another way ('\\777' -> '\\u01ff',
  b'\\777' -> b'\\xff', the byte CPython stores).

Unsafe fixes (ESC401, ESC402, ESC501) change the value to what the author
meant: the literal becomes raw where every other escape in it allows it,
otherwise the reported backslashes are doubled.

Only the literal's own characters change: the text is edited at the
positions the checks report, so line endings, encoding and everything else
stay as they were.
"""
from __future__ import annotations

import ast
import io
import tokenize
import warnings
from typing import NamedTuple

from flake8_escapes import checks, escapes, invalid, literals, rules, usage

SAFE = tuple(rule.code for rule in rules.RULES if rule.fix == rules.SAFE)
UNSAFE = tuple(rule.code for rule in rules.RULES if rule.fix == rules.UNSAFE)
#: Escapes whose backslash stays in the value: a raw literal spells them alike.
KEPT_BY_RAW = frozenset({escapes.INVALID, escapes.STR_ONLY_IN_BYTES})


class Edit(NamedTuple):
    """Replace ``length`` characters at (line, col) by ``text``."""

    line: int
    col: int
    length: int
    text: str


class Result(NamedTuple):
    text: str
    fixed: list[str]                        # one code per escape fixed
    left_alone: list[tuple[int, int, str]]  # (line, col, code) of fixes not made


def read(data: bytes) -> tuple[str, str]:
    """The text of a source file and its encoding, as the compiler reads them
    ('utf-8-sig' when the file starts with a BOM).  Line endings are kept.

    Raises SyntaxError for a bad coding cookie and UnicodeDecodeError for bytes
    the declared encoding cannot read.
    """
    encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    return data.decode(encoding), encoding


def _lines(text: str) -> list[str]:
    return io.StringIO(text, newline='').readlines()


def _can_be_raw(piece: literals.Piece, fixing: set[tuple[int, int]], codes: set[str]) -> bool:
    """Whether prefixing r gives the literal the value the fix wants: every
    escape in it is either kept by a raw literal or one of those being fixed."""
    if piece.spans[0][0] == 0:
        return False  # a piece of a 3.12+ f-string or t-string: doubled instead
    prefix = literals.split_prefix(piece.text)[0]
    if set(prefix) & set('uft') or 'ESC303' in codes:
        return False  # no 'ur' in Python 3; f-strings are doubled; \777 is respelled
    for begin, end in piece.spans:
        for escape in escapes.escapes_in(piece.text, piece.is_bytes, begin, end, piece.lookahead):
            if escape.kind in KEPT_BY_RAW:
                continue
            if literals.position(piece.start, piece.text, escape.offset) not in fixing:
                return False
    return True


def _plan(piece: literals.Piece, items: list[tuple[str, literals.Found]]) -> list[Edit]:
    codes = {code for code, _ in items}
    if _can_be_raw(piece, {(found.line, found.col) for _, found in items}, codes):
        return [Edit(piece.start[0], piece.start[1], 0, 'r')]
    edits = []
    for code, found in items:
        if code == 'ESC303':
            value = invalid.spelled_value(found.escape.text, piece.is_bytes)
            edits.append(Edit(found.line, found.col, len(found.escape.text), value))
        else:
            edits.append(Edit(found.line, found.col, 0, '\\'))
    return edits


def apply(text: str, edits: list[Edit]) -> str:
    """``text`` with ``edits`` made (positions are those of the original text)."""
    starts = [0]
    for line in _lines(text):
        starts.append(starts[-1] + len(line))
    out = text
    for edit in sorted(edits, reverse=True):
        at = starts[edit.line - 1] + edit.col
        out = out[:at] + edit.text + out[at + edit.length:]
    return out


def parse(text: str) -> ast.Module:
    """``ast.parse`` without the compiler's warnings about the very escapes
    being fixed (they would reach the user's terminal)."""
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        return ast.parse(text)


def _same_ast(a: ast.AST, text: str) -> bool:
    try:
        return ast.dump(a) == ast.dump(parse(text))
    except SyntaxError:
        return False


def fix_text(
    text: str, codes: set[str], regex_functions: dict[str, usage.Signature] | None = None,
) -> Result:
    """Fix the reports of ``codes`` in ``text``.  Raises SyntaxError when the
    text does not parse.

    Safe fixes are checked: a literal whose safe fix would change the module's
    AST is left alone and listed (none is known; the check keeps it so).
    """
    lines = _lines(text)
    tree = parse(text)
    with warnings.catch_warnings():  # 3.12+'s tokenizer warns about '\{' as the compiler does
        warnings.simplefilter('ignore')
        tokens = list(tokenize.generate_tokens(iter(lines).__next__))
    by_piece: dict[literals.Piece, list[tuple[str, literals.Found]]] = {}
    for report in checks.all_reports(tree, tokens, lines, regex_functions or {}):
        if report.code in codes:
            by_piece.setdefault(report.found.piece, []).append((report.code, report.found))
    safe: list[tuple[list[Edit], list[tuple[str, literals.Found]]]] = []
    unsafe: list[Edit] = []
    fixed: list[str] = []
    for piece, items in by_piece.items():
        edits = _plan(piece, items)
        if all(code in SAFE for code, _ in items):
            safe.append((edits, items))
        else:
            unsafe.extend(edits)
            fixed.extend(code for code, _ in items)
    left_alone: list[tuple[int, int, str]] = []
    safe_edits = [edit for edits, _ in safe for edit in edits]
    if safe_edits and not _same_ast(tree, apply(text, safe_edits)):
        # Find the literals to blame, one at a time, and leave them alone.
        safe_edits = []
        for edits, items in safe:
            if _same_ast(tree, apply(text, edits)):
                safe_edits.extend(edits)
            else:
                left_alone.extend((found.line, found.col, code) for code, found in items)
        if not _same_ast(tree, apply(text, safe_edits)):  # together they still differ: none
            left_alone = [(f.line, f.col, c) for _, items in safe for c, f in items]
            safe_edits = []
    fixed.extend(code for edits, items in safe for code, _ in items
                 if edits and edits[0] in safe_edits)
    return Result(apply(text, safe_edits + unsafe), sorted(fixed), sorted(left_alone))
