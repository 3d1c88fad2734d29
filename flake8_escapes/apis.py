"""What each known callable does with its arguments, as data: one ``Api`` row per API and role.

A row says which arguments of a call hold a regex pattern, a regex
replacement or a path, and when (a ``regex=True`` keyword, a method of a
compiled pattern or of a pandas ``.str`` accessor).  Adding an API is one row
in one of the groups below (and its test); ``--escapes-regex-functions``
produces rows of the same kind (``parse_functions``).  The role pass
(``roles``) reads the rows; nothing here reads code.

Beside the rows, the named sets of the callables whose *value* matters (a
call that returns a compiled pattern, a match, a path), Pygments' rule
tables, and the string methods that look for text.

May import only the standard library.
"""
from __future__ import annotations

import functools
import re
from typing import Iterable, NamedTuple, Optional

#: The roles a row gives an argument.
PATTERN = 'pattern'
REPLACEMENT = 'replacement'
PATH = 'path'
TEX = 'tex'

#: How a row's ``name`` is matched against a call (its receiver):
#: the qualified name of the function (``re.sub`` for ``r.sub`` after ``import re as r``),
FUNCTION = 'function'
#: the module of the function (every function of ``os.path``),
MODULE = 'module'
#: the method's name, on any object (``self.assertRegex``, ``df.to_csv``),
METHOD = 'method'
#: a method of a compiled pattern (``p.sub`` where ``p = re.compile(...)``),
COMPILED_METHOD = 'compiled pattern method'
#: a method of a match (``m.expand``),
MATCH_METHOD = 'match method'
#: a method of a pandas ``.str`` accessor (``df.col.str.contains``).
STR_METHOD = '.str method'
STR_ACCESSOR = 'str'

#: When a row applies: always, only with ``regex=True``, or unless ``regex=False``.
ALWAYS = ''
REGEX_TRUE = 'regex=True'
UNLESS_REGEX_FALSE = 'not regex=False'


class Api(NamedTuple):
    """Which arguments of a call have ``role``: by position and by keyword.

    ``positions`` None: every argument, keywords too (``open``, ``os.*``).
    For a pattern or a replacement a keyword given in the call is the
    argument; for a path every listed argument given is one.
    """

    name: str
    role: str                             # PATTERN, REPLACEMENT or PATH
    positions: Optional[tuple[int, ...]] = (0,)
    keywords: tuple[str, ...] = ()
    condition: str = ALWAYS               # ALWAYS, REGEX_TRUE or UNLESS_REGEX_FALSE
    receiver: str = FUNCTION              # FUNCTION, MODULE, METHOD, ..._METHOD


def _functions(names: Iterable[str], role: str, position: int | None, keyword: str = '') -> list[Api]:
    """One row per name: the argument at ``position`` (None: none) or ``keyword``."""
    positions = () if position is None else (position,)
    keywords = (keyword,) if keyword else ()
    return [Api(name, role, positions, keywords) for name in names]


#: The modules of ``REGEX_FUNCTIONS``, as a module looking for a marker names them (``re.sub('\\1', ...)``).
REGEX_MODULES = ('re', 'regex')
_RE_PATTERN_FIRST = ('compile', 'search', 'match', 'fullmatch', 'findall', 'finditer', 'split',
                     'template', 'splititer', 'subf', 'subfn')
