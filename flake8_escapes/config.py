"""The configuration flake8 would use, for ``flake8-escapes check`` and ``fix``.

One loader, built on flake8's own machinery so that the three entry points
agree: flake8's ``parse_args`` reads ``setup.cfg``, ``tox.ini`` or ``.flake8``
(or ``--config``, ``--append-config``, ``--isolated``) and the command line
exactly as ``flake8`` does; flake8's ``StyleGuideManager`` decides whether a
code is reported at a path (select, ignore, extend-select, extend-ignore,
per-file-ignores, with flake8's rule that the longest matching prefix wins);
flake8's ``matches_filename``/``fnmatch`` walk the paths with its default
excludes plus ``exclude``/``extend-exclude`` and ``filename``.

Two departures from flake8's walk, both about files nobody means to lint: a
folder holding a ``pyvenv.cfg`` (a virtual environment) is skipped, and so is
anything that is not a regular file (a FIFO named ``x.py`` would block).
Symlinked folders are not followed, as in flake8 (``os.walk``'s default).
"""
from __future__ import annotations

import argparse
import logging
import os
import sys
import textwrap
from typing import Any, Iterable, Iterator, Sequence

from flake8 import utils
from flake8.exceptions import Flake8Exception
from flake8.formatting.base import BaseFormatter
from flake8.main.options import JobsArgument
from flake8.options.parse_args import parse_args
from flake8.plugins import reporter
from flake8.style_guide import Decision, Ignored, StyleGuideManager

from flake8_escapes import apis
from flake8_escapes.plugin import REGEX_FUNCTIONS_OPTION, regex_functions_argument

LOG = logging.getLogger(__name__)

#: The prefix of the argparse destinations handed on to flake8's parser as they were written.
PASSED_ON = 'flake8_'
VENV_MARKER = 'pyvenv.cfg'


def regex_functions_text(value: str) -> str:
    """``--escapes-regex-functions`` checked as flake8 will check it, kept as
    text to be handed to flake8's parser with the config file's value."""
    regex_functions_argument(value)
    return value


def add_arguments(parser: argparse.ArgumentParser, *, selection: bool = True) -> None:
    """The flake8 options ``check`` (and, without ``selection``: without ``--select``, ``fix``) take."""
    group = parser.add_argument_group(  # filled here: fix's help keeps a description's lines
        'configuration', textwrap.fill('read as flake8 reads it: the [flake8] section of setup.cfg, '
                                       'tox.ini or .flake8, then these options, which override it', 76))

    def option(name: str, **kwargs: Any) -> None:
        group.add_argument(name, dest=PASSED_ON + name.lstrip('-').replace('-', '_'), **kwargs)

    option('--config', metavar='FILE', help='the config file to read instead of searching')
    option('--append-config', action='append', default=[], metavar='FILE',
           help='one more config file, read last')
    option('--isolated', action='store_true', help='read no config file')
    # fix has a --select of its own: the codes to fix, among those flake8 would report
    for name in ('--select',) * selection + ('--extend-select', '--ignore', '--extend-ignore'):
        option(name, metavar='CODES', help=f"as flake8's {name}")
    option('--per-file-ignores', metavar='FILES:CODES', help="as flake8's")
    option('--exclude', metavar='PATTERNS', help="as flake8's (replaces its default)")
    option('--extend-exclude', metavar='PATTERNS', help="as flake8's")
    option(REGEX_FUNCTIONS_OPTION, type=regex_functions_text, metavar='NAME:PAT[:REPL],...',
           help='your own regex functions (commas or line breaks between them), '
                'as for the flake8 option of that name')
    run = parser.add_argument_group('running')
    run.add_argument('--jobs', dest=PASSED_ON + 'jobs', type=JobsArgument, metavar='N',
                     help="processes, or 'auto' (flake8's default)")
    run.add_argument('--stdin-display-name', dest=PASSED_ON + 'stdin_display_name', metavar='NAME',
                     help='the name of standard input (-) in reports and per-file-ignores')


