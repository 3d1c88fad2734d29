"""The ``flake8-escapes`` command: ``check``, ``fix`` and ``explain``.

Exit status (pre-commit's convention): 0 when nothing changed, 1 when files
were changed or ``--diff`` showed changes, 2 on bad usage or a file that
could not be read, fixed or written (the other files are still fixed).
"""
from __future__ import annotations

import argparse
import difflib
import importlib.metadata
import itertools
import multiprocessing
import os
import re
import shutil
import stat
import sys
import textwrap
from collections import Counter
from pathlib import Path
from typing import Iterator, NamedTuple, Sequence

from flake8_escapes import __version__, apis, check, config, fix, output, rules

FIXABLE = fix.SAFE + fix.UNSAFE
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


class FixHelp(argparse.RawDescriptionHelpFormatter):
    """fix's help: the epilog's layout kept, no line wider than 80 characters (nor the terminal)."""

    def __init__(self, prog: str) -> None:
        super().__init__(prog, width=min(80, shutil.get_terminal_size().columns - 2))


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
        epilog=FIX_EPILOG, formatter_class=FixHelp,
        # the epilog's layout is kept (RawDescription), so the description is wrapped here
        description=textwrap.fill('Rewrite string literals so that their reports go away. By default only '
                                  'safe fixes (ESC301-ESC303), which keep every value as it is; --unsafe '
                                  'also fixes ESC401, ESC402, ESC501, ESC601 and ESC602, changing the value '
                                  'to what was meant.', 78))
    fixing.add_argument('--unsafe', action='store_true',
                        help='also apply the fixes that change a value (ESC401, ESC402, ESC5xx, ESC6xx)')
    fixing.add_argument('--diff', action='store_true',
                        help='print the changes as a unified diff instead of writing them')
    fixing.add_argument('--select', type=_codes, metavar='CODES',
                        help='comma-separated codes or prefixes to fix (default: all it may)')
    config.add_arguments(fixing, selection=False)
    fixing.add_argument('paths', nargs='*', metavar='PATH',
                        help="files, or directories to search for *.py (default: '.'); "
                             "'-': standard input, fixed to standard output")
    explaining = commands.add_parser('explain', help="print a code's README section",
                                     description="Print the README section of a code.")
    explaining.add_argument('code', metavar='CODE')
    explaining.add_argument('--markdown', action='store_true',
                            help='print the section as Markdown, as the README has it (default: plain text)')
    return top


def _summary(codes: list[str]) -> str:
    counts = Counter(codes)
    return ', '.join(f'{code} x{n}' if n > 1 else code for code, n in sorted(counts.items()))


shown, say = output.shown, output.say


def split_lines(data: bytes) -> list[bytes]:
    """Lines as ``patch`` and ``git apply`` count them: split at ``\n`` only."""
    lines = data.split(b'\n')
    ends = [line + b'\n' for line in lines[:-1]]
    return ends + [lines[-1]] if lines[-1] else ends


_C_ESCAPES = {7: b'\\a', 8: b'\\b', 9: b'\\t', 10: b'\\n', 11: b'\\v', 12: b'\\f', 13: b'\\r',
              34: b'\\"', 92: b'\\\\'}


def header_name(name: bytes) -> bytes:
    """A name in a ``---``/``+++`` line as git writes it, for ``git apply``
    and GNU ``patch`` alike: C-quoted when it holds a quote, a backslash, a
    control character or a non-ASCII byte; followed by a tab when it holds a
    space (GNU patch ends the name at the tab)."""
    if any(byte < 32 or byte >= 127 or byte in (34, 92) for byte in name):
        return b'"' + b''.join(_C_ESCAPES.get(byte) or (
            b'\\%03o' % byte if byte < 32 or byte >= 127 else bytes([byte])) for byte in name) + b'"'
    return name + b'\t' if b' ' in name else name


def unified_diff(path: str, before: bytes, after: bytes) -> bytes:
    """A unified diff in the file's own bytes, with git's ``a/`` and ``b/``
    names relative to the current folder, that ``git apply`` and ``patch -p1``
    take from there (``\\ No newline at end of file`` included)."""
    name = os.fsencode(os.path.relpath(path)).replace(os.sep.encode(), b'/')
    out = [b'--- ' + header_name(b'a/' + name) + b'\n', b'+++ ' + header_name(b'b/' + name) + b'\n']
    lines = difflib.diff_bytes(difflib.unified_diff, split_lines(before), split_lines(after), lineterm=b'\n')
    for line in itertools.islice(lines, 2, None):  # difflib's own header lines
        out.append(line if line.endswith(b'\n') else line + b'\n\\ No newline at end of file\n')
    return b''.join(out)