#: https://docs.python.org/3/library/re.html#functions, and the regex
#: package's extras (https://pypi.org/project/regex/).  regex's ``subf``
#: takes a format-style replacement, where a backslash means nothing.
REGEX_FUNCTIONS = tuple(
    row
    for module in REGEX_MODULES
    for row in (
        *_functions([f'{module}.{name}' for name in (*_RE_PATTERN_FIRST, 'sub', 'subn')],
                    PATTERN, 0, 'pattern'),
        *_functions([f'{module}.sub', f'{module}.subn'], REPLACEMENT, 1, 'repl'),
    )
)
#: Other widely used functions that take a regex, through any import form.
OTHER_REGEX_FUNCTIONS = (
    # https://docs.pytest.org/en/stable/reference/reference.html#pytest-raises
    *_functions(['pytest.raises', 'pytest.warns', 'pytest.deprecated_call'], PATTERN, None, 'match'),
    # https://docs.djangoproject.com/en/stable/ref/urls/#re-path
    *_functions(['django.urls.re_path', 'django.conf.urls.re_path'], PATTERN, 0, 'route'),
    *_functions(['django.conf.urls.url', 'django.core.validators.RegexValidator'], PATTERN, 0, 'regex'),
    # https://docs.python.org/3/library/warnings.html#warnings.filterwarnings (re.match on the message)
    Api('warnings.filterwarnings', PATTERN, (1,), ('message',)),
    # https://pyparsing-docs.readthedocs.io (Regex(pattern))
    Api('pyparsing.Regex', PATTERN, (0,), ('pattern',)),
    # https://www.nltk.org/api/nltk.tokenize.regexp.html
    *_functions(['nltk.tokenize.RegexpTokenizer', 'nltk.RegexpTokenizer'], PATTERN, 0, 'pattern'),
    *_functions(['nltk.tokenize.regexp_tokenize', 'nltk.regexp_tokenize'], PATTERN, 1, 'pattern'),
)
#: Methods known by their name alone, on any object: unittest's
#: ``TestCase`` assertions (https://docs.python.org/3/library/unittest.html#unittest.TestCase.assertRegex,
#: and the Python 2.7 names), pandas' ``DataFrame.filter(regex=...)``.
REGEX_METHODS = (
    Api('assertRegex', PATTERN, (1,), ('expected_regex',), receiver=METHOD),
    Api('assertNotRegex', PATTERN, (1,), ('unexpected_regex',), receiver=METHOD),
    Api('assertRaisesRegex', PATTERN, (1,), ('expected_regex',), receiver=METHOD),
    Api('assertWarnsRegex', PATTERN, (1,), ('expected_regex',), receiver=METHOD),
    Api('assertRegexpMatches', PATTERN, (1,), ('expected_regexp',), receiver=METHOD),
    Api('assertNotRegexpMatches', PATTERN, (1,), ('unexpected_regexp',), receiver=METHOD),
    Api('assertRaisesRegexp', PATTERN, (1,), ('expected_regexp',), receiver=METHOD),
    Api('filter', PATTERN, (), ('regex',), receiver=METHOD),
)
#: Methods of a compiled pattern whose first argument is a replacement.
PATTERN_SUB_METHODS = (
    Api('sub', REPLACEMENT, (0,), ('repl',), receiver=COMPILED_METHOD),
    Api('subn', REPLACEMENT, (0,), ('repl',), receiver=COMPILED_METHOD),
)
#: ``Match.expand(template)``.
MATCH_EXPAND = (Api('expand', REPLACEMENT, (0,), ('template',), receiver=MATCH_METHOD),)
#: pandas ``Series.str`` methods that take a regex unless ``regex=False``,
#: https://pandas.pydata.org/docs/reference/series.html#string-handling
PANDAS_REGEX_METHODS = tuple(
    Api(name, PATTERN, (0,), ('pat',), UNLESS_REGEX_FALSE, STR_METHOD)
    for name in ('contains', 'count', 'extract', 'extractall', 'findall', 'fullmatch', 'match'))
#: ... and those that take one only with ``regex=True``.
PANDAS_REGEX_IF_ASKED = (
    Api('replace', PATTERN, (0,), ('pat',), REGEX_TRUE, STR_METHOD),
    Api('replace', REPLACEMENT, (1,), ('repl',), REGEX_TRUE, STR_METHOD),
    Api('split', PATTERN, (0,), ('pat',), REGEX_TRUE, STR_METHOD),
)
#: ``DataFrame.replace``/``Series.replace`` with ``regex=True`` (pandas runs re.sub).
PANDAS_FRAME_REGEX_IF_ASKED = (
    Api('replace', PATTERN, (0,), ('to_replace',), REGEX_TRUE, METHOD),
    Api('replace', REPLACEMENT, (1,), ('value',), REGEX_TRUE, METHOD),
)

#: Modules all of whose functions take paths in every argument.
PATH_MODULES = tuple(Api(module, PATH, None, receiver=MODULE)
                     for module in ('os', 'os.path', 'shutil', 'glob', 'pathlib'))
