"""The escape grammar of Python str and bytes literals.

The table this module encodes is the language reference's:
https://docs.python.org/3/reference/lexical_analysis.html#escape-sequences

Nothing here knows about tokens or positions: ``escapes_in`` takes the text of
one literal piece and yields every escape in it with its offset in that text.
"""
from __future__ import annotations

import re
import sys
from typing import Iterator, NamedTuple

#: The largest octal escape that fits a byte; CPython warns above it since
#: 3.11 (https://github.com/python/cpython/issues/91668).
MAX_OCTAL = 0o377

#: Escapes valid in both str and bytes literals, and the character each one
#: stands for: the one table both scanning patterns below are built from.
SIMPLE_VALUES = {
    '\\': '\\', "'": "'", '"': '"', 'a': '\a', 'b': '\b', 'f': '\f',
    'n': '\n', 'r': '\r', 't': '\t', 'v': '\v',
}
_SIMPLE_CLASS = '[' + re.escape(''.join(SIMPLE_VALUES)) + ']'
#: The same without \b, which ESC402 looks at.
_EVERYDAY_CLASS = '[' + re.escape(''.join(SIMPLE_VALUES).replace('b', '')) + ']'
#: The control character each letter escape puts where a name's letter was
#: meant (``\\t`` of ``C:\\temp`` or of ``$\\theta$``), as messages name it.
CONTROL_NAMES = {
    '\\a': 'a bell', '\\b': 'a backspace', '\\f': 'a form feed', '\\n': 'a newline',
    '\\r': 'a carriage return', '\\t': 'a tab', '\\v': 'a vertical tab',
}

# What an escape is.  Each value is also the name of its group in the scanning
# pattern below, so it must be an identifier.
SIMPLE = 'simple'                    # \n \t \\ \' ...
CONTINUATION = 'continuation'        # backslash-newline
OCTAL = 'octal'                      # \0 .. \377
OCTAL_OVERFLOW = 'octal_overflow'    # \400 .. \777
HEX = 'hex'                          # \xhh
UNICODE = 'unicode'                  # \uXXXX, \UXXXXXXXX (str)
NAMED = 'named'                      # \N{...} (str)
REFUSED = 'refused'                  # \x4, \u12, \U1, \U00110000, \N, \N{: CPython does not compile them
STR_ONLY_IN_BYTES = 'str_only_in_bytes'  # \N \u \U in bytes
INVALID = 'invalid'                  # anything else: \d, \8, \{, \é ...


class Escape(NamedTuple):
    """One escape: ``text`` starts at ``offset`` of the scanned string."""

    offset: int
    text: str
    kind: str


def value_of(escape: Escape) -> str:
    """The character an escape stands for ('' for a continuation, or the
    backslash itself for escapes that are not, i.e. invalid ones)."""
    kind, text = escape.kind, escape.text
    if kind == SIMPLE:
        return SIMPLE_VALUES[text[1]]
    if kind in (OCTAL, OCTAL_OVERFLOW):
        return chr(octal_value(text))
    if kind in (HEX, UNICODE) and len(text) > 2:
        return chr(int(text[2:], 16))
    if kind == CONTINUATION:
        return ''
    return '\\'


def refused(escape: Escape) -> bool:
    """Does CPython refuse to compile this escape (ESC304)?  A REFUSED one, or
    a ``\\N{...}`` whose name names no character of the running Python's
    Unicode database (each version has its own: CPython looks names up in it
    the same way, aliases included, named sequences excluded)."""
    kind = escape.kind
    return kind == REFUSED or (kind == NAMED and not is_character_name(escape.text[3:-1]))


def is_character_name(name: str) -> bool:
    """Does ``\\N{name}`` compile: one character's name or alias (not a named sequence)?"""
    import unicodedata  # only ever asked of a file that does not compile: not on the plugin's import
    try:
        return len(unicodedata.lookup(name)) == 1
    except KeyError:
        return False


def octal_value(text: str) -> int:
    """Value of an octal escape such as ``'\\777'``."""
    return int(text[1:], 8)


#: Eight hex digits that name a code point (up to U+10FFFF).
_CODE_POINT = r'(?:000[0-9a-fA-F]|0010)[0-9a-fA-F]{4}'
#: The escapes of a str CPython refuses, so that the file does not compile (ESC304):
#: too few hex digits (``\\x4``, ``\\u12``, ``'C:\\Users'``), ``\\U`` above U+10FFFF, ``\\N``
#: without a name in braces (``\\N{`` without its closing brace: CPython reads on after it).
#: A ``\\N{...}`` whose name is unknown is NAMED (``refused``); a name never holds a backslash.
#: https://docs.python.org/3/reference/lexical_analysis.html#escape-sequences
_REFUSED_IN_STR = r'x[0-9a-fA-F]?|u[0-9a-fA-F]{0,3}|U[0-9a-fA-F]{8}|U[0-9a-fA-F]{0,7}|N\{?'


def _escape_pattern(is_bytes: bool) -> re.Pattern[str]:
    """One alternative per kind; an escape is the leftmost-longest of them.

    The scan runs in C (``finditer``) and pairs backslashes from the left, so
    the second backslash of ``\\\\`` never starts an escape.
    """
    str_only = (
        rf'|(?P<{REFUSED}>x[0-9a-fA-F]?)|(?P<{STR_ONLY_IN_BYTES}>[NuU])' if is_bytes else
        rf'|(?P<{NAMED}>N\{{[^}}\\]+\}})|(?P<{UNICODE}>u[0-9a-fA-F]{{4}}|U{_CODE_POINT})'
        rf'|(?P<{REFUSED}>{_REFUSED_IN_STR})'
    )
    return re.compile(
        rf"""\\(?:(?P<{SIMPLE}>{_SIMPLE_CLASS})|(?P<{CONTINUATION}>\r\n?|\n)"""
        rf'|(?P<{OCTAL}>[0-7]{{1,3}})|(?P<{HEX}>x[0-9a-fA-F]{{2}}){str_only}'
        rf'|(?P<{INVALID}>.)|(?P<end>\Z))',
        re.DOTALL,
    )


