"""Fetch old releases from PyPI for tests/survey.py (needs the network).

    python tests/fetch_releases.py DIR [LIST]

LIST (default tests/data/survey_releases.txt) holds groups of project names,
each opened by a line "before YYYY-MM-DD": for each project the last sdist or
wheel uploaded before that date is unpacked into DIR/<group date>/<name>-<version>.
Projects with no such file are listed and skipped.  Not run by the test suite.
"""
from __future__ import annotations

import io
import json
import os
import sys
import tarfile
import urllib.parse
import urllib.request
import zipfile
from concurrent.futures import ThreadPoolExecutor

ARCHIVES = ('.tar.gz', '.tgz', '.zip', '.whl')
INDEX = 'https://pypi.org/pypi/{}/json'


def groups(path: str) -> list[tuple[str, list[str]]]:
    result: list[tuple[str, list[str]]] = []
    with open(path, encoding='utf-8') as f:
        for line in f:
            line = line.split('#', 1)[0].strip()
            if line.startswith('before '):
                result.append((line.split()[1], []))
            elif line:
                result[-1][1].extend(line.split())
    return result


def fetch(name: str, before: str, into: str) -> str:
    url = INDEX.format(name)
    try:
        with urllib.request.urlopen(url, timeout=60) as response:
            releases = json.load(response)['releases']
    except OSError as error:
        return f'{name}: no index ({error})'
    files = [(f['upload_time'], version, f) for version, fs in releases.items() for f in fs
             if f['upload_time'] < before and f['filename'].endswith(ARCHIVES)]
    if not files:
        return f'{name}: nothing before {before}'
    _, version, chosen = max(files, key=lambda item: item[0])
    target = os.path.join(into, f'{name}-{version}')
    if os.path.exists(target):
        return f'{target}: already there'
    try:
        with urllib.request.urlopen(urllib.parse.urljoin(url, chosen['url']), timeout=300) as response:
            data = response.read()
        os.makedirs(target)
        if chosen['filename'].endswith(('.zip', '.whl')):
            zipfile.ZipFile(io.BytesIO(data)).extractall(target)
        else:
            with tarfile.open(fileobj=io.BytesIO(data)) as archive:
                if hasattr(tarfile, 'data_filter'):  # 3.12+, and 3.10/3.11 security releases
                    archive.extractall(target, filter='data')
                else:
                    archive.extractall(target)
    except (OSError, tarfile.TarError, zipfile.BadZipFile) as error:
        return f'{name}: {chosen["filename"]} not unpacked ({error})'
    return f'{target}: {chosen["filename"]} ({chosen["upload_time"][:10]})'


def main() -> int:
    into = sys.argv[1]
    listing = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(__file__), 'data',
                                                                 'survey_releases.txt')
    for before, names in groups(listing):
        folder = os.path.join(into, before)
        with ThreadPoolExecutor(8) as pool:
            for line in pool.map(lambda name: fetch(name, before, folder), dict.fromkeys(names)):
                print(line, flush=True)
    return 0


if __name__ == '__main__':
    sys.exit(main())
