"""tox's inline plugin for this project: find the Pythons a user has, and say which envs were skipped.

tox looks for ``python3.10`` ... ``python3.15`` on ``PATH``.  pyenv's shims
are there, but tox's interpreter discovery cannot run them (it asks for each
version without pyenv's environment), so with pyenv every version but the
default was skipped under a green "congratulations".  So each installed pyenv
version's own ``bin`` folder is added at the end of ``PATH`` (a Python the user
put on ``PATH`` still comes first), and, since ``skip_missing_interpreters``
still skips the versions nobody installed, the run ends with one line that
names the envs skipped and the interpreter each lacked.
"""
from __future__ import annotations

import atexit
import os
import re
import shutil
import subprocess
import sys
from typing import Any

from tox.plugin import impl


def pyenv_bins() -> list[str]:
    """The ``bin`` folder of each Python pyenv installed (not its virtualenvs); none without pyenv."""
    if not shutil.which('pyenv'):
        return []
    try:
        root = subprocess.run(['pyenv', 'root'], capture_output=True, text=True, timeout=30).stdout.strip()
        names = subprocess.run(['pyenv', 'versions', '--bare', '--skip-aliases'], capture_output=True,
                               text=True, timeout=30).stdout.split()
    except (OSError, subprocess.SubprocessError):
        return []
    folders = [os.path.join(root, 'versions', name) for name in names if '/' not in name]
    return [os.path.join(folder, 'bin') for folder in folders
            if os.path.isdir(os.path.join(folder, 'bin'))
            and not os.path.exists(os.path.join(folder, 'pyvenv.cfg'))]


def executable(spec: str) -> str:
    """The program tox looks for: ``py310`` is ``python3.10``; ``python3.11`` is itself."""
    short = re.fullmatch(r'py(\d)(\d+)', spec)
    return f'python{short.group(1)}.{short.group(2)}' if short else spec


_added = [folder for folder in pyenv_bins() if folder not in os.environ.get('PATH', '').split(os.pathsep)]
if _added:
    os.environ['PATH'] = os.pathsep.join([os.environ.get('PATH', ''), *_added])
#: env name -> the interpreter it could not find
_skipped: dict[str, str] = {}


@impl
def tox_env_teardown(tox_env: Any) -> None:
    try:
        specs = [executable(str(spec)) for spec in tox_env.conf['base_python']]
    except Exception:  # a note at the end must never break the run
        return
    if specs and not any(shutil.which(spec) for spec in specs):
        _skipped[tox_env.name] = specs[0]


def _say_skipped() -> None:
    if _skipped:
        print(f'tox: skipped {", ".join(_skipped)}: {", ".join(sorted(set(_skipped.values())))} '
              f'not found (install each, or put its bin folder on PATH)', file=sys.stderr)


atexit.register(_say_skipped)
