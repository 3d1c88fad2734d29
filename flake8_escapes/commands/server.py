"""``flake8-escapes server``: a Language Server Protocol server over stdio (pygls, lsprotocol).

A thin front end on the public API (``api``): diagnostics of the editor's
Python texts (``api.Linter``, one per text: ``api.lint``'s, parsed again only
where an edit changed it; on open, on each change: at once after a quiet time,
a burst once at its end; on save; none for a file the flake8 configuration
excludes, ``api.excluded``, nor for a document that is not Python,
``api.is_python``), quick fixes and fix-all from the fixer's own plan
(``api.fixes``, ``api.fix``), ``# noqa`` (``api.noqa_edits``), their titles
(``api.fix_title``), hover from the registry (``rules``).  It writes no
checking or fixing logic of its own: it converts positions (the API counts
code points; the client UTF-16 units unless it negotiated UTF-8 or UTF-32),
finds each file's flake8 configuration (``api.settings``, read again when a
config file changes) and schedules the runs, off the message loop (``Jobs``:
checks in worker threads, plans in their own; a newer version of a text drops
the run of an older one; a request about a text waits for its check without
holding up the others and is answered for the version it was asked of; a run
that raises logs an error and publishes no diagnostics, the server goes on).  Notebook
documents (LSP 3.17) are checked as one module of their code cells: ``server_notebooks``.
"""
from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import functools
import gc
import itertools
import os
import re
import threading
import time
import traceback
from typing import TYPE_CHECKING, Any, Iterable, Iterator, NamedTuple, Sequence

from lsprotocol import types  # first: without the server extra, cli names it missing
import attrs  # lsprotocol's dependency: there only with the server extra
from pygls import uris
from pygls.exceptions import JsonRpcException
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol, default_converter
from pygls.protocol.language_server import lsp_method

from flake8_escapes import __version__, api, config, rules
from flake8_escapes.commands.explain import source_url

if TYPE_CHECKING:
    from flake8_escapes.commands.server_notebooks import Cells

NAME = 'flake8-escapes'
FIX_ALL = f'{types.CodeActionKind.SourceFixAll.value}.{NAME}'
#: The config files flake8 reads (pyproject.toml: for the plugins that make flake8 read it).
CONFIG_FILES = ('setup.cfg', 'tox.ini', '.flake8', 'pyproject.toml')
#: The quick fixes offered for one range at most (each is a run of the fixer: a selection of
#: the whole file would take seconds); fix-all fixes them all.
QUICK_FIXES = 10
#: Seconds a change that follows another within this time waits for the next one before its text
#: is checked (a burst is checked once); a change after a quiet time is checked at once.
PAUSE = 0.02
LINE_END = re.compile('\r\n|\r|\n')
SEVERITIES = {'error': types.DiagnosticSeverity.Error, 'warning': types.DiagnosticSeverity.Warning,
              'information': types.DiagnosticSeverity.Information, 'hint': types.DiagnosticSeverity.Hint}
#: The default severity per code family (a code or a longer prefix given in the settings wins).
DEFAULT_SEVERITY = {'ESC': 'warning', 'ESC304': 'error', 'ESC305': 'error'}
#: The threads that check texts: a small text is checked beside a big one, not after it.
CHECKERS = 2
#: The lines either side of the last edit whose diagnostics get their quick fix planned ahead.
NEAR = 20
#: Fix-all's plan is made ahead for a text of up to AHEAD_LINES lines once it has not changed for
#: AHEAD_QUIET seconds (the interpreter runs one thread at a time: a plan made ahead while the user
#: types would slow the checks; a longer text's first plan takes seconds, and is made when asked;
#: it is made of its statements' plans where it can be, which are kept: ``api.Linter.fix_all``).
AHEAD_PAUSE, AHEAD_LINES, AHEAD_QUIET = 0.05, 5000, 1.0
#: The notebooks the server reads (LSP 3.17 notebook documents): Jupyter's, their Python cells.
NOTEBOOK_SYNC = types.NotebookDocumentSyncOptions([types.NotebookDocumentFilterWithNotebook(
    'jupyter-notebook', [types.NotebookCellLanguage(api.PYTHON_LANGUAGE)])], save=True)
#: What ``Protocol.structure_message`` gives for a request it has answered with an error already.
ANSWERED = object()


def units(text: str, encoding: str) -> int:
    """The length of ``text`` in the client's code units."""
    if encoding == types.PositionEncodingKind.Utf32 or text.isascii():
        return len(text)
    if encoding == types.PositionEncodingKind.Utf8:
        return len(text.encode('utf-8', 'surrogatepass'))
    return len(text.encode('utf-16-le', 'surrogatepass')) // 2


def column(line: str, count: int, encoding: str) -> int:
    """The code point column of a position ``count`` client units into ``line``."""
    if encoding == types.PositionEncodingKind.Utf32 or line.isascii():
        return min(count, len(line))
    seen = 0
    for index, char in enumerate(line):
        if seen >= count:
            return index
        seen += units(char, encoding)
    return len(line)


