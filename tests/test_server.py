"""``flake8-escapes server`` over stdio, driven by a real LSP client (pygls' LanguageClient):
initialize, open, change, code actions and their edits applied, fix-all, hover, configuration
changes, a check that raises, shutdown and exit.  The expected texts and ranges are written out
by hand (UTF-16 units counted from the text itself, not from the server's code)."""
from __future__ import annotations

import asyncio
import sys
from typing import Callable
from pathlib import Path

import pytest

pytest.importorskip('pygls', reason='the server tests need pygls: pip install "flake8-escapes[server]"')
from lsprotocol import types  # noqa: E402
from pygls import uris  # noqa: E402
from pygls.lsp.client import LanguageClient  # noqa: E402

pytestmark = [
    pytest.mark.server,
    # pygls' client, in this process, calls asyncio.iscoroutinefunction, deprecated in 3.14
    pytest.mark.filterwarnings('ignore:.*asyncio.iscoroutinefunction.*:DeprecationWarning'),
]

WAIT = 30  # seconds: generous, a slow shared machine; the speed is measured in tests/bench_server.py
#: The server with ``api.lint`` raising on a text that holds BOOM: a check that fails.
FAILING = ('import sys; from flake8_escapes import api; lint = api.Linter.lint\n'
           'def failing(self, text, *args, **kwargs):\n'
           '    if "BOOM" in text: raise RuntimeError("a check failed")\n'
           '    return lint(self, text, *args, **kwargs)\n'
           'api.Linter.lint = failing\n'
           'from flake8_escapes.cli import main; sys.exit(main(["server"]))\n')


def utf16(text: str) -> int:
    return len(text.encode('utf-16-le')) // 2


def applied(text: str, edits: list[types.TextEdit]) -> str:
    """A client's application of TextEdits (UTF-16 positions, lines split at \\n)."""
    lines = text.split('\n')

    def offset(position: types.Position) -> int:
        line = lines[position.line]
        units = 0
        for index, char in enumerate(line):
            if units >= position.character:
                return sum(len(item) + 1 for item in lines[:position.line]) + index
            units += utf16(char)
        return sum(len(item) + 1 for item in lines[:position.line]) + len(line)
    for edit in sorted(edits, key=lambda item: (item.range.start.line, item.range.start.character),
                       reverse=True):
        text = text[:offset(edit.range.start)] + edit.new_text + text[offset(edit.range.end):]
    return text


def edits_of(action: types.CodeAction, uri: str) -> list[types.TextEdit]:
    assert action.edit is not None
    if action.edit.document_changes:
        change, = action.edit.document_changes
        assert change.text_document.uri == uri
        return list(change.edits)
    return list(action.edit.changes[uri])


