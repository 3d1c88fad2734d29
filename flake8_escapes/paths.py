"""ESC5xx: valid escapes in literals that are Windows paths.

A literal is judged once, as a whole (an f-string with its replacement
fields read as names, whether the tokenizer gives it as one STRING token or,
on 3.12+, as several FSTRING_MIDDLE pieces), by ``PathJudge``, the callback
of ``literals.escapes``: a path by its text alone, a path only where it is
used as one, or not a path.  Each rule that keeps a look-alike quiet is a
named entry of ``EXEMPTIONS``, and a report it silences can be recorded
(``Silenced``) so that a survey can say which rule kept each candidate quiet.
"""
from __future__ import annotations

import re
import tokenize
from bisect import bisect_left, bisect_right
from operator import itemgetter
from typing import Any, Iterable, Iterator, NamedTuple

from flake8_escapes import escapes, literals, roles as role_pass, rules
from flake8_escapes.literals import Found, Piece

#: (line, col, rule, message fields): formatted only at the plugin's edge.
Finding = tuple[int, int, rules.Rule, dict[str, Any]]


#: What a literal's source text must show to be taken for a Windows path.
#: The whole text must read as one path (path characters only) and show a
#: drive with a well-known folder, two names or a file name (C:\\temp,
#: C:\\data\\file.txt), a UNC share with a folder (\\\\server\\share\\dir), a
#: relative start with two names (..\\training\\new_memo.doc), or two or more
#: names ending in a file name with an extension (logs\\backup\\new.txt).  After
#: a drive, a UNC start or a relative start, a forward slash separates names
#: too (C:/Users/me/Documents\\notes.txt), and the long-path and device
#: prefixes (\\\\?\\, \\\\.\\) may come first.
_NAME = r"[\w .$~()'+,;=@\[\]{}&!#%-]"
_KNOWN = (r'(?:Users|Program\ Files(?:\ \(x86\))?|ProgramData|Windows|WINDOWS|AppData|temp|Temp|TEMP|tmp'
          r'|Documents\ and\ Settings|inetpub|Python\d*)')
_EXTENSION = r'\.[A-Za-z][A-Za-z0-9]{0,3}'
#: A separator as the source spells it: one backslash, or two (a path written
#: half escaped, 'c:\\stuff\temp', still holds a tab).
_SEP = r'(?:\\\\?)'
#: One separator, single, or doubled where the next character makes no escape
#: (``\\Data``): the safe fixes double the backslash of ``\D``, which the
#: value keeps, so both spellings are the one separator the author wrote.
_KEPT_SEP = r'(?:\\(?!\\)|\\\\(?=[^\W0-7abfnrtvxuUN]|[.$~-]))'
#: After a drive or a start: a forward slash too (mixed separators).
_ANY_SEP = r'(?:\\\\?|/)'
#: The long-path and device prefixes, \\?\ and \\.\, as written or doubled.
_LONG = r'(?:\\\\(?:\\\\)?[?.]\\\\?)'
WINDOWS_PATH = re.compile(
    rf"""
    {_LONG}?[A-Za-z]:{_ANY_SEP}
        (?:{_KNOWN}(?:{_ANY_SEP}{_NAME}*)*|{_NAME}{{2,}}(?:{_ANY_SEP}{_NAME}+)+|{_NAME}+{_EXTENSION}){_ANY_SEP}?
    | (?:{_LONG}UNC{_SEP}|\\\\(?:\\\\)?)[\w.$-]{{2,}}{_KEPT_SEP}{_NAME}{{2,}}(?:{_KEPT_SEP}{_NAME}{{2,}})+\\?
    | \.{{1,2}}(?:{_ANY_SEP}{_NAME}+){{2,}}{_ANY_SEP}?
    | [\w.$-]+(?:{_SEP}[\w.$-]+)+{_EXTENSION}
    """,
    re.VERBOSE,
)  # matched against the whole text (fullmatch)

#: What a literal's text must show to be a path when it is used as one
#: (``roles.PATH``): only path characters, after a drive (C:\new), a UNC
#: start (\\server\new) or a relative start (.\test), or a file name after a
#: separator, to be joined to a folder (venv + '\activate_this.py'), or names
#: ending in a file name (logs\new.txt).
WEAK_WINDOWS_PATH = re.compile(
    rf"""
    (?:{_LONG}?[A-Za-z]:|\\\\[\w.$-]+|\.{{1,2}})(?:{_ANY_SEP}{_NAME}*)+
    | (?:{_SEP}[\w.$-]+)+{_EXTENSION}
    | [\w.$-]+(?:{_SEP}[\w.$-]+)+{_EXTENSION}
    """,
    re.VERBOSE,
)
#: A drive, a UNC start or a relative start: a path that does not rely on its names alone.
ANCHORED = re.compile(rf'{_LONG}?[A-Za-z]:|\\\\|\.')

