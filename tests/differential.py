"""Differential testing of ESC301-ESC304 against the running CPython.

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

ESC304 (an escape CPython refuses: the file does not compile) is compared
the same way on generated sources that do not compile (``compare_refused``):
CPython names only the first refused escape, so ours must be of the same
letter (and, in a plain ASCII literal, at the offset CPython's message gives);
that backslash is doubled and the literal compiled again, until it compiles.

Run as a script to print the counts for the standard library:
``python tests/differential.py [--limit N]``; ``--refused N`` for ESC304 on N generated sources.
"""
from __future__ import annotations

import argparse
import ast
import io
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
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from flake8_escapes import checks, literals, source as lexer
from flake8_escapes.plugin import Plugin
from helpers import processor_for

START_TYPES = {
    getattr(tokenize, name) for name in ('FSTRING_START', 'TSTRING_START') if hasattr(tokenize, name)
}
MIDDLE_TYPES = {
    getattr(tokenize, name) for name in ('FSTRING_MIDDLE', 'TSTRING_MIDDLE') if hasattr(tokenize, name)
}
END_TYPES = {
    getattr(tokenize, name) for name in ('FSTRING_END', 'TSTRING_END') if hasattr(tokenize, name)
}
# 3.10-3.13: invalid escape sequence '\d'; 3.14: "\d" is an invalid escape sequence. ...
WARNING_RE = re.compile(
    r"""invalid (?:octal )?escape sequence '(?P<old>.*)'\Z"""
    r"""|"(?P<new>.*)" is an invalid (?:octal )?escape sequence\.""",
    re.DOTALL,
)
PY = sys.version_info[:2]


@dataclass
class Tally:
    files: int = 0
    skipped: int = 0           # files CPython itself does not compile
    literals: int = 0          # literal units seen
    compared: int = 0          # units with a backslash, compiled one by one
    escapes: int = 0           # CPython warnings matched one to one
    intended: Counter = field(default_factory=Counter)
    disagreements: list = field(default_factory=list)
    family_reports: list = field(default_factory=list)  # ESC4xx/5xx: CPython has no say on them
    refusals: int = 0          # CPython refusals matched one to one with ESC304
    placed: int = 0            # ... of which at the offset CPython's message gives


def plugin_reports(processor: FileProcessor) -> list[tuple[int, int, str]]:
    tree = processor.build_ast()
    plugin = Plugin(tree, processor.lines)
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
            return '\\' + (match.group('old') or match.group('new'))[1:]
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


def raw_backslash_warned(text: str, warned: str, ours: set[int]) -> int | None:
    """Offset of a backslash CPython warned about in a raw f-/t-string piece, or None.

    3.12 and 3.13 before the fix of https://github.com/python/cpython/issues/137314
    read the format spec of a raw f-string as if it were not raw
    (rf'{x:\\w}'), and warn; the language reference, 3.11 and fixed releases
    keep it raw.  The piece is found with tokenize, not with the plugin.
    """
    if PY < (3, 12):
        return None
    starts = [0]
    for line in io.StringIO(text).readlines():
        starts.append(starts[-1] + len(line))
    stack: list[str] = []
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    for tok in tokens:
        if tok.type in START_TYPES:
            stack.append(tok.string.lower())
        elif tok.type in END_TYPES:
            stack.pop()
        elif tok.type in MIDDLE_TYPES and stack and 'r' in stack[-1]:
            at = tok.string.find(warned)
            base = starts[tok.start[0] - 1] + tok.start[1]
            if at != -1 and base + at not in ours:
                return base + at
    return None


def compare_literal(text: str, reports: list[tuple[int, str]], tally: Tally, where: str) -> None:
    """Compare our (offset, code) reports on one literal with CPython."""
    pending = sorted(reports)
    shift: list[int] = []  # original offsets whose backslash we doubled

    def now(offset: int) -> int:
        return offset + sum(1 for o in shift if o < offset)

    current = text
    for _ in range(text.count("\\") + 1):  # each round removes one backslash
        warned = first_escape_warning(current)
        if warned is None:
            break
        code = expected_code(warned)
        hit = next(
            (r for r in pending if r[1] == code and current.startswith(warned, now(r[0]))),
            None,
        )
        if hit is None:
            spurious = raw_backslash_warned(current, warned, {now(r[0]) for r in pending})
            if spurious is None:
                tally.disagreements.append((where, 'cpython-only', warned, text))
                return
            # Take that backslash out of the literal (same length) and go on.
            tally.intended['cpython-gh-137314'] += 1
            current = current[:spurious] + '/' + current[spurious + 1:]
            continue
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
    reports = plugin_reports(processor)
    compare_reports(processor.lines, processor.file_tokens, reports, tally, name)


