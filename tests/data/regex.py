# ESC401/ESC402 unit cases: every import form and call shape.
# Format as in invalid.py (CODE:LINE:COL, LINE within the case, COL from 1).
#: ESC401:2:16
import re
re.sub('(a)', '\1', s)
#: ESC401:2:15
import re as r
r.sub('(a)', '\1', s)
#: ESC401:2:13
from re import sub
sub('(a)', '\1', s)
#: ESC401:2:8
from regex import compile as rc
rc('(a)\1')
#: ESC402:2:15 ESC402:2:18
import regex
regex.search('\bx\b', s)
#: ESC401:2:20 ESC401:2:31
import re
re.sub(pattern='(a)\1', repl='\2', string=s)
#: ESC401:3:8
import re
p = re.compile('(a)')
p.sub('\1', s)
#: ESC401:2:20
import re
re.compile(x).sub('\1', s)
#: ESC401:3:11
import re
m = re.match('(a)', s)
m.expand('\1')
#: ESC401:3:21
import re
if (m := re.search('(a)', s)):
    print(m.expand('\1'))
#: ESC401:3:21
import re
for m in re.finditer('(a)', s):
    print(m.expand('\1'))
#: ESC401:7:28
import re
class C:
    def __init__(self):
        self.p = re.compile('(a)')

    def f(self, s):
        return self.p.sub('\1', s)
#: ESC401:1:24
df.str.replace('(a)', '\1', regex=True)
#: Okay
# Without regex=True, pandas replaces literally: no regex, no report.
df.str.replace('(a)', '\1')
#: ESC402:1:18
df.str.contains('\bx')
#: Okay
df.str.contains('\bx', regex=False)
#: ESC402:2:13 ESC402:2:17
import re
re.compile('\b%s\b' % word)
#: ESC402:2:13 ESC402:2:17
import re
re.compile('\b{}\b'.format(word))
#: ESC402:2:13 ESC402:2:16
import re
re.compile('\b|\b'.join(words))
#: ESC402:2:13 ESC402:2:27
import re
re.compile('\b' + word + '\b')
#: ESC402:2:14 ESC402:2:22
import re
re.compile(f'\b{word}\b')
#: ESC402:2:13 ESC402:2:29
import re
re.compile('\bx' if a else '\by')
#: ESC401:2:19
import re
re.compile('(a)' '\1')
#: ESC401:2:10 ESC401:2:13
import re
subst = '\1 \2'
result = re.sub(p, subst, text)
#: ESC402:2:12 ESC402:2:18
import re
pattern = '\bword\b'
found = re.findall(pattern, text)
#: ESC401:2:17
import re
re.compile(b'(a)\1')
#: Okay
import re
re.sub('(a)', r'\1', s), re.sub('(a)', '\\1', s), re.compile(r'\bx\b'), re.compile('\\bx')
#: Okay
# \0 and three-digit octal escapes are octal to re as well: same value.
import re
re.sub('(a)', '\0', s), re.sub('x', '\033[0m', s), re.compile('\101'), re.compile('\50')
#: Okay
# Inside a character class re reads \b and \1 as characters too.
import re
re.compile('[\b]'), re.compile('[\1-\37]')
#: Okay
# pydoc removes terminal overstrike with a pattern that is all backspaces.
import re
re.sub('.\b', '', text), re.compile('\b.')
#: Okay
import re
re.compile('\n\t'), re.sub('x', '\n', s)
#: Okay
# An octal escape with no regex around it is a control character on purpose.
SOH = '\1'
#: ESC401:2:7 ESC401:2:10 ESC301:2:23 ESC401:2:44 ESC401:2:47 ESC401:2:51
"""Example::
    (<\1>\2) Regex(r"(\w+):(.*?):").sub(r"<\1>\2</\1>")
"""
#: ESC301:2:40
# Serialized tables are mostly escapes: data, not a regex.
ATN = "\3\u608b\ua72b\b\4\t\4\4\t\1(\2)\w"
#: Okay
# A pattern with no group cannot hold a backreference: '\1' is the character.
import re
re.compile('\1\n'), re.search(b'\2\n', data)
#: ESC401:2:13 ESC401:3:12 ESC401:5:9 ESC401:5:12 ESC401:5:16
import re
re.compile('\1\n(a)')
re.sub('(a)\1', '', s)
# Numbered escapes in a row are a template in the pattern's place.
re.sub('\1.\2. \3', '', s)
#: ESC301:9:26
# A string statement that is not a docstring is thrown away (code kept in a
# string to disable it): what it spells changes nothing.
def login(self):
    self.connect()
    """
    form = self._search_regex(r'(?P<form><form[^>]+id=(["\'])%s\2)' % FORM, page)
    """
    if ok:
        '''x = re.sub(r"(\w+)", "<\1>", s)'''
#: ESC301:2:28 ESC401:2:37 ESC401:5:28
def login(self):
    """Disabled: re.sub(r"(\w+)", "<\1>", s)"""
class Form:
    """The template of the form."""
    y = re.sub(r"(\w+)", "<\1>", s)
