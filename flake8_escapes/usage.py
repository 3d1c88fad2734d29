"""One AST pass that says where a literal is used as a regex pattern or replacement, or a path.

The tokens say what a literal spells; only the AST says where it is used.  The
pass runs only for files that hold a candidate escape (an octal escape that
re would read as a backreference, or ``\\b``), and returns the spans of the
string literals in regex roles, in the tokens' (line, character) positions.

Recognised (through any import form: ``import re``, ``import re as r``,
``from re import sub``, ``from regex import compile as rc``):

- ``re``/``regex`` functions: the pattern as first argument or ``pattern=``,
  the replacement as second argument of ``sub``/``subn`` or ``repl=``;
- methods of compiled patterns (``p.sub(repl, s)`` where ``p`` was assigned
  from ``re.compile``, or ``re.compile(x).sub(...)``) and ``Match.expand``
  (``m`` assigned from a match call, a walrus, or a ``for`` over ``finditer``);
- pandas ``.str`` methods that take a regex (``replace``/``split`` only with
  ``regex=True``);
- the project's own functions from ``--escapes-regex-functions``.

It also says where a literal is used as a file path (``PATH``), for ESC501:
every argument of ``open``/``io.open``, of the functions of ``os``,
``os.path``, ``shutil``, ``glob`` and ``pathlib`` (``Path``,
``PureWindowsPath``, ...), of ``zipfile.ZipFile`` and ``tarfile.open``, the
command of ``subprocess`` calls (items of a list too), the path argument of
the functions in ``PATH_ARGUMENTS`` (pandas readers, PIL, logging, numpy,
``sys.path``) and of the pandas writers in ``PATH_METHODS`` (``df.to_csv``),
the right side of ``/`` after a ``pathlib`` object, and the right side of
``+`` after a call that returns a path (``os.getcwd() + '\\results.csv'``).

Inside a role, every literal of the expression counts: implicit and ``+``
concatenation, the template of ``%`` and ``.format``, the separator and the
listed items of ``.join``, both arms of a conditional, f-strings.
"""
from __future__ import annotations

import ast
import functools
import re
import sys
from bisect import bisect_left, bisect_right, insort
from operator import itemgetter
from typing import Any, Callable, Iterable, NamedTuple, Optional

from flake8_escapes.literals import char_col as _char_col

Position = tuple[int, int]

PATTERN = 'pattern'
#: A string statement that is not a docstring: its value is thrown away
#: (code kept in a string to disable it), so nothing in it changes behaviour.
DISCARDED = 'discarded'
#: The characters of the one-digit octal escapes \\1 to \\7.
NUMBERED_CONTROLS = frozenset('\x01\x02\x03\x04\x05\x06\x07')
#: Statements whose body may open with a docstring.
DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
#: Statement parts that hold a body of their own besides expressions.
CLAUSES = (ast.excepthandler, ast.match_case)
#: The fields of a statement that hold statements, in source order (those of
#: ``Try``: body, handlers, orelse, finalbody), and those that hold clauses
#: with a body of their own (``except ...:``, ``case ...:``).
STATEMENT_FIELDS = ('body', 'handlers', 'cases', 'orelse', 'finalbody')
CLAUSE_FIELDS = frozenset({'handlers', 'cases'})
REPLACEMENT = 'replacement'
PATH = 'path'
#: A pattern made of nothing but these characters is about backspaces on
#: purpose: pydoc's re.sub('.\b', '', text) removes terminal overstrike.
BACKSPACE_PATTERN_CHARS = frozenset('\b.*+?[]^()')
_STATEMENT_PARTS: dict[type, tuple[tuple[str, bool], ...]] = {}


def statement_parts(kind: type) -> tuple[tuple[str, bool], ...]:
    """The ``STATEMENT_FIELDS`` a statement type has, each with whether it
    holds clauses (``CLAUSE_FIELDS``); none for a simple statement.  Known
    per type, so that a statement's fields are not looked for one by one."""
    parts = _STATEMENT_PARTS.get(kind)
    if parts is None:
        fields = getattr(kind, '_fields', ())
        parts = _STATEMENT_PARTS[kind] = tuple(
            (field, field in CLAUSE_FIELDS) for field in STATEMENT_FIELDS if field in fields)
    return parts


class Role(NamedTuple):
    """A literal used as a regex pattern or replacement, in token positions."""

    start: Position
    end: Position      # exclusive
    role: str          # PATTERN, REPLACEMENT, PATH or DISCARDED
    means_backspace: bool = False  # the whole pattern is a backspace matcher (see above)
    groupless: bool = False        # the whole pattern is literal text without a group
    groups: int = -1               # groups the whole pattern (one literal) opens; -1: not known


class Signature(NamedTuple):
    """Where a regex function takes its pattern and its replacement."""

    pattern: int | None        # positional index
    replacement: int | None
    pattern_keyword: str = 'pattern'
    replacement_keyword: str = 'repl'