def compare_reports(lines: list[str], tokens: list[tokenize.TokenInfo], reports: list[tuple[int, int, str]],
                    tally: Tally, name: str) -> None:
    """Compare every literal of one file (its ``lines`` and their ``tokens``) with
    ``reports``, (line, 0-based column, message led by its code) of the plugin or of
    ``api.lint``."""
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    source = ''.join(lines)

    def offset(pos: tuple[int, int]) -> int:
        return starts[pos[0] - 1] + pos[1]

    tally.family_reports.extend(
        (name, line, message) for line, _, message in reports if message.startswith(('ESC4', 'ESC5')))
    placed = sorted((offset((line, col)), message[:6]) for line, col, message in reports
                    if message.startswith('ESC30'))  # the codes CPython warns about
    units = literal_units(tokens)
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


# Generated literals ---------------------------------------------------------

F_PREFIXES = ['f', 'F', 'rf', 'fr', 'Rf', 'fR', 'RF', 'FR']
T_PREFIXES = ['t', 'T', 'rt', 'tr', 'Rt', 'tR'] if hasattr(tokenize, 'TSTRING_START') else []

# Pieces of literal bodies.  Each is complete on its own (no bare quote, no
# half escape), so any sequence of them is a valid body for its kind.
COMMON = [
    'a', ' ', '7', '\\\\', '\\n', '\\t', '\\b', "\\'", '\\"', '\\x41', '\\101', '\\0', '\\7',
    '\\00', '\\1234', '\\400', '\\777', '\\8', '\\9', '\\d', '\\q', '\\ ', '\\w', '\\(',
    '\\.', '\\[', '\\\n', '\\\x0c', '\\\t', '\\#', '\\%',
]
NOT_F = ['\\{', '\\}']  # in an f-string these open or close a field
STR_ONLY = ['\\N{BULLET}', '\\u00e9', '\\U0001F600', 'é', '\\é', '中', '\\中', '\\\u00a0']
BYTES_ONLY = ['\\N', '\\u', '\\U', '\\N{', '\\u00e9', '\\U0001F600']
TRIPLE_ONLY = ['\n', '\n\n', '\\\n\\d']
FIELDS = [
    '{x}', '{x!r}', '{x:>10}', '{x:\\w}', '{x:{y}\\d}', '{{', '}}', '\\{x}', '\\{{', '\\}}',
    '{x=}', '{x!r:\\d>{y}}', '\\N{BULLET}{x}', '{x:a\\}', '{x:\\\\}', '{ x + 1 :}',
]


def nested(quote: str) -> list[str]:
    """Nested literals in a replacement field, with the other quote."""
    other = "'" if quote[0] == '"' else '"'
    fields = [f'{{{other}a{other}}}', f'{{ {other}b{other} + x}}']
    if PY >= (3, 12):  # PEP 701: backslashes and nesting inside fields
        fields += [f'{{{other}\\d{other}}}', f'{{f{other}\\q{{x}}{other}}}', f'{{x:{{{other}\\w{other}}}}}']
    return fields


@st.composite
def literal(draw, kind: str) -> str:
    quote = draw(st.sampled_from(["'", '"', "'''", '"""']))
    if kind == 'bytes':
        prefix = draw(st.sampled_from(['b', 'B', 'br', 'rb', 'Br', 'bR', 'RB']))
    elif kind == 'fstring':
        prefix = draw(st.sampled_from(F_PREFIXES))
    elif kind == 'tstring':
        prefix = draw(st.sampled_from(T_PREFIXES))
    else:
        prefix = draw(st.sampled_from(['', '', 'u', 'U', 'r', 'R']))
    atoms = list(COMMON)
    atoms += BYTES_ONLY if kind == 'bytes' else STR_ONLY
    if len(quote) == 3:
        atoms += TRIPLE_ONLY
    if kind in ('fstring', 'tstring'):
        atoms += FIELDS + nested(quote)
    else:
        atoms += NOT_F
    body = draw(st.lists(st.sampled_from(atoms), max_size=8))
    return prefix + quote + ''.join(body) + quote


