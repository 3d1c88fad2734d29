"""List the candidates of the notebook recall survey (issue 39), without the checker's rules.

    python tests/recall_notebooks.py ROOT [--tsv FILE]

ROOT holds ROOT/<owner>+<name>/<path>.ipynb (tests/pick_notebooks.py --unpack).  Each notebook is read
with ``json`` alone (nothing of flake8_escapes is imported); each code cell is read on its own, after
IPython syntax is blanked by this finder's own rules (the line stays, empty, so rows do not move): a
cell whose first non-blank line starts with ``%%`` (a cell magic) is blanked whole; a line whose
stripped text starts with ``%``, ``!`` or ``?``, is a name and ``?``/``??`` (``obj?``), or is
``NAME = %...``/``NAME = !...`` is blanked, with the lines it continues onto by a final backslash.
The cell is then read with ``tokenize``; a cell that does not tokenize is scanned for string literals by
a small regex-driven scanner (a quote with its prefix, to the matching close quote, a backslash taking
the next character; ``#`` comments skipped), and its rows are marked ``scanned``; on Python 3.12+ so is a
cell that holds an f-string (there it is several tokens), so run the finder with 3.11 to keep ``scanned``
for real failures.

Broad rules, one row per backslash that any rule lists (the rules joined with ``+`` in ``kinds``):

- ``tex``: a valid escape (``\\a \\b \\f \\n \\r \\t \\v``, octal, ``\\xhh``) in a non-raw literal
  directly before letters that make a command name of flake8_escapes/data/tex_commands.txt (the
  one-letter escape's letter is the name's first letter: ``'\\theta'``; after an octal or hex escape
  the letters after it); the next character is not an ASCII letter.
- ``path``: any escape in a non-raw literal that looks like a Windows path: a drive ``X:\\`` or a
  backslash between path-like words where the literal has a file extension (``data\\in.csv``).
- ``regex``: an octal escape ``\\1``-``\\9`` or ``\\b`` in any non-raw literal (regex patterns and
  replacements are where these are meant as backreferences and word boundaries).
- ``invalid``: an escape Python does not recognise (``\\d``, ``\\s``, ``\\.``; in bytes also ``\\N``,
  ``\\u``, ``\\U``), or an octal escape above ``\\377``.
- ``refused``: ``\\x`` not followed by 2 hex digits, ``\\u`` not by 4, ``\\U`` not by 8, ``\\N`` not by
  ``{`` (str literals; CPython refuses to compile these).

Columns: project, notebook, cell (1-based among all cells, as ruff counts), row (1-based in the cell),
col (1-based, at the backslash), kinds, escape, command, mark (``scanned``, ``bytes``), literal (the
literal's text, trimmed to 200 characters, a tab shown as an arrow and a line end as a return sign),
source (the cell's row, trimmed).
"""
from __future__ import annotations

import argparse
import io
import json
import os
import re
import sys
import tokenize
from typing import Iterator, NamedTuple

from recall_finder import escape_length, tex_commands

COLUMNS = ('project', 'notebook', 'cell', 'row', 'col', 'kinds', 'escape', 'command', 'mark',
           'literal', 'source')
LETTER_ESCAPES = frozenset('abfnrtv')
HEX = frozenset('0123456789abcdefABCDEF')
WIDTH = 200
MAGIC = re.compile(r'\s*([%!?]|[\w.\[\], ]+=\s*[%!]|[\w.\[\]()]+\?\??\s*$)')
STRING_START = re.compile(r'(?<![\w])([rRbBfFuUtT]{0,2})(\'\'\'|"""|\'|")')
DRIVE = re.compile(r'(?<![A-Za-z])[A-Za-z]:\\')
EXTENSION = re.compile(r'\.[A-Za-z][A-Za-z0-9]{0,4}\b')
BETWEEN_WORDS = re.compile(r'[\w.~-]\\+[\w.~ -]')
LETTERS = re.compile(r'[A-Za-z]*')
F_STARTS = ('FSTRING_START', 'TSTRING_START')


class Literal(NamedTuple):
    text: str            # the whole token, prefix and quotes included
    row: int             # 1-based row of its first character in the cell
    col: int             # 0-based column of its first character
    scanned: bool


class Row(NamedTuple):
    cell: int
    row: int
    col: int
    kinds: str
    escape: str
    command: str
    mark: str
    literal: str
    source: str


def shown(text: str) -> str:
    return text.replace('\t', '\u2192').replace('\n', '\u21b5').replace('\r', '\u21b5')[:WIDTH]


def blanked(source: str) -> str:
    """The cell with IPython lines emptied (rows kept)."""
    lines = source.split('\n')
    first = next((line for line in lines if line.strip()), '')
    if first.lstrip().startswith('%%'):
        return '\n' * (len(lines) - 1)
    out, continued = [], False
    for line in lines:
        if continued or MAGIC.match(line):
            continued = line.rstrip().endswith('\\')
            out.append('')
        else:
            out.append(line)
    return '\n'.join(out)


