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

One addition to flake8's configuration, for the commands only (flake8, and
so the plugin inside it, does not read it): a ``[tool.flake8]`` table of
``pyproject.toml``, the Flake8-pyproject convention, read when the search
finds no flake8 ini section (setup.cfg, tox.ini, .flake8) in the same folder
or below it (``config_file``), or named by ``--config``.

``walk`` is the walk of both commands: a path given that does not exist is
said and makes the command exit 2 (a CI path typo must fail); a folder given
where no Python file is found is said too (a warning: exit 0).
"""
from __future__ import annotations

import argparse
import configparser
import contextlib
import fnmatch
import logging
import os
import re
import stat
import sys
import textwrap
from types import ModuleType
from typing import Any, Callable, Iterable, Iterator, NoReturn, Sequence

import flake8
from flake8 import utils
from flake8.exceptions import ExecutionError, Flake8Exception
from flake8.formatting.base import BaseFormatter
from flake8.main.options import JobsArgument, register_default_options, stage1_arg_parser
from flake8.options import config as flake8_config
from flake8.options.aggregator import aggregate_options
from flake8.options.manager import OptionManager
from flake8.options.parse_args import parse_args
from flake8.plugins import finder, reporter
from flake8.style_guide import Decision, Ignored, StyleGuideManager

from flake8_escapes import apis, output
from flake8_escapes.plugin import REGEX_FUNCTIONS_OPTION, regex_functions_argument

LOG = logging.getLogger(__name__)

#: flake8's default ``filename``, and the pattern of the notebooks ``check`` and ``fix`` add to it.
DEFAULT_FILENAME = '*.py'
NOTEBOOKS = '*.ipynb'
#: The prefix of the argparse destinations handed on to flake8's parser as they were written.
PASSED_ON = 'flake8_'
VENV_MARKER = 'pyvenv.cfg'
#: flake8's default ``--filename``: the files a walk reads when the configuration names none.
DEFAULT_FILENAME = '*.py'
#: flake8's log line for a path matched against ``--exclude``.
EXCLUDED = '"%(path)s" has %(whether)sbeen excluded'
PYPROJECT = 'pyproject.toml'
#: flake8's own loader, which ``load_config`` stands in for while flake8 parses our options.
FLAKE8_LOAD_CONFIG = flake8_config.load_config


def toml_reader() -> ModuleType | None:
    """``tomllib`` (3.11+), or ``tomli`` where it is installed (3.10), or None."""
    for name in ('tomllib', 'tomli'):
        try:
            return __import__(name)
        except ImportError:
            pass
    return None


_noted_no_toml = False


def tool_flake8(path: str) -> dict[str, str] | None:
    """The ``[tool.flake8]`` table of a ``pyproject.toml`` as flake8 reads an ini section: each
    value as text (a list one item per line, as a multi-line ini value; true/false; numbers as
    written); None when the file has no such table, or on 3.10 without ``tomli`` (said once).
    A file that is not TOML, or a value that is a table, is refused (``Unusable``)."""
    global _noted_no_toml
    try:
        with open(path, 'rb') as f:
            data = f.read()
    except OSError:
        return None
    if b'flake8' not in data:  # most pyproject.toml files: not parsed
        return None
    reader = toml_reader()
    if reader is None:
        if not _noted_no_toml and re.search(rb'^\s*\[\s*tool\s*\.\s*flake8\s*\]', data, re.MULTILINE):
            _noted_no_toml = True
            output.say(f'{shown_path(path)}: [tool.flake8] not read: this Python reads TOML only with '
                       'tomli installed (pip install tomli)', sys.stderr)
        return None
    try:
        table = reader.loads(data.decode('utf-8')).get('tool', {}).get('flake8')
    except (UnicodeDecodeError, reader.TOMLDecodeError) as error:
        raise Unusable(f'{shown_path(path)}: not TOML: {error}') from None
    if not isinstance(table, dict):
        return None
    return {name: ini_value(path, name, value) for name, value in table.items()}


def ini_value(path: str, name: str, value: object) -> str:
    """A TOML value as the text of an ini option (what Flake8-pyproject hands flake8)."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, list):
        return '\n'.join(ini_value(path, name, item) for item in value)
    if isinstance(value, dict):
        raise Unusable(f'{shown_path(path)}: [tool.flake8] {name}: a table, not a value')
    return str(value)


