"""The README and CHANGELOG are tested against the registry of codes."""
from __future__ import annotations

import glob
import io
import os
import re
import subprocess
import sys

import pytest

from flake8_escapes import api, paths, quotes, rules
from helpers import results

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def read(name: str) -> str:
    with open(os.path.join(ROOT, name), encoding='utf-8') as f:
        return f.read()


README = read('README.md')


#: A row of the README's code table: the code, linked to its page, what it reports, one example and
#: what to write instead.
TABLE_ROW = re.compile(r'^\| \[(ESC\d{3})\]\(docs/(ESC\d{3})\.md\) \| (.+?) \| `(.+?)` \| `(.+?)` \|$',
                       re.MULTILINE)


def readme_table() -> dict[str, str]:
    """code -> 'reports' cell of the README's code table."""
    return {row[0]: row[2] for row in TABLE_ROW.findall(README)}


def readme_examples() -> list[tuple[str, str, str]]:
    """(code, example, use instead) for each row of the README's code table."""
    return [(row[0], row[3], row[4]) for row in TABLE_ROW.findall(README)]


def test_table_lists_exactly_the_registry():
    assert list(readme_table()) == [rule.code for rule in rules.RULES]


def test_each_code_links_its_own_page_and_has_an_example():
    rows = TABLE_ROW.findall(README)
    assert [(row[0], row[1]) for row in rows] == [(rule.code, rule.code) for rule in rules.RULES]
    assert len(readme_examples()) == len(rules.RULES)


def table_codes(code: str, example: str) -> set[str]:
    """The codes reported on a table cell, alone in a module after ``import re`` (a docstring stays
    the module's first statement); ESC304's file does not compile, so check's text-level reports."""
    text = f'{example}\nimport re\n' if example.startswith('"""') else f'import re\nx = {example}\n'
    lines = io.StringIO(text).readlines()
    if code in ('ESC304', 'ESC305'):
        return {report.code for report in api.text_reports(lines) or []}
    return {r.split()[1] for r in results(text)}


@pytest.mark.parametrize('code, example, instead', readme_examples(), ids=lambda x: x[:6])
def test_table_example_yields_exactly_its_code(code, example, instead):
    assert table_codes(code, example) == {code}


@pytest.mark.parametrize('code, example, instead', readme_examples(), ids=lambda x: x[:6])
def test_table_use_instead_yields_nothing(code, example, instead):
    assert table_codes(code, instead) == set()


@pytest.mark.parametrize('rule', rules.RULES, ids=lambda r: r.code)
def test_table_row_is_the_summary(rule):
    assert readme_table()[rule.code] == rule.summary


@pytest.mark.parametrize('rule', rules.RULES, ids=lambda r: r.code)
def test_changelog_names_the_code(rule):
    assert f'\n- {rule.code}' in read('CHANGELOG.md')


def test_changelog_has_a_dated_section_for_the_version():
    version = re.search(r'^version = "(.+)"$', read('pyproject.toml'), re.M).group(1)
    assert re.search(rf'^## {re.escape(version)} — \d{{4}}-\d\d-\d\d$', read('CHANGELOG.md'), re.M), version


#: Each code's advice fields: ESC305's (``quotes``), ESC501's (``paths``).
ADVICE = {'ESC305': (quotes.RAW_ADVICE, quotes.ADVICE), 'ESC501': (paths.RAW_ADVICE, paths.DOUBLED_ADVICE)}


@pytest.mark.parametrize('choice', [0, 1])
def test_messages_are_one_line_and_short(choice):
    for rule in rules.RULES:
        advice = ADVICE.get(rule.code, ('',) * 2)[choice]
        message = rule.format(escape='\\d', doubled='\\\\d', value='\\u01ff', codepoint='U+0001',
                              problem="needs two hex digits: write '\\x04', or '\\\\x4' for a backslash",
                              meaning='the character U+0086', command='\\rightleftharpoons',
                              advice=advice)
        assert '\n' not in message
        assert len(message) <= 90, message