_PATTERN_ONLY = Signature(0, None)
_SUB = Signature(0, 1)
#: https://docs.python.org/3/library/re.html#functions, and the regex
#: package's extras (https://pypi.org/project/regex/).  regex's ``subf``
#: takes a format-style replacement, where a backslash means nothing.
REGEX_FUNCTIONS = {
    f'{module}.{name}': signature
    for module in ('re', 'regex')
    for name, signature in {
        'compile': _PATTERN_ONLY, 'search': _PATTERN_ONLY, 'match': _PATTERN_ONLY,
        'fullmatch': _PATTERN_ONLY, 'findall': _PATTERN_ONLY, 'finditer': _PATTERN_ONLY,
        'split': _PATTERN_ONLY, 'sub': _SUB, 'subn': _SUB, 'template': _PATTERN_ONLY,
        'splititer': _PATTERN_ONLY, 'subf': _PATTERN_ONLY, 'subfn': _PATTERN_ONLY,
    }.items()
}
#: Other widely used functions that take a regex (``None``: no replacement),
#: through any import form.
OTHER_REGEX_FUNCTIONS = {
    # https://docs.pytest.org/en/stable/reference/reference.html#pytest-raises
    'pytest.raises': Signature(None, None, 'match', ''),
    'pytest.warns': Signature(None, None, 'match', ''),
    'pytest.deprecated_call': Signature(None, None, 'match', ''),
    # https://docs.djangoproject.com/en/stable/ref/urls/#re-path
    'django.urls.re_path': Signature(0, None, 'route', ''),
    'django.conf.urls.url': Signature(0, None, 'regex', ''),
    'django.conf.urls.re_path': Signature(0, None, 'route', ''),
    'django.core.validators.RegexValidator': Signature(0, None, 'regex', ''),
    # https://docs.python.org/3/library/warnings.html#warnings.filterwarnings (re.match on the message)
    'warnings.filterwarnings': Signature(1, None, 'message', ''),
    # https://pyparsing-docs.readthedocs.io (Regex(pattern))
    'pyparsing.Regex': Signature(0, None, 'pattern', ''),
    # https://www.nltk.org/api/nltk.tokenize.regexp.html
    'nltk.tokenize.RegexpTokenizer': Signature(0, None, 'pattern', ''),
    'nltk.RegexpTokenizer': Signature(0, None, 'pattern', ''),
    'nltk.tokenize.regexp_tokenize': Signature(1, None, 'pattern', ''),
    'nltk.regexp_tokenize': Signature(1, None, 'pattern', ''),
}
#: Methods known by their name alone, on any object: unittest's
#: ``TestCase`` assertions (https://docs.python.org/3/library/unittest.html#unittest.TestCase.assertRegex,
#: and the Python 2.7 names), pandas' ``DataFrame.filter(regex=...)``.
REGEX_METHODS = {
    'assertRegex': Signature(1, None, 'expected_regex', ''),
    'assertNotRegex': Signature(1, None, 'unexpected_regex', ''),
    'assertRaisesRegex': Signature(1, None, 'expected_regex', ''),
    'assertWarnsRegex': Signature(1, None, 'expected_regex', ''),
    'assertRegexpMatches': Signature(1, None, 'expected_regexp', ''),
    'assertNotRegexpMatches': Signature(1, None, 'unexpected_regexp', ''),
    'assertRaisesRegexp': Signature(1, None, 'expected_regexp', ''),
    'filter': Signature(None, None, 'regex', ''),
}
#: Pygments lexers (https://pygments.org/docs/lexerdevelopment/): in a class
#: whose bases include a lexer from pygments (or any ``...RegexLexer``), the
#: first item of each rule of ``tokens`` is a pattern, and so are the
#: ``prefix``/``suffix`` of ``words(...)`` there.
LEXER_TABLE = 'tokens'
LEXER_WORDS = frozenset({'pygments.lexer.words', 'words'})
COMPILE_FUNCTIONS = frozenset({'re.compile', 'regex.compile'})
MATCH_FUNCTIONS = frozenset(
    f'{module}.{name}' for module in ('re', 'regex') for name in ('match', 'search', 'fullmatch')
)
#: Methods of a compiled pattern whose first argument is a replacement.
PATTERN_SUB_METHODS = frozenset({'sub', 'subn'})
PATTERN_MATCH_METHODS = frozenset({'match', 'search', 'fullmatch'})
#: pandas ``Series.str`` methods that always take a regex, and those that
#: take one only with ``regex=True``.
PANDAS_REGEX_METHODS = frozenset({
    'contains', 'count', 'extract', 'extractall', 'findall', 'fullmatch', 'match',
})
PANDAS_REGEX_IF_ASKED = {'replace': Signature(0, 1, 'pat', 'repl'), 'split': Signature(0, None, 'pat')}
#: ``DataFrame.replace``/``Series.replace`` with ``regex=True`` (pandas runs re.sub).
PANDAS_FRAME_REGEX_IF_ASKED = {'replace': Signature(0, 1, 'to_replace', 'value')}


#: Modules all of whose functions take paths, and single functions that do.
PATH_MODULES = frozenset({'os', 'os.path', 'shutil', 'glob', 'pathlib'})
PATH_FUNCTIONS = frozenset({
    'open', 'io.open', 'codecs.open', 'builtins.open', 'zipfile.ZipFile', 'tarfile.open',
    'subprocess.run', 'subprocess.call', 'subprocess.check_call', 'subprocess.check_output',
    'subprocess.Popen', 'subprocess.getoutput', 'subprocess.getstatusoutput',
})
PATHLIB_CLASSES = frozenset(
    f'pathlib.{name}' for name in ('Path', 'PurePath', 'PureWindowsPath', 'WindowsPath', 'PosixPath'))


class PathArguments(NamedTuple):
    """Which arguments of a function are paths: by position, or by keyword."""

    positions: tuple[int, ...] = (0,)
    keywords: frozenset[str] = frozenset()


