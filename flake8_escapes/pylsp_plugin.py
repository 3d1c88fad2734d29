"""flake8-escapes' code actions in pylsp (python-lsp-server), for the ESC
diagnostics its flake8 plugin shows: a quick fix per diagnostic, "Fix all safe
escape problems" (``source.fixAll.flake8-escapes``) and "Ignore ESCnnn on this
line".  Every edit comes from the public API (``flake8_escapes.api``); this
module only maps its positions to the protocol's.

pylsp finds it through the ``pylsp`` entry point group; it needs the plain
install (no ``[server]`` extra).  pylsp's flake8 plugin places a diagnostic at
the escape's code-point column (flake8's column), not its UTF-16 one, so a
diagnostic is matched at either; the edits are in UTF-16, the protocol's
default, which pylsp never changes.
"""
from __future__ import annotations

import importlib
import io
import logging
import os
from typing import Any, Callable, Iterable, NamedTuple, TypeVar

from flake8_escapes import api
from flake8_escapes.config import Config, Unusable

LOG = logging.getLogger(__name__)
Hook = TypeVar('Hook', bound=Callable[..., Any])


def _hook_marker() -> Callable[[Hook], Hook]:
    """pylsp's ``hookimpl`` (pluggy's marker for the project 'pylsp'); pluggy
    comes with pylsp, and without it the hook stays a plain function."""
    try:
        marker: Callable[[Hook], Hook] = importlib.import_module('pluggy').HookimplMarker('pylsp')
    except ImportError:
        return lambda function: function
    return marker


hookimpl = _hook_marker()

FIX_ALL = 'source.fixAll.flake8-escapes'
QUICK_FIX = 'quickfix'
#: pylsp's flake8 settings that choose the codes shown, as flake8's options.
OPTIONS = {'select': '--select', 'ignore': '--ignore', 'extendSelect': '--extend-select',
           'extendIgnore': '--extend-ignore'}

Json = dict[str, Any]


def utf16(line: str, column: int) -> int:
    """The UTF-16 column of code point ``column`` of ``line``."""
    return len(line[:column].encode('utf-16-le')) // 2


def position(lines: list[str], line: int, column: int) -> Json:
    """The protocol's position of 1-based ``line``, code point ``column``."""
    text = lines[line - 1] if 0 < line <= len(lines) else ''
    return {'line': line - 1, 'character': utf16(text, column)}


def text_edit(lines: list[str], edit: api.Edit) -> Json:
    return {'range': {'start': position(lines, edit.line, edit.col),
                      'end': position(lines, edit.line, edit.col + edit.length)},
            'newText': edit.text}


def workspace_edit(uri: str, lines: list[str], edits: Iterable[api.Edit]) -> Json:
    return {'changes': {uri: [text_edit(lines, edit) for edit in edits]}}


def wanted(kind: str, only: list[str] | None) -> bool:
    """Does the client's ``only`` filter let actions of ``kind`` through?"""
    return not only or any(kind == item or kind.startswith(item + '.') for item in only)


def settings_for(config: Any, workspace: Any, document: Any) -> Config | None:
    """The workspace's flake8 configuration, with pylsp's flake8 settings that
    choose codes; None (every code) when flake8 refuses it."""
    plugin = config.plugin_settings('flake8', document_path=document.path)
    argv = []
    for name, option in OPTIONS.items():
        value = plugin.get(name)
        if value:
            argv.append(f'{option}={",".join(value) if isinstance(value, list) else value}')
    if plugin.get('config'):
        argv.append(f'--config={os.path.abspath(os.path.expanduser(plugin["config"]))}')
    try:
        return api.settings(workspace.root_path or os.getcwd(), argv)
    except Unusable as error:
        LOG.warning('flake8-escapes: the flake8 configuration is not usable: %s', error)
        return None


def filename_of(document: Any) -> str:
    """The buffer's path, for per-file-ignores (absolute, as the API prefers)."""
    return str(document.path) if document.path else 'stdin'


