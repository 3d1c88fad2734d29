"""The fixer's file work: reading a source's bytes as the compiler does, the
encodings whose bytes may be edited, splicing edits into the original bytes,
and replacing the file all at once.

Edits are made on the original bytes, so that nothing but the edited
literals changes: the inserted text is ASCII (an ``r``, a backslash, a
respelled octal escape), so a codec that does not round-trip cannot touch a
comment; codecs where inserting ASCII is not safe (not ASCII-compatible,
stateful, not loadable) are refused.  Positions are those of the checker:
line ends are read as the compiler and flake8 read them (``\\r\\n``, lone
``\\r`` and ``\\n``).
"""
from __future__ import annotations

import codecs
import errno
import os
import re
import stat
import tempfile
import tokenize
import warnings
from typing import Any, NamedTuple, Sequence, TypeVar

#: Codecs that keep a shift state between characters: ASCII bytes inserted
#: in a shifted run would be read as other characters.
STATEFUL_CODECS = ('iso2022', 'utf_7', 'hz')
#: ASCII that a codec must read as itself (unicode_escape and
#: raw_unicode_escape read these as one character).
ASCII_PROBES = (bytes(range(128)), b'\\u0041\\x41\\101\\N{DIGIT ONE}\\\n')
BOM = codecs.BOM_UTF8

Text = TypeVar('Text', str, bytes)


class Edit(NamedTuple):
    """Replace ``length`` characters at (line, col) by ``text`` (ASCII)."""

    line: int
    col: int
    length: int
    text: str


def read(data: bytes) -> tuple[str, str]:
    """The text of a source file and its encoding, as the compiler reads them
    ('utf-8-sig' when the file starts with a BOM).  Line endings are kept.

    Raises SyntaxError for a bad coding cookie and UnicodeDecodeError for bytes
    the declared encoding cannot read.
    """
    encoding = detect_encoding(data)
    return data.decode(encoding), encoding


def detect_encoding(data: bytes) -> str:
    """``tokenize.detect_encoding`` on lines as the compiler splits them: a
    coding cookie on a line ended by a lone CR counts (tokenize's readline
    would see one long first line)."""
    starts = line_starts(data)[:3]
    lines = iter([data[begin:end] for begin, end in zip(starts, starts[1:])])
    return tokenize.detect_encoding(lambda: next(lines, b''))[0]


def splice_problem(encoding: str) -> str | None:
    """Why bytes in ``encoding`` cannot be edited by inserting ASCII, or None."""
    if encoding == 'utf-8-sig':
        return None  # the BOM is kept apart (apply_bytes), the rest is UTF-8
    try:
        info = codecs.lookup(encoding)
    except LookupError:
        return f'unknown encoding {encoding!r}'
    name = info.name.replace('-', '_')
    if not getattr(info, '_is_text_encoding', True):
        return f'{encoding!r} is not a text encoding'
    if name.startswith(STATEFUL_CODECS):
        return f'{encoding!r} is a stateful encoding: bytes cannot be edited in place'
    if _reads_ascii_as_itself(encoding):
        return None
    return f'{encoding!r} is not ASCII-compatible: bytes cannot be edited in place'


def _reads_ascii_as_itself(encoding: str) -> bool:
    """Does ``encoding`` read and write every ASCII probe as ASCII does?"""
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')  # unicode_escape warns about '\]'
        for probe in ASCII_PROBES:
            try:
                if probe.decode(encoding) != probe.decode('ascii') or \
                        probe.decode('ascii').encode(encoding) != probe:
                    return False
            except (UnicodeError, ValueError):
                return False
    return True


def normalized(text: str) -> str:
    """The text with every line end read as the compiler and flake8 read it
    (``\\r\\n`` and a lone ``\\r`` are line ends, as ``\\n``)."""
    if '\r' not in text:
        return text
    return text.replace('\r\n', '\n').replace('\r', '\n')


#: Keyed by the pattern's own type (str or bytes), which typing cannot tie to the key.
_LINE_ENDS: dict[type, re.Pattern[Any]] = {str: re.compile('\r\n|\r|\n'), bytes: re.compile(b'\r\n|\r|\n')}


def line_starts(text: Text) -> list[int]:
    """Offsets where each line starts (index 0 is line 1), line ends as
    ``normalized`` reads them; the last item is the text's length."""
    starts = [0]
    starts.extend(match.end() for match in _LINE_ENDS[type(text)].finditer(text))
    if starts[-1] != len(text):
        starts.append(len(text))
    return starts


def splice(text: Text, offsets: Sequence[tuple[int, int, Text]]) -> Text:
    """``text`` with (start, end, new) replacements made, in one pass."""
    out = []
    at = 0
    for start, end, new in sorted(offsets, key=lambda item: (item[0], item[1])):
        out.append(text[at:start])
        out.append(new)
        at = end
    out.append(text[at:])
    return text[:0].join(out)


def apply(text: str, edits: list[Edit]) -> str:
    """``text`` with ``edits`` made (positions are those of ``normalized(text)``;
    the line ends of ``text`` stay as they are)."""
    starts = line_starts(text)
    return splice(text, [(starts[e.line - 1] + e.col, starts[e.line - 1] + e.col + e.length, e.text)
                         for e in edits])


def _char_offsets(line: bytes, encoding: str) -> list[int]:
    """The byte offset of each character of ``line`` (and of its end)."""
    decoder = codecs.getincrementaldecoder(encoding)()
    offsets = [0]
    for index in range(len(line)):
        produced = len(decoder.decode(line[index:index + 1]))
        offsets.extend([index + 1] * produced)
    return offsets


