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
#: ESC402:3:23 ESC402:3:56 ESC402:4:21 ESC402:4:70
# from: dirtyfilthy/freshonions-torscraper pull request 12 (bitcoin and e-mail patterns missing the r)
import re
BITCOIN = re.compile('\b[13][a-km-zA-HJ-NP-Z1-9]{25,34}\b')
EMAIL = re.compile('\b[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+[.][A-Za-z]{2,}\b')
#: ESC401:3:31
# from: jpadilla/django-dotenv pull request 18 (unescaping a quoted value: the backreference needed a raw string)
import re
value = re.sub(r'\\([\\"])', '\1', value)
#: ESC401:3:37
# from: sublimehq/Packages pull request 2454 (CSS completion labels showed <0x01>)
import re
label = re.sub(r'\$\{\d+:(\w+)\}', '\1', completion)
#: ESC402:5:20 ESC402:5:25 ESC402:6:20 ESC402:6:27
# from: attardi/wikiextractor WikiExtractor.py (sharp_expr; the same lines live on in many forks)
import re
def sharp_expr(expr):
    expr = re.sub('mod', '%', expr)
    expr = re.sub('\bdiv\b', '/', expr)
    expr = re.sub('\bround\b', '|ROUND|', expr)
    return expr
#: ESC402:3:11 ESC402:3:16
# from: developmentality.wordpress.com 2011-09-22 "Python Gotcha: Word boundaries in regular expressions"
import re
re.match("\bthe\b", "the")
#: ESC402:4:16 ESC402:4:21
# from: e-learn.cn qa/answer/20002 (Stack Overflow question: a word-boundary search that never matches)
import re
x = 'one two three'
y = re.search("\btwo\b", x)
#: ESC402:3:13 ESC402:3:19
# from: errorhandle.ai is-there-a-way-to-use-b-in-byte-regex-python (bytes pattern)
import re
re.search(b'\bword\b', b'this is a word')
#: ESC401:3:21
# from: geek-answers.imtqy.com articles/1573863 (a backreference in a non-raw pattern)
import re
m = re.search("\s(.)\1\s", "a 33 c")
#: ESC401:5:13
# from: newbetuts.com 6711567 (Stack Overflow: replace using a captured group)
import re
s = "the blue dog and blue cat wore blue hats"
p = re.compile(r"blue (dog|cat)")
p.sub('gray \1', s)
#: ESC402:3:19 ESC402:3:25
# from: errorhandle.ai python-regex-escape-operator-in-substitutions-raw-strings
import re
print(re.findall("\bword\b", "A word is here"))
#: ESC401:3:28
# from: wiki.gubat.org stackoverflow 36058762 (replacement rules kept in a dict, unpacked by a loop)
import re
rules = {'.(?P<word>\w)': '\1', 'text1': 'text2'}
for pattern, replacement in rules.items():
    text = re.sub(pattern, replacement, text)
#: ESC402:3:23
# from: internetarchive/openlibrary openlibrary/catalog (re_skip, repeated in several catalog scripts of 2009-2010)
import re
re_skip = re.compile('\b([A-Z]|Co|Dr|Jr|Capt|Mr|Mrs|Ms|Prof|Rev|Revd|Hon)\.$')
def has_dot(s):
    return s.endswith('.') and not re_skip.search(s)
#: ESC402:3:23 ESC402:3:30 ESC402:3:35 ESC402:3:41 ESC402:3:46 ESC402:3:53
# from: NARKOZ/hacker-scripts python/kumar_asshole.py (the words to look for in Kumar's e-mail)
import re
pattern = re.compile("\bsorry\b | \bhelp\b | \bwrong\b ", flags=re.I)
#: ESC402:3:30 ESC402:3:37 ESC402:3:40 ESC402:3:59
# from: thiswillbeyourgithub/AnnA_Anki_neuronal_Appendix AnnA.py (stop words as one alternation)
import re
stopw_compiled = re.compile("\b" + "\b|\b".join(stops) + "\b", flags=re.MULTILINE | re.IGNORECASE)
#: ESC402:3:37 ESC402:3:46 ESC402:5:16 ESC402:5:25
# from: WantedTechnologies/xpresso README.md (the Python side of its comparisons: long words)
import re
for long_word_match in re.finditer("\b\w{10,}\b", text):
    print(long_word_match.group(0))