def _files(settings: config.Config, paths: list[str]) -> Iterator[str]:
    """The files flake8 would check under ``paths``, each once (a path given
    twice, or through a symlink, is fixed once); a file found in a folder
    whose real path is outside every folder given (a symlink out of the tree)
    is left alone, with one line, unless it is named itself."""
    seen = set()
    folders = [os.path.join(os.path.realpath(path), '') for path in paths if os.path.isdir(path)]
    for given in paths:
        count = 0
        for name in settings.files([given]):
            count += 1
            key = os.path.realpath(name) if name != '-' else name
            if name != given and not key.startswith(tuple(folders)):
                say(f'{shown(name)}: left alone: it leads to {shown(key)}, outside the folders given '
                    '(name it to fix it)', sys.stderr)
            elif key not in seen:
                seen.add(key)
                yield name
        if not count and os.path.isdir(given):
            say(f'{shown(given)}: no Python file found', sys.stderr)


class Job(NamedTuple):
    """One file to fix, with what the main process decided for it."""
    path: str
    codes: frozenset[str]          # the codes to fix there (flake8 reports them there)
    unsafe_shown: frozenset[str]   # the unsafe codes flake8 reports there, for the count
    diff: bool
    regex_functions: tuple[apis.Api, ...]


class Outcome(NamedTuple):
    """What fixing one file gave: the exit status, what to print, the reports left for --unsafe."""
    status: int
    printed: list[tuple[bool, str]]   # (on stderr, line)
    diff: bytes
    unsafe_left: list[str]


def read_bytes(path: str) -> tuple[bytes, fix.Snapshot | None] | None:
    """A file's bytes and its state as it was read (``fix.snapshot``, for the
    re-check before it is replaced; None for standard input); None for what is
    not a regular file (a FIFO, a device)."""
    if path == '-':
        return sys.stdin.buffer.read(), None
    # O_NONBLOCK: opening a FIFO must not wait for a writer; it is then skipped.
    with os.fdopen(os.open(path, output.READ_FLAGS), 'rb') as f:
        if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
            return None
        data = f.read()
        return data, fix.snapshot(path, f.fileno())


def fixed_bytes(name: str, data: bytes, job: Job) -> tuple[fix.BytesResult | None, int, str]:
    """(result, status, the line saying why there is none) of fixing ``data``."""
    try:
        return fix.fix_bytes(data, set(job.codes), job.regex_functions), 0, ''
    except fix.Refused as error:
        return None, 2, f'{name}: left alone: {error}'
    except UnicodeDecodeError as error:
        return None, 2, f'{name}: cannot read: {error}'
    except SyntaxError as error:
        message = str(error.msg or error)
        if message.startswith(('unknown encoding', 'invalid or missing encoding', 'encoding problem')):
            return None, 2, f'{name}: cannot read: {message}'
        where = f' (line {error.lineno})' if error.lineno else ''  # none for a NUL byte (3.11+)
        return None, 0, f'{name}: skipped, does not parse: {message}{where}'
    except ValueError as error:  # null bytes
        return None, 0, f'{name}: skipped, does not parse: {error}'
    except RecursionError:
        return None, 2, f'{name}: left alone: nested too deeply for this Python to check'
    except Exception as error:  # never stop the run: one line, exit 2
        return None, 2, f'{name}: left alone: {type(error).__name__}: {error}'


def fix_file(job: Job) -> Outcome:
    """Fix one file (in a worker process with --jobs): its outcome, printed by the main process."""
    name = shown(job.path)
    try:
        read = read_bytes(job.path)
    except OSError as error:
        return Outcome(2, [(True, f'{name}: cannot read: {error.strerror or error}')], b'', [])
    if read is None:
        return Outcome(0, [(True, f'{name}: skipped, not a regular file')], b'', [])
    data, before = read
    result, status, why = fixed_bytes(name, data, job)
    if result is None:
        return Outcome(status, [(True, why)], data if job.path == '-' else b'', [])
    printed = [(True, f'{name}:{line}:{col + 1}: {code} left alone: {reason}')
               for line, col, code, reason in result.left_alone]
    unsafe_left = [code for code in result.unsafe_left if code in job.unsafe_shown]
    if job.path == '-':  # a filter: the whole source out, fixed or not
        diff = unified_diff('-', data, result.data) if job.diff else result.data
        return Outcome(int(result.data != data), printed, diff, unsafe_left)
    if result.data == data:
        return Outcome(0, printed, b'', unsafe_left)
    if job.diff:
        return Outcome(1, printed, unified_diff(job.path, data, result.data), unsafe_left)
    try:
        fix.write_atomic(job.path, result.data, before)
    except Exception as error:  # OSError above all (disk full, ulimit -f, read-only)
        detail = error.strerror if isinstance(error, OSError) and error.strerror else error
        return Outcome(2, [*printed, (True, f'{name}: cannot write, left as it was: {detail}')], b'', [])
    return Outcome(1, [*printed, (False, f'{name}: fixed {_summary(result.fixed)}')], b'', unsafe_left)


