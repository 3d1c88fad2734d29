"""The plugin as users meet it through other programs, each one real and
installed from the package registry (tox env ``clients``): an editor's
language server, pre-commit, and flake8 over a large tree in parallel.

Marked ``clients``: the quick suite deselects them (``-m "not clients"``).
"""
from __future__ import annotations

import ast
import json
import os
import queue
import shutil
import subprocess
import sys
import threading
import time
import warnings
from pathlib import Path

import pytest

import differential

from flake8_escapes import notebook

pytestmark = pytest.mark.clients
ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent

DOCUMENT = (
    'import re\n'
    "a = '\\d'\n"
    'b = re.sub("(a)", "\\1", s)\n'
    "c = open('C:\\temp\\new.txt')\n"
)


def expected_positions() -> set[tuple[str, int, int]]:
    """(code, 0-based line, 0-based character) read off the document text."""
    lines = DOCUMENT.splitlines()
    return {
        ('ESC301', 1, lines[1].index('\\d')),
        ('ESC401', 2, lines[2].index('\\1')),
        ('ESC501', 3, lines[3].index('\\t')),
        ('ESC501', 3, lines[3].index('\\n')),
    }


def tool(name: str) -> str:
    path = shutil.which(name, path=str(BIN)) or shutil.which(name)
    if path is None:
        pytest.fail(f'{name} is not installed in this environment (tox -e clients installs it)')
    return path