class Document(NamedTuple):
    """An open text: its URI, version and text; its lines as the compiler splits them, without their ends."""

    uri: str
    version: int | None
    text: str
    lines: list[str]

    @classmethod
    def of(cls, uri: str, version: int | None, text: str) -> Document:
        return cls(uri, version, text, LINE_END.split(text))

    def position(self, line: int, col: int, encoding: str) -> types.Position:
        """The client's position of (1-based line, code point column)."""
        if line > len(self.lines):
            return types.Position(len(self.lines) - 1, units(self.lines[-1], encoding))
        return types.Position(line - 1, units(self.lines[line - 1][:col], encoding))

    def where(self, position: types.Position, encoding: str) -> tuple[int, int]:
        """(1-based line, code point column) of a client's position."""
        if position.line >= len(self.lines):
            return len(self.lines), len(self.lines[-1])
        return position.line + 1, column(self.lines[position.line], position.character, encoding)

    def offset(self, position: types.Position, encoding: str) -> int:
        """The offset in ``text`` of a client's position."""
        line, col = self.where(position, encoding)
        before = self.lines[:line - 1]
        if '\r' not in self.text:  # each line end is one character: no pass over the line ends
            return sum(map(len, before)) + len(before) + col
        ends = itertools.islice(LINE_END.finditer(self.text), line - 1)
        return sum(map(len, before)) + sum(len(match.group()) for match in ends) + col

    def changed(self, version: int | None, changes: Sequence[Any], encoding: str) -> Document:
        """The text after a didChange's changes, each a range's new text or the whole text."""
        document = self
        for change in changes:
            if getattr(change, 'range', None) is None:
                document = Document.of(self.uri, version, change.text)
                continue
            start = document.offset(change.range.start, encoding)
            end = document.offset(change.range.end, encoding)
            text = document.text[:start] + change.text + document.text[end:]
            document = Document.of(self.uri, version, text)
        return document._replace(version=version)


class Protocol(LanguageServerProtocol):
    """pygls' protocol without its own copy of each change: it splits lines where
    ``str.splitlines`` does (a form feed, U+2028: no line end for the client nor for
    CPython) and clamps the change's positions to those lines in place, so that the
    ``Document`` would get the wrong ones."""

    def structure_message(self, data: dict[str, Any]) -> Any:
        """pygls' reading of a message, but a request whose params do not fit its method (none,
        ``null``) is answered with pygls' error (-32602, invalid params): pygls would log it and
        drop it, and the client would wait for ever."""
        try:
            return super().structure_message(data)
        except JsonRpcException as error:
            if not ('id' in data and 'method' in data):  # a notification: nobody waits for it
                raise
            self._send_response(data['id'], None, error.to_response_error())
            return ANSWERED

    def handle_message(self, message: Any) -> None:
        if message is not ANSWERED:
            super().handle_message(message)

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(
        self, params: types.DidChangeTextDocumentParams,
    ) -> Iterator[tuple[Any, tuple[Any, ...], None]]:
        handler = self.fm.features.get(types.TEXT_DOCUMENT_DID_CHANGE)
        if handler is not None:
            yield handler, (params,), None

    @lsp_method(types.NOTEBOOK_DOCUMENT_DID_CHANGE)
    def lsp_notebook_document__did_change(
        self, params: types.DidChangeNotebookDocumentParams,
    ) -> Iterator[tuple[Any, tuple[Any, ...], None]]:
        """pygls' workspace keeps the notebook's cells (their order, kinds, languages), but not
        their texts' changes (its own copy would clamp the change's positions in place, as above):
        the handler changes the cells' texts (``server_notebooks``)."""
        cells = params.change.cells
        structure_only = attrs.evolve(cells, text_content=None) if cells is not None else None
        self.workspace.update_notebook_document(
            attrs.evolve(params, change=attrs.evolve(params.change, cells=structure_only)))
        handler = self.fm.features.get(types.NOTEBOOK_DOCUMENT_DID_CHANGE)
        if handler is not None:
            yield handler, (params,), None


def severity_of(code: str, chosen: dict[str, str]) -> types.DiagnosticSeverity:
    """The severity of ``code``: the longest prefix named in ``chosen``, then in the defaults."""
    for table in (chosen, DEFAULT_SEVERITY):
        named = [prefix for prefix in table if code.startswith(prefix) and table[prefix] in SEVERITIES]
        if named:
            return SEVERITIES[table[max(named, key=len)]]
    return types.DiagnosticSeverity.Warning


def severities_from(options: Any) -> dict[str, str]:
    """``{"severity": {"ESC4": "error"}}`` (initializationOptions, or the settings under
    ``flake8-escapes`` or at their top) as a code prefix -> severity name table."""
    if isinstance(options, dict) and isinstance(options.get(NAME), dict):
        options = options[NAME]
    table = options.get('severity') if isinstance(options, dict) else None
    if not isinstance(table, dict):
        return {}
    return {str(prefix).upper(): str(name).lower() for prefix, name in table.items()}


