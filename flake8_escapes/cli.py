"""The ``flake8-escapes`` command line: parses the arguments and hands them to the
command's module (``commands.check``, ``commands.fix``, ``commands.explain``,
``commands.server``, imported only when asked: it needs the ``server`` extra).

Exit status: 0 nothing to report or change, 1 reports (``check``) or changes
(``fix``), 2 bad usage or a file that could not be read, fixed or written (or
an output that could not be written, or an error of ours on a file:
``output.internal_error``); 130 interrupted (Ctrl-C), 143 SIGTERM.
"""
from __future__ import annotations

import argparse
import os
import shutil
import signal
import sys
import textwrap
import threading
from typing import Callable, Sequence

import flake8

from flake8_escapes import __version__, config, output
from flake8_escapes.commands import check, explain

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
    from flake8_escapes import fix  # imported for fix only: check starts without the fixer (issue 32)
    fixable = fix.SAFE + fix.UNSAFE
    chosen: list[str] = []
    for item in filter(None, (part.strip() for part in value.split(','))):
        if item != item.upper():  # as check refuses it (and ruff): flake8 matches codes as written
            raise argparse.ArgumentTypeError(
                f'unknown code {item!r}: codes are upper case, as flake8 matches them ({item.upper()!r})')
        matching = [code for code in fixable if code.startswith(item)]
        if not matching:
            raise argparse.ArgumentTypeError(
                f'{item!r} matches no code the fixer knows ({config.known_codes(fixable)})')
        chosen.extend(code for code in matching if code not in chosen)
    if not chosen:
        raise argparse.ArgumentTypeError('names no code')
    return chosen


def add_check(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    checking = commands.add_parser(
        'check', help='report as flake8 --select=ESC would, without flake8',
        description='Report what flake8 --select=ESC reports, at the same positions and in the same '
                    'format, reading the same configuration, without running flake8\'s other checkers '
                    '(a file that does not parse gets E999 when it holds an escape that may be '
                    'reported: the others are not parsed; virtual environments are skipped). Exit status: '
                    '0 no report, 1 reports, 2 bad usage or a path that does not exist.')
    checking.add_argument('--version', action='version',
                          version=f'%(prog)s {__version__} (flake8 {flake8.__version__})')
    config.add_arguments(checking, known=check.KNOWN)
    checking.add_argument('--format', metavar='NAME',
                          help="flake8's --format: default (path:line:col: CODE message), pylint, "
                               'quiet-filename, quiet-nothing, any flake8 formatter installed, or a '
                               "format string ('%%(path)s:%%(row)d:%%(col)d: %%(code)s %%(text)s'); "
                               'github: workflow annotations; json: one JSON array (ruff\'s keys: '
                               'filename, location, end_location, code, message, name, cell); '
                               'json-lines: one object per line (path, line, column, code, message; '
                               'cell in a notebook)')
    printing = checking.add_argument_group('output', "as flake8's options of these names")
    for name, text in (('--count', 'print the number of reports last'),
                       ('--statistics', 'print how many reports of each code'),
                       ('--exit-zero', 'exit 0 even when there are reports'),
                       ('--show-source', 'print the line of each report, with a caret')):
        printing.add_argument(name, dest=config.PASSED_ON + name[2:].replace('-', '_'), action='store_true',
                              help=text)
    # not handed on with the others: flake8 reads it again after the paths' '--'
    printing.add_argument('--output-file', metavar='FILE',
                          help='write the reports to FILE instead of standard output')
    checking.add_argument('paths', nargs='*', metavar='PATH',
                          help="files or directories (default: '.'); '-' for standard input")


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog='flake8-escapes',
        description='Check, fix and explain the backslash escapes flake8-escapes reports.')
    top.add_argument('--version', action='version', version=f'%(prog)s {__version__}')
    commands = top.add_subparsers(dest='command', required=True, metavar='COMMAND')
    add_check(commands)
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
    explaining = commands.add_parser('explain', help="print a code's page",
                                     description="Print the page of a code (docs/ESCxxx.md in the source).")
    explaining.add_argument('code', metavar='CODE')
    explaining.add_argument('--markdown', action='store_true',
                            help='print the page as Markdown, as written (default: plain text)')
    serving = commands.add_parser(
        'server', help='a language server for editors, over stdio (needs the [server] extra)',
        description='A Language Server Protocol server over standard input and output: diagnostics, '
                    'quick fixes, fix-all and hover for the ESC codes, with the workspace\'s flake8 '
                    f'configuration. Needs pygls: {SERVER_INSTALL}')
    serving.add_argument('--stdio', action='store_true', help='talk over stdio (the default and only way)')
    return top


SERVER_INSTALL = 'pip install "flake8-escapes[server]"'


def serve(args: argparse.Namespace) -> int:
    """``server``: its module, which needs pygls and lsprotocol (the ``server`` extra)."""
    try:
        from flake8_escapes.commands import server
    except ImportError as error:
        if str(error.name).split('.')[0] not in ('pygls', 'lsprotocol'):
            raise
        print(f'flake8-escapes server: needs the server extra ({error.name} is not installed): '
              f'{SERVER_INSTALL}',
              file=sys.stderr)
        return 2
    return server.run(args)


def command_run(command: str) -> Callable[[argparse.Namespace], int]:
    """The command's ``run``: the fixer's modules are imported for ``fix`` only (``check`` starts
    without them: issue 32)."""
    if command == 'fix':
        from flake8_escapes.commands import fix as fixing_command
        return fixing_command.run
    return {'check': check.run, 'explain': explain.run, 'server': serve}[command]


def _terminated(number: int, frame: object) -> None:
    raise SystemExit(128 + number)


def main(argv: Sequence[str] | None = None) -> int:
    for name in ('stdout', 'stderr'):
        if getattr(sys, name) is None:  # started with it closed (`>&-`): nowhere, as after a closed pipe
            setattr(sys, name, open(os.devnull, 'w', encoding='utf-8'))
    args = parser().parse_args(argv)
    run = command_run(args.command)
    # SIGTERM as Ctrl-C in check and fix: the pool's workers stopped, each file whole; put back after
    handled = args.command in ('check', 'fix') and threading.current_thread() is threading.main_thread()
    before = signal.signal(signal.SIGTERM, _terminated) if handled else None
    try:
        status = run(args)
        if not sys.stdout.closed:  # (the server closes it when the client says exit)
            sys.stdout.flush()  # still buffered: written where a failure is caught, not at exit
        return status
    except config.Unusable as error:  # bad usage, in the config file: as argparse's errors
        print(f'flake8-escapes {args.command}: error: {error}', file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # Ctrl-C: each file was written whole or not at all (fix.files.write)
        print(f'flake8-escapes {args.command}: interrupted', file=sys.stderr)
        return 130
    except OSError as error:  # the output not written: a full disk, --output-file a folder (issue 40)
        output.closed(sys.stdout)  # what is left in its buffer goes nowhere, not into a second error
        where = f'{output.shown(os.fsdecode(error.filename))}: ' if error.filename else ''
        print(f'flake8-escapes {args.command}: error: {where}{error.strerror or error}', file=sys.stderr)
        return 2
    finally:
        if handled:
            signal.signal(signal.SIGTERM, before)


if __name__ == '__main__':
    sys.exit(main())
