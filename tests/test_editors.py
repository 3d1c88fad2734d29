"""End to end in real editors: Neovim headless with its built-in LSP client
(Debian bookworm's 0.7.2, which ``.ci/run`` installs, and for nvim011.lua
Debian unstable's, ``nvim-unstable``), Emacs --batch with Eglot, and Helix
(Debian unstable's) in tmux, each with the set-up docs/editors.md gives
(tests/editors; tests/editors/debian-unstable unpacks unstable's editors).  The editor opens
a file, waits for the diagnostics, applies a code action (or only saves, to
run the fix on save), saves the buffer, and the test compares the file byte
for byte.

The expected files are checked against CPython, not against the fixer: a
safe fix gives the same AST (the same values), compiles without a warning,
and an unsafe one gives the value its title promises.

Marked ``server`` (tox -e server, which installs flake8-escapes[server]);
the pylsp variant is marked ``clients`` (tox -e clients installs pylsp).
"""
from __future__ import annotations

import ast
import functools
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
import warnings
from pathlib import Path
from typing import Callable

import pytest

HERE = Path(__file__).resolve().parent
EDITORS = HERE / 'editors'
DOCS = HERE.parent / 'docs' / 'editors.md'
BIN = Path(sys.executable).parent
NVIM = shutil.which('nvim')
# Debian unstable's Neovim, beside bookworm's 0.7.2 (tests/editors/debian-unstable unpacks it, and Helix)
NVIM_UNSTABLE = shutil.which('nvim-unstable')
EMACS = shutil.which('emacs')
HX = shutil.which('hx')
TMUX = shutil.which('tmux')

# An emoji before the escapes: two UTF-16 units, one code point, four bytes,
# so a position off by the encoding lands on the wrong character.
DOCUMENT = (
    'label = "\N{SNAKE}"; pattern = \'\\d+\\.\\w\'\n'
    'import re\n'
    'words = re.findall(\'\\w+\', label)\n'
    'x = re.sub("(a)", "\\1", label)\n'
)
LINES = DOCUMENT.splitlines(keepends=True)
# The quick fix of line 1's '\d': its literal made raw, nothing else touched.
QUICK_FIXED = DOCUMENT.replace("'\\d+", "r'\\d+")
# Fix all (on save): both ESC301 literals made raw; ESC401's fix is unsafe and left alone.
ALL_FIXED = QUICK_FIXED.replace("findall('", "findall(r'")
# ESC401's unsafe fix: "\1" made raw, so that re.sub sees a backreference.
UNSAFE_FIXED = DOCUMENT.replace('"\\1"', 'r"\\1"')
# A file CPython refuses (ESC304: '\\U' starts a unicode escape), and its unsafe fix.
REFUSED = 'home = "\N{SNAKE}"; path = \'C:\\Users\\me\'\n'
REFUSED_FIXED = REFUSED.replace("'C:", "r'C:")
# "Ignore ESC401 on this line"
SILENCED = DOCUMENT.replace('"\\1", label)\n', '"\\1", label)  # noqa: ESC401\n')


def needs_nvim() -> None:
    if NVIM is None:
        pytest.skip('Neovim is not installed (.ci/run installs Debian\'s package with apt-get as root)')


def needs_eglot() -> None:
    if EMACS is None:
        pytest.skip('Emacs is not installed (.ci/run installs Debian\'s emacs-nox, elpa-eglot as root)')
    loads = subprocess.run([EMACS, '--batch', '-q', '--eval', "(require 'eglot)"], capture_output=True,
                           timeout=120)
    if loads.returncode != 0:
        pytest.skip('Eglot does not load in Emacs (Emacs 29+ has it; Debian\'s elpa-eglot for Emacs 28)')


def needs_helix() -> None:
    if HX is None:
        pytest.skip('Helix (hx) is not on PATH (.ci/run unpacks Debian unstable\'s hx with '
                    'tests/editors/debian-unstable, as root)')
    if TMUX is None:
        pytest.skip('tmux is not installed (.ci/run installs Debian\'s package as root): Helix has no '
                    'headless mode, the test types into it in tmux')


def needs_pylsp() -> None:
    if shutil.which('pylsp', path=str(BIN)) is None:
        pytest.skip('pylsp is not installed (tox -e clients installs it)')


