"""ESC305: a backslash that escapes the closing quote of a Windows path (``r'C:\\reports\\'``).

Such a literal does not end where its author meant: the quote is escaped, the
literal runs on into the code, and CPython says "unterminated string literal"
somewhere else.  So ESC305 is a finding of a file that does not parse.  The
candidates are read from the text (a backslash before the quote that would
close the literal it stands in, the literal's text before it a Windows path by
the path family's tests, or a name on a row that says path), then proved by
CPython's tokenizer: as written, no literal ends at that quote; with the
backslash doubled, one does, and the whole statement tokenizes.  The
candidates of one statement are proved together (``"C:\\a\\" + n + "D:\\b\\"``);
a statement whose proof fails reports nothing.
"""
from __future__ import annotations

import ast
import io
import re
import tokenize
import warnings
from bisect import bisect_right
from typing import Iterator, NamedTuple

from flake8_escapes import escapes, paths, rules
from flake8_escapes.escapes import Escape

#: What the lexer of ``_statements`` looks at (group ``what``), the rest skipped in C: a comment,
#: a line continuation, a line end, a bracket, a literal's opening (its prefix and quote).
_LEXEME = re.compile(r"""(?:[^#\\\n()\[\]{}'"\w]+|\w+(?![\w'"]))*
    (?P<what>\#[^\n]*|\\\n|\n|[(\[{]|[)\]}]|(?P<prefix>\w*)(?P<quote>'''|\"\"\"|'|")|\\|\Z)""", re.VERBOSE)
#: The prefixes a literal may have (lower case).
PREFIXES = frozenset({'', 'r', 'u', 'b', 'br', 'rb', 'f', 'fr', 'rf', 't', 'tr', 'rt'})
#: A literal's text before the backslash that is names and separators only (``'x\\'``): a
#: path on a row that says so (``paths.PATH_CUE``: ``open(``, ``join(``, a name with ``dir``).
NAMES = re.compile(r'[\w.$~ -]+(?:\\\\?[\w.$~ -]+)*\\?')
#: The start of a path anchored at a drive (``C:\``) or a share (``\\server``): a command line's
#: last word so anchored is a path (``COMMAND_LINE``).
ANCHORED = re.compile(r'[A-Za-z]:\\|\\\\\w')
COMMAND_LINE = rules.Finder(
    'command-line-path', ('ESC305',),
    'A literal whose last word, after a space, is a path anchored at a drive or a share (`C:\\backup\\`, '
    '`\\\\srv\\share\\`) is read as a path there, as in a command line passed to a shell.',
    "import subprocess\nsubprocess.call('copy a.txt C:\\backup\\')\n",
)
#: Every finding rule of ESC305 (a literal that is a path whole is found by the path family's tests).
FINDERS: tuple[rules.Finder, ...] = (COMMAND_LINE,)
#: How far before a literal of names a path cue is looked for (``os.path.join(root, 'logs\\')``).
CUE_REACH = 120
#: What ends the scan of a literal's body (``_literal``), per quote: a backslash, its quote, a
#: line end for a one-line literal.
_STOPS = {quote: re.compile(r'\\|\n|' + quote if len(quote) == 1 else r'\\|' + quote)
          for quote in ("'", '"', "'''", '"""')}
#: A candidate of ``_statements``: (the offset of its backslash, the literal's prefix in lower
#: case, its quote, the offset of the literal).
Candidate = tuple[int, str, str, int]
#: The tokens that end a literal.
ENDS = frozenset({tokenize.STRING} | {
    getattr(tokenize, name) for name in ('FSTRING_END', 'TSTRING_END') if hasattr(tokenize, name)})


class Closing(NamedTuple):
    """A backslash that escapes its literal's closing quote: at ``offset`` of the
    text, at (line, 0-based col); the literal's prefix (lower case) and quote."""

    offset: int
    line: int
    col: int
    prefix: str
    quote: str     # ', ", ''' or \"\"\"
    begin: int = 0  # the offset of the literal's first character (its prefix)

    @property
    def raw(self) -> bool:
        return 'r' in self.prefix

    @property
    def is_bytes(self) -> bool:
        return 'b' in self.prefix


def escaped_quotes(text: str) -> list[Closing]:
    """The ESC305 backslashes of ``text`` (its line ends ``\\n``), proved by CPython's
    tokenizer (``_proved``); [] when the text holds no backslash before a quote."""
    if "\\'" not in text and '\\"' not in text:
        return []
    starts = row_starts(text)
    found: list[Closing] = []
    for begin, end, candidates in _statements(text, starts):
        if candidates and _proved(text, begin, end, candidates):
            found.extend(_closing(starts, *candidate) for candidate in candidates)
    return found