@st.composite
def source(draw) -> str:
    # A t-string joins only other t-strings (3.14: "cannot mix t-string
    # literals with string or bytes literals"), so they form a kind of their own.
    kind = draw(st.sampled_from(['str', 'bytes', 'fstring', 'mixed'] + (['tstring'] if T_PREFIXES else [])))
    if kind == 'mixed':
        parts = draw(st.lists(st.one_of(literal('str'), literal('fstring')), min_size=1, max_size=3))
    else:
        parts = draw(st.lists(literal(kind), min_size=1, max_size=3))
    joiner = draw(st.sampled_from([' ', '\n    ', ' \\\n']))
    return 'x = y = 1\nvalue = (' + joiner.join(parts) + ')\n'


def compare_source(src: str) -> Tally:
    """Compare every literal of one source (the whole source must compile)."""
    tally = Tally()
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', SyntaxWarning)
        warnings.simplefilter('ignore', DeprecationWarning)
        compile(src, '<generated>', 'exec')  # the generator makes valid code only
        processor = processor_for(lines=io.StringIO(src).readlines())
        compare_processor(processor, tally, '<generated>')
    return tally


def generated(count: int) -> Tally:
    """Compare ``count`` generated sources; the totals of all of them."""
    total = Tally()

    @settings(max_examples=count, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow])
    @given(source())
    def run(src: str) -> None:
        tally = compare_source(src)
        total.files += 1
        total.literals += tally.literals
        total.compared += tally.compared
        total.escapes += tally.escapes
        total.intended.update(tally.intended)
        total.disagreements.extend(tally.disagreements)

    run()
    return total


# ESC304: escapes CPython refuses ------------------------------------------

#: CPython's refusal messages, by the escape letter each is about (3.10-3.15).
REFUSALS = (
    ('truncated \\xXX escape', 'x'), ('invalid \\x escape at position', 'x'),
    ('truncated \\uXXXX escape', 'u'), ('truncated \\UXXXXXXXX escape', 'U'),
    ('illegal Unicode character', 'U'), ('malformed \\N character escape', 'N'),
    ('unknown Unicode character name', 'N'),
)
#: "... can't decode bytes in position 2-3: ..." / "invalid \x escape at position 2".
POSITION = re.compile(r'position (\d+)')
#: Each of \N \u \U \x truncated at every length, out of range, unknown names; valid ones beside them.
REFUSED_ATOMS = (
    ['\\x', '\\x4', '\\xg', '\\u', '\\u1', '\\u12', '\\u123', '\\U', '\\U0010FFFF', '\\U00110000',
     '\\UFFFFFFFF']
    + ['\\U' + '0001F600'[:length] for length in range(1, 8)]
    + ['\\N', '\\N{', '\\N{}', '\\N{BULLET', '\\N{NO SUCH NAME}', '\\N{bullet}', '\\N{BYTE ORDER MARK}',
       '\\N{LATIN CAPITAL LETTER A WITH MACRON AND GRAVE}', '\\N{ BULLET}', '\\N {x}']
)
#: What may follow one: a hex digit that completes it, a brace, a path's name, other escapes.
REFUSED_AFTER = ['', 'a', '0', '}', '{x}', 'sers', '\\d', '\\n', '\\\\', ' ']


#: A refusal that is not about an escape (``f'\\N{NO SUCH NAME}'`` with its backslash doubled opens a field).
OTHER = 'other'