def is_config(uri: str) -> bool:
    """Is ``uri`` a config file flake8 may read?"""
    return os.path.basename(uris.to_fs_path(uri) or '') in CONFIG_FILES


@functools.lru_cache(maxsize=None)
def docs_url(code: str) -> str:
    """The code's page under the project's Source URL (read once per code: the metadata is slow)."""
    return f'{source_url()}/blob/main/docs/{code}.md'


def hover_text(item: api.Diagnostic) -> str:
    """The code's short explanation: what (the registry's summary), why (this report's
    message), what to use instead (the registry's example, fixed), the fix's safety."""
    rule = rules.BY_CODE[item.code]
    safety = ('safe: the value stays the same' if rule.fix == rules.SAFE
              else 'unsafe: the value changes to what was meant')
    return '\n'.join([
        f'**{rule.code}** ({rule.name}): {rule.summary}', '', f'Why: {item.message}', '', 'Instead of:',
        '```python', rule.bad.rstrip('\n'), '```', 'use:', '```python', rule.good.rstrip('\n'), '```', '',
        f'Fix: {safety}. [{rule.code}]({docs_url(rule.code)})'])


class Kept(NamedTuple):
    """What was planned for one version of a text: the fixer's plans, by the diagnostic they fix
    (None: fix-all), and the noqa edit of each diagnostic."""

    document: Document
    fixes: dict[api.Diagnostic | None, concurrent.futures.Future[api.Fix]]  # made once, by one thread
    noqas: dict[api.Diagnostic, api.Edit | None]


