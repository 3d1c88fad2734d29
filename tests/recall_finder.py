"""List the candidates of a recall survey of ESC601/ESC602, without the checker's rules.

    python tests/recall_finder.py [--py2] [--tsv FILE] PATH ...

Issue 30: a survey of the checker's reports measures precision only; the hazards it does not report
are invisible to it.  This finder lists every place where one could stand, by two wide rules that
share nothing with flake8_escapes' own (it imports nothing of the package; the source is read with
the standard library's ``tokenize`` and ``ast``), so that each candidate can be read and labelled
hazard or meant, and recall measured against the labels:

- ESC601 candidates: every valid one-letter escape ``\\a \\b \\f \\n \\r \\t \\v`` in any non-raw str
  literal (f-strings and t-strings included, outside their replacement fields; bytes left out) whose
  letter and the letters after it make a whole command name of ``flake8_escapes/data/tex_commands.txt``
  (the next character is not an ASCII letter): ``'\\nabla'`` is one, ``'\\number'`` is not.
- ESC602 candidates: every valid escape other than ``\\\\``, ``\\'`` and ``\\"`` (a backslash before a
  newline included) on an example line of a non-raw docstring (module, class or function docstring,
  found with ``ast``).  An example line is, in the docstring's source text, a line whose stripped text
  starts with ``>>>`` or ``...``, or an expected-output line: a line after a ``>>>`` example and its
  ``...`` lines, up to a blank line or the next ``>>>``.

Files are read as flake8 reads them (the encoding cookie, else Latin-1; a BOM stripped).  A file that is
not Python 3 is, with ``--py2``, converted by lib2to3 first as tests/survey.py --py2 does (marked
``2to3``), else counted as unreadable; ``--verbose`` lists the unreadable files.  Packages are named
as tests/survey.py names them (tests/survey_files.py).  The table has one row per candidate and kind:
package, version, file, line, column (1-based, as flake8 prints it, at the backslash), kind, escape,
command (the command name the escape's letters make, when they make one), mark, source (the line,
trimmed to 200 characters, tabs shown as spaces).

Limits: on Python 3.12+, an escape in a string nested inside an f-string's replacement field is not
read (3.11 and older do not allow one there).
"""
from __future__ import annotations

import argparse
import ast
import bisect
import io
import os
import sys
import tokenize
import warnings
from collections import Counter
from typing import Iterator, NamedTuple

from survey_files import converted, located, python_files, why_unreadable

COMMANDS_FILE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                             'flake8_escapes', 'data', 'tex_commands.txt')
COLUMNS = ('package', 'version', 'file', 'line', 'column', 'kind', 'escape', 'command', 'mark', 'source')
#: The one-letter escapes whose letter can start a command name (Python reference, "Escape sequences").
LETTER_ESCAPES = frozenset('abfnrtv')
#: The escapes of one character after the backslash that Python accepts in a str literal.
SIMPLE_ESCAPES = frozenset('\\\'"abfnrtv\n')
OCTAL = frozenset('01234567')
HEX = frozenset('0123456789abcdefABCDEF')
#: The token types that open and close an f-string or t-string on Python 3.12+ (none before).
STRING_STARTS = {tokenize.tok_name.get(t) for t in range(256)} & {'FSTRING_START', 'TSTRING_START'}
STRING_ENDS = {'FSTRING_END', 'TSTRING_END'}
QUIET_602 = frozenset(('\\\\', "\\'", '\\"'))
SOURCE_WIDTH = 200


class Escape(NamedTuple):
    """One valid escape of a literal: where its backslash stands and what it is."""

    line: int
    col: int     # 0-based, in characters
    text: str    # the escape as written: '\\t', '\\x1b', '\\N{DASH}', '\\\n'
    after: str   # the literal's text after the escape, up to the end of the source line


class Candidate(NamedTuple):
    line: int
    col: int
    kind: str
    escape: str
    command: str


def tex_commands(path: str = COMMANDS_FILE) -> frozenset[str]:
    with open(path, encoding='utf-8') as f:
        return frozenset(line.strip() for line in f if line.strip() and not line.startswith('#'))