text = re.sub("\b\w{10,}\b", to_upper_case, text)
#: ESC402:4:29 ESC402:4:34
# from: amperser/proselint proselint/checks/misc/waxed.py (the early exit that never lets a text through)
import re
def check(text):
    if not any(re.finditer("\bwax\b", text, re.IGNORECASE)):
        return []
    return preferred_forms_check(text, ITEMS, ERR, MSG)
#: ESC402:7:36 ESC402:7:48
# from: GEMINI-Medicine/pyDeid src/pyDeid/phi_types/names.py (is_probably_name: the all-caps branch lost its r)
import re
def is_probably_name(key, phi):
    return (not is_common(key.phi)
            or (is_type(key, 'Name', True, phi)
                and (re.search(r'\b(([A-Z])([a-z]+))\b', key.phi)
                     or re.search('\b(([A-Z]+))\b', key.phi))))
#: ESC402:3:14
# from: satwikkansal/wtfpython pull request 249 (README "Blurred boundaries": cooked literals as patterns)
import re
re.match('wtf\b', 'wtf')
re.match('wtf\B', 'wtfwtf')
#: ESC401:7:58 ESC401:7:60 ESC401:7:63
# from: cargo8/PennAppsF12 SmtpApiHeader.py (SendGrid's X-SMTPAPI header helper, copied into many projects)
import json
import re
class SmtpApiHeader:
    def as_json(self):
        j = json.dumps(self.data)
        return re.compile('(["\]}])([,:])(["\[{])').sub('\1\2 \3', j)
#: ESC401:6:27
# from: lockss/lockss-daemon scripts/tdb/tdbxml.py (a revision with the patterns compiled once; the first one had r'\1')
import re
RE_VOLUME = re.compile(r'Volume\s+(\S+)$')
RE_WHITE = re.compile(r'\s+')
def short_au_name(au):
    name = RE_VOLUME.sub('\1', au.name())
    return RE_WHITE.sub('', name)
#: ESC401:6:38 ESC401:6:41 ESC401:6:45 ESC401:9:38 ESC401:9:42
# from: estnltk/estnltk estnltk/taggers/text_segmentation/patterns.py (initials: the template passed where the pattern goes)
import re
initial_patterns = [
    {'pattern_type': 'name',
     'example': 'A. H. Tammsaare',
     'normalized': lambda m: re.sub('\1.\2. \3', '', m.group(0))},
    {'pattern_type': 'name',
     'example': 'A. Hein',
     'normalized': lambda m: re.sub('\1. \2', '', m.group(0))},
]
#: ESC401:7:47 ESC401:7:51
# from: buildbot (PyPI 0.8.5) buildbot/status/web/base.py (changelinkfilter docstring; found by surveying old PyPI releases)
def changelinkfilter(changelink):
    ''' Returns a function that adds links to bug ids in comments.

        @param changelink: a tuple of
            1. a regex to match what we look for
            2. an url with regex refs (\g<0>, \1, \2, etc) for the href
    '''
#: ESC401:5:11
# from: forum.html.it thread 2950612 (the rules kept in a dict: a known miss, the dict is not followed)
import re
matches = {
    'a': '(.*)',
    'b': '\1',
}
result = re.sub(r'' + matches['a'], r'' + matches['b'], 'Prova')
#: ESC401:7:29 ESC401:10:31
# from: evennia/evennia evennia/contrib/rpsystem.py (ordered_permutation_regex and parse_language strip the {#nnn} markers)
import re
_RE_REF = re.compile(r"\{+\#([0-9]+)\}+")
_RE_REF_LANG = re.compile(r"\{+\##([0-9]+)\}+")
def ordered_permutation_regex(sentence):
    # escape {#nnn} markers from sentence, replace with nnn
    sentence = _RE_REF.sub("\1", sentence)
    return sentence.split()
def parse_language(speaker, emote):
    emote = _RE_REF_LANG.sub("\1", emote)
    return emote
#: ESC401:6:46
# from: mailpile/Mailpile issue 1626 (mailpile/mailutils.py: the alt text of an image in an HTML mail)
import re
class HTMLCleaner:
    RE_HTML_IMG_ALT = re.compile(r'<img[^>]+alt=["\']([^"\']+)["\'][^>]*>', re.I)
    def img_alt(self, tag):
        return re.sub(self.RE_HTML_IMG_ALT, '\1', tag).strip()