# The finding rules of issue 22 (``FINDERS``): paths people write that the forms above miss.
# Each pattern is matched against a literal's text as the source spells it.
#: A name of two or more characters (spaces inside allowed: ``Program Files``);
#: ``X`` is a replacement field read as a name.
_NAME2 = r'(?:[\w.$~-]{2,}|[\w.$~-]+(?:\ [\w.$~-]+)+|X)'
#: **joined-names**: names joined by backslashes (one or two, or a forward
#: slash), a valid escape standing for one of them (``logs\training``).
JOINED_NAMES = re.compile(
    rf'{_NAME2}(?:{_ANY_SEP}{_NAME2})*\\[abfnrtv][.$~-]*\w[\w.$~-]*(?:{_ANY_SEP}{_NAME2})*')
#: The row of a ``joined-names`` literal must say path: a path function,
#: ``join``, ``/``, or a name with path, dir, file, folder or root in it.
PATH_CUE = re.compile(r'(?i:path|dir|file|folder|root)|\b(?:open|join)\(|/|\b(?:' + '|'.join((
    'imread', 'imwrite', 'VideoCapture', 'VideoWriter', 'torch', 'np', 'numpy', 'pd', 'sqlite3',
    'h5py', 'winreg', '_winreg', 'ctypes', 'webbrowser', 'xlsxwriter', 'openpyxl', 'Document'))
    + r')\b')
#: **doubled-elsewhere**: names joined by one or two backslashes, from a UNC
#: start written doubled (``\\\\server``) or a drive or none, where
#: a separator written doubled stands before a letter that makes no escape
#: (``\\public``): a single backslash before another name is a separator too.
DOUBLED_ELSEWHERE = re.compile(rf'(?:\\{{4}}|[A-Za-z]:\\{{1,2}})?{_NAME2}(?:\\{{1,2}}{_NAME2})+')
DOUBLED_SEPARATOR = re.compile(r'(?<!\\)\\\\(?=[^\W\d_abfnrtvxuUN])')
SINGLE_VALID = re.compile(r'(?<!\\)\\[abfnrtv]')
#: **anchored-in-text**: in text, a drive after the start, a space, a quote, a
#: bracket or ``=``, then two or more names, or a name with an extension,
#: joined by backslashes (``'Saved to C:\new\file.txt'``).  Only the escapes
#: inside it are reported.
IN_TEXT = re.compile(rf"""(?:^|(?<=[\s(\[='"]))[A-Za-z]:{_KEPT_SEP}
    (?:(?:[\w.$~-]{{2,}}{_KEPT_SEP})+(?:[\w.$~-]*\.[A-Za-z][A-Za-z0-9]{{0,3}}|[\w$~-][\w.$~-]*[\w$~-])
      | [\w$~-][\w.$~-]*\.[A-Za-z][A-Za-z0-9]{{0,3}})
    (?!\.*[\w$~-]|{_KEPT_SEP}[\w.$~-]{{2}})""", re.VERBOSE)
#: **template-fields**: a ``%`` or ``{}`` field of a template, read as a name
#: (``'%s\temp.txt' % root``), as an f-string's fields are.
TEMPLATE_FIELD = re.compile(
    r'%(?:\(\w*\))?[-+ #0]*\d*(?:\.\d+)?[sdrifFeEgGxXoc]|\{[\w.\[\]]*(?:![rsa])?(?::[\w.<>^=+ -]*)?\}')
#: A ``{name}`` right after a backslash and letters is TeX's argument
#: (``\\begin{enumerate}``), no field; where a text holds one, its fields are
#: read with ``TEX_OR_FIELD``, which matches it first (group 1) to keep it.
TEX_ARGUMENT = re.compile(r'\\[A-Za-z]+\{[A-Za-z][\w.\[\]]*\}')
TEX_OR_FIELD = re.compile(rf'({TEX_ARGUMENT.pattern})|{TEMPLATE_FIELD.pattern}')
#: Two letters in a row: a template must keep a name of its own once its fields are gone.
TWO_LETTERS = re.compile(r'[^\W\d_]{2}')

#: Where a path's text shows on its row of source: every form above starts
#: right after its opening quote with a drive (or the long-path prefix
#: before one), two backslashes, or one or two dots and a separator, or ends
#: right before its closing quote with a file name's extension.
#: (Three patterns, each with a plain first character that re scans for fast.)
PATH_START = re.compile(r"""['"](?:[A-Za-z]:|\\\\|\.{1,2}[\\/])""")  # a drive, a UNC start, a relative start
LONG_DRIVE = re.compile(r"""[?.]\\{1,2}[A-Za-z]:""")           # a drive after a long-path prefix
PATH_END = re.compile(r"""\.[A-Za-z][A-Za-z0-9]{0,3}['"]""")     # a file name's extension at the end
#: ... and what the finders of issue 22 need on the row: a drive inside text
#: (``anchored-in-text``), a separator written doubled before a letter
#: (``doubled-elsewhere``: ``DOUBLED_SEPARATOR`` with ``SINGLE_VALID``), a valid
#: escape between two names (``joined-names``, with ``PATH_CUE``; a template's
#: field counts as a name).
#: A drive after the row's start (a row of a multi-row literal), a space, a
#: bracket or ``=``; written from its ``:\\``, which ``re`` scans for fast.
DRIVE_IN_TEXT = re.compile(r""":\\(?<=[A-Za-z]:\\)(?<![^\s(\[=][A-Za-z]:\\)""")
#: (Written to start with its backslash, which ``re`` scans for fast.)  A name
#: of two characters or more, or words with spaces (``My a``), ends before it.
NAME_ESCAPE_NAME = re.compile(r'\\[abfnrtv](?<=[\w.$~ -][\w.$~-]\\[abfnrtv])[\w.$~-]')


