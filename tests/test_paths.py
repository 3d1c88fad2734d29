"""ESC501 beyond the data cases: the labeled set's score, and flake8 end to end.

The rules for each shape are data cases in tests/data/paths.py.
"""
from __future__ import annotations

import ast
import io
import warnings

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from flake8_escapes import apis, checks, fix, paths, source
from flake8_escapes.commands import check as check_command
from helpers import data_cases, finders, labeled_score, processor_for, results
from test_flake8 import flake8


def test_labeled_set_precision_and_recall():
    score = labeled_score('paths_labeled.py', ('ESC501',))
    assert score['hazard cases'] >= 40 and score['clean cases'] >= 40, score
    assert score['fp'] == 0, score
    assert score['tp'] / (score['tp'] + score['fn']) >= 0.9, score


BAD = "import os\nos.chdir('C:\\new')\nmemo = '..\\training\\new_memo.doc'\nlabel = 'A:\\b'\n"


def test_end_to_end(tmp_path):
    (tmp_path / 'bad.py').write_text(BAD)
    assert flake8(tmp_path, '--select=ESC', 'bad.py') == (1, [
        "bad.py:2:13: ESC501 '\\n' in a Windows path is a newline; use a raw string or forward slashes",
        "bad.py:3:11: ESC501 '\\t' in a Windows path is a tab; use a raw string or forward slashes",
        "bad.py:3:20: ESC501 '\\n' in a Windows path is a newline; use a raw string or forward slashes",
    ])


if __name__ == '__main__':
    print(labeled_score('paths_labeled.py', ('ESC501',)))


# Each exemption: its README example is quiet, and reported without the exemption ----------------

def run(src: str) -> tuple[set[str], list[paths.Silenced]]:
    """(``{'2:5 ESC501', ...}``, the silenced hazards) for ``src``, through ``checks.all_reports``."""
    processor = processor_for(lines=io.StringIO(src, newline=None).readlines())
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', SyntaxWarning)
        warnings.simplefilter('ignore', DeprecationWarning)
        tree, tokens = processor.build_ast(), processor.file_tokens
    silenced: list[paths.Silenced] = []
    found = checks.all_reports(tree, tokens, processor.lines, (), silenced=silenced)
    return {f'{report.line}:{report.col + 1} {report.code}' for report in found}, silenced


@pytest.mark.parametrize('exemption', paths.EXEMPTIONS, ids=lambda e: e.name)
def test_exemption_example_is_quiet_and_named(exemption):
    assert exemption.codes == ('ESC501',)
    found, silenced = run(exemption.example)
    assert not {item for item in found if item.endswith('ESC501')}
    assert {item.exemption for item in silenced if item.code == 'ESC501'} == {exemption.name}


@pytest.mark.parametrize('exemption', paths.EXEMPTIONS, ids=lambda e: e.name)
def test_exemption_example_is_reported_without_it(exemption, monkeypatch):
    others = tuple(item for item in paths.EXEMPTIONS if item is not exemption)
    monkeypatch.setattr(paths, 'EXEMPTIONS', others)
    found, silenced = run(exemption.example)
    assert {item for item in found if item.endswith('ESC501')}
    assert exemption.name not in {item.exemption for item in silenced}


# Each finding rule (issue 22): its README example is reported, and the report names the rule ------

def found_by(src: str) -> set[str]:
    """The finding rules of the ESC501 reports of ``src``."""
    return finders(src, 'ESC501')


@pytest.mark.parametrize('finder', paths.FINDERS, ids=lambda f: f.name)
def test_finder_example_is_reported_and_named(finder):
    assert found_by(finder.example) == {finder.name}


@pytest.mark.parametrize('src', [
    'print("Drive C:\\nFree space: %d" % free)\n',      # a drive, then a newline and text
    'code = "class A:\\n\\tx = 1"\n',                    # code in a string: one-letter names
    'row = "%s\\t%s" % (name, path)\n',                   # a template with no name of its own
    'text = "first\\\\nsecond\\nthird"\n',                # a doubled escape shown as text: no letter after it
    'x = "foo\\nbar"\nopen(x)\n',                        # joined names whose row does not say path
    'import os\nos.write(fd, b"id\\tname")\n',           # bytes data, and a row that says no path
    # shapes from the earlier surveys' first run (issue 22), each a false alarm then:
    "icon = b'MZ\\x90 C:\\x00ab\\x1dcd.txt'\n",           # a binary blob: bytes, hex escapes
    'm = "ok\\n> C:\\\\Users\\\\me\\\\.ssh\\\\dev1.local\\nSSH updated"\n',  # a doubled path, then a line
    'm = "{target}:\\n{tag}\\n... {count} more ...".format(**d)\n',  # a field before ':' is no drive
])
def test_finders_stay_quiet_on(src):
    assert not found_by(src)


