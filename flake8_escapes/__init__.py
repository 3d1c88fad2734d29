"""flake8-escapes: backslash mistakes in Python string literals.

Also what every part of the package shares: its version, and the collector paused per file."""
from __future__ import annotations

import contextlib
import gc
from typing import Iterator


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic garbage collector paused while one file is checked or fixed,
    then on again as it was: the checks and the fixer make several objects per
    token and per node (hundreds of thousands in a big file), none of them in a
    cycle, freed by their reference counts, and the collector would walk them
    again and again as they pile up (a third of the plugin's time on a file of
    a thousand f-strings, 40% of the fixer's on one of 20,000 literals, 7% of
    ``check``'s CPU on the standard library)."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def __getattr__(name: str) -> str:
    """``__version__``, read from the installed metadata when first asked: not
    by every flake8 process that loads the plugin (flake8 reads the
    distribution's version itself)."""
    if name != '__version__':
        raise AttributeError(f'module {__name__!r} has no attribute {name!r}')
    import importlib.metadata
    try:
        version = importlib.metadata.version('flake8-escapes')
    except importlib.metadata.PackageNotFoundError:  # run from a bare checkout
        version = '0+unknown'
    globals()['__version__'] = version
    return version