#: Functions that take a path in some arguments only (the others are data,
#: sizes, formats): pandas readers, PIL, logging, numpy, ``sys.path``.
#: https://pandas.pydata.org/docs/reference/io.html,
#: https://pillow.readthedocs.io/en/stable/reference/Image.html#PIL.Image.open,
#: https://docs.python.org/3/library/logging.handlers.html
PATH_ARGUMENTS = {
    **{f'pandas.{name}': PathArguments((0,), frozenset({
        'filepath_or_buffer', 'io', 'path', 'path_or_buf', 'path_or_buffer'}))
       for name in ('read_csv', 'read_table', 'read_fwf', 'read_excel', 'read_json', 'read_html',
                    'read_xml', 'read_parquet', 'read_orc', 'read_feather', 'read_pickle', 'read_hdf',
                    'read_stata', 'read_sas', 'read_spss', 'ExcelFile', 'ExcelWriter', 'HDFStore')},
    'PIL.Image.open': PathArguments((0,), frozenset({'fp'})),
    'PIL.ImageFont.truetype': PathArguments((0,), frozenset({'font'})),
    'logging.FileHandler': PathArguments((0,), frozenset({'filename'})),
    **{f'logging.handlers.{name}': PathArguments((0,), frozenset({'filename'}))
       for name in ('RotatingFileHandler', 'TimedRotatingFileHandler', 'WatchedFileHandler')},
    'logging.basicConfig': PathArguments((), frozenset({'filename'})),
    'sys.path.insert': PathArguments((1,)),
    'sys.path.append': PathArguments((0,)),
    **{f'numpy.{name}': PathArguments((0,), frozenset({'file', 'fname'}))
       for name in ('load', 'save', 'savez', 'loadtxt', 'savetxt', 'genfromtxt', 'fromfile')},
}
#: Methods that write a pandas object to a path, whatever the object's name
#: (``df.to_csv('out.csv')``): the first argument, or its keyword.
PATH_METHODS = {
    name: PathArguments((0,), frozenset({'path', 'path_or_buf', 'path_or_buffer', 'excel_writer'}))
    for name in ('to_csv', 'to_excel', 'to_json', 'to_xml', 'to_parquet', 'to_orc', 'to_feather',
                 'to_pickle', 'to_hdf', 'to_stata')
}
#: Calls whose value is a path, so that a literal added to it is one:
#: ``os.getcwd() + '\\results.csv'``.
PATH_VALUE_FUNCTIONS = frozenset({
    'os.getcwd', 'os.getcwdb', 'os.path.join', 'os.path.dirname', 'os.path.abspath', 'os.path.realpath',
    'os.path.normpath', 'os.path.expanduser', 'os.path.expandvars', 'os.path.relpath',
    'tempfile.gettempdir', 'tempfile.mkdtemp',
})
#: The arguments of ``open``, of ``PATH_MODULES`` functions and ``PATH_FUNCTIONS``: all of them.
EVERY_ARGUMENT = PathArguments((), frozenset())


def parse_functions(value: str) -> dict[str, Signature]:
    """``--escapes-regex-functions``: ``name:PATTERN_POS[:REPL_POS], ...``.

    Items are separated by commas or line breaks, as in flake8's own lists (a
    config value may give one function per line).  A position may be left
    empty (``mylib.rx_sub::1``).  Raises ValueError with a message that says
    what is wrong.
    """
    functions: dict[str, Signature] = {}
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
        numbers: list[int | None] = []
        for position in positions + [''] * (2 - len(positions)):
            if position.strip() == '':
                numbers.append(None)
            elif position.strip().isdigit():
                numbers.append(int(position))
            else:
                raise ValueError(f'{item!r}: argument position {position!r} is not a whole number')
        if numbers == [None, None]:
            raise ValueError(f'{item!r} names neither a pattern nor a replacement position')
        functions[name] = Signature(numbers[0], numbers[1], '', '')
    return functions


#: What a name is bound to: a string expression (or a value that is not one), a compiled pattern, a match.
TEXT = 'text'
COMPILED = 'compiled'
MATCH = 'match'
#: A dict, list or tuple literal: a rule table a loop may unpack.
TABLE = 'table'
#: Kinds of scope, as pyflakes keeps them: a class body's names are not seen
#: from the functions defined in it.
MODULE_SCOPE = 'module'
CLASS_SCOPE = 'class'
FUNCTION_SCOPE = 'function'
_FIRST = itemgetter(0)
#: A position after every column of a line.
_END_OF_LINE = sys.maxsize


class _Scope(NamedTuple):
    key: int            # 0 for the module, else id() of the definition
    kind: str           # MODULE_SCOPE, CLASS_SCOPE or FUNCTION_SCOPE
    lexer: bool = False  # a class whose ``tokens`` is a Pygments rule table


#: (where the binding takes effect, string expression or None)
_Binding = tuple[Position, Optional[ast.expr]]


