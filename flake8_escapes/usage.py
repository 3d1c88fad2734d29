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
command of ``subprocess`` calls (items of a list too), and the right side of
``/`` after a ``pathlib`` object.

Inside a role, every literal of the expression counts: implicit and ``+``
concatenation, the template of ``%`` and ``.format``, the separator and the
listed items of ``.join``, both arms of a conditional, f-strings.
"""
from __future__ import annotations

import ast
import functools
import re
from bisect import bisect_left
from typing import Iterable, NamedTuple

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
REPLACEMENT = 'replacement'
PATH = 'path'
#: A pattern made of nothing but these characters is about backspaces on
#: purpose: pydoc's re.sub('.\b', '', text) removes terminal overstrike.
BACKSPACE_PATTERN_CHARS = frozenset('\b.*+?[]^()')


class Role(NamedTuple):
    """A literal used as a regex pattern or replacement, in token positions."""

    start: Position
    end: Position      # exclusive
    role: str          # PATTERN, REPLACEMENT, PATH or DISCARDED
    means_backspace: bool = False  # the whole pattern is a backspace matcher (see above)
    groupless: bool = False        # the whole pattern is literal text without a group


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


#: Modules all of whose functions take paths, and single functions that do.
PATH_MODULES = frozenset({'os', 'os.path', 'shutil', 'glob', 'pathlib'})
PATH_FUNCTIONS = frozenset({
    'open', 'io.open', 'codecs.open', 'builtins.open', 'zipfile.ZipFile', 'tarfile.open',
    'subprocess.run', 'subprocess.call', 'subprocess.check_call', 'subprocess.check_output',
    'subprocess.Popen', 'subprocess.getoutput', 'subprocess.getstatusoutput',
})
PATHLIB_CLASSES = frozenset(
    f'pathlib.{name}' for name in ('Path', 'PurePath', 'PureWindowsPath', 'WindowsPath', 'PosixPath'))


def parse_functions(value: str) -> dict[str, Signature]:
    """``--escapes-regex-functions``: ``name:PATTERN_POS[:REPL_POS], ...``.

    A position may be left empty (``mylib.rx_sub::1``).  Raises ValueError
    with a message that says what is wrong.
    """
    functions: dict[str, Signature] = {}
    for item in value.split(','):
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


def _char_col(line: str, byte_col: int) -> int:
    """A column in characters from the AST's UTF-8 byte column."""
    if line.isascii():
        return byte_col
    return len(line.encode('utf-8')[:byte_col].decode('utf-8', errors='replace'))