def outcomes(jobs: list[Job], processes: int) -> Iterator[Outcome]:
    """Each job's outcome, in the jobs' order (in ``processes`` worker processes when more than one)."""
    if processes > 1:
        with multiprocessing.Pool(processes) as pool:
            yield from pool.imap(fix_file, jobs)
    else:
        yield from map(fix_file, jobs)


def run_fix(args: argparse.Namespace) -> int:
    codes = set(args.select or (FIXABLE if args.unsafe else fix.SAFE))
    if not args.unsafe and codes & set(fix.UNSAFE):
        names = ', '.join(sorted(codes & set(fix.UNSAFE)))
        say(f'flake8-escapes fix: error: --select {names} needs --unsafe: '
            'these fixes change the value of the literal', sys.stderr)
        return 2
    paths = args.paths or ['.']
    settings = config.Config(config.flake8_argv(args, paths))  # what flake8 would check
    if settings.ignores_all(FIXABLE):
        say(check.IGNORED_ALL, sys.stderr)
    jobs = []
    for path in _files(settings, paths):
        where = settings.options.stdin_display_name if path == '-' else path  # for per-file-ignores
        jobs.append(Job(path, frozenset(settings.reported(codes, where)),
                        frozenset(settings.reported(fix.UNSAFE, where)), args.diff, settings.regex_functions))
    status = 0
    unsafe_left: list[str] = []
    filtering = '-' in paths  # standard output holds the fixed source: every message on stderr
    for outcome in outcomes(jobs, check.job_count(settings, [job.path for job in jobs])):
        status = max(status, outcome.status)
        for on_stderr, line in outcome.printed:
            say(line, sys.stderr if on_stderr or filtering else sys.stdout)
        if outcome.diff:
            output.write_bytes(outcome.diff)
        unsafe_left.extend(outcome.unsafe_left)
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


#: Where the files under tests/ that a section names are: not in an installed package.
TESTS_ELSEWHERE = ('The files under tests/ named above are in the source repository ({url}), '
                   'not in the installed package.')


def spoken(code: str) -> str:
    """A code span's text without its backticks, still read as code: a name
    (``re.sub``, ``ESC401``, ``--unsafe``) as it is, a quoted literal as it is,
    anything else in double quotes, so that ``(`` is not lost in the sentence."""
    if re.fullmatch(r'[-\w.]+', code) or (len(code) > 1 and code[0] == code[-1] and code[0] in '\'"'):
        return code
    return f'"{code}"'


def plain(markdown: str) -> str:
    """A README section as plain text for a terminal: no headings' ``#``, no
    ``**``, no backticks (code spans as ``spoken`` gives them); code blocks
    indented by four spaces; links as ``text (address)``."""
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
        line = re.sub(r'(`+)(.+?)\1', lambda span: spoken(span.group(2)), line)
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
    if args.markdown:  # as the README has it
        sys.stdout.write(text)
        return 0
    if 'tests/' in text:
        text += '\n' + TESTS_ELSEWHERE.format(url=source_url()) + '\n'
    sys.stdout.write(plain(text))
    return 0


def source_url() -> str:
    """The project's source repository, from the package's metadata."""
    try:
        entries: list[str] = importlib.metadata.metadata('flake8-escapes').get_all('Project-URL') or []
        for entry in entries:
            label, _, url = entry.partition(',')
            if label.strip() == 'Source':
                return url.strip()
    except importlib.metadata.PackageNotFoundError:
        pass
    return 'https://github.com/flake8-escapes/flake8-escapes'


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        if args.command == 'check':
            return check.run(args)
        if args.command == 'fix':
            return run_fix(args)
    except config.Unusable as error:  # bad usage, in the config file: as argparse's errors
        say(f'flake8-escapes {args.command}: error: {error}', sys.stderr)
        return 2
    return run_explain(args)


if __name__ == '__main__':
    sys.exit(main())
