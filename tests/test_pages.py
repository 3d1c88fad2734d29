"""The code pages (docs/ESCxxx.md) against the registry, the plugin's real reports and CPython,
and ``flake8-escapes explain``, which prints them."""
from __future__ import annotations

import functools
import io
import os
import re
import subprocess
import sys
import warnings

import pytest

from flake8_escapes import api, cli, doctests, paths, quotes, regex, rules, tex
from flake8_escapes.commands import explain
from helpers import finders, results

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOCS = os.path.join(ROOT, 'docs')
CODES = [rule.code for rule in rules.RULES]
#: Every page's headings, in this order (ruff's rule pages are the model).
HEADINGS = ['## What it does', '## Why is this bad?', '## Example', '## Use instead', '## Fix safety',
            '## Known limits', '## Finding rules and exemptions']


@functools.cache
def page(code: str) -> str:
    with open(os.path.join(DOCS, f'{code}.md'), encoding='utf-8') as f:
        return f.read()


def section(code: str, heading: str) -> str:
    """The text of one ``## `` section of a code's page, up to the next one."""
    text = page(code)
    start = text.index(f'\n{heading}\n') + len(heading) + 2
    end = text.find('\n## ', start)
    return text[start:] if end < 0 else text[start:end + 1]


def first_block(text: str) -> str:
    """The first ```python block of ``text``, as source."""
    match = re.search(r'^```python\n(.*?)^```$', text, re.MULTILINE | re.DOTALL)
    assert match, text
    return match.group(1)


def codes_of(src: str) -> set[str]:
    """The codes the plugin reports on ``src``, or, for a source that does not compile, those
    ``check`` reports from its literals' text (flake8 runs no plugin on it)."""
    try:
        compile_quietly(src)
    except SyntaxError:
        lines = io.StringIO(src).readlines()
        return {report.code for report in api.text_reports(lines) or []}
    return {item.split()[1] for item in results(src)}


def compile_quietly(src: str) -> list[str]:
    """CPython's own warnings on compiling ``src`` (a SyntaxError propagates)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        compile(src, '<page>', 'exec')
    return [f'{item.category.__name__}: {item.message}' for item in caught]


# -- the pages: one per code, in one shape --------------------------------------------------------

def test_one_page_per_code_and_no_other():
    assert sorted(name for name in os.listdir(DOCS) if re.fullmatch(r'ESC\d+\.md', name)) == \
        sorted(f'{code}.md' for code in CODES)


@pytest.mark.parametrize('rule', rules.RULES, ids=lambda r: r.code)
def test_page_has_its_title_and_the_sections_in_order(rule):
    text = page(rule.code)
    assert text.splitlines()[0] == f'# {rule.code}: {rule.name}'
    assert re.findall(r'^#.*$', text.split('\n## Finding rules and exemptions\n')[0], re.MULTILINE) == \
        [f'# {rule.code}: {rule.name}', *HEADINGS[:-1]]
    assert text.count('\n## Finding rules and exemptions\n') == 1 and text.endswith('\n')


@pytest.mark.parametrize('code', CODES)
def test_page_is_clean_markdown(code):
    """No code span cut across lines (an odd count of backticks on a line outside code blocks),
    and no survey figures or developer commands: those are docs/measurements.md's."""
    text = re.sub(r'^```.*?^```$', '', page(code), flags=re.MULTILINE | re.DOTALL)
    assert [line for line in text.splitlines() if line.count('`') % 2] == []
    for developer_only in ('python tests/', 'tox ', 'precision', 'recall', 'survey', 'Reproduce'):
        assert developer_only not in text, developer_only


@pytest.mark.parametrize('rule', rules.RULES, ids=lambda r: r.code)
def test_page_examples_are_the_registrys(rule):
    assert first_block(section(rule.code, '## Example')) == rule.bad
    assert first_block(section(rule.code, '## Use instead')) == rule.good


@pytest.mark.parametrize('code', CODES)
def test_page_example_yields_exactly_its_code(code):
    assert codes_of(first_block(section(code, '## Example'))) == {code}


@pytest.mark.parametrize('code', CODES)
def test_page_use_instead_yields_nothing_and_compiles_silently(code):
    fixed = first_block(section(code, '## Use instead'))
    assert results(fixed) == set()
    assert compile_quietly(fixed) == []