class Engine:
    """The documents, each folder's configuration, the client's options and the last diagnostics."""

    def __init__(self) -> None:
        self.documents: dict[str, Document] = {}
        self.linted: dict[str, tuple[Document, list[api.Diagnostic]]] = {}
        self.plans: dict[str, Kept] = {}  # what was planned for each text, while it is the same
        self.settings: dict[str, config.Config | None] = {}
        self.folders: list[str] = []
        self.severity: dict[str, str] = {}
        self.encoding: str = types.PositionEncodingKind.Utf16
        self.versioned_edits = False
        self.resolves_edits = False  # the client asks codeAction/resolve for an action's edit
        self.shows_disabled = False  # the client shows an action that cannot be applied, and why
        self.lock = threading.Lock()  # api.settings changes the current folder for a moment
        self.tasks: dict[str, asyncio.Future[list[api.Diagnostic] | None]] = {}
        self.changed_at: dict[str, float] = {}  # when each text last changed (time.monotonic)
        self.edited: dict[str, int] = {}  # the line (1-based) of each text's last edit
        # off the message loop: checks (a small text's beside a big one's), and code actions' plans
        self.worker = concurrent.futures.ThreadPoolExecutor(CHECKERS, thread_name_prefix=f'{NAME}-check')
        self.planner = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix=f'{NAME}-plan')
        self.ahead = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix=f'{NAME}-ahead')
        self.linters: dict[str, api.Linter] = {}  # each text's incremental check
        self.busy: dict[str, threading.Lock] = {}  # one check of a text at a time (its linter's chunks)
        self.complaints: list[str] = []  # configuration errors to log, from the worker
        self.notebooks: dict[str, Cells] = {}  # each open notebook, by its URI
        self.cell_notebook: dict[str, str] = {}  # the notebook URI of each open notebook's cell
        # each text's last diagnostics as sent (``lsp_diagnostics``)
        self.sent: dict[str, dict[tuple[api.Diagnostic, str], types.Diagnostic]] = {}

    def pause_after_change(self, uri: str, now: float) -> float:
        """How long the run of a change to ``uri`` at ``now`` waits: none after a quiet time (a
        keystroke is checked at once), ``PAUSE`` when the change follows another within it (a
        burst: the run waits for the next change, and the burst is checked once)."""
        last = self.changed_at.get(uri)
        self.changed_at[uri] = now
        return PAUSE if last is not None and now - last < PAUSE else 0.0

    def settings_for(self, uri: str) -> tuple[config.Config | None, str]:
        """The configuration that applies to ``uri`` and the file name flake8 would match."""
        path = uris.to_fs_path(uri) if uri.startswith('file:') else None
        if path is None:
            return None, 'stdin'
        path = os.path.abspath(path)
        inside = [folder for folder in self.folders if path.startswith(os.path.join(folder, ''))]
        folder = max(inside, key=len) if inside else os.path.dirname(path)
        with self.lock:
            if folder not in self.settings:
                try:
                    self.settings[folder] = api.settings(folder) if os.path.isdir(folder) else None
                except config.Unusable as error:
                    self.complaints.append(f'{NAME}: the configuration of {folder}: {error}; using defaults')
                    self.settings[folder] = None
            return self.settings[folder], path

    def lint(self, document: Document) -> list[api.Diagnostic]:
        """The diagnostics of ``document`` (check's pre-filter skipped when its last version had some)."""
        settings, filename = self.settings_for(document.uri)
        if api.excluded(settings, filename):  # as flake8 in the project would: not read
            return []
        last = self.linted.get(document.uri)
        cells = self.notebooks.get(document.uri)  # a notebook's module: read as check reads one
        book = cells.book if cells and cells.document.text == document.text else None
        with self.busy.setdefault(document.uri, threading.Lock()):
            linter = self.linters.setdefault(document.uri, api.Linter())
            return linter.lint(document.text, settings, filename, prefilter=not (last and last[1]), book=book)

    def current(self, document: Document) -> bool:
        """Is ``document`` the open text's latest version (work for an older one is dropped)?"""
        return self.documents.get(document.uri) is document

    def diagnostics(self, document: Document) -> list[api.Diagnostic]:
        """The diagnostics of ``document``: the last run's when it was of this version."""
        last = self.linted.get(document.uri)
        if last is not None and last[0] is document:
            return last[1]
        found = self.lint(document)
        self.linted[document.uri] = (document, found)
        return found

    def to_lsp(self, document: Document, item: api.Diagnostic) -> types.Diagnostic:
        return types.Diagnostic(
            range=types.Range(document.position(item.line, item.column, self.encoding),
                              document.position(item.end_line, item.end_column, self.encoding)),
            message=item.message, severity=severity_of(item.code, self.severity), code=item.code,
            code_description=types.CodeDescription(href=docs_url(item.code)), source=NAME)

    def workspace_edit(self, document: Document, edits: list[api.Edit]) -> types.WorkspaceEdit:
        text_edits = [types.TextEdit(types.Range(document.position(edit.line, edit.col, self.encoding),
                                                 document.position(edit.line, edit.col + edit.length,
                                                                   self.encoding)), edit.text)
                      for edit in edits]
        if self.versioned_edits and document.version is not None:
            identifier = types.OptionalVersionedTextDocumentIdentifier(document.uri, document.version)
            return types.WorkspaceEdit(document_changes=[types.TextDocumentEdit(identifier, text_edits)])
        return types.WorkspaceEdit(changes={document.uri: text_edits})

    def code_actions(self, document: Document, params: types.CodeActionParams) -> list[types.CodeAction]:
        only = params.context.only

        def wanted(kind: str) -> bool:
            return only is None or any(kind == asked or kind.startswith(f'{asked}.') for asked in only)
        actions: list[types.CodeAction] = []
        if wanted(types.CodeActionKind.QuickFix):
            first = document.where(params.range.start, self.encoding)
            last = document.where(params.range.end, self.encoding)
            inside = [item for item in self.diagnostics(document)
                      if (item.line, item.column) <= last and first <= (item.end_line, item.end_column)]
            for item in inside[:QUICK_FIXES]:
                actions.extend(self.quick_fixes(document, item))
        if wanted(FIX_ALL):
            actions.extend(self.fix_all(document))
        return actions

    def fix_all(self, document: Document) -> list[types.CodeAction]:
        """Fix-all: its edit planned now, or when the client resolves it (the fixer's plan of a
        whole file takes a while, and clients ask for code actions as the cursor moves)."""
        if self.resolves_edits:
            if not any(item.fix == rules.SAFE for item in self.diagnostics(document)):
                return []
            return [types.CodeAction(api.FIX_ALL_TITLE, kind=FIX_ALL,
                                     data={'uri': document.uri, 'version': document.version})]
        planned = self.planned(document, None)
        if not planned.edits:
            return []
        return [types.CodeAction(api.FIX_ALL_TITLE, kind=FIX_ALL,
                                 edit=self.workspace_edit(document, planned.edits))]

    def kept(self, document: Document) -> Kept:
        """What was planned for ``document``: kept while its text is the same (clients ask for
        code actions each time the cursor moves, and resolve them after)."""
        kept = self.plans.get(document.uri)
        if kept is None or kept.document is not document:
            kept = self.plans[document.uri] = Kept(document, {}, {})
        return kept

    def planned(self, document: Document, item: api.Diagnostic | None) -> api.Fix:
        """The fixer's plan for ``item`` alone (None: every safe fix), made once per text: a
        thread that asks for a plan another is making waits for it (a code action asked while
        fix-all's plan is made ahead)."""
        fixes = self.kept(document).fixes
        with self.lock:
            future = fixes.get(item)
            mine = future is None
            if future is None:
                future = fixes[item] = concurrent.futures.Future()
        if mine:
            try:
                future.set_result(self.plan(document, item))
            except BaseException as error:
                future.set_exception(error)
        return future.result()

    def plan(self, document: Document, item: api.Diagnostic | None) -> api.Fix:
        settings, filename = self.settings_for(document.uri)
        if api.excluded(settings, filename):
            return api.Fix(document.text, [], [], [], [], 'the configuration excludes the file')
        linter = self.linters.get(document.uri)  # its last check's AST and reports: statements' plans
        if item is None:
            return (linter.fix_all if linter else api.fix)(document.text, settings, filename)
        if linter is not None:
            return linter.fixes(document.text, [item], settings, filename)[0]
        return api.fixes(document.text, [item], settings, filename)[0]

    def noqa_edit(self, document: Document, item: api.Diagnostic) -> api.Edit | None:
        """``item``'s noqa edit: those of every diagnostic of the text made at once, on the
        first ask (one pass of the tokenizer), and kept with the plans."""
        noqas = self.kept(document).noqas
        if item not in noqas:
            found = [*self.diagnostics(document), item]
            noqas.update(zip(found, api.noqa_edits(document.text, found)))
        return noqas[item]

    def quick_fixes(self, document: Document, item: api.Diagnostic) -> list[types.CodeAction]:
        """``item``'s fix (its title says what the plan's edits do) and noqa; the noqa's edit
        when it is resolved, where the client can (it takes a pass of the tokenizer)."""
        planned = self.planned(document, item)
        shown = [self.to_lsp(document, item)]
        actions = []
        if planned.edits:
            actions.append(types.CodeAction(
                api.fix_title(item, planned.edits), kind=types.CodeActionKind.QuickFix, diagnostics=shown,
                is_preferred=item.fix == rules.SAFE, edit=self.workspace_edit(document, planned.edits)))
        elif self.shows_disabled:  # the fixer's reason for leaving it alone, where the client shows it
            why = planned.refused or '; '.join(sorted({left.reason for left in planned.left_alone}))
            actions.append(types.CodeAction(
                api.fix_title(item, []), kind=types.CodeActionKind.QuickFix, diagnostics=shown,
                disabled=types.CodeActionDisabled(f'left alone: {why or "the fixer has no edit for it"}')))
        if self.resolves_edits:
            actions.append(types.CodeAction(
                api.noqa_title(item), kind=types.CodeActionKind.QuickFix, diagnostics=shown,
                data={'uri': document.uri, 'version': document.version,
                      'noqa': [item.line, item.column, item.code]}))
            return actions
        noqa = self.noqa_edit(document, item)
        if noqa is not None:
            actions.append(types.CodeAction(
                api.noqa_title(item), kind=types.CodeActionKind.QuickFix, diagnostics=shown,
                edit=self.workspace_edit(document, [noqa])))
        return actions