def doubled(text: str, found: list[Closing]) -> str:
    """``text`` with each backslash of ``found`` doubled: a text whose literals end where meant
    (the columns of every row move by one after each backslash doubled)."""
    parts = []
    at = 0
    for item in found:
        parts.append(text[at:item.offset])
        parts.append('\\')
        at = item.offset
    parts.append(text[at:])
    return ''.join(parts)


def repair(item: Closing) -> tuple[int, str]:
    """The repair of ``item`` that keeps the meant value, the path with one backslash at its
    end: (how many characters to replace at its backslash, the new text).  In a non-raw
    literal, the backslash doubled; in a raw one, which cannot end in one backslash, the
    literal closed before it and a ``'\\\\'`` joined to it (``r'C:\\d\\'`` -> ``r'C:\\d' '\\\\'``;
    ``b'\\\\'`` after a bytes literal, ``t'\\\\'`` after a t-string)."""
    if not item.raw:
        return 0, '\\'
    joined = 'b' if item.is_bytes else 't' if 't' in item.prefix else ''
    quote = item.quote[0]
    return 1 + len(item.quote), f'{item.quote} {joined}{quote}\\\\{quote}'


def row_starts(text: str) -> list[int]:
    """The offset of each row's first character in ``text``."""
    starts = [0]
    find = text.find
    at = find('\n')
    while at != -1:
        starts.append(at + 1)
        at = find('\n', at + 1)
    return starts


def _closing(starts: list[int], offset: int, prefix: str, quote: str, begin: int) -> Closing:
    row = bisect_right(starts, offset)
    return Closing(offset, row, offset - starts[row - 1], prefix, quote, begin)


def _statements(text: str, starts: list[int]) -> Iterator[tuple[int, int, list[Candidate]]]:
    """Each logical line of ``text`` as the tokenizer would read it were each candidate's
    backslash doubled: (its first offset, the offset past its line end, its candidates as
    (offset of the backslash, prefix, quote, offset of the literal)); ``starts``: ``row_starts``."""
    match = _LEXEME.match
    at, begin, depth = 0, 0, 0
    candidates: list[Candidate] = []
    while True:
        found = match(text, at)
        assert found is not None  # it matches the end of the text at the latest
        what = found.group('what')
        at = found.end()
        if not what:
            if begin < len(text):
                yield begin, len(text), candidates
            return
        if found.group('quote'):
            prefix = found.group('prefix').lower()  # a keyword before the quote is none: return'a'
            prefix = prefix if prefix in PREFIXES else ''
            at, candidate = _literal(text, found.start('quote'), prefix, found.group('quote'), starts)
            if candidate is not None:
                candidates.append(candidate)
        elif what == '\n' and depth == 0:
            yield begin, at, candidates
            begin, candidates = at, []
        elif what in '([{':
            depth += 1
        elif what in ')]}':
            depth = max(0, depth - 1)


def _literal(
    text: str, start: int, prefix: str, quote: str, starts: list[int],
) -> tuple[int, Candidate | None]:
    """(the offset past the literal whose quote is at ``start``, its candidate or None):
    the literal ends at its closing quote, at its candidate (whose backslash is read
    doubled), at the line end that ends a one-line literal, or at the end of the text.
    Only the first backslash before the literal's own quote may be its candidate: one
    that escapes such a quote on purpose (``"say \\"C:\\d\\""``) makes the literal no path's
    (and each literal is read once: linear)."""
    body = start + len(quote)
    at = body
    stops = _STOPS[quote]
    looked = False
    while True:
        found = stops.search(text, at)
        if found is None:
            return len(text), None
        at = found.start()
        char = text[at]
        if char == '\n':
            return at, None  # unterminated: the line end is the statement's
        if char != '\\':
            return found.end(), None
        if not looked and text.startswith(quote, at + 1):
            looked = True
            if _reads_as_path(text, body, at, starts):
                return at + 1 + len(quote), (at, prefix, quote, start - len(prefix))
        at += 2


def _reads_as_path(text: str, begin: int, backslash: int, starts: list[int]) -> bool:
    """Is the literal's text before ``backslash`` (from ``begin``), with it, a Windows path
    by its text, or a command line whose last word is a path anchored at a drive or share, or
    names and separators after a path cue on its row (within ``CUE_REACH`` characters before
    the literal)?"""
    written = text[begin:backslash + 1]
    if '\n' in written:
        return False
    if paths.path_kind(written):
        return True
    last = written.rpartition(' ')[2]  # a command line that ends in a path: 'copy a.txt C:\backup\'
    if last != written and ANCHORED.match(last) is not None and paths.path_kind(last):
        return True
    if NAMES.fullmatch(written) is None:
        return False
    row_start = starts[bisect_right(starts, begin) - 1]
    return paths.PATH_CUE.search(text, max(row_start, begin - CUE_REACH), begin) is not None