def refusal(literal: str) -> tuple[str, int | None] | None:
    """(escape letter or OTHER, position) of CPython's refusal to compile ``literal``, or None.

    3.12+ raise UnicodeDecodeError (not SyntaxError) for a refused escape
    in an f-string's format spec."""
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        try:
            compile('(\n' + literal + '\n)', '<literal>', 'eval')
        except (SyntaxError, UnicodeDecodeError) as error:
            message = str(error.msg if isinstance(error, SyntaxError) else error)
            letter = next((letter for text, letter in REFUSALS if text in message), OTHER)
            at = POSITION.search(message)
            return letter, int(at.group(1)) if at else None
    return None


def plain_offset(text: str, offset: int) -> int | None:
    """The offset in its piece's decoded text that CPython's message gives for
    the escape at ``offset`` of ``text`` (one literal unit), where it can be
    known: a str or bytes literal (not f, t or raw) of ASCII text without a
    line continuation."""
    if not text.isascii() or '\\\n' in text:
        return None
    prefix, begin, _ = literals.split_prefix(text)
    if set(prefix) & set('fFtTrR'):
        return None
    return offset - begin


def compare_refused(text: str, reports: list[tuple[int, str]], tally: Tally, where: str) -> None:
    """Compare our ESC304 (offset, escape letter) reports on one literal unit with CPython's refusals."""
    pending = sorted(reports)
    shifted: list[int] = []  # original offsets whose backslash was doubled
    current = text
    for _ in range(text.count('\\') + 1):
        refused = refusal(current)
        if refused is None:
            break
        if refused[0] == OTHER:
            # Not an escape: the generated literal is not valid apart from its escapes
            # (skipped), or doubling a backslash made a field of '{NO SUCH NAME}' (the
            # rest of the literal is not compared).
            if current == text:
                tally.skipped += 1
            else:
                tally.intended['stopped: a doubled backslash opened a field'] += 1
            return
        same = [item for item in pending if item[1] == refused[0]]
        if not same:
            # 3.12 and 3.13 before gh-137314's fix decode a raw f-string's format spec
            # (see raw_backslash_warned)
            ours = {o + sum(1 for d in shifted if d < o) for o, _ in pending}
            spurious = raw_backslash_warned(current, '\\' + refused[0], ours)
            if spurious is not None:
                tally.intended['cpython-gh-137314'] += 1
                current = current[:spurious] + '/' + current[spurious + 1:]
                continue
        if not pending:
            tally.disagreements.append((where, 'cpython-only-refusal', refused, text))
            return
        if not same:
            tally.disagreements.append((where, 'other-escape', refused, pending, text))
            return
        # The first of ours with CPython's letter: CPython's first is in source order, except
        # that 3.13 decodes an f-string's format specs before its other parts.
        offset, letter = same[0]
        pending.remove(same[0])
        tally.refusals += 1
        at = offset + sum(1 for o in shifted if o < offset)
        expected = plain_offset(current, at)
        if expected is not None and refused[1] is not None:
            if refused[1] != expected:
                tally.disagreements.append((where, 'other-place', refused, expected, text))
                return
            tally.placed += 1
        current = current[:at] + '\\' + current[at:]
        shifted.append(offset)
    if refusal(current) is not None:
        tally.disagreements.append((where, 'cpython-more-refusals', text))
    elif pending:
        tally.disagreements.append((where, 'ours-only-refusal', pending, text))


def refused_reports(src: str) -> list[tuple[int, int, str]] | None:
    """ESC304's (line, col, escape letter) on ``src``, as ``check`` finds them
    in a file that does not parse; None when its literals cannot be read."""
    lines = io.StringIO(src).readlines()
    tokens = lexer.unparsed_literals(lines)
    if tokens is None:
        return None
    return [(report.line, report.col, report.found.escape.text[1])
            for report in checks.text_reports(tokens, lines) if report.code == 'ESC304']


def compare_refused_source(src: str) -> Tally:
    """Compare ESC304 with CPython on every literal unit of ``src`` (which may not compile)."""
    tally = Tally(files=1)
    lines = io.StringIO(src).readlines()
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    reports = refused_reports(src)
    if reports is None:  # a generated literal that does not end
        tally.skipped += 1
        return tally
    placed = sorted((starts[line - 1] + col, letter) for line, col, letter in reports)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        units = literal_units(tokenize.generate_tokens(io.StringIO(src).readline))
    tally.literals = len(units)
    for start, last in units:
        begin = starts[start[0] - 1] + start[1]
        stop = starts[last.start[0] - 1] + last.start[1] + len(last.string)
        mine = [(offset - begin, letter) for offset, letter in placed if begin <= offset < stop]
        placed = [item for item in placed if not begin <= item[0] < stop]
        tally.compared += 1
        compare_refused(src[begin:stop], mine, tally, f'<generated>:{start[0]}')
    tally.disagreements.extend(('<generated>', 'outside-literal', item) for item in placed)
    return tally