def resolved(engine: Engine, action: types.CodeAction) -> types.CodeAction:
    """A fix-all or noqa action with its edit, if its text is still the one it was offered for."""
    data = action.data if isinstance(action.data, dict) else {}
    document = engine.documents.get(str(data.get('uri')))
    if document is None or document.version != data.get('version'):
        return action
    edits: list[api.Edit] = []
    if action.kind == FIX_ALL:
        edits = engine.planned(document, None).edits
    elif data.get('noqa'):
        item = next((item for item in engine.diagnostics(document)
                     if [item.line, item.column, item.code] == data['noqa']), None)
        noqa = engine.noqa_edit(document, item) if item is not None else None
        edits = [noqa] if noqa is not None else []
        if not edits:
            engine.complaints.append(f'{NAME}: no "# noqa" for {data["noqa"][2]} on line {data["noqa"][0]}: '
                                     'the text does not tokenize (flake8 would read no noqa comment), '
                                     'or a bare "# noqa" there names every code already')
    if edits:
        action.edit = engine.workspace_edit(document, edits)
    return action


def hover_at(engine: Engine, document: Document, position: types.Position) -> types.Hover | None:
    """The hover at ``position``: the explanation of the diagnostic there, if any."""
    line, col = document.where(position, engine.encoding)
    for item in engine.diagnostics(document):
        if item.line == line and item.column <= col <= item.end_column:
            return types.Hover(types.MarkupContent(types.MarkupKind.Markdown, hover_text(item)),
                               types.Range(document.position(item.line, item.column, engine.encoding),
                                           document.position(item.end_line, item.end_column,
                                                             engine.encoding)))
    return None


def lsp_diagnostics(engine: Engine, document: Document,
                    found: list[api.Diagnostic]) -> list[types.Diagnostic]:
    """``engine.to_lsp`` of each of ``found``: the one sent last time for a diagnostic the same on
    a line the same (its range in the client's units is the same), the rest made (an edit changes
    a few of thousands; the severities and the encoding change only with ``Jobs.again``)."""
    sent = engine.sent.get(document.uri, {})
    made: dict[tuple[api.Diagnostic, str], types.Diagnostic] = {}
    converted = []
    for item in found:
        if item.line != item.end_line or item.line > len(document.lines):
            converted.append(engine.to_lsp(document, item))
            continue
        key = (item, document.lines[item.line - 1])
        diagnostic = made[key] = sent.get(key) or engine.to_lsp(document, item)
        converted.append(diagnostic)
    FORMS.keep(sent.values(), made.values())
    engine.sent[document.uri] = made
    return converted


