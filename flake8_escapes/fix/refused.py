"""ESC304's fix: the edits that make a file compile whose literals hold escapes CPython refuses.

Such a file has no value to keep (it does not compile), so the fix is unsafe
and chooses what was meant: a literal that reads as a Windows path by its
text becomes raw (its other escapes were meant as backslashes too); any other
literal becomes raw when every other escape in it keeps its meaning in a raw
literal (``\\d`` does, ``\\n`` does not); otherwise the backslash of each
refused escape is doubled (``'\\x4'`` -> ``'\\\\x4'``).  An f- or t-string is
doubled, as every fix of the fixer doubles in them.  The file must parse
afterwards, or nothing is changed; from there the usual rounds and their
proofs run on it.
"""
from __future__ import annotations

import ast
import io
import tokenize
from typing import NamedTuple

from flake8_escapes import checks, escapes, invalid, literals, rules, source
from flake8_escapes.fix import plan
from flake8_escapes.fix.files import Edit, apply
from flake8_escapes.fix.proof import parse

CODE = 'ESC304'
#: Escapes a raw literal spells as the non-raw one means them: kept by raw (``plan.KEPT_BY_RAW``).
KEPT_BY_RAW = plan.KEPT_BY_RAW | {escapes.REFUSED}


class Repair(NamedTuple):
    """The edits that make the text compile, one code per report they fix, and the new AST."""

    edits: list[Edit]
    fixed: list[str]
    tree: ast.AST


def repair(text: str) -> Repair | None:
    """The ESC304 fixes of normalized ``text`` (which does not parse), if
    they make it parse; None when they do not (another syntax error, an
    escape under ``# noqa``, literals the tokenizer cannot read)."""
    lines = io.StringIO(text, newline='').readlines()
    try:
        tokens = plan.tokens_of(lines)
    except (SyntaxError, tokenize.TokenError, SystemError):
        return None
    noqa = source.noqa_lines(tokens, lines) if 'noqa' in text.lower() else {}
    by_piece: dict[literals.Position, list[rules.Report]] = {}
    for report in checks.text_reports(tokens, lines):
        if not plan.silenced(report.code, noqa.get(report.line)):
            by_piece.setdefault(report.found.piece.start, []).append(report)
    edits: list[Edit] = []
    fixed: list[str] = []
    for reports in by_piece.values():
        refused = [report for report in reports if report.code == CODE]
        if not refused:
            continue
        piece = refused[0].found.piece
        if _raw_is_meant(piece, bool(refused[0].fields['path'])):
            line, col = piece.start
            before = lines[line - 1][col - 1:col] if col else ''
            padded = plan._joins_name(before)  # the fixer's own test: x or'...' -> x or r'...'
            edits.append(Edit(line, col, 0, ' r' if padded else 'r'))
            fixed.extend(report.code for report in reports)
        else:
            edits.extend(_doubled(report.found) for report in refused)
            fixed.extend(CODE for _ in refused)
    if not edits:
        return None
    try:
        tree = parse(apply(text, edits))
    except (SyntaxError, ValueError):
        return None
    return Repair(edits, fixed, tree)


def _doubled(found: literals.Found) -> Edit:
    """The backslash of a refused escape doubled; in an f- or t-string, a
    ``\\N{...}`` escape's braces too, which would open a field once the
    backslash is text (``f'\\N{NO SUCH}'`` -> ``f'\\\\N{{NO SUCH}}'``), and
    the ``}`` that an f-string reads as the text of a bare ``\\N{``
    (``f'\\N{}'`` -> ``f'\\\\N{{}}'``, ``checks.NAME_END``)."""
    escape, piece = found.escape, found.piece
    formatted = piece.spans[0][0] == 0 or not _FORMATTED.isdisjoint(literals.split_prefix(piece.text)[0])
    text = escape.text
    if formatted and escape.text == '\\N{':
        ahead = checks.NAME_END.search(piece.text, escape.offset + len(text))
        if ahead is not None and ahead[0] == '}':
            text = piece.text[escape.offset:ahead.end()]
    if formatted and text.startswith('\\N{'):
        braced = text.replace('{', '{{').replace('}', '}}')
        return Edit(found.line, found.col, len(text), '\\' + braced)
    return Edit(found.line, found.col, 0, '\\')


#: The prefixes of an f- or t-string (lower case, as ``split_prefix`` gives them).
_FORMATTED = frozenset('ft')


def _raw_is_meant(piece: literals.Piece, is_path: bool) -> bool:
    """Does the literal become raw: a str or bytes literal (not an f- or
    t-string, not ``u''``) that is a Windows path by its text, or whose every
    escape a raw literal keeps as meant?"""
    if piece.spans[0][0] == 0:
        return False  # a piece of a 3.12+ f- or t-string
    prefix = literals.split_prefix(piece.text)[0]
    if set(prefix) & set('uft'):
        return False
    if is_path:  # unless it spells a backslash as '\\\\' too, which raw would make two (issue 40)
        return not invalid.holds_escaped_backslash(piece)
    return all(escape.kind in KEPT_BY_RAW or escapes.refused(escape)
               for begin, end in piece.spans
               for escape in escapes.escapes_in(piece.text, piece.is_bytes, begin, end))