class Session:
    """One server process and its client, with what the server published and logged."""

    def __init__(self, folder: Path, encodings: list[str] | None = None, options: dict | None = None,
                 command: tuple[str, ...] = ('-m', 'flake8_escapes', 'server'),
                 resolve: bool = False) -> None:
        self.folder, self.encodings, self.options, self.command = folder, encodings, options, command
        self.resolve = resolve
        self.client = LanguageClient('test-client', '1')
        self.published: dict[str, list[types.PublishDiagnosticsParams]] = {}
        self.logged: list[types.LogMessageParams] = []
        self.changed = asyncio.Event()
        self.registered: list[types.Registration] = []
        self.versions: dict[str, int] = {}

        @self.client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def publish(params: types.PublishDiagnosticsParams) -> None:
            self.published.setdefault(params.uri, []).append(params)
            self.changed.set()

        @self.client.feature(types.WINDOW_LOG_MESSAGE)
        def log(params: types.LogMessageParams) -> None:
            self.logged.append(params)
            self.changed.set()

        @self.client.feature(types.CLIENT_REGISTER_CAPABILITY)
        def register(params: types.RegistrationParams) -> None:
            self.registered.extend(params.registrations)

    async def start(self) -> types.InitializeResult:
        await self.client.start_io(sys.executable, *self.command, cwd=str(self.folder))
        resolving = types.ClientCodeActionResolveOptions(['edit']) if self.resolve else None
        capabilities = types.ClientCapabilities(
            general=types.GeneralClientCapabilities(position_encodings=self.encodings),
            workspace=types.WorkspaceClientCapabilities(
                workspace_edit=types.WorkspaceEditClientCapabilities(document_changes=True),
                did_change_watched_files=types.DidChangeWatchedFilesClientCapabilities(
                    dynamic_registration=True)),
            text_document=types.TextDocumentClientCapabilities(
                publish_diagnostics=types.PublishDiagnosticsClientCapabilities(version_support=True),
                code_action=types.CodeActionClientCapabilities(resolve_support=resolving,
                                                               disabled_support=True)),
            notebook_document=types.NotebookDocumentClientCapabilities(  # as VS Code says it
                types.NotebookDocumentSyncClientCapabilities()))
        folder = types.WorkspaceFolder(uris.from_fs_path(str(self.folder)), 'test')
        result = await self.client.initialize_async(types.InitializeParams(
            capabilities=capabilities, workspace_folders=[folder], root_uri=folder.uri,
            initialization_options=self.options))
        self.client.initialized(types.InitializedParams())
        self.capabilities = result.capabilities
        return result

    def uri(self, name: str) -> str:
        return uris.from_fs_path(str(self.folder / name))

    def open(self, name: str, text: str) -> str:
        uri = self.uri(name)
        self.versions[uri] = 1
        self.client.text_document_did_open(types.DidOpenTextDocumentParams(
            types.TextDocumentItem(uri, 'python', 1, text)))
        return uri

    def change(self, uri: str, *changes: types.TextDocumentContentChangeEvent) -> int:
        self.versions[uri] += 1
        self.client.text_document_did_change(types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(version=self.versions[uri], uri=uri), list(changes)))
        return self.versions[uri]

    async def diagnostics(self, uri: str, version: int | None = None) -> list[types.Diagnostic]:
        """The diagnostics published for ``uri`` (at ``version``: the latest version sent)."""
        version = self.versions.get(uri) if version is None else version

        async def arrived() -> list[types.Diagnostic]:
            while True:
                for params in self.published.get(uri, []):
                    if params.version == version:
                        return list(params.diagnostics)
                self.changed.clear()
                await self.changed.wait()
        return await asyncio.wait_for(arrived(), WAIT)

    async def next_publication(self, uri: str, count: int) -> list[types.Diagnostic]:
        """The diagnostics of the ``count``-th publication for ``uri``."""
        async def arrived() -> list[types.Diagnostic]:
            while len(self.published.get(uri, [])) < count:
                self.changed.clear()
                await self.changed.wait()
            return list(self.published[uri][count - 1].diagnostics)
        return await asyncio.wait_for(arrived(), WAIT)

    async def latest_where(self, uri: str, wanted: Callable[[list[types.Diagnostic]], bool]
                           ) -> list[types.Diagnostic]:
        """The diagnostics of the first publication for ``uri`` that ``wanted`` accepts, from the
        newest one on (a run the server drops for a newer one publishes nothing: counting
        publications would race with it)."""
        async def arrived() -> list[types.Diagnostic]:
            while not (self.published.get(uri) and wanted(list(self.published[uri][-1].diagnostics))):
                self.changed.clear()
                await self.changed.wait()
            return list(self.published[uri][-1].diagnostics)
        return await asyncio.wait_for(arrived(), WAIT)

    async def actions(self, uri: str, diagnostic: types.Diagnostic | None = None,
                      only: list[str] | None = None) -> list[types.CodeAction]:
        at = diagnostic.range if diagnostic else types.Range(types.Position(0, 0), types.Position(0, 0))
        found = await self.client.text_document_code_action_async(types.CodeActionParams(
            types.TextDocumentIdentifier(uri), at,
            types.CodeActionContext([diagnostic] if diagnostic else [], only=only)))
        return [item for item in found or [] if isinstance(item, types.CodeAction)]

    async def stop(self) -> int:
        await self.client.shutdown_async(None)
        self.client.exit(None)
        await self.client.stop()
        assert self.client._server is not None
        return await self.client._server.wait()


def run(folder: Path, body, **kwargs) -> None:
    """Start a session in ``folder``, run ``body(session)``, shut it down (exit status 0)."""
    async def main() -> None:
        session = Session(folder, **kwargs)
        await session.start()
        try:
            await body(session)
        finally:
            status = await session.stop()
        assert status == 0
    asyncio.run(main())


def test_diagnostics_give_the_range_of_the_escape_in_utf16_units(tmp_path):
    text = "x = '😀\\d'\n"

    async def body(session: Session) -> None:
        assert session.capabilities.position_encoding in (None, types.PositionEncodingKind.Utf16)
        uri = session.open('a.py', text)
        diagnostic, = await session.diagnostics(uri)
        start = utf16(text[:text.index('\\')])
        assert start == 7  # x = ' is 5 units, the emoji 2
        assert diagnostic.range == types.Range(types.Position(0, start), types.Position(0, start + 2))
        assert diagnostic.code == 'ESC301' and diagnostic.source == 'flake8-escapes'
        assert diagnostic.severity == types.DiagnosticSeverity.Warning
        assert diagnostic.code_description.href.endswith('/docs/ESC301.md')
        assert diagnostic.message == "invalid escape sequence '\\d'; write '\\\\d' or use a raw string"
    run(tmp_path, body)


def test_the_position_encoding_the_client_prefers_is_used(tmp_path):
    text = "x = '😀\\d'\n"

    async def body(session: Session) -> None:
        assert session.capabilities.position_encoding == 'utf-8'
        diagnostic, = await session.diagnostics(session.open('a.py', text))
        start = len(text[:text.index('\\')].encode('utf-8'))
        assert start == 9
        assert (diagnostic.range.start.character, diagnostic.range.end.character) == (start, start + 2)
    run(tmp_path, body, encodings=['utf-8', 'utf-16'])