class SentForms:
    """The JSON form of each diagnostic ``lsp_diagnostics`` sends, made once per diagnostic object
    (it reuses the object of a diagnostic unchanged on a line unchanged): cattrs' walk over its
    fields was a third of the server's work on a publication of 1,538 diagnostics.  Only the
    objects it registers are looked up (``installed``: the converter's hook for ``Diagnostic``),
    each form made on first use; those no longer sent are let go."""

    def __init__(self) -> None:
        self.forms: dict[int, tuple[types.Diagnostic, Any]] = {}

    def installed(self, converter: Any) -> Any:
        """``converter`` (pygls' own), with the hook that reads the forms."""
        plain = getattr(converter, 'get_unstructure_hook', None)
        if plain is None:  # an older cattrs: nothing kept
            return converter
        unstructured = plain(types.Diagnostic)
        forms = self.forms

        def hook(diagnostic: types.Diagnostic) -> Any:
            known = forms.get(id(diagnostic))
            if known is None or known[0] is not diagnostic:
                return unstructured(diagnostic)
            if known[1] is None:
                known = forms[id(diagnostic)] = (diagnostic, unstructured(diagnostic))
            return known[1]

        converter.register_unstructure_hook(types.Diagnostic, hook)
        return converter

    def keep(self, before: Iterable[types.Diagnostic], now: Iterable[types.Diagnostic]) -> None:
        """The objects of one text's last publication ``now`` registered, those of ``before``
        that are not among them let go."""
        forms = self.forms
        now = list(now)
        kept = {id(diagnostic) for diagnostic in now}
        for diagnostic in before:
            if id(diagnostic) not in kept and forms.get(id(diagnostic), (None,))[0] is diagnostic:
                del forms[id(diagnostic)]
        for diagnostic in now:
            if forms.get(id(diagnostic), (None,))[0] is not diagnostic:
                forms[id(diagnostic)] = (diagnostic, None)


#: The forms of the diagnostics this process's server sends (one server per process).
FORMS = SentForms()


def kept_out_of_collections() -> None:
    """After a check: every object alive now (above all the ASTs each text's ``api.Linter``
    keeps, hundreds of thousands of nodes on 20,000 lines) left out of the cyclic collector's
    passes (``gc.freeze``), once the young garbage is collected.  Else each full pass walks them
    all (0.2 s on 20,000 lines, while the loop waits); they hold no cycles, and their reference
    counts free them when a newer text replaces them."""
    gc.collect(0)
    gc.freeze()