class _Visitor(ast.NodeVisitor):
    """Collects the regex roles of the literals on ``lines``.

    The whole tree is too slow to visit node by node (an ``ast.NodeVisitor``
    over a large test module costs tens of milliseconds), so ``scan`` walks
    statements only: imports and assignments anywhere give the names, and
    only the statements that span a candidate line have their expressions
    visited for calls.

    Names are resolved per scope (module, class, function), innermost first,
    skipping class bodies seen from their functions, as pyflakes does: a
    parameter shadows the module's binding of the same name.  Attributes
    (``self.p``) are bound in the module scope.
    """

    def __init__(self, functions: dict[str, Signature], lines: list[int]) -> None:
        self.functions = functions
        self.lines = lines                     # sorted lines holding a candidate escape
        self.aliases: dict[str, str] = {}     # local name -> qualified name
        # (scope key, dotted name) -> kind -> bindings sorted by position
        self.names: dict[tuple[int, str], dict[str, list[_Binding]]] = {}
        self.chain: tuple[_Scope, ...] = (_Scope(0, MODULE_SCOPE),)  # the scopes, innermost last
        # every statement, with its scopes and whether it is a docstring's place
        self.statements: list[tuple[ast.stmt, tuple[_Scope, ...], bool]] = []
        self.roles: list[tuple[ast.expr, str]] = []
        self.path_values: dict[ast.BinOp, bool] = {}  # sums known to build a path, or not
        self.fragments: set[int] = set()       # id() of the role expressions that are part of a pattern
        self.walrus = True                     # bind the names of walruses (the first visit)
        self.walked: set[int] = set()          # id() of the values loops bind from a table's items
        # the statements that bind names, by type, and what binds them
        self.binders: dict[type, Callable[[Any], None]] = {
            ast.Import: self.visit_Import, ast.ImportFrom: self.visit_ImportFrom,
            ast.Assign: self.bind_assign, ast.AnnAssign: self.bind_annotated,
            ast.For: self.bind_loop, ast.AsyncFor: self.bind_loop,
        }

    # Statements ------------------------------------------------------------
    def spans_candidate(self, node: ast.AST) -> bool:
        first = bisect_left(self.lines, node.lineno)  # type: ignore[attr-defined]
        end = getattr(node, 'end_lineno', None) or node.lineno  # type: ignore[attr-defined]
        return first < len(self.lines) and self.lines[first] <= end

    def scan(self, body: list[ast.stmt], docstring_first: bool = False) -> None:
        """Bind the names of every statement, and keep each statement with its
        scopes for ``visit_lines`` (a function may use a name bound below it)."""
        append = self.statements.append
        for index, stmt in enumerate(body):
            append((stmt, self.chain, index == 0 and docstring_first))
            kind = type(stmt)
            binder = self.binders.get(kind)
            if binder is not None:
                binder(stmt)
            parts = statement_parts(kind)
            if not parts:  # a simple statement
                continue
            scope = self.scope_of(stmt)
            for field, clauses in parts:  # only these fields hold statements (or clauses of them)
                value = getattr(stmt, field, None)
                if not value or not isinstance(value, list):
                    continue
                if clauses:
                    for clause in value:
                        self.scan(clause.body)
                elif scope is not None and field == 'body':
                    outer = self.chain
                    self.chain = (*outer, scope)
                    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                        self.bind_parameters(stmt)
                    self.scan(value, True)
                    self.chain = outer
                else:
                    self.scan(value)

    def bind_assign(self, stmt: ast.Assign) -> None:
        for target in stmt.targets:
            self.bind(target, stmt.value, stmt)

    def bind_annotated(self, stmt: ast.AnnAssign) -> None:
        if stmt.value is not None:
            self.bind(stmt.target, stmt.value, stmt)

    def visit_lines(self, lines: list[int]) -> None:
        """Visit the expressions of the statements that span one of ``lines`` (sorted)."""
        self.lines = lines
        for stmt, chain, docstring in self.statements:
            if not self.spans_candidate(stmt):
                continue
            self.chain = chain
            if isinstance(stmt, ast.Expr) and is_string(stmt.value) and not docstring:
                self.roles.append((stmt.value, DISCARDED))
                continue
            if isinstance(stmt, ast.Assign) and chain[-1].lexer:
                self.lexer_table(stmt)
            for _, value in ast.iter_fields(stmt):
                if isinstance(value, list) and value and isinstance(value[0], ast.stmt):
                    continue  # visited as statements of their own
                if isinstance(value, list) and value and isinstance(value[0], CLAUSES):
                    for clause in value:
                        for _, part in ast.iter_fields(clause):
                            if isinstance(part, ast.AST):
                                self.visit(part)
                else:
                    for node in value if isinstance(value, list) else [value]:
                        if isinstance(node, ast.AST):
                            self.visit(node)
        self.chain = self.chain[:1]

    def scope_of(self, stmt: ast.stmt) -> _Scope | None:
        """The scope a definition's body opens, or None."""
        if type(stmt) not in DEFINITIONS:
            return None
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return _Scope(id(stmt), FUNCTION_SCOPE)
        if isinstance(stmt, ast.ClassDef):
            return _Scope(id(stmt), CLASS_SCOPE, any(self.is_lexer(base) for base in stmt.bases))
        return None

    def visit(self, node: ast.AST) -> None:
        """Visit an expression: each node's children first, then its own
        ``visit_<type>`` method, as ``generic_visit`` would order them, but
        without recursion: a ``+`` chain of thousands of literals (which
        CPython parses) is as deep as it is long."""
        pending: list[tuple[ast.AST, bool]] = [(node, False)]
        while pending:
            item, children_seen = pending.pop()
            if children_seen:
                getattr(self, 'visit_' + type(item).__name__)(item)
                continue
            # typeshed's Hashable protocol rejects classes (their __hash__ is unbound), yet they hash
            if _own_visit_method(type(self), type(item)):  # type: ignore[arg-type]
                pending.append((item, True))
            pending.extend((child, False) for child in reversed(list(ast.iter_child_nodes(item))))

    # Names ---------------------------------------------------------------
    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if alias.asname:
                self.aliases[alias.asname] = alias.name
            else:
                top = alias.name.split('.')[0]
                self.aliases[top] = top

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.module and not node.level:
            for alias in node.names:
                self.aliases[alias.asname or alias.name] = f'{node.module}.{alias.name}'

    def qualified(self, node: ast.expr) -> str | None:
        """``re.sub`` for ``r.sub`` after ``import re as r``; None if not a name."""
        name = self.dotted(node)
        if name is None:
            return None
        first, dot, rest = name.partition('.')
        return self.aliases.get(first, first) + dot + rest

    def dotted(self, node: ast.expr) -> str | None:
        """The name a value is stored under (``p``, ``self.p``), unresolved."""
        attributes = []
        while isinstance(node, ast.Attribute):  # a loop: a chain may be thousands long
            attributes.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name):
            return None
        return '.'.join([node.id, *reversed(attributes)])

    def add_binding(self, name: str, kind: str, where: Position, text: ast.expr | None = None) -> None:
        key = 0 if '.' in name else self.chain[-1].key
        bindings = self.names.setdefault((key, name), {}).setdefault(kind, [])
        insort(bindings, (where, text), key=_FIRST)

    def lookup(self, name: str) -> tuple[dict[str, list[_Binding]], bool] | None:
        """The bindings of a name in the innermost scope that binds it, and
        whether that is the current scope (where statements run in order)."""
        if '.' in name:
            found = self.names.get((0, name))
            return (found, False) if found else None
        for depth, scope in enumerate(reversed(self.chain)):
            if depth and scope.kind == CLASS_SCOPE:
                continue
            found = self.names.get((scope.key, name))
            if found:
                return found, not depth
        return None

    def bound(self, name: str, kind: str) -> bool:
        """Is the name bound (anywhere in its scope) to a value of this kind?"""
        found = self.lookup(name)
        return found is not None and kind in found[0]

    def text_bound(self, name: str, where: int | Position) -> ast.expr | None:
        """The string expression the name holds at ``where`` (a line, or a
        position), or None: in the current scope the binding that comes last
        before it counts, a binding that is not a string unbinds."""
        return self.value_bound(name, where, TEXT)

    def value_bound(self, name: str, where: int | Position, kind: str) -> ast.expr | None:
        """``text_bound`` for the bindings of one kind (TEXT or TABLE)."""
        found = self.lookup(name)
        if found is None:
            return None
        bindings = found[0].get(kind, [])
        at = (where, _END_OF_LINE) if isinstance(where, int) else where
        index = bisect_right(bindings, at, key=_FIRST)
        if index:
            return bindings[index - 1][1]
        # From a function, an outer binding made later in the file is there when it runs.
        return None if found[1] or not bindings else bindings[-1][1]

    # What a value is --------------------------------------------------------
    def is_compiled(self, node: ast.expr) -> bool:
        if isinstance(node, ast.Call):
            return self.qualified(node.func) in COMPILE_FUNCTIONS
        name = self.dotted(node)
        return name is not None and self.bound(name, COMPILED)

    def is_match(self, node: ast.expr) -> bool:
        if isinstance(node, ast.NamedExpr):
            return self.is_match(node.value)
        if isinstance(node, ast.Call):
            if self.qualified(node.func) in MATCH_FUNCTIONS:
                return True
            func = node.func
            return (isinstance(func, ast.Attribute) and func.attr in PATTERN_MATCH_METHODS
                    and self.is_compiled(func.value))
        name = self.dotted(node)
        return name is not None and self.bound(name, MATCH)

    def is_lexer(self, base: ast.expr) -> bool:
        """A Pygments lexer class (``RegexLexer``, ``ExtendedRegexLexer``, ``PythonLexer``)."""
        name = self.qualified(base) or ''
        return (name.startswith('pygments.') and name.endswith('Lexer')) or name.endswith('RegexLexer')

    def bind(self, target: ast.expr, value: ast.expr, statement: ast.AST | None = None) -> None:
        name = self.dotted(target)
        if name is None:
            return
        end = statement or value  # the name is bound once the statement is done
        where = (end.end_lineno or end.lineno, end.end_col_offset or 0)  # type: ignore[attr-defined]
        if self.is_compiled(value):
            self.add_binding(name, COMPILED, where)
        elif self.is_match(value):
            self.add_binding(name, MATCH, where)
        else:
            # subst = "\\1 \\2" ... re.sub(p, subst, s): the binding that
            # comes last before the call counts; a non-string one unbinds.
            text = value if any(True for _ in literals_in(value)) else None
            self.add_binding(name, TEXT, where, text)
            if isinstance(value, (ast.Dict, ast.List, ast.Tuple)):
                self.add_binding(name, TABLE, where, value)

    def bind_parameters(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        """A parameter shadows outer names; it holds its default if that is a string."""
        arguments = node.args
        positional = [*arguments.posonlyargs, *arguments.args]
        defaults: list[ast.expr | None] = [None] * (len(positional) - len(arguments.defaults))
        defaults += arguments.defaults
        pairs = [*zip(positional, defaults), *zip(arguments.kwonlyargs, arguments.kw_defaults)]
        pairs += [(extra, None) for extra in (arguments.vararg, arguments.kwarg) if extra is not None]
        where = (node.lineno, node.col_offset)
        for argument, default in pairs:
            text = default if default is not None and any(True for _ in literals_in(default)) else None
            self.add_binding(argument.arg, TEXT, where, text)

    def bind_loop(self, node: ast.For | ast.AsyncFor) -> None:
        iterator = node.iter
        where = (iterator.end_lineno or iterator.lineno, iterator.end_col_offset or 0)
        if isinstance(iterator, ast.Call):
            func = iterator.func
            if self.qualified(func) in ('re.finditer', 'regex.finditer') or (
                    isinstance(func, ast.Attribute) and func.attr == 'finditer'
                    and self.is_compiled(func.value)):
                name = self.dotted(node.target)
                if name:
                    self.add_binding(name, MATCH, where)
                return
        columns = self.table_columns(iterator)
        target = node.target
        if isinstance(target, ast.Tuple):
            pairs = list(zip(target.elts, columns[:-1]))  # for pattern, repl in RULES.items()
        else:
            pairs = [(target, columns[-1])] if columns else []  # for pattern in PATTERNS
        bound: set[str] = set()
        for item, column in pairs:
            if isinstance(item, ast.Name) and column:  # each name holds any of the table's strings
                either = _any_of(column)
                self.walked.add(id(either))
                self.add_binding(item.id, TEXT, where, either)
                bound.add(item.id)
        for part in ast.walk(target):  # for SEP in ...: the name no longer holds a string
            if isinstance(part, ast.Name) and part.id not in bound:
                self.add_binding(part.id, TEXT, where)

    def table_columns(self, iterator: ast.expr) -> list[list[ast.expr]]:
        """The string items of a rule table a loop unpacks, column by column:
        keys and values of ``TABLE.items()``, or the items of the pairs of a
        list or tuple of pairs (``TABLE`` a literal or a name bound to one);
        the last column holds the rows that are single strings."""
        source: ast.expr = iterator
        items = False
        if (isinstance(iterator, ast.Call) and isinstance(iterator.func, ast.Attribute)
                and iterator.func.attr == 'items' and not iterator.args):
            items, source = True, iterator.func.value
        name = self.dotted(source)
        table = self.value_bound(name, (iterator.lineno, iterator.col_offset), TABLE) if name else source
        columns: list[list[ast.expr]] = []
        if items and isinstance(table, ast.Dict):  # keys, values, and no rows of single strings
            columns = [[key for key in table.keys if key is not None], list(table.values), []]
        elif not items and isinstance(table, (ast.List, ast.Tuple)):
            strings = []  # the rows that are not pairs, last
            for row in table.elts:
                if isinstance(row, (ast.List, ast.Tuple)):
                    columns += [[] for _ in range(len(row.elts) - len(columns))]
                    for index, item in enumerate(row.elts):
                        columns[index].append(item)
                else:
                    strings.append(row)
            columns.append(strings)
        return [[item for item in column if any(True for _ in literals_in(item))] for column in columns]

    def visit_NamedExpr(self, node: ast.NamedExpr) -> None:  # after its children (visit)
        if self.walrus:
            self.bind(node.target, node.value)

    def names_holding_candidates(self) -> set[str]:
        """Names bound to a string that holds a candidate escape."""
        return {
            name for (_, name), kinds in self.names.items()
            if any(text is not None and self.spans_candidate(text) for _, text in kinds.get(TEXT, ()))
        }

    # Tables -------------------------------------------------------------------
    def lexer_table(self, node: ast.Assign) -> None:
        """``tokens = {'root': [(r'\\bkey\\b', Keyword), (words(..., suffix=r'\\b'), Name)]}``."""
        if not any(isinstance(target, ast.Name) and target.id == LEXER_TABLE for target in node.targets):
            return
        if not isinstance(node.value, ast.Dict):
            return
        for state in node.value.values:
            if not isinstance(state, (ast.List, ast.Tuple)):
                continue
            for rule in state.elts:
                if not isinstance(rule, ast.Tuple) or not rule.elts:
                    continue
                first = rule.elts[0]
                if isinstance(first, ast.Call) and self.qualified(first.func) in LEXER_WORDS:
                    for item in first.keywords:
                        if item.arg in ('prefix', 'suffix'):  # a part of a pattern
                            self.roles.append((item.value, PATTERN))
                            self.fragments.add(id(item.value))
                else:
                    self.roles.append((first, PATTERN))

    def rule_pair(self, node: ast.Tuple | ast.List) -> None:
        """``(re.compile(r'(a)'), r'\\1')``: a compiled pattern, then its replacement."""
        if len(node.elts) >= 2 and self.is_compiled(node.elts[0]):
            self.roles.append((node.elts[1], REPLACEMENT))

    def visit_Tuple(self, node: ast.Tuple) -> None:  # after its children (visit)
        self.rule_pair(node)

    def visit_List(self, node: ast.List) -> None:  # after its children (visit)
        self.rule_pair(node)

    # Calls ----------------------------------------------------------------
    def path_arguments(self, node: ast.Call) -> PathArguments | None:
        """Which arguments of the call are paths (``EVERY_ARGUMENT``), or None."""
        name = self.qualified(node.func)
        if name is not None:
            if name in PATH_FUNCTIONS or name.rpartition('.')[0] in PATH_MODULES:
                return EVERY_ARGUMENT
            if name in PATH_ARGUMENTS:
                return PATH_ARGUMENTS[name]
        func = node.func
        return PATH_METHODS.get(func.attr) if isinstance(func, ast.Attribute) else None

    def is_path_value(self, node: ast.expr) -> bool:
        """Is the expression a path built by a call (``os.getcwd() + '\\data'`` too)?

        The leftmost term of a ``+`` chain decides, found without recursion;
        each sum on the way remembers the answer, so a chain costs linear time.
        """
        chain = []
        while isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            if node in self.path_values:
                found = self.path_values[node]
                break
            chain.append(node)
            node = node.left
        else:
            found = isinstance(node, ast.Call) and self.qualified(node.func) in PATH_VALUE_FUNCTIONS
        for step in chain:
            self.path_values[step] = found
        return found

    def is_pathlib(self, node: ast.expr) -> bool:
        while isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):  # a loop, not recursion
            node = node.left
        return isinstance(node, ast.Call) and self.qualified(node.func) in PATHLIB_CLASSES

    def visit_BinOp(self, node: ast.BinOp) -> None:  # after its children (visit)
        if isinstance(node.op, ast.Div) and self.is_pathlib(node.left):
            self.roles.append((node.right, PATH))
        elif isinstance(node.op, ast.Add) and self.is_path_value(node.left):
            self.roles.append((node.right, PATH))

    def visit_Call(self, node: ast.Call) -> None:  # after its children (visit)
        takes = self.path_arguments(node)
        if takes is not None:
            if takes is EVERY_ARGUMENT:
                arguments = [*node.args, *(item.value for item in node.keywords)]
            else:
                arguments = [node.args[index] for index in takes.positions if index < len(node.args)]
                arguments += [item.value for item in node.keywords if item.arg in takes.keywords]
            for argument in arguments:
                if isinstance(argument, ast.Starred):
                    continue
                items = argument.elts if isinstance(argument, (ast.List, ast.Tuple)) else [argument]
                for item in items:
                    name = self.dotted(item)
                    if name is not None:  # folder = 'C:\\new' ... os.listdir(folder)
                        bound = self.text_bound(name, node.lineno)
                        # A name that a loop takes from a list of literals (a test's odd
                        # file names, 'file\\twith\\ttabs.txt') does not make them paths.
                        if bound is not None and id(bound) not in self.walked:
                            item = bound
                    self.roles.append((item, PATH))
            return
        signature = self.signature(node)
        if signature is not None:
            self.take(node, signature.pattern, signature.pattern_keyword, PATTERN)
            self.take(node, signature.replacement, signature.replacement_keyword, REPLACEMENT)

    def signature(self, node: ast.Call) -> Signature | None:
        func = node.func
        name = self.qualified(func)
        if name in self.functions:
            return self.functions[name]
        if name in REGEX_FUNCTIONS:
            return REGEX_FUNCTIONS[name]
        if name in OTHER_REGEX_FUNCTIONS:
            return OTHER_REGEX_FUNCTIONS[name]
        if not isinstance(func, ast.Attribute):
            return None
        method = func.attr
        if method in REGEX_METHODS:
            return REGEX_METHODS[method]
        if method in PATTERN_SUB_METHODS and self.is_compiled(func.value):
            return Signature(None, 0)
        if method == 'expand' and self.is_match(func.value):
            return Signature(None, 0, '', 'template')
        if isinstance(func.value, ast.Attribute) and func.value.attr == 'str':
            if method in PANDAS_REGEX_METHODS and not _keyword_is(node, 'regex', False):
                return Signature(0, None, 'pat')
            if method in PANDAS_REGEX_IF_ASKED and _keyword_is(node, 'regex', True):
                return PANDAS_REGEX_IF_ASKED[method]
        elif method in PANDAS_FRAME_REGEX_IF_ASKED and _keyword_is(node, 'regex', True):
            return PANDAS_FRAME_REGEX_IF_ASKED[method]
        return None

    def take(self, node: ast.Call, index: int | None, keyword: str, role: str) -> None:
        argument = None
        if index is not None and index < len(node.args):
            argument = node.args[index]
        for item in node.keywords:
            if keyword and item.arg == keyword:
                argument = item.value
        if argument is None or isinstance(argument, ast.Starred):
            return
        name = self.dotted(argument)
        if name is not None:
            argument = self.text_bound(name, (argument.lineno, argument.col_offset)) or argument
        self.roles.append((argument, role))


