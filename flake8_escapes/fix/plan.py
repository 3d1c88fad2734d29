"""The fixer's plan: which reports a round fixes (codes asked for, ``# noqa``
honoured as flake8 honours it) and the edits that fix them, one per escape,
grouped by the literal they stand in.

Safe fixes keep the value of every literal:

- ESC301, ESC302: the literal becomes raw when that spells the same value
  (every backslash in it starts an escape a raw literal keeps as it is),
  otherwise the backslash of each bad escape is doubled;
- ESC303: the escape is spelled another way ('\\777' -> '\\u01ff',
  b'\\777' -> b'\\xff', the byte CPython stores).

Unsafe fixes (ESC401, ESC402, ESC501) change the value to what the author
meant: the literal becomes raw where every other escape in it allows it,
otherwise the reported backslashes are doubled.  Whether an edit is kept is
for ``proof`` to say.
"""
from __future__ import annotations

import ast
import re
import sys
import tokenize
import warnings
from bisect import bisect_right
from typing import NamedTuple

from flake8_escapes import apis, checks, doctests, escapes, invalid, literals, rules, source
from flake8_escapes.fix.files import Edit

try:  # flake8's own noqa regexes, so that the fixer skips exactly what flake8 silences
    from flake8.defaults import NOQA_FILE, NOQA_INLINE_REGEXP
except ImportError:  # pragma: no cover - flake8 is a dependency
    NOQA_INLINE_REGEXP = re.compile(r'# noqa(?::[\s]?(?P<codes>([A-Z]+[0-9]+(?:[,\s]+)?)+))?', re.I)
    NOQA_FILE = re.compile(r'\s*# flake8[:=]\s*noqa', re.I)

SAFE = tuple(rule.code for rule in rules.RULES if rule.fix == rules.SAFE)
UNSAFE = tuple(rule.code for rule in rules.RULES if rule.fix == rules.UNSAFE)
#: Escapes whose backslash stays in the value: a raw literal spells them alike.
KEPT_BY_RAW = frozenset({escapes.INVALID, escapes.STR_ONLY_IN_BYTES})

#: f- and t-string nodes, and their fields (TemplateStr, Interpolation: 3.14+).
FORMATTED = tuple(getattr(ast, name) for name in ('JoinedStr', 'TemplateStr') if hasattr(ast, name))
FIELDS = tuple(getattr(ast, name) for name in ('FormattedValue', 'Interpolation') if hasattr(ast, name))
INTERPOLATION = tuple(getattr(ast, name) for name in ('Interpolation',) if hasattr(ast, name))
#: Where the AST places an f-string's parts (3.12+): a field's text can hold a
#: literal of its own.  Before 3.12 an f-string is one token, every part of it
#: is placed at the whole f-string, and a field cannot hold a backslash.
FIELDS_PLACED = sys.version_info >= (3, 12)

#: The reports to fix in each piece, by the piece's start (a piece's own hash
#: reads its whole text and spans: one long f-string would cost a pass per report).
Planned = dict[literals.Position, tuple[literals.Piece, list[tuple[str, literals.Found]]]]
Span = tuple[literals.Position, literals.Position]


class Context(NamedTuple):
    """What a round knows of the (normalized) text it fixes."""

    text: str
    lines: list[str]
    tree: ast.AST
    tokens: list[tokenize.TokenInfo]
    starts: dict[tuple[int, int], int]   # where each literal piece's token is in ``tokens``
    functions: tuple[apis.Api, ...]


class Unit(NamedTuple):
    """One literal (STRING token or whole f-string) and the fixes planned in it."""

    start: tuple[int, int]
    end: tuple[int, int]
    edits: list[Edit]
    items: list[tuple[str, literals.Found]]
    safe: bool


# noqa -----------------------------------------------------------------------

def file_silenced(text: str, lines: list[str]) -> bool:
    """Does flake8 ignore the whole file (``# flake8: noqa``)?"""
    return 'flake8' in text and any(NOQA_FILE.match(line) for line in lines)


def silenced(code: str, line: str | None) -> bool:
    """flake8's ``Violation.is_inline_ignored`` for ``code`` on ``line``."""
    match = NOQA_INLINE_REGEXP.search(line or '')
    if match is None:
        return False
    listed = match.groupdict()['codes']
    if listed is None:
        return True
    codes = {item.strip() for item in re.split(r'[,\s]', listed) if item.strip()}
    return code in codes or code.startswith(tuple(codes))


