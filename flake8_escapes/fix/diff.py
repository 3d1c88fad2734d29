"""``fix --diff``'s output: a unified diff in a file's own bytes that ``git apply`` and
``patch -p1`` take."""
from __future__ import annotations

import difflib
import itertools
import os


def split_lines(data: bytes) -> list[bytes]:
    """Lines as ``patch`` and ``git apply`` count them: split at ``\n`` only."""
    lines = data.split(b'\n')
    ends = [line + b'\n' for line in lines[:-1]]
    return ends + [lines[-1]] if lines[-1] else ends


C_ESCAPES = {7: b'\\a', 8: b'\\b', 9: b'\\t', 10: b'\\n', 11: b'\\v', 12: b'\\f', 13: b'\\r',
             34: b'\\"', 92: b'\\\\'}


def header_name(name: bytes) -> bytes:
    """A name in a ``---``/``+++`` line as git writes it, for ``git apply``
    and GNU ``patch`` alike: C-quoted when it holds a quote, a backslash, a
    control character or a non-ASCII byte; followed by a tab when it holds a
    space (GNU patch ends the name at the tab)."""
    if any(byte < 32 or byte >= 127 or byte in (34, 92) for byte in name):
        return b'"' + b''.join(C_ESCAPES.get(byte) or (
            b'\\%03o' % byte if byte < 32 or byte >= 127 else bytes([byte])) for byte in name) + b'"'
    return name + b'\t' if b' ' in name else name


def diff_name(path: str) -> bytes:
    """The name of ``path`` in a diff, after git's ``a/`` and ``b/``: relative to the current
    folder, as ``git apply`` and ``patch -p1`` take it run from there; a file outside it (which
    neither writes: ``..`` is refused) by its absolute path without the leading separator, as
    ``git diff --no-index`` names it (``a/tmp/x.py``), which both take run from the root."""
    try:
        name = os.path.relpath(path)
    except ValueError:  # on another drive (Windows)
        name = os.pardir
    if name == os.pardir or name.startswith(os.pardir + os.sep):
        name = os.path.abspath(path).lstrip(os.sep + (os.altsep or ''))
    return os.fsencode(name).replace(os.sep.encode(), b'/')


def unified_diff(path: str, before: bytes, after: bytes) -> bytes:
    """A unified diff in the file's own bytes, with git's ``a/`` and ``b/``
    names (``diff_name``), that ``git apply`` and ``patch -p1`` take
    (``\\ No newline at end of file`` included)."""
    name = diff_name(path)
    out = [b'--- ' + header_name(b'a/' + name) + b'\n', b'+++ ' + header_name(b'b/' + name) + b'\n']
    lines = difflib.diff_bytes(difflib.unified_diff, split_lines(before), split_lines(after), lineterm=b'\n')
    for line in itertools.islice(lines, 2, None):  # difflib's own header lines
        out.append(line if line.endswith(b'\n') else line + b'\n\\ No newline at end of file\n')
    return b''.join(out)
