"""All the checks of one file: the escapes, the AST roles when needed, each family's reports.

The families live in their own modules: ``invalid`` (ESC3xx), ``regex`` (ESC4xx),
``paths`` (ESC5xx), ``tex`` (ESC601) and ``doctests`` (ESC602); ``roles`` says where a
literal is used (reading ``names`` and the ``apis`` rows), and hands the regex family
what it needs about the module.
"""
from __future__ import annotations

import ast
import sys
import tokenize
from typing import Iterable, Iterator, NamedTuple

from flake8_escapes import apis, doctests, escapes, invalid, literals, paths, regex, roles, rules, tex


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


def scan(tokens: list[tokenize.TokenInfo], lines: list[str]) -> Scan:
    judge = paths.PathJudge(tokens, lines)
    pieces = Pieces(judge)
    found = list(literals.escapes(tokens, lines, pieces))
    candidates = [item for item in found if regex.is_regex_candidate(item)]
    maybe_paths = [item for item in found
                   if item.kept == paths.PATH_IF_USED and paths.is_path_hazard(item.escape)]
    commands = list(tex.candidates(pieces.tex)) if pieces.tex else []
    return Scan(found, judge, pieces, candidates, maybe_paths, commands)


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
    doctest_reports = doctests.reports(found.pieces.doctest, EVERY_ROW, None, paths.ExampleReader())
    if found.pieces.doctest and next(doctest_reports, None) is not None:
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


#: What ``PathJudge`` says of a literal that is a Windows path by its text alone.
TEXT_PATHS = frozenset({paths.PATH_BY_TEXT, paths.PATH_IN_TEXT})
#: The checks of a file that does not parse: what the literals' text alone tells (``text_reports``).
TEXT_CHECKS = 'ESC301-ESC304, ESC501 by its text'
#: ... and those that need its AST.
AST_CHECKS = 'ESC4xx, ESC501 where the use decides, ESC601, ESC602'


def text_reports(tokens: list[tokenize.TokenInfo], lines: list[str]) -> Iterator[rules.Report]:
    """The reports of a file that does not parse (``TEXT_CHECKS``), from its
    literals' tokens (lexed: ``source.lexed_literals``): ESC301-ESC303, ESC304,
    and ESC501 where the literal is a Windows path by its text.  The checks
    that ask where a literal is used, or whether it is a docstring, need the
    AST (``AST_CHECKS``)."""
    found, judge, _, _, _, _ = scan(tokens, lines)
    at = {(item.line, item.col): item for item in found}
    for line, col, rule, fields in (*invalid.reports(found), *paths.reports(found, None, judge)):
        yield rules.Report(line, col, rule, fields, at[line, col])
    yield from refused_reports(tokens, lines)


def all_reports(
    tree: ast.AST,
    tokens: list[tokenize.TokenInfo],
    lines: list[str],
    regex_functions: Iterable[apis.Api],
    *,
    silenced: list[rules.Silenced] | None = None,
) -> Iterator[rules.Report]:
    """Every report of the plugin for one file, with the escape it is about.

    ``silenced``, if given, receives each ESC4xx, ESC5xx and ESC6xx candidate
    that a named exemption (``regex.EXEMPTIONS``, ``paths.EXEMPTIONS``, ...) kept quiet.
    """
    found, judge, pieces, candidates, maybe_paths, commands = scan(tokens, lines)
    at = {(item.line, item.col): item for item in found}
    reports: list[invalid.Finding] = list(invalid.reports(found))
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