def apply_bytes(data: bytes, encoding: str, edits: list[Edit]) -> bytes:
    """``data`` with ``edits`` (character positions of the normalized text)
    made on the original bytes: nothing else is decoded or encoded again."""
    head = BOM if encoding == 'utf-8-sig' and data.startswith(BOM) else b''
    body = data[len(head):]
    encoding = 'utf-8' if head else encoding
    starts = line_starts(body)
    lines: dict[int, list[int]] = {}
    replacements = []
    for edit in edits:
        begin, end = starts[edit.line - 1], starts[edit.line]
        if edit.line not in lines:
            line = body[begin:end]
            lines[edit.line] = list(range(len(line) + 1)) if line.isascii() else _char_offsets(line, encoding)
        offsets = lines[edit.line]
        replacements.append((begin + offsets[edit.col], begin + offsets[edit.col + edit.length],
                             edit.text.encode('ascii')))
    return head + splice(body, replacements)


class Snapshot(NamedTuple):
    """What a file was when it was read: it is replaced only if it still is."""

    device: int
    inode: int
    size: int
    mtime_ns: int
    link: bool     # the path was a symlink then


def snapshot(path: str, fd: int | None = None) -> Snapshot:
    """The state of the file at ``path`` (``fd``: the file as it was opened to be read)."""
    st = os.fstat(fd) if fd is not None else os.stat(path)
    return Snapshot(st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, os.path.islink(path))


#: Open the file to replace without following a symlink (where the platform can).
NOFOLLOW = getattr(os, 'O_NOFOLLOW', 0)


def _changed(path: str, target: str, before: Snapshot) -> str | None:
    """How the file at ``path`` (resolved: ``target``) differs from ``before``, or None."""
    if os.path.islink(path) and not before.link:
        return 'it became a symlink while it was being fixed'
    try:
        fd = os.open(target, os.O_RDONLY | NOFOLLOW | getattr(os, 'O_NONBLOCK', 0))
    except OSError as error:
        return f'it cannot be opened again: {error.strerror or error}'
    try:
        now = snapshot(target, fd)
    finally:
        os.close(fd)
    if now[:4] != before[:4]:
        return 'it changed while it was being fixed'
    return None


def write_atomic(path: str, data: bytes, before: Snapshot | None = None) -> None:
    """Replace the file at ``path`` (for a symlink: its target) by ``data``,
    all at once: a temporary file in the same folder is written, flushed to
    disk and given the original's mode bits, owner and group (where the
    process may) and extended attributes, then renamed over the original.
    A file with more than one hard link is written in place instead, so that
    every name keeps seeing it (as editors do), once its space is reserved.
    On any error the original is untouched and the temporary file removed.

    ``before``: the file as it was read (``snapshot``); right before the
    rename the file is looked at again, without following a symlink that was
    not there, and left as it is (OSError) if it is no longer that file, as
    big and as old.  A file without write permission is not replaced
    (PermissionError).
    """
    target = os.path.realpath(path)
    st = os.stat(target)
    before = before or snapshot(path)
    if not os.access(target, os.W_OK):
        raise PermissionError(errno.EACCES, 'the file is not writable', path)
    if st.st_nlink > 1:
        _write_in_place(path, target, data, before)
        return
    folder, name = os.path.split(target)
    fd, temporary = tempfile.mkstemp(prefix=f'.{name}.', suffix='.flake8-escapes', dir=folder)
    try:
        try:
            _write_all(fd, data)
        finally:
            os.close(fd)
        os.chmod(temporary, stat.S_IMODE(st.st_mode))  # mkstemp made it 0600
        _keep_owner(temporary, st)
        _copy_xattrs(target, temporary)
        problem = _changed(path, target, before)
        if problem:
            raise OSError(errno.EAGAIN, problem, path)
        os.replace(temporary, target)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]
    os.fsync(fd)


def _write_in_place(path: str, target: str, data: bytes, before: Snapshot) -> None:
    """Overwrite a file that has other hard links (the fix is already proved).
    The space is reserved first, so that a full disk or a ``ulimit -f`` stops
    the write before the first byte changes; where it cannot be reserved the
    file is left as it is."""
    problem = _changed(path, target, before)
    if problem:
        raise OSError(errno.EAGAIN, problem, path)
    if not hasattr(os, 'posix_fallocate'):
        raise OSError(errno.EMLINK, 'it has other hard links and cannot be written in place here', path)
    fd = os.open(target, os.O_WRONLY | NOFOLLOW)
    try:
        os.posix_fallocate(fd, 0, len(data))
        _write_all(fd, data)
        os.ftruncate(fd, len(data))
        os.fsync(fd)
    finally:
        os.close(fd)


def _keep_owner(temporary: str, st: os.stat_result) -> None:
    """Give the new file the original's owner and group, as far as the process may."""
    if not hasattr(os, 'chown') or (st.st_uid, st.st_gid) == (os.geteuid(), os.getegid()):
        return
    for uid, gid in ((st.st_uid, st.st_gid), (-1, st.st_gid)):
        try:
            os.chown(temporary, uid, gid)
            return
        except OSError:
            continue  # not permitted: a user may only give a file a group of theirs


def _copy_xattrs(source: str, temporary: str) -> None:
    """Copy the extended attributes the process may read and write."""
    if not hasattr(os, 'listxattr'):
        return
    try:
        names = os.listxattr(source)
    except OSError:
        return  # not supported on this file system
    for name in names:
        try:
            os.setxattr(temporary, name, os.getxattr(source, name))
        except OSError:
            continue  # security.* and trusted.* need privileges the process may not have
