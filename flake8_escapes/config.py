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
import configparser
import contextlib
import logging
import os
import re
import textwrap
from typing import Any, Callable, Iterable, Iterator, NoReturn, Sequence

import flake8
from flake8 import utils
from flake8.exceptions import Flake8Exception
from flake8.formatting.base import BaseFormatter
from flake8.main.options import JobsArgument, register_default_options, stage1_arg_parser
from flake8.options import config as flake8_config
from flake8.options.aggregator import aggregate_options
from flake8.options.manager import OptionManager
from flake8.options.parse_args import parse_args
from flake8.plugins import finder, reporter
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


class Unusable(Exception):
    """A configuration (file or command line) flake8 refuses: one line naming the file and the
    option where it can be found; the commands print it as their usage error and exit 2."""

    def __init__(self, message: str) -> None:
        super().__init__(' '.join(message.split()))


class Refused(Exception):
    """flake8's argument parser refused a value: raised where its ``error`` would print
    ``usage: flake8`` and exit (a config file's value is converted by the option's type)."""


@contextlib.contextmanager
def refusals_raised() -> Iterator[None]:
    """argparse's ``error`` raises ``Refused`` meanwhile (flake8's parser is made inside
    ``parse_args``, out of reach: the class's method is swapped, and put back)."""
    def refuse(parser: argparse.ArgumentParser, message: str) -> NoReturn:
        raise Refused(message)
    error = argparse.ArgumentParser.error
    setattr(argparse.ArgumentParser, 'error', refuse)
    try:
        yield
    finally:
        setattr(argparse.ArgumentParser, 'error', error)


def parsed(argv: list[str]) -> tuple[finder.Plugins, argparse.Namespace]:
    """flake8's ``parse_args``; what it refuses raised as ``Unusable``, one line naming the
    config file and the option (``max-line-length = abc``, a duplicate option or section)."""
    try:
        with refusals_raised():
            return parse_args(argv)  # type: ignore[no-any-return]
    except Flake8Exception as error:  # a missing --config file, a missing required plugin
        raise Unusable(str(error)) from None
    except configparser.Error as error:
        raise Unusable(config_error(error)) from None
    except (ValueError, Refused) as error:  # a value flake8 cannot convert (UnicodeDecodeError too)
        raise Unusable(value_error(argv, error)) from None


def shown_path(path: str) -> str:
    """A config file's name as flake8 found it (absolute), shown relative to the current folder."""
    try:
        relative = os.path.relpath(path)
    except ValueError:  # another drive
        return path
    return path if relative.startswith(os.pardir + os.sep) and os.path.isabs(path) else relative


def config_error(error: configparser.Error) -> str:
    """A config file that does not read (a duplicate option or section, a line that is not
    ``name = value``), from configparser's error: the file, its line, what is wrong."""
    source = getattr(error, 'source', None)
    lineno = getattr(error, 'lineno', None)
    if isinstance(error, configparser.DuplicateOptionError):
        why = f'option {error.option!r} of [{error.section}] given again'
    elif isinstance(error, configparser.DuplicateSectionError):
        why = f'section [{error.section}] given again'
    elif isinstance(error, configparser.MissingSectionHeaderError):
        why = 'text before the first [section]'
    elif isinstance(error, configparser.ParsingError) and getattr(error, 'errors', None):
        lineno = error.errors[0][0]
        why = 'neither "name = value" nor a [section]'
    else:
        return str(error)
    where = shown_path(source) if source else 'a config file'
    return f'{where}, line {lineno}: {why}' if lineno else f'{where}: {why}'


def value_error(argv: Sequence[str], error: Exception) -> str:
    """A config file's value flake8 refuses (``max-line-length = abc``): the file and the option,
    found by reading each option alone as flake8 reads it (``bad_option``), and why."""
    why = re.sub(r'^argument [^ :]+: ', '', str(error))  # argparse's: the option is named below
    if isinstance(error, UnicodeDecodeError):
        why = f'not UTF-8 ({error})'
    try:
        where = bad_option(argv)
    except Exception:  # a diagnosis only: flake8's own message is still worth one line
        where = None
    return f'{where}: {why}' if where else f'the configuration: {why}'


def bad_option(argv: Sequence[str]) -> str | None:
    """``FILE: [flake8] NAME`` of the first option flake8 refuses when each option of each config
    file is read alone, as ``parse_args`` reads the merged ones (its steps, with its own functions);
    ``FILE`` alone for a file that does not read; None when each option reads alone."""
    prelim = stage1_arg_parser()
    first, _ = prelim.parse_known_args(argv)
    if first.isolated:
        return None
    found = first.config or flake8_config._find_config_file(os.path.abspath('.'))
    files = [found, *first.append_config] if found else list(first.append_config)
    try:
        cfg, cfg_dir = flake8_config.load_config(first.config, first.append_config)
    except ValueError:  # a file that is not UTF-8
        return next((shown_path(path) for path in files if not _reads(path)), None)
    plugin_options = finder.parse_plugin_options(
        cfg, cfg_dir, enable_extensions=first.enable_extensions, require_plugins=first.require_plugins)
    plugins = finder.load_plugins(finder.find_plugins(cfg, plugin_options), plugin_options)
    manager = OptionManager(version=flake8.__version__, plugin_versions=plugins.versions_str(),
                            parents=[prelim], formatter_names=list(plugins.reporters))
    register_default_options(manager)
    manager.register_plugins(plugins)
    for path in files:
        name = _refused_option(path, lambda alone: aggregate_options(
            manager, alone, os.path.dirname(path), []))
        if name:
            return f'{shown_path(path)}: [flake8] {name}'
    return None


def _reads(path: str) -> bool:
    try:
        configparser.RawConfigParser().read(path, encoding='UTF-8')
    except ValueError:
        return False
    return True


def _refused_option(path: str, aggregate: Callable[[configparser.RawConfigParser], Any]) -> str | None:
    """The first option of ``path``'s [flake8] section that ``aggregate`` refuses read alone."""
    cfg = configparser.RawConfigParser()
    cfg.read(path, encoding='UTF-8')
    if not cfg.has_section('flake8'):
        return None
    for name, value in cfg.items('flake8'):
        alone = configparser.RawConfigParser()
        alone.read_dict({'flake8': {name: value}})
        try:
            with refusals_raised():
                aggregate(alone)
        except (ValueError, Refused):
            return name
    return None


class Config:
    """flake8's options for one run, and the decisions taken from them."""

    def __init__(self, argv: Sequence[str], formatter: type[BaseFormatter] | None = None,
                 output_file: str | None = None) -> None:
        """``argv``: flake8's command line; ``formatter``: one of ours instead of flake8's ``--format``;
        ``output_file``: flake8's ``--output-file``."""
        self.argv = list(argv)
        plugins, self.options = parsed(self.argv)
        if output_file:
            self.options.output_file = output_file
        self.formatter = (formatter(self.options) if formatter
                          else reporter.make(plugins.reporters, self.options))
        try:
            self.guide = StyleGuideManager(self.options, self.formatter)
        except Flake8Exception as error:  # a malformed per-file-ignores: flake8's message, on one line
            raise Unusable(str(error)) from None
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
