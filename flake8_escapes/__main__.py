"""``python -m flake8_escapes``: the same as the ``flake8-escapes`` command."""
import sys

from flake8_escapes.cli import main

sys.exit(main())
