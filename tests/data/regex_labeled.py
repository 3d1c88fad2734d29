# Labeled ESC4xx cases, each written here in the shape of real code and
# citing where that shape comes from ("# from:").  Only ESC4xx codes count
# in the score (tests/test_regex.py); other codes in a case are ignored.
# Hazards: a report is expected.  Clean: look-alikes that must stay quiet.
#
# --- hazards ---------------------------------------------------------------
#: ESC402:3:15 ESC402:3:27
# from: pygments/pygments pygments/lexers/int_fiction.py (analyse_text; found by tests/survey.py)
import re
if re.search('\borigsource\b', text, re.IGNORECASE):
    result += 0.05
#: ESC402:3:54
# from: decalage2/oletools oletools/olevba.py (RE_PATTERNS e-mail, fixed in PR 892)
import re
EMAIL = re.compile(r'[a-zA-Z0-9._%+-]+@' + SERVER + '\b')
#: ESC401:4:11 ESC401:4:15 ESC401:4:17 ESC401:4:20
# from: firasdib/Regex101 issue 324 (code generator output)
import re
p = re.compile(u'(http:)(.*?)(.org)(ontology|.*)')
subst = u"\1//\2\3/\4/"
result = re.sub(p, subst, test_str)
#: ESC401:3:18
# from: firasdib/Regex101 issue 357 (code generator output)
import re
subst = u"select \1"
result = re.sub(regex, subst, test_str)
#: ESC401:3:12
# from: firasdib/Regex101 issue 412 (code generator output)
import re
subst = u" \2"
result = re.sub(p, subst, test_str)
#: ESC401:3:25 ESC401:3:31 ESC401:3:35 ESC401:3:41
# from: firasdib/Regex101 issue 1987 (replacement with several groups)
import re
result = re.sub(regex, "\1(-) \2\n\4(-) \5", test_str, 0, re.MULTILINE)
#: ESC401:3:47 ESC401:3:50 ESC401:3:54
# from: pyparsing/pyparsing pyparsing.py (docstring quoted in the seed article, 2019)
"""Example::
    make_html = Regex(r"(\w+):(.*?):").sub(r"<\1>\2</\1>")
"""
#: ESC401:4:49 ESC401:4:52
# from: nltk/nltk nltk/tokenize/treebank.py (3.2.5, TreebankWordDetokenizer docstring; found by tests/survey.py)
"""
      only left shift is necessary and we keep right pad after comma/colon
      Thus (re.compile(r'\s([:,])\s([^\d])'), r'\1 \2')
"""
#: ESC401:5:29
# from: python/cpython issue 106419 (reproduction: a replacement built with +)
import re
C = '\N{LATIN CAPITAL LETTER C}'
rex = '([AB])'
res4 = re.sub(rex + C, C + '\1', 'BC')
#
# --- clean look-alikes -----------------------------------------------------
#: Okay
# from: python/cpython Lib/pydoc.py (plain(): strips terminal overstrike)
import re
text = re.sub('.\b', '', text)
#: Okay
# from: python/cpython Lib/test/test_pydoc.py
import re
patt = re.compile('\b.')
output = patt.sub('', output)
#: Okay
# from: micropython/micropython pull request 3815 (octal byte, escaped group)
import re
re.sub(r'(123)', '456\072\\1', 'abc123def')
#: Okay
# from: akm4545/python_study unit43/sub.py
import re
re.sub('([a-z]+) ([0-9]+)', '\\2 \\1 \\2 \\1', 'hello 1234')
#: Okay
# from: akm4545/python_study unit43/sub.py
import re
re.sub('({\s*)"(\w+)":\s*"(\w+)"(\s*})', '<\\2>\\3</\\2>', '{ "name": "james" }')
#: Okay
# from: reyou/Ggg.Python apps/app-docs/documentation/re/sub-ggg.py
import re
res = re.sub(r'def\s+([a-zA-Z_][a-zA-Z_0-9]*)\s*\(\s*\):',
             r'static PyObject*\npy_\1(void)\n{', 'def myfunc():')
#: Okay
# from: spy86/CheatSheetCollection Python_Examples/PythonReSub.md
import re
result = re.sub('abc(def)ghi', r'\1', input)
#: Okay
# from: rahul94jh/Regex_python_prac regex_backreference.py
import re
O_ZERO = re.compile(r"(z)oo(t)")
print(O_ZERO.sub(r"\g<1>00\g<2>", tt))
#: Okay
# from: 3zachm/chat-counter utils/utils.py
import re
def findWholeWord(w):
    return re.compile(r'\b({0})\b'.format(w), flags=re.IGNORECASE).search
#: Okay
# from: LeadShadow/hw_timoha hw11/task1.py
import re
urls = re.findall(r'https?://(?:[-\w.]|(?:%[Aa]{2}))+', text_url)
#: Okay
# from: dhy-git/Algorithms-notes testcode/URLcatch.py (ESC301 only: \w, \d)
import re
url = re.findall('https?://(?:[-\w.]|(?:%[\da-fA-F]{2}))+', string)
#: Okay
# from: holdenweb/pyinterex ppfiles/test3.pp
import re
re.sub("1", "\\n", "123123123123")
re.sub("@(=\+=)*@", "xxx", "@@")
#: Okay
# from: hr5h/training_system_regex solutions/PT4WorkPy/Reg0Begin4.pyw
import re
regex = R"\d+"
res = re.sub(regex, replace, str)
#: Okay
# from: mrabarnett/mrab-regex regex/tests/test_regex.py (found by tests/survey.py: '\50' is '(')
import regex
regex.compile(b'00000\\0\\00\\^\50\\00\\U05000000')
#: Okay
# from: zetaloop/BetterWX pull request 50 (bytes replacement built with \\g<N>)
repl_bytes += f"\\g<{group_count}>".encode()
#: Okay
# from: silviabelusakova/Python_course D3_4/reg_ex/case_sens.py
import re
pattern = re.compile(r'[A-Z][^\s\.]+')
#: Okay
# from: data-python/demo-python3-2018 start/str-regex/re-sub.py (ESC301 only: \d)
import re
print(re.sub('(?P<value>\d+)', double, s))
#: Okay
# from: Timofey-Pasichnik/Python-lessons Lessons/l23regexp.py
import re
textlookfor = r"\w+"
allresults = re.findall(textlookfor, mytext)
#: Okay
# from: mr-nfamous/scripts trivialities/wrangler.py (ESC301 only: \A, \Z)
import re
pat = re.compile('\A'
                 '__'
                 '[0-9A-Za-z]'
                 '(?<!__)'
                 '\Z')
#: Okay
# from: jisazaTappsi/shatter boolean_solver/constants.py
import re
DEFINITION_PATTERN = re.compile(r"^\s*def\s*(\w+)\(\s*\w*\s*(,\s*\w+\s*)*\)\s*:")
#: Okay
# from: ipython/ipython IPython/qt/console/ansi_code_processor.py (2.3.1; found by tests/survey.py)
import re
ANSI_OR_SPECIAL_PATTERN = re.compile('(\a|\b|\r(?!\n)|\r?\n)|(?:%s)' % ANSI_PATTERN)