class Jobs:
    """The work of the server, off the message loop: each text's check (``schedule``: a newer
    version drops the run of an older one, and one that has not started yet is not run), the
    answers that need a text's diagnostics (``linted``: they wait for its check without holding
    up the loop), and the code actions' plans (``planned``), in their own thread; after a check,
    fix-all's plan of the text and its noqa edits are made before anyone asks (``plan_ahead``)."""

    def __init__(self, server: LanguageServer, engine: Engine) -> None:
        self.server, self.engine = server, engine
        self.asking = 0  # code actions being planned, which a plan ahead lets go first

    def log(self, kind: types.MessageType, message: str) -> None:
        self.server.window_log_message(types.LogMessageParams(kind, message))

    def say_complaints(self, level: types.MessageType) -> None:
        """Log what the engine found wrong meanwhile (a configuration, a noqa it could not make)."""
        for complaint in self.engine.complaints:
            self.log(level, complaint)
        self.engine.complaints.clear()

    def checked(self, document: Document) -> tuple[list[api.Diagnostic] | None, str]:
        """In a worker thread: the diagnostics (None: a newer version replaced the text before
        its check began), or the error a check raised."""
        if not self.engine.current(document):
            return None, ''
        try:
            found = self.engine.lint(document)
            kept_out_of_collections()
            return found, ''
        except Exception as error:  # never a dead server: logged, no diagnostics for this file
            where = ''.join(traceback.format_exception(error)[-3:]).strip()
            return [], f'{NAME}: checking {document.uri} raised {type(error).__name__}: {error}\n{where}'

    def publish(self, document: Document, found: list[api.Diagnostic]) -> None:
        engine = self.engine
        engine.linted[document.uri] = (document, found)
        cells = engine.notebooks.get(document.uri)
        if cells is not None and cells.document is document:  # a notebook: on each cell's URI
            for (uri, shown), version in zip(cells.published(engine, found).items(), cells.versions):
                self.server.text_document_publish_diagnostics(
                    types.PublishDiagnosticsParams(uri, shown, version))
            return
        self.server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
            document.uri, lsp_diagnostics(engine, document, found), document.version))

    async def run_later(self, document: Document, pause: float) -> list[api.Diagnostic] | None:
        if pause:
            await asyncio.sleep(pause)
        loop = asyncio.get_running_loop()
        found, problem = await loop.run_in_executor(self.engine.worker, self.checked, document)
        self.say_complaints(types.MessageType.Error)
        if problem:
            self.log(types.MessageType.Error, problem)
        if found is None or not self.engine.current(document):  # a newer version is on its way
            return None
        self.publish(document, found)
        if len(document.lines) <= AHEAD_LINES and any(item.fix == rules.SAFE for item in found):
            asyncio.ensure_future(self.ahead_later(document))
        return found

    async def ahead_later(self, document: Document) -> None:
        """``plan_ahead`` once the text has not changed for ``AHEAD_QUIET`` seconds and no code
        action asked is being planned (the one a client waits for goes first)."""
        await asyncio.sleep(AHEAD_QUIET)
        while self.asking:
            await asyncio.sleep(AHEAD_PAUSE)
        if self.engine.current(document):
            await asyncio.get_running_loop().run_in_executor(self.engine.ahead, self.plan_ahead, document)

    def plan_ahead(self, document: Document) -> None:
        """In the planner's thread: fix-all's plan, the noqa edits and the quick fixes of the
        diagnostics about the last edit of a text just checked, unless a newer version replaced
        it (a client asks for them as the cursor moves, an editor for fix-all on save)."""
        engine = self.engine
        if not (engine.current(document) and engine.linted.get(document.uri, (None,))[0] is document):
            return
        engine.planned(document, None)
        found = engine.diagnostics(document)
        if engine.current(document):
            engine.noqa_edit(document, found[0])
        for item in self.near_edit(document, found):  # the cursor is likely there: their quick fixes
            if not engine.current(document):
                return
            engine.planned(document, item)

    def near_edit(self, document: Document, found: list[api.Diagnostic]) -> list[api.Diagnostic]:
        """The diagnostics on the lines about the last edit of ``document`` (``NEAR`` lines
        either side), the nearest first, ``QUICK_FIXES`` at most: those whose quick fix a client
        is likely to ask for next."""
        line = self.engine.edited.get(document.uri)
        if line is None:
            return []
        near = [item for item in found if abs(item.line - line) <= NEAR]
        return sorted(near, key=lambda item: abs(item.line - line))[:QUICK_FIXES]

    def schedule(self, document: Document, pause: float = 0.0) -> None:
        engine = self.engine
        engine.documents[document.uri] = document
        running = engine.tasks.pop(document.uri, None)
        if running is not None:
            running.cancel()  # stale: its result would be dropped anyway
        engine.tasks[document.uri] = asyncio.ensure_future(self.run_later(document, pause))

    def again(self) -> None:
        """The configuration or the options changed: every open text checked again."""
        engine = self.engine
        with engine.lock:
            engine.settings.clear()
        engine.plans.clear()
        engine.sent.clear()  # the severities may have changed
        for document in list(engine.documents.values()):
            self.schedule(document)

    async def linted(self, uri: str) -> Document | None:
        """The open text of ``uri`` once its diagnostics are known, waiting for its check (the
        loop goes on meanwhile); None when it is closed, or replaced before its check ended (a
        request about it is answered for the version it was asked of, or not at all)."""
        engine = self.engine
        document = engine.documents.get(uri)
        while document is not None and engine.current(document):
            last = engine.linted.get(uri)
            if last is not None and last[0] is document:
                return document
            task = engine.tasks.get(uri)
            if task is None:
                self.schedule(document)
                continue
            if task.done():  # its run ended without diagnostics for this text (it raised)
                return None
            await asyncio.wait([task])  # a task cancelled for a newer version: looked at again
        return None

    async def planned(self, work: Any, *args: Any) -> Any:
        """``work(*args)`` in the planner's thread (a code action's plan: the fixer's run)."""
        self.asking += 1
        try:
            result = await asyncio.get_running_loop().run_in_executor(self.engine.planner, work, *args)
        finally:
            self.asking -= 1
        self.say_complaints(types.MessageType.Warning)
        return result


def converter() -> Any:
    """pygls' converter, with the diagnostics' forms kept (``FORMS``)."""
    return FORMS.installed(default_converter())  # type: ignore[no-untyped-call]