#: Line ends spelled as text: a protocol line or a paragraph, not a path.
LINE_ENDS = re.compile(r'\\r\\n|\\n\\r|\\n\\n|\\[nr]$')
#: Text whose every backslash is a whitespace escape (\n, \r, \t): 'a\nwww.example.org'.
ONLY_WHITESPACE = re.compile(r'(?:[^\\]|\\[nrt])*')
#: An escape that spells a character of a name, read as that character; an
#: escaped backslash is matched first, so that '\\xff' stays two characters.
#: Octal escapes spell one when they are the UTF-8 bytes of one (a lead byte,
#: \302-\364, then its continuation bytes, \200-\277: '\342\200\223' is a
#: dash), which numbered folders are not ('C:\data\2020' is \202 and a 0).
#: A ``\U`` above U+10FFFF is no character (CPython refuses it: ESC304), nor read as one.
CHARACTER_ESCAPE = re.compile(r"""\\\\|\\(?:x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|N\{[^}]*\}
    |U(?:000[0-9a-fA-F]|0010)[0-9a-fA-F]{4}
    |3[0-3][0-7]\\2[0-7]{2}|34[0-7](?:\\2[0-7]{2}){2}|36[0-4](?:\\2[0-7]{2}){3})""", re.VERBOSE)
#: A backslash and the character that makes it an escape (group 1), or none:
#: a backslash the value keeps, whose escape the safe fixes double (ESC301, ESC302).
STR_ESCAPE = re.compile(r'\\([\\\'"abfnrtv0-7xNuU\r\n]?)')
BYTES_ESCAPE = re.compile(r'\\([\\\'"abfnrtv0-7x\r\n]?)')
#: Where such a backslash may stand (in C: most texts hold none).
STR_KEPT = re.compile(r'\\(?:[^\\\'"abfnrtv0-7xNuU\r\n]|\Z)')
BYTES_KEPT = re.compile(r'\\(?:[^\\\'"abfnrtv0-7x\r\n]|\Z)')
#: A NUL escape at the end of the text (after an even number of backslashes).
TERMINATOR = re.compile(r'(?<!\\)(?:\\\\)*(\\(?:0{1,3}|x00|u0000|U00000000|N\{NULL\}))\Z')
#: The value of a terminator: '\0', '\x00', '\000', '\u0000' all are NUL.
NUL = '\0'

#: What each valid escape puts into a path instead of a separator and a name.
ESCAPE_MEANINGS = escapes.CONTROL_NAMES
PATH_HAZARDS = frozenset({
    escapes.OCTAL, escapes.OCTAL_OVERFLOW, escapes.HEX, escapes.UNICODE, escapes.NAMED,
})

#: ``Found.kept`` (what ``PathJudge`` said of the piece's literal): a path by
#: its text alone, a path when it is used as one, a path an exemption keeps
#: quiet (its escapes are still scanned, to record what was silenced), or ''.
PATH_BY_TEXT = 'text'
PATH_IF_USED = 'if used'
EXEMPT = 'exempt'
#: A path inside text (``anchored-in-text``): only the escapes inside it are reported.
PATH_IN_TEXT = 'in text'

_ESC501 = (rules.ESC501.code,)
CHARACTER = rules.Exemption(
    'spelled-character', _ESC501,
    'A backslash that spells a character (`\\x..`, `\\u....`, `\\U........`, `\\N{...}`, or octal '
    'escapes that are the UTF-8 bytes of one, `\\342\\200\\223`) is never a separator: the literal '
    'must read as a path with that character in a name.',
    'text = text.rstrip(".\\u3002\\uff0e\\uff61")\nDASH_LOG = u"build-\\342\\200\\223log.txt"\n',
)
TERMINATOR_NUL = rules.Exemption(
    'terminator', _ESC501,
    'A NUL escape (`\\0`, `\\x00`) that ends the literal terminates a wire-format string: it is '
    'never reported, and the literal is judged without it.',
    "BOOT_INI = 'c:\\\\boot.ini\\0'\n",
)
ESCAPED_PATH = rules.Exemption(
    'escaped-path', _ESC501,
    'In a path whose separators are all written doubled or as forward slashes, an escape that '
    'spells a printable character (`\\x..`, `\\u....`, `\\N{...}`) is meant: the literal is not reported.',
    "folder = 'C:\\\\Users\\\\caf\\u00e9'\n",
)
LINE_END_TEXT = rules.Exemption(
    'line-ends', _ESC501,
    'A literal that spells line ends as text (`\\r\\n`, `\\n\\r`, `\\n\\n`, or a `\\n` or `\\r` that '
    "ends it: labels such as `'Q:\\n'`, LaTeX's `'\\\\item\\n'`) is text, not a path.",
    "END_OF_DATA = b'..\\r\\n.\\r\\n'\n",
)
WHITESPACE_TEXT = rules.Exemption(
    'whitespace-text', _ESC501,
    'Text with no drive or path start whose only backslashes are whitespace escapes (`\\n`, `\\r`, '
    '`\\t`) is a path only where it is used as one.',
    "banner = 'a\\nwww.example.org'\n",
)
SHORT_PATH = rules.Exemption(
    'short-path', _ESC501,
    'A short path (a drive and one name, a relative start and one name, a file name after a '
    'separator) is a path only where it is used as one, by a path function the role pass knows.',
    "label = 'C:\\new'\n",
)
ESCAPED_DATA = rules.Exemption(
    'escaped-data', _ESC501,
    'A literal whose octal, `\\x`, `\\u` and `\\U` escapes outnumber its other characters is data, not '
    'a path (`".\\30\\2\\u008b\\u008c\\78\\2\\2"`, a chunk of the tables an ANTLR parser writes).',
    'buf.write(".\\30\\2\\u008b\\u008c\\78\\2\\2")\n',
)
#: Every exemption of the paths family, in the order they are tried.  The
#: code reads this table when it runs: a test that drops an entry sees what it kept quiet.
EXEMPTIONS: tuple[rules.Exemption, ...] = (
    CHARACTER, TERMINATOR_NUL, ESCAPED_PATH, LINE_END_TEXT, ESCAPED_DATA, WHITESPACE_TEXT, SHORT_PATH,
)
#: A backslash and what follows it: a numbered escape (group 1), as ``escaped-data`` counts them,
#: or another (one character of the value, a backslash the value keeps as ``as_fixed`` doubles it).
NUMBERED_OR_OTHER = re.compile(
    r'\\(?:([0-7]{1,3}|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8})|N\{[^}]*\}|.)', re.DOTALL)