def _pyproject(folder: str) -> str | None:
    """The nearest ``pyproject.toml`` with a ``[tool.flake8]`` table from ``folder`` up, in
    flake8's search (it stops at the root or at the home folder, as ``_find_config_file``)."""
    home = os.path.expanduser('~')
    while True:
        path = os.path.join(folder, PYPROJECT)
        if os.path.isfile(path) and tool_flake8(path) is not None:
            return path
        parent = os.path.dirname(folder)
        if parent == folder or (home != '~' and os.path.exists(parent) and os.path.samefile(parent, home)):
            return None
        folder = parent


def config_file(folder: str) -> str | None:
    """The config file flake8 finds from ``folder`` up (``setup.cfg``, ``tox.ini``, ``.flake8``
    with a flake8 section), or a ``pyproject.toml`` with ``[tool.flake8]`` where none is found in
    its folder or below it (nearer one first; in the same folder, the ini file)."""
    ini: str | None = flake8_config._find_config_file(folder)
    toml = _pyproject(folder)
    if toml and (ini is None or len(os.path.dirname(toml)) > len(os.path.dirname(ini))):
        return toml
    return ini


def read_config(path: str) -> configparser.RawConfigParser:
    """A config file as flake8 reads it (``pyproject.toml``'s ``[tool.flake8]`` as ``[flake8]``)."""
    cfg = configparser.RawConfigParser()
    if os.path.basename(path) == PYPROJECT:
        cfg.read_dict({'flake8': tool_flake8(path) or {}})
    else:
        cfg.read(path, encoding='UTF-8')
    return cfg


def load_config(config: str | None, extra: list[str], *,
                isolated: bool = False) -> tuple[configparser.RawConfigParser, str]:
    """flake8's ``load_config``, with a ``pyproject.toml`` found by ``config_file`` (or named by
    ``--config``) read too."""
    found = config if isolated or config is not None else config_file(os.path.abspath('.'))
    if isolated or found is None or os.path.basename(found) != PYPROJECT:
        return FLAKE8_LOAD_CONFIG(found, extra, isolated=isolated)  # type: ignore[no-any-return]
    if not os.path.isfile(found):
        raise ExecutionError(f'The specified config file does not exist: {found}')
    cfg = read_config(found)
    for filename in extra:  # flake8's --append-config, read after it
        if not cfg.read(filename, encoding='UTF-8'):
            raise ExecutionError(f'The specified config file does not exist: {filename}')
    return cfg, os.path.dirname(found)


@contextlib.contextmanager
def pyproject_read() -> Iterator[None]:
    """flake8's ``parse_args`` loads the configuration with ``load_config`` meanwhile."""
    setattr(flake8_config, 'load_config', load_config)
    try:
        yield
    finally:
        setattr(flake8_config, 'load_config', FLAKE8_LOAD_CONFIG)


def regex_functions_text(value: str) -> str:
    """``--escapes-regex-functions`` checked as flake8 will check it, kept as
    text to be handed to flake8's parser with the config file's value."""
    regex_functions_argument(value)
    return value


def known_codes(known: Sequence[str]) -> str:
    """``known`` as a usage error lists them: by family prefix (``ESC3 = ESC301-ESC305``)."""
    groups: dict[str, list[str]] = {}
    for code in known:
        groups.setdefault(code[:4] if code.startswith('ESC') else code, []).append(code)
    shown = ['ESC'] if 'ESC3' in groups else []
    for prefix, codes in groups.items():
        span = codes[0] if len(codes) == 1 else f'{codes[0]}-{codes[-1]}'
        shown.append(prefix if codes == [prefix] else f'{prefix} = {span}')
    return ', '.join(shown)


