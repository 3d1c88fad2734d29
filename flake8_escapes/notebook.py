"""Jupyter notebooks as a source under the one engine (``api``).

A notebook (nbformat 4) is read as one module: the text of its code cells in
cell order, so that an import in cell 1 counts in cell 5 as the kernel sees
it.  IPython's own syntax is masked without moving a row: a line magic
(``%matplotlib inline``), a shell line (``!pip install x``, ``x = !ls``), help
(``obj?``, ``?obj``) becomes ``pass`` at its indentation (a block whose only
line it is still parses), the lines it continues with a backslash become
blank, and a cell that starts with a cell magic (``%%bash``) is blank as a
whole, unless its magic runs the Python below it (``%%time``: ruff's list of
transparent magics).  Markdown and raw cells are left out.  Each module row
maps back to (cell, row in the cell): the cell counted from 1 among all cells,
as ruff counts it (``nb.ipynb:cell 3:2:14``).

The engine runs unchanged on the module text; the commands map its reports
(``where``) and the fixer's text back (``spliced``: the changed source lines
written into the notebook's original JSON text, every other byte kept: the
indentation, key order, ``\\uXXXX`` or raw UTF-8, line ends, outputs,
metadata).  A cell that does not parse alone is blanked for the others
(``without``) and gets the reports its literals' text gives.

Only the standard library: ``json`` reads the notebook, and its string
scanner finds where each cell's source strings stand in the text.
"""
from __future__ import annotations

import ast
import bisect
import difflib
import io
import itertools
import json
import re
import warnings
from json.decoder import scanstring  # type: ignore[attr-defined]  # public, untyped in typeshed
from typing import Callable, NamedTuple, Sequence

#: The suffix of a notebook's name: ``check`` and ``fix`` read such a file as a notebook.
SUFFIX = '.ipynb'
#: Cell magics whose body is Python that the kernel runs (ruff's ``is_magic_cell``).
TRANSPARENT = frozenset({'capture', 'debug', 'prun', 'pypy', 'python', 'python3', 'time', 'timeit'})
#: A line IPython reads as its own (at the start of a statement, where Python cannot start so):
#: ``%magic``, ``!shell``, ``?help``, autocall's ``/f``, ``,f``, ``;f``, ``x = %magic``,
#: ``x = !shell``, and ``obj?``/``obj.attr??`` (help at the end).
ESCAPED = re.compile(r'[ \t]*(?:[%!?/,;]|[\w.]+[ \t]*=[ \t]*[%!]|[\w.]+[ \t]*\?\??[ \t]*(?:\r\n|\r|\n|$))')
#: A cell that may hold such a line (``ESCAPED`` anywhere, searched once; a CR, which ``^`` and ``$``
#: do not see as a line end, always): the others need no masking.
MAY_ESCAPE = re.compile(r'^[ \t]*(?:[%!?/,;]|[\w.]+[ \t]*=[ \t]*[%!])|\?[ \t]*$', re.MULTILINE)
INDENT = re.compile(r'[ \t]*')
#: The names a notebook's metadata gives Python.
PYTHONS = ('python', 'python3', 'ipython', 'ipython3')
#: What starts or ends something that spans lines in Python: a quote, a comment, a bracket.
OPENING = re.compile(r"'''|\"\"\"|'|\"|#|[(\[{]|[)\]}]")
#: The rest of a string from just after its opening quote, up to and including its closing one.
CLOSING = {
    "'''": re.compile(r"(?:[^\\']|\\[\s\S]|'(?!''))*'''"),
    '"""': re.compile(r'(?:[^\\"]|\\[\s\S]|"(?!""))*"""'),
    "'": re.compile(r"(?:[^\\'\r\n]|\\[\s\S])*'"),
    '"': re.compile(r'(?:[^\\"\r\n]|\\[\s\S])*"'),
}
#: One decoded character of a JSON string as written (a surrogate pair's two escapes are one).
JSON_UNIT = re.compile(r'\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}|\\u[0-9a-fA-F]{4}|\\.|.',
                       re.DOTALL)
