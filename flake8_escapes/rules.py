"""The registry: one record per code, the single source of messages and examples.

Codes start at 300: ESC1xx and ESC2xx belong to flake8-escaping-style.
"""
from __future__ import annotations

from typing import NamedTuple

from flake8_escapes.literals import Found

#: The families: what the compiler warns about, regex hazards, path hazards.
INVALID = 'invalid'
REGEX = 'regex'
PATHS = 'paths'
#: ... and ESC6xx: escapes that cut a TeX command, escapes that change a doctest example.
TEX = 'tex'
DOCTEST = 'doctest'
#: Fix safety: a safe fix keeps every value; an unsafe one changes it to what was meant.
SAFE = 'safe'
UNSAFE = 'unsafe'


class Rule(NamedTuple):
    """One error code with its message template and documentation examples."""

    code: str
    name: str
    family: str    # INVALID, REGEX, PATHS, TEX or DOCTEST
    fix: str       # SAFE or UNSAFE
    message: str   # str.format template with named fields
    summary: str   # one line of Markdown, the README table's cell
    bad: str       # a source that yields exactly this code, once
    good: str      # the same source fixed: yields nothing

    def format(self, **fields: str) -> str:
        """The flake8 message: the code, a space, the filled-in template."""
        return f'{self.code} {self.message.format(**fields)}'


ESC301 = Rule(
    code='ESC301',
    name='invalid-escape',
    family=INVALID,
    fix=SAFE,
    message="invalid escape sequence '{escape}'; write '{doubled}' or use a raw string",
    summary='an unrecognized escape in a str, f- or t-string literal',
    bad="pattern = '\\d+'\n",
    good="pattern = r'\\d+'\n",
)
ESC302 = Rule(
    code='ESC302',
    name='str-escape-in-bytes',
    family=INVALID,
    fix=SAFE,
    message="'{escape}' is a str-only escape, invalid in bytes; write '{doubled}' or encode a str",
    summary='`\\N`, `\\u` or `\\U` in a bytes literal, where they are not escapes',
    bad="data = b'caf\\u00e9'\n",
    good="data = 'caf\\u00e9'.encode()\n",
)
ESC303 = Rule(
    code='ESC303',
    name='octal-escape-overflow',
    family=INVALID,
    fix=SAFE,
    message="octal escape '{escape}' is above '\\377'; write '{value}', the value it has now",
    summary='an octal escape whose value is above `\\377`',
    bad="mask = '\\777'\n",
    good="mask = '\\u01ff'\n",
)
ESC304 = Rule(
    code='ESC304',
    name='refused-escape',
    family=INVALID,
    fix=UNSAFE,
    message="'{escape}' {problem}",
    summary=('a `\\x`, `\\u`, `\\U` or `\\N{...}` escape CPython refuses (truncated, out of range, '
             'an unknown name), so that the file does not compile'),
    bad="home = 'C:\\Users'\n",
    good="home = r'C:\\Users'\n",
)
ESC305 = Rule(
    code='ESC305',
    name='escaped-closing-quote',
    family=INVALID,
    fix=UNSAFE,
    message="'{escape}' escapes the closing quote; {advice}",
    summary=('a backslash that escapes the closing quote of a Windows path, so that the literal runs '
             'on and the file does not compile'),
    bad="folder = r'C:\\reports\\'\n",
    good="folder = r'C:\\reports' '\\\\'\n",
)

ESC401 = Rule(
    code='ESC401',
    name='octal-escape-as-backreference',
    family=REGEX,
    fix=UNSAFE,
    message="'{escape}' is the control character {codepoint}, not a backreference; use r'{escape}'",
    summary=('an octal escape (`\\1`, `\\12`) in a non-raw regex pattern or replacement, '
             'or in text that reads like one'),
    bad="import re\nhtml = re.sub(r'(\\w+)', '<\\1>', text)\n",
    good="import re\nhtml = re.sub(r'(\\w+)', r'<\\1>', text)\n",
)
ESC402 = Rule(
    code='ESC402',
    name='backspace-in-regex',
    family=REGEX,
    fix=UNSAFE,
    message="'\\b' is a backspace in this regex, not a word boundary; use r'\\b'",
    summary='`\\b` in a non-raw regex pattern, where it is a backspace, not a word boundary',
    bad="import re\nfound = re.search('\\bword\\b', text)\n",
    good="import re\nfound = re.search(r'\\bword\\b', text)\n",
)

