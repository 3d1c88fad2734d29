"""Rewrite literals so that their reports go away (``flake8-escapes fix``).

The rule: after any run, each file is either exactly as it was or correctly
fixed.

Safe fixes keep the value of every literal, so the module's AST does not
change:

- ESC301, ESC302: the literal becomes raw when that spells the same value
  (every backslash in it starts an escape a raw literal keeps as it is),
  otherwise the backslash of each bad escape is doubled;
- ESC303: the escape is spelled another way ('\\777' -> '\\u01ff',
  b'\\777' -> b'\\xff', the byte CPython stores).

Unsafe fixes (ESC401, ESC402, ESC501) change the value to what the author
meant: the literal becomes raw where every other escape in it allows it,
otherwise the reported backslashes are doubled.  A fixed regex must compile,
with every group reference valid.

How it is kept safe:

- the original bytes are spliced: only the edited literal's bytes change
  (inserted ``r``, doubled backslash, respelled octal: all ASCII), so a codec
  that does not round-trip cannot touch a comment; codecs where that is not
  safe (not ASCII-compatible, stateful, not loadable) are refused;
- each edited literal is parsed alone before and after: its value must be
  the same (safe fixes), and the whole module must still parse;
- ``# noqa`` is honoured as flake8 honours it (same regex, same lines);
- positions are those of the checker: line ends are read as the compiler
  and flake8 read them (``\\r\\n``, lone ``\\r`` and ``\\n``);
- fixing runs to a fixed point (bounded by ``ROUNDS``).
"""
from __future__ import annotations

import ast
import codecs
import errno
import io
import os
import re
import stat
import tempfile
import tokenize
import warnings
from typing import Any, NamedTuple, Sequence, TypeVar

from flake8_escapes import apis, checks, escapes, invalid, literals, roles as role_pass, rules

try:  # flake8's own noqa regexes, so that the fixer skips exactly what flake8 silences
    from flake8.defaults import NOQA_FILE, NOQA_INLINE_REGEXP
except ImportError:  # pragma: no cover - flake8 is a dependency
    NOQA_INLINE_REGEXP = re.compile(r'# noqa(?::[\s]?(?P<codes>([A-Z]+[0-9]+(?:[,\s]+)?)+))?', re.I)
    NOQA_FILE = re.compile(r'\s*# flake8[:=]\s*noqa', re.I)

SAFE = tuple(rule.code for rule in rules.RULES if rule.fix == rules.SAFE)
UNSAFE = tuple(rule.code for rule in rules.RULES if rule.fix == rules.UNSAFE)
REGEX_CODES = frozenset(rule.code for rule in rules.RULES if rule.family == rules.REGEX)
#: Escapes whose backslash stays in the value: a raw literal spells them alike.
KEPT_BY_RAW = frozenset({escapes.INVALID, escapes.STR_ONLY_IN_BYTES})
#: A fix can expose another report ('\\missing\\foo': once \\m is fixed the
#: literal reads as a Windows path): the fixer runs again, at most this often.
ROUNDS = 4
#: Codecs that keep a shift state between characters: ASCII bytes inserted
#: in a shifted run would be read as other characters.
STATEFUL_CODECS = ('iso2022', 'utf_7', 'hz')
#: ASCII that a codec must read as itself (unicode_escape and
#: raw_unicode_escape read these as one character).
ASCII_PROBES = (bytes(range(128)), b'\\u0041\\x41\\101\\N{DIGIT ONE}\\\n')
BOM = codecs.BOM_UTF8
NOT_PARSED = 'the fixed file would not parse'

Text = TypeVar('Text', str, bytes)


class Edit(NamedTuple):
    """Replace ``length`` characters at (line, col) by ``text`` (ASCII)."""

    line: int
    col: int
    length: int
    text: str


class LeftAlone(NamedTuple):
    line: int
    col: int
    code: str
    reason: str


class Result(NamedTuple):
    text: str
    fixed: list[str]               # one code per escape fixed
    left_alone: list[LeftAlone]    # fixes not made, and why
    unsafe_left: list[str] = []    # codes of reports only --unsafe would fix