@st.composite
def refused_literal(draw, kind: str) -> str:
    quote = draw(st.sampled_from(["'", '"', "'''", '"""']))
    prefix = draw(st.sampled_from({
        'str': ['', 'u', 'U', 'r'], 'bytes': ['b', 'B', 'rb'], 'fstring': F_PREFIXES, 'tstring': T_PREFIXES,
    }[kind]))
    atoms = REFUSED_ATOMS + ['\\\\' + atom for atom in REFUSED_ATOMS] + COMMON[:12]
    if kind in ('fstring', 'tstring'):
        atoms = atoms + FIELDS + ['{x:\\x4}', '{x:\\N{BULLET}}', '{x:\\U1}', '{{']
    after = REFUSED_AFTER if kind in ('str', 'bytes') else [item for item in REFUSED_AFTER if item != '}']
    pairs = st.tuples(st.sampled_from(atoms), st.sampled_from(after)).map(''.join)
    body = ''.join(draw(st.lists(pairs, max_size=4)))
    if kind not in ('fstring', 'tstring'):
        body = body.replace('{x}', 'x')

    return prefix + quote + body + quote


@st.composite
def refused_source(draw) -> str:
    kind = draw(st.sampled_from(['str', 'bytes', 'fstring'] + (['tstring'] if T_PREFIXES else [])))
    parts = draw(st.lists(refused_literal(kind), min_size=1, max_size=3))
    joiner = draw(st.sampled_from([' ', '\n    ', ' \\\n']))
    return 'x = y = 1\nvalue = (' + joiner.join(parts) + ')\n'


def generated_refused(count: int) -> Tally:
    """Compare ESC304 with CPython on ``count`` generated sources; the totals."""
    total = Tally()

    @settings(max_examples=count, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
    @given(refused_source())
    def run(src: str) -> None:
        tally = compare_refused_source(src)
        total.files += 1
        total.literals += tally.literals
        total.compared += tally.compared
        total.refusals += tally.refusals
        total.placed += tally.placed
        total.skipped += tally.skipped
        total.intended.update(tally.intended)
        total.disagreements.extend(tally.disagreements)

    run()
    return total


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
    parser.add_argument('--limit', type=int, default=0, help='only the first N stdlib files')
    parser.add_argument('--generated', type=int, default=0, metavar='N',
                        help='compare N generated sources instead of the stdlib')
    parser.add_argument('--refused', type=int, default=0, metavar='N',
                        help="compare ESC304 with CPython's refusals on N generated sources")
    args = parser.parse_args()
    if args.refused:
        began = time.perf_counter()
        tally = generated_refused(args.refused)
        print(f'Python {sys.version.split()[0]}: {tally.files} generated sources, '
              f'{tally.literals} literals compared, {tally.refusals} refusals matched one to one with ESC304 '
              f'({tally.placed} at the offset CPython gives), {tally.skipped} literals not valid apart '
              f'from their escapes, {dict(tally.intended)}, '
              f'{len(tally.disagreements)} disagreements in {time.perf_counter() - began:.0f}s')
        for item in tally.disagreements[:20]:
            print('  ', item)
        return 1 if tally.disagreements else 0
    if args.generated:
        began = time.perf_counter()
        tally = generated(args.generated)
        print(f'Python {sys.version.split()[0]}: {tally.files} generated sources, '
              f'{tally.literals} literals, {tally.compared} with a backslash compared, '
              f'{tally.escapes} escape warnings matched, '
              f'intended differences {dict(tally.intended)}, '
              f'{len(tally.disagreements)} disagreements '
              f'in {time.perf_counter() - began:.0f}s')
        return 1 if tally.disagreements else 0
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
