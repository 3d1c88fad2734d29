"""flake8-escapes: backslash mistakes in Python string literals."""
from __future__ import annotations


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