class Refused(Exception):
    """A file the fixer leaves alone as a whole; the message says why."""


# Reading --------------------------------------------------------------------

def read(data: bytes) -> tuple[str, str]:
    """The text of a source file and its encoding, as the compiler reads them
    ('utf-8-sig' when the file starts with a BOM).  Line endings are kept.

    Raises SyntaxError for a bad coding cookie and UnicodeDecodeError for bytes
    the declared encoding cannot read.
    """
    encoding = detect_encoding(data)
    return data.decode(encoding), encoding


def detect_encoding(data: bytes) -> str:
    """``tokenize.detect_encoding`` on lines as the compiler splits them: a
    coding cookie on a line ended by a lone CR counts (tokenize's readline
    would see one long first line)."""
    starts = line_starts(data)[:3]
    lines = iter([data[begin:end] for begin, end in zip(starts, starts[1:])])
    return tokenize.detect_encoding(lambda: next(lines, b''))[0]


def splice_problem(encoding: str) -> str | None:
    """Why bytes in ``encoding`` cannot be edited by inserting ASCII, or None."""
    if encoding == 'utf-8-sig':
        return None  # the BOM is kept apart (apply_bytes), the rest is UTF-8
    try:
        info = codecs.lookup(encoding)
    except LookupError:
        return f'unknown encoding {encoding!r}'
    name = info.name.replace('-', '_')
    if not getattr(info, '_is_text_encoding', True):
        return f'{encoding!r} is not a text encoding'
    if name.startswith(STATEFUL_CODECS):
        return f'{encoding!r} is a stateful encoding: bytes cannot be edited in place'
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')  # unicode_escape warns about '\]'
        for probe in ASCII_PROBES:
            try:
                if probe.decode(encoding) != probe.decode('ascii') or \
                        probe.decode('ascii').encode(encoding) != probe:
                    break
            except (UnicodeError, ValueError):
                break
        else:
            return None
    return f'{encoding!r} is not ASCII-compatible: bytes cannot be edited in place'


def normalized(text: str) -> str:
    """The text with every line end read as the compiler and flake8 read it
    (``\\r\\n`` and a lone ``\\r`` are line ends, as ``\\n``)."""
    if '\r' not in text:
        return text
    return text.replace('\r\n', '\n').replace('\r', '\n')


#: Keyed by the pattern's own type (str or bytes), which typing cannot tie to the key.
_LINE_ENDS: dict[type, re.Pattern[Any]] = {str: re.compile('\r\n|\r|\n'), bytes: re.compile(b'\r\n|\r|\n')}


def line_starts(text: Text) -> list[int]:
    """Offsets where each line starts (index 0 is line 1), line ends as
    ``normalized`` reads them; the last item is the text's length."""
    starts = [0]
    starts.extend(match.end() for match in _LINE_ENDS[type(text)].finditer(text))
    if starts[-1] != len(text):
        starts.append(len(text))
    return starts


def splice(text: Text, offsets: Sequence[tuple[int, int, Text]]) -> Text:
    """``text`` with (start, end, new) replacements made, in one pass."""
    out = []
    at = 0
    for start, end, new in sorted(offsets, key=lambda item: (item[0], item[1])):
        out.append(text[at:start])
        out.append(new)
        at = end
    out.append(text[at:])
    return text[:0].join(out)


def apply(text: str, edits: list[Edit]) -> str:
    """``text`` with ``edits`` made (positions are those of ``normalized(text)``;
    the line ends of ``text`` stay as they are)."""
    starts = line_starts(text)
    return splice(text, [(starts[e.line - 1] + e.col, starts[e.line - 1] + e.col + e.length, e.text)
                         for e in edits])


def _char_offsets(line: bytes, encoding: str) -> list[int]:
    """The byte offset of each character of ``line`` (and of its end)."""
    decoder = codecs.getincrementaldecoder(encoding)()
    offsets = [0]
    for index in range(len(line)):
        produced = len(decoder.decode(line[index:index + 1]))
        offsets.extend([index + 1] * produced)
    return offsets