#: ESC401:7:30 ESC401:7:40
# from: mediamatic/ikdisplay ikdisplay/source.py (activity stream: the URL of the actor's figure, through Match.expand)
import re
def figure_uri(payload):
    actor_uri = str(payload.author.uri)
    match = re.match(r'^(http://[^/]+)/id/(\d+)$', actor_uri)
    if match:
        return match.expand('\1/figure/\2?width=80&height=80')
    return None
#: ESC402:3:27 ESC402:3:42 ESC402:8:25 ESC402:8:29
# from: ethanrowe/python-data-packager data_packager/__init__.py (the requirement check: '\b' around each name)
import re
REQ_PATTERN = re.compile('\bdata_packager\b')
INSTALL_REQUIREMENTS = ['data_packager']
def merge_install_requires(reqs):
    reqs = list(reqs)
    for req in INSTALL_REQUIREMENTS:
        p = re.compile('\b%s\b' % req)
        if not any(p.match(r) for r in reqs):
            reqs.append(req)
    return reqs
#: ESC402:3:9 ESC402:3:14
# from: www.tanhaa.net 2013/06/21 "Python RE Module: Word Boundaries" (the pattern kept in a name first)
import re
patt = "\bcat\b"
text = "My cat is brown"
print(re.search(patt, text).group())
#: ESC402:3:22
# from: cofoh.com advanced-regex-tutorial-python/formatting ("wrong! \b is ASCII backspace character")
import re
regularexpression = "\byellow"
found = re.search(regularexpression, "mellow yellow")
#: ESC401:5:65 ESC401:6:65 ESC401:7:56 ESC401:7:59
# from: pallets/jinja ext/django2jinja/django2jinja.py (Jinja2 2.6: the example in the module docstring; found by surveying old PyPI releases)
"""
    Here is an example how to translate your django variables to jinja2::

        var_re = ((re.compile(r"(u|user)\.is_authenticated"), r"\1.is_authenticated()", None),
                  (re.compile(r"\.get_([0-9_\w]+)_url"), r".get_\1_url()", None),
                  (re.compile(r"\.([0-9])($|\s+)"), r"[\1]\2", None),
        )
"""
#: ESC401:7:42
# from: txt2tags/txt2tags test/lib.py (remove_version: both sides of the comparison get the same U+0001, so the tests still pass)
import re
def remove_version(text):
    version_re = r'\d+\.\d+\.?(\d+)?'
    for regex in [r'(Txt2tags) %(version_re)s',
                  r'(txt2tags version) %(version_re)s']:
        text = re.sub(regex % locals(), '\1', text)
    return text