def escape_counts(text: str) -> tuple[int, int]:
    """(the numbered escapes of ``text``, the other characters of its value)."""
    numbered = others = 0
    at = 0
    for match in NUMBERED_OR_OTHER.finditer(text):
        others += match.start() - at
        if match[1] is None:
            others += 1
        else:
            numbered += 1
        at = match.end()
    return numbered, others + len(text) - at


def is_escaped_data(text: str) -> bool:
    """Do the numbered escapes of ``text`` outnumber the other characters of its value?"""
    numbered, others = escape_counts(text)
    return numbered > others


class Finder(NamedTuple):
    """A named rule that finds a path the whole-path forms miss (issue 22): one
    sentence and the README example it reports (``example`` gets ESC501)."""

    name: str
    rule: str
    example: str


WHOLE_PATH = ''   # the finder of a path ``WINDOWS_PATH`` or ``WEAK_WINDOWS_PATH`` reads whole
TEMPLATE_FIELDS = Finder(
    'template-fields',
    'The fields of a `%` or `.format` template (`%s`, `{}`, `{root}`) are read as names (never as a '
    'drive), as an f-string\'s are, when the template keeps two letters of its own; a `{name}` right '
    'after a backslash and letters is TeX\'s argument, no field '
    '(`\'\\\\begin{enumerate}\\n%s\\\\end{enumerate}\' % body` is no path).',
    'import os\nopen("%s\\temp.txt" % os.getcwd())\n',
)
DOUBLED_ELSEWHERE_RULE = Finder(
    'doubled-elsewhere',
    'Names joined by backslashes, one of them before a letter that makes no escape, written doubled '
    '(`\\\\Acme`) or single (`\\Acme`: the value keeps it, and the safe fix doubles it), are a path: '
    'a single backslash before another name is a separator too.',
    'key = "Software\\\\Acme\\new"\n',
)
IN_TEXT_RULE = Finder(
    'anchored-in-text',
    'In a str literal, a drive in text (after a space, a quote, a bracket or `=`) followed by two names, '
    'or a name with an extension, joined by single backslashes (or doubled before a letter that makes no '
    'escape, as the safe fix doubles `\\D`), is a path, at a sentence\'s end too (`C:\\data\\root.`): '
    'its `\\n`, `\\t`, ... escapes are reported, not the rest of the text.',
    'print("Saved to C:\\new\\file.txt")\n',
)
JOINED_NAMES_RULE = Finder(
    'joined-names',
    'In a str literal, names of two or more characters joined by backslashes, a valid escape among '
    'them, are a path where they are used as one (passed to a path function, joined, after `/`, bound '
    'to a name passed there) and the row also says path (`open(`, `join(`, `/`, a path API\'s module, '
    'or a name with path, dir, file, folder or root in it).',
    'import os\nLOG_DIR = "logs\\training"\nos.makedirs(LOG_DIR)\n',
)
#: Every finding rule, in the order they are tried.
FINDERS: tuple[Finder, ...] = (TEMPLATE_FIELDS, DOUBLED_ELSEWHERE_RULE, IN_TEXT_RULE, JOINED_NAMES_RULE)


class Verdict(NamedTuple):
    """What a literal is, the exemption that lowered it, if one did, and the finder that found it."""

    kind: str             # PATH_BY_TEXT, PATH_IF_USED, PATH_IN_TEXT, EXEMPT or ''
    exemption: str = ''   # the name of the exemption that made it EXEMPT or PATH_IF_USED
    finder: str = WHOLE_PATH


