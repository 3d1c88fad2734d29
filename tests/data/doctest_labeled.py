# Labeled ESC602 cases, each written here in the shape of real code and
# citing where that shape comes from ("# from:").  Only ESC602 counts in the
# score (tests/test_tex.py); other codes in a case are ignored.
# Hazards: a report is expected.  Clean: look-alikes that must stay quiet.
#
# --- hazards ---------------------------------------------------------------
#: ESC602:5:23
# from: issue 23 (examples written for the issue: a newline inside the example's quotes)
def split_lines(text):
    """Split at line breaks.

    >>> split_lines('a\nb')
    ['a', 'b']
    """
#: ESC602:4:34 ESC602:4:37
# from: issue 23 (a backreference in an example regex becomes U+0001)
def swap(text):
    """Swap two words.
    >>> re.sub(r'(\w+) (\w+)', r'\2 \1', 'a b')
    'b a'
    """
#: ESC602:3:25
# from: doctest documentation ("backslashes in a docstring": the example's raw pattern)
def words(text):
    """>>> re.findall(r'\bw\w*', text)
    ['word']
    """
#: ESC602:4:7
# from: doctest documentation (the expected output of a repr with a tab)
def tabbed():
    """>>> tabbed()
    'a\tb'
    """
#: ESC602:5:7
# from: text utilities (an example with a tab in the expected repr)
def expand(text):
    """Expand tabs.
    >>> expand('a b')
    'a\tb'
    """
#: ESC602:4:12
# from: module docstrings with examples (a module-level docstring)
"""Helpers.

>>> join('a\nb')
'a b'
"""
#: ESC602:4:18
# from: class docstrings with examples
class Parser:
    """Parse lines.
    >>> Parser('x\ny').lines
    ['x', 'y']
    """
#: ESC602:3:22
# from: one-line docstrings with an example (a newline inside the quotes)
def count(text):
    """>>> count('one\ntwo')\n    2\n"""
#: ESC602:5:15
# from: continuation lines of an example
def total(*lines):
    """Sum.
    >>> total(
    ...     'a\nb')
    2
    """
#: ESC602:5:7 ESC602:5:9
# from: an example whose expected output holds a carriage return
def crlf(text):
    """Line ends.
    >>> crlf('a')
    'a\r\n'
    """
#: ESC602:4:22
# from: example regexes with a raw string and a \d-like valid escape (\x41 changes in raw)
def hexes(text):
    """Find A.
    >>> re.findall(r'\x41', 'ABA')
    ['A', 'A']
    """
#: ESC602:4:15
# from: doctests of string utilities (a raw string with a tab escape)
def raw_len(text):
    """Length.
    >>> len(r'\t')
    2
    """
#: ESC602:4:21
# from: async docstrings with examples
async def fetch(url):
    """Fetch.
    >>> run(fetch('a\nb'))
    'ok'
    """
#: ESC602:4:18 ESC602:4:21
# from: examples with two newlines in one string
def lines3(text):
    """Three lines.
    >>> lines3('a\nb\nc')
    3
    """
#: ESC602:4:21
# from: examples of backspace handling (a raw string in the example)
def strip_bs(text):
    """Strip.
    >>> strip_bs(r'a\bb')
    'b'
    """
#: ESC602:5:7
# from: output with a NUL character in its repr
def nul():
    """NUL.
    >>> nul()
    'a\0'
    """
#: ESC602:4:23
# from: method docstrings with examples
class Text:
    def split(self):
        """>>> Text('a\nb').split()
        ['a', 'b']
        """
#: ESC602:3:21
# from: doctests of csv helpers (a newline inside a double-quoted string)
def rows(text):
    """>>> rows("x,y\n1,2")
    [['x', 'y'], ['1', '2']]
    """
#: ESC602:4:18
# from: escaping helpers (an example with a form feed in a raw string)
def pages(text):
    """Pages.
    >>> pages(r'a\fb')
    2
    """
#: ESC602:5:6
# from: repr examples with a bell character
def bell():
    """Bell.
    >>> bell()
    '\a'
    """
#: ESC602:3:20
# from: issue 30 (examples whose string holds a tab: doctest runs it alike, help() shows a raw tab)
def width(text):
    """>>> width('a\tb')
    3
    """
#: ESC602:3:28
# from: issue 30 (a comment in an example that holds a tab)
def commented():
    """>>> commented()  # a\tb
    1
    """