# LaTeX templates written fully escaped (survey_compare_0.4.md, science2: md2latex-0.0.2): the
# ``\n`` is the line break the LaTeX output wants; TeX's ``{enumerate}`` after ``\\begin`` is no
# template field.  Read as one (``\\beginXX\nXX\\endXX``), the text fullmatched a UNC path.
#: (source, the ESC501 reports expected): the survey's probe lines a..h.
LATEX_TEMPLATES = [
    ("a = '\\\\begin{enumerate}\\n%s\\\\end{enumerate}' % body\n", set()),
    ("b = '\\\\begin{itemize}\\n\\\\item %s\\n\\\\end{itemize}' % body\n", set()),
    ("c = '\\\\section{%s}\\n\\\\label{%s}' % (x, y)\n", set()),
    ("d = '\\\\begin{%s}\\n%s\\\\end{%s}' % (env, body, env)\n", set()),
    ("e = '\\\\begin{figure}\\n{}\\\\end{figure}'.format(body)\n", set()),
    ("f = '\\\\textbf{%s}\\n%s\\\\par' % (x, y)\n", set()),
    ("g = '\\\\begin{enumerate}\\n\\\\end{enumerate}'\n", set()),
    # a UNC start written doubled, then a newline: still a path (the rule reads TeX, not paths)
    ("h = '\\\\\\\\server\\\\share\\n%s\\\\end' % x\n", {'1:23 ESC501'}),
    # the half-escaped form: ESC301 at \e, and no longer ESC501 (the same verdict as after its fix)
    ("a = '\\\\begin{enumerate}\\n%s\\end{enumerate}' % body\n", set()),
]


def _template_value(src: str) -> str:
    """The value CPython gives the template literal of a ``name = '...' % args`` row."""
    literal = src.split(' = ', 1)[1].rsplit(' % ', 1)[0].split('.format(')[0]
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', SyntaxWarning)
        warnings.simplefilter('ignore', DeprecationWarning)
        value: str = ast.literal_eval(literal)
    return value


@pytest.mark.parametrize('src, expected', LATEX_TEMPLATES)
def test_latex_templates_are_no_paths(src, expected):
    assert '\n' in _template_value(src)  # the line break LaTeX is meant to get
    found, _ = run(src)
    assert {item for item in found if item.endswith('ESC501')} == expected
    fixed = fix.fix_text(src, set(fix.SAFE + fix.UNSAFE)).text
    assert ('\n' in _template_value(fixed)) != bool(expected)  # fix --unsafe keeps a quiet one's line break


@pytest.mark.parametrize('src', [
    'open("output\\frames\\\\frame{}.png".format(i))\n',    # a field after letters that is no TeX argument
    'open("output\\frames\\\\frame{0}.png".format(i))\n',
])
def test_template_fields_after_letters_still_read(src):
    assert found_by(src) == {paths.TEMPLATE_FIELDS.name}


# Hand-written: which exemption keeps each of the look-alikes quiet.
SILENCED = [
    ('s = s.rstrip(".\\u3002\\uff0e\\uff61")\n', 'spelled-character'),
    ("chars = '\\\\-0-9\\u00B7\\u0300-\\u036F'\n", 'spelled-character'),
    ("host = 'pyth\\xf6n.org'\n", 'spelled-character'),
    # octal escapes that are a character's UTF-8 bytes (old code): an en dash, an e acute, an emoji
    ('name = u"name-\\342\\200\\223.txt"\n', 'spelled-character'),
    ("name = b'caf\\303\\251.txt'\n", 'spelled-character'),
    ("name = 'run-\\360\\237\\230\\200.log'\n", 'spelled-character'),
    ("user = '.\\\\Administrator\\x00'\n", 'terminator'),
    ("ini = 'c:\\\\boot.ini\\0'\n", 'terminator'),
    ("folder = 'C:\\\\Users\\\\caf\\u00e9\\N{DEGREE SIGN}'\n", 'escaped-path'),
    ("uri = 'c:/a/b\\xe9'\n", 'escaped-path'),
    ("tex = '\\\\item\\n'\n", 'line-ends'),
    ("label = 'Q:\\n'\n", 'line-ends'),
    ("crlf = 'test.txt\\n\\roverflow.txt'\n", 'line-ends'),
    ("text = 'see\\nREADME.txt'\n", 'whitespace-text'),
    ("name = 'file\\twith\\ttabs.txt'\n", 'whitespace-text'),
    ("wheel = 'foo\\n-1.0-py3-none-any.whl'\n", 'whitespace-text'),
    ("hint = '.\\test'\n", 'short-path'),
    ("name = '\\activate_this.py'\n", 'short-path'),
]