def flake8_argv(args: argparse.Namespace, paths: Sequence[str]) -> list[str]:
    """flake8's command line for the options given to us (destinations ``flake8_*``)."""
    argv = []
    for dest, value in sorted(vars(args).items()):
        option = '--' + dest[len(PASSED_ON):].replace('_', '-')
        if not dest.startswith(PASSED_ON) or value is None or value is False:
            continue
        argv += [option] if value is True else [f'{option}={item}' for item in (
            value if isinstance(value, list) else [value])]
    return argv + ['--', *paths]


class Config:
    """flake8's options for one run, and the decisions taken from them."""

    def __init__(self, argv: Sequence[str], formatter: type[BaseFormatter] | None = None,
                 output_file: str | None = None) -> None:
        """``argv``: flake8's command line; ``formatter``: one of ours instead of flake8's ``--format``;
        ``output_file``: flake8's ``--output-file``."""
        self.argv = list(argv)
        try:
            plugins, self.options = parse_args(self.argv)
        except Flake8Exception as error:  # a missing --config file: usage, as for argparse's errors
            print(f'flake8-escapes: error: {error}', file=sys.stderr)
            raise SystemExit(2) from None
        if output_file:
            self.options.output_file = output_file
        self.formatter = (formatter(self.options) if formatter
                          else reporter.make(plugins.reporters, self.options))
        try:
            self.guide = StyleGuideManager(self.options, self.formatter)
        except Flake8Exception as error:  # a malformed per-file-ignores: flake8's message, on one line
            print(f'flake8-escapes: error: {" ".join(str(error).split())}', file=sys.stderr)
            raise SystemExit(2) from None
        value = getattr(self.options, 'escapes_regex_functions', '')
        # argparse converts a default given as text; flake8 6 may hand over the raw value
        self.regex_functions: tuple[apis.Api, ...] = (
            regex_functions_argument(value) if isinstance(value, str) else value)

    def reports(self, code: str, path: str) -> bool:
        """Would flake8 report ``code`` in ``path`` (before ``# noqa``)?"""
        return self.guide.style_guide_for(path).should_report_error(code) is Decision.Selected

    def ignores_all(self, codes: Iterable[str]) -> bool:
        """Does the configuration's ``ignore``/``extend-ignore`` drop every one of ``codes``
        (``extend-ignore = E`` drops ESC by prefix)?  Not so when they are merely not selected."""
        decider = self.guide.default_style_guide.decider
        codes = list(codes)
        return (not any(decider.decision_for(code) is Decision.Selected for code in codes)
                and any(decider.was_ignored(code) is Ignored.Explicitly for code in codes))

    def reported(self, codes: Iterable[str], path: str) -> set[str]:
        """Those of ``codes`` flake8 would report in ``path``."""
        return {code for code in codes if self.reports(code, path)}

    def files(self, givens: Sequence[str] = ()) -> Iterator[str]:
        """The files flake8 would check, in a stable order (``-`` for standard input):
        under ``givens``, or else the paths of the command line."""
        options = self.options
        exclude = [*options.exclude, *options.extend_exclude]

        def excluded(path: str) -> bool:
            if path == '-':
                if options.stdin_display_name == 'stdin':
                    return False
                path = options.stdin_display_name
            matched: bool = utils.matches_filename(path, patterns=exclude, log_message='"%(path)s" has '
                                                   '%(whether)sbeen excluded', logger=LOG)
            return matched

        for given in givens or options.filenames or ['.']:
            if excluded(given):
                continue
            if given == '-' or not os.path.isdir(given):
                yield given
                continue
            for folder, dirs, names in os.walk(given):
                dirs[:] = sorted(name for name in dirs if not excluded(os.path.join(folder, name))
                                 and not os.path.isfile(os.path.join(folder, name, VENV_MARKER)))
                for name in sorted(names):
                    path = os.path.join(folder, name)
                    if (not excluded(path) and utils.fnmatch(path, options.filename)
                            and os.path.isfile(path)):
                        yield path
