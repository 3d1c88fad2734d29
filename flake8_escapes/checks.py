"""All the checks of one file: the escapes, the AST roles when needed, each family's reports.

The families live in their own modules: ``invalid`` (ESC3xx), ``regex`` (ESC4xx),
``paths`` (ESC5xx), ``tex`` (ESC601) and ``doctests`` (ESC602); ``roles`` says where a
literal is used (reading ``names`` and the ``apis`` rows), and hands the regex family
what it needs about the module.
"""
from __future__ import annotations

import ast
import re
import sys
import tokenize
from typing import Iterable, Iterator, NamedTuple

from flake8_escapes import apis, doctests, escapes, invalid, literals, paths, quotes, regex, roles, rules, tex


SEARCH_COMMAND = tex.may_hold_command


class Pieces:
    """The callback of ``literals.escapes``: the ``paths.PathJudge``'s verdict
    on each piece, and, on the side, the pieces that may hold an ESC601 or an
    ESC602 candidate (their everyday escapes are scanned by those families only)."""

    def __init__(self, judge: paths.PathJudge) -> None:
        self.judge = judge
        self.tex: list[literals.Piece] = []
        self.doctest: list[literals.Piece] = []

    def __call__(self, piece: literals.Piece) -> str:
        text = piece.text  # the two tests below, first in C: most pieces fail both
        if SEARCH_COMMAND(text) and tex.may_hold_candidate(piece):
            self.tex.append(piece)
        if '>>>' in text and doctests.may_hold_candidate(piece):
            self.doctest.append(piece)
        return self.judge(piece)


class Scan(NamedTuple):
    """What the tokens alone say of one file: its escapes, and those that need the AST."""

    found: list[literals.Found]
    judge: paths.PathJudge
    pieces: Pieces
    candidates: list[literals.Found]     # ESC4xx candidates: their roles decide
    maybe_paths: list[literals.Found]    # ESC501 hazards of a literal that is a path if used as one
    commands: list[tex.Candidate]        # ESC601 candidates
    compiler: list[invalid.Finding] | None = None  # ESC301-ESC303, where known (``merged``)


def scan(tokens: list[tokenize.TokenInfo], lines: list[str]) -> Scan:
    judge = paths.PathJudge(tokens, lines)
    pieces = Pieces(judge)
    found = list(literals.escapes(tokens, lines, pieces))
    candidates = [item for item in found if regex.is_regex_candidate(item)]
    maybe_paths = [item for item in found
                   if item.kept == paths.PATH_IF_USED and paths.is_path_hazard(item.escape)]
    commands = list(tex.candidates(pieces.tex)) if pieces.tex else []
    return Scan(found, judge, pieces, candidates, maybe_paths, commands)


def merged(parts: list[Scan], tokens: list[tokenize.TokenInfo], lines: list[str]) -> Scan:
    """The ``scan`` of ``tokens`` made of the scans of its parts, in order (each of the tokens of
    whole statements, the same tokens at the same places, scanned on the same ``lines``): a
    literal's escapes and verdicts are its own, so they are the same; the judge of the whole
    tokens knows the parts' verdicts, and the ESC3xx findings (each escape's own) are the parts'."""
    judge = paths.PathJudge(tokens, lines)
    pieces = Pieces(judge)
    found: list[literals.Found] = []
    candidates: list[literals.Found] = []
    maybe_paths: list[literals.Found] = []
    commands: list[tex.Candidate] = []
    compiler: list[invalid.Finding] = []
    for part in parts:
        judge.learn(part.judge)
        pieces.tex += part.pieces.tex
        pieces.doctest += part.pieces.doctest
        found += part.found
        candidates += part.candidates
        maybe_paths += part.maybe_paths
        commands += part.commands
        compiler += part.compiler if part.compiler is not None else invalid.reports(part.found)
    return Scan(found, judge, pieces, candidates, maybe_paths, commands, compiler)


def may_report(tokens: list[tokenize.TokenInfo], lines: list[str]) -> bool:
    """Could ``all_reports`` report anything on ``tokens`` (and on any subset
    of them: each literal is judged on its own)?  False only when no escape of
    theirs is one a check looks at: no ESC3xx, no ESC501 from the text alone,
    and no candidate whose role (ESC4xx, ESC501, ESC601) only the AST could
    tell, nor an escape that changes a doctest example (ESC602) should its
    literal be a docstring, which only the AST tells."""
    found = scan(tokens, lines)
    if found.candidates or found.maybe_paths or found.commands:
        return True
    if found.pieces.doctest and next(doctests.reports(
            found.pieces.doctest, EVERY_ROW, None, paths.ExampleReader()), None) is not None:
        return True  # an ESC602 if the literal is a docstring, which only the AST tells
    return (next(invalid.reports(found.found), None) is not None
            or next(paths.reports(found.found, None, found.judge), None) is not None
            or may_be_refused(found.found, tokens, lines))


