#!/usr/bin/env bash
# tox -e package: what a release would publish, checked as a user meets it.
#   1. python -m build: the sdist and the wheel; twine check --strict on both;
#   2. both hold LICENSE; the sdist holds the tests and their data;
#   3. the wheel installed into a fresh virtualenv (no checkout on sys.path)
#      finds the sample's reports through flake8, and `flake8-escapes explain` works;
#   4. the sdist's own tests (all but the slow and the client ones) pass from its unpacked tree.
set -euo pipefail
tmp=$1
rm -rf "$tmp" && mkdir -p "$tmp"
python -m build --outdir "$tmp/dist" .
twine check --strict "$tmp"/dist/*
wheel=$(ls "$tmp"/dist/*.whl)
sdist=$(ls "$tmp"/dist/*.tar.gz)
python -m zipfile -l "$wheel" | grep -q 'licenses/LICENSE' || { echo "package: no LICENSE in $wheel" >&2; exit 1; }
listing=$(tar tzf "$sdist")
for needed in LICENSE README.md CHANGELOG.md tests/test_invalid.py tests/helpers.py tests/data/sample.py tests/data/regex_labeled.py; do
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
mkdir "$tmp/src" && tar xzf "$sdist" -C "$tmp/src"
src=$(ls -d "$tmp"/src/*/)
"$tmp/venv/bin/python" -m pip install -q pytest hypothesis
(cd "$src" && "$tmp/venv/bin/python" -m pytest -q -p no:cacheprovider -m "not slow and not clients")
echo "package: OK ($(basename "$wheel"), $(basename "$sdist"))"
