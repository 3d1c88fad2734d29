"""The role pass: where each literal near a candidate escape is used, read from names and APIs.

The tokens say what a literal spells; only the AST says where it is used.
The pass runs only for files that hold a candidate escape (an octal escape
that re would read as a backreference, ``\\b``, a path hazard), and gives the
string literals of the statements spanning one a ``Role``: a regex
``PATTERN`` or ``REPLACEMENT`` or a ``PATH`` (the arguments the rows of
``apis`` name, the right side of ``/`` after a ``pathlib`` object and of
``+`` after a call that returns a path), or ``DISCARDED`` (a string
statement that is not a docstring), in the tokens' (line, character)
positions, with the facts the regex family reads about a whole pattern
(``means_backspace``, ``groupless``, ``groups``).  Inside a role, every
literal of the expression counts (``names.literals_in``); a name used there
stands for the string it is bound to (``names``).

It also collects what a family needs about the whole module
(``looked_for_later``: the control characters the module looks for), so
that no family calls back into the pass.

May import ``apis``, ``names`` and ``literals``; the families import it
only for ``Role``, ``role_at`` and the role names.
"""
from __future__ import annotations

import ast
import functools
import re
from bisect import bisect_left, bisect_right
from typing import Callable, Iterable, Iterator, NamedTuple

from flake8_escapes import apis
from flake8_escapes.apis import PATH as PATH, PATTERN as PATTERN, REPLACEMENT as REPLACEMENT
from flake8_escapes.literals import char_col as _char_col
from flake8_escapes.names import (
    Names, Position, Scope, dotted, is_string, literals_in, statement_parts,
)

#: A string statement that is not a docstring: its value is thrown away
#: (code kept in a string to disable it), so nothing in it changes behaviour.
DISCARDED = 'discarded'
#: A literal an API takes as TeX (``apis.TEX_ROWS``; ESC601).
TEX = apis.TEX
#: A str literal that is a key, a value or an item of a dict, list, tuple or
#: set (ESC601's tables of TeX commands): ``Role.table`` numbers its table.
TABLE = 'table'
#: The kinds of value the pass asks ``names`` to bind: a compiled pattern, a match.
COMPILED = 'compiled'
MATCH = 'match'
#: The characters of the one-digit octal escapes \\1 to \\7.
NUMBERED_CONTROLS = frozenset('\x01\x02\x03\x04\x05\x06\x07')
#: A pattern made of nothing but these characters is about backspaces on
#: purpose: pydoc's re.sub('.\b', '', text) removes terminal overstrike.
BACKSPACE_PATTERN_CHARS = frozenset('\b.*+?[]^()')
#: control character -> spans (start, end) of the literals that look for it
Markers = dict[str, list[tuple[Position, Position]]]


class Role(NamedTuple):
    """A literal used as a regex pattern or replacement, a path, or discarded, in token positions."""

    start: Position
    end: Position      # exclusive
    role: str          # PATTERN, REPLACEMENT, PATH, TEX or DISCARDED
    means_backspace: bool = False  # the whole pattern is a backspace matcher (see above)
    groupless: bool = False        # the whole pattern is literal text without a group
    groups: int = -1               # groups the whole pattern (one literal) opens; -1: not known
    table: int = -1                # TABLE: the table's number (a dict's keys and values are two)