@pytest.mark.parametrize('src, name', SILENCED)
def test_look_alike_is_silenced_by(src, name):
    found, silenced = run(src)
    assert not found
    assert {item.exemption for item in silenced} == {name}


@pytest.mark.parametrize('src, expected', [
    # numbered folders: \202 and a 0, \201 and a 9 (no UTF-8 lead byte, nor continuation bytes)
    ("x = 'C:\\data\\2020\\2019\\new.txt'\n", {'1:8 ESC301', '1:13 ESC501', '1:18 ESC501', '1:23 ESC501'}),
    # a lead byte without its continuation bytes, and an overlong form (\300\200): no character
    ("x = 'name-\\342\\200.txt'\n", {'1:11 ESC501', '1:15 ESC501'}),
    ("x = 'name-\\300\\200.txt'\n", {'1:11 ESC501', '1:15 ESC501'}),
    # a path with a character spelled in a name: its escapes are reported, as for \xe9
    ("x = 'C:\\temp\\caf\\303\\251\\new.txt'\n",
     {'1:8 ESC501', '1:13 ESC301', '1:17 ESC501', '1:21 ESC501', '1:25 ESC501'}),
])
def test_octal_escapes_that_spell_no_character_are_separators(src, expected):
    assert run(src)[0] == expected


def test_terminator_alone_is_silenced_in_a_path():
    found, silenced = run("name = 'C:\\temp\\new.txt\\0'\n")
    assert found == {'1:11 ESC501', '1:16 ESC501'}
    assert silenced == [paths.Silenced(1, 23, 'ESC501', '\\0', 'terminator')]


# Each recognised path function: a short path (a drive and one name) is reported there ------------