def apply_bytes(data: bytes, encoding: str, edits: list[Edit]) -> bytes:
    """``data`` with ``edits`` (character positions of the normalized text)
    made on the original bytes: nothing else is decoded or encoded again."""
    head = BOM if encoding == 'utf-8-sig' and data.startswith(BOM) else b''
    body = data[len(head):]
    encoding = 'utf-8' if head else encoding
    starts = line_starts(body)
    lines: dict[int, list[int]] = {}
    replacements = []
    for edit in edits:
        begin, end = starts[edit.line - 1], starts[edit.line]
        if edit.line not in lines:
            line = body[begin:end]
            lines[edit.line] = list(range(len(line) + 1)) if line.isascii() else _char_offsets(line, encoding)
        offsets = lines[edit.line]
        replacements.append((begin + offsets[edit.col], begin + offsets[edit.col + edit.length],
                             edit.text.encode('ascii')))
    return head + splice(body, replacements)


# noqa -----------------------------------------------------------------------

def noqa_lines(tokens: list[tokenize.TokenInfo], lines: list[str]) -> dict[int, str]:
    """flake8's ``FileProcessor._noqa_line_mapping``: each line maps to the
    text of the physical lines its logical line spans (so a multi-line
    string's ``noqa`` may stand on its last line)."""
    mapping: dict[int, str] = {}
    low, high = len(lines) + 2, -1
    for kind, _, (start, _), (end, _), _ in tokens:
        if kind in (tokenize.ENDMARKER, tokenize.DEDENT):
            continue
        low, high = min(low, start), max(high, end)
        if kind in (tokenize.NL, tokenize.NEWLINE):
            joined = ''.join(lines[low - 1:high])
            mapping.update(dict.fromkeys(range(low, high + 1), joined))
            low, high = len(lines) + 2, -1
    return mapping


def silenced(code: str, line: str | None) -> bool:
    """flake8's ``Violation.is_inline_ignored`` for ``code`` on ``line``."""
    match = NOQA_INLINE_REGEXP.search(line or '')
    if match is None:
        return False
    listed = match.groupdict()['codes']
    if listed is None:
        return True
    codes = {item.strip() for item in re.split(r'[,\s]', listed) if item.strip()}
    return code in codes or code.startswith(tuple(codes))


# Planning -------------------------------------------------------------------

def _can_be_raw(piece: literals.Piece, fixing: set[tuple[int, int]], codes: set[str]) -> bool:
    """Whether prefixing r gives the literal the value the fix wants: every
    escape in it is either kept by a raw literal or one of those being fixed."""
    if piece.spans[0][0] == 0:
        return False  # a piece of a 3.12+ f-string or t-string: doubled instead
    prefix = literals.split_prefix(piece.text)[0]
    if set(prefix) & set('uft') or 'ESC303' in codes:
        return False  # no 'ur' in Python 3; f-strings are doubled; \777 is respelled
    for begin, end in piece.spans:
        for escape in escapes.escapes_in(piece.text, piece.is_bytes, begin, end, piece.lookahead):
            if escape.kind in KEPT_BY_RAW:
                continue
            if literals.position(piece.start, piece.text, escape.offset) not in fixing:
                return False
    return True


def _joins_name(char: str) -> bool:
    """Would ``char`` followed by ``r'...'`` read as one name (``orr'...'``)?"""
    return bool(char) and ('a' + char + 'r').isidentifier()


def _plan(piece: literals.Piece, items: list[tuple[str, literals.Found]], lines: list[str]) -> list[Edit]:
    codes = {code for code, _ in items}
    if _can_be_raw(piece, {(found.line, found.col) for _, found in items}, codes):
        line, col = piece.start
        before = lines[line - 1][col - 1:col] if col else ''
        return [Edit(line, col, 0, ' r' if _joins_name(before) else 'r')]
    edits = []
    for code, found in items:
        if code == 'ESC303':
            value = invalid.spelled_value(found.escape.text, piece.is_bytes)
            edits.append(Edit(found.line, found.col, len(found.escape.text), value))
        else:
            edits.append(Edit(found.line, found.col, 0, '\\'))
    return edits