WHITESPACE = re.compile(r'[ \t\n\r]*')


class Unreadable(ValueError):
    """Not a notebook this module reads (not JSON, not nbformat 4); the message says why, on one line."""


class Cell(NamedTuple):
    """One code cell: its number among all cells (from 1), its first row in the
    module, its lines as written, and whether the module added a line end."""

    number: int
    first: int
    lines: list[str]
    added_end: bool  # the module added a line end after the cell's last line


def is_notebook(name: str) -> bool:
    """Is ``name`` (a path, or standard input's display name) a notebook's?"""
    return name.lower().endswith(SUFFIX)


def line_list(text: str) -> list[str]:
    """The lines of ``text`` as the compiler splits them (``\\r\\n``, ``\\r``, ``\\n``), ends kept."""
    return io.StringIO(text, newline='').readlines()


class Notebook:
    """A notebook's code cells as one module (``text``, ``lines``), and the way back."""

    def __init__(self, raw: str, bom: str = '') -> None:
        """``raw``: the notebook's JSON text (``bom``: the byte order mark before it, kept on
        writing).  Raises ``Unreadable``."""
        self.raw = raw
        self.bom = bom
        cells, self.language = _cells_of(raw)
        self.ascii = raw.isascii()  # a file with raw UTF-8 in it is written so; else \\uXXXX
        self._join([_code_text(cell) for cell in cells])

    @classmethod
    def of_cells(cls, texts: Sequence[str | None]) -> Notebook:
        """A notebook from its cells' texts as an editor holds them (the language server's
        notebook documents), in order: a code cell's text, None for a Markdown, raw or other
        language's cell (counted, not read).  No JSON text: nothing to splice."""
        book = cls.__new__(cls)
        book.raw, book.bom, book.language, book.ascii = '', '', '', True
        book._join(texts)
        return book

    def _join(self, texts: Sequence[str | None]) -> None:
        """The module of the code cells' ``texts`` (None: a cell not read), and the way back."""
        self.cells: list[Cell] = []
        self.lines: list[str] = []
        self.masked: list[str] = []
        for index, text in enumerate(texts):
            if text is None:
                continue
            lines = line_list(text)
            added = bool(lines) and not lines[-1].endswith(('\n', '\r'))
            self.cells.append(Cell(index + 1, len(self.lines) + 1, lines, added))
            self.lines += [*lines[:-1], lines[-1] + '\n'] if added else lines
            if '\r' in text or MAY_ESCAPE.search(text):
                self.masked += masked_lines(lines, added)
            else:  # as the module holds it
                self.masked += self.lines[len(self.lines) - len(lines):]
        self.firsts = [cell.first for cell in self.cells]
        self.newlines: list[int] = []  # where the JSON text's line ends are (``json_row``), when asked
        self.rows: dict[int, list[int]] = {}  # per cell, the JSON line of each row (``json_row``)
        self._strings: dict[int, list[tuple[int, int]]] | None = None

    def strings(self, cell: Cell) -> list[tuple[int, int]]:
        """The JSON strings of ``cell``'s source: ``(start, end)`` of each string's text in the
        notebook's text, quotes excluded (found when first asked: ``check`` seldom needs them)."""
        if self._strings is None:
            self._strings = _source_strings(self.raw)
        return self._strings.get(cell.number - 1, [])

    @classmethod
    def read(cls, data: bytes) -> Notebook:
        """A notebook from a file's bytes (UTF-8, as nbformat writes them).  Raises ``Unreadable``."""
        try:
            text = data.decode('utf-8')
        except UnicodeDecodeError as error:
            raise Unreadable(f'not UTF-8 ({error.reason} at byte {error.start})') from None
        bom = '\ufeff' if text.startswith('\ufeff') else ''  # json refuses it; some editors write it
        return cls(text[len(bom):], bom)

    @property
    def text(self) -> str:
        """The module the checks read: every code cell, IPython's lines masked."""
        return ''.join(self.masked)

    def cell_at(self, row: int) -> Cell:
        """The code cell that holds module row ``row`` (1-based)."""
        return self.cells[bisect.bisect_right(self.firsts, row) - 1]

    def where(self, row: int) -> tuple[int, int]:
        """(cell number among all cells, row within the cell) of module row ``row``."""
        cell = self.cell_at(row)
        return cell.number, row - cell.first + 1

    def failing(self) -> list[tuple[Cell, SyntaxError]]:
        """The code cells that do not parse alone (the kernel compiles each cell alone), with why."""
        found = []
        for cell in self.cells:
            text = ''.join(self.masked[cell.first - 1:cell.first - 1 + len(cell.lines)])
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter('ignore')  # the compiler's own escape warnings
                    ast.parse(text)
            except SyntaxError as error:
                found.append((cell, error))
            except ValueError as error:  # a NUL byte, before 3.11
                found.append((cell, SyntaxError(str(error))))
        return found

    def without(self, cells: list[Cell]) -> list[str]:
        """The module's masked lines with ``cells`` blank (their rows kept)."""
        lines = list(self.masked)
        for cell in cells:
            for row in range(cell.first - 1, cell.first - 1 + len(cell.lines)):
                lines[row] = _blank(lines[row])
        return lines

    def cell_lines(self, cell: Cell) -> list[str]:
        """``cell``'s masked lines, as the module holds them."""
        return self.masked[cell.first - 1:cell.first - 1 + len(cell.lines)]

    def changed_cells(self, text: str, base: list[str] | None = None) -> list[tuple[Cell, str, str]]:
        """(cell, its source before, after) for each code cell whose lines differ in
        ``text`` (the module fixed: the same rows, as the fixer never adds or removes a line end)
        from ``base`` (the lines fixed: the masked module's, or those of ``without``)."""
        new = line_list(text)
        base = self.masked if base is None else base
        changed = []
        for cell in self.cells:
            start = cell.first - 1
            rows = range(start, start + len(cell.lines))
            if all(new[row] == base[row] for row in rows):
                continue
            lines = list(cell.lines)
            for row in rows:
                if new[row] != base[row]:  # never a masked row: it holds no literal
                    lines[row - start] = new[row][:-1] if cell.added_end and row == rows[-1] else new[row]
            changed.append((cell, ''.join(cell.lines), ''.join(lines)))
        return changed

    def spliced(self, text: str, base: list[str] | None = None) -> str:
        """The notebook's JSON text with the code cells as ``text`` (the fixed
        module) has them: only the changed characters of the changed source
        strings are written, in the file's escaping; every other byte is kept."""
        edits: list[tuple[int, int, str]] = []
        for cell, before, after in self.changed_cells(text, base):
            edits += _string_edits(self.raw, self.strings(cell), before, after, self.ascii)
        pieces, done = [], 0
        for start, end, written in sorted(edits):
            pieces += [self.raw[done:start], written]
            done = end
        return ''.join([*pieces, self.raw[done:]])