def _any_of(expressions: list[ast.expr]) -> ast.expr:
    """One expression whose literals are all of ``expressions`` (``literals_in``
    reads both sides of an ``or``), spanning them."""
    if len(expressions) == 1:
        return expressions[0]
    either = ast.BoolOp(op=ast.Or(), values=expressions)
    first, last = expressions[0], expressions[-1]
    either.lineno, either.col_offset = first.lineno, first.col_offset
    either.end_lineno, either.end_col_offset = last.end_lineno, last.end_col_offset
    return either


@functools.lru_cache(maxsize=None)
def _own_visit_method(visitor: type, kind: type) -> bool:
    """Does ``visitor`` (not ``ast.NodeVisitor``) define ``visit_<kind>``?"""
    name = 'visit_' + kind.__name__
    return getattr(visitor, name, None) not in (None, getattr(ast.NodeVisitor, name, None))


def _keyword_is(node: ast.Call, name: str, value: bool) -> bool:
    return any(
        item.arg == name and isinstance(item.value, ast.Constant) and item.value.value is value
        for item in node.keywords
    )


def literals_in(node: ast.expr) -> Iterable[ast.expr]:
    """The string literals an expression builds its value from, left to right.

    Without recursion: a ``+`` chain of thousands of literals is as deep as it is long.
    """
    pending = [node]
    while pending:
        node = pending.pop()
        parts: list[ast.expr] = []  # in source order; pushed reversed below
        if isinstance(node, ast.Constant) and isinstance(node.value, (str, bytes)):
            yield node
        elif isinstance(node, ast.JoinedStr):
            yield node
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            parts = [node.left, node.right]
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
            parts = [node.left]
        elif isinstance(node, ast.IfExp):
            parts = [node.body, node.orelse]
        elif isinstance(node, ast.BoolOp):
            parts = node.values
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr == 'format':
                parts = [node.func.value]
            elif node.func.attr == 'join':
                parts = [node.func.value]
                for argument in node.args:
                    if isinstance(argument, (ast.List, ast.Tuple, ast.Set)):
                        parts.extend(argument.elts)
        pending.extend(reversed(parts))