#: (table entry, source whose last line holds one backslash, in the path argument:
#: 'C:\new', a drive and one name, or '\new.csv' after a path).
USES = [
    ('open', "open('C:\\new')\n"),
    ('io.open', "import io\nio.open('C:\\new')\n"),
    ('codecs.open', "import codecs\ncodecs.open('C:\\new')\n"),
    ('builtins.open', "import builtins\nbuiltins.open('C:\\new')\n"),
    ('zipfile.ZipFile', "import zipfile\nzipfile.ZipFile('C:\\new')\n"),
    ('tarfile.open', "import tarfile\ntarfile.open('C:\\new')\n"),
    ('subprocess.run', "import subprocess\nsubprocess.run(['C:\\new'])\n"),
    ('subprocess.call', "import subprocess\nsubprocess.call('C:\\new')\n"),
    ('subprocess.check_call', "import subprocess\nsubprocess.check_call('C:\\new')\n"),
    ('subprocess.check_output', "import subprocess\nsubprocess.check_output('C:\\new')\n"),
    ('subprocess.Popen', "import subprocess\nsubprocess.Popen('C:\\new')\n"),
    ('subprocess.getoutput', "import subprocess\nsubprocess.getoutput('C:\\new')\n"),
    ('subprocess.getstatusoutput', "import subprocess\nsubprocess.getstatusoutput('C:\\new')\n"),
    ('os', "import os\nos.chdir('C:\\new')\n"),
    ('os.path', "import os\nos.path.isdir('C:\\new')\n"),
    ('shutil', "import shutil\nshutil.rmtree('C:\\new')\n"),
    ('glob', "import glob\nglob.glob('C:\\new')\n"),
    ('pathlib', "import pathlib\npathlib.Path('C:\\new')\n"),
    ('PIL.Image.open', "from PIL import Image\nImage.open('C:\\new')\n"),
    ('PIL.ImageFont.truetype', "from PIL import ImageFont\nImageFont.truetype('C:\\new', 12)\n"),
    ('logging.FileHandler', "import logging\nlogging.FileHandler('C:\\new')\n"),
    ('logging.basicConfig', "import logging\nlogging.basicConfig(filename='C:\\new')\n"),
    ('sys.path.insert', "import sys\nsys.path.insert(0, 'C:\\new')\n"),
    ('sys.path.append', "import sys\nsys.path.append('C:\\new')\n"),
    ('pandas.read_excel', "import pandas as pd\npd.read_excel(io='C:\\new')\n"),
    ('to_excel', "frame.to_excel(excel_writer='C:\\new')\n"),
    # https://pandas.pydata.org/docs/reference/io.html: readers, and writers on a DataFrame or Series
    *((f'pandas.{name}', f"import pandas as pd\npd.{name}('C:\\new')\n") for name in (
        'read_csv', 'read_table', 'read_fwf', 'read_excel', 'read_json', 'read_html', 'read_xml',
        'read_parquet', 'read_orc', 'read_feather', 'read_pickle', 'read_hdf', 'read_stata', 'read_sas',
        'read_spss', 'ExcelFile', 'ExcelWriter', 'HDFStore')),
    *((name, f"frame.{name}('C:\\new')\n") for name in (
        'to_csv', 'to_excel', 'to_json', 'to_xml', 'to_parquet', 'to_orc', 'to_feather', 'to_pickle',
        'to_hdf', 'to_stata')),
    *((f'logging.handlers.{name}', f"from logging import handlers\nhandlers.{name}('C:\\new')\n")
      for name in ('RotatingFileHandler', 'TimedRotatingFileHandler', 'WatchedFileHandler')),
    *((f'numpy.{name}', f"import numpy as np\nnp.{name}('C:\\new')\n")
      for name in ('load', 'save', 'savez', 'loadtxt', 'savetxt', 'genfromtxt', 'fromfile')),
    # issue 22's imaging, ML, registry, browser, library and document APIs
    *((f'cv2.{name}', f"import cv2\ncv2.{name}('C:\\new')\n")
      for name in ('imread', 'imwrite', 'imreadmulti', 'VideoCapture', 'VideoWriter', 'CascadeClassifier')),
    ('torch.save', "import torch\ntorch.save(model, 'C:\\new')\n"),
    ('torch.load', "import torch\ntorch.load('C:\\new')\n"),
    *((f'{module}.{name}', f"import {module}\n{module}.{name}(HKEY, 'C:\\new')\n")
      for module in ('winreg', '_winreg') for name in ('OpenKey', 'OpenKeyEx', 'CreateKey', 'CreateKeyEx',
                                                       'DeleteKey', 'DeleteKeyEx', 'QueryValue', 'SetValue')),
    *((f'webbrowser.{name}', f"import webbrowser\nwebbrowser.{name}('C:\\new')\n")
      for name in ('open', 'open_new', 'open_new_tab')),
    *((f'ctypes.{name}', f"import ctypes\nctypes.{name}('C:\\new')\n")
      for name in ('CDLL', 'WinDLL', 'OleDLL', 'PyDLL', 'cdll.LoadLibrary', 'windll.LoadLibrary')),
    ('sqlite3.connect', "import sqlite3\nsqlite3.connect(database='C:\\new')\n"),
    ('h5py.File', "import h5py\nh5py.File('C:\\new', 'r')\n"),
    ('xlsxwriter.Workbook', "import xlsxwriter\nxlsxwriter.Workbook('C:\\new')\n"),
    ('openpyxl.load_workbook', "from openpyxl import load_workbook\nload_workbook('C:\\new')\n"),
    ('docx.Document', "from docx import Document\nDocument('C:\\new')\n"),
    # a literal added to a path: 'C:\\new' is not a file name, so '\\new.csv'
    *((name, f"import os, tempfile\np = {name}() + '\\new.csv'\n")
      for name in ('os.getcwd', 'os.getcwdb', 'tempfile.gettempdir', 'tempfile.mkdtemp')),
    *((name, f"import os\np = {name}(a, 'b') + '\\new.csv'\n") for name in (
        'os.path.join', 'os.path.dirname', 'os.path.abspath', 'os.path.realpath', 'os.path.normpath',
        'os.path.expanduser', 'os.path.expandvars', 'os.path.relpath')),
    ('os.getcwd', "import os\nhere = os.getcwd() + '/data' + '\\new.csv'\n"),
]