def build() -> LanguageServer:  # noqa: C901 - one small handler per message, registered here
    """The server: each LSP message's handler on one ``Engine``, its work on ``Jobs``."""
    server = LanguageServer(NAME, __version__, text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
                            notebook_document_sync=NOTEBOOK_SYNC, protocol_cls=Protocol,
                            converter_factory=converter)
    # the notebooks' handlers live beside, on this module's Engine and Jobs
    from flake8_escapes.commands.server_notebooks import cell_actions, cell_hover, serve_notebooks
    engine = Engine()
    jobs = Jobs(server, engine)
    serve_notebooks(server, engine, jobs)

    @server.feature(types.INITIALIZE)
    def initialize(params: types.InitializeParams) -> None:
        engine.encoding = server.workspace.position_encoding or types.PositionEncodingKind.Utf16
        engine.severity = severities_from(params.initialization_options)
        edits = params.capabilities.workspace and params.capabilities.workspace.workspace_edit
        engine.versioned_edits = bool(edits and edits.document_changes)
        actions = params.capabilities.text_document and params.capabilities.text_document.code_action
        resolving = actions and actions.resolve_support
        engine.resolves_edits = bool(resolving and 'edit' in resolving.properties)
        engine.shows_disabled = bool(actions and actions.disabled_support)
        folders = [uris.to_fs_path(folder.uri) for folder in params.workspace_folders or []]
        root = params.root_uri and uris.to_fs_path(params.root_uri)
        engine.folders = [os.path.abspath(path) for path in (*folders, root or params.root_path) if path]

    @server.feature(types.INITIALIZED)
    def initialized(params: types.InitializedParams) -> None:
        engine.ahead.submit(api.load_fixer)  # before the first check: the first quick fix will not wait
        workspace = server.client_capabilities.workspace
        watched = workspace and workspace.did_change_watched_files
        if watched and watched.dynamic_registration:
            watchers = [types.FileSystemWatcher(f'**/{name}') for name in CONFIG_FILES]
            server.client_register_capability(types.RegistrationParams([types.Registration(
                f'{NAME}-config', types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                types.DidChangeWatchedFilesRegistrationOptions(watchers))]))

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(params: types.DidOpenTextDocumentParams) -> None:
        item = params.text_document
        if not api.is_python(item.language_id, uris.to_fs_path(item.uri) or item.uri):
            return  # a TOML file, a README: their escapes are not Python's (never checked nor fixed)
        jobs.schedule(Document.of(item.uri, item.version, item.text))

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(params: types.DidChangeTextDocumentParams) -> None:
        uri = params.text_document.uri
        document = engine.documents.get(uri)
        if document is not None:
            ranged = [change.range for change in params.content_changes if hasattr(change, 'range')]
            engine.edited[uri] = ranged[-1].start.line + 1 if ranged else 1
            jobs.schedule(document.changed(params.text_document.version, params.content_changes,
                                           engine.encoding),
                          engine.pause_after_change(uri, time.monotonic()))

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE, types.SaveOptions(include_text=False))
    def did_save(params: types.DidSaveTextDocumentParams) -> None:
        if is_config(params.text_document.uri):
            jobs.again()
        elif params.text_document.uri in engine.documents:
            jobs.schedule(engine.documents[params.text_document.uri])

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        for table in (engine.documents, engine.linted, engine.plans, engine.changed_at, engine.linters,
                      engine.edited, engine.sent):
            table.pop(uri, None)
        running = engine.tasks.pop(uri, None)
        if running is not None:
            running.cancel()
        server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri, []))

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def did_change_watched_files(params: types.DidChangeWatchedFilesParams) -> None:
        if any(is_config(change.uri) for change in params.changes):
            jobs.again()

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    def did_change_configuration(params: types.DidChangeConfigurationParams) -> None:
        engine.severity = severities_from(params.settings) or engine.severity
        jobs.again()

    @server.feature(types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(
        code_action_kinds=[types.CodeActionKind.QuickFix, FIX_ALL], resolve_provider=True))
    async def code_action(params: types.CodeActionParams) -> list[types.CodeAction] | None:
        if params.text_document.uri in engine.cell_notebook:
            return await cell_actions(engine, jobs, params)
        document = await jobs.linted(params.text_document.uri)
        if document is None:
            return None
        actions: list[types.CodeAction] = await jobs.planned(engine.code_actions, document, params)
        # planned for the version asked about: said in each edit where the client reads versions
        return actions if engine.versioned_edits or engine.current(document) else None

    @server.feature(types.CODE_ACTION_RESOLVE)
    async def code_action_resolve(params: types.CodeAction) -> types.CodeAction:
        data = params.data if isinstance(params.data, dict) else {}
        if await jobs.linted(str(data.get('uri'))) is None:
            return params
        action: types.CodeAction = await jobs.planned(resolved, engine, params)
        cells = engine.notebooks.get(str(data.get('uri')))
        if 'cell' in data and cells is not None:  # a notebook's: its edit on the cell's URI
            return cells.in_cell(str(data['cell']), action, engine.versioned_edits) or params
        return action

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    async def hover(params: types.HoverParams) -> types.Hover | None:
        if params.text_document.uri in engine.cell_notebook:
            return await cell_hover(engine, jobs, params)
        document = await jobs.linted(params.text_document.uri)
        return hover_at(engine, document, params.position) if document is not None else None

    return server


def run(args: argparse.Namespace) -> int:
    """Serve over stdio until the client says exit: 0 after a shutdown request, 1 without one."""
    server = build()
    server.start_io()
    return 0 if getattr(server.protocol, '_shutdown', False) else 1
