"""ESC4xx: valid escapes that change what a regex means.

A candidate is an escape ``re`` would read otherwise (an octal escape that
looks like a group reference, ``\\b``); it is reported unless one of the
``EXEMPTIONS`` holds.  Each exemption is a rule one sentence states, with the
README example it keeps quiet; ``APPLIES`` holds its test, in the same order.
``reports(..., silenced=...)`` says which exemption silenced each candidate.
"""
from __future__ import annotations

import re
import sys
from bisect import bisect_right
from typing import Callable, Iterable, Iterator, NamedTuple

from flake8_escapes import escapes, roles as role_pass, rules
from flake8_escapes.literals import Found, Piece

#: (line, col, rule, message fields): formatted only at the plugin's edge.
Finding = tuple[int, int, rules.Rule, dict[str, str]]
Silenced = rules.Silenced
#: control character -> spans of the literals that look for it (``roles.looked_for_characters``)
Markers = role_pass.Markers


#: Escapes that only mean something to a regex engine: a literal holding one
#: next to a backreference-like octal escape was written for re.
REGEX_ONLY_ESCAPES = (
    '\\w', '\\W', '\\d', '\\D', '\\s', '\\S', '\\.', '\\(', '\\)', '\\[', '\\]',
    '\\+', '\\*', '\\?', '\\|', '\\$', '\\^', '\\A', '\\Z', '\\B', '\\g<',
)
#: Control characters a pattern may match on purpose; with one of them
#: beside it, '\\b' is a backspace on purpose too (IPython's ANSI parser:
#: '(\\a|\\b|\\r(?!\\n)|\\r?\\n)').
TERMINAL_CONTROLS = frozenset('\a\f\v\r\x1b\x00')
#: A backreference written right, with the backslash doubled: '\\\\1', '\\\\g<'.
ESCAPED_BACKREFERENCE = re.compile(r'(?<!\\)(?:\\\\\\\\)*\\\\(?:[1-9]|g<)')


def is_backreference_like(escape: escapes.Escape) -> bool:
    """An octal escape that re, given the raw text, would read as a group.

    re reads a backslash and one or two digits as a group reference unless
    the first digit is 0; three octal digits are an octal escape to re too,
    with the value Python already gave them (never a candidate).  Two-digit
    ones that make a printable character are candidates that the
    ``printable-octal`` exemption keeps quiet.
    """
    return escape.kind == escapes.OCTAL and escape.text[1] != '0' and len(escape.text) <= 3


def is_backspace(escape: escapes.Escape) -> bool:
    return escape.text == '\\b'


def is_regex_candidate(found: Found) -> bool:
    """Could this escape be an ESC4xx hazard (worth the AST pass)?"""
    return is_backreference_like(found.escape) or is_backspace(found.escape)


_CLASS_SYNTAX = re.compile(r'[\\\[\]]')


def character_classes(text: str, escapes_at: dict[int, escapes.Escape]) -> list[tuple[int, int]]:
    """The ``[...]`` sets of a pattern's source text, as (open, close) offsets.

    One pass, read as re reads the value: a ``]`` right after ``[`` or
    ``[^`` is a member, not the end (``'x[]a\\b]'``); a backslash in the
    value (``\\\\``, or an escape Python keeps, ``\\d``) escapes what follows.
    ``escapes_at`` maps a backslash's offset to its escape.
    """
    classes: list[tuple[int, int]] = []
    opened = -1
    pos = 0
    search = _CLASS_SYNTAX.search
    while True:
        match = search(text, pos)
        if match is None:
            break
        index = match.start()
        char = match[0]
        pos = index + 1
        if char == '\\':
            escape = escapes_at.get(index)
            if escape is None:       # outside the scanned spans (an f-string field)
                pos = index + 2
                continue
            pos = index + len(escape.text)
            value = escapes.value_of(escape)
            if escape.kind == escapes.SIMPLE and value == '\\':
                # re reads the next character (or escape) as escaped
                following = escapes_at.get(pos)
                if following is None or following.kind == escapes.INVALID:
                    pos += 1  # a character, or the backslash Python keeps of '\\['
                else:
                    pos += len(following.text)
                continue
            if escape.kind == escapes.INVALID or value not in '[]':
                continue
            char = value
        if opened < 0 and char == '[':
            opened = index
            if text.startswith('^', pos):
                pos += 1
            if text.startswith(']', pos):
                pos += 1  # literal ']' first in the set
        elif opened >= 0 and char == ']':
            classes.append((opened, index))
            opened = -1
    if opened >= 0:
        classes.append((opened, len(text)))
    return classes