def parse(text: str, mode: str = 'exec') -> ast.AST:
    """``ast.parse`` without the compiler's warnings about the very escapes
    being fixed (they would reach the user's terminal)."""
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        return ast.parse(text, mode=mode)


def _tokens(lines: list[str]) -> list[tokenize.TokenInfo]:
    with warnings.catch_warnings():  # 3.12+'s tokenizer warns about '\{' as the compiler does
        warnings.simplefilter('ignore')
        return list(tokenize.generate_tokens(iter(lines).__next__))


def _literal_span(tokens: list[tokenize.TokenInfo], starts: dict[literals.Position, int],
                  piece: literals.Piece) -> tuple[literals.Position, literals.Position]:
    """(start, end) of the whole literal a piece belongs to: its STRING token,
    or the f-/t-string from its START to its END token."""
    index = starts[piece.start]
    kind = tokens[index][0]
    if kind == literals.STRING:
        return tokens[index][2], _end(tokens[index])
    depth = 0
    for back in range(index - 1, -1, -1):
        if tokens[back][0] in literals.END_TYPES:
            depth += 1
        elif tokens[back][0] in literals.START_TYPES:
            if not depth:
                index = back
                break
            depth -= 1
    depth = 0
    for ahead in range(index + 1, len(tokens)):
        if tokens[ahead][0] in literals.START_TYPES:
            depth += 1
        elif tokens[ahead][0] in literals.END_TYPES:
            if not depth:
                return tokens[index][2], _end(tokens[ahead])
            depth -= 1
    raise ValueError('unterminated f-string')  # not for tokens of code that parses


def _end(token: tokenize.TokenInfo) -> tuple[int, int]:
    """Where a token ends, from its text (3.12.1 counts the end column of a
    multi-line token in bytes)."""
    return literals.position(token[2], token[1], len(token[1]))


def _source(lines: list[str], start: tuple[int, int], end: tuple[int, int]) -> str:
    if start[0] == end[0]:
        return lines[start[0] - 1][start[1]:end[1]]
    return ''.join([lines[start[0] - 1][start[1]:], *lines[start[0]:end[0] - 1],
                    lines[end[0] - 1][:end[1]]])


def _shifted(source: str, start: tuple[int, int], edits: list[Edit]) -> str:
    """``source`` (the text from ``start``) with ``edits`` made."""
    local = [Edit(e.line - start[0] + 1, e.col - start[1] if e.line == start[0] else e.col, e.length, e.text)
             for e in edits]
    return apply(source, local)


def _key(node: ast.AST) -> object:
    """What a literal's AST says of its value (a str is never equal to bytes)."""
    if isinstance(node, ast.Constant):
        return type(node.value), node.value
    return ast.dump(node)


def _value(source: str) -> object:
    try:
        return _key(parse(source, 'eval').body)  # type: ignore[attr-defined]
    except (SyntaxError, ValueError, RecursionError):
        return None


def values(sources: list[str]) -> list[object]:
    """The value of each literal's source (None: it does not parse), parsed
    together as one tuple (one call to the compiler, not one per literal)."""
    try:
        batch = parse('(\n' + ',\n'.join(sources) + ',\n)', 'eval').body  # type: ignore[attr-defined]
    except (SyntaxError, ValueError, RecursionError):
        batch = None
    if isinstance(batch, ast.Tuple) and len(batch.elts) == len(sources):
        return [_key(node) for node in batch.elts]
    return [_value(source) for source in sources]


class _Unit(NamedTuple):
    """One literal (STRING token or whole f-string) and the fixes planned in it."""

    start: tuple[int, int]
    end: tuple[int, int]
    edits: list[Edit]
    items: list[tuple[str, literals.Found]]
    safe: bool