def needs_pygls() -> None:
    pytest.importorskip('pygls', reason='pygls is not installed: pip install "flake8-escapes[server]"')
    if shutil.which('flake8-escapes', path=str(BIN)) is None:
        pytest.skip(f'flake8-escapes is not installed in {BIN}')


@functools.cache
def nvim_version(nvim: str) -> tuple[int, ...]:
    """(major, minor, patch) of a Neovim ('NVIM v0.7.2')."""
    first = subprocess.run([nvim, '--version'], capture_output=True, text=True, timeout=60).stdout
    return tuple(int(part) for part in re.match(r'NVIM v(\d+)\.(\d+)\.(\d+)', first).groups())


def neovim(config: str) -> str:
    """The Neovim that runs ``config``: ``nvim``; for nvim011.lua, the first
    of ``nvim`` and ``nvim-unstable`` that is 0.11 or later."""
    if config != 'nvim011.lua':
        needs_nvim()
        return NVIM
    for nvim in (NVIM, NVIM_UNSTABLE):
        if nvim is not None and nvim_version(nvim) >= (0, 11):
            return nvim
    pytest.skip('no Neovim 0.11+ (vim.lsp.config) on PATH: Debian bookworm has 0.7.2 (.ci/run unpacks '
                'Debian unstable\'s as nvim-unstable with tests/editors/debian-unstable, as root)')


def needs_server(config: str) -> None:
    neovim(config)
    needs_pygls()


def parsed_quietly(text: str) -> ast.AST:
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', SyntaxWarning)  # the document's escapes, on purpose
        warnings.simplefilter('ignore', DeprecationWarning)
        return ast.parse(text)


def compiles_cleanly(text: str) -> bool:
    """True when CPython compiles ``text`` without any warning."""
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        try:
            compile(text, '<fixed>', 'exec')
        except (SyntaxError, SyntaxWarning, DeprecationWarning):
            return False
    return True


def values(text: str) -> list[object]:
    """Every constant of ``text``, in order, as CPython reads them."""
    return [node.value for node in ast.walk(parsed_quietly(text)) if isinstance(node, ast.Constant)]


def test_the_expected_files_are_right_by_cpython():
    """The expectations below are CPython's, not the fixer's."""
    original = ast.dump(parsed_quietly(DOCUMENT))
    for safe in (QUICK_FIXED, ALL_FIXED):
        assert ast.dump(parsed_quietly(safe)) == original  # same values: a safe fix
    assert not compiles_cleanly(DOCUMENT)
    assert not compiles_cleanly(QUICK_FIXED)  # line 3's '\w' still warns
    assert compiles_cleanly(ALL_FIXED)
    # the refused file: CPython refuses it; fixed, it compiles and holds the path that was meant
    with pytest.raises(SyntaxError, match='unicode'):
        parsed_quietly(REFUSED)
    assert compiles_cleanly(REFUSED_FIXED)
    assert values(REFUSED_FIXED) == ['\N{SNAKE}', 'C:' + chr(92) + 'Users' + chr(92) + 'me']
    # the unsafe fix changes one value, to the backreference its title names
    before, after = values(DOCUMENT), values(UNSAFE_FIXED)
    assert [b for b, a in zip(before, after) if b != a] == ['\x01']
    assert [a for b, a in zip(before, after) if b != a] == ['\\1']
    assert re.sub('(a)', '\\1', 'a') == 'a' and re.sub('(a)', '\x01', 'a') == '\x01'
    # the noqa line: flake8 itself no longer reports ESC401, and nothing else changed
    assert ast.dump(parsed_quietly(SILENCED)) == original
    assert flake8_codes(DOCUMENT) - flake8_codes(SILENCED) == {(4, 'ESC401')}
    assert SILENCED.count('# noqa: ESC401') == 1


def flake8_codes(text: str) -> set[tuple[int, str]]:
    """(line, code) of the ESC reports of flake8 itself on ``text``."""
    proc = subprocess.run([sys.executable, '-m', 'flake8', '--select=ESC', '-'], input=text,
                          capture_output=True, text=True, timeout=120)
    return {(int(line.split(':')[1]), line.split()[1]) for line in proc.stdout.splitlines()}