def tokenized(source: str) -> list[Literal] | None:
    """The cell's string literals by ``tokenize``, or None when it does not tokenize (an error token
    that is not white space counts: Python 3.11 yields one for an unterminated quote)."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return None
    if any(tok.type == tokenize.ERRORTOKEN and tok.string.strip() for tok in tokens):
        return None
    if any(tokenize.tok_name[tok.type] in F_STARTS for tok in tokens):
        return None  # 3.12+: an f-string is several tokens; the scanner reads it whole
    return [Literal(tok.string, tok.start[0], tok.start[1], False)
            for tok in tokens if tok.type == tokenize.STRING]


def scanned(source: str) -> list[Literal]:
    """String literals found by scanning: for cells that do not tokenize."""
    found, i = [], 0
    while i < len(source):
        if source[i] == '#':
            end = source.find('\n', i)
            i = len(source) if end == -1 else end
            continue
        m = STRING_START.match(source, i) if source[i] in 'rRbBfFuUtT\'"' else None
        if not m or (m.group(1) and i and (source[i - 1].isalnum() or source[i - 1] == '_')):
            i += 1
            continue
        quote = m.group(2)
        j = m.end()
        while j < len(source):
            if source[j] == '\\':
                j += 2
            elif source.startswith(quote, j):
                j += len(quote)
                break
            elif source[j] == '\n' and len(quote) == 1:
                break
            else:
                j += 1
        row = source.count('\n', 0, i) + 1
        col = i - (source.rfind('\n', 0, i) + 1)
        found.append(Literal(source[i:j], row, col, True))
        i = j
    return found


def path_like(body: str) -> bool:
    if DRIVE.search(body):
        return True
    return bool(BETWEEN_WORDS.search(body) and EXTENSION.search(body))


def refused(body: str, i: int, is_bytes: bool) -> bool:
    c = body[i + 1:i + 2]
    if c == 'x':
        return not (len(body[i + 2:i + 4]) == 2 and set(body[i + 2:i + 4]) <= HEX)
    if is_bytes:
        return False
    if c in ('u', 'U'):
        width = 4 if c == 'u' else 8
        return not (len(body[i + 2:i + 2 + width]) == width and set(body[i + 2:i + 2 + width]) <= HEX)
    return c == 'N' and body[i + 2:i + 3] != '{'


def kinds_of(body: str, i: int, is_bytes: bool, path: bool,
             commands: frozenset[str]) -> tuple[list[str], str, str]:
    """The rules that list the backslash at ``body[i]``, the escape's text and the command it makes."""
    n = escape_length(body, i)
    c = body[i + 1:i + 2]
    kinds, command = [], ''
    if is_bytes and c in ('N', 'u', 'U'):
        n = 0
    if n == 0:
        text = body[i:i + 2]
        kinds.append('refused' if refused(body, i, is_bytes) else 'invalid')
    else:
        text = body[i:i + n]
        if c in '01234567' and int(text[1:], 8) > 0o377:
            kinds.append('invalid')
        if c in LETTER_ESCAPES:
            name = c + LETTERS.match(body, i + 2).group()
        elif c in '01234567x':
            name = LETTERS.match(body, i + n).group()
        else:
            name = ''
        if name in commands and (c not in LETTER_ESCAPES or len(name) > 1):
            kinds.append('tex')
            command = name
        if c == 'b' or c in '123456789':
            kinds.append('regex')
    if path and c not in ('\\', '\'', '"', '\n'):
        kinds.append('path')
    return kinds, text, command


def literal_rows(cell: int, literal: Literal, lines: list[str], commands: frozenset[str]) -> Iterator[Row]:
    text = literal.text
    quote_at = next((k for k, ch in enumerate(text) if ch in '\'"'), None)
    if quote_at is None:
        return
    prefix = text[:quote_at].lower()
    if 'r' in prefix:
        return
    is_bytes = 'b' in prefix
    path = path_like(text[quote_at:])
    i = quote_at
    while i < len(text):
        if text[i] != '\\':
            i += 1
            continue
        kinds, escape, command = kinds_of(text, i, is_bytes, path, commands)
        if kinds:
            row = literal.row + text.count('\n', 0, i)
            line_start = text.rfind('\n', 0, i)
            col = (literal.col + i if line_start == -1 else i - line_start - 1) + 1
            mark = '+'.join(m for m, on in (('scanned', literal.scanned), ('bytes', is_bytes)) if on)
            source = lines[row - 1] if row - 1 < len(lines) else ''
            yield Row(cell, row, col, '+'.join(kinds), shown(escape), command, mark, shown(text),
                      shown(source.strip()))
        i += max(escape_length(text, i), 2)


def cell_source(cell: dict) -> str:
    source = cell.get('source', '')
    return ''.join(source) if isinstance(source, list) else str(source)


def notebook_rows(path: str, commands: frozenset[str]) -> Iterator[Row]:
    with open(path, encoding='utf-8') as f:
        notebook = json.load(f)
    for number, cell in enumerate(notebook.get('cells', []), 1):
        if cell.get('cell_type') != 'code':
            continue
        source = cell_source(cell)
        code = blanked(source)
        literals = tokenized(code)
        if literals is None:
            literals = scanned(code)
        lines = source.split('\n')
        for literal in literals:
            yield from literal_rows(number, literal, lines, commands)


def notebooks(root: str) -> Iterator[tuple[str, str, str]]:
    for project in sorted(os.listdir(root)):
        base = os.path.join(root, project)
        for folder, dirs, files in os.walk(base):
            dirs.sort()
            for name in sorted(files):
                if name.endswith('.ipynb'):
                    full = os.path.join(folder, name)
                    yield project, os.path.relpath(full, base), full


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument('root')
    parser.add_argument('--tsv')
    args = parser.parse_args()
    commands = tex_commands()
    count = books = 0
    with open(args.tsv or os.devnull, 'w', encoding='utf-8', newline='') as f:
        out = f if args.tsv else sys.stdout
        out.write('\t'.join(COLUMNS) + '\n')
        for project, notebook, full in notebooks(args.root):
            books += 1
            for row in notebook_rows(full, commands):
                out.write('\t'.join([project, notebook] + [str(v) for v in row]) + '\n')
                count += 1
    print(f'{count} candidates in {books} notebooks', file=sys.stderr)
    return 0


if __name__ == '__main__':
    sys.exit(main())