@pytest.mark.parametrize('entry, src', USES, ids=[use[0] for use in USES])
def test_path_function(entry, src):
    lines = src.splitlines()
    assert results(src) == {f'{len(lines)}:{lines[-1].index(chr(92)) + 1} ESC501'}


def test_every_path_table_entry_has_a_case():
    rows = apis.PATH_ROWS
    assert {row.role for row in rows} == {apis.PATH}
    entries = {row.name for row in rows} | apis.PATH_VALUE_FUNCTIONS
    assert {entry for entry, _ in USES} == entries


#: The other arguments of those functions are not paths.
NOT_PATHS = [
    "import logging\nlogging.basicConfig(format='C:\\new')\n",
    "from PIL import ImageFont\nImageFont.truetype(font, size, encoding='C:\\new')\n",
    "import sys\nsys.path.insert(0, name, 'C:\\new')\n",
    "frame.to_csv(out, sep='C:\\new')\n",
    "import pandas as pd\npd.read_csv(f, sep='C:\\new')\n",
    "import os\np = os.getenv('HOME') + '\\new.csv'\n",
    "import os\np = '\\new.csv' + os.getcwd()\n",
]


@pytest.mark.parametrize('src', NOT_PATHS)
def test_other_arguments_are_not_paths(src):
    assert results(src) == set()


@pytest.mark.parametrize('src', [
    *(src for _, src, expected in data_cases('paths_labeled.py') if expected),
    *(finder.example for finder in paths.FINDERS),
    'import os\nos.makedirs("%(root)s\\new_run" % names)\n',       # a named field before the escape
    'import os\nos.makedirs("%-8s\\new_run" % root)\n',
    'import os\nos.makedirs("{0!r}\\new_run".format(root))\n',
    'import os\nos.makedirs(f"{root!r:>{width}}\\new")\n',
    'x = """Usage:\nC:\\new\\tmp.txt\n"""\n',     # a drive at the start of a row of text
])
def test_no_esc501_on_a_row_source_leaves_unread(src):
    """``source.reportable_rows`` keeps every row an ESC501 report stands on (the finders' row hints)."""
    lines = io.StringIO(src, newline=None).readlines()
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', SyntaxWarning)
        warnings.simplefilter('ignore', DeprecationWarning)
        rows = set(source.reportable_rows(lines, source.Statements(ast.parse(src), len(lines))))
    # reported on the whole file's tokens (``run``), not through the rows under test
    reported = {int(item.split(':')[0]) for item in run(src)[0] if item.endswith('ESC501')}
    assert reported <= rows, (src, reported, rows)


# The row hints against the full tokens, over generated path literals (issue 34) ------------------
#
# ``source.reportable_rows`` keeps a row with only everyday escapes (``\n``, ``\t``) when
# ``paths.may_hold_path`` says a literal there may be a path.  That hint must accept every form the
# finders accept: the plugin (row hints) and the whole file's tokens must give the same reports, and
# ``check`` must not skip a file the tokens report.  The literals are built from each finder's form,
# with template fields (``%s``, ``%(ext)s``, ``{}``) standing for names and extensions, and put in
# path APIs and assignments, on the call's row or on a continuation row.

#: Literal bodies (as the source spells them), one or more of each finder's form.
PATH_FORMS = [
    'C:\\new\\data.txt', 'C:\\temp', 'C:/Users/me\\new.txt', '\\\\\\\\?\\\\C:\\new\\y.txt',   # whole path
    '\\\\server\\share\\new', '..\\training\\new_memo.doc', '.\\new', 'logs\\backup\\new.txt',
    '\\new.csv', 'C:\\new',
    '\\reports.%s', '\\training.%d', '\\training.%(ext)s', 'logs\\new.%s', 'logs\\new.t%s',  # template
    '\\new.%s%s', '%s\\temp.txt', '%(root)s\\new_run', '%-8s\\new_run', '% s\\new_run', '%+d\\new_run',
    '%#x\\new_run', 'logs\\t%s', 'run\\b%s\\y.txt', '{}\\new', '{0!r}\\new_run', '{root}\\new.{ext}',
    'logs\\\\%s\\new', '\\\\\\\\fileserver\\\\public\\new', 'logs\\\\public\\new',       # doubled-elsewhere
    'Saved to C:\\new\\file.txt', 'x=C:\\temp\\new.log', '(C:\\data\\new.txt)',           # anchored-in-text
    'logs\\training', 'my a\\training', 'data\\new-%s', 'ab-\\new', 'dir.v2\\new',      # joined-names
    # as the safe fixes spell a kept backslash (\\A for \A): read as the single one
    'Software\\\\Acme\\new', 'Saved to C:\\\\Data\\new.txt', '\\\\srv\\\\Acme\\new', 'C:\\\\Data\\new',
    'x=C:\\new\\\\Data\\y.txt',
]