Silenced = rules.Silenced


NOT_A_PATH = Verdict('')
#: The prefix letters of an f-string or a t-string.
F_OR_T = frozenset('fFtT')
START = itemgetter(2)


def path_kind(text: str, begin: int = 0, end: int | None = None) -> str:
    """PATH_BY_TEXT, PATH_IF_USED or '' for a literal's text (``text[begin:end]``)
    as the source spells it: a whole path, or one the names-only finders find."""
    return find_path(text, begin, end)[0]


def find_path(text: str, begin: int = 0, end: int | None = None) -> tuple[str, str]:
    """(kind, finder) for a literal's text: a whole path (``WINDOWS_PATH``,
    ``WEAK_WINDOWS_PATH``), else ``doubled-elsewhere`` or ``joined-names``."""
    end = len(text) if end is None else end
    if WINDOWS_PATH.fullmatch(text, begin, end) is not None:
        return PATH_BY_TEXT, WHOLE_PATH
    if WEAK_WINDOWS_PATH.fullmatch(text, begin, end) is not None:
        return PATH_IF_USED, WHOLE_PATH
    if '\\' not in text:
        return '', ''
    if (DOUBLED_ELSEWHERE.fullmatch(text, begin, end) is not None
            and DOUBLED_SEPARATOR.search(text, begin, end) is not None
            and SINGLE_VALID.search(text, begin, end) is not None):
        return PATH_BY_TEXT, DOUBLED_ELSEWHERE_RULE.name
    if JOINED_NAMES.fullmatch(text, begin, end) is not None:
        return PATH_IF_USED, JOINED_NAMES_RULE.name
    return '', ''


def _found_in_text(text: str, begin: int, end: int, is_bytes: bool) -> tuple[str, str, str, int, int]:
    """(kind, finder, text, begin, end) of a literal no whole-path form reads:
    a template read with its fields as names, or a drive inside (str) text."""
    body = text[begin:end]
    if ('%' in body or '{' in body) and TWO_LETTERS.search(read_fields(body, '')) is not None:
        read = read_fields(body, 'XX')  # a name, never a drive ('{}:\\n{}' is no path)
        if read != body:
            kind, finder = find_path(read)
            if kind:
                return kind, finder or TEMPLATE_FIELDS.name, read, 0, len(read)
    if ':' in body and not is_bytes and IN_TEXT.search(body) is not None:
        return PATH_IN_TEXT, IN_TEXT_RULE.name, text, begin, end
    return '', '', text, begin, end


def read_fields(text: str, name: str) -> str:
    """A template's text, each field read as ``name``, TeX's arguments kept (``TEX_ARGUMENT``)."""
    if '{' in text and TEX_ARGUMENT.search(text) is not None:
        return TEX_OR_FIELD.sub(lambda match: match[1] or name, text)
    return TEMPLATE_FIELD.sub(name, text)


def in_text_spans(text: str) -> list[tuple[int, int]]:
    """Where ``anchored-in-text`` finds a path in a literal's text (offsets in ``text``)."""
    return [match.span() for match in IN_TEXT.finditer(text)]


class ExampleReader:
    """How ESC501 reads a doctest example's strings (``doctests.PathReader``), for one file: whether
    the example's line says path is searched once per line, not once per string of it."""

    def __init__(self) -> None:
        self.active = frozenset(exemption.name for exemption in EXEMPTIONS)
        self.line: str | None = None
        self.says_path = False

    def __call__(self, text: str, line: str, at: int) -> bool:
        """Does the example's string ``text`` (as the example spells it), on the example's ``line``,
        read as a Windows path whose escape at ``at`` is a hazard, as ESC501 reads a literal in
        code: a path by its text (or found in text around ``at``), or one that is a path if used as
        one where the line says path (``PATH_CUE``: the example's use is not known)?"""
        verdict = judge(text, self.active)
        if verdict.kind == PATH_IN_TEXT:
            return any(start <= at < end for start, end in in_text_spans(text))
        if verdict.kind == PATH_IF_USED:
            if line is not self.line:  # the same line object for all the strings of a line
                self.line, self.says_path = line, PATH_CUE.search(line) is not None
            return self.says_path
        return verdict.kind == PATH_BY_TEXT


def may_hold_path(line: str) -> bool:
    """Could a literal on this row of source be judged a path for an escape
    of the row?  False only when none can: a path's text (``path_kind``)
    holds no line break, so it stands on one row, quotes included, and
    shows where it starts or ends there (``PATH_START``,
    ``LONG_DRIVE``, ``PATH_END``), or shows what a finder needs.  An
    f-string's fields are read as names (``fstring_view``): a row with a
    brace may hold anything; a template's ``%`` fields too
    (``template_shows_path``).
    """
    return ('{' in line or '}' in line or PATH_START.search(line) is not None
            or ('.' in line and PATH_END.search(line) is not None)
            or (':' in line and (LONG_DRIVE.search(line) is not None
                                 or DRIVE_IN_TEXT.search(line) is not None))
            or ('\\\\' in line and DOUBLED_SEPARATOR.search(line) is not None
                and SINGLE_VALID.search(line) is not None)
            or (NAME_ESCAPE_NAME.search(line) is not None and PATH_CUE.search(line) is not None)
            or ('%' in line and template_shows_path(line)))