def in_character_class(text: str, offset: int) -> bool:
    """Is ``text[offset]`` inside a regex ``[...]`` (where re reads '\\b' and
    '\\1' as characters, as Python did)?  One call costs a pass over the
    text: ``PieceFacts`` answers for every offset of a piece after one pass."""
    escapes_at = {escape.offset: escape for escape in escapes.escapes_in(text, False)}
    return _in(character_classes(text, escapes_at), offset)


def _in(classes: list[tuple[int, int]], offset: int) -> bool:
    index = bisect_right(classes, (offset, sys.maxsize)) - 1
    return index >= 0 and classes[index][0] < offset < classes[index][1]


def looks_like_data(text: str) -> bool:
    """Serialized tables and protocol strings: mostly escapes, not a regex."""
    return text.count('\\') * 4 >= len(text)


def reads_like_regex(text: str) -> bool:
    """A literal whose own text is a regex or a template with groups.

    Conservative on purpose: it needs a group (an opening and a closing
    parenthesis) and an escape that only a regex engine gives meaning to
    (``\\w``, ``\\d``, ``\\.``, ...) or ``(?``.
    """
    if '(' not in text or ')' not in text:
        return False
    return '(?' in text or any(marker in text for marker in REGEX_ONLY_ESCAPES)


class PieceFacts:
    """What the exemptions ask of one piece, computed once for all its candidates."""

    def __init__(self, piece: Piece) -> None:
        found: list[escapes.Escape] = []
        for begin, end in piece.spans:
            found.extend(escapes.escapes_in(piece.text, piece.is_bytes, begin, end, piece.lookahead))
        values = {escapes.value_of(escape) for escape in found if escape.text != '\\b'}
        #: other terminal control characters are spelled beside a '\\b'
        self.spells_controls = bool(values & TERMINAL_CONTROLS)
        #: a NUL is spelled ('\\0', '\\x00'): a sentinel string
        self.spells_nul = '\x00' in values
        #: a backreference is spelled right ('\\\\1') beside the octal escape
        self.escaped_backreference = ESCAPED_BACKREFERENCE.search(piece.text) is not None
        self.classes = character_classes(piece.text, {escape.offset: escape for escape in found})
        self.looks_like_data = looks_like_data(piece.text)
        self.reads_like_regex = reads_like_regex(piece.text)

    def in_class(self, offset: int) -> bool:
        return _in(self.classes, offset)


class Candidate(NamedTuple):
    """One candidate escape and what its exemptions look at."""

    found: Found
    code: str                     # ESC401 or ESC402
    role: role_pass.Role | None   # its pattern, replacement or discarded role
    facts: PieceFacts
    markers: Callable[[], Markers]   # control characters the module looks for, and where

    @property
    def kind(self) -> str | None:
        return self.role.role if self.role else None