def matches(lines: list[str], shown: Json, found: api.Diagnostic) -> bool:
    """Is pylsp's diagnostic ``shown`` the report ``found``?"""
    start = shown.get('range', {}).get('start', {})
    if shown.get('code') != found.code or start.get('line') != found.line - 1:
        return False
    return start.get('character') in (found.column, utf16(lines[found.line - 1], found.column))


class Buffer(NamedTuple):
    """The document as the API reads it: its text, lines, configuration and name."""

    uri: str
    text: str
    lines: list[str]
    settings: Config | None
    filename: str

    def edit(self, edits: Iterable[api.Edit]) -> Json:
        return workspace_edit(self.uri, self.lines, edits)


def buffer_of(config: Any, workspace: Any, document: Any) -> Buffer:
    text = document.source
    return Buffer(document.uri, text, io.StringIO(text, newline='').readlines(),
                  settings_for(config, workspace, document), filename_of(document))


def quick_fixes(buffer: Buffer, shown: list[Json]) -> list[Json]:
    """A fix and a noqa action per ESC diagnostic pylsp shows (one noqa per line and code)."""
    found = api.lint(buffer.text, buffer.settings, buffer.filename)
    pairs = [(item, next((report for report in found if matches(buffer.lines, item, report)), None))
             for item in shown]
    known = [(item, report) for item, report in pairs if report is not None]
    noqas = api.noqa_edits(buffer.text, [report for _, report in known])  # one pass of the tokenizer
    actions = []
    silenced: set[tuple[int, str]] = set()
    for (item, report), noqa in zip(known, noqas):
        planned = api.fixes(buffer.text, [report], buffer.settings, buffer.filename)[0]
        if planned.edits:
            actions.append({'title': api.fix_title(report, planned.edits), 'kind': QUICK_FIX,
                            'diagnostics': [item], 'isPreferred': report.code not in api.UNSAFE,
                            'edit': buffer.edit(planned.edits)})
        if (report.line, report.code) in silenced:
            noqa = None
        silenced.add((report.line, report.code))
        if noqa is not None:
            actions.append({'title': api.noqa_title(report), 'kind': QUICK_FIX,
                            'diagnostics': [item], 'edit': buffer.edit([noqa])})
    return actions


def fix_all(buffer: Buffer) -> list[Json]:
    planned = api.fix(buffer.text, buffer.settings, buffer.filename)
    if not planned.edits:
        return []
    return [{'title': api.FIX_ALL_TITLE, 'kind': FIX_ALL, 'edit': buffer.edit(planned.edits)}]


def code_actions(config: Any, workspace: Any, document: Any, context: Json) -> list[Json]:
    only = context.get('only')
    shown = [item for item in context.get('diagnostics', [])
             if str(item.get('code', '')).startswith('ESC')]
    quick = bool(shown) and wanted(QUICK_FIX, only)
    # fix all runs the whole fixer: offered where asked for by kind, or on an ESC diagnostic
    # (not on every cursor move of a client that asks for every kind)
    whole = (bool(only) or bool(shown)) and wanted(FIX_ALL, only)
    if not (quick or whole) or '\\' not in document.source:
        return []
    buffer = buffer_of(config, workspace, document)
    if api.excluded(buffer.settings, buffer.filename):  # flake8 in the project would not read it
        return []
    return (quick_fixes(buffer, shown) if quick else []) + (fix_all(buffer) if whole else [])


@hookimpl
def pylsp_code_actions(config: Any, workspace: Any, document: Any, range: Json,  # noqa: A002 (pylsp's name)
                       context: Json) -> list[Json]:
    """pylsp's hook: the code actions for ``context``'s diagnostics (``range``
    is not needed: the diagnostics carry their own)."""
    del range
    try:
        return code_actions(config, workspace, document, context)
    except Exception:  # a bug here must not fail pylsp's other plugins' actions
        LOG.exception('flake8-escapes: no code actions for %s', document.uri)
        return []