#: ESC602:4:16 ESC602:4:27
# from: issue 30 (terminal colours in an example: a raw ESC shown)
def plain(text):
    """Strip colours.
    >>> plain('\x1b[1mbold\x1b[0m')
    'bold'
    """
#: ESC602:3:21
# from: issue 30 (a tab-separated field in an example)
def fields(text):
    """>>> fields('x\ty')
    ['x', 'y']
    """
#: ESC602:4:33
# from: issue 30 (a newline escape in an example's comment cuts the line)
def sep():
    """Separator.
    >>> sep = chr(10)  # sep is \n
    """
#: ESC602:5:7 ESC602:5:10
# from: issue 30 (every line break of one string of an expected output)
def three():
    """Three lines.
    >>> three()
    'a\nb\nc'
    """
#: ESC602:6:16
# from: issue 30 (a string that goes on over ... lines)
def pair(a, b):
    """Pair.
    >>> pair('a',
    ...      'b',
    ...      'c\nd')
    """
#: ESC602:10:17
# from: issue 30 (a class docstring that holds several examples)
class Table:
    """Rows.

    >>> Table().rows
    []

    >>> Table('x').rows
    ['x']
    >>> Table('a\nb').rows
    ['a', 'b']
    """
#: ESC602:7:29
# from: issue 30 (a method's docstring, its second example)
class Reader:
    def read(self, text):
        """Read.
        >>> Reader().read('a')
        'a'
        >>> Reader().read('b\x7f')
        'b'
        """
#: ESC602:4:17
# from: issue 30 (a C1 control character in an example's source)
def clean(text):
    """Clean.
    >>> clean('a\x85b')
    'ab'
    """
#: ESC602:3:27
# from: issue 30 survey re-run (sympy's decorator docs: a continuation inside an example's triple-quoted string)
def deprecated(message):
    """>>> @deprecated('''\
    ...     The simplify_this(expr) function is deprecated.''')
    ... def simplify_this(expr):
    ...     pass
    """
#: ESC602:4:48
# from: issue 30 survey re-run (dawgdad: a continuation before a '...' row joins the prompt into the code)
def munge(df):
    """Munge.
    >>> df, count = dd.delete_empty_rows(df=df,\
    ...     count=True)
    """
#: ESC602:3:35
# from: issue 30 survey re-run (olga: a no-break space written as an escape in an example's string)
def pgen(seq):
    """>>> compute_CDR3_pgen('\xbb\xa0')
    1.0
    """
#: ESC602:5:33
# from: issue 40 item 11 (the blind draw: a path's `\\t` leaves `\t` in the example, which runs a tab)
def format_path(path):
    """Format a path.

    >>> format_path("test_folder\\test_file")
    'test_folder/test_file'
    """
#: ESC602:9:38 ESC602:9:42
# from: issue 40 item 11 (a path normalizer's example: `\\p` stays a backslash, `\\t` and `\\f` do not)
def normalize_path(path):
    """Normalize a path.

    Args:
        path: with either POSIX (/) or Windows (\\) separators.

    Examples:
        >>> normalize_path("src\\path\\to\\file.obj")
        'src/path/to/file.obj'
    """
#: ESC602:4:8
# from: issue 40 item 11 (the blind draw: an expected repr written '2 \\| 5' shows '2 \| 5')
def markdown_row(cells):
    """>>> markdown_row(['2 | 5'])
    '2 \\| 5'
    """
# --- clean -----------------------------------------------------------------
#: Okay
# from: issue 23 (a docstring written on one line: its newlines lay the example out)
def add(a, b):
    """Example:\n\n    >>> 1 + 1\n    2\n"""
#: Okay
# from: doctest documentation (a raw docstring: the example is as written)
def split_lines(text):
    r"""Split.

    >>> split_lines('a\nb')
    ['a', 'b']
    """
#: Okay
# from: doctest documentation (the backslash doubled in a non-raw docstring)
def split_lines(text):
    """Split.

    >>> split_lines('a\\nb')
    ['a', 'b']
    """
#: Okay
# from: docstrings with a newline escape outside any example
def lines(text):
    """Split at each '\n' and return the lines.

    >>> lines('ab')
    ['ab']
    """
#: Okay
# from: printed output with a tab (print shows the real tab)
def show():
    """>>> show()
    a\tb
    """