def run_editor(tmp_path: Path, argv: list[str], kind: str = '', title: str = '', code: str = '',
               hover: str = '', document: str = DOCUMENT) -> dict:
    """An editor (``argv`` and the file's path) on a copy of DOCUMENT in a
    project folder, driven by tests/editors' drive.lua or drive.el through
    the environment; what it saw, and the file it wrote (``file``)."""
    work = tmp_path / 'project'
    work.mkdir()
    (work / '.git').mkdir()  # the project's root, for the editors that look for one
    target = work / 'example.py'
    target.write_bytes(document.encode('utf-8'))
    out = tmp_path / 'editor.json'
    env = dict(os.environ, PATH=f'{BIN}{os.pathsep}{os.environ.get("PATH", "")}', HOME=str(tmp_path),
               E2E_OUT=str(out), E2E_KIND=kind, E2E_TITLE=title, E2E_CODE=code, E2E_HOVER=hover)
    for name in ('XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'XDG_STATE_HOME', 'XDG_CACHE_HOME'):
        env[name] = str(tmp_path / name.lower())  # no user set-up, no log in the home folder
    proc = subprocess.run([*argv, str(target)], cwd=work, env=env, stdin=subprocess.DEVNULL,
                          capture_output=True, timeout=180)
    assert out.exists(), (proc.stdout + proc.stderr).decode('utf-8', 'replace')[-3000:]
    seen = json.loads(out.read_text(encoding='utf-8'))
    assert not seen.get('errors') and not seen.get('error'), seen
    seen['file'] = target.read_bytes()
    return seen


def run_nvim(tmp_path: Path, config: str, kind: str = '', title: str = '', code: str = '',
             hover: str = '', document: str = DOCUMENT) -> dict:
    """Neovim headless, tests/editors/``config`` its init file."""
    argv = [neovim(config), '--headless', '-n', '-i', 'NONE', '-u', str(EDITORS / config),
            '-c', f'luafile {EDITORS / "drive.lua"}']
    return run_editor(tmp_path, argv, kind, title, code, hover, document)


def run_emacs(tmp_path: Path, config: str, kind: str = '', title: str = '', code: str = '') -> dict:
    """Emacs --batch with the system's packages (Debian's elpa-eglot on Emacs
    28), no init file, and tests/editors/``config`` loaded."""
    argv = [EMACS, '--batch', '-q', '-l', str(EDITORS / config), '-l', str(EDITORS / 'drive.el')]
    return run_editor(tmp_path, argv, kind, title, code)


#: The bytes per unit of each position encoding of the protocol (3.17).
CODECS = {'utf-8': ('utf-8', 1), 'utf-16': ('utf-16-le', 2), 'utf-32': ('utf-32-le', 4)}


def units(text: str, encoding: str) -> int:
    """The length of ``text`` in the units of a position encoding."""
    codec, size = CODECS[encoding]
    return len(text.encode(codec)) // size


def diagnostic(seen: dict, code: str, line: int, escape: str, encoding: str = 'utf-16') -> dict:
    """The one diagnostic ``code`` on ``line`` that starts at ``escape``, at its
    column in ``encoding`` or its code-point one (pylsp's flake8 plugin gives flake8's)."""
    text = LINES[line]
    columns = {text.index(escape), units(text[:text.index(escape)], encoding)}
    found = [d for d in seen['diagnostics'] if d.get('code') == code
             and d['range']['start']['line'] == line and d['range']['start']['character'] in columns]
    assert len(found) == 1, seen['diagnostics']
    return found[0]


def expected_range(line: int, escape: str, encoding: str) -> dict:
    text = LINES[line]
    start = text.index(escape)
    return {'start': {'line': line, 'character': units(text[:start], encoding)},
            'end': {'line': line, 'character': units(text[:start + len(escape)], encoding)}}


def assert_server_diagnostics(seen: dict) -> None:
    """The server's ranges cover each escape, in the position encoding the
    client and the server agreed on: UTF-16 with Neovim 0.7, which offers no
    other; UTF-8 with Neovim 0.11+, which prefers it.  The code links its
    documentation."""
    encoding = seen['offset_encoding']
    d = diagnostic(seen, 'ESC301', 0, '\\d', encoding)
    assert d['range'] == expected_range(0, '\\d', encoding)
    # the emoji counts two UTF-16 units, four UTF-8 bytes
    extra = {'utf-8': 3, 'utf-16': 1, 'utf-32': 0}[encoding]
    assert d['range']['start']['character'] == LINES[0].index('\\d') + extra
    assert diagnostic(seen, 'ESC301', 0, '\\w', encoding)['range'] == expected_range(0, '\\w', encoding)
    assert diagnostic(seen, 'ESC301', 2, '\\w', encoding)['range'] == expected_range(2, '\\w', encoding)
    assert diagnostic(seen, 'ESC401', 3, '\\1', encoding)['range'] == expected_range(3, '\\1', encoding)
    assert d.get('codeDescription', {}).get('href', '').startswith('http')
    # the set-up's severity option: ESC4xx errors (1), the others warnings (2)
    assert {(x['code'], x['severity']) for x in seen['diagnostics']} == {('ESC301', 2), ('ESC401', 1)}


SET_UPS = ['nvim07.lua', 'nvim011.lua']  # Neovim 0.7 to 0.10; 0.11 and later


@pytest.mark.server
@pytest.mark.parametrize('config', SET_UPS)
def test_neovim_quick_fix(tmp_path, config):
    needs_server(config)
    seen = run_nvim(tmp_path, config, kind='quickfix', code='ESC301', hover='ESC401')
    assert_server_diagnostics(seen)
    # hover on the escape: the code, and this report's message
    (message,) = [d['message'] for d in seen['diagnostics'] if d['code'] == 'ESC401']
    assert "'\\1' is the control character U+0001" in message
    assert seen['hover']['kind'] == 'markdown'
    assert '**ESC401**' in seen['hover']['value'] and message in seen['hover']['value']
    assert seen['file'] == QUICK_FIXED.encode('utf-8')


@pytest.mark.server
@pytest.mark.parametrize('config', SET_UPS)
def test_neovim_unsafe_quick_fix_says_so(tmp_path, config):
    needs_server(config)
    seen = run_nvim(tmp_path, config, kind='quickfix', title='changes the value',
                    code='ESC401')
    assert 'backreference' in seen['applied']
    assert seen['file'] == UNSAFE_FIXED.encode('utf-8')


@pytest.mark.server
@pytest.mark.parametrize('config', SET_UPS)
def test_neovim_fixes_a_file_cpython_refuses(tmp_path, config):
    """ESC304 where flake8 would show only E999: an error on the escape, and
    its quick fix, titled with what it changes, makes the file compile."""
    needs_server(config)
    seen = run_nvim(tmp_path, config, kind='quickfix', title='changes the value', code='ESC304',
                    document=REFUSED)
    (d,) = [d for d in seen['diagnostics'] if d['code'] == 'ESC304']
    start = REFUSED.index('\\U')
    encoding = seen['offset_encoding']
    assert d['range']['start'] == {'line': 0, 'character': units(REFUSED[:start], encoding)}
    assert d['range']['end'] == {'line': 0, 'character': units(REFUSED[:start + 2], encoding)}
    assert d['severity'] == 1
    assert seen['file'] == REFUSED_FIXED.encode('utf-8')


@pytest.mark.server
@pytest.mark.parametrize('config', SET_UPS)
def test_neovim_noqa(tmp_path, config):
    needs_server(config)
    seen = run_nvim(tmp_path, config, kind='quickfix', title='Ignore ESC401', code='ESC401')
    assert seen['file'] == SILENCED.encode('utf-8')


@pytest.mark.server
@pytest.mark.parametrize('config', SET_UPS)
def test_neovim_fixes_all_on_save(tmp_path, config):
    """The documented BufWritePre hook runs source.fixAll.flake8-escapes."""
    needs_server(config)
    seen = run_nvim(tmp_path, config)
    assert seen['file'] == ALL_FIXED.encode('utf-8')


@pytest.mark.clients
def test_neovim_pylsp_quick_fix(tmp_path):
    """pylsp's flake8 plugin reports, this project's pylsp plugin fixes."""
    needs_nvim()
    needs_pylsp()
    seen = run_nvim(tmp_path, 'nvim07-pylsp.lua', kind='quickfix', code='ESC301')
    assert diagnostic(seen, 'ESC301', 0, '\\d')['source'] == 'flake8'
    assert seen['file'] == QUICK_FIXED.encode('utf-8')


def emacs_placed(seen: dict, code: str, line: int) -> list[tuple[int, str]]:
    """(character, text covered) of each diagnostic ``code`` on ``line``, as Emacs placed it."""
    return sorted((d['column'], d['text']) for d in seen['diagnostics']
                  if d['code'] == code and d['line'] == line)


@pytest.mark.server
def test_emacs_eglot_quick_fix(tmp_path):
    """Eglot places each diagnostic on its escape (UTF-16 read right) and applies the quick fix."""
    needs_eglot()
    needs_pygls()
    seen = run_emacs(tmp_path, 'eglot.el', kind='quickfix', code='ESC301')
    escapes = [(LINES[0].index(escape), escape) for escape in ('\\d', '\\.', '\\w')]
    assert emacs_placed(seen, 'ESC301', 0) == escapes
    assert emacs_placed(seen, 'ESC401', 3) == [(LINES[3].index('\\1'), '\\1')]
    # the set-up's severity option: ESC4xx errors, the others warnings
    assert {(d['code'], d['type']) for d in seen['diagnostics']} == {
        ('ESC301', 'eglot-warning'), ('ESC401', 'eglot-error')}
    assert seen['file'] == QUICK_FIXED.encode('utf-8')


@pytest.mark.server
def test_emacs_eglot_fixes_all_on_save(tmp_path):
    needs_eglot()
    needs_pygls()
    seen = run_emacs(tmp_path, 'eglot.el')
    assert seen['file'] == ALL_FIXED.encode('utf-8')


@pytest.mark.clients
def test_emacs_eglot_pylsp_quick_fix(tmp_path):
    """With pylsp, Eglot shows flake8's reports from one character early after
    the emoji (pylsp gives code points, Eglot reads UTF-16: pylsp's to fix);
    the plugin's quick fix, in UTF-16, lands right."""
    needs_eglot()
    needs_pylsp()
    seen = run_emacs(tmp_path, 'eglot-pylsp.el', kind='quickfix', code='ESC301')
    assert emacs_placed(seen, 'ESC301', 0)[0][0] == LINES[0].index('\\d') - 1
    assert seen['file'] == QUICK_FIXED.encode('utf-8')


class Helix:
    """Helix in a detached tmux session of its own (Helix has no headless
    mode): the test types keys and reads the screen.  Its configuration
    folder holds tests/editors/languages.toml; helix-config.toml is its -c."""

    WIDTH = 200  # every message whole at the end of its line

    def __init__(self, tmp_path: Path, document: str) -> None:
        work = tmp_path / 'project'
        work.mkdir()
        (work / '.git').mkdir()
        self.target = work / 'example.py'
        self.target.write_bytes(document.encode('utf-8'))
        config = tmp_path / 'xdg_config_home' / 'helix'
        config.mkdir(parents=True)
        shutil.copyfile(EDITORS / 'languages.toml', config / 'languages.toml')
        env = dict(os.environ, PATH=f'{BIN}{os.pathsep}{os.environ.get("PATH", "")}', HOME=str(tmp_path))
        for name in ('XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'XDG_STATE_HOME', 'XDG_CACHE_HOME'):
            env[name] = str(tmp_path / name.lower())
        env.pop('TMUX', None)  # a tmux of its own, even when the tests run inside one
        self.log = tmp_path / 'helix.log'
        self.socket = f'flake8-escapes-{os.getpid()}-{tmp_path.name}'
        argv = [HX, '-c', str(EDITORS / 'helix-config.toml'), '--log', str(self.log), str(self.target)]
        self.tmux('-f', os.devnull, 'new-session', '-d', '-x', str(self.WIDTH), '-y', '24',
                  '-c', str(work), shlex.join(argv), env=env)
        self.socket_path = Path(self.tmux('display-message', '-p', '#{socket_path}').strip())

    def tmux(self, *args: str, env: dict[str, str] | None = None) -> str:
        proc = subprocess.run([TMUX, '-L', self.socket, *args], capture_output=True, text=True,
                              encoding='utf-8', errors='replace', env=env, timeout=60)
        assert proc.returncode == 0, (args, proc.stderr)
        return proc.stdout

    def screen(self, colours: bool = False) -> str:
        return self.tmux('capture-pane', '-p', *(['-e'] if colours else []))

    def running(self) -> bool:
        return subprocess.run([TMUX, '-L', self.socket, 'has-session'], capture_output=True,
                              timeout=60).returncode == 0

    def wait(self, what: str, ready: Callable[[str], bool], timeout: float = 60) -> str:
        """The screen once ``ready`` holds for it (polled; the screen and Helix's
        log in the failure after ``timeout`` seconds)."""
        deadline = time.monotonic() + timeout
        while True:
            shown = self.screen()
            if ready(shown):
                return shown
            if time.monotonic() > deadline:
                log = self.log.read_text(encoding='utf-8', errors='replace') if self.log.exists() else ''
                log = log[-3000:]
                pytest.fail(f'Helix: no {what} after {timeout} s; the screen:\n{shown}\nits log:\n{log}')
            time.sleep(0.1)

    def keys(self, *keys: str) -> None:
        """Keys by tmux's names (Enter, C-n)."""
        self.tmux('send-keys', *keys)

    def type(self, text: str) -> None:
        self.tmux('send-keys', '-l', text)

    def command(self, text: str) -> None:
        self.type(f':{text}')
        self.wait(f'prompt for :{text}', lambda shown: shown.splitlines()[-1].startswith(f':{text}'))
        self.keys('Enter')

    def choose(self, title: str) -> None:
        """The code action whose title contains ``title``, from the open menu:
        move down (C-n) until the highlighted item, in reverse video, is it."""
        chosen = re.compile(r'\x1b\[7m(?:\x1b\[[0-9;]*m)* *[^\x1b]*' + re.escape(title))
        self.wait(f'code action "{title}"', lambda shown: title in shown)
        for _ in range(10):
            before = self.screen(colours=True)
            if chosen.search(before):
                self.keys('Enter')
                return
            self.keys('C-n')
            self.wait('the next code action', lambda _: self.screen(colours=True) != before)
        pytest.fail(f'Helix: "{title}" never highlighted; the screen:\n{self.screen()}')

    def quit(self) -> bytes:
        """Quit, once Helix has written the file; its bytes."""
        self.command('q!')
        deadline = time.monotonic() + 60
        while self.running():
            assert time.monotonic() < deadline, self.screen()
            time.sleep(0.1)
        return self.target.read_bytes()

    def close(self) -> None:
        if self.running():
            subprocess.run([TMUX, '-L', self.socket, 'kill-server'], capture_output=True, timeout=60)
        self.socket_path.unlink(missing_ok=True)  # tmux leaves it


@pytest.fixture
def helix(tmp_path):
    """A function that starts Helix on a document."""
    needs_helix()
    needs_pygls()
    started = []

    def start(document: str = DOCUMENT) -> Helix:
        started.append(Helix(tmp_path, document))
        return started[-1]
    yield start
    for editor in started:
        editor.close()


@pytest.mark.parametrize('name', [*SET_UPS, 'nvim07-pylsp.lua', 'eglot.el', 'eglot-pylsp.el',
                                  'languages.toml'])
def test_docs_give_the_tested_set_up(name):
    """docs/editors.md shows the very set-up files the tests run."""
    text = (EDITORS / name).read_text(encoding='utf-8')
    language = {'.lua': 'lua', '.el': 'elisp', '.toml': 'toml'}[Path(name).suffix]
    assert f'```{language}\n{text}```' in DOCS.read_text(encoding='utf-8')


def underlined(coloured: str) -> list[str]:
    """Each line of a coloured screen (capture-pane -e) with its underlined
    runs in brackets: Helix underlines each diagnostic's range."""
    marked = []
    for line in coloured.splitlines():
        out, under = [], False
        for sgr, text in re.findall(r'\x1b\[([0-9;]*)m|([^\x1b]+)', line):
            if text:
                out.append(text)
                continue
            codes = sgr.split(';')
            now = '4' in codes or (under and not {'0', '', '24'} & set(codes))
            if now != under:
                out.append('[' if now else ']')
            under = now
        marked.append(''.join(out) + (']' if under else ''))
    return marked


def helix_opened(helix: Helix) -> str:
    """The screen once the server's diagnostics show (the last line's message)."""
    return helix.wait('diagnostics', lambda shown: 'U+0001' in shown and '● 1 ' in shown)


@pytest.mark.server
def test_helix_shows_each_diagnostic_on_its_escape(helix):
    """Helix underlines each escape, the emoji before them counted right, and
    counts 4 warnings (ESC301) and 1 error (ESC401, the set-up's severity)."""
    editor = helix()
    shown = helix_opened(editor)
    marked = underlined(editor.screen(colours=True))
    code = [line for line in marked if re.match(r'\S? +\d+ ', line)]
    assert code[0].split('  ', 2)[2].startswith('label = "\N{SNAKE}"; pattern = \'[\\d]+[\\.\\w]\'')
    assert "re.findall('[\\w]+', label)" in code[2]
    assert 're.sub("(a)", "[\\1]", label)' in code[3]
    status = shown.splitlines()[-2]
    assert '● 4 ● 1 ' in status
    # the default theme: warnings yellow (33), errors red (31)
    assert re.search(r'\x1b\[33m●\x1b\[[0-9;]*m 4 \x1b\[31m●\x1b\[[0-9;]*m 1 ', editor.screen(colours=True))


@pytest.mark.server
def test_helix_hover(helix):
    """space k on ESC401's escape (]D: the last diagnostic): the code, and this report's message."""
    editor = helix()
    helix_opened(editor)
    editor.type(']D')
    column = LINES[3].index('\\1') + 2  # the escape selected, the cursor on its last character
    editor.wait('the move to the escape', lambda shown: f' 4:{column}\n' in shown)
    editor.type(' k')
    shown = editor.wait('the hover', lambda shown: 'Why: ' in shown)
    assert 'ESC401 (' in shown
    assert "Why: '\\1' is the control character U+0001" in shown


# Helix's move to the diagnostic, the code action's title, the file saved.
HELIX_ACTIONS = {
    'quick fix': (DOCUMENT, ']d', 'Make raw (same value)', QUICK_FIXED),
    'unsafe quick fix': (DOCUMENT, ']D', 'changes the value', UNSAFE_FIXED),
    'noqa': (DOCUMENT, ']D', 'Ignore ESC401 on this line', SILENCED),
    'a file CPython refuses': (REFUSED, ']d', 'changes the value', REFUSED_FIXED),
}


@pytest.mark.server
@pytest.mark.parametrize('action', HELIX_ACTIONS)
def test_helix_code_action(helix, action):
    """The code action menu (space a) on the diagnostic that ]d (the first)
    or ]D (the last) selects; the file written with the server stopped, so
    that the set-up's fix on save does not run."""
    document, move, title, expected = HELIX_ACTIONS[action]
    editor = helix(document)
    if document == REFUSED:
        editor.wait('ESC304', lambda shown: 'C:\\Users' in shown and '● 1 ' in shown)
    else:
        helix_opened(editor)
    editor.type(move)
    if move == ']d':  # the first escape's range selected, the cursor on its last character
        column = document.index('\\d' if document == DOCUMENT else '\\U') + 2
        editor.wait('the move to the escape', lambda shown: f' 1:{column}\n' in shown)
    editor.type(' a')
    editor.choose(title)
    editor.wait('the edit', lambda shown: '[+]' in shown)
    editor.command('lsp-stop')  # its diagnostics go with it
    editor.wait('the server stopped', lambda shown: '●' not in shown)
    editor.command('w')
    editor.wait('the write', lambda shown: 'written' in shown)
    assert editor.quit() == expected.encode('utf-8')


@pytest.mark.server
def test_helix_fixes_all_on_save(helix):
    """The set-up's code-actions-on-save runs source.fixAll.flake8-escapes on :w."""
    editor = helix()
    helix_opened(editor)
    editor.command('w')
    editor.wait('the write', lambda shown: 'written' in shown)
    assert editor.quit() == ALL_FIXED.encode('utf-8')