def escape_length(body: str, i: int) -> int:
    """The length of the valid escape at ``body[i]`` (a backslash), or 0 for an invalid one (``\\d``)."""
    c = body[i + 1:i + 2]
    if c in SIMPLE_ESCAPES and c:
        return 2
    if c in OCTAL:
        n = 2
        while n < 4 and body[i + n:i + n + 1] in OCTAL and body[i + n:i + n + 1]:
            n += 1
        return n
    width = {'x': 2, 'u': 4, 'U': 8}.get(c)
    if width is not None:
        digits = body[i + 2:i + 2 + width]
        return 2 + width if len(digits) == width and set(digits) <= HEX else 0
    if c == 'N' and body[i + 2:i + 3] == '{' and (end := body.find('}', i + 3)) != -1:
        return end + 1 - i
    return 0


def field_end(body: str, i: int) -> int:
    """The index after the replacement field opened by the ``{`` at ``body[i]`` (quoted text skipped)."""
    depth, j = 0, i
    while j < len(body):
        c = body[j]
        if c in '\'"':
            quote = body[j:j + 3] if body[j:j + 3] == c * 3 else c
            close = body.find(quote, j + len(quote))
            j = len(body) if close == -1 else close + len(quote)
            continue
        depth += (c == '{') - (c == '}')
        j += 1
        if depth == 0:
            break
    return j


def literal_escapes(text: str, start: tuple[int, int]) -> Iterator[Escape]:
    """The valid escapes of one str literal token ``text`` starting at ``start``; none in raw or bytes."""
    quote_at = next(i for i, c in enumerate(text) if c in '\'"')
    prefix = text[:quote_at].lower()
    if 'r' in prefix or 'b' in prefix:
        return
    formatted = 'f' in prefix or 't' in prefix
    newlines = [i for i, c in enumerate(text) if c == '\n']
    i, end = quote_at, len(text)
    while i < end:
        c = text[i]
        if formatted and c in '{}':
            i = i + 2 if text[i + 1:i + 2] == c else (field_end(text, i) if c == '{' else i + 1)
            continue
        if c != '\\':
            i += 1
            continue
        n = escape_length(text, i)
        if n:
            row = bisect.bisect_left(newlines, i)
            col = i - newlines[row - 1] - 1 if row else start[1] + i
            line_end = text.find('\n', i + n)
            yield Escape(start[0] + row, col, text[i:i + n], text[i + n:end if line_end == -1 else line_end])
        i += max(n, 2)


def string_tokens(tokens: list[tokenize.TokenInfo],
                  lines: list[str]) -> Iterator[tuple[str, tuple[int, int]]]:
    """(literal text, start) of every string literal token; an f-string or t-string of 3.12+ whole."""
    depth, opened = 0, (0, 0)
    for tok in tokens:
        name = tokenize.tok_name[tok.type]
        if name in STRING_STARTS:
            depth += 1
            opened = tok.start if depth == 1 else opened
        elif name in STRING_ENDS:
            depth -= 1
            if depth == 0:
                yield source_between(lines, opened, tok.end), opened
        elif tok.type == tokenize.STRING and depth == 0:
            yield tok.string, tok.start


def source_between(lines: list[str], start: tuple[int, int], end: tuple[int, int]) -> str:
    if start[0] == end[0]:
        return lines[start[0] - 1][start[1]:end[1]]
    return lines[start[0] - 1][start[1]:] + ''.join(lines[start[0]:end[0] - 1]) + lines[end[0] - 1][:end[1]]


def docstring_starts(tree: ast.AST, lines: list[str]) -> set[tuple[int, int]]:
    """The (line, character column) where each module, class and function docstring starts."""
    starts = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
                    and isinstance(first.value.value, str)):
                line = first.value.lineno
                # ast's column counts UTF-8 bytes; tokenize's counts characters
                col = len(lines[line - 1].encode('utf-8')[:first.value.col_offset].decode('utf-8', 'replace'))
                starts.add((line, col))
    return starts


def example_lines(text: str, start: tuple[int, int]) -> set[int]:
    """The source lines of a docstring token that are example lines (``>>>``, ``...``, expected output)."""
    found, in_example = set(), False
    quote_at = next(i for i, c in enumerate(text) if c in '\'"')
    for row, segment in enumerate(text[quote_at:].split('\n')):
        stripped = segment.strip().strip('\'"') if row == 0 else segment.strip()
        if stripped.startswith('>>>'):
            in_example = True
        elif not stripped:
            in_example = False
        if in_example or stripped.startswith('...'):
            found.add(start[0] + row)
    return found