def is_string(node: ast.expr) -> bool:
    """A str or bytes literal, or an f-string."""
    return isinstance(node, ast.JoinedStr) or (
        isinstance(node, ast.Constant) and isinstance(node.value, (str, bytes)))


def constant_text(expression: ast.expr) -> str | None:
    """The value of a single str or bytes literal (bytes read as latin-1), else None."""
    if not isinstance(expression, ast.Constant):
        return None
    value = expression.value
    if isinstance(value, bytes):
        return value.decode('latin-1')
    return value if isinstance(value, str) else None


def means_backspace(expression: ast.expr) -> bool:
    """Is the expression one literal whose value only matches backspaces?"""
    value = constant_text(expression)
    return value is not None and '\b' in value and set(value) <= BACKSPACE_PATTERN_CHARS


def groups_opened(expression: ast.expr) -> int:
    """How many groups a pattern that is one literal opens (``(`` not escaped,
    not in a character class, not ``(?:``-like; ``(?P<name>`` counts), or -1
    when it is not one literal."""
    value = constant_text(expression)
    if value is None:
        return -1
    count, index, in_class, end = 0, 0, False, len(value)
    while index < end:
        char = value[index]
        if char == '\\':
            index += 2
            continue
        if in_class:
            in_class = char != ']'
        elif char == '[':
            in_class = True
            if value.startswith('^', index + 1):
                index += 1
            if value.startswith(']', index + 1):  # a ']' first belongs to the class
                index += 1
        elif char == '(' and (not value.startswith('?', index + 1) or value.startswith('?P<', index + 1)):
            count += 1
        index += 1
    return count


