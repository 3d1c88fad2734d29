"""The ``flake8-escapes`` command: ``check``, ``fix`` and ``explain``.

Exit status (pre-commit's convention): 0 when nothing changed, 1 when files
were changed or ``--diff`` showed changes, 2 on bad usage or a file that
could not be read, fixed or written (the other files are still fixed).
"""
from __future__ import annotations

import argparse
import difflib
import importlib.metadata
import os
import re
import stat
import sys
from collections import Counter
from pathlib import Path
from typing import Iterator, Sequence, TextIO

from flake8_escapes import __version__, apis, check, config, fix, rules

FIXABLE = fix.SAFE + fix.UNSAFE
READ_FLAGS = os.O_RDONLY | getattr(os, 'O_NONBLOCK', 0) | getattr(os, 'O_BINARY', 0)
FIX_EPILOG = '''\
Each file is either left exactly as it was or correctly fixed: only the bytes
of the fixed literals change, written through a temporary file; a literal
marked '# noqa' (as flake8 reads it) is left alone.

exit status:
  0  nothing changed (nothing to fix, or only reports left alone)
  1  files were changed, or --diff showed changes
  2  bad usage, or a file that could not be read, fixed or written
     (the other files are still fixed)
'''


def _codes(value: str) -> list[str]:
    """``--select``: comma-separated codes or prefixes of codes (ESC3, ESC301)."""
    chosen: list[str] = []
    for item in filter(None, (part.strip().upper() for part in value.split(','))):
        matching = [code for code in FIXABLE if code.startswith(item)]
        if not matching:
            raise argparse.ArgumentTypeError(
                f'{item!r} matches no code the fixer knows ({", ".join(FIXABLE)})')
        chosen.extend(code for code in matching if code not in chosen)
    if not chosen:
        raise argparse.ArgumentTypeError('names no code')
    return chosen


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog='flake8-escapes',
        description='Check, fix and explain the backslash escapes flake8-escapes reports.')
    top.add_argument('--version', action='version', version=f'%(prog)s {__version__}')
    commands = top.add_subparsers(dest='command', required=True, metavar='COMMAND')
    check.add_parser(commands)
    fixing = commands.add_parser(
        'fix', help='rewrite string literals (safe fixes only, unless --unsafe)',
        epilog=FIX_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter,
        description='Rewrite string literals so that their reports go away. By default only '
                    'safe fixes (ESC301-ESC303), which keep every value as it is; --unsafe also '
                    'fixes ESC401, ESC402, ESC501, ESC601 and ESC602, changing the value to what was meant.')
    fixing.add_argument('--unsafe', action='store_true',
                        help='also apply the fixes that change a value (ESC401, ESC402, ESC5xx, ESC6xx)')
    fixing.add_argument('--diff', action='store_true',
                        help='print the changes as a unified diff instead of writing them')
    fixing.add_argument('--select', type=_codes, metavar='CODES',
                        help='comma-separated codes or prefixes to fix (default: all it may)')
    config.add_arguments(fixing, selection=False)
    fixing.add_argument('paths', nargs='+', metavar='PATH', help='files, or directories to search for *.py')
    explaining = commands.add_parser('explain', help="print a code's README section",
                                     description="Print the README section of a code.")
    explaining.add_argument('code', metavar='CODE')
    explaining.add_argument('--markdown', action='store_true',
                            help='print the section as Markdown, as the README has it (default: plain text)')
    return top


def _summary(codes: list[str]) -> str:
    counts = Counter(codes)
    return ', '.join(f'{code} x{n}' if n > 1 else code for code, n in sorted(counts.items()))


def shown(path: str) -> str:
    """A path as it can be printed: a file name that is not valid in the
    file system's encoding (kept as surrogates by Python) is shown with
    backslash escapes for its bytes."""
    try:
        path.encode('utf-8')
        return path
    except UnicodeEncodeError:
        return os.fsencode(path).decode('utf-8', 'backslashreplace')