def masked_lines(lines: list[str], added_end: bool = False) -> list[str]:
    """A cell's lines with IPython's own masked, every row kept (see the module's
    docstring); the last line ended when ``added_end``."""
    out = list(lines)
    if added_end:
        out[-1] += '\n'
    first = next((index for index, line in enumerate(lines) if line.strip()), None)
    if first is not None and lines[first].lstrip().startswith('%%'):
        magic = lines[first].lstrip()[2:].split(maxsplit=1)
        if not magic or magic[0] not in TRANSPARENT:
            return [_blank(line) for line in out]
        out[first] = _passed(out[first])
        start = first + 1
    else:
        start = 0
    _mask_escaped(out, start)
    return out


def _mask_escaped(lines: list[str], start: int) -> None:
    """Mask in place the lines from ``start`` that IPython reads as its own:
    those that begin a statement (outside a string and brackets, not continued)."""
    quote = ''       # the open string's quote, when a string runs on past a line
    depth = 0        # open brackets
    joined = False   # the line before ended with a continuation backslash
    masking = False  # the line before was masked and continues
    for index in range(start, len(lines)):
        line = lines[index]
        body = line.rstrip('\r\n')
        continued = _continues(body)
        if masking:
            lines[index] = _blank(line)
            masking = continued
            continue
        if not (quote or depth or joined) and ESCAPED.match(line):
            lines[index] = _passed(line)
            masking = continued
            continue
        quote, depth = _scan(line, quote, depth)
        joined = continued and not quote


