"""``flake8-escapes server`` and LSP 3.17 notebook documents, driven by pygls' client sending
real ``notebookDocument/*`` notifications (as VS Code's Jupyter and jupyterlab-lsp do): the
notebook checked as one module in cell order, each code cell's diagnostics on its own URI at
cell-relative positions, quick fixes, noqa and fix-all on the cell, closing clears.  The
expected ranges and texts are written out by hand (UTF-16 units counted from the text)."""
from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

pytest.importorskip('pygls', reason='the server tests need pygls: pip install "flake8-escapes[server]"')
from lsprotocol import types  # noqa: E402
from test_server import Session, applied, edits_of, run, utf16  # noqa: E402

pytestmark = [
    pytest.mark.server,
    pytest.mark.filterwarnings('ignore:.*asyncio.iscoroutinefunction.*:DeprecationWarning'),
]

CODE, MARKDOWN = types.NotebookCellKind.Code, types.NotebookCellKind.Markup
SUB = "found = sub(r'(a)', '<\\1>', s)\n"
#: (kind, language, text) of each cell: the import in cell 1 makes cell 3's '\1' a regex
#: replacement's (ESC401: without it, ``sub`` is any function and '\1' no report); the Markdown
#: cell, the magic line and the %%bash cell give nothing.
CELLS = [
    (CODE, 'python', 'from re import sub\n'),
    (MARKDOWN, 'markdown', "Call `re.sub(r'(a)', '<\\1>', s)` and `x = '\\d'`\n"),
    (CODE, 'python', '%matplotlib inline\n' + SUB),
    (CODE, 'python', "%%bash\necho '\\d' '\\1'\n"),
    (CODE, 'python', "x = '😀\\d'"),  # no line end: the last line of a cell as an editor holds it
]


def cell_uri(session: Session, name: str, number: int) -> str:
    """A cell's URI as VS Code makes it: the notebook's path and a fragment per cell."""
    return f'vscode-notebook-cell:{session.folder / name}#C{number}'


def open_notebook(session: Session, name: str, cells: list[tuple[str, str, str]] = CELLS) -> list[str]:
    """Open ``name`` as a Jupyter notebook document of ``cells``; the cells' URIs."""
    uris = [cell_uri(session, name, number) for number in range(1, len(cells) + 1)]
    session.client.notebook_document_did_open(types.DidOpenNotebookDocumentParams(
        types.NotebookDocument(session.uri(name), 'jupyter-notebook', 1,
                               [types.NotebookCell(kind, uri) for (kind, _, _), uri in zip(cells, uris)]),
        [types.TextDocumentItem(uri, language, 1, text) for (_, language, text), uri in zip(cells, uris)]))
    return uris


def edit_cell(session: Session, name: str, version: int, uri: str, cell_version: int, text: str) -> None:
    """A notebook change that replaces the whole text of the cell ``uri``."""
    session.client.notebook_document_did_change(types.DidChangeNotebookDocumentParams(
        types.VersionedNotebookDocumentIdentifier(version, session.uri(name)),
        types.NotebookDocumentChangeEvent(cells=types.NotebookDocumentCellChanges(text_content=[
            types.NotebookDocumentCellContentChanges(
                types.VersionedTextDocumentIdentifier(version=cell_version, uri=uri),
                [types.TextDocumentContentChangeWholeDocument(text)])]))))


def spans(found: list[types.Diagnostic]) -> list[tuple[str, int, int, int, int]]:
    return [(str(item.code), item.range.start.line, item.range.start.character, item.range.end.line,
             item.range.end.character) for item in found]


ESC401 = ('ESC401', 1, SUB.index('\\1'), 1, SUB.index('\\1') + 2)
ESC301 = ('ESC301', 0, utf16("x = '😀"), 0, utf16("x = '😀\\d"))


def test_notebook_sync_is_advertised_and_each_cell_gets_its_diagnostics(tmp_path: Path) -> None:
    async def body(session: Session) -> None:
        sync = session.capabilities.notebook_document_sync
        assert sync is not None, 'no notebookDocumentSync advertised'
        selector, = sync.notebook_selector
        assert selector.notebook == 'jupyter-notebook'
        assert [cell.language for cell in selector.cells] == ['python']
        uris = open_notebook(session, 'nb.ipynb')
        found = [spans(await session.diagnostics(uri, 1)) for uri in uris]
        assert found == [[], [], [ESC401], [], [ESC301]]
        assert 'backreference' in (await session.diagnostics(uris[2], 1))[0].message
    run(tmp_path, body)


