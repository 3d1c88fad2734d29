"""Differential testing of ESC301-ESC303 against the running CPython.

CPython warns about the *first* bad escape of each decoded piece only, so a
literal is compared with CPython one escape at a time: compile the literal
alone, take CPython's first warning, find our report that spells that escape
at its position, double that backslash in the literal and compile again,
until CPython is silent.  Every report of ours must have been consumed that
way, except the intended differences listed in ``INTENDED``; each of those is
checked against CPython as well (doubling the backslash must leave the
literal's AST unchanged, i.e. CPython really kept the backslash as written).

The literal units come straight from tokenize here (a STRING at top level, or
an f-/t-string from START to its END with everything nested in it), not from
the plugin's own scanner.

Run as a script to print the counts for the standard library:
``python tests/differential.py [--limit N]``.
"""
from __future__ import annotations

import argparse
import ast
import os
import re
import sys
import sysconfig
import time
import tokenize
import warnings
from collections import Counter
from dataclasses import dataclass, field
from typing import Iterable

from flake8.processor import FileProcessor

from flake8_escapes.plugin import Plugin

START_TYPES = {
    getattr(tokenize, name) for name in ('FSTRING_START', 'TSTRING_START') if hasattr(tokenize, name)
}
END_TYPES = {
    getattr(tokenize, name) for name in ('FSTRING_END', 'TSTRING_END') if hasattr(tokenize, name)
}
WARNING_RE = re.compile(r"invalid (?:octal )?escape sequence '(.*)'\Z", re.DOTALL)
PY = sys.version_info[:2]


class Options:
    """The options FileProcessor reads, at flake8's defaults."""

    hang_closing = False
    indent_size = 4
    max_line_length = 79
    max_doc_length = None
    verbose = 0


@dataclass
class Tally:
    files: int = 0
    skipped: int = 0           # files CPython itself does not compile
    literals: int = 0          # literal units seen
    compared: int = 0          # units with a backslash, compiled one by one
    escapes: int = 0           # CPython warnings matched one to one
    intended: Counter = field(default_factory=Counter)
    disagreements: list = field(default_factory=list)


def processor_for(path: str | None = None, lines: list[str] | None = None) -> FileProcessor:
    """The FileProcessor flake8 itself would use (BOM stripped, newlines read)."""
    return FileProcessor(path or '-', Options(), lines=lines)


def plugin_reports(processor: FileProcessor) -> list[tuple[int, int, str]]:
    tree = processor.build_ast()
    plugin = Plugin(tree, processor.file_tokens)
    return [(line, col, message) for line, col, message, _ in plugin.run()]


def literal_units(tokens: Iterable[tokenize.TokenInfo]) -> list[tuple[tuple[int, int], tokenize.TokenInfo]]:
    """(start, last token) of every top-level literal, nested f-string parts included.

    The end is taken from the last token's start and length: 3.12.1 gives a
    multi-line token's end column in bytes when its last line is not ASCII.
    """
    units = []
    depth = 0
    start = None
    for tok in tokens:
        if tok.type in START_TYPES:
            if depth == 0:
                start = tok.start
            depth += 1
        elif tok.type in END_TYPES:
            depth -= 1
            if depth == 0:
                units.append((start, tok))
        elif tok.type == tokenize.STRING and depth == 0:
            units.append((tok.start, tok))
    return units