#: Where the literal stands: ``{0}`` is the literal, ``{1}`` what follows it (a template's ``%``).
PATH_USES = [
    'open({0}{1})\n', 'shutil.copy(src, {0}{1})\n', 'p = Path.home() / {0}{1}\n', 'name = {0}{1}\n',
    'os.path.join(root,\n             {0}{1})\n', 'os.makedirs(\n    {0}{1},\n    exist_ok=True)\n',
    'x = (root +\n     {0}{1})\n', 'print("done",\n      {0}{1})\n', 'y = [\n    "a",  {0}{1}\n]\n',
]
PATH_HEAD = 'import os, shutil\nfrom os.path import join\nfrom pathlib import Path\n'


def _use(form: str, use: str, quote: str) -> str:
    after = ' % ext' if '%' in form else '.format(x)' if '{' in form else ''
    return PATH_HEAD + use.format(f'{quote}{form}{quote}', after)


def row_hint_gaps(src: str) -> tuple[set[str], set[str], bool]:
    """(the whole file's tokens' reports, the plugin's, does ``check`` parse the file)."""
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', SyntaxWarning)
        warnings.simplefilter('ignore', DeprecationWarning)
        whole = run(src)[0]
        plugin = results(src)
    lines = io.StringIO(src, newline=None).readlines()
    return whole, plugin, check_command.may_report(lines, source.reportable_rows(lines))


GENERATED_USES = [(form, use, quote) for form in PATH_FORMS for use in PATH_USES for quote in ("'", '"')]


def test_generated_path_forms_are_reported_where_opened():
    """Each form above is a path in ``open(...)``: it gets ESC501 on the whole file's tokens (a test
    that compared empty sets would prove nothing)."""
    quiet = [form for form in PATH_FORMS if not any(
        item.endswith('ESC501') for item in row_hint_gaps(_use(form, PATH_USES[0], "'"))[0])]
    assert not quiet


@pytest.mark.parametrize('form, use, quote', GENERATED_USES)
def test_row_hints_keep_every_generated_path_form(form, use, quote):
    src = _use(form, use, quote)
    whole, plugin, parsed_by_check = row_hint_gaps(src)
    assert plugin == whole, src
    assert parsed_by_check or not whole, src


#: Parts a generated literal is joined from: drives, starts, separators, names, escapes, fields, extensions.
PATH_PARTS = [
    'C:', '\\\\\\\\', '\\\\', '\\', '/', '.', '..', 'logs', 'My a', 'ab', 'x', 'new', '\\new', '\\t',
    '\\training', '\\b', '\\reports', '%s', '%d', '%(ext)s', '% s', '%+d', '%.2f', '{}', '{x}', '.txt', '.t',
    ' ', 'Saved to ', '=', '(', '-', '~', '$', '\\\\public', '\\a', '\\v', '\\f', '\\r', '\\n', ':',
    '2020', '\\x41', '\\u00e9', '?', 'Program Files', 'temp',
]


def compiles(src: str) -> bool:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')  # the compiler's own escape warnings
            compile(src, '<generated>', 'exec')
    except SyntaxError:
        return False
    return True


@settings(max_examples=300, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(PATH_PARTS), min_size=1, max_size=7).map(''.join),
       st.sampled_from(PATH_USES), st.sampled_from(["'", '"', "'''"]))
def test_row_hints_keep_generated_literals(form, use, quote):
    """Literals joined from path parts at random: the plugin reports what the whole file's tokens report."""
    src = _use(form, use, quote)
    if not compiles(src):  # a part such as '\\' before the closing quote
        return
    whole, plugin, parsed_by_check = row_hint_gaps(src)
    assert plugin == whole, src
    assert parsed_by_check or not whole, src