def test_a_file_that_does_not_compile_gets_esc304_as_an_error(tmp_path):
    async def body(session: Session) -> None:
        diagnostic, = await session.diagnostics(session.open('a.py', "home = 'C:\\Users'\n"))
        assert diagnostic.code == 'ESC304' and diagnostic.severity == types.DiagnosticSeverity.Error
        assert (diagnostic.range.start.character, diagnostic.range.end.character) == (10, 12)
    run(tmp_path, body)


def test_incremental_and_full_changes(tmp_path):
    async def body(session: Session) -> None:
        uri = session.open('a.py', 'x = 1\ny = "😀ab"\n')
        assert await session.diagnostics(uri) == []
        # insert \d between a and b: the change's position in UTF-16 units (the emoji counts two)
        at = types.Position(1, utf16('y = "😀a'))
        session.change(uri, types.TextDocumentContentChangePartial(types.Range(at, at), '\\d'))
        diagnostic, = await session.diagnostics(uri)
        assert diagnostic.range.start == at and diagnostic.code == 'ESC301'
        session.change(uri, types.TextDocumentContentChangeWholeDocument('z = "\\q"\n'))
        diagnostic, = await session.diagnostics(uri)
        assert diagnostic.range.start == types.Position(0, 5)
    run(tmp_path, body)


def test_lines_are_split_where_the_protocol_and_the_compiler_split_them(tmp_path):
    """A form feed and a line separator (U+2028) end no line for the client nor for CPython
    (str.splitlines would split at both)."""
    text = "s = 'a\u2028b'\x0c\nx = 1\n"

    async def body(session: Session) -> None:
        uri = session.open('a.py', text)
        assert await session.diagnostics(uri) == []
        change = types.Range(types.Position(1, 4), types.Position(1, 5))
        session.change(uri, types.TextDocumentContentChangePartial(change, "'\\d'"))
        diagnostic, = await session.diagnostics(uri)
        assert diagnostic.range == types.Range(types.Position(1, 5), types.Position(1, 7))
    run(tmp_path, body)


def test_a_newer_version_drops_the_runs_of_older_ones(tmp_path):
    async def body(session: Session) -> None:
        uri = session.open('a.py', 'x = 1\n')
        await session.diagnostics(uri)
        for count in range(2, 12):
            session.change(uri, types.TextDocumentContentChangeWholeDocument("x = '" + '\\d' * count + "'\n"))
        found = await session.diagnostics(uri)
        assert len(found) == 11
        await asyncio.sleep(0.5)  # anything still running would be published by now
        versions = [params.version for params in session.published[uri]]
        assert versions == sorted(versions) and versions[-1] == 11
    run(tmp_path, body)


# -- the engine in this process: scheduling, the pre-filter, what is kept per text ----------------

def engine_of(text: str) -> tuple[object, object]:
    from flake8_escapes.commands import server
    engine = server.Engine()
    document = server.Document.of('untitled:a', 1, text)
    engine.documents[document.uri] = document
    return engine, document


def test_a_change_after_a_quiet_time_is_checked_at_once_and_a_burst_waits_for_its_end():
    from flake8_escapes.commands.server import PAUSE, Engine
    engine = Engine()
    assert engine.pause_after_change('a', 100.0) == 0.0           # the first change: at once
    assert engine.pause_after_change('a', 100.0 + PAUSE / 4) == PAUSE  # a burst: wait for its end
    assert engine.pause_after_change('a', 100.0 + PAUSE / 2) == PAUSE
    assert engine.pause_after_change('b', 100.0 + PAUSE / 2) == 0.0   # another text: at once
    assert engine.pause_after_change('a', 100.0 + 3 * PAUSE) == 0.0  # after a quiet time: at once


def test_the_prefilter_is_skipped_for_a_text_whose_last_version_reported(monkeypatch):
    from flake8_escapes import api
    asked = []
    lint = api.Linter.lint

    def recorded(self, text, *args, **kwargs):
        asked.append(kwargs.get('prefilter', True))
        return lint(self, text, *args, **kwargs)
    monkeypatch.setattr(api.Linter, 'lint', recorded)
    engine, document = engine_of("x = '\\d'\n")
    assert len(engine.diagnostics(document)) == 1
    assert len(engine.diagnostics(document._replace(version=2))) == 1  # its last version reported
    quiet = document._replace(version=3, text="x = '\\t'\n")
    assert engine.diagnostics(quiet) == []
    assert engine.diagnostics(quiet._replace(version=4)) == []
    assert asked == [True, False, False, True]