def candidates(lines: list[str], tree: ast.AST, tokens: list[tokenize.TokenInfo],
               commands: frozenset[str]) -> Iterator[Candidate]:
    """The ESC601 and ESC602 candidates of one source (its lines, AST and tokens), in order."""
    docstrings = docstring_starts(tree, lines)
    for literal, start in string_tokens(tokens, lines):
        examples = example_lines(literal, start) if start in docstrings else set()
        for escape in literal_escapes(literal, start):
            letter = escape.text[1:]
            letters = letter + leading_letters(escape.after) if letter in LETTER_ESCAPES else ''
            command = letters if letters in commands else ''
            if command:
                yield Candidate(escape.line, escape.col, 'ESC601', escape.text, command)
            if escape.line in examples and escape.text not in QUIET_602:
                yield Candidate(escape.line, escape.col, 'ESC602', escape.text, command)


def leading_letters(text: str) -> str:
    n = 0
    while n < len(text) and text[n].isascii() and text[n].isalpha():
        n += 1
    return text[:n]


def read_source(path: str) -> str:
    """The file's text as flake8 reads it: its declared encoding, else Latin-1; a BOM stripped."""
    try:
        with tokenize.open(path) as f:
            text = f.read()
    except (SyntaxError, UnicodeError):
        with open(path, encoding='latin-1') as f:
            text = f.read()
    return text[1:] if text.startswith('\ufeff') else text


def parsed_source(text: str) -> tuple[ast.AST, list[tokenize.TokenInfo]] | None:
    """(AST, tokens) of a source, or None when Python 3 cannot read it (as tests/survey.py's flake8)."""
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')  # the escapes CPython warns about
        try:
            return ast.parse(text), list(tokenize.generate_tokens(io.StringIO(text).readline))
        except (SyntaxError, ValueError, tokenize.TokenError, RecursionError, MemoryError):
            return None


def file_candidates(path: str, py2: bool, commands: frozenset[str],
                    counts: Counter) -> tuple[str, str, list[Candidate]] | None:
    """(mark, text, candidates) of one file, or None when it cannot be read."""
    try:
        text = read_source(path)
    except OSError:
        return None
    parts, mark = parsed_source(text), ''
    if parts is None and py2 and (new := converted(path)) is not None:
        text, parts, mark = new, parsed_source(new), '2to3'
    if parts is None:
        return None
    counts['files'] += 1
    counts['converted'] += mark == '2to3'
    lines = text.splitlines(keepends=True)
    return mark, text, list(candidates(lines, *parts, commands)) if '\\' in text else []


def rows(paths: list[str], py2: bool, counts: Counter,
         unreadable: list[str]) -> Iterator[tuple[str, ...]]:
    commands = tex_commands()
    roots = [p for p in paths if os.path.isdir(p)]
    for path in python_files(paths):
        found = file_candidates(path, py2, commands, counts)
        if found is None:
            unreadable.append(path)
            continue
        mark, text, listed = found
        name, version, relative = located(path, roots)
        lines = text.splitlines()
        for c in listed:
            counts[c.kind] += 1
            source = lines[c.line - 1].replace('\t', ' ').strip()[:SOURCE_WIDTH]
            escape = c.escape.replace('\n', '<newline>')
            yield (name, version, relative, str(c.line), str(c.col + 1), c.kind, escape, c.command,
                   mark, source)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('paths', nargs='+')
    parser.add_argument('--py2', action='store_true', help='convert files that do not parse with lib2to3')
    parser.add_argument('--tsv', help='write the candidates to this file (else to standard output)')
    parser.add_argument('--verbose', action='store_true', help='list the files that could not be read')
    args = parser.parse_args(argv)
    counts: Counter = Counter()
    unreadable: list[str] = []
    out = open(args.tsv, 'w', encoding='utf-8', newline='\n') if args.tsv else sys.stdout
    try:
        out.write('\t'.join(COLUMNS) + '\n')
        for row in rows(args.paths, args.py2, counts, unreadable):
            out.write('\t'.join(row) + '\n')
    finally:
        if args.tsv:
            out.close()
    if args.verbose:
        for path in unreadable:
            print(f'not read: {path}: {why_unreadable(path)}', file=sys.stderr)
    extra = f' ({counts["converted"]} converted by lib2to3)' if args.py2 else ''
    print(f'Python {sys.version.split()[0]}: {counts["files"]} files{extra},'
          f' {len(unreadable)} could not be read;'
          f' candidates ESC601 {counts["ESC601"]}, ESC602 {counts["ESC602"]}', file=sys.stderr)
    return 0


if __name__ == '__main__':
    sys.exit(main())
