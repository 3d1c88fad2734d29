"""The ``flake8-escapes`` command: ``check``, ``fix`` and ``explain``.

Exit status (pre-commit's convention): 0 when nothing changed, 1 when files
were changed or ``--diff`` showed changes, 2 on bad usage or a file that
cannot be read.
"""
from __future__ import annotations

import argparse
import difflib
import importlib.metadata
import sys
from collections import Counter
from pathlib import Path
from typing import Sequence

from flake8_escapes import __version__, check, config, fix, rules

FIXABLE = fix.SAFE + fix.UNSAFE


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
        description='Rewrite string literals so that their reports go away. By default only '
                    'safe fixes (ESC301-ESC303), which keep every value as it is; --unsafe also '
                    'fixes ESC401, ESC402 and ESC501, changing the value to what was meant.')
    fixing.add_argument('--unsafe', action='store_true',
                        help='also apply the fixes that change a value (ESC401, ESC402, ESC501)')
    fixing.add_argument('--diff', action='store_true',
                        help='print the changes as a unified diff instead of writing them')
    fixing.add_argument('--select', type=_codes, metavar='CODES',
                        help='comma-separated codes or prefixes to fix (default: all it may)')
    config.add_arguments(fixing, selection=False)
    fixing.add_argument('paths', nargs='+', metavar='PATH', help='files, or directories to search for *.py')
    explaining = commands.add_parser('explain', help="print a code's README section",
                                     description="Print the README section of a code.")
    explaining.add_argument('code', metavar='CODE')
    return top


def _summary(codes: list[str]) -> str:
    counts = Counter(codes)
    return ', '.join(f'{code} x{n}' if n > 1 else code for code, n in sorted(counts.items()))


def run_fix(args: argparse.Namespace) -> int:
    codes = set(args.select or (FIXABLE if args.unsafe else fix.SAFE))
    if not args.unsafe and codes & set(fix.UNSAFE):
        names = ', '.join(sorted(codes & set(fix.UNSAFE)))
        print(f'flake8-escapes fix: error: --select {names} needs --unsafe: '
              'these fixes change the value of the literal', file=sys.stderr)
        return 2
    status = 0
    settings = config.Config(config.flake8_argv(args, args.paths))  # what flake8 would check
    for path in settings.files():
        try:
            with open(path, 'rb') as f:
                data = f.read()
            text, encoding = fix.read(data)
        except (OSError, SyntaxError, UnicodeDecodeError) as error:
            print(f'{path}: cannot read: {error}', file=sys.stderr)
            status = 2
            continue
        try:
            result = fix.fix_text(text, settings.reported(codes, path), settings.regex_functions)
        except (SyntaxError, ValueError) as error:  # ValueError: null bytes
            print(f'{path}: skipped, does not parse: {error}', file=sys.stderr)
            continue
        for line, col, code in result.left_alone:
            print(f'{path}:{line}:{col + 1}: {code} left alone: its fix would change the '
                  'value of the literal', file=sys.stderr)
        if result.text == text:
            continue
        status = max(status, 1)
        if args.diff:
            sys.stdout.writelines(difflib.unified_diff(
                text.splitlines(keepends=True), result.text.splitlines(keepends=True),
                fromfile=path, tofile=path))
            continue
        with open(path, 'wb') as f:
            f.write(result.text.encode(encoding))
        print(f'{path}: fixed {_summary(result.fixed)}')
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


def run_explain(args: argparse.Namespace) -> int:
    code = args.code.strip().upper()
    known = [rule.code for rule in rules.RULES]
    text = section(readme(), code) if code in known else None
    if text is None:
        print(f'flake8-escapes explain: error: unknown code {args.code!r} '
              f'(codes: {", ".join(known)})', file=sys.stderr)
        return 2
    sys.stdout.write(text)
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
