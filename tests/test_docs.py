"""The README and CHANGELOG are tested against the registry of codes."""
from __future__ import annotations

import os
import re

import pytest

from flake8_escapes import rules
from helpers import results

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def read(name: str) -> str:
    with open(os.path.join(ROOT, name), encoding='utf-8') as f:
        return f.read()


README = read('README.md')


def readme_table() -> dict[str, str]:
    """code -> 'reports' cell of the README's code table."""
    rows = re.findall(r'^\| (ESC\d{3}) \| (.+?) \| .+ \|$', README, re.MULTILINE)
    return dict(rows)


def readme_section(code: str) -> str:
    match = re.search(rf'^### {code}\n(.*?)(?=^#{{2,3}} |\Z)', README, re.MULTILINE | re.DOTALL)
    assert match, f'README.md has no section for {code}'
    return match.group(1)


def test_table_lists_exactly_the_registry():
    assert list(readme_table()) == [rule.code for rule in rules.RULES]


@pytest.mark.parametrize('rule', rules.RULES, ids=lambda r: r.code)
def test_table_row_is_the_summary(rule):
    assert readme_table()[rule.code] == rule.summary


@pytest.mark.parametrize('rule', rules.RULES, ids=lambda r: r.code)
def test_section_shows_the_examples(rule):
    section = readme_section(rule.code)
    for heading in ('**What it does.**', '**Why is this bad?**', '**Example**', '**Use instead**',
                    '**Known limits.**'):
        assert heading in section
    assert f'```python\n{rule.bad}```' in section
    assert f'```python\n{rule.good}```' in section


@pytest.mark.parametrize('rule', rules.RULES, ids=lambda r: r.code)
def test_bad_example_yields_exactly_its_code(rule):
    assert {r.split()[1] for r in results(rule.bad)} == {rule.code}


@pytest.mark.parametrize('rule', rules.RULES, ids=lambda r: r.code)
def test_good_example_yields_nothing(rule):
    assert results(rule.good) == set()


@pytest.mark.parametrize('rule', rules.RULES, ids=lambda r: r.code)
def test_changelog_names_the_code(rule):
    assert f'\n- {rule.code}' in read('CHANGELOG.md')


def test_changelog_has_a_dated_section_for_the_version():
    version = re.search(r'^version = "(.+)"$', read('pyproject.toml'), re.M).group(1)
    assert re.search(rf'^## {re.escape(version)} — \d{{4}}-\d\d-\d\d$', read('CHANGELOG.md'), re.M), version


def test_messages_are_one_line_and_short():
    for rule in rules.RULES:
        message = rule.format(escape='\\d', doubled='\\\\d', value='\\u01ff', codepoint='U+0001',
                              meaning='the character U+0086', command='\\rightleftharpoons')
        assert '\n' not in message
        assert len(message) <= 90, message


def test_readme_sample_command_runs_on_a_file_that_exists():
    assert 'python -m flake8 --select=ESC tests/data/sample.py' in README
    assert os.path.exists(os.path.join(ROOT, 'tests', 'data', 'sample.py'))


def test_ci_runs_the_readme_test_command():
    command = re.search(r'^(python -m pip install .tox>=4. && tox run-parallel)$', README, re.MULTILINE)
    assert command
    assert command.group(1) in read('.ci/run')