#: Single functions that take paths in every argument.
PATH_FUNCTIONS = tuple(Api(name, PATH, None) for name in (
    'open', 'io.open', 'codecs.open', 'builtins.open', 'zipfile.ZipFile', 'tarfile.open',
    'subprocess.run', 'subprocess.call', 'subprocess.check_call', 'subprocess.check_output',
    'subprocess.Popen', 'subprocess.getoutput', 'subprocess.getstatusoutput',
))
_PANDAS_PATH_KEYWORDS = ('filepath_or_buffer', 'io', 'path', 'path_or_buf', 'path_or_buffer')
#: Functions that take a path in some arguments only (the others are data,
#: sizes, formats): pandas readers, PIL, logging, numpy, ``sys.path``.
#: https://pandas.pydata.org/docs/reference/io.html,
#: https://pillow.readthedocs.io/en/stable/reference/Image.html#PIL.Image.open,
#: https://docs.python.org/3/library/logging.handlers.html
PATH_ARGUMENTS = (
    *(Api(f'pandas.{name}', PATH, (0,), _PANDAS_PATH_KEYWORDS)
      for name in ('read_csv', 'read_table', 'read_fwf', 'read_excel', 'read_json', 'read_html',
                   'read_xml', 'read_parquet', 'read_orc', 'read_feather', 'read_pickle', 'read_hdf',
                   'read_stata', 'read_sas', 'read_spss', 'ExcelFile', 'ExcelWriter', 'HDFStore')),
    Api('PIL.Image.open', PATH, (0,), ('fp',)),
    Api('PIL.ImageFont.truetype', PATH, (0,), ('font',)),
    Api('logging.FileHandler', PATH, (0,), ('filename',)),
    *(Api(f'logging.handlers.{name}', PATH, (0,), ('filename',))
      for name in ('RotatingFileHandler', 'TimedRotatingFileHandler', 'WatchedFileHandler')),
    Api('logging.basicConfig', PATH, (), ('filename',)),
    Api('sys.path.insert', PATH, (1,)),
    Api('sys.path.append', PATH, (0,)),
    *(Api(f'numpy.{name}', PATH, (0,), ('file', 'fname'))
      for name in ('load', 'save', 'savez', 'loadtxt', 'savetxt', 'genfromtxt', 'fromfile')),
)
#: More functions that take a path (or a registry key, a backslash path too) in one argument:
#: OpenCV (https://docs.opencv.org/4.x/d4/da8/group__imgcodecs.html), PyTorch's save/load,
#: winreg's key functions (https://docs.python.org/3/library/winreg.html; ``_winreg`` on Python 2),
#: webbrowser, ctypes' libraries, sqlite3, h5py, xlsxwriter, openpyxl and python-docx.
_WINREG_KEY_FUNCTIONS = ('OpenKey', 'OpenKeyEx', 'CreateKey', 'CreateKeyEx', 'DeleteKey', 'DeleteKeyEx',
                         'QueryValue', 'SetValue')
MORE_PATH_ARGUMENTS = (
    *(Api(f'cv2.{name}', PATH, (0,), ('filename',))
      for name in ('imread', 'imwrite', 'imreadmulti', 'VideoCapture', 'VideoWriter', 'CascadeClassifier')),
    Api('torch.save', PATH, (1,), ('f',)),
    Api('torch.load', PATH, (0,), ('f',)),
    *(Api(f'{module}.{name}', PATH, (1,), ('sub_key',))
      for module in ('winreg', '_winreg') for name in _WINREG_KEY_FUNCTIONS),
    *(Api(f'webbrowser.{name}', PATH, (0,), ('url',)) for name in ('open', 'open_new', 'open_new_tab')),
    *(Api(f'ctypes.{name}', PATH, (0,), ('name',)) for name in ('CDLL', 'WinDLL', 'OleDLL', 'PyDLL')),
    *(Api(f'ctypes.{name}.LoadLibrary', PATH, (0,), ('name',)) for name in ('cdll', 'windll')),
    Api('sqlite3.connect', PATH, (0,), ('database',)),
    Api('h5py.File', PATH, (0,), ('name',)),
    Api('xlsxwriter.Workbook', PATH, (0,), ('filename',)),
    Api('openpyxl.load_workbook', PATH, (0,), ('filename',)),
    Api('docx.Document', PATH, (0,), ('docx',)),
)
#: Methods that write a pandas object to a path, whatever the object's name
#: (``df.to_csv('out.csv')``): the first argument, or its keyword.
PATH_METHODS = tuple(
    Api(name, PATH, (0,), ('path', 'path_or_buf', 'path_or_buffer', 'excel_writer'), receiver=METHOD)
    for name in ('to_csv', 'to_excel', 'to_json', 'to_xml', 'to_parquet', 'to_orc', 'to_feather',
                 'to_pickle', 'to_hdf', 'to_stata'))

