"""How fast ``flake8-escapes server`` answers (issues 33 and 41; a benchmark, not a timed test).

    python tests/bench_server.py [--rounds N] [--lines N,N] [--cold] [--no-resolve] [FILE ...]

For each source (by default: generated files of 2,000 and 20,000 lines, one literal with an
escape on every row and a report on every tenth, and the standard library's ``difflib.py``), a
server is started over stdio with pygls' client, and the wall-clock time is measured from the
client's ``didOpen`` to the ``publishDiagnostics`` of that version (target: 0.3 s; a file opened
before it has had the folder's flake8 configuration read, unless ``--cold``), then from an
incremental ``didChange`` of one character, after a quiet time, to the diagnostics of the new
version (target: 0.1 s on 2,000 lines; 20,000 lines: at most 5x the 2,000 lines' edit), and to
their JSON in the client's hands (``RawTimed``: read, before pygls' client structures each
diagnostic into an object, which a client in another language does not pay), then from
the last change of a burst (five changes 5 ms apart, which the server checks once,
``server.PAUSE`` after the last) to its diagnostics; the server process's CPU time beside the
first two (the wall clock includes the waits of a loaded machine).  Then, as soon as those
diagnostics arrive, the quick fix at the first diagnostic (its edit in hand: the list, as a
client that resolves edits asks it), and after a quiet time (``QUIET``, a save after typing)
fix-all (the list and, for a client that resolves, its edit), then the quick fix at the
diagnostic nearest the edit, each timed apart (target: each within max(0.1 s, 1.5x the edit's
diagnostics)), and fix-all asked as soon as one more edit's diagnostics came (the plans of the
statements the edit did not touch kept: ``api.Linter.fix_all``); ``--no-resolve``: a client
that cannot, which gets the edits with the list.
Then the time a hover on a small text waits while a 20,000-line text is being checked (target
0.1 s).  Last, a notebook of ``--cells`` cells (default 200; every fifth Markdown, a magic line in
every seventh, the code cells ``generated``'s blocks) synced as LSP notebook documents: from
``notebookDocument/didOpen`` to the diagnostics of its last cell, from a one-character edit in
its middle cell (the first from the middle on with a report) to that cell's new diagnostics, and
the quick fix in that cell.  The load
average is printed with the figures.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import sysconfig
import tempfile
import time
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls import uris
from pygls.lsp.client import LanguageClient
from pygls.protocol import LanguageServerProtocol

TARGET_OPEN, TARGET_EDIT, TARGET_HOVER = 0.3, 0.1, 0.1
#: Seconds without a change before fix-all is asked (a save after typing).
QUIET = 1.5


def generated(lines: int) -> str:
    """A module of ``lines`` rows: regex calls, paths, prints; a report on every tenth row."""
    rows = ['import os', 'import re', '']
    kinds = ["    found = re.search(r'\\d+-{n}', text)", "    path = os.path.join(root, 'a\\\\b{n}.txt')",
             "    print('line {n}\\tdone\\n')", "    name = 'x{n}'", "    pattern = '\\d{n}'"]
    n = 0
    while True:
        block = [f'def f{n}(text, root):', *(kind.format(n=n) for kind in kinds[:4 + n % 2]),
                 '    return text']
        if len(rows) + len(block) > lines:
            break
        rows += block
        n += 1
    rows += ['x = 0'] * (lines - len(rows))
    return '\n'.join(rows) + '\n'


def cpu_seconds(pid: int) -> float:
    """The CPU time (user + system) of process ``pid`` so far (Linux's /proc; 0 elsewhere)."""
    try:
        fields = Path(f'/proc/{pid}/stat').read_text().rsplit(')', 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf('SC_CLK_TCK')


class RawTimed(LanguageServerProtocol):
    """The client's protocol, noting when each publication's JSON is in hand (read and parsed, as
    any client reads it), before pygls' client structures each diagnostic into an object."""

    raw: dict[int | None, float]

    def structure_message(self, data: dict[str, Any]) -> Any:
        if data.get('method') == types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS:
            self.raw.setdefault((data.get('params') or {}).get('version'), time.perf_counter())
        return super().structure_message(data)


class Timed:
    def __init__(self) -> None:
        self.client = LanguageClient('bench', '1', protocol_cls=RawTimed)
        self.raw: dict[int | None, float] = {}
        self.client.protocol.raw = self.raw  # type: ignore[attr-defined]
        self.arrived: dict[int | None, float] = {}
        self.event = asyncio.Event()
        self.counts: dict[int | None, int] = {}
        self.found: dict[int | None, list[types.Diagnostic]] = {}

        @self.client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def publish(params: types.PublishDiagnosticsParams) -> None:
            self.arrived[params.version] = time.perf_counter()
            self.counts[params.version] = len(params.diagnostics)
            self.found[params.version] = list(params.diagnostics)
            self.event.set()

    async def wait(self, version: int) -> float:
        while version not in self.arrived:
            self.event.clear()
            await asyncio.wait_for(self.event.wait(), 60)
        return self.arrived[version]


async def fix_all_time(client: LanguageClient, uri: str, where: types.Range) -> float:
    """The seconds to fix-all's edit in hand: the list and, for a client that resolves, its edit."""
    start = time.perf_counter()
    found = await client.text_document_code_action_async(types.CodeActionParams(
        types.TextDocumentIdentifier(uri), where,
        types.CodeActionContext([], only=[types.CodeActionKind.SourceFixAll])))
    for action in found or []:
        if isinstance(action, types.CodeAction) and action.edit is None:
            await client.code_action_resolve_async(action)
    return time.perf_counter() - start


async def measure(text: str, folder: str, cold: bool, resolve: bool) -> tuple[float, ...]:
    timed = Timed()
    client = timed.client
    await client.start_io(sys.executable, '-m', 'flake8_escapes', 'server', cwd=folder)
    resolving = types.ClientCodeActionResolveOptions(['edit']) if resolve else None
    capabilities = types.ClientCapabilities(text_document=types.TextDocumentClientCapabilities(
        code_action=types.CodeActionClientCapabilities(resolve_support=resolving)))
    await client.initialize_async(types.InitializeParams(
        capabilities=capabilities, root_uri=uris.from_fs_path(folder)))
    client.initialized(types.InitializedParams())
    uri = uris.from_fs_path(str(Path(folder) / 'bench.py'))
    # the configuration is read once per folder, by the first file (``--cold``: this one)
    if not cold:
        warm = uris.from_fs_path(str(Path(folder) / 'warm.py'))
        client.text_document_did_open(types.DidOpenTextDocumentParams(
            types.TextDocumentItem(warm, 'python', 0, '')))
        await timed.wait(0)
    pid = client._server.pid if client._server else 0
    start, cpu = time.perf_counter(), cpu_seconds(pid)
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        types.TextDocumentItem(uri, 'python', 1, text)))
    opened = await timed.wait(1) - start
    opened_cpu = cpu_seconds(pid) - cpu
    line = len(text.splitlines()) // 2
    at = types.Position(line, 0)
    start, cpu = time.perf_counter(), cpu_seconds(pid)
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        types.VersionedTextDocumentIdentifier(version=2, uri=uri),
        [types.TextDocumentContentChangePartial(types.Range(at, at), '#')]))
    edited = await timed.wait(2) - start
    edited_raw = timed.raw[2] - start
    edited_cpu = cpu_seconds(pid) - cpu
    await asyncio.sleep(0.2)  # a quiet time
    for version in range(3, 8):  # a burst: the server checks its last version once
        at = types.Position(line, version - 2)
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(version=version, uri=uri),
            [types.TextDocumentContentChangePartial(types.Range(at, at), '#')]))
        start = time.perf_counter()
        await asyncio.sleep(0.005)
    burst = await timed.wait(7) - start
    quick = fix_all = typed = again = 0.0
    if timed.found[7]:  # as soon as the diagnostics are in: the quick fix at the first, then fix-all
        diagnostic = timed.found[7][0]
        start = time.perf_counter()
        await client.text_document_code_action_async(types.CodeActionParams(
            types.TextDocumentIdentifier(uri), diagnostic.range,
            types.CodeActionContext([diagnostic], only=[types.CodeActionKind.QuickFix])))
        quick = time.perf_counter() - start
        await asyncio.sleep(QUIET)  # fix-all on save: after a quiet time (the server plans it ahead)
        fix_all = await fix_all_time(client, uri, diagnostic.range)
        nearest = min(timed.found[7], key=lambda item: abs(item.range.start.line - line))
        start = time.perf_counter()
        await client.text_document_code_action_async(types.CodeActionParams(
            types.TextDocumentIdentifier(uri), nearest.range,
            types.CodeActionContext([nearest], only=[types.CodeActionKind.QuickFix])))
        typed = time.perf_counter() - start
        at = types.Position(line, 0)  # one more edit, then fix-all at once: the statements' plans kept
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(version=8, uri=uri),
            [types.TextDocumentContentChangePartial(types.Range(at, at), '#')]))
        await timed.wait(8)
        again = await fix_all_time(client, uri, diagnostic.range)
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return (opened, edited, opened_cpu, edited_cpu, burst, quick, fix_all, typed, again, edited_raw,
            timed.counts[1])