def test_changes_apply_at_their_offsets_whatever_the_line_ends():
    """Incremental changes on a text with \\r\\n, a lone \\r and \\n line ends (and an emoji:
    UTF-16 columns); the expected texts are written out by hand."""
    from flake8_escapes.commands.server import Document
    document = Document.of('untitled:a', 1, "a = 1\r\nb = '😀'\rc = 3\nd = 4")

    def change(line: int, character: int, text: str) -> object:
        at = types.Position(line, character)
        return types.TextDocumentContentChangePartial(types.Range(at, at), text)
    changed = document.changed(2, [change(1, 7, 'x'), change(2, 0, '#'), change(3, 5, '!')], 'utf-16')
    assert changed.text == "a = 1\r\nb = '😀x'\r#c = 3\nd = 4!"
    plain = Document.of('untitled:b', 1, "a\nbc\n\nd")
    plain = plain.changed(2, [change(3, 1, 'e'), change(1, 1, '-')], 'utf-16')
    assert plain.text == "a\nb-c\n\nde"


def test_noqa_edits_are_made_once_per_text_for_every_diagnostic(monkeypatch):
    from flake8_escapes import api
    calls = []
    noqa_edits = api.noqa_edits
    monkeypatch.setattr(api, 'noqa_edits',
                        lambda text, found: calls.append(len(found)) or noqa_edits(text, found))
    engine, document = engine_of("x = '\\d'\ny = '\\q'\n")
    first, second = engine.diagnostics(document)
    for item in (first, second, first):
        params = types.CodeActionParams(types.TextDocumentIdentifier(document.uri), types.Range(
            types.Position(item.line - 1, item.column), types.Position(item.line - 1, item.column)),
            types.CodeActionContext([], only=['quickfix']))
        titles = [action.title for action in engine.code_actions(document, params)]
        assert titles == ['Make raw (same value)', 'Ignore ESC301 on this line']
    assert len(calls) == 1 and calls[0] >= 2


def test_quick_fixes_safe_unsafe_and_noqa_applied(tmp_path):
    text = "import re\nx = '😀\\d'\nfound = re.sub(r'(a)', '<\\1>', s)  # noqa: E501\n"

    async def body(session: Session) -> None:
        uri = session.open('a.py', text)
        safe, unsafe = await session.diagnostics(uri)
        actions = await session.actions(uri, safe)
        assert [item.title for item in actions] == [  # without 'only', the source action too
            'Make raw (same value)', 'Ignore ESC301 on this line', 'Fix all safe escape problems']
        assert actions[0].is_preferred and actions[0].kind == types.CodeActionKind.QuickFix
        assert applied(text, edits_of(actions[0], uri)) == text.replace("x = '", "x = r'")
        assert applied(text, edits_of(actions[1], uri)) == text.replace("\\d'\n", "\\d'  # noqa: ESC301\n")
        actions = await session.actions(uri, unsafe, only=['quickfix'])
        assert [item.title for item in actions] == [
            'Make raw (changes the value: `\\1` becomes a backreference)', 'Ignore ESC401 on this line']
        assert not actions[0].is_preferred
        assert applied(text, edits_of(actions[0], uri)) == text.replace("'<\\1>'", "r'<\\1>'")
        ignored = applied(text, edits_of(actions[1], uri))
        assert ignored == text.replace('# noqa: E501', '# noqa: E501,ESC401')
        session.change(uri, types.TextDocumentContentChangeWholeDocument(ignored))
        assert [item.code for item in await session.diagnostics(uri)] == ['ESC301']
    run(tmp_path, body)


def test_a_client_that_resolves_gets_the_noqa_edit_when_it_resolves_it(tmp_path):
    """Listing the actions at a diagnostic costs no pass of the tokenizer: the noqa's edit is
    made on codeAction/resolve; where the text does not tokenize (an open bracket) there is
    none, and the log says why."""
    text = "x = '\\d'  # noqa: E501\n"

    async def body(session: Session) -> None:
        uri = session.open('a.py', text)
        diagnostic, = await session.diagnostics(uri)
        fix, noqa = await session.actions(uri, diagnostic, only=['quickfix'])
        assert fix.title == 'Make raw (same value)' and fix.edit is not None
        assert noqa.title == 'Ignore ESC301 on this line' and noqa.edit is None
        resolved = await session.client.code_action_resolve_async(noqa)
        assert applied(text, edits_of(resolved, uri)) == "x = '\\d'  # noqa: E501,ESC301\n"
        session.change(uri, types.TextDocumentContentChangeWholeDocument(text + 'f(\n'))
        diagnostic, = await session.diagnostics(uri)  # from the literal's text: it does not parse
        _, noqa = await session.actions(uri, diagnostic, only=['quickfix'])
        assert (await session.client.code_action_resolve_async(noqa)).edit is None
        assert any('no "# noqa" for ESC301 on line 1: the text does not tokenize' in item.message
                   for item in session.logged)
    run(tmp_path, body, resolve=True)