def codes_argument(known: Sequence[str], selecting: bool) -> Callable[[str], str]:
    """An argparse type for ``--select``/``--extend-select`` (``selecting``) and ``--ignore``/
    ``--extend-ignore``: each code (a prefix, as flake8 matches them) kept as text for flake8's
    parser, refused as ruff refuses an unknown rule selector: one in lower case (flake8 matches
    codes as written: ``esc301`` matches nothing; ruff refuses ``e501`` too), one to select that
    starts no code of ``known`` (``--select XYZ`` would report nothing, and exit 0), one to ignore
    that looks like ours (``ESC``...) and starts none.  Other codes to ignore pass: ignoring what
    the command never reports changes nothing, and a flake8 command line copied keeps working."""
    def codes(value: str) -> str:
        for item in utils.parse_comma_separated_list(value):
            matches = any(code.startswith(item) for code in known)
            if item != item.upper():
                raise argparse.ArgumentTypeError(
                    f'unknown code {item!r}: codes are upper case, as flake8 matches them ({item.upper()!r})')
            if not matches and (selecting or item.startswith('ESC')):
                raise argparse.ArgumentTypeError(f'unknown code {item!r} (known: {known_codes(known)})')
        return value
    return codes


def add_arguments(parser: argparse.ArgumentParser, *, selection: bool = True,
                  known: Sequence[str] = ()) -> None:
    """The flake8 options ``check`` (and, without ``selection``: without ``--select``, ``fix``) take;
    with ``known``, the codes the command reports, the codes given to them are checked
    (``codes_argument``)."""
    group = parser.add_argument_group(  # filled here: fix's help keeps a description's lines
        'configuration', textwrap.fill('read as flake8 reads it: the [flake8] section of setup.cfg, '
                                       'tox.ini or .flake8 (or else [tool.flake8] of pyproject.toml), '
                                       'then these options, which override it', 76))

    def option(name: str, **kwargs: Any) -> None:
        group.add_argument(name, dest=PASSED_ON + name.lstrip('-').replace('-', '_'), **kwargs)

    def codes(name: str) -> dict[str, Callable[[str], str]]:
        return {'type': codes_argument(known, name.endswith('select'))} if known else {}

    option('--config', metavar='FILE', help='the config file to read instead of searching')
    option('--append-config', action='append', default=[], metavar='FILE',
           help='one more config file, read last')
    option('--isolated', action='store_true', help='read no config file')
    # fix has a --select of its own: the codes to fix, among those flake8 would report
    for name in ('--select',) * selection + ('--extend-select', '--ignore', '--extend-ignore'):
        option(name, metavar='CODES', help=f"as flake8's {name}", **codes(name))
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
        with refusals_raised(), pyproject_read():
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
    found = first.config or config_file(os.path.abspath('.'))
    files = [found, *first.append_config] if found else list(first.append_config)
    try:
        cfg, cfg_dir = load_config(first.config, first.append_config)
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
            section = '[tool.flake8]' if os.path.basename(path) == PYPROJECT else '[flake8]'
            return f'{shown_path(path)}: {section} {name}'
    return None


def _reads(path: str) -> bool:
    try:
        configparser.RawConfigParser().read(path, encoding='UTF-8')
    except ValueError:
        return False
    return True


def _refused_option(path: str, aggregate: Callable[[configparser.RawConfigParser], Any]) -> str | None:
    """The first option of ``path``'s [flake8] section that ``aggregate`` refuses read alone."""
    cfg = read_config(path)
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
        self.folder = os.getcwd()  # where flake8 would run: ``skips`` walks from here
        plugins, self.options = parsed(self.argv)
        self.reporters = frozenset(plugins.reporters)  # flake8's formatters' names, plugins' too
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

    def skips(self, path: str) -> bool:
        """Would ``flake8`` run in this configuration's folder leave the file at ``path`` out?
        Yes when ``exclude``/``extend-exclude`` match it or a folder between the run's folder and
        it (flake8's walk prunes an excluded folder), or when the configuration names ``filename``
        patterns and none matches its name or its absolute path.  flake8's default ``filename``
        (``*.py``) is not applied: an editor says which of its documents are Python (a ``.pyi``
        or an untitled buffer is one)."""
        options = self.options
        matches_exclude = Patterns([*options.exclude, *options.extend_exclude])
        path = os.path.abspath(path)
        folder = os.path.join(self.folder, '')
        below = path[len(folder):].split(os.sep) if path.startswith(folder) else [path]
        walked = folder if path.startswith(folder) else ''
        for part in below:
            walked = os.path.join(walked, part)
            if matches_exclude.excludes(walked):
                return True
        named = [pattern for pattern in options.filename if pattern]
        if not named or named == [DEFAULT_FILENAME]:
            return False
        matches_filename = Patterns(named)
        return not (matches_filename(os.path.basename(path)) or matches_filename(path))

    def files(self, givens: Sequence[str] = ()) -> Iterator[str]:
        """The files flake8 would check, in a stable order (``-`` for standard input):
        under ``givens``, or else the paths of the command line."""
        options = self.options
        matches_exclude = Patterns([*options.exclude, *options.extend_exclude])
        # notebooks too by default, as ruff reads them; a ``filename`` of other patterns leaves them out
        names = list(options.filename)
        matches_filename = Patterns([*names, NOTEBOOKS] if names == [DEFAULT_FILENAME] else names)

        def excluded(path: str) -> bool:
            if path == '-':
                if options.stdin_display_name == 'stdin':
                    return False
                path = options.stdin_display_name
            return matches_exclude.excludes(path)

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
                    if not excluded(path) and matches_filename(path) and os.path.isfile(path):
                        yield path