async def hover_wait(big: str, folder: str) -> float:
    """The time a hover on a small text (checked already) waits while ``big`` is being checked."""
    timed = Timed()
    client = timed.client
    await client.start_io(sys.executable, '-m', 'flake8_escapes', 'server', cwd=folder)
    await client.initialize_async(types.InitializeParams(
        capabilities=types.ClientCapabilities(), root_uri=uris.from_fs_path(folder)))
    client.initialized(types.InitializedParams())
    small = uris.from_fs_path(str(Path(folder) / 'small.py'))
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        types.TextDocumentItem(small, 'python', 0, "x = '\\d'\n")))
    await timed.wait(0)
    client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(
        uris.from_fs_path(str(Path(folder) / 'big.py')), 'python', 1, big)))
    await asyncio.sleep(0.05)  # the big text's check under way
    start = time.perf_counter()
    hover = await client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(small), types.Position(0, 5)))
    waited = time.perf_counter() - start
    assert hover is not None
    checking = 1 not in timed.arrived
    await timed.wait(1)
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return waited if checking else float('nan')


def notebook_cells(count: int) -> list[tuple[types.NotebookCellKind, str, str]]:
    """(kind, language, text) of ``count`` cells: every fifth Markdown, the others ``generated``'s
    blocks (the first the imports), a ``%matplotlib`` line in every seventh."""
    first, *blocks = generated(count * 8).split('\ndef ')
    cells = []
    for index in range(count):
        if index % 5 == 4:
            cells.append((types.NotebookCellKind.Markup, 'markdown', f"# Part {index}\nUse '\\d' here.\n"))
            continue
        text = first if index == 0 else 'def ' + blocks[index % len(blocks)]
        magic = '%matplotlib inline\n' if index % 7 == 6 else ''
        cells.append((types.NotebookCellKind.Code, 'python', magic + text.rstrip('\n') + '\n'))
    return cells