def template_shows_path(line: str) -> bool:
    """``may_hold_path`` for a row whose ``%`` fields are read as names, as
    ``template-fields`` reads them (a field holds no quote, so the row's
    fields are its literals').  A field read as ``XX`` makes no drive, start
    or backslash: only an extension (``'\\reports.%s'``), a doubled separator
    before a letter (``'logs\\\\%s\\new'``) or a name beside an escape
    (``'logs\\t%s'``) can show where the row as written shows none."""
    read = TEMPLATE_FIELD.sub('XX', line)  # a row with no brace: no TeX argument in it
    return (PATH_END.search(read) is not None
            or (DOUBLED_SEPARATOR.search(read) is not None and SINGLE_VALID.search(read) is not None)
            or (NAME_ESCAPE_NAME.search(read) is not None and PATH_CUE.search(line) is not None))


def _spelled(match: re.Match[str]) -> str:
    """A character's name letter for an escape that spells one; an escaped
    backslash as written, and octal escapes that are no UTF-8 (\\300\\200) too."""
    text = match[0]
    if text == '\\\\':
        return text
    if text[1] in '0123456789':
        try:
            bytes(int(octal, 8) for octal in text[1:].split('\\')).decode('utf-8')
        except UnicodeDecodeError:
            return text
    return 'x'


def _printable(escape: str) -> bool:
    """Does an escape of ``CHARACTER_ESCAPE`` spell a printable character (not a
    control character such as ``\\x86``, which no author puts in a name)?"""
    if escape == '\\\\' or escape[1] in 'N0123456789':
        return True
    return escape.encode('ascii').decode('unicode-escape').isprintable()


def as_fixed(text: str, is_bytes: bool = False) -> str:
    """The text as the safe fixes spell it: the backslash of each escape that
    starts none (``\\A``, which the value keeps) doubled (``\\\\A``)."""
    if (BYTES_KEPT if is_bytes else STR_KEPT).search(text) is None:
        return text
    return (BYTES_ESCAPE if is_bytes else STR_ESCAPE).sub(_doubled_if_kept, text)


def _doubled_if_kept(match: re.Match[str]) -> str:
    return match[0] if match[1] else '\\\\'


def judge(text: str, active: frozenset[str], begin: int = 0, end: int | None = None,
          is_bytes: bool = False) -> Verdict:
    """The verdict on a whole literal's text, ``text[begin:end]`` (an
    f-string's fields read as names), read as the safe fixes spell it
    (``as_fixed``: the verdict is the same before and after them).
    ``active`` names the exemptions in force.
    """
    end = len(text) if end is None else end
    if '\\' in text:  # a token's prefix and quotes hold none: its body's end moves
        fixed = as_fixed(text, is_bytes)
        end += len(fixed) - len(text)
        text = fixed
    kind, finder = find_path(text, begin, end)
    if not kind:
        kind, finder, text, begin, end = _found_in_text(text, begin, end, is_bytes)
        if not kind:
            return NOT_A_PATH  # most literals; an exemption only lowers a verdict
        if kind == PATH_IN_TEXT:
            return Verdict(kind, '', finder)  # judged escape by escape (``in_text_spans``)
    return _lowered(text[begin:end], kind, finder, active)


def _lowered(text: str, kind: str, finder: str, active: frozenset[str]) -> Verdict:
    """The verdict on a path's text once the exemptions in ``active`` have had their say."""
    written = text
    if TERMINATOR_NUL.name in active and TERMINATOR.search(text) is not None:
        text = TERMINATOR.sub('', text)
        kind = path_kind(text)
        if not kind:
            return Verdict(EXEMPT, TERMINATOR_NUL.name, finder)
    read = CHARACTER_ESCAPE.sub(_spelled, text) if CHARACTER.name in active else text
    if read != text:
        spelled, text = text, read
        kind = path_kind(text)
        if not kind:
            return Verdict(EXEMPT, CHARACTER.name, finder)
        if (ESCAPED_PATH.name in active and '\\' not in text.replace('\\\\', '')
                and all(_printable(match[0]) for match in CHARACTER_ESCAPE.finditer(spelled))):
            return Verdict(EXEMPT, ESCAPED_PATH.name, finder)  # no single backslash left
    return _lowered_as_text(text, written, kind, finder, active)


def _lowered_as_text(text: str, written: str, kind: str, finder: str, active: frozenset[str]) -> Verdict:
    """``_lowered``'s last exemptions, on the path's text read (``written``: as the source spells it)."""
    if LINE_END_TEXT.name in active and LINE_ENDS.search(text) is not None:
        return Verdict(EXEMPT, LINE_END_TEXT.name, finder)
    if ESCAPED_DATA.name in active and is_escaped_data(written):
        return Verdict(EXEMPT, ESCAPED_DATA.name, finder)
    if (kind == PATH_BY_TEXT and WHITESPACE_TEXT.name in active
            and ONLY_WHITESPACE.fullmatch(text) is not None and ANCHORED.match(text) is None):
        return Verdict(PATH_IF_USED, WHITESPACE_TEXT.name, finder)
    if kind == PATH_IF_USED and SHORT_PATH.name not in active and finder == WHOLE_PATH:
        kind = PATH_BY_TEXT
    return Verdict(kind, '', finder)