#: APIs that take TeX (ESC601): matplotlib's text, whose ``$...$`` is mathtext
#: (https://matplotlib.org/stable/users/explain/text/mathtext.html), by the
#: method's name on any object (``plt.xlabel``, ``ax.set_title``, ``fig.suptitle``),
#: the ``label=`` of its plotting methods, sympy's symbols, IPython's
#: ``Math``/``Latex`` and plotly's titles.
TEX_METHODS = (
    *(Api(name, TEX, (0,), ('xlabel', 'ylabel', 'zlabel', 'label', 't', 'text', 's'), receiver=METHOD)
      for name in ('xlabel', 'ylabel', 'title', 'suptitle', 'supxlabel', 'supylabel', 'set_xlabel',
                   'set_ylabel', 'set_zlabel', 'set_title', 'set_label', 'set_text', 'annotate')),
    *(Api(name, TEX, (2,), ('s', 'text'), receiver=METHOD) for name in ('text', 'figtext')),
    Api('legend', TEX, (0, 1), ('labels',), receiver=METHOD),
    *(Api(name, TEX, (), ('label',), receiver=METHOD)
      for name in ('plot', 'scatter', 'bar', 'barh', 'hist', 'errorbar', 'fill_between', 'step', 'loglog',
                   'semilogx', 'semilogy', 'axhline', 'axvline', 'stem', 'colorbar')),
    *(Api(name, TEX, (), ('title', 'title_text', 'xaxis_title', 'yaxis_title', 'legend_title_text'),
          receiver=METHOD)
      for name in ('update_layout', 'update_xaxes', 'update_yaxes')),
)
TEX_FUNCTIONS = (
    *_functions(['sympy.Symbol', 'sympy.Dummy', 'sympy.core.symbol.Symbol'], TEX, 0, 'name'),
    *_functions(['sympy.symbols', 'sympy.core.symbol.symbols'], TEX, 0, 'names'),
    *_functions(['IPython.display.Math', 'IPython.display.Latex'], TEX, 0, 'data'),
)

#: Every row the plugin knows, grouped by role.
REGEX_ROWS = (*REGEX_FUNCTIONS, *OTHER_REGEX_FUNCTIONS, *REGEX_METHODS, *PATTERN_SUB_METHODS, *MATCH_EXPAND,
              *PANDAS_REGEX_METHODS, *PANDAS_REGEX_IF_ASKED, *PANDAS_FRAME_REGEX_IF_ASKED)
PATH_ROWS = (*PATH_FUNCTIONS, *PATH_MODULES, *PATH_ARGUMENTS, *MORE_PATH_ARGUMENTS, *PATH_METHODS)
TEX_ROWS = (*TEX_FUNCTIONS, *TEX_METHODS)
ROWS = (*REGEX_ROWS, *PATH_ROWS, *TEX_ROWS)

#: The family of each role: a call's rows come from one family, paths first.
FAMILY = {PATTERN: 'regex', REPLACEMENT: 'regex', PATH: 'path', TEX: 'tex'}
#: The order in which a call is matched: the first (family, receiver) with a
#: row that applies gives all the call's roles.  A method of a ``.str``
#: accessor before any object's method of the same name (``replace``).
LOOKUP_ORDER = (
    ('path', FUNCTION), ('path', MODULE), ('path', METHOD),
    ('regex', FUNCTION), ('regex', COMPILED_METHOD), ('regex', MATCH_METHOD), ('regex', STR_METHOD),
    ('regex', METHOD),
    ('tex', FUNCTION), ('tex', METHOD),
)

#: Calls whose value is a compiled pattern, or a match, and the methods of a
#: compiled pattern that return a match.
COMPILE_FUNCTIONS = frozenset({'re.compile', 'regex.compile'})
MATCH_FUNCTIONS = frozenset(
    f'{module}.{name}' for module in ('re', 'regex') for name in ('match', 'search', 'fullmatch')
)
PATTERN_MATCH_METHODS = frozenset({'match', 'search', 'fullmatch'})
#: Calls, and methods of a compiled pattern, that give matches one by one (``for m in ...``).
FINDITER_FUNCTIONS = frozenset({'re.finditer', 'regex.finditer'})
FINDITER_METHOD = 'finditer'
#: ``re``/``regex`` functions whose first argument is a pattern, by their own name.
PATTERN_FIRST = frozenset(row.name.partition('.')[2] for row in REGEX_FUNCTIONS if row.role == PATTERN)
#: Pygments lexers (https://pygments.org/docs/lexerdevelopment/): in a class
#: whose bases include a lexer from pygments (or any ``...RegexLexer``), the
#: first item of each rule of ``tokens`` is a pattern, and so are the
#: ``prefix``/``suffix`` of ``words(...)`` there.
LEXER_TABLE = 'tokens'
LEXER_WORDS = frozenset({'pygments.lexer.words', 'words'})
LEXER_WORDS_KEYWORDS = ('prefix', 'suffix')