ESCAPE_PATTERNS = {False: _escape_pattern(False), True: _escape_pattern(True)}

#: Text whose escapes are all of the everyday kinds no check looks at
#: (``\\n``, ``\\t``, ``\\\\``, ``\\'``, ``\\x41``, ``\\u00e9``, ...): most literals
#: that hold a backslash.  ``\\b`` and octal escapes are not everyday (ESC4xx).
_EVERYDAY = rf"""[^\\]|\\{_EVERYDAY_CLASS}|\\\r\n?|\\\n|\\x[0-9a-fA-F]{{2}}"""
EVERYDAY_ONLY = {
    False: re.compile(
        rf'(?:{_EVERYDAY}|\\u[0-9a-fA-F]{{4}}|\\U{_CODE_POINT}|\\N\{{[^}}]+\}})*', re.DOTALL,
    ),
    True: re.compile(rf'(?:{_EVERYDAY})*', re.DOTALL),
}


#: A row of source whose backslashes, paired from its start, are all ``\\\\``,
#: ``\\'``, ``\\"`` or a final line continuation: no check reports any of them.
#: (A row starts either outside any literal, where a backslash only ends the
#: row or stands in a comment, or inside one right after a line break, where
#: escapes pair afresh: a line break always ends an escape.)
#: (Possessive where the ``re`` module knows it, 3.11+: a row that is none is found so without
#: reading its runs of text again, backtracking.)
_ROW = r"""[^\\]*{many}(?:\\(?:{{}})[^\\]*{many})*{many}(?:\\\r?\n)?""".format(
    many='+' if sys.version_info >= (3, 11) else '')  # these escapes only; runs of text in C
PLAIN_ROW = re.compile(_ROW.format(r"""[\\'"]"""))
#: The same, with everyday escapes that only a Windows path makes hazards
#: (``\\n``, ``\\t``, ``\\x41``, ...: ESC501); not ``\\u``, ``\\U``, ``\\N`` (ESC302 in bytes).
EVERYDAY_ROW = re.compile(_ROW.format(r"""[\\'"afnrtv]|x[0-9a-fA-F]{2}"""))
#: The same with ``\\u....`` and ``\\U........``, for a file that holds no bytes literal.
EVERYDAY_STR_ROW = re.compile(
    _ROW.format(r"""[\\'"afnrtv]|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U""" + _CODE_POINT))
#: The ends of a bytes literal's prefixes, with the quote after them.
BYTES_ENDS = ("b'", 'b"', "B'", 'B"', "br'", 'br"', "bR'", 'bR"', "Br'", 'Br"', "BR'", 'BR"')
#: Any of them: matches never overlap (none starts at a quote), so a scan finds each.
BYTES_END = re.compile(r"""[bB][rR]?['"]""")
#: What may not stand right before a bytes literal's prefix.
_BEFORE_PREFIX = re.compile(r"""[\w'"]""")


def holds_bytes(text: str) -> bool:
    """Does ``text`` (a file's source) spell a bytes literal's prefix?

    A real prefix never follows a letter, a digit or ``_``; nor a quote
    (``'b'`` is a str): a bytes literal right after another literal's closing
    quote (``b'a'b'b'``) comes after a bytes literal, which is found first
    (after a str one it is a SyntaxError).  Text that merely looks like a
    prefix (in a comment) only makes a file be taken for one that holds
    bytes.  The prefixes' ends (``BYTES_ENDS``) are found in one scan of the
    text, in C (``BYTES_END``), not by one search per end.
    """
    for end in BYTES_END.finditer(text):
        at = end.start()
        start = at - 1 if at and len(end[0]) == 2 and text[at - 1] in 'rR' else at  # rb'...'
        if not start or _BEFORE_PREFIX.match(text, start - 1) is None:
            return True
    return False


def kind_of_lone(char: str, is_bytes: bool) -> str:
    """The kind of an escape whose character lies past the scanned text."""
    if not char:
        return ''
    return next(ESCAPE_PATTERNS[is_bytes].finditer('\\' + char)).lastgroup or ''


def escapes_in(
    text: str,
    is_bytes: bool,
    start: int = 0,
    end: int | None = None,
    lookahead: str = '',
) -> Iterator[Escape]:
    """Yield every escape whose backslash lies in ``text[start:end]``.

    ``lookahead`` is the source character after ``text`` when the text stops
    right after a backslash (a 3.12+ f-string piece ``'\\'`` cut before ``{``).
    """
    if end is None:
        end = len(text)
    # Matches may run past ``end`` (``\N{...}`` in a 3.11 f-string part that
    # stops at a brace), never past the text.
    for match in ESCAPE_PATTERNS[is_bytes].finditer(text, start):
        pos = match.start()
        if pos >= end:
            return
        kind = match.lastgroup
        assert kind is not None  # every alternative of the pattern is a named group
        if kind == 'end':
            kind = kind_of_lone(lookahead, is_bytes)
            if kind:  # nothing after a lone backslash: not from valid source
                yield Escape(pos, '\\' + lookahead, kind)
            return
        if kind == OCTAL and int(match[kind], 8) > MAX_OCTAL:
            kind = OCTAL_OVERFLOW
        yield Escape(pos, match[0], kind)