@pytest.mark.skipif(sys.version_info < (3, 12), reason="a backslash in an f-string's field: 3.12+")
def test_a_fix_the_fixer_leaves_alone_is_shown_disabled_with_its_reason(tmp_path):
    text = "x = f\"{'\\d'=}\"\n"  # the field's text is part of the value: never edited

    async def body(session: Session) -> None:
        uri = session.open('a.py', text)
        diagnostic, = await session.diagnostics(uri)
        fix, noqa = await session.actions(uri, diagnostic, only=['quickfix'])
        assert fix.edit is None and fix.disabled.reason == (
            "left alone: its fix would change an f-string's '=' text or a t-string's expression")
        assert noqa.title == 'Ignore ESC301 on this line'
    run(tmp_path, body)


def test_a_selection_gets_the_quick_fixes_of_its_first_ten_diagnostics(tmp_path):
    text = ''.join(f"x{n} = '\\d'\n" for n in range(12))

    async def body(session: Session) -> None:
        uri = session.open('a.py', text)
        assert len(await session.diagnostics(uri)) == 12
        found = await session.client.text_document_code_action_async(types.CodeActionParams(
            types.TextDocumentIdentifier(uri), types.Range(types.Position(0, 0), types.Position(12, 0)),
            types.CodeActionContext([], only=['quickfix'])))
        titles = [item.title for item in found]
        assert titles == ['Make raw (same value)', 'Ignore ESC301 on this line'] * 10
    run(tmp_path, body)


def test_fix_all_applies_every_safe_fix(tmp_path):
    text = "import re\nx = '\\d' + '\\w'\ny = '\\777'\nfound = re.sub(r'(a)', '<\\1>', s)\n"
    expected = "import re\nx = r'\\d' + r'\\w'\ny = '\\u01ff'\nfound = re.sub(r'(a)', '<\\1>', s)\n"

    async def body(session: Session) -> None:
        uri = session.open('a.py', text)
        assert len(await session.diagnostics(uri)) == 4
        action, = await session.actions(uri, only=['source.fixAll'])
        assert action.title == 'Fix all safe escape problems'
        assert action.kind == 'source.fixAll.flake8-escapes'
        fixed = applied(text, edits_of(action, uri))
        assert fixed == expected
        session.change(uri, types.TextDocumentContentChangeWholeDocument(fixed))
        assert [item.code for item in await session.diagnostics(uri)] == ['ESC401']
        assert await session.actions(uri, only=['source.fixAll']) == []  # nothing safe left
    run(tmp_path, body)


def test_fix_all_is_planned_when_the_client_resolves_it(tmp_path):
    text = "x = '\\d'\ny = '\\777'\n"

    async def body(session: Session) -> None:
        uri = session.open('a.py', text)
        assert len(await session.diagnostics(uri)) == 2
        action, = await session.actions(uri, only=['source.fixAll.flake8-escapes'])
        assert action.edit is None and action.title == 'Fix all safe escape problems'
        resolved = await session.client.code_action_resolve_async(action)
        assert applied(text, edits_of(resolved, uri)) == "x = r'\\d'\ny = '\\u01ff'\n"
        session.change(uri, types.TextDocumentContentChangeWholeDocument("x = 1\n"))
        await session.diagnostics(uri)
        assert (await session.client.code_action_resolve_async(action)).edit is None  # the text changed
    run(tmp_path, body, resolve=True)


def test_hover_explains_the_code(tmp_path):
    text = "import re\nfound = re.sub(r'(a)', '<\\1>', s)\n"

    async def body(session: Session) -> None:
        uri = session.open('a.py', text)
        diagnostic, = await session.diagnostics(uri)
        hover = await session.client.text_document_hover_async(types.HoverParams(
            types.TextDocumentIdentifier(uri), diagnostic.range.start))
        assert hover is not None and hover.range == diagnostic.range
        value = hover.contents.value
        assert value.startswith('**ESC401** (octal-escape-as-backreference): an octal escape')
        assert "Why: '\\1' is the control character U+0001, not a backreference" in value
        assert "re.sub(r'(\\w+)', r'<\\1>', text)" in value  # use instead
        nothing = await session.client.text_document_hover_async(types.HoverParams(
            types.TextDocumentIdentifier(uri), types.Position(0, 0)))
        assert nothing is None
    run(tmp_path, body)