def _pattern_errors(value: str | bytes) -> str | None:
    try:
        re.compile(value)
    except re.error as error:
        try:
            import regex
            regex.compile(value)
        except ImportError:
            return f'the fixed pattern does not compile: {error}'
        except Exception:
            return f'the fixed pattern does not compile: {error}'
    except (TypeError, ValueError, OverflowError, RecursionError) as error:
        return f'the fixed pattern does not compile: {error}'
    return None


def _template_errors(value: Text, pattern: str | bytes | None) -> str | None:
    """Is ``value`` a valid replacement for ``pattern`` (None: unknown, any
    group number up to 99 is taken as valid)?"""
    any_groups = b'()' * 99 if isinstance(value, bytes) else '()' * 99
    try:
        compiled = re.compile(pattern if type(pattern) is type(value) else any_groups)
    except (re.error, TypeError, ValueError, OverflowError, RecursionError):
        compiled = re.compile(any_groups)
    try:
        compiled.sub(value, value[:0])  # re reads the template before it searches
    except (re.error, IndexError, TypeError, ValueError) as error:
        return f'the fixed replacement is not valid for its pattern: {error}'
    return None


def patterns_by_argument(tree: ast.AST) -> dict[tuple[int, int], str | bytes | None]:
    """For each call argument, at its (line, utf-8 col): the call's pattern
    when it is a literal (the first argument, or ``pattern=``/``pat=``), else
    None.  Built once per file, so that checking many replacements stays linear."""
    found: dict[tuple[int, int], str | bytes | None] = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        first = node.args[0] if node.args else None
        for keyword in node.keywords:
            if keyword.arg in ('pattern', 'pat'):
                first = keyword.value
        for argument in [*node.args, *(k.value for k in node.keywords)]:
            pattern = first if first is not argument else None
            value = pattern.value if isinstance(pattern, ast.Constant) else None
            found[argument.lineno, argument.col_offset] = value if isinstance(value, (str, bytes)) else None
    return found


def _regex_problem(unit: _Unit, new_source: str, roles: dict[tuple[int, int], role_pass.Role],
                   patterns: dict[tuple[int, int], str | bytes | None], lines: list[str]) -> str | None:
    """Why the fixed regex literal would break the program, or None."""
    try:
        value = ast.literal_eval(new_source)
    except (SyntaxError, ValueError, RecursionError):
        return None  # an f-string: its value is not known here
    line, col = unit.start
    kinds = (role_pass.PATTERN, role_pass.REPLACEMENT)
    used = roles.get(unit.start) or role_pass.role_at(list(roles.values()), line, col, kinds)
    if used is not None and used.role == role_pass.REPLACEMENT:
        col_bytes = len(lines[line - 1][:col].encode('utf-8'))
        return _template_errors(value, patterns.get((line, col_bytes)))
    problem = _pattern_errors(value)
    if problem and used is None:  # text that reads like a regex, or a template
        return _template_errors(value, None) and problem
    return problem


class _Context(NamedTuple):
    text: str
    lines: list[str]
    tree: ast.AST
    tokens: list[tokenize.TokenInfo]
    starts: dict[tuple[int, int], int]
    functions: tuple[apis.Api, ...]


Planned = dict[literals.Piece, list[tuple[str, literals.Found]]]


def _units(by_piece: Planned, context: _Context) -> list[_Unit]:
    """The planned fixes, grouped by literal (an f-string's pieces together)."""
    units: dict[tuple[int, int], _Unit] = {}
    for piece, items in by_piece.items():
        start, end = _literal_span(context.tokens, context.starts, piece)
        unit = units.setdefault(start, _Unit(start, end, [], [], True))
        unit.edits.extend(_plan(piece, items, context.lines))
        unit.items.extend(items)
        if not all(code in SAFE for code, _ in items):
            units[start] = unit._replace(safe=False)
    return list(units.values())