def fstring_view(piece: Piece) -> str:
    """A 3.10/3.11 f-string's literal parts with each replacement field read as a name.

    A part that ends in a doubled brace is followed by the second brace
    (``literals.fstring_literal_spans`` keeps one); anything else between
    parts is (part of) a field, and a part inside a field (its format spec)
    is not read, as on 3.12+, where the spec's pieces sit inside the field.
    """
    text = piece.text
    _, body_start, body_end = literals.split_prefix(text)
    parts = []
    depth = 0   # fields open, counted by the braces between parts
    before = body_start
    for begin, end in piece.spans:
        gap = text[before:begin]
        doubled = len(gap) == 1 and gap in '{}' and text[before - 1] == gap
        if gap and not doubled:
            if not depth:
                parts.append('X')
            depth = max(depth + gap.count('{') - gap.count('}'), 0)
        if not depth:
            parts.append(text[begin:end])
        before = end
    if before < body_end and not depth:
        parts.append('X')
    return ''.join(parts)


class PathJudge:
    """The callback of ``literals.escapes`` for one file: says, once per
    literal, whether the piece's literal is a Windows path (``Found.kept``).

    An f-string on 3.12+ comes in FSTRING_MIDDLE pieces: its verdict is made
    on the whole f-string, read from the tokens, and given to each piece.
    """

    def __init__(self, tokens: list[tokenize.TokenInfo], lines: list[str]) -> None:
        self.tokens = tokens
        self.lines = lines
        self.active = frozenset(exemption.name for exemption in EXEMPTIONS)
        self.verdicts: dict[literals.Position, Verdict] = {}   # piece start -> verdict
        self.spans: dict[literals.Position, list[tuple[int, int]]] = {}  # piece start -> in_text_spans
        self.judged: dict[literals.Position, Verdict] = {}   # piece start -> ``verdict``

    def __call__(self, piece: Piece) -> str:
        return self.verdict(piece).kind

    def learn(self, other: PathJudge) -> None:
        """Take the verdicts ``other`` made, on tokens that are a part of these (``checks.merged``)."""
        self.verdicts.update(other.verdicts)
        self.spans.update(other.spans)
        self.judged.update(other.judged)

    def verdict(self, piece: Piece) -> Verdict:
        """The verdict on the piece's literal, made once per piece (asked again per escape reported)."""
        verdict = self.judged.get(piece.start)
        if verdict is None:
            verdict = self._verdict(piece)
            joined = verdict.finder == JOINED_NAMES_RULE.name
            if joined and (piece.is_bytes or not self.says_path(piece.start[0])):
                verdict = NOT_A_PATH
            self.judged[piece.start] = verdict
        return verdict

    def in_text(self, piece: Piece) -> list[tuple[int, int]]:
        """``in_text_spans`` of the piece, found once per piece (a literal may hold many escapes)."""
        spans = self.spans.get(piece.start)
        if spans is None:
            spans = self.spans[piece.start] = in_text_spans(piece.text)
        return spans

    def says_path(self, row: int) -> bool:
        """Does the row say path (``PATH_CUE``), as ``joined-names`` asks?"""
        lines = self.lines
        return 0 < row <= len(lines) and PATH_CUE.search(lines[row - 1]) is not None

    def _verdict(self, piece: Piece) -> Verdict:
        if not piece.spans:
            return NOT_A_PATH
        begin = piece.spans[0][0]
        if begin:  # a STRING token: its body starts after the prefix and quote
            if not F_OR_T.isdisjoint(piece.text[:begin]):  # a 3.10/3.11 f- or t-string
                return judge(fstring_view(piece), self.active)
            return judge(piece.text, self.active, begin, piece.spans[0][1], piece.is_bytes)
        known = self.verdicts.get(piece.start)  # a 3.12+ MIDDLE piece (spans from 0)
        if known is not None:
            return known
        return self.middle_verdict(piece, bisect_left(self.tokens, piece.start, key=START))

    def middle_verdict(self, piece: Piece, index: int) -> Verdict:
        """The verdict on the f- or t-string (3.12+) that holds a MIDDLE piece
        (at or after ``tokens[index]``), recorded for each of its MIDDLE pieces."""
        tokens = self.tokens
        while index < len(tokens) and tokens[index][0] not in literals.MIDDLE_TYPES:
            index += 1
        owner = literals.owner_index(tokens, index)
        parts: list[str] = []
        mine: list[literals.Position] = []
        nesting = braces = 0
        for at in range(owner + 1, len(tokens)):  # not a copy of the rest: one f-string's tokens
            tok = tokens[at]
            kind = tok[0]
            if kind in literals.START_TYPES:
                nesting += 1
            elif kind in literals.END_TYPES:
                if not nesting:
                    break
                nesting -= 1
            elif nesting:
                continue
            elif kind in literals.MIDDLE_TYPES:
                mine.append(tok[2])
                if not braces:
                    parts.append(tok[1])
            elif kind == tokenize.OP and tok[1] in '{}':
                if tok[1] == '{':
                    if not braces:
                        parts.append('X')  # a replacement field reads as a name
                    braces += 1
                else:
                    braces -= 1
        verdict = judge(''.join(parts), self.active)
        for start in mine:
            self.verdicts[start] = verdict
        self.verdicts[piece.start] = verdict
        return verdict