def groupless(expression: ast.expr) -> bool:
    """Is the expression one literal with no group and one numbered control
    character, a marker such as mercurial's '\\1\\n' around file metadata?

    re could not read an octal escape there as a backreference.  Several
    numbered ones in a row ('\\1.\\2. \\3', estnltk) are a replacement template
    passed where the pattern goes: still reported.
    """
    value = constant_text(expression)
    return value is not None and '(' not in value and len(NUMBERED_CONTROLS.intersection(value)) <= 1


class Roles(list[Role]):
    """``literal_roles``' answer: a list of roles that ``role_at`` looks up
    by bisection on their starts (an index built on the first lookup)."""

    _index: tuple[int, list[Position], list[Position], list[int]] | None = None

    def positions(self) -> tuple[int, list[Position], list[Position], list[int]]:
        if self._index is None or self._index[0] != len(self):
            order = sorted(range(len(self)), key=lambda i: (self[i].start, i))
            starts = [self[i].start for i in order]
            reach: list[Position] = []  # the furthest end of the roles up to here
            for i in order:
                end = self[i].end
                reach.append(end if not reach or end > reach[-1] else reach[-1])
            self._index = (len(self), starts, reach, order)
        return self._index


def literal_roles(
    tree: ast.AST, lines: list[str], functions: dict[str, Signature], candidate_lines: list[int],
) -> Roles:
    """Each literal used as a regex pattern or replacement, or as a path, near
    the candidates.

    Only calls in statements that span one of ``candidate_lines`` (sorted) are
    looked at.  Positions are (line, character column), as tokens count them.
    """
    body = getattr(tree, 'body', [])
    visitor = _Visitor(functions, [])
    visitor.scan(body, docstring_first=True)  # every name first: a function may use one bound below it
    visitor.visit_lines(candidate_lines)
    # pattern = '\\bword'; ...; re.search(pattern, s): visit the statements
    # that use such a name too (found in the text, then checked in the AST).
    names = visitor.names_holding_candidates()
    if names:
        words = re.compile(r'(?<![\w.])(?:%s)\b' % '|'.join(map(re.escape, sorted(names))))
        uses = [number for number, line in enumerate(lines, 1) if words.search(line)]
        use_lines = sorted(set(uses) - set(candidate_lines))
        visitor.walrus = False
        if use_lines:
            visitor.visit_lines(use_lines)
    roles = Roles()
    for expression, role in visitor.roles:
        whole = id(expression) not in visitor.fragments
        backspace = whole and means_backspace(expression)
        no_group = whole and role == PATTERN and groupless(expression)
        groups = groups_opened(expression) if whole and role == PATTERN else -1
        for literal in literals_in(expression):
            start, end = _span(literal, lines)
            roles.append(Role(start, end, role, backspace, no_group, groups))
    return roles


