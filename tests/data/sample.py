"""Backslash mistakes that flake8-escapes reports: see README.md."""
import re

WORD = re.compile('\w+')        # ESC301: '\w' is no escape; the regex works by luck
FORMULA = '$\latex$'            # ESC301
TOKENS = '|([\[\{\(])'          # ESC301 three times (bottle, 2014)
EURO = b'\u20ac'                # ESC302: bytes have no \u escape
MODE = '\777'                   # ESC303: above \377
HTML = re.sub(r'(\w+)', '<\1>', 'text')  # ESC401: '\1' is U+0001, not group 1
FOUND = re.search('\bword\b', 'text')  # ESC402 twice: '\b' is a backspace here
PATH = 'C:\temp\new.txt'             # ESC501 twice: a tab and a newline
FINE = r'\w+', '\\latex', '\n', '\x1b[0m'
LABEL = '$\theta$'                   # ESC601: a tab and 'heta'


def split_lines(text):
    """Split at line breaks.

    >>> split_lines('a\nb')
    ['a', 'b']
    """
    return text.split('\n')             # ESC602 above: doctest runs a line cut at '\n'