# Which reports --------------------------------------------------------------

def tokens_of(lines: list[str]) -> list[tokenize.TokenInfo]:
    """The tokens of the whole text (one string per row for their lines: ``source.token_stream``)."""
    with warnings.catch_warnings():  # 3.12+'s tokenizer warns about '\{' as the compiler does
        warnings.simplefilter('ignore')
        return source.file_tokens(lines)


class Left(NamedTuple):
    """A report only ``--unsafe`` would fix (its code is not being fixed)."""

    code: str
    line: int
    col: int


def reports_to_fix(context: Context, codes: set[str]) -> tuple[Planned, list[Left]]:
    """The reports of ``codes`` that ``# noqa`` does not silence, by literal
    piece; and the reports only ``--unsafe`` would fix."""
    noqa = source.noqa_lines(context.tokens, context.lines) if 'noqa' in context.text.lower() else {}
    by_piece: Planned = {}
    unsafe_left: list[Left] = []
    for report in checks.all_reports(context.tree, context.tokens, context.lines, context.functions):
        if silenced(report.code, noqa.get(report.line)):
            continue
        if report.code in codes:
            _add(by_piece, report.code, report.found)
        elif report.code in UNSAFE:
            unsafe_left.append(Left(report.code, report.line, report.col))
    return by_piece, unsafe_left


def held_for_unsafe(
    by_piece: Planned, unsafe: list[Left],
) -> tuple[Planned, list[tuple[str, literals.Found]]]:
    """``by_piece`` less the ESC303 respellings of escapes that a code not
    being fixed also reports (ESC501: respelling '\\477' in 'C:\\temp\\477.txt'
    as '\\u013f' would lose the path that was meant), and those held back."""
    places = {(report.line, report.col) for report in unsafe}
    if not places:
        return by_piece, []
    kept: Planned = {}
    held: list[tuple[str, literals.Found]] = []
    for piece, items in by_piece.values():
        for code, found in items:
            if code == 'ESC303' and (found.line, found.col) in places:
                held.append((code, found))
            else:
                _add(kept, code, found)
    return kept, held


def _add(planned: Planned, code: str, found: literals.Found) -> None:
    planned.setdefault(found.piece.start, (found.piece, []))[1].append((code, found))


def piece_starts(tokens: list[tokenize.TokenInfo]) -> dict[tuple[int, int], int]:
    """Where each literal piece's token stands in ``tokens``, by its start."""
    return {tok[2]: index for index, tok in enumerate(tokens) if tok[0] in literals.PIECE_TYPES}


# Which edits ----------------------------------------------------------------

def _can_be_raw(piece: literals.Piece, fixing: set[tuple[int, int]], codes: set[str]) -> bool:
    """Whether prefixing r gives the literal the value the fix wants: every
    escape in it is either kept by a raw literal or one of those being fixed."""
    if piece.spans[0][0] == 0:
        return False  # a piece of a 3.12+ f-string or t-string: doubled instead
    prefix = literals.split_prefix(piece.text)[0]
    if set(prefix) & set('uft') or 'ESC303' in codes:
        return False  # no 'ur' in Python 3; f-strings are doubled; \777 is respelled
    positions = literals.Positions(piece.start, piece.text)  # offsets in order: linear in the literal
    for begin, end in piece.spans:
        for escape in escapes.escapes_in(piece.text, piece.is_bytes, begin, end, piece.lookahead):
            if escape.kind in KEPT_BY_RAW:
                continue
            if positions.at(escape.offset) not in fixing:
                return False
    return True


def _joins_name(char: str) -> bool:
    """Would ``char`` followed by ``r'...'`` read as one name (``orr'...'``)?"""
    return bool(char) and ('a' + char + 'r').isidentifier()


