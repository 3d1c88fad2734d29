"""flake8-escapes: backslash mistakes in Python string literals."""
from __future__ import annotations

import importlib.metadata

try:
    __version__ = importlib.metadata.version('flake8-escapes')
except importlib.metadata.PackageNotFoundError:  # run from a bare checkout
    __version__ = '0+unknown'