class LanguageServer:
    """A minimal LSP client over a subprocess's stdio."""

    def __init__(self, command: list[str], cwd: Path) -> None:
        env = dict(os.environ, PATH=f'{BIN}{os.pathsep}{os.environ.get("PATH", "")}')
        self.proc = subprocess.Popen(command, cwd=cwd, env=env, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.messages: queue.Queue[dict] = queue.Queue()
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        stream = self.proc.stdout
        while True:
            length = None
            while True:
                header = stream.readline()
                if not header:
                    return
                if header in (b'\r\n', b'\n'):
                    break
                name, _, value = header.decode('ascii').partition(':')
                if name.lower() == 'content-length':
                    length = int(value)
            self.messages.put(json.loads(stream.read(length)))

    def send(self, method: str, params: dict, request: bool = False) -> int | None:
        message: dict = {'jsonrpc': '2.0', 'method': method, 'params': params}
        if request:
            self.next_id += 1
            message['id'] = self.next_id
        body = json.dumps(message).encode('utf-8')
        self.proc.stdin.write(b'Content-Length: %d\r\n\r\n' % len(body) + body)
        self.proc.stdin.flush()
        return message.get('id')

    def wait_for(self, match, timeout: float = 120) -> dict:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                message = self.messages.get(timeout=max(0.1, end - time.monotonic()))
            except queue.Empty:
                break
            if match(message):
                return message
        pytest.fail('the language server did not answer in time')

    def close(self) -> None:
        try:
            request = self.send('shutdown', {}, request=True)
            self.wait_for(lambda m: m.get('id') == request, timeout=30)
            self.send('exit', {})
            self.proc.wait(timeout=30)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait(timeout=30)
            self.proc.stdin.close()
            self.proc.stdout.close()


def open_with_flake8(server: LanguageServer, folder: Path, text: str) -> str:
    """Initialize pylsp with only its flake8 plugin on, and open ``text`` as an unsaved buffer
    (never written: pylsp lints it through flake8's stdin); its URI."""
    uri = (folder / 'unsaved.py').as_uri()
    request = server.send('initialize', {
        'processId': os.getpid(), 'rootUri': folder.as_uri(), 'capabilities': {},
    }, request=True)
    server.wait_for(lambda m: m.get('id') == request)
    server.send('initialized', {})
    server.send('workspace/didChangeConfiguration', {'settings': {'pylsp': {'plugins': {
        'flake8': {'enabled': True},
        'pycodestyle': {'enabled': False}, 'pyflakes': {'enabled': False},
        'mccabe': {'enabled': False},
    }}}})
    server.send('textDocument/didOpen', {'textDocument': {
        'uri': uri, 'languageId': 'python', 'version': 1, 'text': text}})
    return uri


def test_editor_language_server_shows_the_reports(tmp_path):
    """python-lsp-server with its flake8 plugin, on an unsaved buffer (stdin)."""
    server = LanguageServer([tool('pylsp')], tmp_path)
    try:
        uri = open_with_flake8(server, tmp_path, DOCUMENT)

        def flake8_diagnostics(message: dict) -> bool:
            params = message.get('params', {})
            return (message.get('method') == 'textDocument/publishDiagnostics'
                    and params.get('uri') == uri
                    and any(d.get('source') == 'flake8' for d in params['diagnostics']))

        diagnostics = server.wait_for(flake8_diagnostics)['params']['diagnostics']
    finally:
        server.close()
    found = {(d['code'], d['range']['start']['line'], d['range']['start']['character'])
             for d in diagnostics if d['code'].startswith('ESC')}
    assert found == expected_positions()
    messages = {d['message'] for d in diagnostics if d['code'] == 'ESC401'}
    assert messages == {"ESC401 '\\1' is the control character U+0001, not a backreference; use r'\\1'"}


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(['git', *args], cwd=cwd, check=True, capture_output=True, text=True,
                          env=dict(os.environ, GIT_AUTHOR_NAME='t', GIT_AUTHOR_EMAIL='t@t',
                                   GIT_COMMITTER_NAME='t', GIT_COMMITTER_EMAIL='t@t')).stdout


def published_copy(where: Path) -> tuple[Path, str]:
    """The checkout as it is now (uncommitted changes included), as a git
    repository pre-commit can install hooks from: (path, tag).  The snapshot
    is tagged as a release is (``v`` and the version), by the test itself:
    a CI clone may not carry the project's tags."""
    files = git(ROOT, 'ls-files', '--cached', '--others', '--exclude-standard').splitlines()
    for name in files:
        if (ROOT / name).is_file():
            (where / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, where / name)
    git(where, 'init', '-q')
    git(where, 'add', '-A')
    git(where, 'commit', '-qm', 'snapshot')
    tag = release_tag()
    git(where, 'tag', '-a', tag, '-m', f'flake8-escapes {tag}')
    return where, tag


def release_tag() -> str:
    """The tag a release of this version gets, and the README's pre-commit recipe names."""
    import flake8_escapes
    return f'v{flake8_escapes.__version__}'


def test_pre_commit_runs_flake8_and_the_fixer(tmp_path):
    repo, rev = published_copy(tmp_path / 'flake8-escapes')
    project = tmp_path / 'project'
    project.mkdir()
    git(project, 'init', '-q')
    bad = 'import re\nx = "\\d+"\ny = re.sub("(a)", "\\1", x)\n'
    (project / 'bad.py').write_text(bad)
    from test_notebook import notebook_text  # the hooks take notebooks too (types_or: jupyter)
    (project / 'nb.ipynb').write_text(notebook_text([('code', "x = '\\d'")]), encoding='utf-8')
    lines = bad.splitlines()
    (project / '.pre-commit-config.yaml').write_text(  # in the README's order: the fixer first
        'repos:\n'
        f'  - repo: {repo}\n'
        f'    rev: {rev}\n'
        '    hooks:\n'
        '      - id: flake8-escapes-fix\n'
        '  - repo: local\n'
        '    hooks:\n'
        '      - id: flake8\n'
        '        name: flake8\n'
        '        entry: flake8 --select=ESC\n'
        '        language: python\n'
        '        types: [python]\n'
        f'        additional_dependencies: [flake8, "{repo}"]\n'
    )
    git(project, 'add', '-A')
    env = dict(os.environ, PRE_COMMIT_HOME=str(tmp_path / 'cache'))
    proc = subprocess.run([tool('pre-commit'), 'run', '--all-files'], cwd=project, env=env,
                          capture_output=True, text=True, timeout=900)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert f'bad.py:2:{lines[1].index(chr(92)) + 1}: ESC301' not in proc.stdout  # fixed before flake8 ran
    assert f'bad.py:3:{lines[2].index(chr(92)) + 1}: ESC401' in proc.stdout
    assert 'bad.py: fixed ESC301' in proc.stdout
    assert 'nb.ipynb: fixed ESC301' in proc.stdout
    assert '"x = r\'\\\\d\'"' in (project / 'nb.ipynb').read_text(encoding='utf-8')
    assert 'files were modified by this hook' in proc.stdout
    assert (project / 'bad.py').read_text() == 'import re\nx = r"\\d+"\ny = re.sub("(a)", "\\1", x)\n'


def test_parallel_run_over_the_standard_library():
    """flake8 --jobs=2 gives what --jobs=1 gives, and the plugin never raises."""
    root = str(Path(differential.stdlib_files()[0]).parent)
    outputs = []
    for jobs in ('1', '2'):
        proc = subprocess.run(
            [sys.executable, '-m', 'flake8', f'--jobs={jobs}', '--select=ESC',
             '--exclude=site-packages', root],
            capture_output=True, text=True, timeout=1200)
        assert proc.returncode in (0, 1), proc.stderr[-2000:]
        for word in ('Traceback', 'PluginExecutionFailed', 'raised'):
            assert word not in proc.stderr, proc.stderr[-2000:]
        outputs.append(sorted(proc.stdout.splitlines()))
    assert outputs[0] == outputs[1]
    assert all(' ESC' in line for line in outputs[0])


# An emoji before the escapes: two UTF-16 units, one code point, so the
# plugin's edits land on the right character only in the protocol's encoding.
PLUGIN_DOCUMENT = (
    'label = "\N{SNAKE}"; pattern = \'\\d+\'\n'
    'import re\n'
    'x = re.sub("(a)", "\\1", label)  # noqa: E501\n'
)


def applied(text: str, edit: dict) -> str:
    """``text`` with a WorkspaceEdit's changes made, positions in UTF-16."""
    lines = text.splitlines(keepends=True)

    def offset(position: dict) -> int:
        line = lines[position['line']].encode('utf-16-le')[:2 * position['character']]
        return sum(map(len, lines[:position['line']])) + len(line.decode('utf-16-le'))

    (changes,) = edit['changes'].values()
    for change in sorted(changes, key=lambda c: offset(c['range']['start']), reverse=True):
        start, end = offset(change['range']['start']), offset(change['range']['end'])
        text = text[:start] + change['newText'] + text[end:]
    return text


def flake8_codes(text: str) -> set[str]:
    proc = subprocess.run([sys.executable, '-m', 'flake8', '--select=ESC', '-'], input=text,
                          capture_output=True, text=True, timeout=120)
    return {line.split()[1] for line in proc.stdout.splitlines()}


def test_pylsp_plugin_offers_the_fixes(tmp_path):
    """flake8-escapes' pylsp plugin: a quick fix and a noqa per ESC diagnostic
    of pylsp's flake8 plugin, and fix-all; each edit applied here as a client
    would, in UTF-16, and the result checked with CPython and flake8."""
    server = LanguageServer([tool('pylsp')], tmp_path)
    try:
        uri = open_with_flake8(server, tmp_path, PLUGIN_DOCUMENT)
        diagnostics = server.wait_for(lambda m: m.get('method') == 'textDocument/publishDiagnostics'
                                      and any(str(d.get('code')).startswith('ESC')
                                              for d in m['params']['diagnostics']))['params']['diagnostics']
        shown = [d for d in diagnostics if str(d.get('code')).startswith('ESC')]
        whole = {'start': {'line': 0, 'character': 0}, 'end': {'line': 3, 'character': 0}}

        def actions(context: dict) -> list[dict]:
            request = server.send('textDocument/codeAction', {
                'textDocument': {'uri': uri}, 'range': whole, 'context': context}, request=True)
            return server.wait_for(lambda m: m.get('id') == request)['result']

        every = actions({'diagnostics': shown})
        only_fix_all = actions({'diagnostics': [], 'only': ['source.fixAll']})
        only_quick = actions({'diagnostics': shown, 'only': ['quickfix']})
        elsewhere = actions({'diagnostics': []})  # the cursor away from any ESC diagnostic
        server.send('workspace/didChangeConfiguration', {'settings': {'pylsp': {'plugins': {
            'flake8_escapes': {'enabled': False}}}}})  # docs/editors.md: how to turn it off
        turned_off = actions({'diagnostics': shown})
        server.send('workspace/didChangeConfiguration', {'settings': {'pylsp': {'plugins': {
            'flake8': {'enabled': True, 'extendIgnore': ['ESC301']}}}}})  # pylsp's flake8 settings apply
        fix_all_ignoring = actions({'diagnostics': [], 'only': ['source.fixAll']})
    finally:
        server.close()
    assert sorted(d['code'] for d in shown) == ['ESC301', 'ESC401']
    by_title = {action['title']: action for action in every}
    assert {a['kind'] for a in every} == {'quickfix', 'source.fixAll.flake8-escapes'}
    assert only_fix_all == [by_title['Fix all safe escape problems']]
    assert only_quick == [a for a in every if a['kind'] == 'quickfix']
    assert elsewhere == []  # fix all runs the whole fixer: not offered on every cursor move
    assert turned_off == []
    assert fix_all_ignoring == []  # ESC301 ignored: nothing left that fix all may fix
    lines = PLUGIN_DOCUMENT.splitlines(keepends=True)
    safe = PLUGIN_DOCUMENT.replace("'\\d+'", "r'\\d+'")
    unsafe = PLUGIN_DOCUMENT.replace('"\\1"', 'r"\\1"')
    silenced = PLUGIN_DOCUMENT.replace('# noqa: E501', '# noqa: E501,ESC401')
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', SyntaxWarning)
        warnings.simplefilter('ignore', DeprecationWarning)
        assert ast.dump(ast.parse(safe)) == ast.dump(ast.parse(PLUGIN_DOCUMENT))  # same values
    assert flake8_codes(safe) == {'ESC401'} and flake8_codes(silenced) == {'ESC301'}
    assert flake8_codes(unsafe) == {'ESC301'}
    # the server's titles (api.fix_title): what the edit does, and what an unsafe one changes
    quick = by_title['Make raw (same value)']
    assert quick['diagnostics'] == [d for d in shown if d['code'] == 'ESC301'] and quick['isPreferred']
    (change,) = quick['edit']['changes'][uri]
    quote = lines[0].index("'")  # 'r' goes before it: the emoji counts two UTF-16 units
    assert change['range']['start'] == {'line': 0, 'character': quote + 1}
    assert applied(PLUGIN_DOCUMENT, quick['edit']) == safe
    assert applied(PLUGIN_DOCUMENT, by_title['Fix all safe escape problems']['edit']) == safe
    unsafe_title = 'Make raw (changes the value: `\\1` becomes a backreference)'
    assert applied(PLUGIN_DOCUMENT, by_title[unsafe_title]['edit']) == unsafe
    assert applied(PLUGIN_DOCUMENT, by_title['Ignore ESC401 on this line']['edit']) == silenced
    assert 'Ignore ESC301 on this line' in by_title


def test_pylsp_plugin_needs_no_server_extra():
    """The plugin loads and answers with pygls and lsprotocol missing (the
    plain install: pylsp users need no [server] extra)."""
    script = (
        'import sys\n'
        'sys.modules["pygls"] = sys.modules["lsprotocol"] = None\n'
        'from flake8_escapes import pylsp_plugin\n'
        'print(pylsp_plugin.utf16("\\N{SNAKE}x", 1))\n'
    )
    proc = subprocess.run([sys.executable, '-c', script], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == '2\n'


def test_pylsp_plugin_knows_a_diagnostic_at_either_column():
    """pylsp's flake8 plugin puts a diagnostic at flake8's code-point column; a
    client that converts gives the UTF-16 one: the plugin knows the escape at both."""
    from flake8_escapes import api, pylsp_plugin
    lines = PLUGIN_DOCUMENT.splitlines(keepends=True)
    (found,) = [d for d in api.lint(PLUGIN_DOCUMENT) if d.code == 'ESC301']
    points = lines[0].index('\\d')
    for character, known in ((points, True), (points + 1, True), (points - 1, False), (points + 2, False)):
        shown = {'code': 'ESC301', 'range': {'start': {'line': 0, 'character': character}}}
        assert pylsp_plugin.matches(lines, shown, found) is known, character
    other = {'code': 'ESC401', 'range': {'start': {'line': 0, 'character': points}}}
    assert not pylsp_plugin.matches(lines, other, found)


def test_nbqa_runs_the_plugin_on_a_notebook(tmp_path):
    """flake8 users check a notebook through nbqa (``nbqa flake8 --select=ESC nb.ipynb``): the
    plugin's reports at nbqa's ``cell_N`` (N counted among code cells only; ``check`` counts all
    cells, as ruff does), the same rows and columns.  nbqa leaves out a cell that does not parse
    without a word: cell 8's 'C:\\Users\\me' (ESC304), which ``check`` reports, is not there."""
    from test_notebook import CELLS, EXPECTED, notebook_text
    cells = [*CELLS, ('code', "u = 'C:\\Users\\me'\nv = '\\d'")]
    (tmp_path / 'nb.ipynb').write_text(notebook_text(cells), encoding='utf-8')
    proc = subprocess.run([tool('nbqa'), 'flake8', '--select=ESC', 'nb.ipynb'], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout.splitlines() == [
        "nb.ipynb:cell_2:1:14: ESC601 '\\t' is a tab that cuts TeX's \\theta; use a raw string",
        "nb.ipynb:cell_2:3:16: ESC301 invalid escape sequence '\\d'; write '\\\\d' or use a raw string",
        "nb.ipynb:cell_2:3:21: ESC501 '\\n' in a Windows path is a newline; use a raw string or "
        "forward slashes",
        "nb.ipynb:cell_3:2:26: ESC401 '\\1' is the control character U+0001, not a backreference; use r'\\1'",
    ]
    code_cells = [number for number, (kind, _) in enumerate(cells, 1) if kind == 'code']
    assert [(int(line.split(':')[1][5:]), int(line.split(':')[2]), int(line.split(':')[3]))
            for line in proc.stdout.splitlines()] == [
        (code_cells.index(cell) + 1, row, col) for cell, row, col, _ in EXPECTED]
    ours = subprocess.run([sys.executable, '-m', 'flake8_escapes', 'check', 'nb.ipynb'], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300)
    assert 'nb.ipynb:cell 8:1:8: ESC304 ' in ours.stdout


def test_fixed_notebook_validates_in_nbformat(tmp_path):
    """``fix --unsafe`` writes a notebook nbformat reads and validates, with the cells' sources fixed."""
    nbformat = pytest.importorskip('nbformat')
    from test_notebook import CELLS, notebook_text
    (tmp_path / 'nb.ipynb').write_text(notebook_text(CELLS), encoding='utf-8')
    proc = subprocess.run([sys.executable, '-m', 'flake8_escapes', 'fix', '--unsafe', 'nb.ipynb'],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1, proc.stderr
    with open(tmp_path / 'nb.ipynb', encoding='utf-8') as f:
        book = nbformat.read(f, as_version=4)
    nbformat.validate(book)
    assert book.cells[2].source.startswith("plt.xlabel(r'$\\theta$')")


def test_sarif_points_at_the_notebook_file(tmp_path):
    """flake8-sarif (a plugin's formatter, ``--format=sarif``) gets the notebook's own path, a
    file a SARIF viewer can open, at the line of its JSON that holds the cell's row, the message
    led by ``cell N:row:col`` (``nb.ipynb:cell 3`` is no file)."""
    from test_notebook import CELLS, EXPECTED, notebook_text
    text = notebook_text(CELLS)
    (tmp_path / 'nb.ipynb').write_text(text, encoding='utf-8')
    proc = subprocess.run([sys.executable, '-m', 'flake8_escapes', 'check', '--format=sarif', 'nb.ipynb'],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1, proc.stderr
    results = json.loads(proc.stdout)['runs'][0]['results']
    assert [item['ruleId'] for item in results] == [code for *_, code in EXPECTED]
    for item, (cell, row, col, _) in zip(results, EXPECTED):
        place = item['locations'][0]['physicalLocation']
        assert place['artifactLocation']['uri'] == 'nb.ipynb'
        assert item['message']['text'].startswith(f'cell {cell}:{row}:{col}: ')
        json_line = text.splitlines()[place['region']['startLine'] - 1]
        assert json.loads(json_line.strip().rstrip(',')) == notebook.line_list(CELLS[cell - 1][1])[row - 1]
