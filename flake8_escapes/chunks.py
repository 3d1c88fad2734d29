"""A text's AST parsed in chunks of top-level statements, and parsed again only where an edit
changed it: ``api.Linter``'s parse, for an editor's buffer checked after each edit.

The AST is exactly ``ast.parse``'s.  A chunk is a run of whole lines that ends after a complete
top-level statement (its last line ends with a newline and no continuation backslash, or ends the
text); it is parsed alone, after as many empty lines as come before it, so that its nodes carry
the text's own positions.  A run of complete statements tokenizes alone as it does in the whole
text: no bracket, string or continuation is open at its edges, and its first line, at column 0,
closes every block before it (a first line indented is an error alone).  So the whole text parses
if and only if every chunk does, to the concatenation of their bodies.  A chunk is cut where a
line starts at column 0 with neither a space, a comment nor a closing bracket; where that guess
falls inside a string or brackets the chunk does not parse alone and is joined to the next one.
Where that fails too, or the text holds a NUL, the whole text is parsed at once: ``ast.parse``'s
own AST or error.  Parsing in chunks also lets another thread run between two of them (a parse
holds the interpreter's lock: 0.5 s on 20,000 lines).
"""
from __future__ import annotations

import ast
from typing import NamedTuple, Sequence

#: Lines per chunk, about (a chunk is cut at the first line that may start a statement after them).
SIZE = 200
#: Joins of a chunk that does not parse alone with the next one before the whole text is parsed.
JOINS = 3
NOT_FIRST = frozenset(' \t\f#)]}\n\r')


class Chunk(NamedTuple):
    """Lines ``first`` (0-based) to ``first + len(lines)`` and their statements' ASTs."""

    first: int
    lines: tuple[str, ...]
    body: list[ast.stmt]

    @property
    def end(self) -> int:
        return self.first + len(self.lines)


class Whole(Exception):
    """A chunk does not parse alone, even joined to the next ones: parse the whole text."""


def parsed_at(first: int, lines: Sequence[str]) -> Chunk:
    """``lines`` parsed as the chunk that starts at line ``first`` (0-based); raises as ``ast.parse``."""
    body = ast.parse('\n' * first + ''.join(lines)).body
    return Chunk(first, tuple(lines), body)


def may_cut(lines: Sequence[str], index: int) -> bool:
    """May a chunk start at line ``index`` (a statement at column 0 after a line that ends whole)?"""
    line, before = lines[index], lines[index - 1]
    return line[:1] not in NOT_FIRST and line != '' and before.endswith('\n') and not before.endswith('\\\n')


def cuts(lines: Sequence[str], start: int, stop: int, size: int) -> list[int]:
    """Where the chunks of lines ``start`` to ``stop`` start (``start`` first), ``size`` lines
    apart at least."""
    found = [start]
    index = start + size
    while index < stop:
        if may_cut(lines, index):
            found.append(index)
            index += size
        else:
            index += 1
    return found


def ends_whole(lines: Sequence[str], end: int) -> bool:
    """May a chunk end before line ``end``: the text's end, or a line end with no continuation?"""
    return end == len(lines) or (lines[end - 1].endswith('\n') and not lines[end - 1].endswith('\\\n'))


def chunked(lines: Sequence[str], start: int, stop: int, size: int) -> list[Chunk]:
    """Lines ``start`` to ``stop`` parsed in chunks; raises ``Whole`` where they do not parse so."""
    starts = [*cuts(lines, start, stop, size), stop]
    made: list[Chunk] = []
    at = 0
    while at < len(starts) - 1:
        for joined in range(1, JOINS + 2):
            end = starts[min(at + joined, len(starts) - 1)]
            try:
                if not ends_whole(lines, end):
                    raise Whole()
                made.append(parsed_at(starts[at], lines[starts[at]:end]))
            except Exception:  # noqa: PIE786 - whatever it is, the whole text's parse says it
                if end == stop:
                    raise Whole() from None
                continue
            at += joined
            break
        else:
            raise Whole()
    return made


class Chunked:
    """One text's chunks, kept from one parse to the next (``parse``)."""

    def __init__(self, size: int = SIZE) -> None:
        self.size = size
        self.lines: list[str] = []
        self.chunks: list[Chunk] = []
        self.parsed_lines = 0  # the lines the last parse parsed (a measure: the rest was kept)

    def parse(self, text: str, lines: list[str]) -> ast.Module:
        """``ast.parse(text)`` (``lines``: its lines, their ends kept), from the chunks of the last
        text that did not change and the lines between them parsed again."""
        if '\0' in text:
            return self.whole(text)
        before, after, moved = self.reusable(lines)
        start = before[-1].end if before else 0
        stop = after[0].first if after else len(lines)
        try:
            middle = chunked(lines, start, stop, self.size) if start < stop else []
        except Whole:
            return self.whole(text)
        self.lines, self.chunks = list(lines), [*before, *middle, *after]
        self.parsed_lines = stop - start + moved
        return ast.Module(body=[node for chunk in self.chunks for node in chunk.body], type_ignores=[])

    def whole(self, text: str) -> ast.Module:
        self.lines, self.chunks, self.parsed_lines = [], [], text.count('\n') + 1
        return ast.parse(text)

    def reusable(self, lines: list[str]) -> tuple[list[Chunk], list[Chunk], int]:
        """The last text's chunks before the first line changed, and those after the last one
        changed (parsed again at their new place where lines were added or removed: how many
        lines that took)."""
        old = self.lines
        same = 0
        most = min(len(old), len(lines))
        while same < most and old[same] == lines[same]:
            same += 1
        tail = 0
        while tail < most - same and old[-1 - tail] == lines[-1 - tail]:
            tail += 1
        before = [chunk for chunk in self.chunks if chunk.end <= same]
        after = [chunk for chunk in self.chunks if chunk.first >= len(old) - tail]
        shift = len(lines) - len(old)
        if not (shift and after):
            return before, after, 0
        try:  # a chunk parses alone wherever it stands
            return before, [parsed_at(chunk.first + shift, chunk.lines) for chunk in after], \
                sum(len(chunk.lines) for chunk in after)
        except Exception:  # noqa: PIE786 - never expected; the lines are parsed again as new
            return before, [], 0