async def notebook_times(count: int, folder: str) -> tuple[float, float, float, int]:
    """A notebook of ``count`` cells: (didOpen to its last cell's diagnostics, an edit in its
    middle cell to that cell's, the quick fix there in hand, the diagnostics in all)."""
    client = LanguageClient('bench', '1')
    arrived: dict[tuple[str, int | None], float] = {}
    found: dict[tuple[str, int | None], list[types.Diagnostic]] = {}
    event = asyncio.Event()

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def publish(params: types.PublishDiagnosticsParams) -> None:
        arrived[params.uri, params.version] = time.perf_counter()
        found[params.uri, params.version] = list(params.diagnostics)
        event.set()

    async def wait(uri: str, version: int) -> float:
        while (uri, version) not in arrived:
            event.clear()
            await asyncio.wait_for(event.wait(), 60)
        return arrived[uri, version]
    await client.start_io(sys.executable, '-m', 'flake8_escapes', 'server', cwd=folder)
    syncs = types.NotebookDocumentClientCapabilities(types.NotebookDocumentSyncClientCapabilities())
    await client.initialize_async(types.InitializeParams(
        capabilities=types.ClientCapabilities(notebook_document=syncs), root_uri=uris.from_fs_path(folder)))
    client.initialized(types.InitializedParams())
    cells = notebook_cells(count)
    path = Path(folder) / 'bench.ipynb'
    cell_uris = [f'vscode-notebook-cell:{path}#C{index}' for index in range(count)]
    start = time.perf_counter()
    listed = [types.NotebookCell(kind, uri) for (kind, _, _), uri in zip(cells, cell_uris)]
    texts = [types.TextDocumentItem(uri, language, 1, text)
             for (_, language, text), uri in zip(cells, cell_uris)]
    client.notebook_document_did_open(types.DidOpenNotebookDocumentParams(
        types.NotebookDocument(uris.from_fs_path(str(path)), 'jupyter-notebook', 1, listed), texts))
    opened = await wait(cell_uris[-1], 1) - start
    middle = next(index for index in range(count // 2, count) if found[cell_uris[index], 1])
    uri = cell_uris[middle]
    at = types.Position(1, 4)  # 'found' becomes 'xfound': the cell still parses
    start = time.perf_counter()
    change = types.NotebookDocumentCellContentChanges(
        types.VersionedTextDocumentIdentifier(version=2, uri=uri),
        [types.TextDocumentContentChangePartial(types.Range(at, at), 'x')])
    client.notebook_document_did_change(types.DidChangeNotebookDocumentParams(
        types.VersionedNotebookDocumentIdentifier(2, uris.from_fs_path(str(path))),
        types.NotebookDocumentChangeEvent(cells=types.NotebookDocumentCellChanges(text_content=[change]))))
    edited = await wait(uri, 2) - start
    quick = float('nan')
    if found[uri, 2]:
        diagnostic = found[uri, 2][0]
        start = time.perf_counter()
        await client.text_document_code_action_async(types.CodeActionParams(
            types.TextDocumentIdentifier(uri), diagnostic.range,
            types.CodeActionContext([diagnostic], only=[types.CodeActionKind.QuickFix])))
        quick = time.perf_counter() - start
    total = sum(len(found[cell, 1]) for cell in cell_uris)
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return opened, edited, quick, total


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--rounds', type=int, default=5)
    parser.add_argument('--lines', default='2000,20000', help='the generated sources, comma-separated')
    parser.add_argument('--cold', action='store_true',
                        help="the file is the session's first: its time includes reading the configuration")
    parser.add_argument('--no-resolve', action='store_true',
                        help='a client that cannot resolve a code action (fix-all planned with the rest)')
    parser.add_argument('--cells', type=int, default=200, help="the notebook's cells (0: no notebook)")
    parser.add_argument('files', nargs='*')
    args = parser.parse_args()
    sources = [(f'generated, {lines} lines', generated(int(lines))) for lines in args.lines.split(',')]
    names = args.files or [str(Path(sysconfig.get_paths()['stdlib']) / 'difflib.py')]
    sources += [(name, Path(name).read_text(encoding='utf-8')) for name in names]
    worst = 0
    edits: dict[str, float] = {}
    raws: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as folder:
        for label, text in sources:
            times = [asyncio.run(measure(text, folder, args.cold, not args.no_resolve))
                     for _ in range(args.rounds)]
            opened, edited, opened_cpu, edited_cpu, burst, quick, fix_all, typed, again, raw = (
                statistics.median(item[index] for item in times) for index in range(10))
            edits[label] = edited
            raws[label] = raw
            hand = max(0.1, 1.5 * edited)
            print(f'{label} ({len(text.splitlines())} lines, {times[0][10]} diagnostics; '
                  f'load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs): '
                  f'first diagnostics {opened:.3f} s (target {TARGET_OPEN}; server CPU {opened_cpu:.2f} s), '
                  f'after an edit {edited:.3f} s ({raw:.3f} s to the JSON in hand; server CPU '
                  f'{edited_cpu:.2f} s), '
                  f'after a burst of 5 {burst:.3f} s; quick fix in hand {quick:.3f} s, '
                  f'fix-all {fix_all:.3f} s (target {hand:.3f}; '
                  f'{"a client without resolve" if args.no_resolve else "resolved"}), then the quick '
                  f'fix at the diagnostic nearest the edit {typed:.3f} s, fix-all asked at once after '
                  f'one more edit {again:.3f} s; '
                  f'median of {args.rounds}')
            worst = max(worst, opened > TARGET_OPEN, quick > hand, fix_all > hand)
        small, big = (edits.get(f'generated, {lines} lines') for lines in ('2000', '20000'))
        raw_small, raw_big = (raws.get(f'generated, {lines} lines') for lines in ('2000', '20000'))
        if small and big and raw_small and raw_big:
            print(f'20,000 lines against 2,000: an edit {big / small:.1f}x to the diagnostics as pygls\' '
                  f'client structures them, {raw_big / raw_small:.1f}x to their JSON in hand (target 5)')
            worst = max(worst, big > 5 * small)
        waits = [asyncio.run(hover_wait(generated(20000), folder)) for _ in range(args.rounds)]
        waited = statistics.median(waits)
        print(f'a hover on a small text while 20,000 lines are checked: {waited:.3f} s '
              f'(target {TARGET_HOVER}; load average {os.getloadavg()[0]:.1f}); median of {args.rounds}')
        worst = max(worst, waited > TARGET_HOVER)
        if args.cells:
            runs = [asyncio.run(notebook_times(args.cells, folder)) for _ in range(args.rounds)]
            opened, edited, quick = (statistics.median(item[index] for item in runs) for index in range(3))
            print(f'a notebook of {args.cells} cells ({runs[0][3]} diagnostics; load average '
                  f'{os.getloadavg()[0]:.1f}): first diagnostics of its last cell {opened:.3f} s, after an '
                  f'edit in its middle cell {edited:.3f} s, the quick fix there in hand {quick:.3f} s; '
                  f'median of {args.rounds}')
    return int(worst)


if __name__ == '__main__':
    sys.exit(main())