def role_at(
    roles: list[Role], line: int, col: int, kinds: tuple[str, ...],
) -> Role | None:
    """The first role (in list order) of one of ``kinds`` whose literal holds (line, col)."""
    if not isinstance(roles, Roles):
        roles = Roles(roles)
    _, starts, reach, order = roles.positions()
    position = (line, col)
    best = -1
    at = bisect_right(starts, position) - 1
    while at >= 0 and reach[at] > position:
        role = roles[order[at]]
        if role.role in kinds and position < role.end and (best < 0 or order[at] < best):
            best = order[at]
        at -= 1
    return roles[best] if best >= 0 else None


#: Methods whose first argument is text looked for in a string.
LOOKUP_METHODS = frozenset({
    'split', 'rsplit', 'replace', 'find', 'rfind', 'index', 'rindex', 'count', 'startswith',
    'endswith', 'partition', 'rpartition', 'strip', 'lstrip', 'rstrip', 'removeprefix', 'removesuffix',
})
#: ``re``/``regex`` functions whose first argument is a pattern.
PATTERN_FIRST = frozenset(name.partition('.')[2] for name in REGEX_FUNCTIONS)


def looked_for_characters(tree: ast.AST, lines: list[str]) -> dict[str, list[tuple[Position, Position]]]:
    """The control characters a module looks for in a string, each with the
    spans (start, end) of the literals that look for it: the text given to
    ``split``/``replace``/``find``/..., the left of ``in``, a ``re`` pattern
    that is a marker (``re.sub('\\1', '}', s)``, see ``groupless``).  A
    numbered escape the module also looks for elsewhere is a marker it put
    there on purpose.
    """
    found: dict[str, list[tuple[Position, Position]]] = {}
    for node in ast.walk(tree):
        looked: ast.expr | None = None
        if isinstance(node, ast.Call) and node.args and isinstance(node.func, ast.Attribute):
            method = node.func.attr
            if method in LOOKUP_METHODS:
                looked = node.args[0]
            elif method in PATTERN_FIRST and isinstance(node.func.value, ast.Name) and \
                    node.func.value.id in ('re', 'regex') and groupless(node.args[0]):
                looked = node.args[0]
        elif isinstance(node, ast.Compare) and isinstance(node.ops[0], (ast.In, ast.NotIn)):
            looked = node.left
        text = constant_text(looked) if looked is not None else None
        if text and min(text) < ' ':
            assert looked is not None
            span = _span(looked, lines)
            for char in set(text):
                if char < ' ':
                    found.setdefault(char, []).append(span)
    return found


def _span(node: ast.expr, lines: list[str]) -> tuple[Position, Position]:
    """A node's (start, end) in the tokens' (line, character column)."""
    start_line, end_line = node.lineno, node.end_lineno or node.lineno
    return ((start_line, _char_col(lines[start_line - 1], node.col_offset)),
            (end_line, _char_col(lines[end_line - 1], node.end_col_offset or 0)))