def test_the_workspace_configuration_applies_and_is_read_again(tmp_path):
    (tmp_path / 'tests').mkdir()
    (tmp_path / 'setup.cfg').write_text('[flake8]\nper-file-ignores = tests/*: ESC301\n')
    text = "x = '\\d'\n"

    async def body(session: Session) -> None:
        assert [item.method for item in session.registered] in ([], ['workspace/didChangeWatchedFiles'])
        main, tests = session.open('a.py', text), session.open('tests/t.py', text)
        assert len(await session.diagnostics(main)) == 1
        assert await session.diagnostics(tests) == []
        (tmp_path / 'setup.cfg').write_text('[flake8]\nextend-ignore = ESC301\n')
        session.client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
            [types.FileEvent(session.uri('setup.cfg'), types.FileChangeType.Changed)]))
        assert await session.next_publication(main, 2) == []
        (tmp_path / 'setup.cfg').write_text('[flake8]\n')
        session.client.text_document_did_save(types.DidSaveTextDocumentParams(
            types.TextDocumentIdentifier(session.uri('setup.cfg'))))
        # both files again, under the emptied configuration (tests/t.py was quiet until now)
        assert len(await session.latest_where(main, lambda found: len(found) == 1)) == 1
        assert len(await session.latest_where(tests, lambda found: len(found) == 1)) == 1
    run(tmp_path, body)


def test_severity_per_family_from_the_options_and_the_settings(tmp_path):
    text = "import re\nx = '\\d'\nfound = re.sub(r'(a)', '<\\1>', s)\n"

    async def body(session: Session) -> None:
        uri = session.open('a.py', text)
        found = await session.diagnostics(uri)
        assert [item.severity for item in found] == [types.DiagnosticSeverity.Hint,
                                                     types.DiagnosticSeverity.Error]
        session.client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
            {'flake8-escapes': {'severity': {'ESC301': 'information'}}}))
        found = await session.next_publication(uri, 2)
        assert [item.severity for item in found] == [types.DiagnosticSeverity.Information,
                                                     types.DiagnosticSeverity.Warning]
    run(tmp_path, body, options={'severity': {'ESC3': 'hint', 'ESC4': 'error'}})


def test_a_check_that_raises_is_logged_and_the_server_goes_on(tmp_path):
    async def body(session: Session) -> None:
        failing = session.open('a.py', "x = '\\d'  # BOOM\n")
        assert await session.diagnostics(failing) == []
        assert any(item.type == types.MessageType.Error and 'RuntimeError: a check failed' in item.message
                   for item in session.logged)
        fine = session.open('b.py', "x = '\\d'\n")
        assert len(await session.diagnostics(fine)) == 1
    run(tmp_path, body, command=('-c', FAILING))


def test_exit_without_shutdown_exits_1(tmp_path):
    async def main() -> int:
        session = Session(tmp_path)
        await session.start()
        session.client.exit(None)
        await session.client.stop()
        return await session.client._server.wait()
    assert asyncio.run(main()) == 1


# -- issue 40: the project's excludes, Python documents only, a request without params ---------

def test_a_file_the_project_excludes_gets_no_diagnostics_and_no_fix(tmp_path):
    (tmp_path / 'setup.cfg').write_text('[flake8]\nextend-exclude = build,gen_*.py\n')
    text = "x = '\\d'\n"

    async def body(session: Session) -> None:
        excluded = [session.open('build/a.py', text), session.open('gen_b.py', text)]
        kept = session.open('c.py', text)
        assert len(await session.diagnostics(kept)) == 1
        for uri in excluded:
            assert await session.diagnostics(uri) == []
            assert await session.actions(uri, only=['source.fixAll']) == []
        assert len(await session.actions(kept, only=['source.fixAll'])) == 1
    run(tmp_path, body)


def test_only_python_documents_are_checked_and_fixed(tmp_path):
    async def body(session: Session) -> None:
        others = {}
        for name, language, text in (('pyproject.toml', 'toml', "[x]\nf = ['ignore:.*\\d+ items']\n"),
                                     ('README.md', 'markdown', "Use `C:\\Users\\me`.\n")):
            uri = others[name] = session.uri(name)
            session.client.text_document_did_open(types.DidOpenTextDocumentParams(
                types.TextDocumentItem(uri, language, 1, text)))
        script = session.uri('tool')  # no .py: its language says it is Python
        session.client.text_document_did_open(types.DidOpenTextDocumentParams(
            types.TextDocumentItem(script, 'python', 1, "x = '\\d'\n")))
        session.versions[script] = 1
        assert len(await session.diagnostics(script)) == 1
        await asyncio.sleep(0.3)  # anything the server checked would be published by now
        for uri in others.values():
            assert uri not in session.published
            assert not await session.actions(uri, only=['source.fixAll'])
    run(tmp_path, body)