#: Every exemption of the family: a rule in one sentence and the README
#: example it keeps quiet (the example yields the code without it).
EXEMPTIONS: dict[str, rules.Exemption] = {exemption.name: exemption for exemption in (
    rules.Exemption(
        'discarded-string', ('ESC401',),
        'A string statement that is not a docstring (code disabled by quoting it) is thrown away by '
        'Python, so nothing in it is reported.',
        "import re; '''re.sub('(?P<w>a)', '<\\1>', text)'''"),
    rules.Exemption(
        'printable-octal', ('ESC401',),
        'A two-digit octal escape that makes a printable character (`\\50` is `(`) is taken as meant.',
        "re.sub('(a)', '\\50', s)"),
    rules.Exemption(
        'character-class', ('ESC401', 'ESC402'),
        'Inside a character class re reads `\\b` and numbered escapes as characters, as Python did '
        '(a `]` right after `[` or `[^` belongs to the class).',
        "re.compile('(a)[]\\1\\b]')"),
    rules.Exemption(
        'groupless-marker', ('ESC401',),
        'A pattern that is one literal with no group and one numbered escape cannot hold a '
        'backreference: the escape is a marker.',
        "re.compile('\\1\\n')"),
    rules.Exemption(
        'missing-group', ('ESC401',),
        'In a pattern that is one literal and opens groups, a numbered escape above their count '
        'cannot be a backreference (re would reject it): it is a character on purpose.',
        "re.sub('(a)\\2', 'b', s)"),
    rules.Exemption(
        'backspace-pattern', ('ESC402',),
        'A pattern that is nothing but backspaces, dots, quantifiers and brackets matches backspaces '
        "on purpose (pydoc's terminal overstrike).",
        "re.sub('.\\b', '', text)"),
    rules.Exemption(
        'terminal-controls', ('ESC402',),
        'A pattern that also spells other terminal control characters (`\\a`, `\\f`, `\\v`, `\\r`, '
        '`\\x1b`, a NUL) matches a backspace on purpose.',
        "re.compile('(\\a|\\b|\\r)')"),
    rules.Exemption(
        'data-text', ('ESC401',),
        'A literal with no regex role that is mostly escapes (a backslash in every four characters) '
        'is serialized data, not a regex.',
        "TABLE = '(\\\\d)\\1\\2\\3'"),
    rules.Exemption(
        'no-regex-role', ('ESC401',),
        'A literal with no regex role is reported only if its own text reads like a regex: a group '
        'and `(?` or a regex-only escape (`\\w`, `\\d`, `\\.`, ...).',
        "label = '(\\1)'"),
    rules.Exemption(
        'escaped-backreference', ('ESC401',),
        'A literal that also spells a backreference the right way (`\\\\1`, `\\\\g<`) holds its '
        'octal escape as a marker on purpose.',
        "re.sub('(a)', '\\\\1\\1', s)"),
    rules.Exemption(
        'nul-sentinel', ('ESC401',),
        'A literal that also spells a NUL (`\\0`, `\\x00`) beside a numbered escape is a sentinel '
        'string.',
        "re.sub('(a)', '\\0\\1', s)"),
    rules.Exemption(
        'looked-for-marker', ('ESC401',),
        'A control character that another literal of the module looks for (with `split`, `replace`, '
        '`find`, ..., `in`, or a marker pattern) is a marker on purpose.',
        "s = re.sub(r'(\\})', '\\1', s); s = s.replace('\\1', '}')"),
)}


def _discarded(candidate: Candidate) -> bool:
    return candidate.kind == role_pass.DISCARDED


def _printable_octal(candidate: Candidate) -> bool:
    return escapes.octal_value(candidate.found.escape.text) >= 0x20


def _character_class(candidate: Candidate) -> bool:
    return candidate.kind == role_pass.PATTERN and candidate.facts.in_class(candidate.found.escape.offset)


def _groupless_marker(candidate: Candidate) -> bool:
    return candidate.role is not None and candidate.kind == role_pass.PATTERN and candidate.role.groupless


def _missing_group(candidate: Candidate) -> bool:
    role = candidate.role
    if role is None or candidate.kind != role_pass.PATTERN or role.groups < 1:
        return False
    return int(candidate.found.escape.text[1:]) > role.groups  # re reads the digits as a group number


def _backspace_pattern(candidate: Candidate) -> bool:
    return candidate.role is not None and candidate.role.means_backspace