def _checked(units: list[_Unit], context: _Context) -> tuple[list[_Unit], list[LeftAlone], list[_Unit]]:
    """(units whose fix is proved, the fixes left alone, the units refused)."""
    left: list[LeftAlone] = []
    chosen: list[_Unit] = []
    refused: list[_Unit] = []
    roles: dict[tuple[int, int], role_pass.Role] | None = None
    patterns: dict[tuple[int, int], str | bytes | None] = {}
    olds = [_source(context.lines, unit.start, unit.end) for unit in units]
    news = [_shifted(old, unit.start, [e._replace(text=e.text.lstrip()) for e in unit.edits])
            for old, unit in zip(olds, units)]
    for unit, new, before, after in zip(units, news, values(olds), values(news)):
        reason = None
        if after is None:
            reason = 'the fixed literal would not parse'
        elif unit.safe and before != after:
            reason = 'its fix would change the value of the literal'
        elif not unit.safe and any(code in REGEX_CODES for code, _ in unit.items):
            if roles is None:
                near = {f.line for u in units for _, f in u.items} | {u.start[0] for u in units}
                roles = {role.start: role  # a literal's role, found by its start (linear)
                         for role in role_pass.literal_roles(context.tree, context.lines, context.functions,
                                                             sorted(near))
                         if role.role in (role_pass.PATTERN, role_pass.REPLACEMENT)}
                patterns = patterns_by_argument(context.tree)
            reason = _regex_problem(unit, new, roles, patterns, context.lines)
        if reason:
            left.extend(LeftAlone(found.line, found.col, code, reason) for code, found in unit.items)
            refused.append(unit)
        else:
            chosen.append(unit)
    return chosen, left, refused


def _round(
    text: str, codes: set[str], functions: tuple[apis.Api, ...], tree: ast.AST | None = None,
) -> tuple[list[Edit], list[str], list[LeftAlone], list[str], ast.AST | None]:
    """One pass over normalized ``text`` (``tree``: its AST, when known):
    (edits, fixed codes, left alone, codes only --unsafe would fix, the AST
    of the fixed text)."""
    lines = io.StringIO(text, newline='').readlines()
    if 'flake8' in text and any(NOQA_FILE.match(line) for line in lines):
        return [], [], [], [], None  # flake8 ignores the whole file
    tree = tree or parse(text)
    tokens = _tokens(lines)
    noqa = noqa_lines(tokens, lines) if 'noqa' in text.lower() else {}
    by_piece: Planned = {}
    unsafe_left: list[str] = []
    for report in checks.all_reports(tree, tokens, lines, functions):
        if silenced(report.code, noqa.get(report.line)):
            continue
        if report.code in codes:
            by_piece.setdefault(report.found.piece, []).append((report.code, report.found))
        elif report.code in UNSAFE:
            unsafe_left.append(report.code)
    if not by_piece:
        return [], [], [], unsafe_left, None
    starts = {tok[2]: index for index, tok in enumerate(tokens) if tok[0] in literals.PIECE_TYPES}
    context = _Context(text, lines, tree, tokens, starts, functions)
    chosen, left, refused = _checked(_units(by_piece, context), context)
    # A literal whose unsafe fix is refused still gets its safe fixes.
    safe_only: Planned = {}
    for unit in refused:
        for code, found in unit.items:
            if code in SAFE:
                safe_only.setdefault(found.piece, []).append((code, found))
    if safe_only:
        more, _, _ = _checked(_units(safe_only, context), context)
        chosen.extend(more)
        done = {(f.line, f.col) for unit in more for _, f in unit.items}
        left = [item for item in left if (item.line, item.col) not in done]
    edits = [edit for unit in chosen for edit in unit.edits]
    new_tree = _parsed(apply(text, edits)) if edits else None
    if edits and new_tree is None:
        # The literals each parse: find the ones the module does not take.
        kept = []
        for unit in chosen:
            if _parses(apply(text, unit.edits)):
                kept.append(unit)
            else:
                left.extend(LeftAlone(f.line, f.col, c, NOT_PARSED) for c, f in unit.items)
        chosen = kept if _parses(apply(text, [e for unit in kept for e in unit.edits])) else []
        if not chosen:
            left.extend(LeftAlone(f.line, f.col, c, NOT_PARSED) for unit in kept for c, f in unit.items)
        edits = [edit for unit in chosen for edit in unit.edits]
    fixed = [code for unit in chosen for code, _ in unit.items]
    return edits, fixed, left, unsafe_left, new_tree