class Values:
    """What a value is: a compiled pattern, a match, a path, a Pygments lexer
    (by ``apis``' named sets), with the module's ``names`` it is asked through."""

    def __init__(self) -> None:
        self.names = Names(self.kind_of, self.item_kind_of, self.is_lexer_class)
        self.path_values: dict[ast.BinOp, bool] = {}  # sums known to build a path, or not

    def kind_of(self, value: ast.expr) -> str | None:
        """COMPILED, MATCH or None: what an assignment of ``value`` binds besides text."""
        if self.is_compiled(value):
            return COMPILED
        return MATCH if self.is_match(value) else None

    def item_kind_of(self, iterable: ast.expr) -> str | None:
        """MATCH for ``re.finditer(...)`` and ``p.finditer(...)``, else None."""
        if not isinstance(iterable, ast.Call):
            return None
        func = iterable.func
        if self.names.qualified(func) in apis.FINDITER_FUNCTIONS or (
                isinstance(func, ast.Attribute) and func.attr == apis.FINDITER_METHOD
                and self.is_compiled(func.value)):
            return MATCH
        return None

    def is_compiled(self, node: ast.expr) -> bool:
        if isinstance(node, ast.Call):
            return self.names.qualified(node.func) in apis.COMPILE_FUNCTIONS
        name = dotted(node)
        return name is not None and self.names.bound(name, COMPILED)

    def is_match(self, node: ast.expr) -> bool:
        if isinstance(node, ast.NamedExpr):
            return self.is_match(node.value)
        if isinstance(node, ast.Call):
            if self.names.qualified(node.func) in apis.MATCH_FUNCTIONS:
                return True
            func = node.func
            return (isinstance(func, ast.Attribute) and func.attr in apis.PATTERN_MATCH_METHODS
                    and self.is_compiled(func.value))
        name = dotted(node)
        return name is not None and self.names.bound(name, MATCH)

    def is_lexer_class(self, definition: ast.ClassDef) -> bool:
        return any(self.is_lexer(base) for base in definition.bases)

    def is_lexer(self, base: ast.expr) -> bool:
        """A Pygments lexer class (``RegexLexer``, ``ExtendedRegexLexer``, ``PythonLexer``)."""
        name = self.names.qualified(base) or ''
        return (name.startswith('pygments.') and name.endswith('Lexer')) or name.endswith('RegexLexer')

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
            found = (isinstance(node, ast.Call)
                     and self.names.qualified(node.func) in apis.PATH_VALUE_FUNCTIONS)
        for step in chain:
            self.path_values[step] = found
        return found

    def is_pathlib(self, node: ast.expr) -> bool:
        """A pathlib object: a class called (``Path(...)``, ``Path.home()``), then
        ``/``, ``.parent`` or a method that returns a path (``.resolve()``)."""
        while True:  # a loop, not recursion
            if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
                node = node.left
            elif isinstance(node, ast.Attribute) and node.attr in apis.PATHLIB_PATH_ATTRIBUTES:
                node = node.value
            elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                  and node.func.attr in apis.PATHLIB_PATH_METHODS):
                node = node.func.value
            else:
                break
        return isinstance(node, ast.Call) and self.names.qualified(node.func) in apis.PATHLIB_CLASSES


def _keyword_is(node: ast.Call, name: str, value: bool) -> bool:
    return any(
        item.arg == name and isinstance(item.value, ast.Constant) and item.value.value is value
        for item in node.keywords
    )


#: Whether a row's condition holds for a call.
CONDITIONS: dict[str, Callable[[ast.Call], bool]] = {
    apis.ALWAYS: lambda node: True,
    apis.REGEX_TRUE: lambda node: _keyword_is(node, 'regex', True),
    apis.UNLESS_REGEX_FALSE: lambda node: not _keyword_is(node, 'regex', False),
}