def test_readme_sample_command_runs_on_a_file_that_exists():
    assert 'python -m flake8 --select=ESC tests/data/sample.py' in README
    assert os.path.exists(os.path.join(ROOT, 'tests', 'data', 'sample.py'))


def test_ci_runs_the_readme_test_command():
    command = re.search(r'^(python -m pip install .tox>=4. && tox run-parallel)$', README, re.MULTILINE)
    assert command
    assert command.group(1) in read('.ci/run')


def setup_commands() -> list[str]:
    """The commands of the README's Set-up section, one per code block."""
    text = README[README.index('## Set-up'):README.index('\n## ', README.index('## Set-up') + 1)]
    return [block.strip() for block in re.findall(r'^```\n(.*?)^```', text, re.MULTILINE | re.DOTALL)]


def test_setup_gives_two_commands_and_the_quick_one():
    assert setup_commands() == [
        'python -m pip install . && python -m flake8 --select=ESC tests/data/sample.py',
        "python -m pip install 'tox>=4' && tox run-parallel",
        'tox run -e quick',
    ]


@pytest.mark.parametrize('command', setup_commands())
def test_ci_runs_each_setup_command_as_written(command):
    """.ci/run runs the README's commands, so that none of them can rot."""
    lines = [line.strip() for line in read('.ci/run').splitlines()]
    assert any(line == command or line.startswith(command + ' ') for line in lines), command


def test_the_quick_env_leaves_out_the_clients_and_the_slow_tests():
    """A `-m` after `--` replaces the env's own, so the quick env must need none (issue 25)."""
    section = re.search(r'^\[testenv:quick\]\n(.*?)(?=^\[)', read('tox.ini'), re.MULTILINE | re.DOTALL)
    assert section, 'tox.ini has no quick env'
    assert 'pytest -m "not slow and not clients and not scaling" {posargs}' in section.group(1)


def test_pre_commit_recipe_names_this_versions_release_tag():
    """Releases are tagged v<version>; the recipe's rev is that tag (tests/test_clients.py installs
    the hook from a snapshot it tags so, since a CI clone may lack the project's tags)."""
    version = re.search(r'^version = "(.+)"$', read('pyproject.toml'), re.MULTILINE).group(1)
    recipe = README[README.index('id: flake8-escapes-fix') - 200:README.index('id: flake8-escapes-fix')]
    assert f'    rev: v{version}\n' in recipe
    assert f'@v{version}"' in README and f'flake8_escapes-{version}-py3-none-any.whl' in README
    assert re.search(rf'^## {re.escape(version)} — \d{{4}}-\d\d-\d\d$', read('CHANGELOG.md'), re.MULTILINE)


def test_tox_lists_only_the_envs_tox_ini_defines() -> None:
    """A continuation line that starts with a word and a colon is a factor condition to tox (0.3.0's
    lint description made `tox list` show a phantom env `shape`): `tox list` names only the envs of
    env_list and of the [testenv:NAME] sections."""
    tox_ini = read('tox.ini')
    defined = set(re.search(r'^env_list = (.*)$', tox_ini, re.MULTILINE)[1].replace(' ', '').split(','))
    defined |= set(re.findall(r'^\[testenv:([\w-]+)\]', tox_ini, re.MULTILINE))
    factors = set(re.findall(r'^[ \t]+([\w-]+(?:,[\w-]+)*):[ \t]', tox_ini, re.MULTILINE))
    assert factors <= defined, f'continuation lines that tox reads as factors: {sorted(factors - defined)}'


def test_readme_lists_the_fixer_hook_before_flake8():
    """pre-commit runs hooks in the order listed, and the README says the fixes come first."""
    section = README[README.index('## pre-commit'):]
    block = section[section.index('```yaml'):section.index('```\n', section.index('```yaml') + 3)]
    assert block.index('id: flake8-escapes-fix') < block.index('id: flake8\n')