def _parsed(text: str) -> ast.AST | None:
    try:
        return parse(text)
    except (SyntaxError, ValueError):
        return None


def _parses(text: str) -> bool:
    return _parsed(text) is not None


def fix_text(
    text: str, codes: set[str], regex_functions: tuple[apis.Api, ...] | None = None,
) -> Result:
    """Fix the reports of ``codes`` in ``text`` (any line ends).  Raises
    SyntaxError when the text does not parse."""
    fixed: list[str] = []
    left: list[LeftAlone] = []
    unsafe_left: list[str] = []
    tree = None
    for _ in range(ROUNDS):
        if '\\' not in text:
            unsafe_left = []
            break
        edits, now_fixed, now_left, unsafe_left, tree = _round(
            normalized(text), codes, regex_functions or (), tree)
        left = now_left  # what the last round could not fix is what is left
        if not edits:
            break
        text = apply(text, edits)
        fixed.extend(now_fixed)
    return Result(text, sorted(fixed), sorted(set(left)), sorted(unsafe_left))


class BytesResult(NamedTuple):
    data: bytes
    fixed: list[str]
    left_alone: list[LeftAlone]
    unsafe_left: list[str]


def fix_bytes(
    data: bytes, codes: set[str], regex_functions: tuple[apis.Api, ...] | None = None,
) -> BytesResult:
    """Fix a file's bytes: only the edited literals' bytes change.

    Raises Refused (the file is left alone, the message says why),
    SyntaxError (bad coding cookie, does not parse) or UnicodeDecodeError.
    """
    try:
        encoding = detect_encoding(data)
    except LookupError as error:  # 3.14: a codec that is not a text encoding
        raise Refused(str(error)) from None
    if b'\\' not in data:  # an ASCII-compatible codec spells a backslash 5C
        if splice_problem(encoding) is None:
            return BytesResult(data, [], [], [])
    problem = splice_problem(encoding)
    if problem:
        raise Refused(problem)
    fixed: list[str] = []
    left: list[LeftAlone] = []
    unsafe_left: list[str] = []
    tree = None
    for _ in range(ROUNDS):
        text = data.decode(encoding)
        edits, now_fixed, now_left, unsafe_left, tree = _round(
            normalized(text), codes, regex_functions or (), tree)
        left = now_left
        if not edits:
            break
        new = apply_bytes(data, encoding, edits)
        try:
            same = new.decode(encoding) == apply(text, edits)
        except UnicodeDecodeError:
            same = False
        if not same:  # a codec the probes did not catch
            raise Refused(f'{encoding!r}: an edit would change other characters')
        data = new
        fixed.extend(now_fixed)
    return BytesResult(data, sorted(fixed), sorted(set(left)), sorted(unsafe_left))


# Writing --------------------------------------------------------------------

def write_atomic(path: str, data: bytes) -> None:
    """Replace the file at ``path`` (for a symlink: its target) by ``data``,
    all at once: a temporary file in the same folder is written, flushed to
    disk and given the original's mode bits, then renamed over the original.
    On any error the original is untouched and the temporary file removed.

    A file without write permission is not replaced (PermissionError).
    """
    target = os.path.realpath(path)
    mode = stat.S_IMODE(os.stat(target).st_mode)
    if not os.access(target, os.W_OK):
        raise PermissionError(errno.EACCES, 'the file is not writable', path)
    folder, name = os.path.split(target)
    fd, temporary = tempfile.mkstemp(prefix=f'.{name}.', suffix='.flake8-escapes', dir=folder)
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.chmod(temporary, mode)  # mkstemp made it 0600
        os.replace(temporary, target)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise
