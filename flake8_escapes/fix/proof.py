"""The fixer's proof: the checks that may refuse a planned edit.

- each edited literal is parsed alone before and after: it must parse, and a
  safe fix must keep its value (a str is never equal to bytes);
- an unsafe fix of a regex literal must compile, with every group reference of
  a replacement valid for its pattern;
- the whole module must still parse with the edits made; the literals it
  does not take are left alone, each with its reason.
"""
from __future__ import annotations

import ast
import doctest
import io
import re
import warnings
from bisect import bisect_left
from collections import Counter
from typing import NamedTuple, TypeVar

from flake8_escapes import roles as role_pass, rules
from flake8_escapes.fix import plan
from flake8_escapes.fix.files import Edit, apply

REGEX_CODES = frozenset(rule.code for rule in rules.RULES if rule.family == rules.REGEX)
NOT_PARSED = 'the fixed file would not parse'
#: An f-string's ``=`` debug text (3.12+) and a t-string interpolation's
#: ``expression`` (3.14+) are the text of a field: a literal there is in two values.
TEXT_IN_VALUE = "its fix would change an f-string's '=' text or a t-string's expression"
#: An ESC303 respelling of an escape that ESC501 also reports: the path keeps its backslash.
FOR_UNSAFE = 'respelled, the path would lose its backslash: that is for --unsafe'
#: An ESC602 fix of control characters after which doctest would read other examples.
OTHER_EXAMPLES = ("doctest's parse of the fixed docstring gives examples that do not compile to the "
                  'same AST as before')
#: A private-use character that stands for a kept tab while doctest reads a docstring.
KEPT_TAB = '\uf8ff'
#: Each line of a text: its leading blanks, the rest and its line break.
LEADING_BLANKS = re.compile(r'([ \t]*)([^\n]*\n?)')
#: A safe fix that would make a report it does not fix disappear (followed by the codes).
HIDES = 'its fix would hide '


def by_design(reason: str) -> bool:
    """Is a safe fix left alone for ``reason`` on purpose (its report stays, for
    a person or ``--unsafe``), rather than because its proof failed?"""
    return reason in (TEXT_IN_VALUE, FOR_UNSAFE) or reason.startswith(HIDES)


Text = TypeVar('Text', str, bytes)
Patterns = dict[tuple[int, int], 'str | bytes | None']


class LeftAlone(NamedTuple):
    line: int
    col: int
    code: str
    reason: str


def parse(text: str, mode: str = 'exec') -> ast.AST:
    """``ast.parse`` without the compiler's warnings about the very escapes
    being fixed (they would reach the user's terminal); SyntaxError for any source it refuses
    (UnicodeDecodeError on 3.12+ for a refused escape in an f-string's format spec)."""
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        try:
            return ast.parse(text, mode=mode)
        except UnicodeDecodeError:  # 3.12+: a refused escape in a format spec (its callers read it)
            raise
        except ValueError as error:  # a NUL byte, before 3.12 (3.12+ raise SyntaxError)
            raise SyntaxError(str(error)) from None


def parsed(text: str) -> ast.AST | None:
    """The module's AST, or None when it does not parse."""
    try:
        return parse(text)
    except (SyntaxError, ValueError):
        return None


# Values ---------------------------------------------------------------------

def source_of(lines: list[str], start: tuple[int, int], end: tuple[int, int]) -> str:
    """The text of ``lines`` from ``start`` to ``end``."""
    if start[0] == end[0]:
        return lines[start[0] - 1][start[1]:end[1]]
    return ''.join([lines[start[0] - 1][start[1]:], *lines[start[0]:end[0] - 1],
                    lines[end[0] - 1][:end[1]]])


def shifted(source: str, start: tuple[int, int], edits: list[Edit]) -> str:
    """``source`` (the text from ``start``) with ``edits`` made."""
    local = [Edit(e.line - start[0] + 1, e.col - start[1] if e.line == start[0] else e.col, e.length, e.text)
             for e in edits]
    return apply(source, local)


def _key(node: ast.AST) -> object:
    """What a literal's AST says of its value (a str is never equal to bytes)."""
    if isinstance(node, ast.Constant):
        return type(node.value), node.value
    return ast.dump(node)


def _value(source: str) -> object:
    try:
        return _key(parse(source, 'eval').body)  # type: ignore[attr-defined]
    except (SyntaxError, ValueError, RecursionError):
        return None


def values(sources: list[str]) -> list[object]:
    """The value of each literal's source (None: it does not parse), parsed
    together as one tuple (one call to the compiler, not one per literal)."""
    try:
        batch = parse('(\n' + ',\n'.join(sources) + ',\n)', 'eval').body  # type: ignore[attr-defined]
    except (SyntaxError, ValueError, RecursionError):
        batch = None
    if isinstance(batch, ast.Tuple) and len(batch.elts) == len(sources):
        return [_key(node) for node in batch.elts]
    return [_value(source) for source in sources]


# Regexes --------------------------------------------------------------------

def _pattern_errors(value: str | bytes, third_party: bool) -> str | None:
    """Why the fixed pattern ``value`` does not compile, or None.  The ``regex`` package's verdict
    counts only in a module that imports it (``third_party``): it takes patterns ``re`` refuses
    (a reference to a group not yet closed), so a call of ``re`` would raise on them."""
    try:
        re.compile(value)
    except re.error as error:
        if not third_party:
            return f'the fixed pattern does not compile: {error}'
        try:
            import regex
            regex.compile(value)
        except ImportError:
            return f'the fixed pattern does not compile: {error}'
        except Exception:
            return f'the fixed pattern does not compile: {error}'
    except (TypeError, ValueError, OverflowError, RecursionError) as error:
        return f'the fixed pattern does not compile: {error}'
    return None


def _template_errors(value: Text, pattern: str | bytes | None) -> str | None:
    """Is ``value`` a valid replacement for ``pattern`` (None: unknown, any
    group number up to 99 is taken as valid)?"""
    any_groups = b'()' * 99 if isinstance(value, bytes) else '()' * 99
    try:
        compiled = re.compile(pattern if type(pattern) is type(value) else any_groups)
    except (re.error, TypeError, ValueError, OverflowError, RecursionError):
        compiled = re.compile(any_groups)
    try:
        compiled.sub(value, value[:0])  # re reads the template before it searches
    except (re.error, IndexError, TypeError, ValueError) as error:
        return f'the fixed replacement is not valid for its pattern: {error}'
    return None


def patterns_by_argument(tree: ast.AST) -> Patterns:
    """For each call argument, at its (line, utf-8 col): the call's pattern
    when it is a literal (the first argument, or ``pattern=``/``pat=``), else
    None.  Built once per file, so that checking many replacements stays linear."""
    found: Patterns = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            first = _pattern_argument(node)
            for argument in [*node.args, *(k.value for k in node.keywords)]:
                pattern = first if first is not argument else None
                value = pattern.value if isinstance(pattern, ast.Constant) else None
                known = value if isinstance(value, (str, bytes)) else None
                found[argument.lineno, argument.col_offset] = known
    return found


def _pattern_argument(node: ast.Call) -> ast.expr | None:
    """The argument a call's pattern would be: ``pattern=``/``pat=``, else the first."""
    first = node.args[0] if node.args else None
    for keyword in node.keywords:
        if keyword.arg in ('pattern', 'pat'):
            first = keyword.value
    return first


class RegexProof:
    """Whether a regex literal's unsafe fix keeps the program working; the
    roles and patterns of the module are found once, on first need."""

    def __init__(self, units: list[plan.Unit], context: plan.Context) -> None:
        self.units = units
        self.context = context
        self.roles: dict[tuple[int, int], role_pass.Role] | None = None
        self.listed = role_pass.Roles()  # the same roles, indexed once for ``role_at``
        self.patterns: Patterns = {}
        self.third_party: bool | None = None  # does the module import ``regex`` (``imports_regex``)

    def _find_roles(self) -> dict[tuple[int, int], role_pass.Role]:
        near = {f.line for u in self.units for _, f in u.items} | {u.start[0] for u in self.units}
        context = self.context
        self.patterns = patterns_by_argument(context.tree)
        found = role_pass.literal_roles(context.tree, context.lines, context.functions, sorted(near))
        return {role.start: role  # a literal's role, found by its start (linear)
                for role in found if role.role in (role_pass.PATTERN, role_pass.REPLACEMENT)}

    def imports_regex(self) -> bool:
        """Does the module import the ``regex`` package (``import regex``, ``from regex import x``)?"""
        if self.third_party is None:
            self.third_party = any(
                (isinstance(node, ast.Import) and any(alias.name.partition('.')[0] == 'regex'
                                                      for alias in node.names))
                or (isinstance(node, ast.ImportFrom) and not node.level
                    and (node.module or '').partition('.')[0] == 'regex')
                for node in ast.walk(self.context.tree))
        return self.third_party

    def problem(self, unit: plan.Unit, new_source: str) -> str | None:
        """Why the fixed regex literal would break the program, or None."""
        try:
            value = ast.literal_eval(new_source)
        except (SyntaxError, ValueError, RecursionError):
            return None  # an f-string: its value is not known here
        if self.roles is None:
            self.roles = self._find_roles()
            self.listed = role_pass.Roles(self.roles.values())
        line, col = unit.start
        kinds = (role_pass.PATTERN, role_pass.REPLACEMENT)
        used = self.roles.get(unit.start) or role_pass.role_at(self.listed, line, col, kinds)
        if used is not None and used.role == role_pass.REPLACEMENT:
            col_bytes = len(self.context.lines[line - 1][:col].encode('utf-8'))
            return _template_errors(value, self.patterns.get((line, col_bytes)))
        problem = _pattern_errors(value, self.imports_regex())
        if problem and used is None:  # text that reads like a regex, or a template
            return _template_errors(value, None) and problem
        return problem


# Units ----------------------------------------------------------------------

def checked(
    units: list[plan.Unit], context: plan.Context,
) -> tuple[list[plan.Unit], list[LeftAlone], list[plan.Unit]]:
    """(units whose fix is proved, the fixes left alone, the units refused)."""
    left: list[LeftAlone] = []
    chosen: list[plan.Unit] = []
    refused: list[plan.Unit] = []
    regex = RegexProof(units, context)
    olds = [source_of(context.lines, unit.start, unit.end) for unit in units]
    news = [shifted(old, unit.start, [e._replace(text=e.text.lstrip()) for e in unit.edits])
            for old, unit in zip(olds, units)]
    for unit, new, before, after in zip(units, news, values(olds), values(news)):
        reason = _refusal(unit, new, before, after, regex)
        if reason:
            left.extend(left_alone([unit], reason))
            refused.append(unit)
        else:
            chosen.append(unit)
    return chosen, left, refused


def _refusal(unit: plan.Unit, new: str, before: object, after: object, regex: RegexProof) -> str | None:
    """Why ``unit``'s fix (its literal becoming ``new``) is refused, or None."""
    if after is None:
        return 'the fixed literal would not parse'
    if unit.safe and before != after:
        return 'its fix would change the value of the literal'
    if not unit.safe and any(code in REGEX_CODES for code, _ in unit.items):
        return regex.problem(unit, new)
    if not unit.safe and plan.keeps_examples(unit) and not same_examples(before, after):
        return OTHER_EXAMPLES
    return None


def example_trees(value: object) -> list[str] | None:
    """The AST of each example doctest's own parser reads from a docstring's
    value (``_key``'s (type, value)), compiled as doctest compiles it; None if
    doctest cannot read them or one does not compile."""
    if not isinstance(value, tuple) or value[0] is not str or KEPT_TAB in value[1]:
        return None
    # doctest expands every tab (str.expandtabs), so a tab an escape put in an
    # example's text reads as spaces: a tab after a line's text is kept as a tab
    # (hidden from expandtabs, then put back), the one compared with the fixed '\\t'.
    text = ''.join(indent + rest.replace('\t', KEPT_TAB)
                   for indent, rest in LEADING_BLANKS.findall(value[1]))
    try:
        found = doctest.DocTestParser().get_examples(text)
        return [ast.dump(parse(example.source.replace(KEPT_TAB, '\t'), 'single')) for example in found]
    except (SyntaxError, ValueError, RecursionError):
        return None


def same_examples(before: object, after: object) -> bool:
    """Does the fixed docstring give examples whose sources compile to the same ASTs as before?"""
    old = example_trees(before)
    return old is not None and old == example_trees(after)


def proved(
    units: list[plan.Unit], context: plan.Context,
) -> tuple[list[plan.Unit], list[LeftAlone], list[plan.Left]]:
    """The units whose fix is proved literal by literal, the fixes left
    alone, and the reports of codes not in ``rules.SAFE`` whose fix was
    refused; a literal whose unsafe fix is refused still gets its safe fixes
    (unless they hide such a report: ``reports_kept``)."""
    chosen, left, refused = checked(units, context)
    kept_visible = [plan.Left(code, found.line, found.col)
                    for unit in refused for code, found in unit.items if code not in plan.SAFE]
    safe_only = plan.safe_part(refused)
    if safe_only:
        more, _, _ = checked(plan.units(safe_only, context), context)
        chosen.extend(more)
        done = {(f.line, f.col) for unit in more for _, f in unit.items}
        left = [item for item in left if (item.line, item.col) not in done]
    return chosen, left, kept_visible


def module_parses(
    text: str, chosen: list[plan.Unit], left: list[LeftAlone],
) -> tuple[list[plan.Unit], list[LeftAlone], ast.AST | None]:
    """The units the module still parses with (all, or those that parse
    together), the fixes left alone, and the AST of the fixed text."""
    edits = edits_of(chosen)
    new_tree = parsed(apply(text, edits)) if edits else None
    if not edits or new_tree is not None:
        return chosen, left, new_tree
    # The literals each parse: find the ones the module does not take.
    kept = []
    for unit in chosen:
        if parsed(apply(text, unit.edits)) is not None:
            kept.append(unit)
        else:
            left.extend(left_alone([unit], NOT_PARSED))
    if parsed(apply(text, edits_of(kept))) is not None:
        return kept, left, None
    return [], left + left_alone(kept, NOT_PARSED), None


def left_alone(units: list[plan.Unit], reason: str) -> list[LeftAlone]:
    """Each fix planned in ``units``, left alone for ``reason``."""
    return [LeftAlone(found.line, found.col, code, reason) for unit in units for code, found in unit.items]


def module_kept(
    before: ast.AST, text: str, chosen: list[plan.Unit], after: ast.AST | None, context: plan.Context,
) -> tuple[list[plan.Unit], list[LeftAlone], ast.AST | None]:
    """The units kept when the safe ones are proved on the whole module (its
    AST, values and debug texts included, must not change), the fixes left
    alone, and the AST of the fixed text (None when some were dropped).

    A literal's value is proved alone; what else of its text the AST holds is
    the text of the f- or t-string field it stands in, so when the module
    changes, the safe fixes inside such fields are dropped (all safe fixes
    if that is not enough).
    """
    safe = [unit for unit in chosen if unit.safe]
    if not safe:
        return chosen, [], after
    whole = after is not None and len(safe) == len(chosen)  # ``after`` is the safe fixes' module
    if not whole:
        after = parsed(apply(text, edits_of(safe)))
    if _same(before, after):
        return chosen, [], after if whole else None
    nested = plan.nested_starts(context.tokens)
    kept = [unit for unit in safe if unit.start not in nested]
    dropped = [unit for unit in safe if unit.start in nested]
    if kept and not _same(before, parsed(apply(text, edits_of(kept)))):
        dropped, kept = safe, []
    gone = {unit.start for unit in dropped}  # one unit per literal start
    return [unit for unit in chosen if unit.start not in gone], left_alone(dropped, TEXT_IN_VALUE), None


def fields_kept(
    chosen: list[plan.Unit], after: ast.AST | None, context: plan.Context,
) -> tuple[list[plan.Unit], list[LeftAlone], ast.AST | None]:
    """The units kept when no text of a field that is part of a value changes
    (``field_texts``: f-strings' ``=`` debug texts, t-strings' fields), safe
    or unsafe: the planner leaves such literals alone, and this proves it on
    the whole module.  The fixes left alone, and the AST of the fixed text
    (None when some were dropped)."""
    if not chosen or not plan.has_text_fields(context.tokens):
        return chosen, [], after
    before = field_texts(context.tree, context.lines)
    text = apply(context.text, edits_of(chosen))
    after = after or parsed(text)
    if after is not None and field_texts(after, _lines(text)) == before:
        return chosen, [], after
    nested = plan.nested_starts(context.tokens)
    kept = [unit for unit in chosen if unit.start not in nested]
    text = apply(context.text, edits_of(kept))
    tree = parsed(text)
    if tree is None or field_texts(tree, _lines(text)) != before:
        kept = []
    ids = {id(unit) for unit in kept}
    return kept, left_alone([unit for unit in chosen if id(unit) not in ids], TEXT_IN_VALUE), None


def field_texts(tree: ast.AST, lines: list[str]) -> list[str]:
    """What the module's AST holds of the text of its fields (3.12+): each
    f- or t-string ``=`` field's debug text, as its source from the ``{`` to
    the end of the Constant that holds it, and each t-string
    Interpolation's ``str``."""
    texts = []
    for field, debug in plan.text_fields(tree):
        if debug is not None:
            texts.append(_segment(lines, (field.lineno, field.col_offset),
                                  (debug.end_lineno or 0, debug.end_col_offset or 0)))
        if isinstance(field, plan.INTERPOLATION):
            texts.append(field.str)
    return texts


def _segment(lines: list[str], start: tuple[int, int], end: tuple[int, int]) -> str:
    """The text from ``start`` to ``end``, columns in utf-8 bytes (as the AST counts them)."""
    rows = [line.encode('utf-8') for line in lines[start[0] - 1:end[0]]]
    if not rows:
        return ''
    rows[-1] = rows[-1][:end[1]]
    rows[0] = rows[0][start[1]:]
    return b''.join(rows).decode('utf-8', 'replace')


def _lines(text: str) -> list[str]:
    return io.StringIO(text, newline='').readlines()


def edits_of(units: list[plan.Unit]) -> list[Edit]:
    """The edits of ``units``, in order."""
    return [edit for unit in units for edit in unit.edits]


def _same(before: ast.AST, after: ast.AST | None) -> bool:
    """Do two modules' ASTs say the same (positions aside)?  What ``ast.dump``
    compares (node types, every field; a value with its type: ``1`` is not
    ``1.0`` nor ``True``), node by node without writing the dumps out."""
    if after is None:
        return False
    pairs: list[tuple[ast.AST, object]] = [(before, after)]
    while pairs:
        old, new = pairs.pop()
        if type(old) is not type(new):
            return False
        for name in old._fields:
            mine, theirs = getattr(old, name, None), getattr(new, name, None)
            if isinstance(mine, list):
                if type(theirs) is not list or len(mine) != len(theirs):
                    return False
                for item, other in zip(mine, theirs):
                    if isinstance(item, ast.AST):
                        pairs.append((item, other))
                    elif not _equal(item, other):
                        return False
            elif isinstance(mine, ast.AST):
                pairs.append((mine, theirs))
            elif not _equal(mine, theirs):
                return False
    return True


def _equal(mine: object, theirs: object) -> bool:
    """Two field values alike, types included (``ast.dump`` compares their reprs)."""
    if type(mine) is not type(theirs):
        return False
    if isinstance(mine, (float, complex)):  # nan is not nan, and -0.0 == 0.0
        return repr(mine) == repr(theirs)
    return mine == theirs


def reports_kept(
    chosen: list[plan.Unit], after: ast.AST | None, context: plan.Context, unsafe: list[plan.Left],
    refused: list[plan.Left],
) -> tuple[list[plan.Unit], list[LeftAlone], ast.AST | None]:
    """The units kept when a safe fix must not hide a report it does not fix
    (doubling a backslash can turn ``'(\\w+)\\1'`` into text that no longer
    reads like a regex, though its value, and its ``\\1``, did not change):
    neither one of a code not being fixed (``unsafe``: for ``--unsafe``) nor
    one whose own fix was refused (``refused``: it stays for a person); the
    fixes left alone, and the AST of the fixed text.

    The fixed text is checked again only when a safe fix stands in a literal
    that holds such a report."""
    unsafe = unsafe + refused
    places = sorted((report.line, report.col) for report in unsafe)
    suspects = [unit for unit in chosen if unit.safe and _holds(unit, places)]
    if not suspects:
        return chosen, [], after
    codes = _hidden_codes(chosen, after, context, unsafe)
    if not codes:
        return chosen, [], after
    dropped = [unit for unit in suspects
               if _holds(unit, sorted((r.line, r.col) for r in unsafe if r.code in codes))]
    for_unsafe = codes & {report.code for report in unsafe[:len(unsafe) - len(refused)]}
    reason = f"{HIDES}{', '.join(sorted(codes))} without fixing it: " + (
        'that is for --unsafe' if for_unsafe else 'its own fix was left alone, so it stays reported')
    gone = {unit.start for unit in dropped}
    return [unit for unit in chosen if unit.start not in gone], left_alone(dropped, reason), None


def _hidden_codes(
    chosen: list[plan.Unit], after: ast.AST | None, context: plan.Context, unsafe: list[plan.Left],
) -> set[str]:
    """The codes of which the fixed text has fewer unfixed reports than ``unsafe``."""
    text = apply(context.text, edits_of(chosen))
    lines = io.StringIO(text, newline='').readlines()
    fixed = context._replace(text=text, lines=lines, tree=after or parse(text), tokens=plan.tokens_of(lines))
    hidden = Counter(report.code for report in unsafe)
    hidden.subtract(report.code for report in plan.reports_to_fix(fixed, set())[1])
    return {code for code, count in hidden.items() if count > 0}


def _holds(unit: plan.Unit, places: list[tuple[int, int]]) -> bool:
    """Does ``unit``'s literal hold one of ``places`` (sorted)?"""
    at = bisect_left(places, unit.start)
    return at < len(places) and places[at] < unit.end