def _continues(body: str) -> bool:
    """Does a line (without its end) end with a backslash that joins the next line (an odd run)?"""
    return (len(body) - len(body.rstrip('\\'))) % 2 == 1


def _scan(line: str, quote: str, depth: int) -> tuple[str, int]:
    """(the string still open, the brackets still open) after ``line``."""
    pos = 0
    while True:
        if quote:
            match = CLOSING[quote].match(line, pos)
            if match is None:
                # a triple-quoted string runs on; a single-quoted one only after a backslash
                keeps = len(quote) == 3 or _continues(line.rstrip('\r\n'))
                return (quote if keeps else ''), depth
            pos, quote = match.end(), ''
        found = OPENING.search(line, pos)
        if found is None:
            return '', depth
        token = found.group()
        pos = found.end()
        if token == '#':
            return '', depth
        if token in CLOSING:
            quote = token
        elif token in '([{':
            depth += 1
        else:
            depth = max(depth - 1, 0)


def _blank(line: str) -> str:
    """A line emptied, its line end kept."""
    return line[len(line.rstrip('\r\n')):]


def _passed(line: str) -> str:
    """A line of IPython's replaced by ``pass`` at its indentation (its line end kept)."""
    return INDENT.match(line).group() + 'pass' + _blank(line)  # type: ignore[union-attr]  # always matches


def _cells_of(raw: str) -> tuple[list[dict[str, object]], str]:
    """The notebook's cells, checked to be nbformat 4's, and its language as its metadata
    names it (``language_info``, or the kernel's; '' when neither does).  Raises ``Unreadable``."""
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as error:
        raise Unreadable(f'not valid JSON ({error.msg}: line {error.lineno} column {error.colno})') from None
    except RecursionError:
        raise Unreadable('not valid JSON (nested too deeply)') from None
    if not isinstance(data, dict) or not isinstance(data.get('cells', data.get('worksheets')), list):
        raise Unreadable('not a Jupyter notebook (no "cells" list)')
    version = data.get('nbformat')
    if version != 4:
        raise Unreadable(f'nbformat {version} is not read, only 4 '
                         '(convert it: jupyter nbconvert --to notebook --inplace)')
    cells = data['cells']
    for number, cell in enumerate(cells, 1):
        source = cell.get('source') if isinstance(cell, dict) else None
        if not (isinstance(source, str) or (isinstance(source, list)
                                            and all(isinstance(item, str) for item in source))):
            raise Unreadable(f'cell {number} has no "source" text')
    metadata = data.get('metadata')
    language = ''
    for key, field in (('language_info', 'name'), ('kernelspec', 'language')):
        value = metadata.get(key) if isinstance(metadata, dict) else None
        name = value.get(field) if isinstance(value, dict) else None
        if isinstance(name, str) and name:
            language = name
            break
    return cells, language


def _code_text(cell: dict[str, object]) -> str | None:
    """A code cell's source text (a string or a list of strings, ``_cells_of``); None for
    a Markdown or raw cell, or a code cell in another language (``_python_cell``)."""
    if cell.get('cell_type') != 'code' or not _python_cell(cell):
        return None
    source = cell['source']
    return source if isinstance(source, str) else ''.join(source)  # type: ignore[arg-type]