def _proved(text: str, begin: int, end: int, candidates: list[Candidate]) -> bool:
    """Does CPython's tokenizer prove the candidates of the statement ``text[begin:end]``?
    As written, no literal ends at one of their quotes; with their backslashes doubled, a
    literal ends at each one's quote, and the statement tokenizes whole."""
    snippet = text[begin:end]
    offsets = [candidate[0] - begin for candidate in candidates]
    written_ends = _ends(snippet)
    if written_ends is not None and any(
            offset + 1 + len(candidate[2]) in written_ends for offset, candidate in zip(offsets, candidates)):
        return False
    if _parses(snippet):
        return False  # the statement as written is Python, if not what was meant: x = 'C:\\d\\' # '
    mended = doubled(snippet, [Closing(offset, 0, 0, '', '') for offset in offsets])
    mended_ends = _ends(mended, whole=True)
    if mended_ends is None:
        return False
    return all(offset + index + 2 + len(candidate[2]) in mended_ends
               for index, (offset, candidate) in enumerate(zip(offsets, candidates)))


def _parses(snippet: str) -> bool:
    """Does the statement ``snippet`` (its first row's indentation left out) parse alone?"""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            ast.parse(snippet.lstrip(' \t\f'))
    except (SyntaxError, ValueError):
        return False
    return True


def _ends(snippet: str, whole: bool = False) -> set[int] | None:
    """The offsets just past each literal the tokenizer reads in ``snippet``, up to where it
    stops; None when ``whole`` and it does not tokenize whole."""
    starts = row_starts(snippet)
    ends: set[int] = set()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')  # 3.12+'s tokenizer warns about the escapes
            for token in tokenize.generate_tokens(io.StringIO(snippet).readline):
                if token.type == tokenize.ERRORTOKEN and not token.string.isspace():
                    raise SyntaxError(token.string)  # 3.10, 3.11: a quote that opens no literal
                if token.type in ENDS:
                    row, col = token.end
                    ends.add(starts[row - 1] + col)
    except (SyntaxError, tokenize.TokenError):
        return None if whole else ends
    return ends


#: ESC305's advice, for a non-raw literal and for a raw one (which cannot end in one backslash).
ADVICE = "end the path with '\\\\' or use os.path.join"
RAW_ADVICE = "end the raw path with r'...' '\\\\' or use pathlib"


def message_fields(item: Closing) -> dict[str, str]:
    """ESC305's message fields for ``item``."""
    return {'escape': '\\' + item.quote[0], 'advice': RAW_ADVICE if item.raw else ADVICE}


def escape_of(item: Closing) -> Escape:
    """The escape ESC305 is about, ``\\'`` or ``\\"``, as the grammar reads it."""
    return Escape(0, '\\' + item.quote[0], escapes.SIMPLE)


#: A backslash that escapes a quote (an odd run of backslashes before it).
_ESCAPED_QUOTE = re.compile(r'(?<!\\)(?:\\\\)*\\([\'"])')


def may_hold(lines: list[str]) -> bool:
    """May ``lines`` hold an ESC305?  Some row holds a backslash that escapes a quote after
    which the rest of the row holds that quote an even number of times: the literal runs past
    the row's end or pairs the row's quotes one off (``r'C:\\d\\' + x``, ``'C:\\d\\', 'y')``),
    where a literal that escapes a quote on purpose leaves an odd number (``'it\\'s'``); and
    the row may hold a path (``paths.may_hold_path``, ``paths.PATH_CUE``).  The fast path asks
    it of a text whose rows are otherwise quiet (only ``\\\\`` and quotes)."""
    for row in lines:
        if ("\\'" not in row and '\\"' not in row) or not (
                paths.may_hold_path(row) or paths.PATH_CUE.search(row) is not None):
            continue
        after = {"'": 0, '"': 0}  # each quote's count after the match, from the row's end: linear
        stop = len(row)
        for match in reversed(list(_ESCAPED_QUOTE.finditer(row))):
            for quote in after:
                after[quote] += row.count(quote, match.end(), stop)
            stop = match.end()
            if after[match.group(1)] % 2 == 0 or '#' in row[stop:]:  # a comment may hold a quote
                return True
    return False