#: ESC501's advice; for a path that also spells a backslash as ``\\\\``, which a raw literal
#: would make two, the fix's: its lone backslashes doubled (as ESC304 says it).
RAW_ADVICE = 'use a raw string or forward slashes'
DOUBLED_ADVICE = 'double each lone backslash or use /'


def meaning(escape: escapes.Escape, is_bytes: bool = False) -> str:
    if escape.text in ESCAPE_MEANINGS:
        return ESCAPE_MEANINGS[escape.text]
    if escape.kind == escapes.NAMED:
        return 'a named character'
    if is_bytes:  # a bytes literal keeps an octal escape's low 8 bits: b'\400' is b'\x00'
        return f'the byte \\x{ord(escapes.value_of(escape)) & 0xFF:02x}'
    return f'the character U+{ord(escapes.value_of(escape)):04X}'


def _inside(escape: escapes.Escape, spans: list[tuple[int, int]]) -> bool:
    """Is the escape inside one of ``spans`` (sorted, apart)?  A search, not a walk."""
    at = bisect_right(spans, (escape.offset, 1 << 62)) - 1  # the last span starting at or before it
    return at >= 0 and spans[at][0] <= escape.offset < spans[at][1]


def is_path_hazard(escape: escapes.Escape) -> bool:
    return escape.text in ESCAPE_MEANINGS or escape.kind in PATH_HAZARDS


def is_terminator(found: Found) -> bool:
    """Is the escape a NUL that ends its literal ('c:\\\\pagefile.sys\\x00')?"""
    escape, piece = found.escape, found.piece
    if escape.kind not in (escapes.OCTAL, escapes.HEX, escapes.UNICODE, escapes.NAMED):
        return False
    if escapes.value_of(escape) != NUL:
        return False
    end = escape.offset + len(escape.text)
    if piece.spans[0][0]:  # a STRING token (see PathJudge.verdict): the end of its body
        return end == literals.split_prefix(piece.text)[2]
    return end == len(piece.text) and piece.lookahead != '{'  # the last piece of a 3.12+ f-string


def _exemption_for(item: Found, roles: list[role_pass.Role], judged: PathJudge | None,
                   active: frozenset[str]) -> str | None:
    """The exemption that keeps a path's escape quiet, '' if none does, or None
    when the escape is not in a path at all (around a path found in text,
    or in names joined by an escape that are not used as a path)."""
    line, col, escape, piece, kept = item
    if kept == PATH_IN_TEXT:
        if escape.text not in ESCAPE_MEANINGS:
            return None  # a character spelled inside text, not a separator and a letter
        spans = judged.in_text(piece) if judged is not None else in_text_spans(piece.text)
        return '' if _inside(escape, spans) else None
    if TERMINATOR_NUL.name in active and is_terminator(item):
        return TERMINATOR_NUL.name
    used = kept == PATH_IF_USED and role_pass.role_at(roles, line, col, (role_pass.PATH,)) is not None
    if kept == EXEMPT or (kept == PATH_IF_USED and not used):
        verdict = judged.verdict(piece) if judged is not None else NOT_A_PATH
        if verdict.finder == JOINED_NAMES_RULE.name and kept == PATH_IF_USED:
            return None
        return verdict.exemption or SHORT_PATH.name
    return ''


def reports(
    found: Iterable[Found],
    roles: list[role_pass.Role] | None = None,
    judged: PathJudge | None = None,
    silenced: list[Silenced] | None = None,
) -> Iterator[Finding]:
    """ESC501: valid escapes in a literal that is a Windows path.

    Whether it is one was decided once per literal by ``judged`` (the
    ``PathJudge`` given to ``literals.escapes``; ``Found.kept``); a literal
    that is a path only if used as one needs a ``roles.PATH`` role in
    ``roles``.  Each hazard an exemption keeps quiet goes to ``silenced``.
    """
    active = frozenset(exemption.name for exemption in EXEMPTIONS)
    doubled: dict[literals.Position, bool] = {}  # does the literal spell a backslash as '\\\\' too?
    for item in found:
        line, col, escape, piece, kept = item
        if not kept or not is_path_hazard(escape):
            continue
        exemption = _exemption_for(item, roles or [], judged, active)
        if exemption is None:
            continue
        if exemption:
            if silenced is not None:
                silenced.append(Silenced(line, col, rules.ESC501.code, escape.text, exemption))
            continue
        finder = judged.verdict(piece).finder if judged is not None else WHOLE_PATH
        if piece.start not in doubled:  # once per literal, however many escapes it has
            doubled[piece.start] = literals.holds_escaped_backslash(piece)
        yield line, col, rules.ESC501, {'escape': escape.text, 'meaning': meaning(escape, piece.is_bytes),
                                        'advice': DOUBLED_ADVICE if doubled[piece.start] else RAW_ADVICE,
                                        'finder': finder or 'whole-path'}
