"""An API is a row: every row of ``apis`` is recognised in a call generated from the row alone.

Each call puts a literal where the row says (at each position, or as each
keyword) and asks the role pass which role that literal has; a literal
elsewhere does not get the row's role.  Rows added at test time (to the
table, or as the project's own functions) are recognised with no code.
"""
from __future__ import annotations

import ast

import pytest

from flake8_escapes import apis, checks, roles
from flake8_escapes.apis import Api
from test_regex import parts

#: The literal whose role is asked; the other arguments are names.
MARK = "'m'"


def _callee(row: Api) -> tuple[str, str]:
    """(the lines before the call, the called expression) that reach ``row`` as its receiver says."""
    if row.receiver == apis.FUNCTION:
        module = row.name.partition('.')[0]
        return (f'import {module}\n' if '.' in row.name else ''), row.name
    if row.receiver == apis.MODULE:
        return f'import {row.name.partition(".")[0]}\n', f'{row.name}.anything'
    if row.receiver == apis.COMPILED_METHOD:
        return 'import re\np = re.compile(x)\n', f'p.{row.name}'
    if row.receiver == apis.MATCH_METHOD:
        return 'import re\nm = re.match(x, s)\n', f'm.{row.name}'
    if row.receiver == apis.STR_METHOD:
        return '', f'frame.column.str.{row.name}'
    assert row.receiver == apis.METHOD, row
    return '', f'thing.{row.name}'


#: The keyword each condition needs in the call.
CONDITION_KEYWORD = {apis.ALWAYS: '', apis.REGEX_TRUE: 'regex=True', apis.UNLESS_REGEX_FALSE: ''}


def call(row: Api, arguments: list[str]) -> str:
    """A module calling the row's API with ``arguments`` (and the keyword its condition needs)."""
    before, callee = _callee(row)
    extra = CONDITION_KEYWORD[row.condition]
    return f'{before}{callee}({", ".join([*arguments, *([extra] if extra else [])])})\n'


def role_of_mark(src: str, row_role: str, functions: tuple[Api, ...] = ()) -> roles.Role | None:
    """The role of kind ``row_role`` the pass gives the literal ``MARK`` on the call's (last) line."""
    tree, _, lines = parts(src)
    last = len(lines)
    found = roles.literal_roles(tree, lines, functions, list(range(1, last + 1)))
    col = lines[-1].index(MARK)
    return roles.role_at(found, last, col, (row_role,))


def _uses(row: Api) -> list[tuple[str, list[str]]]:
    """(label, arguments) for each place the row names: each position, each keyword."""
    positions = (0, 2) if row.positions is None else row.positions
    uses = [(f'at {index}', [*(f'a{i}' for i in range(index)), MARK]) for index in positions]
    keywords = row.keywords if row.positions is not None else ('anything',)
    uses += [(f'{keyword}=', ['a0', f'{keyword}={MARK}']) for keyword in keywords]
    return uses


CASES = [pytest.param(row, arguments, id=f'{row.receiver}:{row.name}:{row.role}:{label}')
         for row in apis.ROWS for label, arguments in _uses(row)]


def test_every_row_names_a_place():
    assert all(_uses(row) for row in apis.ROWS)
    assert len(CASES) > len(apis.ROWS)


@pytest.mark.parametrize('row, arguments', CASES)
def test_every_row_is_recognised(row, arguments):
    found = role_of_mark(call(row, arguments), row.role)
    assert found is not None and found.role == row.role


def _elsewhere(row: Api) -> int | None:
    """A position that no row of the same name, receiver and role lists (None: every argument counts)."""
    if row.positions is None:
        return None
    listed = {index for other in apis.ROWS if other[:2] == row[:2] and other.receiver == row.receiver
              for index in other.positions or ()}
    return max(listed | {-1}) + 1


@pytest.mark.parametrize('row', [row for row in apis.ROWS if _elsewhere(row) is not None],
                         ids=lambda row: f'{row.receiver}:{row.name}:{row.role}')
def test_another_position_does_not_get_the_row_role(row):
    index = _elsewhere(row)
    arguments = [*(f'a{i}' for i in range(index)), MARK]
    assert role_of_mark(call(row, arguments), row.role) is None