def first_escape_warning(literal: str) -> str | None:
    """The escape text of CPython's first escape warning for ``literal``."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        compile('(\n' + literal + '\n)', '<literal>', 'eval')
    for warning in caught:
        match = WARNING_RE.match(str(warning.message))
        if match and issubclass(warning.category, (SyntaxWarning, DeprecationWarning)):
            return '\\' + match.group(1)[1:]
    return None


def expected_code(escape: str) -> str:
    if escape[1] in '01234567':
        return 'ESC303'
    if escape[1] in 'NuU':  # only warned in bytes: in str they are valid
        return 'ESC302'
    return 'ESC301'


def same_ast(a: str, b: str) -> bool:
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        return ast.dump(ast.parse('(\n' + a + '\n)')) == ast.dump(ast.parse('(\n' + b + '\n)'))


def intended_difference(text: str, offset: int, code: str) -> str | None:
    """Why CPython may rightly stay silent on a report of ours, or None."""
    char = text[offset + 1:offset + 2]
    doubled = text[:offset] + '\\' + text[offset:]
    if code == 'ESC301' and char and ord(char) > 0x7F and same_ast(text, doubled):
        # The language reference calls '\é' unrecognized; CPython turns it
        # into '\\é' without a warning.
        return 'non-ascii'
    if code == 'ESC303' and PY < (3, 11):
        return 'octal-before-3.11'  # CPython warns about '\777' since 3.11
    if code == 'ESC301' and char == '}' and PY < (3, 12) and same_ast(text, doubled):
        # f'{x:a\}': 3.10/3.11 keep the backslash ending a format spec
        # silently; 3.12+ warn "invalid escape sequence '\}'".
        return 'spec-brace-before-3.12'
    return None


def compare_literal(text: str, reports: list[tuple[int, str]], tally: Tally, where: str) -> None:
    """Compare our (offset, code) reports on one literal with CPython."""
    pending = sorted(reports)
    shift: list[int] = []  # original offsets whose backslash we doubled

    def now(offset: int) -> int:
        return offset + sum(1 for o in shift if o < offset)

    current = text
    for _ in range(len(reports) + 1):
        warned = first_escape_warning(current)
        if warned is None:
            break
        code = expected_code(warned)
        hit = next(
            (r for r in pending if r[1] == code and current.startswith(warned, now(r[0]))),
            None,
        )
        if hit is None:
            tally.disagreements.append((where, 'cpython-only', warned, text))
            return
        pending.remove(hit)
        tally.escapes += 1
        at = now(hit[0])
        current = current[:at] + '\\' + current[at:]
        shift.append(hit[0])
    else:
        if first_escape_warning(current) is not None:
            tally.disagreements.append((where, 'cpython-more', text))
            return
    for offset, code in pending:
        reason = intended_difference(text, offset, code)
        if reason is None:
            tally.disagreements.append((where, 'ours-only', code, text[offset:offset + 5], text))
        else:
            tally.intended[reason] += 1


def compare_processor(processor: FileProcessor, tally: Tally, name: str) -> None:
    """Compare every literal of one file; the plugin runs as flake8 runs it."""
    lines = processor.lines
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    source = ''.join(lines)

    def offset(pos: tuple[int, int]) -> int:
        return starts[pos[0] - 1] + pos[1]

    reports = plugin_reports(processor)
    placed = sorted((offset((line, col)), message[:6]) for line, col, message in reports)
    units = literal_units(processor.file_tokens)
    tally.files += 1
    tally.literals += len(units)
    index = 0
    for start, last in units:
        begin, stop = offset(start), offset(last.start) + len(last.string)
        while index < len(placed) and placed[index][0] < begin:
            tally.disagreements.append((name, 'outside-literal', placed[index]))
            index += 1
        mine = []
        while index < len(placed) and placed[index][0] < stop:
            mine.append((placed[index][0] - begin, placed[index][1]))
            index += 1
        text = source[begin:stop]
        if '\\' not in text:
            if mine:
                tally.disagreements.append((name, 'no-backslash', mine, text))
            continue
        tally.compared += 1
        compare_literal(text, mine, tally, f'{name}:{start[0]}')
    for extra in placed[index:]:
        tally.disagreements.append((name, 'outside-literal', extra))


def compiles(path: str) -> bool:
    with open(path, 'rb') as f:
        data = f.read()
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        try:
            compile(data, path, 'exec', dont_inherit=True)
        except (SyntaxError, ValueError):
            return False
    return True


def stdlib_files() -> list[str]:
    root = sysconfig.get_paths()['stdlib']
    found = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in ('site-packages', '__pycache__'))
        found.extend(os.path.join(folder, f) for f in sorted(files) if f.endswith('.py'))
    return found


def compare_files(paths: Iterable[str], tally: Tally) -> Tally:
    for path in paths:
        if not compiles(path):
            tally.skipped += 1
            continue
        with warnings.catch_warnings():
            # 3.12+'s tokenizer warns about '\{' itself, as the compiler does.
            warnings.simplefilter('ignore', SyntaxWarning)
            warnings.simplefilter('ignore', DeprecationWarning)
            compare_processor(processor_for(path), tally, path)
    return tally


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--limit', type=int, default=0, help='only the first N files')
    args = parser.parse_args()
    paths = stdlib_files()
    if args.limit:
        paths = paths[:args.limit]
    began = time.perf_counter()
    tally = compare_files(paths, Tally())
    print(f'Python {sys.version.split()[0]}: {tally.files} stdlib files checked '
          f'({tally.skipped} skipped: CPython does not compile them), '
          f'{tally.literals} literals, {tally.compared} with a backslash compared, '
          f'{tally.escapes} escape warnings matched, '
          f'intended differences {dict(tally.intended)}, '
          f'{len(tally.disagreements)} disagreements '
          f'in {time.perf_counter() - began:.0f}s')
    for item in tally.disagreements[:20]:
        print('  ', item)
    return 1 if tally.disagreements else 0


if __name__ == '__main__':
    sys.exit(main())
