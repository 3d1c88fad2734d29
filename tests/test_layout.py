"""The package's map (docs/development.md): each module opens with a docstring that says its one
job, and imports only the modules below it, so that no family calls back into the role pass."""
from __future__ import annotations

import ast
import pathlib

import pytest

PACKAGE = pathlib.Path(__file__).parent.parent / 'flake8_escapes'

#: What each module may import of the package, as docs/development.md's module map says.  A module
#: missing here fails the test: a new module takes its place in the map first.
FAMILY = {'escapes', 'literals', 'rules', 'roles', 'names'}
MAY_IMPORT: dict[str, set[str]] = {
    'escapes': set(),
    'literals': {'escapes'},
    'names': set(),
    'apis': set(),
    'roles': {'apis', 'names', 'literals'},
    'rules': {'literals'},
    'invalid': FAMILY,
    'regex': FAMILY,
    'paths': FAMILY,
    'tex': FAMILY,
    'doctests': FAMILY,
    'quotes': {'escapes', 'paths', 'rules'},
    'source': {'escapes', 'literals', 'names', 'paths', 'tex', 'doctests'},
    'checks': {'apis', 'escapes', 'invalid', 'literals', 'paths', 'quotes', 'regex', 'roles', 'rules', 'tex',
               'doctests'},
    'fix.files': set(),
    'fix.plan': {'apis', 'checks', 'doctests', 'escapes', 'invalid', 'literals', 'rules', 'source',
                 'fix.files'},
    'fix.refused': {'checks', 'escapes', 'invalid', 'literals', 'rules', 'source', 'fix.plan', 'fix.files',
                    'fix.proof'},
    'fix.closing': {'quotes', 'source', 'fix.plan', 'fix.refused', 'fix.files', 'fix.proof'},
    'fix.proof': {'roles', 'rules', 'fix', 'fix.plan', 'fix.files'},
    'fix': {'', 'apis', 'fix', 'fix.closing', 'fix.plan', 'fix.proof', 'fix.refused', 'fix.files', 'checks',
            'literals', 'rules'},
    'plugin': {'', 'apis', 'checks', 'source'},
    'output': set(),
    'config': {'apis', 'output', 'plugin'},
    'notebook': set(),
    'fix.diff': set(),
    'chunks': set(),
    'noqa': {'rules', 'source'},
    'api': {'', 'apis', 'checks', 'chunks', 'config', 'fix', 'fix.files', 'fix.proof', 'invalid', 'noqa',
            'notebook', 'rules', 'source'},
    'commands': set(),
    'commands.check': {'', 'api', 'apis', 'checks', 'config', 'escapes', 'notebook', 'output', 'rules',
                       'source'},
    'commands.fix': {'api', 'apis', 'config', 'fix', 'fix.diff', 'notebook', 'output', 'commands',
                     'commands.check'},
    'commands.server': {'', 'api', 'config', 'rules', 'commands', 'commands.explain',
                        'commands.server_notebooks'},
    'commands.server_notebooks': {'api', 'notebook', 'rules', 'commands', 'commands.server'},
    'commands.explain': {'rules'},
    'cli': {'', 'config', 'output', 'fix', 'commands', 'commands.check', 'commands.explain', 'commands.fix',
            'commands.server'},
    '__main__': {'cli'},
    'pylsp_plugin': {'api', 'config'},
    '': set(),
}


def module_name(path: pathlib.Path) -> str:
    parts = list(path.relative_to(PACKAGE).with_suffix('').parts)
    if parts[-1] == '__init__':
        parts.pop()
    return '.'.join(parts)


def imported(tree: ast.Module) -> set[str]:
    """The package's modules a module imports ('' for the package itself: ``__version__``)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith('flake8_escapes'):
            module = node.module[len('flake8_escapes'):].lstrip('.')
            for alias in node.names:
                submodule = f'{module}.{alias.name}'.lstrip('.')
                found.add(submodule if submodule in MAY_IMPORT else module)
        elif isinstance(node, ast.Import):
            found.update(alias.name[len('flake8_escapes.'):] for alias in node.names
                         if alias.name.startswith('flake8_escapes.'))
    return found


MODULES = sorted(PACKAGE.rglob('*.py'))


@pytest.mark.parametrize('path', MODULES, ids=module_name)
def test_module_imports_only_what_the_map_allows(path):
    name = module_name(path)
    assert name in MAY_IMPORT, f'{name} is not in the map (docs/development.md, MAY_IMPORT here)'
    extra = imported(ast.parse(path.read_text(encoding='utf-8'))) - MAY_IMPORT[name] - {name}
    assert not extra, f'{name} imports {sorted(extra)}, above it in the map'


@pytest.mark.parametrize('path', MODULES, ids=module_name)
def test_module_opens_with_a_docstring(path):
    docstring = ast.get_docstring(ast.parse(path.read_text(encoding='utf-8')))
    assert docstring and len(docstring.split()) >= 4, module_name(path)


def test_the_map_names_every_module_in_the_development_page():
    page = (PACKAGE.parent / 'docs' / 'development.md').read_text(encoding='utf-8')
    section = page[page.index('## The module map'):]
    for path in MODULES:
        name = module_name(path)
        if name in ('', '__main__') or name.startswith('fix'):
            continue  # the package, ``python -m``, and the fixer's row (`fix/`)
        spelled = name.replace('.', '/')
        assert f'`{spelled}.py`' in section or f'`{name}`' in section or f'`{spelled}/`' in section, name
    assert '`fix/`' in section


#: What the role pass does; a family given its results never runs it again.
ROLE_PASS = {'literal_roles', 'looked_for_characters', 'looked_for_later'}
FAMILY_MODULES = ('invalid', 'regex', 'paths', 'tex', 'doctests')


@pytest.mark.parametrize('name', FAMILY_MODULES)
def test_a_family_does_not_call_back_into_the_role_pass(name):
    path = PACKAGE / f'{name}.py'
    if not path.exists():
        pytest.skip(f'{name}.py is not in this version')
    nodes = list(ast.walk(ast.parse(path.read_text(encoding='utf-8'))))
    used = {node.attr for node in nodes if isinstance(node, ast.Attribute)}
    used |= {node.id for node in nodes if isinstance(node, ast.Name)}
    assert not used & ROLE_PASS, f'{name} runs the role pass: {sorted(used & ROLE_PASS)}'
