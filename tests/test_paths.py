"""ESC501 beyond the data cases: the labeled set's score, and flake8 end to end.

The rules for each shape are data cases in tests/data/paths.py.
"""
from __future__ import annotations

from helpers import labeled_score
from test_flake8 import flake8


def test_labeled_set_precision_and_recall():
    score = labeled_score('paths_labeled.py', ('ESC501',))
    assert score['hazard cases'] >= 40 and score['clean cases'] >= 40, score
    assert score['fp'] == 0, score
    assert score['tp'] / (score['tp'] + score['fn']) >= 0.9, score


BAD = "import os\nos.chdir('C:\\new')\nmemo = '..\\training\\new_memo.doc'\nlabel = 'A:\\b'\n"


def test_end_to_end(tmp_path):
    (tmp_path / 'bad.py').write_text(BAD)
    assert flake8(tmp_path, '--select=ESC', 'bad.py') == (1, [
        "bad.py:2:13: ESC501 '\\n' in a Windows path is a newline; use a raw string or forward slashes",
        "bad.py:3:11: ESC501 '\\t' in a Windows path is a tab; use a raw string or forward slashes",
        "bad.py:3:20: ESC501 '\\n' in a Windows path is a newline; use a raw string or forward slashes",
    ])


if __name__ == '__main__':
    print(labeled_score('paths_labeled.py', ('ESC501',)))