def _python_cell(cell: dict[str, object]) -> bool:
    """Is a code cell Python, as far as its metadata says?  A polyglot notebook's (.NET
    Interactive, VS Code) names each cell's kernel: a PowerShell or C# cell is not read; VS Code's
    Jupyter names a cell's language when it is not the notebook's (``vscode.languageId``): a
    JavaScript or SQL cell is not read either."""
    metadata = cell.get('metadata')
    if not isinstance(metadata, dict):
        return True
    for key, field in (('polyglot_notebook', 'kernelName'), ('dotnet_interactive', 'language'),
                       ('vscode', 'languageId')):
        value = metadata.get(key)
        name = value.get(field) if isinstance(value, dict) else None
        if isinstance(name, str) and name.lower() not in PYTHONS:
            return False
    return True


def is_python(book: Notebook) -> bool:
    """Is the notebook's code Python (or its language not named)?  An R or Julia notebook is not read."""
    return book.language.lower() in ('', *PYTHONS)


def _source_strings(raw: str) -> dict[int, list[tuple[int, int]]]:
    """For each cell (0-based) the places of its source's JSON strings in ``raw``
    (each string's text, quotes excluded), in order.  ``raw`` is valid JSON."""
    decoder = json.JSONDecoder()
    found: dict[int, list[tuple[int, int]]] = {}

    def skip(pos: int) -> int:
        return int(decoder.raw_decode(raw, pos)[1])

    def strings(pos: int, into: list[tuple[int, int]]) -> int:
        if raw[pos] == '"':
            end = int(scanstring(raw, pos + 1)[1])
            into.append((pos + 1, end - 1))
            return end
        if raw[pos] != '[':
            return skip(pos)
        return _members(raw, pos, '[]', lambda key, at: strings(at, into))

    def cell(index: int, pos: int) -> int:
        def value(key: str, at: int) -> int:
            if key != 'source':
                return skip(at)
            found[index] = []
            return strings(at, found[index])
        return _members(raw, pos, '{}', value) if raw[pos] == '{' else skip(pos)

    def top(key: str, pos: int) -> int:
        if key != 'cells' or raw[pos] != '[':
            return skip(pos)
        count = iter(range(len(raw)))
        return _members(raw, pos, '[]', lambda _, at: cell(next(count), at))

    _members(raw, WHITESPACE.match(raw).end(), '{}', top)  # type: ignore[union-attr]  # always matches
    return found


def _members(raw: str, pos: int, brackets: str, value: Callable[[str, int], int]) -> int:
    """Walk the object or array at ``pos`` (``brackets``: '{}' or '[]'): ``value(key, at)``
    reads each value at ``at`` ('' for an array's key) and returns where it ends; returns
    the end of the whole."""
    pos = WHITESPACE.match(raw, pos + 1).end()  # type: ignore[union-attr]  # always matches
    while raw[pos] != brackets[1]:
        key = ''
        if brackets == '{}':
            key, pos = scanstring(raw, pos + 1)
            pos = WHITESPACE.match(raw, pos).end()  # type: ignore[union-attr]
            pos = WHITESPACE.match(raw, pos + 1).end()  # type: ignore[union-attr]  # past the colon
        pos = WHITESPACE.match(raw, value(key, pos)).end()  # type: ignore[union-attr]
        if raw[pos] == ',':
            pos = WHITESPACE.match(raw, pos + 1).end()  # type: ignore[union-attr]
    return pos + 1