#: Okay
# from: a string that is not a docstring (a prompt written to a terminal)
prompt = '>>> %s\n' % command
#: Okay
# from: REPL emulators (text that holds prompts, not a docstring)
banner = 'Type code after the prompt:\n>>> print("a\nb")'
#: Okay
# from: doctest examples after a blank line ended them (the escape is in the prose)
def after(text):
    """>>> after('a')
    'a'

    Lines are split at '\n' first.
    """
#: Okay
# from: examples with \N{...} and \u escapes in non-raw strings (the same characters)
def accents():
    """>>> accents('caf\u00e9')
    'caf\N{LATIN SMALL LETTER E WITH ACUTE}'
    """
#: Okay
# from: a one-line docstring with an example and output laid out by \n
def two():
    """>>> two()\n2\n"""
#: Okay
# from: a bytes literal that holds prompts (never a docstring)
data = b'>>> x\n'
#: Okay
# from: a function without examples whose docstring holds escapes
def fmt(text):
    """Return text with '\t' expanded and a trailing '\n'."""
#: Okay
# from: output printed across two lines with the backslash doubled
def shown():
    """>>> print('a\\tb')
    a	b
    """
#: Okay
# from: an f-string is never a docstring
def fdoc(x):
    f""">>> fdoc('a\nb')"""
#: Okay
# from: a string statement after the docstring (not a docstring)
def later():
    """Doc."""
    """>>> later('a\nb')"""
#: Okay
# from: a newline escape in the expected output outside quotes (printed text on one line)
def banner():
    """>>> banner()\n    hello\n"""
#: Okay
# from: a regex example in a non-raw string of the example, not raw (the same value)
def grab():
    """>>> grab('\x41')
    'A'
    """
#: Okay
# from: docstrings with a math role, no example
def norm():
    """Return the norm of a vector:\n    sqrt(x^2 + y^2)."""
#: Okay
# from: issue 30 (an escape that gives a printable character, shown as that character)
def name():
    """>>> name('caf\xe9')
    4
    """
#: Okay
# from: issue 30 (a table header printed with tabs: printed text)
def header():
    """>>> header()
    \tName\tValue
    """
#: Okay
# from: issue 30 (a message with a newline before a word, outside any example)
def warn():
    """Warn with 'Error\nnot found' on failure.

    >>> warn()
    """
#: Okay
# from: issue 30 (a one-line docstring whose comment line is laid out by \n)
def call():
    """>>> call()  # one call\n1\n"""
#: Okay
# from: issue 30 (code-generating strings in a docstring's prose)
def gen():
    """Writes "x = 1\ni = 0" to the file.

    >>> gen()
    """
#: Okay
# from: issue 30 survey (stamilarity: continuations outside strings join an example's rows of code)
def similar(sample, distrib):
    """>>> p = similar([0, 1], distrib={0: .25,\
                                      1: .75})
    """
#: Okay
# from: issue 40 item 11 (an invalid escape left by `\\`: doctest runs '\d+', the pattern meant)
def digits(s):
    """>>> re.sub('\\d+', '#', s)
    '#'
    """
#: Okay
# from: issue 40 item 11 (the blind draw, buildout.recipe.mako_template: `\\n` written for a newline)
def _parse_list_values(value):
    """Transform string `values` into list of striped lines.

        >>> value = ' a \\n \\n b \\n'
        >>> list(_parse_list_values(value))
        ['a', 'b']
    """
#: Okay
# from: issue 40 item 11 (the blind draw, rdflib's uripath: `\\xe9` written for an accented letter)
def join(base, here):
    """>>> len(u'Andr\\xe9')
    5
    """
#: Okay
# from: issue 40 item 11 (a repr with a doubled backslash, written four times)
def temp_dir():
    """>>> temp_dir()
    'C:\\\\temp'
    """
#: Okay
# from: issue 40 item 11 (a repr shows a tab as \t: the `\\t` written for it)
def tabbed():
    """>>> tabbed()
    'a\\tb'
    """
#: Okay
# from: issue 40 item 11 (a path in an example written with four backslashes)
def read(path):
    """>>> read('C:\\\\data\\\\new.txt')
    'ok'
    """
#: Okay
# from: issue 40 item 11 (a tab between words, not a path: `\\t` written for it)
def fields(line):
    """>>> fields('name\\tvalue')
    ['name', 'value']
    """
