"""What ``check`` and ``fix`` print: names that can always be printed, one-line messages, and a
closed pipe (``check | head``) that ends the printing quietly, never the work."""
from __future__ import annotations

import os
import sys
from typing import TextIO

# A file opened without waiting: a FIFO must not block until a writer comes (it is then skipped).
READ_FLAGS = os.O_RDONLY | getattr(os, 'O_NONBLOCK', 0) | getattr(os, 'O_BINARY', 0)


def shown(path: str) -> str:
    """A path as it can be printed: a file name that is not valid in the
    file system's encoding (kept as surrogates by Python) is shown with
    backslash escapes for its bytes."""
    try:
        path.encode('utf-8')
        return path
    except UnicodeEncodeError:
        return os.fsencode(path).decode('utf-8', 'backslashreplace')


def internal_error(name: str, error: BaseException) -> str:
    """The one line for a file an error of ours stopped (``check`` and ``fix`` go on with the
    others, and exit 2): the file and the exception, to be reported."""
    return (f'flake8-escapes: internal error on {shown(name)}: {type(error).__name__}: {error}; '
            'please report it')


def closed(stream: TextIO) -> None:
    """After a write to ``stream`` found its reader gone: point its file at
    the null device, so that what is left (and Python's flush at exit) goes
    nowhere instead of raising ``BrokenPipeError`` again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stream.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # a stream without a file (an embedding program's)
        pass


def say(line: str, stream: TextIO | None = None) -> None:
    """Print one line (a message that holds line ends is joined into one);
    characters the stream cannot encode are escaped, never an error; a
    closed pipe silences the stream."""
    stream = stream or sys.stdout
    encoding = getattr(stream, 'encoding', None) or 'utf-8'
    line = ' '.join(line.splitlines())
    try:
        stream.write(line.encode(encoding, 'backslashreplace').decode(encoding) + '\n')
        if stream is sys.stdout:
            stream.flush()  # a closed pipe is found now, not at exit
    except BrokenPipeError:
        closed(stream)


def write_bytes(data: bytes) -> None:
    """Bytes to standard output as they are (a diff, a fixed source), quietly
    nowhere once the pipe is closed."""
    try:
        sys.stdout.flush()
        if hasattr(sys.stdout, 'buffer'):
            sys.stdout.buffer.write(data)
            sys.stdout.buffer.flush()
        else:  # a text-only stream (an embedding program's)
            sys.stdout.write(data.decode('utf-8', 'backslashreplace'))
    except BrokenPipeError:
        closed(sys.stdout)