def _string_edits(raw: str, strings: list[tuple[int, int]], before: str, after: str,
                  ascii_only: bool) -> list[tuple[int, int, str]]:
    """The edits of ``raw`` that make a cell's source strings (at ``strings``) say
    ``after`` instead of ``before``: per changed line, the characters between the
    line's common start and end, written where they stand in the JSON strings."""
    decoded = [scanstring(raw, start)[0] for start, _ in strings]
    starts = [0]
    for text in decoded:
        starts.append(starts[-1] + len(text))
    places: dict[int, list[int]] = {}  # each string's decoded characters' places, when first needed
    edits = []
    for first, last, text in _split(_changes(before, after), before, starts):
        index = max(bisect.bisect_right(starts, first) - 1, 0)
        index = min(index, len(strings) - 1)
        # the change goes into the string where it starts; the rest of a span that runs on is removed
        while index < len(strings):
            start, end = strings[index]
            local_first = max(first - starts[index], 0)
            local_last = min(last - starts[index], len(decoded[index]))
            if index not in places:
                places[index] = [match.start() for match in JSON_UNIT.finditer(raw, start, end)] + [end]
            edits.append((places[index][local_first], places[index][local_last], _encoded(text, ascii_only)))
            text = ''
            if last <= starts[index + 1]:
                break
            index += 1
    return edits


def _split(changes: list[tuple[int, int, str]], before: str, starts: list[int]) -> list[tuple[int, int, str]]:
    """``changes`` with each one that runs over a boundary of two source strings (a line
    nbformat holds in two strings) split into its own edits (``difflib`` on that line
    only), so that each string keeps its own characters."""
    split = []
    for first, last, text in changes:
        index = bisect.bisect_right(starts, first)
        if index >= len(starts) or last <= starts[index]:
            split.append((first, last, text))
            continue
        matcher = difflib.SequenceMatcher(None, before[first:last], text, autojunk=False)
        split += [(first + old, first + old_end, text[new:new_end])
                  for tag, old, old_end, new, new_end in matcher.get_opcodes() if tag != 'equal']
    return split


def changed_span(was: str, now: str) -> tuple[int, int]:
    """How many characters two differing lines share at their start and then at their end
    (the end not reaching back into the start): what lies between is the change."""
    start = 0
    while start < min(len(was), len(now)) and was[start] == now[start]:
        start += 1
    end = 0
    while end < min(len(was), len(now)) - start and was[-1 - end] == now[-1 - end]:
        end += 1
    return start, end


def _changes(before: str, after: str) -> list[tuple[int, int, str]]:
    """(start, end, new text) in ``before`` for each line that differs in ``after``
    (the same number of lines): the span between the common start and end of the line."""
    changes = []
    offset = 0
    for was, now in zip(line_list(before), line_list(after)):
        if was != now:
            start, end = changed_span(was, now)
            changes.append((offset + start, offset + len(was) - end, now[start:len(now) - end]))
        offset += len(was)
    return changes


def _encoded(text: str, ascii_only: bool) -> str:
    """``text`` as a JSON string's characters, non-ASCII escaped when the file escapes it."""
    return json.dumps(text, ensure_ascii=ascii_only)[1:-1]


def json_row(notebook: Notebook, row: int) -> int:
    """The line of the notebook's JSON text where module row ``row`` is written
    (the string that holds the row's first character), for annotations that
    point at the file itself (``--format=github``); 1 when it is not found."""
    cell = notebook.cell_at(row)
    strings = notebook.strings(cell)
    if not (strings and cell.lines):
        return 1
    if not notebook.newlines:
        notebook.newlines = [match.start() for match in re.finditer('\n', notebook.raw)]
    if cell.number not in notebook.rows:  # the JSON line of each of the cell's rows, once per cell
        ends = list(itertools.accumulate(len(scanstring(notebook.raw, start)[0])
                                         for start, _ in strings))
        offsets = itertools.accumulate((len(line) for line in cell.lines), initial=0)
        holders = (min(bisect.bisect_right(ends, offset), len(ends) - 1)  # the string of each row's start
                   for offset in itertools.islice(offsets, len(cell.lines)))
        notebook.rows[cell.number] = [bisect.bisect_left(notebook.newlines, strings[index][0]) + 1
                                      for index in holders]
    rows = notebook.rows[cell.number]
    return rows[min(row - cell.first, len(rows) - 1)]  # E999 may stand past the last row