def _terminal_controls(candidate: Candidate) -> bool:
    return candidate.facts.spells_controls


def _escaped_backreference(candidate: Candidate) -> bool:
    return candidate.facts.escaped_backreference


def _nul_sentinel(candidate: Candidate) -> bool:
    return candidate.facts.spells_nul


def _looked_for_marker(candidate: Candidate) -> bool:
    spans = candidate.markers().get(escapes.value_of(candidate.found.escape), ())
    at = (candidate.found.line, candidate.found.col)
    return any(not start <= at < end for start, end in spans)  # looked for by another literal


def _data_text(candidate: Candidate) -> bool:
    return candidate.role is None and candidate.facts.looks_like_data


def _no_regex_role(candidate: Candidate) -> bool:
    return candidate.role is None and not candidate.facts.reads_like_regex


#: The test of each exemption, by name (tests/test_regex.py checks the keys match).
APPLIES: dict[str, Callable[[Candidate], bool]] = {
    'discarded-string': _discarded,
    'printable-octal': _printable_octal,
    'character-class': _character_class,
    'groupless-marker': _groupless_marker,
    'missing-group': _missing_group,
    'backspace-pattern': _backspace_pattern,
    'terminal-controls': _terminal_controls,
    'data-text': _data_text,
    'no-regex-role': _no_regex_role,
    'escaped-backreference': _escaped_backreference,
    'nul-sentinel': _nul_sentinel,
    'looked-for-marker': _looked_for_marker,  # last: it walks the whole module
}


def exemption_for(candidate: Candidate) -> str | None:
    """The name of the first exemption that keeps the candidate quiet, if any."""
    for name, exemption in EXEMPTIONS.items():
        if candidate.code in exemption.codes and APPLIES[name](candidate):
            return name
    return None


_KINDS = (role_pass.PATTERN, role_pass.REPLACEMENT, role_pass.DISCARDED)


def reports(
    candidates: Iterable[Found],
    roles: list[role_pass.Role],
    silenced: list[Silenced] | None = None,
    looked_for: Callable[[], Markers] = dict,
) -> Iterator[Finding]:
    """ESC401, ESC402: valid escapes that change what a regex means.

    ``looked_for()`` gives the control characters the module looks for
    (``roles.looked_for_later``: the whole module is walked only when an
    exemption asks, that is when a report is near); ``silenced``, if given,
    receives each candidate an exemption kept quiet, with the exemption's name.
    """
    facts: dict[tuple[int, int], PieceFacts] = {}
    for found in candidates:
        line, col, escape, piece = found.line, found.col, found.escape, found.piece
        if is_backreference_like(escape):
            code = rules.ESC401.code
        else:
            code = rules.ESC402.code
        role = role_pass.role_at(roles, line, col, _KINDS)
        if code == rules.ESC402.code and (role is None or role.role != role_pass.PATTERN):
            continue  # '\b' is a hazard only in a pattern
        piece_facts = facts.get(piece.start)
        if piece_facts is None:
            piece_facts = facts[piece.start] = PieceFacts(piece)
        name = exemption_for(Candidate(found, code, role, piece_facts, looked_for))
        if name is not None:
            if silenced is not None:
                silenced.append(Silenced(line, col, code, escape.text, name))
            continue
        if code == rules.ESC401.code:
            value = escapes.octal_value(escape.text)
            yield line, col, rules.ESC401, {'escape': escape.text, 'codepoint': f'U+{value:04X}'}
        else:
            yield line, col, rules.ESC402, {}


def explain_silenced(silenced: Iterable[Silenced]) -> Iterator[str]:
    """``LINE:COL: ESC401 '\\1' silenced by NAME`` (1-based column, as flake8
    prints it) for each candidate an exemption kept quiet: what a survey prints."""
    for item in silenced:
        yield f"{item.line}:{item.col + 1}: {item.code} '{item.escape}' silenced by {item.exemption}"