#: ESC401:4:35
# from: estraier/bikibikibob bbb_generate.py (PrintRichPhrase: [phrase] loses its brackets and its text)
import re
def print_rich_phrase(P, index, text):
    text = re.sub(r"^\[(.*)\]$", "\1", text)
    match = re.fullmatch(r"\*(.*)\*", text)
    if match:
        P('<b>{}</b>', match.group(1), end="")
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
#: Okay
# from: klova9/Python Python-main/src/package_klova9/Practice/RegEx/remove_repeats.py
import re
search = re.sub(r'(\b\w+\b)\W+\1', r'\1', sample)
#: Okay
# from: j3ffyang/ai scripts/regex_match_seq.py
import re
pattern = r"(.+) \1"
match = re.match(pattern, "word word")
#: Okay
# from: toppython425/ClassWork419 _02_PythonAdvanced/module_11_regex_adv/_03_practice/_02_multiple_words/main2.py
import re
pattern = re.compile(r'\b(\w+)\s+\1\b')
duplicates = re.findall(pattern, text)
#: Okay
# from: chucklu/PythonTest homework6/re-test.py
import re
mat = re.search(r'\b(?P<word>\w+)\s+(?P=word)', txt)
#: Okay
# from: duzhaoqi/myReptile 04re/03re-sub.py
import re
regex = re.compile(r'(\w+) (\w+)')
print(regex.sub(r'\2 \1', s2))
#: Okay
# from: firasdib/Regex101 issue 2587 (generated replacement with a doubled backslash)
import re
subst = "(\\1*2)"
result = regex.sub(subst, test_str)
#: Okay
# from: kiwix.lema.org stackoverflow 28838411 ('\\1' then digits: an re-level octal, not a literal escape)
import re
re.sub('0x(..)' + format(old_value, '02x'), '0x\\1' + format(new_value, '02x'), '0xab01')
#: Okay
# from: python/cpython Lib/sysconfig/__init__.py (parse_config_h: a newline in a pattern)
import re
define_rx = re.compile("#define ([A-Z][A-Za-z0-9_]+) (.*)\n")
undef_rx = re.compile("/[*] #undef ([A-Z][A-Za-z0-9_]+) [*]/\n")
#: Okay
# from: python/cpython Lib/textwrap.py (tabs in patterns)
import re
_whitespace_only_re = re.compile('^[ \t]+$', re.MULTILINE)
_leading_whitespace_re = re.compile('(^[ \t]*)(?:[^ \t\n])', re.MULTILINE)
#: Okay
# from: python/cpython Lib/urllib/request.py (AbstractBasicAuthHandler realm)
import re
match = re.match('[ \t]*([^ \t]+)[ \t]+realm="([^"]*)"', stuff)
#: Okay
# from: python/cpython Lib/doctest.py (BLANKLINE marker)
import re
got = re.sub('(?m)^[ ]*(?=\n)', BLANKLINE_MARKER, got)
#: Okay
# from: pygments/pygments pygments/lexer.py
import re
line_re = re.compile('.*?\n')
#: Okay
# from: pypa/distlib distlib/scripts.py (bytes pattern with a tab)
import re
FIRST_LINE_RE = re.compile(b'^#!.*pythonw?[0-9.]*([ \t].*)?$')
#: Okay
# from: getmoto/moto moto/dynamodb/models/__init__.py
import re
update_expression = re.sub(r"\s*([=\+-])\s*", "\\1", update_expression)
#: Okay
# from: scipy/scipy scipy/linalg/lapack.py (docstring rewrite with a doubled backreference)
import re
routine.__doc__ = p2.sub('Default ``\\1``\n', routine.__doc__)
#: Okay
# from: docutils (sourceforge mirror docutils/docutils) docutils/transforms/universal.py (NUL in a lookbehind)
import re
txt = re.sub('(?<=\x00)([-\\\'".`])', r'\\\1', str(node))
#: Okay
# from: python/cpython Lib/fnmatch.py
import re
stuff = re.sub(r'([&~|])', r'\\\1', stuff)
#: Okay
# from: tartley/colorama colorama/ansitowin32.py (readline markers \001 and \002 around ANSI codes)
import re
ANSI_CSI_RE = re.compile('\001?\033\\[((?:\\d|;)*)([a-zA-Z])\002?')
ANSI_OSC_RE = re.compile('\001?\033\\]([^\a]*)(\a)\002?')
#: Okay
# from: python/cpython Lib/tarfile.py (nts: NUL as a terminator, not a regex)
def nts(s, encoding, errors):
    p = s.find(b"\0")
    if p != -1:
        s = s[:p]
    return s.decode(encoding, errors)
#: Okay
# from: astral-sh/ruff issue 19707 (octal escapes with a leading 0 mean the same raw or not)
import re
print(re.findall("\0|\07|\014", "\0\a\f"))
print(re.findall(b"\0|\07|\014", b"\0\a\f"))
#: Okay
# from: astral-sh/ruff issue 14529 (control characters in a character class)
import re
_RE_STRIP = re.compile("[ \t\r\n]+")
#: Okay
# from: mercurial (PyPI 4.5) mercurial/filelog.py (the '\1\n' marker around file metadata; found by tests/survey.py)
import re
_mdre = re.compile('\1\n')
def parsemeta(text):
    if text[:2] != '\1\n':
        return None, None
    end = _mdre.search(text, 2).start()
    return text[2:end], end + 2
#: Okay
# from: ytdl-org/youtube-dl youtube_dl/extractor/crunchyroll.py (2018.02.26: an old login kept in a string; found by tests/survey.py)
def _login(self):
    self._download_webpage(self._LOGIN_URL, None, data=form)
    '''
    login_form_str = self._search_regex(
        r'(?P<form><form[^>]+?id=(["\'])%s\2[^>]*>)' % self._LOGIN_FORM,
        login_page, 'login form', group='form')
    '''
#: Okay
# from: mjg/dblatex-hg lib/dbtexmf/dblatex/texhyphen.py (BasicHyphenator: '\1' marks the hyphenation points, then becomes \-)
import re
class BasicHyphenator:
    def hyphenate(self, text):
        ntext = "\1".join(list(text)).encode()
        ntext = re.sub(b"\1? \1?", b" ", ntext)
        return ntext.replace(b"\1", self.hyphenchar)