class _Visitor(ast.NodeVisitor):
    """Collects the regex roles of the literals on ``lines``.

    The whole tree is too slow to visit node by node (an ``ast.NodeVisitor``
    over a large test module costs tens of milliseconds), so ``scan`` walks
    statements only: imports and assignments anywhere give the names, and
    only the statements that span a candidate line have their expressions
    visited for calls.
    """

    def __init__(self, functions: dict[str, Signature], lines: list[int]) -> None:
        self.functions = functions
        self.lines = lines                     # sorted lines holding a candidate escape
        self.aliases: dict[str, str] = {}     # local name -> qualified name
        self.patterns: set[str] = set()        # dotted names bound to compiled patterns
        self.matches: set[str] = set()         # dotted names bound to match objects
        # dotted name -> (line, string expression) bindings, in file order
        self.texts: dict[str, list[tuple[int, ast.expr]]] = {}
        self.roles: list[tuple[ast.expr, str]] = []
        self.binding = True                    # False on a second pass

    # Statements ------------------------------------------------------------
    def spans_candidate(self, node: ast.AST) -> bool:
        first = bisect_left(self.lines, node.lineno)
        return first < len(self.lines) and self.lines[first] <= (node.end_lineno or node.lineno)

    def scan(self, body: list[ast.stmt], docstring_first: bool = False) -> None:
        for index, stmt in enumerate(body):
            kind = type(stmt)
            if (kind is ast.Expr and is_string(stmt.value)
                    and not (index == 0 and docstring_first) and self.spans_candidate(stmt)):
                self.roles.append((stmt.value, DISCARDED))
                continue
            if not self.binding:
                pass
            elif kind is ast.Import:
                self.visit_Import(stmt)
            elif kind is ast.ImportFrom:
                self.visit_ImportFrom(stmt)
            elif kind is ast.Assign:
                for target in stmt.targets:
                    self.bind(target, stmt.value)
            elif kind is ast.AnnAssign and stmt.value is not None:
                self.bind(stmt.target, stmt.value)
            elif kind in (ast.For, ast.AsyncFor):
                self.bind_loop(stmt)
            has_candidate = self.spans_candidate(stmt)
            defines = kind in DEFINITIONS
            for field, value in ast.iter_fields(stmt):
                if isinstance(value, list) and value and isinstance(value[0], ast.stmt):
                    self.scan(value, defines and field == 'body')
                elif isinstance(value, list) and value and isinstance(value[0], CLAUSES):
                    for clause in value:
                        if has_candidate:
                            for _, part in ast.iter_fields(clause):
                                if isinstance(part, ast.AST):
                                    self.visit(part)
                        self.scan(clause.body)
                elif has_candidate:
                    for node in value if isinstance(value, list) else [value]:
                        if isinstance(node, ast.AST):
                            self.visit(node)

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
            if _own_visit_method(type(self), type(item)):
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

    # What a value is --------------------------------------------------------
    def is_compiled(self, node: ast.expr) -> bool:
        if isinstance(node, ast.Call):
            return self.qualified(node.func) in COMPILE_FUNCTIONS
        return self.dotted(node) in self.patterns

    def is_match(self, node: ast.expr) -> bool:
        if isinstance(node, ast.NamedExpr):
            return self.is_match(node.value)
        if isinstance(node, ast.Call):
            if self.qualified(node.func) in MATCH_FUNCTIONS:
                return True
            func = node.func
            return (isinstance(func, ast.Attribute) and func.attr in PATTERN_MATCH_METHODS
                    and self.is_compiled(func.value))
        return self.dotted(node) in self.matches

    def bind(self, target: ast.expr, value: ast.expr) -> None:
        name = self.dotted(target)
        if name is None:
            return
        if self.is_compiled(value):
            self.patterns.add(name)
        elif self.is_match(value):
            self.matches.add(name)
        else:
            # subst = "\\1 \\2" ... re.sub(p, subst, s): the binding that
            # comes last before the call counts; a non-string one unbinds.
            text = value if any(True for _ in literals_in(value)) else None
            self.texts.setdefault(name, []).append((value.lineno, text))

    def bind_loop(self, node: ast.For | ast.AsyncFor) -> None:
        iterator = node.iter
        if isinstance(iterator, ast.Call):
            func = iterator.func
            if self.qualified(func) in ('re.finditer', 'regex.finditer') or (
                    isinstance(func, ast.Attribute) and func.attr == 'finditer'
                    and self.is_compiled(func.value)):
                name = self.dotted(node.target)
                if name:
                    self.matches.add(name)

    def text_bound(self, name: str, line: int) -> ast.expr | None:
        bound = None
        for where, text in self.texts.get(name, ()):
            if where > line:
                break
            bound = text
        return bound

    def visit_NamedExpr(self, node: ast.NamedExpr) -> None:  # after its children (visit)
        if self.binding:
            self.bind(node.target, node.value)

    def names_holding_candidates(self) -> set[str]:
        """Names bound to a string that holds a candidate escape."""
        return {
            name for name, bindings in self.texts.items()
            if any(text is not None and self.spans_candidate(text) for _, text in bindings)
        }

    # Calls ----------------------------------------------------------------
    def is_path_call(self, node: ast.Call) -> bool:
        name = self.qualified(node.func)
        return name is not None and (name in PATH_FUNCTIONS or name.rpartition('.')[0] in PATH_MODULES)

    def is_pathlib(self, node: ast.expr) -> bool:
        while isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):  # a loop, not recursion
            node = node.left
        return isinstance(node, ast.Call) and self.qualified(node.func) in PATHLIB_CLASSES

    def visit_BinOp(self, node: ast.BinOp) -> None:  # after its children (visit)
        if isinstance(node.op, ast.Div) and self.is_pathlib(node.left):
            self.roles.append((node.right, PATH))

    def visit_Call(self, node: ast.Call) -> None:  # after its children (visit)
        if self.is_path_call(node):
            for argument in [*node.args, *(item.value for item in node.keywords)]:
                if isinstance(argument, ast.Starred):
                    continue
                items = argument.elts if isinstance(argument, (ast.List, ast.Tuple)) else [argument]
                for item in items:
                    name = self.dotted(item)
                    if name is not None:  # folder = 'C:\\new' ... os.listdir(folder)
                        item = self.text_bound(name, node.lineno) or item
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
        if not isinstance(func, ast.Attribute):
            return None
        method = func.attr
        if method in PATTERN_SUB_METHODS and self.is_compiled(func.value):
            return Signature(None, 0)
        if method == 'expand' and self.is_match(func.value):
            return Signature(None, 0, '', 'template')
        if isinstance(func.value, ast.Attribute) and func.value.attr == 'str':
            if method in PANDAS_REGEX_METHODS and not _keyword_is(node, 'regex', False):
                return Signature(0, None, 'pat')
            if method in PANDAS_REGEX_IF_ASKED and _keyword_is(node, 'regex', True):
                return PANDAS_REGEX_IF_ASKED[method]
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
            argument = self.text_bound(name, node.lineno) or argument
        self.roles.append((argument, role))


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


