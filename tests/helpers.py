"""Test helpers: run the plugin on a source exactly as flake8 prepares it."""
from __future__ import annotations

import ast
import io
import os
import tokenize
import warnings

from flake8.processor import FileProcessor

from flake8_escapes.plugin import Plugin

DATA = os.path.join(os.path.dirname(__file__), 'data')


class Options:
    """The options FileProcessor reads, at flake8's defaults."""

    hang_closing = False
    indent_size = 4
    max_line_length = 79
    max_doc_length = None
    verbose = 0


def processor_for(path: str | None = None, lines: list[str] | None = None) -> FileProcessor:
    """The FileProcessor flake8 itself would use (BOM stripped, newlines read)."""
    return FileProcessor(path or '-', Options(), lines=lines)


def parsed(path: str) -> tuple[ast.AST, list[str], list[tokenize.TokenInfo]] | None:
    """(tree, lines, tokens) of a file as flake8 prepares them; None if it cannot.

    ``Plugin(tree, lines)`` takes the first two, as flake8 gives them.
    """
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')  # CPython's own escape warnings
        try:
            processor = processor_for(path)
            return processor.build_ast(), processor.lines, processor.file_tokens
        except (SyntaxError, ValueError, tokenize.TokenError):
            return None


def reports(src: str, lines: list[str] | None = None) -> list[tuple[int, int, str]]:
    """(line, 1-based col, message) for ``src``, as flake8 would print them.

    The lines are read as flake8 reads a file or stdin: with universal newlines.
    """
    with warnings.catch_warnings():
        # 3.12+'s tokenizer and the compiler warn about the escapes on purpose
        warnings.simplefilter('ignore', SyntaxWarning)
        warnings.simplefilter('ignore', DeprecationWarning)
        processor = processor_for(lines=lines or io.StringIO(src, newline=None).readlines())
        plugin = Plugin(processor.build_ast(), processor.lines)
        return [(line, col + 1, message) for line, col, message, _ in plugin.run()]


def results(src: str, lines: list[str] | None = None) -> set[str]:
    """``{'2:5 ESC301', ...}`` for ``src``."""
    return {f'{line}:{col} {message.split()[0]}' for line, col, message in reports(src, lines)}


def finders(src: str, code: str) -> set[str]:
    """The finding rule (the ``finder`` field) of each ``code`` report of ``src``, on full tokens."""
    from flake8_escapes import checks
    processor = processor_for(lines=io.StringIO(src, newline=None).readlines())
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', SyntaxWarning)
        warnings.simplefilter('ignore', DeprecationWarning)
        tree, tokens = processor.build_ast(), processor.file_tokens
    return {report.fields['finder'] for report in checks.all_reports(tree, tokens, processor.lines, ())
            if report.code == code}


def data_cases(name: str) -> list[tuple[str, str, set[str]]]:
    """(id, source, expected) for each ``#:`` case of ``tests/data/<name>``.

    A case header lists ``CODE:LINE:COL`` (LINE within the case) or ``Okay``.
    """
    with open(os.path.join(DATA, name), encoding='utf-8') as f:
        lines = f.readlines()
    cases = []
    header = None
    body: list[str] = []
    first = 0

    def close() -> None:
        if header is not None:
            expected = set()
            for item in header.split():
                if item != 'Okay':
                    code, line, col = item.split(':')
                    expected.add(f'{line}:{col} {code}')
            cases.append((f'{name}:{first}', ''.join(body), expected))

    for number, line in enumerate(lines, 1):
        if line.startswith('#:'):
            close()
            header, body, first = line[2:], [], number
        elif header is not None:
            body.append(line)
    close()
    return cases


def labeled_score(name: str, codes: tuple[str, ...]) -> dict[str, int]:
    """True/false positives and misses of ``codes`` on the labeled cases of
    ``tests/data/<name>`` (a case with no expected report is a clean one)."""
    score = {'cases': 0, 'hazard cases': 0, 'clean cases': 0, 'tp': 0, 'fp': 0, 'fn': 0}
    for _, src, expected in data_cases(name):
        assert '# from: ' in src, 'every labeled case cites the code it is modeled on'
        expected = {item for item in expected if item.endswith(codes)}
        found = {item for item in results(src) if item.endswith(codes)}
        score['cases'] += 1
        score['hazard cases' if expected else 'clean cases'] += 1
        score['tp'] += len(found & expected)
        score['fp'] += len(found - expected)
        score['fn'] += len(expected - found)
    return score
