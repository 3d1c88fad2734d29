"""Names: imports, scopes and what each name is bound to, as pyflakes' ``Binding``/``Scope`` model keeps them.

Imports give aliases (``r.sub`` is ``re.sub`` after ``import re as r``).
Scopes are the module, classes and functions; a name is looked up innermost
first, skipping class bodies seen from their functions, as pyflakes does: a
parameter shadows the module's binding of the same name.  Attributes
(``self.p``) are bound in the module scope.  Each binding is kept by the
position where it takes effect: a string expression (``TEXT``; a binding to
anything else unbinds), a rule table (``TABLE``), or a kind of value the
caller names (the role pass asks for compiled patterns and matches through
the ``kind_of`` predicate it passes in).

Knows nothing of regexes, paths or TeX.  May import only the standard library.
"""
from __future__ import annotations

import ast
import sys
from bisect import bisect_right, insort
from operator import itemgetter
from typing import Any, Callable, Iterable, Iterator, NamedTuple, Optional

Position = tuple[int, int]

#: What a name is bound to: a string expression (or a value that is not one).
TEXT = 'text'
#: A dict, list or tuple literal: a rule table a loop may unpack.
TABLE = 'table'
#: Kinds of scope, as pyflakes keeps them: a class body's names are not seen
#: from the functions defined in it.
MODULE_SCOPE = 'module'
CLASS_SCOPE = 'class'
FUNCTION_SCOPE = 'function'
#: The fields of a statement that hold statements, in source order (those of
#: ``Try``: body, handlers, orelse, finalbody), and those that hold clauses
#: with a body of their own (``except ...:``, ``case ...:``).
STATEMENT_FIELDS = ('body', 'handlers', 'cases', 'orelse', 'finalbody')
CLAUSE_FIELDS = frozenset({'handlers', 'cases'})
_STATEMENT_PARTS: dict[type, tuple[tuple[str, bool], ...]] = {}
_FIRST = itemgetter(0)
#: A position after every column of a line.
_END_OF_LINE = sys.maxsize


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


def literals_in(node: ast.expr) -> Iterable[ast.expr]:
    """The string literals an expression builds its value from, left to right:
    implicit and ``+`` concatenation, the template of ``%`` and ``.format``,
    the separator and the listed items of ``.join``, both arms of a
    conditional and of ``or``/``and``, f-strings.

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
            parts = _call_parts(node, node.func)
        pending.extend(reversed(parts))


def _call_parts(node: ast.Call, func: ast.Attribute) -> list[ast.expr]:
    """The parts of ``'...'.format(...)`` and ``sep.join([...])`` that build the text."""
    if func.attr == 'format':
        return [func.value]
    parts = []
    if func.attr == 'join':
        parts.append(func.value)
        for argument in node.args:
            if isinstance(argument, (ast.List, ast.Tuple, ast.Set)):
                parts.extend(argument.elts)
    return parts


def holds_text(node: ast.expr) -> bool:
    """Is any literal part of the expression's value (``literals_in``)?"""
    return any(True for _ in literals_in(node))


def is_string(node: ast.expr) -> bool:
    """A str or bytes literal, or an f-string."""
    return isinstance(node, ast.JoinedStr) or (
        isinstance(node, ast.Constant) and isinstance(node.value, (str, bytes)))


def dotted(node: ast.expr) -> str | None:
    """The name a value is stored under (``p``, ``self.p``), unresolved."""
    attributes = []
    while isinstance(node, ast.Attribute):  # a loop: a chain may be thousands long
        attributes.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return '.'.join([node.id, *reversed(attributes)])


def any_of(expressions: list[ast.expr]) -> ast.expr:
    """One expression whose literals are all of ``expressions`` (``literals_in``
    reads both sides of an ``or``), spanning them."""
    if len(expressions) == 1:
        return expressions[0]
    either = ast.BoolOp(op=ast.Or(), values=expressions)
    first, last = expressions[0], expressions[-1]
    either.lineno, either.col_offset = first.lineno, first.col_offset
    either.end_lineno, either.end_col_offset = last.end_lineno, last.end_col_offset
    return either


class Scope(NamedTuple):
    key: int              # 0 for the module, else id() of the definition
    kind: str             # MODULE_SCOPE, CLASS_SCOPE or FUNCTION_SCOPE
    marked: bool = False  # a class the caller's ``marks_class`` picked (a Pygments lexer)


