"""The files of a survey tree: which files, which package each one is in, and Python 2 files through lib2to3.

Shared by tests/survey.py (the checker's reports) and tests/recall_finder.py (candidates found without
the checker's rules), so that both read the same files and name them the same way.  Nothing here
imports flake8_escapes.
"""
from __future__ import annotations

import functools
import os
import re
import warnings
from typing import Any

#: How tests/fetch_releases.py names a package folder: ``<name>-<version>``.
PACKAGE = re.compile(r'(?P<name>.+?)-(?P<version>\d[^-]*(?:-.*)?)$')
#: ... inside a folder per "before" date: ``<date>`` (``before <date>`` accepted too).
GROUP = re.compile(r'(before )?\d{4}-\d\d-\d\d$')


def python_files(paths: list[str]) -> list[str]:
    """The .py files of ``paths`` (files, or folders walked in sorted order, site-packages left out)."""
    found = []
    for path in paths:
        if os.path.isfile(path):
            found.append(path)
            continue
        for folder, dirs, files in os.walk(path):
            dirs[:] = sorted(d for d in dirs if d not in ('site-packages', '__pycache__'))
            found.extend(os.path.join(folder, f) for f in sorted(files) if f.endswith('.py'))
    return found


def located(path: str, roots: list[str]) -> tuple[str, str, str]:
    """(package name, version, file relative to the package folder) of ``path``."""
    for root in roots:
        relative = os.path.relpath(path, root)
        if relative.startswith(os.pardir) or os.path.isabs(relative):
            continue
        parts = relative.replace(os.sep, '/').split('/')
        base = os.path.basename(os.path.normpath(root))
        if not GROUP.match(base) and (match := PACKAGE.match(base)):  # ROOT is the package folder
            return match['name'], match['version'], '/'.join(parts)
        depth = 1 if len(parts) > 2 and GROUP.match(parts[0]) else 0  # ROOT/<group>/<name>-<version>/...
        if len(parts) > depth + 1 and (match := PACKAGE.match(parts[depth])):
            return match['name'], match['version'], '/'.join(parts[depth + 1:])
        if len(parts) > 1:
            return parts[0], '', '/'.join(parts[1:])
        return os.path.basename(root.rstrip(os.sep)) or root, '', parts[0]
    return '', '', path


@functools.lru_cache(maxsize=None)
def refactoring_tool() -> Any:  # lib2to3 is imported only when --py2 asks for it
    """lib2to3's converter with all its fixers, built once."""
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')  # lib2to3 is deprecated
        from lib2to3 import refactor
    return refactor.RefactoringTool(refactor.get_fixers_from_package('lib2to3.fixes'))


def converted(path: str) -> str | None:
    """The file's text after lib2to3, or None if it cannot be read or converted."""
    tool = refactoring_tool()
    try:
        with open(path, encoding='utf-8') as f:
            text = f.read()
        return str(tool.refactor_string(text if text.endswith('\n') else text + '\n', path))
    except Exception:  # anything lib2to3 cannot read is skipped
        return None


def why_unreadable(path: str) -> str:
    """Why a file could not be read as Python 3: the parser's or the decoder's one-line error."""
    try:
        with open(path, 'rb') as f, warnings.catch_warnings():
            warnings.simplefilter('ignore')  # the escapes CPython warns about
            compile(f.read(), path, 'exec', dont_inherit=True, flags=0x400)  # ast.PyCF_ONLY_AST
    except (SyntaxError, ValueError, UnicodeError, OSError, RecursionError, MemoryError) as error:
        where = f' (line {error.lineno})' if isinstance(error, SyntaxError) and error.lineno else ''
        return f'{type(error).__name__}: {str(getattr(error, "msg", error)).splitlines()[0]}{where}'
    return 'read by Python but not by flake8 (decoding or tokenizing)'