@pytest.mark.parametrize('row', [row for row in apis.ROWS if row.condition != apis.ALWAYS],
                         ids=lambda row: f'{row.name}:{row.role}:{row.condition}')
def test_a_condition_that_fails_takes_the_role_away(row):
    before, callee = _callee(row)
    arguments = ([*(f'a{i}' for i in range(row.positions[0])), MARK] if row.positions
                 else [f'{row.keywords[0]}={MARK}'])
    src = f'{before}{callee}({", ".join([*arguments, "regex=False"])})\n'
    assert role_of_mark(src, row.role) is None
    assert role_of_mark(src.replace('regex=False', CONDITION_KEYWORD[row.condition]), row.role) is not None


# A row added at test time, with no code ----------------------------------------------------

def codes(src: str, functions: tuple[Api, ...] = ()) -> set[str]:
    tree, tokens, lines = parts(src)
    return {report.rule.code for report in checks.all_reports(tree, tokens, lines, functions)}


NEW_REGEX = Api('mylib.find_all', apis.PATTERN, (1,), ('where',))
NEW_PATH = Api('save_to', apis.PATH, (0,), ('destination',), receiver=apis.METHOD)


@pytest.fixture
def table_with_new_rows(monkeypatch):
    """``apis.ROWS`` with two more rows, as a developer adding an API would write them."""
    monkeypatch.setattr(apis, 'ROWS', (*apis.ROWS, NEW_REGEX, NEW_PATH))
    apis.index.cache_clear()
    yield
    apis.index.cache_clear()


REGEX_CALLS = ["import mylib\nmylib.find_all(s, '\\bx')\n", "import mylib\nmylib.find_all(s, where='\\bx')\n"]
PATH_CALLS = ["report.save_to('C:\\new')\n", "report.save_to(destination='C:\\new')\n"]


@pytest.mark.parametrize('src', REGEX_CALLS)
def test_a_regex_row_added_to_the_table(src, table_with_new_rows):
    assert codes(src) == {'ESC402'}
    assert codes(src.replace('find_all', 'find_any')) == set()


@pytest.mark.parametrize('src', PATH_CALLS)
def test_a_path_row_added_to_the_table(src, table_with_new_rows):
    assert codes(src) == {'ESC501'}
    assert codes(src.replace('save_to', 'send_to')) == set()


@pytest.mark.parametrize('src', REGEX_CALLS + PATH_CALLS)
def test_without_the_rows_nothing_is_reported(src):
    assert codes(src) == set()


@pytest.mark.parametrize('src', REGEX_CALLS)
def test_a_row_given_as_the_projects_own_function(src):
    assert codes(src, (NEW_REGEX,)) == {'ESC402'}


def test_own_functions_are_rows_of_the_same_table():
    rows = apis.parse_functions('mylib.find_all:1, mylib.rx_sub:0:1')
    assert rows == (Api('mylib.find_all', apis.PATTERN, (1,)), Api('mylib.rx_sub', apis.PATTERN, (0,)),
                    Api('mylib.rx_sub', apis.REPLACEMENT, (1,)))
    assert codes("import mylib\nmylib.find_all(s, '\\bx')\n", rows) == {'ESC402'}
    assert codes("import mylib\nmylib.rx_sub('(a)', '\\1', s)\n", rows) == {'ESC401'}


def test_own_function_rows_take_the_place_of_a_built_in_name():
    """``--escapes-regex-functions=re.sub:0``: re.sub's second argument is no longer a replacement."""
    src = "import re\nre.sub(p, '(\\1)', s)\n"
    assert codes(src) == {'ESC401'}
    assert codes(src, apis.parse_functions('re.sub:0')) == set()


def test_paths_come_before_regexes():
    """A call with a path row is not read as a regex call: the project's own 'open:0' leaves open a path."""
    src = "open('C:\\bin')\n"   # '\\b': ESC402 in a pattern, ESC501 in a path
    assert codes(src) == {'ESC501'}
    assert codes(src, apis.parse_functions('open:0')) == {'ESC501'}
    assert codes(src.replace('open', 'mylib.open'), apis.parse_functions('mylib.open:0')) == {'ESC402'}


def test_rows_parse_as_python_names():
    for row in apis.ROWS:
        assert all(part.isidentifier() for part in row.name.split('.')), row
        ast.parse(call(row, [MARK]))