def say(line: str, stream: TextIO | None = None) -> None:
    """Print one line (a message that holds line ends is joined into one);
    characters the stream cannot encode are escaped, never an error."""
    stream = stream or sys.stdout
    encoding = getattr(stream, 'encoding', None) or 'utf-8'
    line = ' '.join(line.splitlines())
    stream.write(line.encode(encoding, 'backslashreplace').decode(encoding) + '\n')


def split_lines(data: bytes) -> list[bytes]:
    """Lines as ``patch`` and ``git apply`` count them: split at ``\n`` only."""
    lines = data.split(b'\n')
    ends = [line + b'\n' for line in lines[:-1]]
    return ends + [lines[-1]] if lines[-1] else ends


def unified_diff(path: str, before: bytes, after: bytes) -> bytes:
    """A unified diff in the file's own bytes, that ``patch -p0`` and
    ``git apply`` accept (``\\ No newline at end of file`` included)."""
    name = os.fsencode(path)
    out = []
    for line in difflib.diff_bytes(difflib.unified_diff, split_lines(before), split_lines(after),
                                   fromfile=name, tofile=name):
        out.append(line if line.endswith(b'\n') else line + b'\n\\ No newline at end of file\n')
    return b''.join(out)


def _files(settings: config.Config, paths: list[str]) -> Iterator[str]:
    """The files flake8 would check under ``paths``, each once (a path given
    twice, or through a symlink, is fixed once)."""
    seen = set()
    for given in paths:
        count = 0
        for name in settings.files([given]):
            count += 1
            key = os.path.realpath(name)
            if key not in seen:
                seen.add(key)
                yield name
        if not count and os.path.isdir(given):
            say(f'{shown(given)}: no Python file found', sys.stderr)


def fix_file(
    path: str, args: argparse.Namespace, codes: set[str],
    regex_functions: tuple[apis.Api, ...], unsafe_left: list[str],
) -> int:
    """Fix one file: its exit status (0, 1 or 2); every problem is one line."""
    name = shown(path)
    try:
        # O_NONBLOCK: opening a FIFO must not wait for a writer; it is then skipped.
        with os.fdopen(os.open(path, READ_FLAGS), 'rb') as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                say(f'{name}: skipped, not a regular file', sys.stderr)
                return 0
            data = f.read()
    except OSError as error:
        say(f'{name}: cannot read: {error.strerror or error}', sys.stderr)
        return 2
    try:
        result = fix.fix_bytes(data, codes, regex_functions)
    except fix.Refused as error:
        say(f'{name}: left alone: {error}', sys.stderr)
        return 2
    except UnicodeDecodeError as error:
        say(f'{name}: cannot read: {error}', sys.stderr)
        return 2
    except SyntaxError as error:
        message = str(error.msg or error)
        if message.startswith(('unknown encoding', 'invalid or missing encoding', 'encoding problem')):
            say(f'{name}: cannot read: {message}', sys.stderr)
            return 2
        say(f'{name}: skipped, does not parse: {message} (line {error.lineno})', sys.stderr)
        return 0
    except ValueError as error:  # null bytes
        say(f'{name}: skipped, does not parse: {error}', sys.stderr)
        return 0
    except RecursionError:
        say(f'{name}: left alone: nested too deeply for this Python to check', sys.stderr)
        return 2
    except Exception as error:  # never stop the run: one line, exit 2
        say(f'{name}: left alone: {type(error).__name__}: {error}', sys.stderr)
        return 2
    for line, col, code, reason in result.left_alone:
        say(f'{name}:{line}:{col + 1}: {code} left alone: {reason}', sys.stderr)
    unsafe_left.extend(result.unsafe_left)
    if result.data == data:
        return 0
    if args.diff:
        diff = unified_diff(path, data, result.data)
        sys.stdout.flush()
        if hasattr(sys.stdout, 'buffer'):
            sys.stdout.buffer.write(diff)
            sys.stdout.buffer.flush()
        else:  # a text-only stream (an embedding program's)
            sys.stdout.write(diff.decode('utf-8', 'backslashreplace'))
        return 1
    try:
        fix.write_atomic(path, result.data)
    except Exception as error:  # OSError above all (disk full, ulimit -f, read-only)
        detail = error.strerror if isinstance(error, OSError) and error.strerror else error
        say(f'{name}: cannot write, left as it was: {detail}', sys.stderr)
        return 2
    say(f'{name}: fixed {_summary(result.fixed)}')
    return 1


