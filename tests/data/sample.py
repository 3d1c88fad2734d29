"""Backslash mistakes that flake8-escapes reports: see README.md."""
import re

WORD = re.compile('\w+')        # ESC301: '\w' is no escape; the regex works by luck
FORMULA = '$\latex$'            # ESC301
TOKENS = '|([\[\{\(])'          # ESC301 three times (bottle, 2014)
EURO = b'\u20ac'                # ESC302: bytes have no \u escape
MODE = '\777'                   # ESC303: above \377
FINE = r'\w+', '\\latex', '\n', '\x1b[0m'
