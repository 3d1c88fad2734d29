"""All the checks of one file: the escapes, the AST roles when needed, each family's reports.

The families live in their own modules: ``invalid`` (ESC3xx), ``regex`` (ESC4xx)
and ``paths`` (ESC5xx); ``roles`` says where a literal is used (reading ``names`` and
the ``apis`` rows), and hands the regex family what it needs about the module.
"""
from __future__ import annotations

import ast
import tokenize
from typing import Iterable, Iterator

from flake8_escapes import apis, invalid, literals, paths, regex, roles, rules


def all_reports(
    tree: ast.AST,
    tokens: list[tokenize.TokenInfo],
    lines: list[str],
    regex_functions: Iterable[apis.Api],
    *,
    silenced: list[rules.Silenced] | None = None,
) -> Iterator[rules.Report]:
    """Every report of the plugin for one file, with the escape it is about.

    ``silenced``, if given, receives each ESC4xx candidate and ESC5xx hazard
    that a named exemption (``regex.EXEMPTIONS``, ``paths.EXEMPTIONS``) kept quiet.
    """
    judge = paths.PathJudge(tokens)
    found = list(literals.escapes(tokens, lines, judge))
    at = {(item.line, item.col): item for item in found}
    reports: list[invalid.Finding] = list(invalid.reports(found))
    candidates = [item for item in found if regex.is_regex_candidate(item)]
    maybe_paths = [item for item in found
                   if item.kept == paths.PATH_IF_USED and paths.is_path_hazard(item.escape)]
    used: list[roles.Role] = []
    if candidates or maybe_paths:  # the AST pass only for files that need it
        candidate_lines = sorted({item.line for item in candidates + maybe_paths})
        used = roles.literal_roles(tree, lines, regex_functions, candidate_lines)
    reports.extend(paths.reports(found, used, judge, silenced))
    if candidates:
        looked_for = roles.looked_for_later(tree, lines)  # walked only if an exemption asks
        reports.extend(regex.reports(candidates, used, silenced, looked_for))
    for line, col, rule, fields in reports:
        yield rules.Report(line, col, rule, fields, at[line, col])