def run_fix(args: argparse.Namespace) -> int:
    codes = set(args.select or (FIXABLE if args.unsafe else fix.SAFE))
    if not args.unsafe and codes & set(fix.UNSAFE):
        names = ', '.join(sorted(codes & set(fix.UNSAFE)))
        say(f'flake8-escapes fix: error: --select {names} needs --unsafe: '
            'these fixes change the value of the literal', sys.stderr)
        return 2
    status = 0
    settings = config.Config(config.flake8_argv(args, args.paths))  # what flake8 would check
    unsafe_left: list[str] = []
    for path in _files(settings, args.paths):
        reported = settings.reported(codes, path)
        status = max(status, fix_file(path, args, reported, settings.regex_functions, unsafe_left))
    if unsafe_left and not args.unsafe:
        count = len(unsafe_left)
        say(f'{count} report{"s" if count > 1 else ""} left that only --unsafe can fix '
            f'({_summary(unsafe_left)}): check them with --unsafe --diff', sys.stderr)
    return status


def readme() -> str:
    """The README: the package's long description (one source for the
    README, its sections and ``explain``), or README.md beside a checkout."""
    try:
        meta = importlib.metadata.metadata('flake8-escapes')
        text = meta['Description'] or meta.get_payload()  # type: ignore[attr-defined]
    except importlib.metadata.PackageNotFoundError:
        text = None
    if not text:
        text = (Path(__file__).resolve().parent.parent / 'README.md').read_text(encoding='utf-8')
    return text


def section(text: str, code: str) -> str | None:
    """The ``### CODE`` section of the README text, heading included."""
    lines = text.splitlines()
    for start, line in enumerate(lines):
        if line.strip() == f'### {code}':
            end = start + 1
            while end < len(lines) and not lines[end].startswith(('## ', '### ')):
                end += 1
            return '\n'.join(lines[start:end]).rstrip() + '\n'
    return None


def plain(markdown: str) -> str:
    """A README section as plain text for a terminal: no headings' ``#``, no
    ``**``, no backticks; code blocks indented by four spaces; links as
    ``text (address)``."""
    out = []
    in_code = False
    for line in markdown.splitlines():
        if line.startswith('```'):
            in_code = not in_code
            continue
        if in_code:
            out.append('    ' + line if line else '')
            continue
        heading = re.match(r'#+ (.*)', line)
        if heading:
            line = heading.group(1)
            out.extend([line, '=' * len(line)])
            continue
        line = re.sub(r'\*\*(.+?)\*\*', r'\1', line)
        line = re.sub(r'(`+)(.+?)\1', r'\2', line)
        line = re.sub(r'\[([^]]+)\]\(([^)]+)\)', r'\1 (\2)', line)
        out.append(line)
    return '\n'.join(out).rstrip() + '\n'


def run_explain(args: argparse.Namespace) -> int:
    code = args.code.strip().upper()
    known = [rule.code for rule in rules.RULES]
    text = section(readme(), code) if code in known else None
    if text is None:
        print(f'flake8-escapes explain: error: unknown code {args.code!r} '
              f'(codes: {", ".join(known)})', file=sys.stderr)
        return 2
    sys.stdout.write(text if args.markdown else plain(text))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.command == 'check':
        return check.run(args)
    if args.command == 'fix':
        return run_fix(args)
    return run_explain(args)


if __name__ == '__main__':
    sys.exit(main())