@pytest.mark.parametrize('code', ['ESC301', 'ESC302', 'ESC303', 'ESC304'])
def test_page_example_is_what_cpython_warns_about_or_refuses(code):
    """ESC3xx are CPython's own warnings and refusals: the page's example gets one from the compiler."""
    bad = first_block(section(code, '## Example'))
    if code == 'ESC304':
        with pytest.raises(SyntaxError, match='unicode error'):
            compile_quietly(bad)
        return
    warned = compile_quietly(bad)
    if code == 'ESC303' and sys.version_info < (3, 11):  # the page: "CPython warns about them since 3.11"
        assert warned == [] and 'CPython warns about them since 3.11' in ' '.join(page(code).split())
        return
    assert len(warned) == 1 and re.match(r'(Syntax|Deprecation)Warning: ', warned[0]), warned


@pytest.mark.parametrize('rule', rules.RULES, ids=lambda r: r.code)
def test_fix_safety_says_the_registrys(rule):
    first_word = section(rule.code, '## Fix safety').split()[0].strip(':')
    assert first_word == rule.fix.capitalize()


def test_values_the_pages_state_are_cpythons():
    """ESC302 and ESC303 say what the literal holds: CPython's values (0.4.0's README said 11 bytes)."""
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        written = eval(r"b'caf\u00e9'")  # noqa: P103 - the page's literal, compiled as CPython does
        assert f"`b'caf\\u00e9'` is the {len(written)} bytes" in ' '.join(page('ESC302').split())
        assert eval(r"'\777'") == '\u01ff' and eval(r"b'\777'") == b'\xff'
    assert "`'\\777'` -> `'\\u01ff'`, `b'\\777'` ->\n`b'\\xff'`" in page('ESC303')


# -- each finding rule and exemption: one sentence and its example, as the registry holds them ----

def registry_entries(code: str) -> list[tuple[str, str, str, str]]:
    """(name, 'finding rule' or 'exemption', sentence, example) of every rule of ``code``."""
    found = []
    for table, kind in ((paths.FINDERS, 'finding rule'), (tex.FINDERS, 'finding rule'),
                        (doctests.FINDERS, 'finding rule'), (quotes.FINDERS, 'finding rule'),
                        (tuple(regex.EXEMPTIONS.values()), 'exemption'),
                        (paths.EXEMPTIONS, 'exemption'), (tex.EXEMPTIONS, 'exemption'),
                        (doctests.EXEMPTIONS, 'exemption')):
        for item in table:
            if code in getattr(item, 'codes', ('ESC501',)):  # paths.Finder: ESC501 only, no codes field
                found.append((item.name, kind, item.rule, item.example))
    return found


def page_entries(code: str) -> list[tuple[str, str, str, str]]:
    """(name, kind, sentence, example) of every rule the page's last section lists."""
    pattern = r'^\*\*`([\w-]+)`\*\* \((finding rule|exemption)\): ([^\n]+)\n\n```python\n(.*?)^```$'
    return [(name, kind, sentence, example.rstrip('\n')) for name, kind, sentence, example in
            re.findall(pattern, section(code, '## Finding rules and exemptions'), re.MULTILINE | re.DOTALL)]


@pytest.mark.parametrize('code', CODES)
def test_page_lists_each_rule_of_its_code_with_its_sentence_and_example(code):
    expected = [(name, kind, sentence, example.rstrip('\n')) for name, kind, sentence, example
                in registry_entries(code)]
    assert page_entries(code) == expected
    count = len(re.findall(r'^\*\*`', section(code, '## Finding rules and exemptions'), re.MULTILINE))
    assert count == len(expected)  # no entry in another shape


def test_every_rule_is_on_a_page():
    """Each rule of every family's table, by its name and sentence (two families have a
    discarded-string exemption, each its own), is on the page of each code it belongs to."""
    named = {(name, sentence) for code in CODES for name, _, sentence, _ in page_entries(code)}
    assert len(named) == len(regex.EXEMPTIONS) + len(paths.EXEMPTIONS) + len(paths.FINDERS) + \
        len(tex.EXEMPTIONS) + len(tex.FINDERS) + len(doctests.EXEMPTIONS) + len(doctests.FINDERS) + \
        len(quotes.FINDERS)


PAGE_RULES = [(code, entry) for code in CODES for entry in page_entries(code)]