# A safe fix keeps ESC501's verdict (issue 34) -----------------------------------------------------
#
# The safe fixes double the backslash of an escape that starts none (``\A``: ESC301), so that
# ``"Software\Acme\new"`` becomes ``"Software\\Acme\new"``, the same value.  The judge reads the
# literal as the safe fix spells it, so that ESC501 says the same of both: a doubled separator the
# fixer wrote is the single one the author wrote.

def esc501_escapes(src: str) -> list[tuple[int, str]]:
    """(line, escape) of each ESC501 report of ``src``, in the order they stand."""
    processor = processor_for(lines=io.StringIO(src, newline=None).readlines())
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', SyntaxWarning)
        warnings.simplefilter('ignore', DeprecationWarning)
        tree, tokens = processor.build_ast(), processor.file_tokens
    return sorted((report.line, report.col, report.fields['escape'])
                  for report in checks.all_reports(tree, tokens, processor.lines, ())
                  if report.code == 'ESC501')


def _verdicts_before_and_after_safe_fix(src: str) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    after = fix.fix_text(src, set(fix.SAFE)).text
    assert after != src, src  # each case holds an escape the safe fixes respell
    return ([(line, escape) for line, _, escape in esc501_escapes(src)],
            [(line, escape) for line, _, escape in esc501_escapes(after)])


#: (source, its ESC501 escapes, before the safe fix and after it), each with a kept backslash (\A, \D, ...).
SAFE_FIX_CASES = [
    # doubled-elsewhere once doubled: a kept backslash is a separator before the fix too
    ('key = "Software\\Acme\\new"\n', [(1, '\\n')]),
    ('import winreg\nwinreg.OpenKey(HKLM, "Software\\Microsoft\\Windows\\tools")\n', [(2, '\\t')]),
    ('share = "\\\\\\\\fileserver\\Public\\new"\n', [(1, '\\n')]),
    # anchored-in-text: a drive's or a name's separator doubled by the fix is still one
    ('print("Saved to C:\\Data\\new.txt")\n', [(1, '\\n')]),
    ('print("Saved to C:\\new\\Data\\file.txt")\n', [(1, '\\n'), (1, '\\f')]),
    # a UNC path whose share or folder starts with a kept backslash
    ('share = "\\\\srv\\Acme\\new"\n', [(1, '\\n')]),
    ('share = "\\\\srv\\new\\Docs"\n', [(1, '\\n')]),
    # whole paths and a template: the same before and after (both spellings were read alike)
    ('path = "C:\\Data\\new.txt"\n', [(1, '\\n')]),
    ('open("%s\\Sub\\temp.txt" % root)\n', [(1, '\\t')]),
    # escaped-path: every separator doubled once fixed, the spelled character is meant
    ('folder = "C:\\Dev\\caf\\xe9"\n', []),
    # not a path before the fix, nor after it
    ('pattern = "ab\\d+\\n"\n', []),
    ('text = "Q:\\Sorry\\n"\n', []),
    ('row = "%s\\d\\t%s" % (a, b)\n', []),
]


@pytest.mark.parametrize('src, expected', SAFE_FIX_CASES)
def test_a_safe_fix_keeps_the_esc501_verdict(src, expected):
    before, after = _verdicts_before_and_after_safe_fix(src)
    assert before == after == expected


#: ``PATH_PARTS`` and parts with a backslash the value keeps, which the safe fixes double.
KEPT_PARTS = PATH_PARTS + ['\\Acme', '\\Data', '\\\\Acme', '\\_x', '\\9', '\\.', '\\-', '\\$', '\\%s', '\\ ']


@settings(max_examples=200, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(KEPT_PARTS), min_size=1, max_size=7).map(''.join),
       st.sampled_from(PATH_USES), st.sampled_from(["'", "'''", "b'"]))
def test_a_safe_fix_keeps_the_esc501_verdict_of_generated_literals(form, use, quote):
    """ESC501 reports the same escapes before and after the safe fixes, and no safe fix is held back
    for hiding an ESC501."""
    if quote == "b'":
        if '{' in form:
            return
        src = PATH_HEAD + use.format(f"b'{form}'", '')
    else:
        src = _use(form, use, quote)
    if not compiles(src):  # a part such as '\\' before the closing quote
        return
    result = fix.fix_text(src, set(fix.SAFE))
    assert not [item for item in result.left_alone if 'ESC501' in item.reason], src
    assert ([(line, escape) for line, _, escape in esc501_escapes(src)]
            == [(line, escape) for line, _, escape in esc501_escapes(result.text)]), (src, result.text)