def test_an_edit_in_one_cell_updates_its_diagnostics_and_the_others_keep_theirs(tmp_path: Path) -> None:
    async def body(session: Session) -> None:
        uris = open_notebook(session, 'nb.ipynb')
        assert spans(await session.diagnostics(uris[4], 1)) == [ESC301]
        edit_cell(session, 'nb.ipynb', 2, uris[4], 2, "x = 1\ny = '\\w'\n")
        assert spans(await session.diagnostics(uris[4], 2)) == [('ESC301', 1, 5, 1, 7)]
        assert spans(session.published[uris[2]][-1].diagnostics) == [ESC401]  # published before cell 5
        edit_cell(session, 'nb.ipynb', 3, uris[0], 2, 'import os\n')  # no sub of re's: no ESC401
        assert spans(await session.diagnostics(uris[0], 2)) == []
        await session.latest_where(uris[2], lambda found: found == [])  # cells published in order
        assert spans(session.published[uris[4]][-1].diagnostics) == [('ESC301', 1, 5, 1, 7)]
    run(tmp_path, body)


def test_quick_fix_noqa_and_fix_all_edit_the_cell_they_were_asked_in(tmp_path: Path) -> None:
    cells = [*CELLS, (CODE, 'python', "y = '\\w' + '\\s'\n")]

    async def body(session: Session) -> None:
        uris = open_notebook(session, 'nb.ipynb', cells)
        diagnostic, = await session.diagnostics(uris[2], 1)
        fix, noqa = await session.actions(uris[2], diagnostic, only=['quickfix'])
        assert fix.title == 'Make raw (changes the value: `\\1` becomes a backreference)'
        assert fix.diagnostics[0].range == diagnostic.range  # in the cell's coordinates
        text = CELLS[2][2]
        assert applied(text, edits_of(fix, uris[2])) == text.replace("'<\\1>'", "r'<\\1>'")
        assert applied(text, edits_of(noqa, uris[2])) == text.replace(', s)\n', ', s)  # noqa: ESC401\n')
        safe, = await session.diagnostics(uris[4], 1)
        assert [item.title for item in await session.actions(uris[4], safe, only=['quickfix'])] == [
            'Make raw (same value)', 'Ignore ESC301 on this line']
        action, = await session.actions(uris[5], only=['source.fixAll'])
        assert applied(cells[5][2], edits_of(action, uris[5])) == "y = r'\\w' + r'\\s'\n"  # this cell's only
        action, = await session.actions(uris[4], only=['source.fixAll'])
        assert applied(CELLS[4][2], edits_of(action, uris[4])) == "x = r'😀\\d'"
        assert await session.actions(uris[1], only=['source.fixAll']) is None or \
            await session.actions(uris[1], only=['source.fixAll']) == []  # a Markdown cell: nothing
    run(tmp_path, body)


def test_a_resolved_fix_all_edits_the_cell(tmp_path: Path) -> None:
    async def body(session: Session) -> None:
        uris = open_notebook(session, 'nb.ipynb')
        await session.diagnostics(uris[4], 1)
        action, = await session.actions(uris[4], only=['source.fixAll'])
        resolved = await session.client.code_action_resolve_async(action)
        assert applied(CELLS[4][2], edits_of(resolved, uris[4])) == "x = r'😀\\d'"
    run(tmp_path, body, resolve=True)


def test_hover_in_a_cell(tmp_path: Path) -> None:
    async def body(session: Session) -> None:
        uris = open_notebook(session, 'nb.ipynb')
        diagnostic, = await session.diagnostics(uris[2], 1)
        hover = await session.client.text_document_hover_async(types.HoverParams(
            types.TextDocumentIdentifier(uris[2]), diagnostic.range.start))
        assert hover is not None and hover.range == diagnostic.range
        assert hover.contents.value.startswith('**ESC401**')
    run(tmp_path, body)


def test_close_clears_every_cell(tmp_path: Path) -> None:
    async def body(session: Session) -> None:
        uris = open_notebook(session, 'nb.ipynb')
        assert await session.diagnostics(uris[2], 1)
        session.client.notebook_document_did_close(types.DidCloseNotebookDocumentParams(
            types.NotebookDocumentIdentifier(session.uri('nb.ipynb')),
            [types.TextDocumentIdentifier(uri) for uri in uris]))
        for uri in uris:
            assert await session.latest_where(uri, lambda found: found == []) == []
        assert await session.actions(uris[2], only=['quickfix']) in (None, [])
    run(tmp_path, body)


def test_a_notebook_the_project_excludes_gets_nothing(tmp_path: Path) -> None:
    (tmp_path / 'setup.cfg').write_text('[flake8]\nexclude = skipped.ipynb\n')

    async def body(session: Session) -> None:
        uris = open_notebook(session, 'skipped.ipynb')
        assert [await session.diagnostics(uri, 1) for uri in uris] == [[]] * len(uris)
        assert await session.actions(uris[4], only=['source.fixAll']) in (None, [])
        checked = open_notebook(session, 'nb.ipynb')  # the same cells, not excluded
        assert spans(await session.diagnostics(checked[4], 1)) == [ESC301]
    run(tmp_path, body)


