"""The language server's notebook documents (LSP 3.17): a Jupyter notebook an editor syncs
as ``notebookDocument/*`` is checked as one module of its code cells in cell order (the
notebook adapter, ``notebook.Notebook.of_cells``: IPython's lines masked, Markdown cells left
out); each code cell's diagnostics are published on the cell's URI at cell-relative positions,
and its quick fixes, noqa and fix-all are the module's, each edit mapped back onto the cell (an
edit that would span cells is never offered).  The work runs on the server's ``Jobs`` as a
text's does: the module is a ``Document`` under the notebook's URI.
"""
from __future__ import annotations

import time
from typing import NamedTuple, Sequence

import attrs
from lsprotocol import types
from pygls.lsp.server import LanguageServer

from flake8_escapes import api, notebook, rules
from flake8_escapes.commands.server import FIX_ALL, Document, Engine, Jobs, hover_at


class Cells(NamedTuple):
    """An open notebook as it is checked: its code cells as one module (``document``, under the
    notebook's URI: ``notebook.Notebook.of_cells``, IPython's lines masked, Markdown cells left
    out), the adapter's map back (``book``), and the URI and version of each of its cells in order."""

    document: Document
    book: notebook.Notebook
    uris: list[str]
    versions: list[int | None]

    @classmethod
    def of(cls, held: types.NotebookDocument, languages: list[str | None], texts: list[Document]) -> Cells:
        """``held``: pygls' notebook document (its cells' order and kinds); ``languages`` and
        ``texts``: each cell's language identifier and text, in order."""
        python = types.NotebookCellKind.Code, api.PYTHON_LANGUAGE
        book = notebook.Notebook.of_cells([
            text.text if (cell.kind, language) == python
            else None  # a Markdown or raw cell, or another language's: never read
            for cell, language, text in zip(held.cells, languages, texts)])
        return cls(Document.of(held.uri, held.version, book.text), book, [text.uri for text in texts],
                   [text.version for text in texts])

    def cell(self, uri: str) -> notebook.Cell | None:
        """The code cell checked under ``uri`` (None: a Markdown cell, or not this notebook's)."""
        number = self.uris.index(uri) + 1 if uri in self.uris else 0
        return next((cell for cell in self.book.cells if cell.number == number), None)

    def to_module(self, cell: notebook.Cell, position: types.Position) -> types.Position:
        return types.Position(position.line + cell.first - 1, position.character)

    def to_cell(self, where: types.Range) -> tuple[str, types.Range] | None:
        """A module range as (its cell's URI, the range in the cell); None when it is not
        inside one code cell (an edit that would span two cells is never offered)."""
        if not self.book.cells:
            return None
        cell = self.book.cell_at(where.start.line + 1)
        shift = cell.first - 1
        if not shift <= where.start.line <= where.end.line < shift + len(cell.lines):
            return None
        return self.uris[cell.number - 1], types.Range(
            types.Position(where.start.line - shift, where.start.character),
            types.Position(where.end.line - shift, where.end.character))

    def published(self, engine: Engine, found: list[api.Diagnostic]) -> dict[str, list[types.Diagnostic]]:
        """The diagnostics of each cell (every cell: a cell without reports gets none, so
        that its stale ones clear), at cell-relative positions."""
        per_cell: dict[str, list[types.Diagnostic]] = {uri: [] for uri in self.uris}
        for item in found:
            shown = engine.to_lsp(self.document, item)
            placed = self.to_cell(shown.range)
            if placed is not None:
                shown.range = placed[1]
                per_cell[placed[0]].append(shown)
        return per_cell

    def in_cell(self, uri: str, action: types.CodeAction, versioned: bool) -> types.CodeAction | None:
        """A module's code action as the action of the cell ``uri``: its diagnostics and edits
        in the cell's coordinates, on the cell's URI; an edit in another cell left out (fix-all
        of the cell), an edit that spans cells drops the action, and so does no edit left."""
        if isinstance(action.data, dict):
            action.data = {**action.data, 'cell': uri}
        if action.diagnostics:  # copies: the fix and the noqa action share their diagnostic
            cells = [self.to_cell(shown.range) for shown in action.diagnostics]
            action.diagnostics = [attrs.evolve(shown, range=where[1]) if where else shown
                                  for shown, where in zip(action.diagnostics, cells)]
        if action.edit is None:
            return action
        edits: list[types.TextEdit] = []
        for change in action.edit.document_changes or []:
            edits += [edit for edit in getattr(change, 'edits', []) if isinstance(edit, types.TextEdit)]
        for module_edits in (action.edit.changes or {}).values():
            edits += module_edits
        mine = []
        for edit in edits:
            placed = self.to_cell(edit.range)
            if placed is None:
                return None
            if placed[0] == uri:
                mine.append(types.TextEdit(placed[1], edit.new_text))
        if not mine:
            return None
        version = self.versions[self.uris.index(uri)]
        if versioned and version is not None:
            action.edit = types.WorkspaceEdit(document_changes=[types.TextDocumentEdit(
                types.OptionalVersionedTextDocumentIdentifier(uri, version), mine)])
        else:
            action.edit = types.WorkspaceEdit(changes={uri: mine})
        return action