class Calls:
    """The roles the arguments of a call get from the rows of ``table`` (``apis.index``)."""

    def __init__(self, values: Values, table: apis.Index, found: list[tuple[ast.expr, str]]) -> None:
        self.values = values
        self.names = values.names
        self.table = table
        self.found = found  # (expression, role), appended to

    def collect(self, node: ast.Call) -> None:
        for row in self.rows_for(node):
            if row.role == PATH:
                self.take_paths(node, row)
            else:
                self.take(node, row)

    def rows_for(self, node: ast.Call) -> list[apis.Api]:
        """The rows of the first (family, receiver) in ``apis.LOOKUP_ORDER`` that apply to the call."""
        func = node.func
        name = self.names.qualified(func)
        for key in apis.LOOKUP_ORDER:
            rows = self.table.get(key)
            found = self.named(rows, key[1], name, func) if rows else None
            if found:
                applicable = [row for row in found if CONDITIONS[row.condition](node)]
                if applicable:
                    return applicable
        return []

    def named(self, rows: dict[str, tuple[apis.Api, ...]], receiver: str, name: str | None,
              func: ast.expr) -> tuple[apis.Api, ...] | None:
        """The rows for the called function (``name`` qualified) as ``receiver`` matches it."""
        if receiver == apis.FUNCTION:
            return rows.get(name) if name is not None else None
        if receiver == apis.MODULE:
            return rows.get(name.rpartition('.')[0]) if name is not None else None
        if not isinstance(func, ast.Attribute):
            return None
        found = rows.get(func.attr)
        if found is None or receiver == apis.METHOD:
            return found
        owner = func.value
        if receiver == apis.COMPILED_METHOD:
            return found if self.values.is_compiled(owner) else None
        if receiver == apis.MATCH_METHOD:
            return found if self.values.is_match(owner) else None
        return found if isinstance(owner, ast.Attribute) and owner.attr == apis.STR_ACCESSOR else None

    def take_paths(self, node: ast.Call, row: apis.Api) -> None:
        """Every argument the row names is a path (the items of a list too)."""
        if row.positions is None:
            arguments = [*node.args, *(item.value for item in node.keywords)]
        else:
            arguments = [node.args[index] for index in row.positions if index < len(node.args)]
            arguments += [item.value for item in node.keywords if item.arg in row.keywords]
        for argument in arguments:
            if isinstance(argument, ast.Starred):
                continue
            items = argument.elts if isinstance(argument, (ast.List, ast.Tuple)) else [argument]
            for item in items:
                name = dotted(item)
                if name is not None:  # folder = 'C:\\new' ... os.listdir(folder)
                    bound = self.names.text_bound(name, node.lineno)
                    # A name that a loop takes from a list of literals (a test's odd
                    # file names, 'file\\twith\\ttabs.txt') does not make them paths.
                    if bound is not None and id(bound) not in self.names.walked:
                        item = bound
                self.found.append((item, PATH))

    def take(self, node: ast.Call, row: apis.Api) -> None:
        """The one argument the row names (its keyword, if given, else its position) has its role."""
        argument = None
        for index in row.positions or ():
            if index < len(node.args):
                argument = node.args[index]
        for item in node.keywords:
            if item.arg in row.keywords:
                argument = item.value
        if argument is None or isinstance(argument, ast.Starred):
            return
        name = dotted(argument)
        if name is not None:
            argument = self.names.text_bound(name, (argument.lineno, argument.col_offset)) or argument
        self.found.append((argument, row.role))


@functools.lru_cache(maxsize=None)
def _visit_method(visitor: type, kind: type) -> Callable[..., None] | None:
    """``visitor``'s ``visit_<kind>``, or None."""
    method: Callable[..., None] | None = getattr(visitor, 'visit_' + kind.__name__, None)
    return method