def groupless(expression: ast.expr) -> bool:
    """Is the expression one literal with no group and one numbered control
    character, a marker such as mercurial's '\\1\\n' around file metadata?

    re could not read an octal escape there as a backreference.  Several
    numbered ones in a row ('\\1.\\2. \\3', estnltk) are a replacement template
    passed where the pattern goes: still reported.
    """
    value = constant_text(expression)
    return value is not None and '(' not in value and len(NUMBERED_CONTROLS.intersection(value)) <= 1


def literal_roles(
    tree: ast.AST, lines: list[str], functions: dict[str, Signature], candidate_lines: list[int],
) -> list[Role]:
    """Each literal used as a regex pattern or replacement, or as a path, near
    the candidates.

    Only calls in statements that span one of ``candidate_lines`` (sorted) are
    looked at.  Positions are (line, character column), as tokens count them.
    """
    body = getattr(tree, 'body', [])
    visitor = _Visitor(functions, candidate_lines)
    visitor.scan(body, docstring_first=True)
    # pattern = '\\bword'; ...; re.search(pattern, s): visit the statements
    # that use such a name too (found in the text, then checked in the AST).
    names = visitor.names_holding_candidates()
    if names:
        words = re.compile(r'(?<![\w.])(?:%s)\b' % '|'.join(map(re.escape, sorted(names))))
        uses = [number for number, line in enumerate(lines, 1) if words.search(line)]
        visitor.lines = sorted(set(uses) - set(candidate_lines))
        visitor.binding = False
        if visitor.lines:
            visitor.scan(body, docstring_first=True)
    roles = []
    for expression, role in visitor.roles:
        backspace = means_backspace(expression)
        no_group = role == PATTERN and groupless(expression)
        for literal in literals_in(expression):
            start_line, end_line = literal.lineno, literal.end_lineno or literal.lineno
            start = (start_line, _char_col(lines[start_line - 1], literal.col_offset))
            end = (end_line, _char_col(lines[end_line - 1], literal.end_col_offset or 0))
            roles.append(Role(start, end, role, backspace, no_group))
    return roles


def role_at(
    roles: list[Role], line: int, col: int, kinds: tuple[str, ...],
) -> Role | None:
    for role in roles:
        if role.role in kinds and role.start <= (line, col) < role.end:
            return role
    return None