#: (where the binding takes effect, string expression or None)
Binding = tuple[Position, Optional[ast.expr]]
#: A statement, the scopes it runs in (innermost last), and whether it is a docstring's place.
Statement = tuple[ast.stmt, tuple[Scope, ...], bool]


class Bindings:
    """The bindings of each name per scope, and their lookup from ``chain`` (the current scopes)."""

    def __init__(self) -> None:
        self.aliases: dict[str, str] = {}     # local name -> qualified name
        # (scope key, dotted name) -> kind -> bindings sorted by position
        self.names: dict[tuple[int, str], dict[str, list[Binding]]] = {}
        self.chain: tuple[Scope, ...] = (Scope(0, MODULE_SCOPE),)  # the scopes, innermost last

    def qualified(self, node: ast.expr) -> str | None:
        """``re.sub`` for ``r.sub`` after ``import re as r``; None if not a name."""
        name = dotted(node)
        if name is None:
            return None
        first, dot, rest = name.partition('.')
        return self.aliases.get(first, first) + dot + rest

    def add(self, name: str, kind: str, where: Position, text: ast.expr | None = None) -> None:
        key = 0 if '.' in name else self.chain[-1].key
        bindings = self.names.setdefault((key, name), {}).setdefault(kind, [])
        insort(bindings, (where, text), key=_FIRST)

    def lookup(self, name: str) -> tuple[dict[str, list[Binding]], bool] | None:
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

    def texts(self) -> Iterator[tuple[str, ast.expr]]:
        """Every name with each string expression it is bound to, in any scope."""
        for (_, name), kinds in self.names.items():
            for _, text in kinds.get(TEXT, ()):
                if text is not None:
                    yield name, text


def _no_kind(value: ast.expr) -> str | None:
    return None


def _no_mark(definition: ast.ClassDef) -> bool:
    return False