@pytest.mark.parametrize('code, entry', PAGE_RULES, ids=[f'{code}-{entry[0]}' for code, entry in PAGE_RULES])
def test_page_rule_example_against_the_plugin(code, entry):
    """As the page shows it: a finding rule's example is reported (ESC501's and ESC601's by that very
    rule), an exemption's is not."""
    name, kind, _, example = entry
    if code == 'ESC305':  # a file that does not parse: flake8 stops at E999; check and the server report it
        found = {item.code for item in api.lint(example + '\n') if item.code == code}
    else:
        found = {item for item in results(example + '\n') if item.endswith(code)}
    if kind == 'exemption':
        assert not found
    else:
        assert found
        if code in ('ESC501', 'ESC601'):
            assert finders(example + '\n', code) == {name}


# -- explain: the page as plain text ---------------------------------------------------------------

def explained(capsys, *args: str) -> tuple[int, str, str]:
    status = cli.main(['explain', *args])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize('code', CODES)
def test_explain_markdown_prints_the_page(capsys, code):
    assert explained(capsys, code.lower(), '--markdown') == (0, page(code), '')


@pytest.mark.parametrize('code', CODES)
def test_explain_prints_30_to_50_lines_of_plain_text(capsys, code):
    status, out, err = explained(capsys, code.lower())
    assert (status, err) == (0, '')
    lines = out.splitlines()
    assert 30 <= len(lines) <= 50, len(lines)
    assert lines[:3] == [f'{code}: {rules.BY_CODE[code].name}', '=' * len(lines[0]), '']
    prose = [line for line in lines if not line.startswith('    ')]
    assert not [line for line in prose if '`' in line or '**' in line or line.startswith('#')]
    assert max(map(len, prose)) <= explain.WIDTH
    for heading in HEADINGS:
        assert heading[3:] in lines
    for example in (rules.BY_CODE[code].bad, rules.BY_CODE[code].good):  # code blocks: indented, as written
        assert ''.join(f'    {line}\n' if line else '\n' for line in example.splitlines()) in out


@pytest.mark.parametrize('code', CODES)
def test_explain_keeps_each_code_span_on_one_line(capsys, code):
    """A code span is refilled whole (0.4.0 cut "# noqa" and `flake8-escapes check` in two)."""
    out = explained(capsys, code)[1]
    shown = page(code).split('\n## Finding rules and exemptions\n')[0]
    for span in re.findall(r'`([^`]+)`', re.sub(r'^```.*?^```$', '', shown, flags=re.M | re.S)):
        assert any(explain.spoken(span) in line for line in out.splitlines()), span


@pytest.mark.parametrize('code', CODES)
def test_explain_counts_the_rules_it_leaves_to_the_page(capsys, code):
    out = ' '.join(explained(capsys, code)[1].split())
    kinds = [kind for _, kind, _, _ in registry_entries(code)]
    if not kinds:  # ESC3xx: the section says there are none
        assert 'Finding rules and exemptions None: ' in out
        return
    counted = ' and '.join(f'{kinds.count(kind)} {kind}{"s" * (kinds.count(kind) > 1)}'
                           for kind in ('finding rule', 'exemption') if kind in kinds)
    assert f'Finding rules and exemptions {counted}, each one sentence with its example' in out
    assert f'"flake8-escapes explain {code} --markdown" prints the whole page.' in out


def test_explain_keeps_the_meaning_of_code_spans():
    """'(\\50 is () is taken as meant' lost the code spans' edges (issue 25)."""
    assert 'printable character ("\\50" is "(") is taken as meant' in ' '.join(
        explain.plain(page('ESC401')).split())
    assert explain.spoken('re.sub') == 're.sub' and explain.spoken("'\\d'") == "'\\d'"
    assert explain.spoken("r'\\d+'") == "r'\\d+'" and explain.spoken('(') == '"("'
    assert explain.spoken('a') == '"a"' and explain.spoken('...') == '"..."'


def test_explain_says_where_the_repositorys_files_are():
    """An installed user has no docs/ or tests/ folder: text naming one says where they are."""
    text = explain.text_of('# ESC999: x\n\n## What it does\n\nSee docs/measurements.md.\n', 'ESC999')
    assert text.rstrip().endswith(f'({explain.source_url()}).')
    assert 'The files under docs/ named above are in the source repository' in ' '.join(text.split())
    assert explain.source_url().startswith('https://')