#: ``doctests.reports``' docstring rows for a literal whose place is not known: every row.
EVERY_ROW = [(1, sys.maxsize)]


def may_be_refused(found: list[literals.Found], tokens: list[tokenize.TokenInfo], lines: list[str]) -> bool:
    """Does an escape of ``tokens`` make the file fail to compile (ESC304)?  The
    escapes ``found`` are those of the pieces that do not look everyday, and
    a ``\\N{...}`` that names nothing looks everyday: the few tokens that
    hold one are scanned whole."""
    if any(item.escape.kind == escapes.REFUSED for item in found):
        return True
    named = [tok for tok in tokens if '\\N{' in tok[1]]
    return bool(named) and any(
        escapes.refused(item.escape) for item in literals.escapes(named, lines, _every_piece))


def _every_piece(piece: literals.Piece) -> str:
    """``literals.escapes``' callback that keeps the everyday escapes of every piece."""
    return 'every'


def refused_reports(tokens: list[tokenize.TokenInfo], lines: list[str]) -> Iterator[rules.Report]:
    """ESC304: each escape of ``tokens`` that CPython refuses, the message
    naming a Windows path where the literal reads as one by its text."""
    judge = paths.PathJudge(tokens, lines)
    found = list(literals.escapes(tokens, lines, _every_piece))
    at = {(item.line, item.col): item for item in found}
    for line, col, rule, fields in invalid.refused(found, lambda piece: judge(piece) in TEXT_PATHS):
        yield rules.Report(line, col, rule, fields, at[line, col])


class Masked(NamedTuple):
    """A file's lines, its refused escapes masked for the parser (``refused_masked``), and their ESC304s."""

    lines: list[str]
    refused: list[rules.Report]


#: What a refused escape's backslash, and the braces of a ``\\N{...}``, read as in the text
#: given to the parser (``refused_masked``): not a backslash, an octal digit, a quote or a brace.
MASK = {'\\': '/', '{': '_', '}': '_'}


def refused_masked(tokens: list[tokenize.TokenInfo], lines: list[str]) -> Masked | None:
    """The lines with each escape CPython refuses (ESC304, ``refused_reports``)
    masked, and those reports: its backslash read as ``/`` (no escape then; nor
    an octal digit, so the escape before it keeps its meaning), the braces of a
    ``\\N{...}`` as ``_`` (an f- or t-string gains no field), every other
    character, line end and column where it was, so that the AST of the masked
    text stands where the real tokens do (issue 39).  None where an escape is
    not found at its place in ``lines``."""
    refused = list(refused_reports(tokens, lines))
    rows: dict[int, list[str]] = {}
    for report in refused:
        if not _masked(report.line, report.col, report.found.escape.text, lines, rows):
            return None
    masked = [''.join(rows[number]) if number in rows else line for number, line in enumerate(lines, 1)]
    return Masked(masked, refused)


def _masked(line: int, col: int, text: str, lines: list[str], rows: dict[int, list[str]]) -> bool:
    """Mask the escape ``text`` at (line, col) in ``rows`` (each line's characters, once
    changed); False where ``lines`` do not hold it there."""
    for char in text:
        row = rows.get(line)
        if row is None:  # each row copied once: linear in a long row of escapes
            row = rows[line] = list(lines[line - 1]) if line <= len(lines) else []
        if col >= len(row) or row[col] != char:
            return False
        row[col] = MASK.get(char, char)  # a name never holds a backslash: only the first is one
        col += 1
        if col == len(row) and char in '\r\n':
            line, col = line + 1, 0
    if text == '\\N{' and line <= len(lines):
        # A '\N{' without a name: an f-string's tokenizer (3.12+) or parser (3.11) reads
        # on to the next '}' as text, unless a field's '{' or the quote comes first.
        ahead = NAME_END.search(lines[line - 1], col)
        if ahead is not None and ahead[0] == '}':
            rows[line][ahead.start()] = '_'
    return True


#: What ends the name of a ``\\N{`` in an f-string's text: its brace, a field, a quote, the row's end.
NAME_END = re.compile('[{}\'"\r\n]')


#: What ``PathJudge`` says of a literal that is a Windows path by its text alone.
TEXT_PATHS = frozenset({paths.PATH_BY_TEXT, paths.PATH_IN_TEXT})
#: The checks of a file that does not parse: what the literals' text alone tells (``text_reports``).
TEXT_CHECKS = 'ESC301-ESC305, ESC501 by its text'
#: ... and those that need its AST.
AST_CHECKS = 'ESC4xx, ESC501 where the use decides, ESC601, ESC602'