class Names(Bindings):
    """Binds the names of every statement of a module (``scan``), keeping each
    statement with its scopes for a later pass (a function may use a name
    bound below it).

    ``kind_of(value)`` names the kind of value an assignment binds besides
    text (None: text, or not a string); ``item_kind_of(iterable)`` the kind of
    the items a ``for`` loop takes from it; ``marks_class(definition)`` marks
    a class scope (``Scope.marked``).
    """

    def __init__(self, kind_of: Callable[[ast.expr], str | None] = _no_kind,
                 item_kind_of: Callable[[ast.expr], str | None] = _no_kind,
                 marks_class: Callable[[ast.ClassDef], bool] = _no_mark) -> None:
        super().__init__()
        self.kind_of = kind_of
        self.item_kind_of = item_kind_of
        self.marks_class = marks_class
        self.statements: list[Statement] = []
        self.walked: set[int] = set()  # id() of the values loops bind from a table's items
        # the statements that bind names, by type, and what binds them
        self.binders: dict[type, Callable[[Any], None]] = {
            ast.Import: self.bind_import, ast.ImportFrom: self.bind_import_from,
            ast.Assign: self.bind_assign, ast.AnnAssign: self.bind_annotated,
            ast.For: self.bind_loop, ast.AsyncFor: self.bind_loop,
        }

    def release(self) -> None:
        """Drop the callables that refer back to this object or to its owner (bound
        methods: reference cycles that only the cyclic garbage collector would free,
        the module's whole AST with them, long after the file is done)."""
        self.binders = {}
        self.kind_of = self.item_kind_of = _no_kind
        self.marks_class = _no_mark

    def scan(self, body: list[ast.stmt], docstring_first: bool = False) -> None:
        """Bind the names of every statement, and keep each statement with its scopes."""
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

    def scope_of(self, stmt: ast.stmt) -> Scope | None:
        """The scope a definition's body opens, or None."""
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return Scope(id(stmt), FUNCTION_SCOPE)
        if isinstance(stmt, ast.ClassDef):
            return Scope(id(stmt), CLASS_SCOPE, self.marks_class(stmt))
        return None

    def bind_import(self, node: ast.Import) -> None:
        for alias in node.names:
            if alias.asname:
                self.aliases[alias.asname] = alias.name
            else:
                top = alias.name.split('.')[0]
                self.aliases[top] = top

    def bind_import_from(self, node: ast.ImportFrom) -> None:
        if node.module and not node.level:
            for alias in node.names:
                self.aliases[alias.asname or alias.name] = f'{node.module}.{alias.name}'

    def bind_assign(self, stmt: ast.Assign) -> None:
        for target in stmt.targets:
            self.bind(target, stmt.value, stmt)

    def bind_annotated(self, stmt: ast.AnnAssign) -> None:
        if stmt.value is not None:
            self.bind(stmt.target, stmt.value, stmt)

    def bind(self, target: ast.expr, value: ast.expr, statement: ast.AST | None = None) -> None:
        """Bind ``target`` to ``value`` once ``statement`` (or the value, for a walrus) is done."""
        name = dotted(target)
        if name is None:
            return
        end = statement or value
        where = (end.end_lineno or end.lineno, end.end_col_offset or 0)  # type: ignore[attr-defined]
        kind = self.kind_of(value)
        if kind is not None:
            self.add(name, kind, where)
            return
        # subst = "\\1 \\2" ... re.sub(p, subst, s): the binding that
        # comes last before the call counts; a non-string one unbinds.
        self.add(name, TEXT, where, value if holds_text(value) else None)
        if isinstance(value, (ast.Dict, ast.List, ast.Tuple)):
            self.add(name, TABLE, where, value)

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
            text = default if default is not None and holds_text(default) else None
            self.add(argument.arg, TEXT, where, text)

    def bind_loop(self, node: ast.For | ast.AsyncFor) -> None:
        """``for m in re.finditer(...)`` binds a kind (``item_kind_of``); ``for
        pattern, repl in RULES.items()`` binds each name to any of the table's
        strings in its column; other names of the target no longer hold a string."""
        iterator = node.iter
        where = (iterator.end_lineno or iterator.lineno, iterator.end_col_offset or 0)
        kind = self.item_kind_of(iterator)
        if kind is not None:
            name = dotted(node.target)
            if name:
                self.add(name, kind, where)
            return
        columns = table_columns(self, iterator)
        target = node.target
        if isinstance(target, ast.Tuple):
            pairs = list(zip(target.elts, columns[:-1]))  # for pattern, repl in RULES.items()
        else:
            pairs = [(target, columns[-1])] if columns else []  # for pattern in PATTERNS
        bound: set[str] = set()
        for item, column in pairs:
            if isinstance(item, ast.Name) and column:  # each name holds any of the table's strings
                either = any_of(column)
                self.walked.add(id(either))
                self.add(item.id, TEXT, where, either)
                bound.add(item.id)
        for part in ast.walk(target):  # for SEP in ...: the name no longer holds a string
            if isinstance(part, ast.Name) and part.id not in bound:
                self.add(part.id, TEXT, where)


def table_columns(names: Bindings, iterator: ast.expr) -> list[list[ast.expr]]:
    """The string items of a rule table a loop unpacks, column by column:
    keys and values of ``TABLE.items()``, or the items of the pairs of a
    list or tuple of pairs (``TABLE`` a literal or a name bound to one);
    the last column holds the rows that are single strings."""
    source: ast.expr = iterator
    items = False
    if (isinstance(iterator, ast.Call) and isinstance(iterator.func, ast.Attribute)
            and iterator.func.attr == 'items' and not iterator.args):
        items, source = True, iterator.func.value
    name = dotted(source)
    table = names.value_bound(name, (iterator.lineno, iterator.col_offset), TABLE) if name else source
    columns: list[list[ast.expr]] = []
    if items and isinstance(table, ast.Dict):  # keys, values, and no rows of single strings
        columns = [[key for key in table.keys if key is not None], list(table.values), []]
    elif not items and isinstance(table, (ast.List, ast.Tuple)):
        columns = _row_columns(table)
    return [[item for item in column if holds_text(item)] for column in columns]


def _row_columns(table: ast.List | ast.Tuple) -> list[list[ast.expr]]:
    """The items of a list of pairs column by column, then the rows that are not pairs."""
    columns: list[list[ast.expr]] = []
    strings = []
    for row in table.elts:
        if isinstance(row, (ast.List, ast.Tuple)):
            columns += [[] for _ in range(len(row.elts) - len(columns))]
            for index, item in enumerate(row.elts):
                columns[index].append(item)
        else:
            strings.append(row)
    columns.append(strings)
    return columns