def edits_for(piece: literals.Piece, items: list[tuple[str, literals.Found]], lines: list[str]) -> list[Edit]:
    """The edits that fix ``items`` in ``piece``: an ``r`` prefix, or one edit
    per escape, however many codes report it (two edits at one escape would
    double its backslash twice)."""
    by_escape: dict[tuple[int, int], tuple[literals.Found, set[str]]] = {}
    for code, found in items:
        by_escape.setdefault((found.line, found.col), (found, set()))[1].add(code)
    # ESC303 alone is respelled; with a code that wants the backslash kept
    # (ESC501: 'C:\temp\477.txt' is a path), the backslash is kept instead.
    respelled = {at for at, (_, codes) in by_escape.items() if codes == {'ESC303'}}
    codes = {'ESC303'} if respelled else {code for code, _ in items} - {'ESC303'}
    if _can_be_raw(piece, set(by_escape), codes):
        line, col = piece.start
        before = lines[line - 1][col - 1:col] if col else ''
        return [Edit(line, col, 0, ' r' if _joins_name(before) else 'r')]
    edits = []
    for at, (found, _) in by_escape.items():
        if at in respelled:
            value = invalid.spelled_value(found.escape.text, piece.is_bytes)
            edits.append(Edit(found.line, found.col, len(found.escape.text), value))
        else:  # the backslash doubled; a '\\\\' (ESC602's doubled-path) gets two more
            doubled = found.escape.text == '\\\\'
            edits.append(Edit(found.line, found.col, 0, found.escape.text if doubled else '\\'))
    return edits


def literal_spans(tokens: list[tokenize.TokenInfo]) -> dict[literals.Position, Span]:
    """(start, end) of the whole f-/t-string (from its START to its END token)
    that holds each MIDDLE piece, by the piece's start: one pass over the
    tokens, however many pieces an f-string has."""
    spans: dict[literals.Position, Span] = {}
    open_: list[tuple[int, list[literals.Position]]] = []  # START index, its MIDDLE pieces' starts
    for index, tok in enumerate(tokens):
        kind = tok[0]
        if kind in literals.START_TYPES:
            open_.append((index, []))
        elif kind in literals.END_TYPES and open_:
            first, middles = open_.pop()
            span = (tokens[first][2], token_end(tok))
            spans.update(dict.fromkeys(middles, span))
        elif kind in literals.MIDDLE_TYPES and open_:
            open_[-1][1].append(tok[2])
    return spans


def token_end(token: tokenize.TokenInfo) -> tuple[int, int]:
    """Where a token ends, from its text (3.12.1 counts the end column of a
    multi-line token in bytes)."""
    return literals.position(token[2], token[1], len(token[1]))


def nested_starts(tokens: list[tokenize.TokenInfo]) -> set[tuple[int, int]]:
    """The starts of the literals that stand inside an f- or t-string's field."""
    found = set()
    depth = 0
    for kind, _, start, _, _ in tokens:
        if kind in literals.START_TYPES:
            if depth:
                found.add(start)
            depth += 1
        elif kind in literals.END_TYPES:
            depth -= 1
        elif depth and kind == literals.STRING:
            found.add(start)
    return found


def units(by_piece: Planned, context: Context) -> list[Unit]:
    """The planned fixes, grouped by literal (an f-string's pieces together)."""
    found: dict[tuple[int, int], Unit] = {}
    middles: dict[literals.Position, Span] | None = None  # built on the first f-string piece
    for piece, items in by_piece.values():
        tok = context.tokens[context.starts[piece.start]]
        if tok[0] == literals.STRING:
            start, end = tok[2], token_end(tok)
        else:
            if middles is None:
                middles = literal_spans(context.tokens)
            start, end = middles[piece.start]
        unit = found.setdefault(start, Unit(start, end, [], [], True))
        unit.edits.extend(edits_for(piece, items, context.lines))
        unit.items.extend(items)
        if not all(code in SAFE for code, _ in items):
            found[start] = unit._replace(safe=False)
    return list(found.values())


# Fields whose text is a value ----------------------------------------------

def text_fields(tree: ast.AST) -> list[tuple[ast.expr, ast.Constant | None]]:
    """The fields whose text is part of a value, each with the Constant that
    holds its debug text: an f-string field with a ``=`` (its debug text is
    the Constant before it, whose place reaches into the field's) and every
    t-string field (its Interpolation's ``str``; with ``=``, a debug text too).
    Only from 3.12 on (``FIELDS_PLACED``)."""
    found: list[tuple[ast.expr, ast.Constant | None]] = []
    if not FIELDS_PLACED:
        return found
    for node in ast.walk(tree):
        if not isinstance(node, FORMATTED):
            continue
        before: ast.expr | None = None
        values: list[ast.expr] = getattr(node, 'values')  # JoinedStr's and TemplateStr's alike
        for value in values:
            if isinstance(value, FIELDS):
                debug: ast.Constant | None = None
                if isinstance(before, ast.Constant) and _reaches(before, value):
                    debug = before
                if debug is not None or isinstance(value, INTERPOLATION):
                    found.append((value, debug))
            before = value
    return found