class Patterns:
    """flake8's file-name patterns (``--exclude``, ``--filename``), matched as ``flake8.utils``
    matches them (``fnmatch`` on each pattern: any one matches), by one regex for them all."""

    def __init__(self, patterns: Sequence[str]) -> None:
        self.patterns = patterns
        try:
            self.match: Callable[[str], object] | None = re.compile('|'.join(
                fnmatch.translate(os.path.normcase(pattern)) for pattern in patterns)).match
        except re.error:  # a pattern fnmatch reads but cannot be joined to the others: one at a time
            self.match = None

    def __call__(self, name: str) -> bool:
        """``utils.fnmatch``: does a pattern match ``name`` (True when there are none)?"""
        if not self.patterns:
            return True
        if self.match is None:
            found: bool = utils.fnmatch(name, self.patterns)
            return found
        return self.match(os.path.normcase(name)) is not None

    def excludes(self, path: str) -> bool:
        """``utils.matches_filename``: does a pattern match the path's base name, or its absolute
        path (False when there are none)?  Logged as flake8 logs it."""
        if not self.patterns:
            return False
        basename = os.path.basename(path)
        if basename not in ('.', '..') and self(basename):
            LOG.debug(EXCLUDED, {'path': basename, 'whether': ''})
            return True
        absolute = os.path.abspath(path)
        match = self(absolute)
        LOG.debug(EXCLUDED, {'path': absolute, 'whether': '' if match else 'not '})
        return match


def walk(settings: Config, paths: Sequence[str], *, once: bool = False) -> tuple[list[str], bool]:
    """(the files to read under ``paths``, was a path missing?): ``Config.files`` for each path
    given, for ``check`` and ``fix`` alike.  A path that does not exist (or cannot be looked at)
    is said on standard error and left out: the command exits 2 once the other files are done
    (ruff says E902; flake8 said E902 only when E902 was selected, and nothing with
    ``--select ESC``).  A folder given where no Python file is found is said, a warning.
    ``once`` (``fix``): each file once (a path given twice, or through a symlink, is fixed once),
    and a file found in a folder whose real path is outside every folder given (a symlink out of
    the tree) is left alone, with one line, unless it is named itself."""
    files: list[str] = []
    missing = False
    seen = set()
    folders = tuple(os.path.join(os.path.realpath(path), '') for path in paths if os.path.isdir(path))
    for given in paths:
        try:
            is_folder = given != '-' and stat.S_ISDIR(os.stat(given).st_mode)
        except OSError as error:
            output.say(f'{output.shown(given)}: cannot read: {error.strerror or error}', sys.stderr)
            missing = True
            continue
        count = 0
        for name in settings.files([given]):
            count += 1
            key = os.path.realpath(name) if once and name != '-' else name
            if not once:
                files.append(name)
            elif name != given and not key.startswith(folders):
                output.say(f'{output.shown(name)}: left alone: it leads to {output.shown(key)}, outside '
                           'the folders given (name it to fix it)', sys.stderr)
            elif key not in seen:
                seen.add(key)
                files.append(name)
        if not count and is_folder:
            output.say(f'{output.shown(given)}: no Python file found', sys.stderr)
    return files, missing