def test_the_sample_shows_every_code_flake8_can_report():
    """The README's first command runs flake8 on tests/data/sample.py: it shows one report of every
    code (0.3.0's sample had no ESC6xx line).  ESC304 and ESC305 cannot be in it: a file that does
    not compile stops flake8 at E999 before any plugin runs."""
    proc = subprocess.run([sys.executable, '-m', 'flake8', '--select=ESC',
                           os.path.join(ROOT, 'tests', 'data', 'sample.py')],
                          capture_output=True, text=True, check=False)
    shown = set(re.findall(r': (ESC\d+) ', proc.stdout))
    assert shown == {rule.code for rule in rules.RULES} - {'ESC304', 'ESC305'}, proc.stdout + proc.stderr


# -- issue 32: a README a newcomer reads in five minutes; the rest in docs/ -----------------------------

def test_readme_is_short_and_the_setup_commands_are_on_its_first_screen():
    lines = README.splitlines()
    assert len(lines) <= 300, len(lines)
    first_screen = lines[:40]
    for command in setup_commands()[:2]:
        assert command in first_screen, command


def linked(page: str) -> set[str]:
    """The repository paths a Markdown page links to (not URLs, not anchors within the page)."""
    folder = os.path.dirname(page)
    targets = re.findall(r'\]\(([^)#\s]+)(?:#[^)]*)?\)', read(page))
    return {os.path.normpath(os.path.join(folder, target)) for target in targets if '://' not in target}


#: The README, the pages this issue wrote, and every other page of docs/.
DOCS = sorted({'README.md', 'docs/README.md', 'docs/check.md', 'docs/fix.md', 'docs/measurements.md',
               'docs/development.md'}
              | {os.path.relpath(path, ROOT) for path in glob.glob(os.path.join(ROOT, 'docs', '*.md'))})


@pytest.mark.parametrize('page', DOCS)
def test_every_link_of_the_docs_reaches_a_file(page):
    missing = sorted(target for target in linked(page) if not os.path.exists(os.path.join(ROOT, target)))
    assert not missing, f'{page} links to {missing}'


@pytest.mark.parametrize('page', ['docs/measurements.md', 'docs/development.md'])
def test_every_file_a_command_names_exists(page):
    """A figure is only as good as the command and the data behind it: each script and data file the
    page names is in the repository (``data/...`` after ``cd tests``; survey_science{,2,3,4} expanded)."""
    text = read(page)
    named = set(re.findall(r'(?<![\w/])((?:tests|flake8_escapes)/[\w./{},-]+\.(?:py|sh|md|tsv|txt))', text))
    named |= {'tests/' + path for path in re.findall(r'(?<![\w/])(data/[\w.{},-]+\.(?:py|md|tsv|txt))', text)}
    paths = set()
    for path in named:
        braces = re.search(r'\{(.*?)\}', path)
        paths |= ({path[:braces.start()] + part + path[braces.end():] for part in braces[1].split(',')}
                  if braces else {path})
    missing = sorted(path for path in paths if not os.path.exists(os.path.join(ROOT, path)))
    assert paths and not missing, missing


def test_the_development_page_names_every_tox_env():
    tox_ini = read('tox.ini')
    envs = set(re.search(r'^env_list = (.*)$', tox_ini, re.MULTILINE)[1].replace(' ', '').split(','))
    envs |= set(re.findall(r'^\[testenv:([\w-]+)\]', tox_ini, re.MULTILINE))
    page = read('docs/development.md')
    table = page[page.index('## tox envs'):page.index('\n## ', page.index('## tox envs') + 1)]
    named = set(re.findall(r'^\| `([\w-]+)`', table, re.MULTILINE))
    first, last = re.search(r'^\| `py(\d+)` \.\.\. `py(\d+)`', table, re.MULTILINE).groups()
    named |= {f'py{n}' for n in range(int(first), int(last) + 1)}
    assert named == envs, named ^ envs