class _Visitor:
    """Collects the roles of the literals in the statements spanning ``lines``.

    The whole tree is too slow to visit node by node (an ``ast.NodeVisitor``
    over a large test module costs tens of milliseconds), so ``names.scan``
    walks statements only: imports and assignments anywhere give the names,
    and only the statements that span a candidate line have their
    expressions visited for calls.
    """

    def __init__(self, table: apis.Index) -> None:
        self.values = Values()
        self.names = self.values.names
        self.found: list[tuple[ast.expr, str]] = []
        self.calls = Calls(self.values, table, self.found)
        self.lines: list[int] = []         # sorted lines holding a candidate escape
        self.fragments: set[int] = set()   # id() of the role expressions that are part of a pattern
        self.walrus = True                 # bind the names of walruses (the first visit)
        self.tables: list[tuple[ast.expr, int]] = []  # TABLE items, with their table's number

    def spans_candidate(self, node: ast.AST) -> bool:
        first = bisect_left(self.lines, node.lineno)  # type: ignore[attr-defined]
        end = getattr(node, 'end_lineno', None) or node.lineno  # type: ignore[attr-defined]
        return first < len(self.lines) and self.lines[first] <= end

    def visit_lines(self, lines: list[int]) -> None:
        """Visit the expressions of the statements that span one of ``lines`` (sorted)."""
        self.lines = lines
        for statement in self.names.statements:
            if self.spans_candidate(statement[0]):
                self.visit_statement(*statement)
        self.names.chain = self.names.chain[:1]

    def visit_statement(self, stmt: ast.stmt, chain: tuple[Scope, ...], docstring: bool) -> None:
        """Visit a statement's expressions in its scopes (a string statement is discarded)."""
        self.names.chain = chain
        if isinstance(stmt, ast.Expr) and is_string(stmt.value) and not docstring:
            self.found.append((stmt.value, DISCARDED))
            return
        if isinstance(stmt, ast.Assign) and chain[-1].marked:
            self.lexer_table(stmt)
        clauses = {field for field, holds_clauses in statement_parts(type(stmt)) if holds_clauses}
        for field, value in ast.iter_fields(stmt):
            for node in _expressions(value, field in clauses):
                self.visit(node)

    def visit(self, node: ast.AST) -> None:
        """Visit an expression: each node's children first, then its own
        ``visit_<type>`` method, as ``generic_visit`` would order them, but
        without recursion: a ``+`` chain of thousands of literals (which
        CPython parses) is as deep as it is long."""
        pending: list[tuple[ast.AST, bool]] = [(node, False)]
        kind = type(self)
        while pending:
            item, children_seen = pending.pop()
            method = _visit_method(kind, type(item))  # type: ignore[arg-type]  # classes hash
            if children_seen:
                assert method is not None
                method(self, item)
                continue
            if method is not None:
                pending.append((item, True))
            pending.extend((child, False) for child in reversed(list(ast.iter_child_nodes(item))))

    def visit_Call(self, node: ast.Call) -> None:  # after its children (visit)
        self.calls.collect(node)

    def visit_BinOp(self, node: ast.BinOp) -> None:  # after its children (visit)
        if isinstance(node.op, ast.Div) and self.values.is_pathlib(node.left):
            self.found.append((node.right, PATH))
        elif isinstance(node.op, ast.Add) and self.values.is_path_value(node.left):
            self.found.append((node.right, PATH))

    def visit_NamedExpr(self, node: ast.NamedExpr) -> None:  # after its children (visit)
        if self.walrus:
            self.names.bind(node.target, node.value)

    def visit_Tuple(self, node: ast.Tuple) -> None:  # after its children (visit)
        self.rule_pair(node)
        self.table(node.elts)

    def visit_List(self, node: ast.List) -> None:  # after its children (visit)
        self.rule_pair(node)
        self.table(node.elts)

    def visit_Set(self, node: ast.Set) -> None:  # after its children (visit)
        self.table(node.elts)

    def visit_Dict(self, node: ast.Dict) -> None:  # after its children (visit)
        self.table([key for key in node.keys if key is not None])
        self.table(node.values)

    def table(self, items: list[ast.expr]) -> None:
        """The str literals among ``items`` of two or more, as one table."""
        strings = [item for item in items if type(item) is ast.Constant and type(item.value) is str]
        if len(strings) >= 2:
            number = len(self.tables)
            self.tables.extend((item, number) for item in strings)

    def rule_pair(self, node: ast.Tuple | ast.List) -> None:
        """``(re.compile(r'(a)'), r'\\1')``: a compiled pattern, then its replacement."""
        if len(node.elts) >= 2 and self.values.is_compiled(node.elts[0]):
            self.found.append((node.elts[1], REPLACEMENT))

    def lexer_table(self, node: ast.Assign) -> None:
        """``tokens = {'root': [(r'\\bkey\\b', Keyword), (words(..., suffix=r'\\b'), Name)]}``."""
        if not any(isinstance(target, ast.Name) and target.id == apis.LEXER_TABLE for target in node.targets):
            return
        if not isinstance(node.value, ast.Dict):
            return
        for state in node.value.values:
            if not isinstance(state, (ast.List, ast.Tuple)):
                continue
            for rule in state.elts:
                if isinstance(rule, ast.Tuple) and rule.elts:
                    self.lexer_rule(rule.elts[0])

    def lexer_rule(self, first: ast.expr) -> None:
        """The first item of a rule is a pattern, or ``words(...)``, whose prefix and
        suffix are parts of one."""
        if isinstance(first, ast.Call) and self.names.qualified(first.func) in apis.LEXER_WORDS:
            for item in first.keywords:
                if item.arg in apis.LEXER_WORDS_KEYWORDS:
                    self.found.append((item.value, PATTERN))
                    self.fragments.add(id(item.value))
        else:
            self.found.append((first, PATTERN))


def _expressions(value: object, clauses: bool) -> Iterator[ast.AST]:
    """The expressions of one field of a statement: not its statements (visited
    as statements of their own), but the parts of its clauses (``except E as e:``)."""
    if not isinstance(value, list):
        if isinstance(value, ast.AST):
            yield value
        return
    if not value or isinstance(value[0], ast.stmt):
        return
    for node in value:
        if clauses:
            yield from (part for _, part in ast.iter_fields(node) if isinstance(part, ast.AST))
        elif isinstance(node, ast.AST):
            yield node


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
    tree: ast.AST, lines: list[str], functions: Iterable[apis.Api], candidate_lines: list[int],
) -> Roles:
    """Each literal used as a regex pattern or replacement, or as a path, or
    discarded, near the candidates; ``functions`` are the project's own rows
    (``apis.parse_functions``).

    Only calls in statements that span one of ``candidate_lines`` (sorted) are
    looked at.  Positions are (line, character column), as tokens count them.
    """
    visitor = _Visitor(apis.index(tuple(functions)))
    try:
        return _roles(visitor, tree, lines, candidate_lines)
    finally:
        visitor.names.release()  # freed by its reference count, the AST with it