def test_explain_without_its_page_says_so(capsys, monkeypatch, tmp_path):
    monkeypatch.setattr(explain, 'SHIPPED', 'no-such-folder')
    monkeypatch.setattr(explain, 'CHECKOUT', tmp_path)
    status, out, err = explained(capsys, 'ESC501')
    assert (status, out) == (2, '')
    assert err.startswith('flake8-escapes explain: error: the page of ESC501 is missing') and len(
        err.splitlines()) == 1


def test_explain_an_unknown_code_names_the_known_ones(capsys):
    status, out, err = explained(capsys, 'ESC999')
    assert (status, out) == (2, '')
    assert err == f"flake8-escapes explain: error: unknown code 'ESC999' (codes: {', '.join(CODES)})\n"


def test_explain_from_the_command_line(tmp_path):
    """The installed command, run away from the checkout (an editable install reads docs/)."""
    proc = subprocess.run([sys.executable, '-m', 'flake8_escapes', 'explain', 'esc501'], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert (proc.returncode, proc.stderr) == (0, '')
    assert proc.stdout.startswith('ESC501: escape-in-windows-path\n')


def test_pages_ship_in_the_package():
    """pyproject.toml maps the package's pages folder to docs/ and takes the code pages only;
    tests/package.sh checks the built wheel and sdist."""
    with open(os.path.join(ROOT, 'pyproject.toml'), encoding='utf-8') as f:
        pyproject = f.read()
    assert f'"flake8_escapes.{explain.SHIPPED}" = "docs"' in pyproject
    assert f'"flake8_escapes.{explain.SHIPPED}" = ["ESC*.md"]' in pyproject
    # the package reads its pages from the shipped copy, else from the checkout's docs/ (editable)
    assert explain.CHECKOUT.parts[-1] == 'docs'
    for code in CODES:
        with open(os.path.join(DOCS, f'{code}.md'), encoding='utf-8') as f:
            assert explain.page(code) == f.read(), code
    with open(os.path.join(ROOT, 'MANIFEST.in'), encoding='utf-8') as f:
        assert 'graft docs\n' in f.read()


#: What each page's Known limits says is not reported: (code, the page's words, a source that shows it,
#: the nearest source that is reported, so that the limit is not read off a source with no hazard).
NOT_REPORTED = [
    ('ESC401', "`\\0` and three-digit escapes (`\\033`, `\\101`)",
     "import re\nx = re.sub('(a)', '\\0\\033\\101', s)\n", "import re\nx = re.sub('(a)', '\\1', s)\n"),
    ('ESC401', "(`re.sub(p, rules['b'], s)`)",
     "import re\nrules = {'b': '<\\1>'}\nre.sub(p, rules['b'], s)\n", "import re\nre.sub(p, '<\\1>', s)\n"),
    ('ESC402', 'A `\\b` inside a character class (`[\\b]`)',
     "import re\nre.search('[\\b]x', t)\n", "import re\nre.search('\\bx', t)\n"),
    ('ESC501', "(`label = 'C:\\new'`)", "label = 'C:\\new'\n", "open('C:\\new')\n"),
    ('ESC501', "(`'Saved to C:\\temp'`)",
     "print('Saved to C:\\temp')\n", "print('Saved to C:\\temp\\new.txt')\n"),
    ('ESC501', "(`'logs\\training'`)",
     "x = 'logs\\training'\n", "import os\nLOG_DIR = 'logs\\training'\nos.makedirs(LOG_DIR)\n"),
    ('ESC601', "(`print('angle \\theta')`, `'0.8\\textwidth'`)",
     "print('angle \\theta')\nwidth = '0.8\\textwidth'\n", "print('angle $\\theta$')\n"),
    ('ESC602', "(`>>> name('caf\\xe9')`)",
     'def name():\n    """>>> name(\'caf\\xe9\')\n    4\n    """\n',
     'def name():\n    """>>> name(\'caf\\x85\')\n    4\n    """\n'),
]


@pytest.mark.parametrize('code, words, quiet, reported', NOT_REPORTED)
def test_known_limits_examples_are_not_reported(code, words, quiet, reported):
    assert words in ' '.join(section(code, '## Known limits').split())
    assert not {item for item in results(quiet) if item.endswith(code)}
    assert {item for item in results(reported) if item.endswith(code)}


def test_plain_reads_only_a_hash_and_a_space_as_a_heading():
    text = explain.plain('# ESC999: x\n\n## What it does\n\nA line that wraps before\n#1 stays text.\n')
    assert text == 'ESC999: x\n=========\n\nWhat it does\nA line that wraps before #1 stays text.\n'