def text_reports(tokens: list[tokenize.TokenInfo], lines: list[str]) -> Iterator[rules.Report]:
    """The reports of a file that does not parse (``TEXT_CHECKS``), from its
    literals' tokens (lexed: ``source.lexed_literals``): ESC301-ESC303, ESC304,
    and ESC501 where the literal is a Windows path by its text.  The checks
    that ask where a literal is used, or whether it is a docstring, need the
    AST (``AST_CHECKS``)."""
    found, judge = scan(tokens, lines)[:2]
    at = {(item.line, item.col): item for item in found}
    for line, col, rule, fields in (*invalid.reports(found), *paths.reports(found, None, judge)):
        yield rules.Report(line, col, rule, fields, at[line, col])
    yield from refused_reports(tokens, lines)


def may_close_badly(lines: list[str]) -> bool:
    """May ``lines`` hold an ESC305 (``quotes.may_hold``: the rows' text alone)?"""
    return quotes.may_hold(lines)


class Closed(NamedTuple):
    """ESC305's reports of a text that does not parse, and its lines with each of their
    backslashes doubled (``mended``: the literals end where meant), for the other checks."""

    reports: list[rules.Report]
    mended: list[str]


def closing_reports(lines: list[str]) -> Closed:
    """ESC305: each backslash that escapes the closing quote of a Windows path
    (``quotes.escaped_quotes``, proved by the tokenizer), in a text that does not parse."""
    text = ''.join(lines)
    if "\\'" not in text and '\\"' not in text:
        return Closed([], lines)
    found = quotes.escaped_quotes(text.replace('\r\n', '\n') if '\r' in text else text)
    if not found:
        return Closed([], lines)
    reports = []
    for item in found:
        row = lines[item.line - 1]
        piece = literals.Piece((item.line, item.col), row[item.col:item.col + 2], (), item.is_bytes, '')
        found_at = literals.Found(item.line, item.col, quotes.escape_of(item), piece)
        reports.append(rules.Report(item.line, item.col, rules.ESC305, quotes.message_fields(item), found_at))
    mended = list(lines)
    for item in reversed(found):  # from the last: the columns of the others stay
        row = mended[item.line - 1]
        mended[item.line - 1] = row[:item.col] + '\\' + row[item.col:]
    return Closed(reports, mended)


def unmended(reports: Iterable[rules.Report], closed: Closed) -> Iterator[rules.Report]:
    """``reports`` on ``closed.mended`` at their places in the text as written."""
    doubled: dict[int, list[int]] = {}
    for report in closed.reports:
        doubled.setdefault(report.line, []).append(report.col)
    for cols in doubled.values():
        cols.sort()  # once per row, not per report
    for report in reports:
        row = doubled.get(report.line)
        if not row:
            yield report
            continue
        shift = sum(1 for index, col in enumerate(row) if col + index < report.col)
        col = report.col - shift
        found = report.found._replace(col=col)
        yield report._replace(col=col, found=found)


def all_reports(
    tree: ast.AST,
    tokens: list[tokenize.TokenInfo],
    lines: list[str],
    regex_functions: Iterable[apis.Api],
    *,
    silenced: list[rules.Silenced] | None = None,
    scanned: Scan | None = None,
) -> Iterator[rules.Report]:
    """Every report of the plugin for one file, with the escape it is about.

    ``silenced``, if given, receives each ESC4xx, ESC5xx and ESC6xx candidate
    that a named exemption (``regex.EXEMPTIONS``, ``paths.EXEMPTIONS``, ...) kept quiet.
    ``scanned``: the ``scan`` of ``tokens`` where it is known (``merged``), else it is made.
    """
    found, judge, pieces, candidates, maybe_paths, commands, compiler = scanned or scan(tokens, lines)
    at = {(item.line, item.col): item for item in found}
    reports: list[invalid.Finding] = list(invalid.reports(found) if compiler is None else compiler)
    used: list[roles.Role] = []
    if candidates or maybe_paths or commands:  # the AST pass only for files that need it
        # ESC601 asks the roles of its commands' literals (a TeX API, a discarded string)
        candidate_lines = sorted({item.line for item in candidates + maybe_paths}.union(
            item.found.line for item in commands))
        used = roles.literal_roles(tree, lines, regex_functions, candidate_lines)
    reports.extend(paths.reports(found, used, judge, silenced))
    if candidates:
        looked_for = roles.looked_for_later(tree, lines)  # walked only if an exemption asks
        reports.extend(regex.reports(candidates, used, silenced, looked_for))
    for line, col, rule, fields in reports:
        yield rules.Report(line, col, rule, fields, at[line, col])
    docstrings = doctests.docstring_rows(tree) if commands or pieces.doctest else []  # statements only
    path_escapes = frozenset((line, col) for line, col, rule, _ in reports if rule is rules.ESC501)
    for line, col, rule, fields, item in tex.reports(commands, used, lines, docstrings, silenced,
                                                     path_escapes):
        yield rules.Report(line, col, rule, fields, item)
    if pieces.doctest:
        for line, col, rule, fields, item in doctests.reports(pieces.doctest, docstrings, silenced,
                                                              paths.ExampleReader()):
            yield rules.Report(line, col, rule, fields, item)
