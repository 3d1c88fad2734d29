"""flake8's ``# noqa`` as the engine honours it: a file's ``# flake8: noqa``, the line a report's
``# noqa`` is read on (flake8's own decision), and whether a ``# noqa`` may silence one of a
text's reports at all (the top-level statements that hold them), so that most texts are never
tokenized for it."""
from __future__ import annotations

import ast
import bisect
import tokenize
import warnings

from flake8.defaults import NOQA_FILE, NOQA_INLINE_REGEXP
from flake8.violation import Violation

from flake8_escapes import rules, source


def file_ignored(text: str, lines: list[str]) -> bool:
    """flake8's ``FileProcessor.should_ignore_file``: a line that starts with
    ``# flake8: noqa`` (on a line of code, flake8 warns and checks the file)."""
    return 'flake8' in text.lower() and any(NOQA_FILE.match(line) for line in lines)


def inline_ignored(report: rules.Report, noqa_line: str | None) -> bool:
    """flake8's own decision (``Violation.is_inline_ignored``) on the line(s) it searches."""
    if noqa_line is None:
        return False
    violation = Violation(report.code, 'stdin', report.line, report.col + 1, '', noqa_line)
    return bool(violation.is_inline_ignored(False))


def noqa_lines(lines: list[str]) -> dict[int, str]:
    """flake8's noqa lines (``source.noqa_lines``); none where the tokenizer fails."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            return source.noqa_lines(source.token_stream(lines), lines)
    except (tokenize.TokenError, SyntaxError, SystemError):
        return {}


def may_be_silenced(reports: list[rules.Report], lines: list[str], tree: ast.Module | None) -> bool:
    """May a ``# noqa`` silence one of ``reports``?  flake8 searches the lines
    between two line-end tokens (NL, NEWLINE) of the report's line, and those
    never reach past the top-level statement that holds it (``spans``): not
    when no line of those statements holds a ``# noqa`` (then the text need
    not be tokenized: a pass as long as the checks' on 2,000 lines).  Without
    the AST, or a report outside every span: maybe."""
    marked = [number for number, line in enumerate(lines, 1) if NOQA_INLINE_REGEXP.search(line)]
    if not (reports and marked):
        return False
    if tree is None:
        return True
    found = spans(tree, lines)
    for report in reports:
        index = bisect.bisect_right(found, (report.line, len(lines) + 1)) - 1
        if index < 0 or found[index][1] < report.line:
            return True
        first, last = found[index]
        at = bisect.bisect_left(marked, first)
        if at < len(marked) and marked[at] <= last:
            return True
    return False


def spans(tree: ast.Module, lines: list[str]) -> list[tuple[int, int]]:
    """The (first, last) lines of the top-level statements, decorators included,
    those that share a line or are joined by a line that ends with a backslash
    (a continuation, or one in a comment: more lines, never fewer) merged."""
    return [(first, last) for first, last, _ in runs(tree, lines)]


def runs(tree: ast.Module, lines: list[str]) -> list[tuple[int, int, list[ast.stmt]]]:
    """``spans``, each with its statements."""
    runs: list[tuple[int, int, list[ast.stmt]]] = []
    for node in tree.body:
        first = min([node.lineno, *(item.lineno for item in getattr(node, 'decorator_list', ()))])
        last = node.end_lineno or node.lineno
        while first > 1 and lines[first - 2].rstrip('\r\n').endswith('\\'):
            first -= 1
        while last < len(lines) and lines[last - 1].rstrip('\r\n').endswith('\\'):
            last += 1
        if runs and first <= runs[-1][1]:
            runs[-1][2].append(node)
            runs[-1] = (runs[-1][0], max(runs[-1][1], last), runs[-1][2])
        else:
            runs.append((first, last, [node]))
    return runs