#: pathlib classes, after which ``/ 'name'`` is a path.
_PATHLIB = tuple(f'pathlib.{name}'
                 for name in ('Path', 'PurePath', 'PureWindowsPath', 'WindowsPath', 'PosixPath'))
#: Calls that make a pathlib object: a class, or its ``home()`` and ``cwd()``.
PATHLIB_CLASSES = frozenset(
    (*_PATHLIB, *(f'{name}.{method}' for name in _PATHLIB for method in ('home', 'cwd'))))
#: What a pathlib object gives that is a path again: ``.parent``, ``.resolve()``, ...
PATHLIB_PATH_ATTRIBUTES = frozenset({'parent'})
PATHLIB_PATH_METHODS = frozenset({
    'resolve', 'absolute', 'expanduser', 'with_name', 'with_suffix', 'joinpath'})
#: Calls whose value is a path, so that a literal added to it is one:
#: ``os.getcwd() + '\\results.csv'``.
PATH_VALUE_FUNCTIONS = frozenset({
    'os.getcwd', 'os.getcwdb', 'os.path.join', 'os.path.dirname', 'os.path.abspath', 'os.path.realpath',
    'os.path.normpath', 'os.path.expanduser', 'os.path.expandvars', 'os.path.relpath',
    'tempfile.gettempdir', 'tempfile.mkdtemp',
})

#: Methods whose first argument is text looked for in a string.
LOOKUP_METHODS = frozenset({
    'split', 'rsplit', 'replace', 'find', 'rfind', 'index', 'rindex', 'count', 'startswith',
    'endswith', 'partition', 'rpartition', 'strip', 'lstrip', 'rstrip', 'removeprefix', 'removesuffix',
})

#: (family, receiver) -> name -> the rows of that name
Index = dict[tuple[str, str], dict[str, tuple[Api, ...]]]


@functools.lru_cache(maxsize=16)
def index(extra: tuple[Api, ...] = ()) -> Index:
    """``ROWS`` and ``extra`` by family, receiver and name; a name's rows in
    ``extra`` (the project's own functions) take the place of its built-in
    rows of the same family and receiver."""
    table: Index = {}
    own = {(FAMILY[row.role], row.receiver, row.name) for row in extra}
    for row in (*ROWS, *extra):
        key = (FAMILY[row.role], row.receiver)
        if row in extra or (*key, row.name) not in own:
            names = table.setdefault(key, {})
            names[row.name] = (*names.get(row.name, ()), row)
    return table


def parse_functions(value: str) -> tuple[Api, ...]:
    """``--escapes-regex-functions``: ``name:PATTERN_POS[:REPL_POS], ...``, as rows.

    Items are separated by commas or line breaks, as in flake8's own lists (a
    config value may give one function per line).  A position may be left
    empty (``mylib.rx_sub::1``).  Raises ValueError with a message that says
    what is wrong.
    """
    functions: dict[str, tuple[Api, ...]] = {}
    for item in re.split(r'[,\r\n]', value):
        item = item.strip()
        if not item:
            continue
        name, *positions = item.split(':')
        parts = name.split('.')
        if not all(part.isidentifier() for part in parts) or not 1 <= len(positions) <= 2:
            raise ValueError(
                f'{item!r} is not NAME:PATTERN_POS[:REPL_POS] '
                f'(e.g. mylib.rx_sub:0:1, a dotted name and argument positions)'
            )
        rows = []
        for role, position in zip((PATTERN, REPLACEMENT), positions + ['']):
            if position.strip().isdigit():
                rows.append(Api(name, role, (int(position),)))
            elif position.strip():
                raise ValueError(f'{item!r}: argument position {position!r} is not a whole number')
        if not rows:
            raise ValueError(f'{item!r} names neither a pattern nor a replacement position')
        functions[name] = tuple(rows)
    return tuple(row for rows in functions.values() for row in rows)