#: Okay
# '\b' among other terminal controls is a backspace on purpose.
import re
re.compile('(\a|\b|\r(?!\n))'), re.compile('\x1b|\b')
#: Okay
# Names are resolved per scope: the parameter SEP shadows the module's SEP.
import re
SEP = '\1'
def join(text, SEP=' '):
    return re.sub('(a)', SEP, text)
#: ESC401:4:21
# ... and a string default is what the parameter holds.
import re
SEP = ' '
def join(text, SEP='\1'):
    return re.sub('(a)', SEP, text)
#: Okay
# A name bound in a function shadows the module's binding from its first line.
import re
REPL = '\1'
def f(s):
    REPL = r'\1'
    return re.sub('(a)', REPL, s)
#: ESC401:3:9
# A class body's names are not seen from its methods; the module's are.
import re
REPL = '\1'
class C:
    REPL = r'\1'
    def f(self, s):
        return re.sub('(a)', REPL, s)
#: Okay
# A loop variable no longer holds the module's string.
import re
REPL = '\1'
def f(s, rules):
    for REPL in rules:
        s = re.sub('(a)', REPL, s)
    return s
#: ESC401:3:6
# x = f(x): the argument is the binding before the statement.
import re
x = '\1'
x = re.sub('(a)', x, s)
#: ESC401:4:25
# A module pattern defined below the function that uses it is there when it runs.
import re
def f(s):
    return PATTERN.sub('\1', s)
PATTERN = re.compile('(a)')
#: Okay
# ']' first in a character class (or after '[^') is a member, not its end.
import re
re.compile('x[]a\b]'), re.compile('[^]\b]'), re.compile('[\\]\b]')
#: ESC402:2:17 ESC402:2:41
import re
re.compile('[]]x\b'), re.compile('[\\\\]\b')
#: Okay
# A control character the module also looks for is a marker it put there.
import re
def protect(s):
    s = re.sub(r'(\})', '\1', s)
    s = transform(s)
    return s.replace('\1', '}')
#: Okay
import re
def cells(pattern, text):
    text = re.sub(pattern, '\1', text)
    return text.split('\1')
#: Okay
import re
def mark(text):
    return re.sub('(a)', '\2', text)
def unmark(text):
    return re.sub('\2', '', text) if '\2' in text else text
#: ESC401:4:29
# ... but only that character, looked for by another literal.
import re
def cells(pattern, text):
    text = re.sub(pattern, '\1', text)
    return text.split('\2')
#: Okay
# A literal that also spells a backreference right, or a NUL, is a marker string.
import re
re.sub('(a)', '\\1\1', s), re.sub('(a)', '\0\1', s), re.sub('(a)', '\x00\1', s)
#: ESC401:5:36
# unittest's regex assertions, pytest's match=, Django's url patterns.
import unittest
class T(unittest.TestCase):
    def test(self):
        self.assertRegex(text, '(a)\1')
#: ESC402:3:43 ESC402:3:48
import pytest
def test():
    with pytest.raises(ValueError, match='\bnot\b'):
        f()
#: ESC402:2:12 ESC402:4:14
from django.urls import re_path
re_path('^a\b', view)
from django.conf.urls import url
url(regex='^b\b', view=view)
#: ESC401:4:42
# A rule table pairing a compiled pattern with its replacement.
import re
RULES = [
    (re.compile(r"\.([\.]+)"), " DOTMULTI\1"),
    [re.compile(r"(\w+)'s"), r"\1 's"],
]
#: ESC402:6:28 ESC402:7:40
# Pygments lexer tables: the first item of each rule is a pattern.
from pygments.lexer import RegexLexer, words
from pygments.token import Keyword, Name
class JsonishLexer(RegexLexer):
    tokens = {'root': [
        ('(true|false|null)\b', Keyword.Constant),
        (words(('if', 'else'), suffix='\b'), Keyword),
        (r'\w+', Name),
    ]}
#: Okay
# ... only in a lexer class.
class Table:
    tokens = {'root': [
        ('(true|false|null)\b', 'keyword'),
    ]}
#: ESC401:3:19 ESC402:6:22
# A loop that unpacks a rule table: its names hold any of the table's strings.
import re
RULES = {'(a)': 'x\1', 'b': 'c'}
for pattern, repl in RULES.items():
    s = re.sub(pattern, repl, s)
for word in ['yes', '\bno']:
    found = re.search(word, s)
#: ESC401:2:19
import re
PAIRS = [('(a)', '\1'), ('(b)', r'\1')]
def clean(s):
    for pattern, repl in PAIRS:
        s = re.sub(pattern, repl, s)
    return s
#: Okay
# A name the loop does not unpack from a table holds no string.
import re
REPL = '\1'
for REPL in get_rules():
    s = re.sub('(a)', REPL, s)
#: Okay
# Only .items() of a table is unpacked into keys and values.
import re
RULES = {'(a)': '\1'}
for pattern, repl in RULES.values():
    s = re.sub(pattern, repl, s)
for pattern, repl in RULES.get(x):
    s = re.sub(pattern, repl, s)