def has_text_fields(tokens: list[tokenize.TokenInfo]) -> bool:
    """Can the module hold a field whose text is part of a value: a t-string,
    or an ``=`` that stands in an f-string's field (a debug text, or a keyword
    argument there)?  The edits never write an ``=`` nor a t-string."""
    if not FIELDS_PLACED:
        return False
    depth = 0
    for kind, text, _, _, _ in tokens:
        if kind == literals.TSTRING_START:
            return True
        if kind == literals.FSTRING_START:
            depth += 1
        elif kind in literals.END_TYPES:
            depth -= 1
        elif depth and kind == tokenize.OP and text == '=':
            return True
    return False


def _reaches(text: ast.Constant, field: ast.expr) -> bool:
    """Does ``text`` end inside ``field`` (so that it holds the field's debug text)?"""
    return (text.end_lineno or 0, text.end_col_offset or 0) > (field.lineno, field.col_offset)


def in_text_fields(found: list[Unit], context: Context) -> tuple[list[Unit], list[Unit]]:
    """``found`` split into the units outside the fields whose text is part of
    a value (``text_fields``: an f-string's ``{...=}``, a t-string's field) and
    those inside, whose fix would change that text, safe or not."""
    if not found or not has_text_fields(context.tokens):
        return found, []
    nested = nested_starts(context.tokens)
    if not any(unit.start in nested for unit in found):
        return found, []
    spans = _outermost(sorted(((field.lineno, field.col_offset),
                               (field.end_lineno or 0, field.end_col_offset or 0))
                              for field, _ in text_fields(context.tree)))
    starts = [start for start, _ in spans]
    inside: list[Unit] = []
    for unit in found:
        if unit.start in nested:
            line, col = unit.start
            at = (line, len(context.lines[line - 1][:col].encode('utf-8')))  # the AST counts utf-8 bytes
            index = bisect_right(starts, at) - 1
            if index >= 0 and at < spans[index][1]:
                inside.append(unit)
    ids = {id(unit) for unit in inside}
    return [unit for unit in found if id(unit) not in ids], inside


def _outermost(spans: list[Span]) -> list[Span]:
    """Sorted spans with those inside another merged into it."""
    merged: list[Span] = []
    for start, end in spans:
        if merged and start < merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def keeps_examples(unit: Unit) -> bool:
    """Is ``unit`` an ESC602 fix that must keep doctest's examples as they
    compile: each of its ESC602 escapes a control character (or another one
    Python does not print), not a line break, outside a raw string of an
    example (``doctests.SHOWN_CONTROL``, or one in the quotes of an output:
    the example's source is the same)?"""
    places = {(found.line, found.col) for code, found in unit.items if code == 'ESC602'}
    if not places:
        return False
    pieces = {found.piece.start: found.piece for code, found in unit.items if code == 'ESC602'}
    shown = set()
    for piece in pieces.values():
        for candidate in doctests.candidates(piece):
            value = escapes.value_of(candidate.found.escape)
            if (candidate.place != doctests.IN_RAW_STRING and value not in doctests.LINE_BREAKS
                    and (doctests.is_control(value) or not value.isprintable())):
                shown.add((candidate.found.line, candidate.found.col))
    return places <= shown


def fixed_codes(unit: Unit) -> list[str]:
    """One code per escape fixed in ``unit``: of two codes at one escape, the
    one whose fix was made (ESC501's kept backslash, not ESC303's respelling)."""
    by_escape: dict[tuple[int, int], str] = {}
    for code, found in unit.items:
        at = (found.line, found.col)
        by_escape[at] = max(code, by_escape.get(at, code))
    return list(by_escape.values())


def safe_part(refused: list[Unit]) -> Planned:
    """The safe fixes of literals whose unsafe fix was refused: they are still made."""
    safe_only: Planned = {}
    for unit in refused:
        for code, found in unit.items:
            if code in SAFE:
                _add(safe_only, code, found)
    return safe_only