class Raw:
    """The server over stdio, spoken to in raw JSON-RPC (a client that sends what pygls' won't)."""

    def __init__(self, folder: Path) -> None:
        import queue
        import subprocess
        import threading
        self.proc = subprocess.Popen([sys.executable, '-m', 'flake8_escapes', 'server'], cwd=folder,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.messages: queue.Queue[dict] = queue.Queue()
        threading.Thread(target=self.read, daemon=True).start()

    def send(self, message: dict) -> None:
        import json
        body = json.dumps({'jsonrpc': '2.0', **message}).encode()
        self.proc.stdin.write(b'Content-Length: %d\r\n\r\n' % len(body) + body)
        self.proc.stdin.flush()

    def read(self) -> None:
        import json
        length = 0
        while True:
            header = self.proc.stdout.readline()
            if not header:
                return
            if header.lower().startswith(b'content-length:'):
                length = int(header.split(b':')[1])
            elif header == b'\r\n':
                self.messages.put(json.loads(self.proc.stdout.read(length)))

    def answer(self, ident: int) -> dict:
        """The response to request ``ident`` (a test failure when none comes within WAIT)."""
        while True:
            message = self.messages.get(timeout=WAIT)
            if message.get('id') == ident and 'method' not in message:
                return message


def test_a_request_without_params_gets_an_invalid_params_error(tmp_path):
    raw = Raw(tmp_path)
    try:
        raw.send({'id': 1, 'method': 'initialize', 'params': {'capabilities': {}, 'processId': None}})
        assert 'result' in raw.answer(1)
        raw.send({'method': 'initialized', 'params': {}})
        raw.send({'id': 2, 'method': 'textDocument/hover'})
        raw.send({'id': 3, 'method': 'textDocument/codeAction', 'params': None})
        raw.send({'id': 4, 'method': 'textDocument/hover', 'params': {
            'textDocument': {'uri': 'file:///nowhere.py'}, 'position': {'line': 0, 'character': 0}}})
        for ident in (2, 3):
            assert raw.answer(ident)['error']['code'] == -32602
        assert raw.answer(4) == {'jsonrpc': '2.0', 'id': 4, 'result': None}  # and the server goes on
        raw.send({'id': 5, 'method': 'shutdown'})
        raw.answer(5)
        raw.send({'method': 'exit'})
        assert raw.proc.wait(timeout=WAIT) == 0
    finally:
        if raw.proc.poll() is None:
            raw.proc.kill()
            raw.proc.wait()
        raw.proc.stdin.close()
        raw.proc.stdout.close()


# -- issue 41: never blocked; a code action for the version asked about -------------------------

def big_text(lines: int = 20000) -> str:
    """A module of ``lines`` rows with a report on every tenth (the benchmark's)."""
    from bench_server import generated
    return generated(lines)


def test_hover_and_a_small_text_are_answered_while_a_big_text_is_checked_and_fixed(tmp_path):
    """A 20,000-line text opened, its fix-all asked (a check, then the fixer's plan of the whole
    text): a small text opened after them gets its diagnostics first, and a hover on it is
    answered before the fix-all (on one loop that plans, they would wait for it)."""
    async def body(session: Session) -> None:
        big = session.open('big.py', big_text())
        fix_all = asyncio.ensure_future(session.actions(big, only=['source.fixAll']))
        small = session.open('small.py', "x = '\\d'\n")
        diagnostic, = await session.diagnostics(small)
        hover = await session.client.text_document_hover_async(types.HoverParams(
            types.TextDocumentIdentifier(small), diagnostic.range.start))
        assert hover is not None and hover.contents.value.startswith('**ESC301**')
        assert not fix_all.done() and big not in session.published  # still at work on the big text
        action, = await asyncio.wait_for(fix_all, WAIT * 4)
        assert action.kind == 'source.fixAll.flake8-escapes'
    run(tmp_path, body)


def test_a_cancelled_request_is_answered_as_cancelled(tmp_path):
    (tmp_path / 'big.py').write_text('')
    raw = Raw(tmp_path)
    try:
        raw.send({'id': 1, 'method': 'initialize', 'params': {'capabilities': {}, 'processId': None}})
        raw.answer(1)
        raw.send({'method': 'initialized', 'params': {}})
        uri = (tmp_path / 'big.py').as_uri()
        raw.send({'method': 'textDocument/didOpen', 'params': {'textDocument': {
            'uri': uri, 'languageId': 'python', 'version': 1, 'text': big_text()}}})
        raw.send({'id': 2, 'method': 'textDocument/codeAction', 'params': {
            'textDocument': {'uri': uri},
            'range': {'start': {'line': 0, 'character': 0}, 'end': {'line': 0, 'character': 0}},
            'context': {'diagnostics': [], 'only': ['source.fixAll']}}})
        raw.send({'method': '$/cancelRequest', 'params': {'id': 2}})
        assert raw.answer(2)['error']['code'] == -32800  # RequestCancelled
        raw.send({'id': 3, 'method': 'shutdown'})
        raw.answer(3)
        raw.send({'method': 'exit'})
        assert raw.proc.wait(timeout=WAIT) == 0
    finally:
        if raw.proc.poll() is None:
            raw.proc.kill()
            raw.proc.wait()
        raw.proc.stdin.close()
        raw.proc.stdout.close()


def test_a_code_action_is_answered_for_the_version_it_was_asked_of(tmp_path):
    """Fix-all asked, then the text changed before the answer: the edit names the version it
    was planned for (a client applies it to that text or not at all), and applies to it."""
    from flake8_escapes import api
    text = big_text(2000)

    async def body(session: Session) -> None:
        uri = session.open('a.py', text)
        asked = asyncio.ensure_future(session.actions(uri, only=['source.fixAll']))
        session.change(uri, types.TextDocumentContentChangeWholeDocument('x = 1\n'))
        found = await asyncio.wait_for(asked, WAIT)
        for action in found:
            change, = action.edit.document_changes
            assert change.text_document.version == 1
            assert applied(text, list(change.edits)) == api.fix(text).text
    run(tmp_path, body)


def test_fix_all_and_the_quick_fixes_about_the_last_edit_are_planned_ahead():
    """After a quiet time, fix-all's plan and the quick fixes of the diagnostics about the last
    edit (the nearest ten, twenty lines either side at most) are made before anyone asks."""
    from flake8_escapes.commands import server
    engine, document = engine_of(''.join(f"x{n} = '\\d'\n" for n in range(100)))
    found = engine.diagnostics(document)
    engine.edited[document.uri] = 50
    server.Jobs(None, engine).plan_ahead(document)
    planned = set(engine.kept(document).fixes)
    assert None in planned  # fix-all
    assert {item.line for item in planned if item is not None} == set(range(45, 55))  # ties: the earlier
    assert len(found) == 100 and engine.noqa_edit(document, found[0]) is not None


def test_the_forms_kept_of_the_diagnostics_sent_are_cattrs_own():
    """``SentForms``: each diagnostic ``lsp_diagnostics`` sends is unstructured once; the JSON of a
    publication is the one pygls' own converter gives, after edits that add lines (new ranges) and
    change escapes; only the last publication's diagnostics are kept."""
    import json

    from pygls.protocol import default_converter

    from flake8_escapes.commands import server
    plain, kept = default_converter(), server.SentForms()
    hooked = kept.installed(default_converter())
    engine = server.Engine()
    rows = [f"x{n} = '\\d{n}'\n" for n in range(50)]
    before: list[types.Diagnostic] = []
    for version, change in enumerate(['', 'y = 1\n', "z = '\\w'\n", ''], 1):
        text = ''.join([*rows[:25], change, *rows[25:]])
        document = server.Document.of('untitled:a', version, text)
        engine.documents[document.uri] = document
        shown = server.lsp_diagnostics(engine, document, engine.diagnostics(document))
        kept.keep(before, shown)
        before = shown
        params = types.PublishDiagnosticsParams(document.uri, shown, version)
        assert json.dumps(hooked.unstructure(params)) == json.dumps(plain.unstructure(params))
        assert len(kept.forms) == len(shown) == 50 + (change.startswith('z'))
    assert all(form is not None for _, form in kept.forms.values())


def test_a_diagnostic_unchanged_on_a_line_unchanged_is_sent_as_converted_before():
    """Publishing converts each diagnostic to LSP's once: after an edit elsewhere the ones on
    lines that did not change are those sent before; a line changed before its escape (a
    character two UTF-16 units long) gets its new range; a new diagnostic is converted."""
    from flake8_escapes.commands import server
    engine, document = engine_of("x = '\\d'\ny = '\\q'\nz = 1\n")
    first = server.lsp_diagnostics(engine, document, engine.diagnostics(document))
    assert [item.range.start.character for item in first] == [5, 5]
    edited = server.Document.of(document.uri, 2, "x = '\\d'\ny = '😀\\q'\nz = '\\w'\n")
    second = server.lsp_diagnostics(engine, edited, engine.diagnostics(edited))
    assert second[0] is first[0]  # the same diagnostic on the same line
    assert [(item.range.start.line, item.range.start.character, item.range.end.character)
            for item in second] == [(0, 5, 7), (1, 7, 9), (2, 5, 7)]  # '😀': two UTF-16 units
    assert second == [engine.to_lsp(edited, item) for item in engine.diagnostics(edited)]


def test_a_quick_fix_of_a_checked_text_is_planned_on_its_statement(monkeypatch):
    """The quick fix of a safe diagnostic of the text just checked is planned on its statement
    alone (``api.Linter.fixes``), never by the fixer's run over the whole text."""
    from flake8_escapes import api
    engine, document = engine_of(''.join(f"def f{n}():\n    return '\\d'\n" for n in range(50)))
    item = engine.diagnostics(document)[20]
    monkeypatch.setattr(api, 'fixes', lambda *args: pytest.fail('the whole text planned'))
    params = types.CodeActionParams(types.TextDocumentIdentifier(document.uri), types.Range(
        types.Position(item.line - 1, item.column), types.Position(item.line - 1, item.column)),
        types.CodeActionContext([], only=['quickfix']))
    action = engine.code_actions(document, params)[0]
    assert action.title == 'Make raw (same value)'
    edit, = action.edit.changes[document.uri]
    assert (edit.range.start.line, edit.range.start.character, edit.new_text) == (item.line - 1, 11, 'r')