def _roles(visitor: _Visitor, tree: ast.AST, lines: list[str], candidate_lines: list[int]) -> Roles:
    """``literal_roles``' work, by ``visitor``."""
    # every name first: a function may use one bound below it
    visitor.names.scan(getattr(tree, 'body', []), docstring_first=True)
    visitor.visit_lines(candidate_lines)
    # pattern = '\\bword'; ...; re.search(pattern, s): visit the statements
    # that use such a name too (found in the text, then checked in the AST).
    names = {name for name, text in visitor.names.texts() if visitor.spans_candidate(text)}
    if names:
        words = re.compile(r'(?<![\w.])(?:%s)\b' % '|'.join(map(re.escape, sorted(names))))
        uses = [number for number, line in enumerate(lines, 1) if words.search(line)]
        use_lines = sorted(set(uses) - set(candidate_lines))
        visitor.walrus = False
        if use_lines:
            visitor.visit_lines(use_lines)
    roles = Roles()
    for expression, role in visitor.found:
        whole = id(expression) not in visitor.fragments
        backspace = whole and means_backspace(expression)
        no_group = whole and role == PATTERN and groupless(expression)
        groups = groups_opened(expression) if whole and role == PATTERN else -1
        for literal in literals_in(expression):
            start, end = _span(literal, lines)
            roles.append(Role(start, end, role, backspace, no_group, groups))
    for literal, number in visitor.tables:
        start, end = _span(literal, lines)
        roles.append(Role(start, end, TABLE, table=number))
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


# Facts about a whole pattern -------------------------------------------------

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


# Facts about the module, handed to the regex family ---------------------------

def looked_for_later(tree: ast.AST, lines: list[str]) -> Callable[[], Markers]:
    """``looked_for_characters(tree, lines)``, walked on the first call only:
    the regex family asks only when a report is near."""
    return functools.cache(lambda: looked_for_characters(tree, lines))


def looked_for_characters(tree: ast.AST, lines: list[str]) -> Markers:
    """The control characters a module looks for in a string, each with the
    spans (start, end) of the literals that look for it: the text given to
    ``split``/``replace``/``find``/..., the left of ``in``, a ``re`` pattern
    that is a marker (``re.sub('\\1', '}', s)``, see ``groupless``).  A
    numbered escape the module also looks for elsewhere is a marker it put
    there on purpose.
    """
    found: Markers = {}
    for node in ast.walk(tree):
        looked = _looked_for(node)
        text = constant_text(looked) if looked is not None else None
        if text and min(text) < ' ':
            assert looked is not None
            span = _span(looked, lines)
            for char in set(text):
                if char < ' ':
                    found.setdefault(char, []).append(span)
    return found


def _looked_for(node: ast.AST) -> ast.expr | None:
    """The text a node looks for in a string (``LOOKUP_METHODS``, ``in``, a marker pattern), or None."""
    if isinstance(node, ast.Call) and node.args and isinstance(node.func, ast.Attribute):
        method = node.func.attr
        if method in apis.LOOKUP_METHODS:
            return node.args[0]
        owner = node.func.value
        if (method in apis.PATTERN_FIRST and isinstance(owner, ast.Name) and owner.id in apis.REGEX_MODULES
                and groupless(node.args[0])):
            return node.args[0]
    elif isinstance(node, ast.Compare) and isinstance(node.ops[0], (ast.In, ast.NotIn)):
        return node.left
    return None


def _span(node: ast.expr, lines: list[str]) -> tuple[Position, Position]:
    """A node's (start, end) in the tokens' (line, character column)."""
    start_line, end_line = node.lineno, node.end_lineno or node.lineno
    return ((start_line, _char_col(lines[start_line - 1], node.col_offset)),
            (end_line, _char_col(lines[end_line - 1], node.end_col_offset or 0)))