def test_cells_added_and_removed_and_a_cell_in_another_language(tmp_path: Path) -> None:
    async def body(session: Session) -> None:
        uris = open_notebook(session, 'nb.ipynb')
        assert spans(await session.diagnostics(uris[4], 1)) == [ESC301]
        new, sql = cell_uri(session, 'nb.ipynb', 6), cell_uri(session, 'nb.ipynb', 7)
        session.client.notebook_document_did_change(types.DidChangeNotebookDocumentParams(
            types.VersionedNotebookDocumentIdentifier(2, session.uri('nb.ipynb')),
            types.NotebookDocumentChangeEvent(cells=types.NotebookDocumentCellChanges(
                structure=types.NotebookDocumentCellChangeStructure(
                    types.NotebookCellArrayChange(4, 1, [types.NotebookCell(CODE, new),
                                                         types.NotebookCell(CODE, sql)]),
                    did_open=[types.TextDocumentItem(new, 'python', 1, "z = '\\w'\n"),
                              types.TextDocumentItem(sql, 'sql', 1, "select '\\d'\n")],
                    did_close=[types.TextDocumentIdentifier(uris[4])])))))
        assert await session.latest_where(uris[4], lambda found: found == []) == []  # the cell removed
        assert spans(await session.diagnostics(new, 1)) == [('ESC301', 0, 5, 0, 7)]
        assert await session.diagnostics(sql, 1) == []  # a SQL cell is not Python
        assert spans(session.published[uris[2]][-1].diagnostics) == [ESC401]
    run(tmp_path, body)


def test_a_cell_is_changed_where_the_protocol_splits_lines(tmp_path: Path) -> None:
    """A form feed is no line end for the protocol nor for CPython (pygls' own copy of a cell
    splits there): an incremental change in the line after one lands where the client meant."""
    cells = [(CODE, 'python', "a = '\x0c'\nx = '\\d'\n")]

    async def body(session: Session) -> None:
        uri, = open_notebook(session, 'nb.ipynb', cells)
        assert spans(await session.diagnostics(uri, 1)) == [('ESC301', 1, 5, 1, 7)]
        at = types.Position(1, 4)
        session.client.notebook_document_did_change(types.DidChangeNotebookDocumentParams(
            types.VersionedNotebookDocumentIdentifier(2, session.uri('nb.ipynb')),
            types.NotebookDocumentChangeEvent(cells=types.NotebookDocumentCellChanges(text_content=[
                types.NotebookDocumentCellContentChanges(
                    types.VersionedTextDocumentIdentifier(version=2, uri=uri),
                    [types.TextDocumentContentChangePartial(types.Range(at, at), 'r')])]))))
        assert await session.diagnostics(uri, 2) == []  # x = r'\d'
    run(tmp_path, body)


def test_a_newer_version_of_the_notebook_drops_the_checks_of_older_ones(tmp_path: Path) -> None:
    """A burst of edits in a cell: its diagnostics come for the last version, in order, never
    an older version's after a newer one's."""
    async def body(session: Session) -> None:
        uris = open_notebook(session, 'nb.ipynb')
        await session.diagnostics(uris[4], 1)
        for count in range(2, 12):
            edit_cell(session, 'nb.ipynb', count, uris[4], count, "x = '" + '\\d' * count + "'\n")
        assert len(await session.diagnostics(uris[4], 11)) == 11
        await asyncio.sleep(0.5)  # anything still running would be published by now
        versions = [params.version for params in session.published[uris[4]]]
        assert versions == sorted(versions) and versions[-1] == 11
    run(tmp_path, body)


def test_fix_all_is_offered_only_in_a_cell_with_a_safe_fix_to_resolve(tmp_path: Path) -> None:
    async def body(session: Session) -> None:
        uris = open_notebook(session, 'nb.ipynb')
        await session.diagnostics(uris[4], 1)
        assert await session.actions(uris[0], only=['source.fixAll']) == []  # the import's cell
        assert await session.actions(uris[2], only=['source.fixAll']) == []  # ESC401 only: unsafe
        action, = await session.actions(uris[4], only=['source.fixAll'])
        assert action.edit is None  # made when resolved
    run(tmp_path, body, resolve=True)


def test_a_cell_that_does_not_parse_keeps_the_other_cells_checked_as_check_does(tmp_path: Path) -> None:
    """A cell being typed (here a Python 2 print) does not parse: the other cells are still checked
    as one module (cell 3's ESC401 needs the import of cell 1 and the AST), and that cell gets the
    reports its text gives, as ``check`` reads such a notebook (``api.cells_checked``)."""
    cells = [*CELLS[:4], (CODE, 'python', 'print "x\\d"\n')]

    async def body(session: Session) -> None:
        uris = open_notebook(session, 'nb.ipynb', cells)
        assert spans(await session.diagnostics(uris[4], 1)) == [('ESC301', 0, 8, 0, 10)]
        assert spans(session.published[uris[2]][-1].diagnostics) == [ESC401]
        edit_cell(session, 'nb.ipynb', 2, uris[4], 2, "x = '\\d'\n")  # the cell parses again
        assert spans(await session.diagnostics(uris[4], 2)) == [('ESC301', 0, 5, 0, 7)]
        assert spans(session.published[uris[2]][-1].diagnostics) == [ESC401]
    run(tmp_path, body)