def serve_notebooks(server: LanguageServer, engine: Engine, jobs: Jobs) -> None:
    """The notebook documents' handlers: a notebook checked as one module (``Cells``) on open,
    on each change and on save (a newer version drops the run of an older one), its
    diagnostics cleared on close; none for a notebook the configuration excludes."""

    texts: dict[str, Document] = {}  # each open cell's text, changed as a text's is (``Document``)

    def read(uri: str, pause: float = 0.0) -> None:
        held = server.workspace.get_notebook_document(notebook_uri=uri)
        if held is None:
            return
        before = engine.notebooks.get(uri)
        languages = [server.workspace.get_text_document(cell.document).language_id for cell in held.cells]
        cells = Cells.of(held, languages, [texts.get(cell.document) or Document.of(cell.document, None, '')
                                           for cell in held.cells])
        engine.notebooks[uri] = cells
        engine.cell_notebook.update(dict.fromkeys(cells.uris, uri))
        for gone in set(before.uris if before else []) - set(cells.uris):  # a cell deleted: cleared
            engine.cell_notebook.pop(gone, None)
            server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(gone, []))
        jobs.schedule(cells.document, pause)

    def opened(items: Sequence[types.TextDocumentItem]) -> None:
        texts.update((item.uri, Document.of(item.uri, item.version, item.text)) for item in items)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_OPEN)
    def did_open(params: types.DidOpenNotebookDocumentParams) -> None:
        opened(params.cell_text_documents)
        read(params.notebook_document.uri)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_CHANGE)
    def did_change(params: types.DidChangeNotebookDocumentParams) -> None:
        """The cells' texts changed here, not with pygls' copies: it splits lines where
        ``str.splitlines`` does (a form feed, U+2028), the protocol and CPython do not."""
        changes = params.change.cells
        structure = changes.structure if changes else None
        opened(structure.did_open or [] if structure else [])
        for closed in structure.did_close or [] if structure else []:
            texts.pop(closed.uri, None)
        for change in changes.text_content or [] if changes else []:
            text = texts.get(change.document.uri)
            if text is not None:
                texts[text.uri] = text.changed(change.document.version, change.changes, engine.encoding)
        uri = params.notebook_document.uri
        read(uri, engine.pause_after_change(uri, time.monotonic()))

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_SAVE)
    def did_save(params: types.DidSaveNotebookDocumentParams) -> None:
        read(params.notebook_document.uri)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_CLOSE)
    def did_close(params: types.DidCloseNotebookDocumentParams) -> None:
        uri = params.notebook_document.uri
        cells = engine.notebooks.pop(uri, None)
        for table in (engine.documents, engine.linted, engine.plans, engine.changed_at, engine.linters):
            table.pop(uri, None)
        running = engine.tasks.pop(uri, None)
        if running is not None:
            running.cancel()
        for cell in cells.uris if cells else []:
            engine.cell_notebook.pop(cell, None)
            texts.pop(cell, None)
            server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(cell, []))


async def cell_linted(engine: Engine, jobs: Jobs, uri: str) -> tuple[Cells, notebook.Cell] | None:
    """The notebook of the cell ``uri`` once checked, and the code cell (None: a Markdown
    cell, the notebook closed or replaced before its check ended)."""
    document = await jobs.linted(engine.cell_notebook.get(uri, ''))
    cells = engine.notebooks.get(document.uri) if document is not None else None
    if cells is None or cells.document is not document:
        return None
    cell = cells.cell(uri)
    return (cells, cell) if cell is not None else None


async def cell_actions(engine: Engine, jobs: Jobs,
                       params: types.CodeActionParams) -> list[types.CodeAction] | None:
    """A cell's code actions: the module's for the cell's range, each on the cell alone."""
    uri = params.text_document.uri
    found = await cell_linted(engine, jobs, uri)
    if found is None:
        return None
    cells, cell = found
    asked = types.CodeActionParams(types.TextDocumentIdentifier(cells.document.uri), types.Range(
        cells.to_module(cell, params.range.start), cells.to_module(cell, params.range.end)), params.context)
    rows = range(cell.first, cell.first + len(cell.lines))  # the diagnostics are known (``cell_linted``)
    fixable = any(item.fix == rules.SAFE and item.line in rows for item in engine.diagnostics(cells.document))
    actions: list[types.CodeAction] = await jobs.planned(engine.code_actions, cells.document, asked)
    if not (engine.versioned_edits or engine.current(cells.document)):
        return None
    if not fixable:  # nothing in this cell for fix-all
        actions = [action for action in actions if action.kind != FIX_ALL]
    kept = (cells.in_cell(uri, action, engine.versioned_edits) for action in actions)
    return [action for action in kept if action is not None]


async def cell_hover(engine: Engine, jobs: Jobs, params: types.HoverParams) -> types.Hover | None:
    """The hover in a cell: the module's at the cell's position, its range in the cell."""
    found = await cell_linted(engine, jobs, params.text_document.uri)
    if found is None:
        return None
    cells, cell = found
    shown = hover_at(engine, cells.document, cells.to_module(cell, params.position))
    placed = cells.to_cell(shown.range) if shown is not None and shown.range is not None else None
    if shown is not None and placed is not None:
        shown.range = placed[1]
    return shown