ESC501 = Rule(
    code='ESC501',
    name='escape-in-windows-path',
    family=PATHS,
    fix=UNSAFE,
    message="'{escape}' in a Windows path is {meaning}; {advice}",
    summary=('a valid escape (`\\t`, `\\n`, `\\x..`, octal, ...) inside a non-raw literal '
             'that is a Windows path'),
    bad="path = 'C:\\temp\\new.txt'\n",
    good="path = r'C:\\temp\\new.txt'\n",
)

ESC601 = Rule(
    code='ESC601',
    name='escape-in-tex-command',
    family=TEX,
    fix=UNSAFE,
    message="'{escape}' is {meaning} that cuts TeX's {command}; use a raw string",
    summary=('a valid escape (`\\t`, `\\n`, `\\a`, `\\b`, `\\f`, `\\r`, `\\v`) that begins a TeX '
             'command in a non-raw literal that reads as TeX'),
    bad="import matplotlib.pyplot as plt\nplt.xlabel('$\\theta$ [rad]')\n",
    good="import matplotlib.pyplot as plt\nplt.xlabel(r'$\\theta$ [rad]')\n",
)
ESC602 = Rule(
    code='ESC602',
    name='escape-in-doctest',
    family=DOCTEST,
    fix=UNSAFE,
    message="'{escape}' in a doctest example makes {meaning}; use a raw docstring or '{doubled}'",
    summary='a valid escape that changes a doctest example of a non-raw docstring',
    bad=('def split_lines(text):\n    """Split at line breaks.\n\n    >>> split_lines(\'a\\nb\')\n'
         '    [\'a\', \'b\']\n    """\n    return text.splitlines()\n'),
    good=('def split_lines(text):\n    r"""Split at line breaks.\n\n    >>> split_lines(\'a\\nb\')\n'
          '    [\'a\', \'b\']\n    """\n    return text.splitlines()\n'),
)

RULES = (ESC301, ESC302, ESC303, ESC304, ESC305, ESC401, ESC402, ESC501, ESC601, ESC602)
BY_CODE = {rule.code: rule for rule in RULES}


class Exemption(NamedTuple):
    """A rule that keeps a hazard family quiet on code that is right.

    Each is one sentence a reader can check, with the example it silences,
    both on the code's page, docs/ESCxxx.md (``example`` yields no report of ``codes``; without the
    exemption it would): never a package or file name.
    """

    name: str
    codes: tuple[str, ...]
    rule: str      # the one sentence, as the code's page gives it
    example: str   # a source the exemption keeps quiet


class Finder(NamedTuple):
    """A named rule that finds a hazard the family's first forms miss: one
    sentence a reader can check and the example it reports, both on the code's page
    (``example`` yields ``codes``; without the rule it would not)."""

    name: str
    codes: tuple[str, ...]
    rule: str      # the one sentence, as the code's page gives it
    example: str   # a source the rule reports


class Silenced(NamedTuple):
    """A hazard an exemption kept quiet: where, the code it would have had,
    the escape, and the exemption's name (what ``tests/survey.py`` prints)."""

    line: int
    col: int        # 0-based
    code: str
    escape: str
    exemption: str


class Report(NamedTuple):
    """One finding: where, which rule, the message's fields, and the escape it is about.

    The message is formatted only at the edge (``message``), never parsed back.
    """

    line: int
    col: int        # 0-based, in characters, as tokenize and flake8 count
    rule: Rule
    fields: dict[str, str]  # the rule's message fields
    found: Found            # the escape the report is about

    @property
    def code(self) -> str:
        return self.rule.code

    @property
    def message(self) -> str:
        return self.rule.format(**self.fields)
