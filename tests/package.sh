#!/usr/bin/env bash
# tox -e package: what a release would publish, checked as a user meets it.
#   1. python -m build: the sdist and the wheel; twine check --strict on both;
#   2. both hold LICENSE and the code pages (docs/ESC*.md, the wheel's flake8_escapes/pages/);
#      the sdist holds the tests and their data;
#   3. the wheel installed into a fresh virtualenv (no checkout on sys.path)
#      finds the sample's reports through flake8, and `flake8-escapes explain` prints a page;
#   4. the sdist's own tests (all but the slow and the client ones) pass from its unpacked tree.
set -euo pipefail
tmp=$1
rm -rf "$tmp" && mkdir -p "$tmp"
python -m build --outdir "$tmp/dist" .
twine check --strict "$tmp"/dist/*
wheel=$(ls "$tmp"/dist/*.whl)
sdist=$(ls "$tmp"/dist/*.tar.gz)
wheel_listing=$(python -m zipfile -l "$wheel")
grep -q 'licenses/LICENSE' <<<"$wheel_listing" || { echo "package: no LICENSE in $wheel" >&2; exit 1; }
pages=$(cd docs && ls ESC*.md)
for page in $pages; do
    grep -q "flake8_escapes/pages/$page " <<<"$wheel_listing" || { echo "package: $page missing from $wheel" >&2; exit 1; }
done
listing=$(tar tzf "$sdist")
for needed in LICENSE README.md CHANGELOG.md tests/test_invalid.py tests/helpers.py tests/data/sample.py tests/data/regex_labeled.py \
              $(sed 's|^|docs/|' <<<"$pages"); do
    grep -q "/$needed\$" <<<"$listing" || { echo "package: $needed missing from $sdist" >&2; exit 1; }
done
python -m virtualenv -q "$tmp/venv"
"$tmp/venv/bin/python" -m pip install -q "$wheel"
cd "$tmp"   # away from the checkout: the installed wheel only
set +e
"$tmp/venv/bin/python" -m flake8 --select=ESC "$OLDPWD/tests/data/sample.py" > "$tmp/sample.out"
status=$?
set -e
cat "$tmp/sample.out"
[ "$status" = 1 ] || { echo "package: flake8 exited $status on the sample, not 1" >&2; exit 1; }
for code in ESC301 ESC302 ESC303 ESC401 ESC402 ESC501; do
    grep -q ": $code " "$tmp/sample.out" || { echo "package: the wheel did not report $code on the sample" >&2; exit 1; }
done
"$tmp/venv/bin/flake8-escapes" explain ESC301 | grep -q 'ESC301'
# explain reads the page the wheel carries (no docs/ here): the plain text, 30 to 50 lines, and the Markdown
"$tmp/venv/bin/flake8-escapes" explain ESC501 > "$tmp/explain.out"
cat "$tmp/explain.out"
head -1 "$tmp/explain.out" | grep -qx 'ESC501: escape-in-windows-path' || { echo "package: explain ESC501 printed no page" >&2; exit 1; }
lines=$(wc -l < "$tmp/explain.out")
[ "$lines" -ge 30 ] && [ "$lines" -le 50 ] || { echo "package: explain ESC501 printed $lines lines, not 30 to 50" >&2; exit 1; }
"$tmp/venv/bin/flake8-escapes" explain esc501 --markdown | cmp -s - "$OLDPWD/docs/ESC501.md" || { echo "package: explain --markdown is not docs/ESC501.md" >&2; exit 1; }
mkdir "$tmp/src" && tar xzf "$sdist" -C "$tmp/src"
src=$(ls -d "$tmp"/src/*/)
"$tmp/venv/bin/python" -m pip install -q pytest hypothesis
(cd "$src" && "$tmp/venv/bin/python" -m pytest -q -p no:cacheprovider -m "not slow and not clients")
echo "package: OK ($(basename "$wheel"), $(basename "$sdist"))"
