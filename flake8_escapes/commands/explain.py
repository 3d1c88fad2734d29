"""``flake8-escapes explain``: a code's documentation as plain text (or Markdown)."""
from __future__ import annotations

import argparse
import importlib.metadata
import re
import sys
from pathlib import Path

from flake8_escapes import rules


def readme() -> str:
    """The README: the package's long description (one source for the
    README, its sections and ``explain``), or README.md beside a checkout."""
    try:
        meta = importlib.metadata.metadata('flake8-escapes')
        text = meta['Description'] or meta.get_payload()  # type: ignore[attr-defined]
    except importlib.metadata.PackageNotFoundError:
        text = None
    if not text:
        text = (Path(__file__).resolve().parent.parent.parent / 'README.md').read_text(encoding='utf-8')
    return text


def section(text: str, code: str) -> str | None:
    """The ``### CODE`` section of the README text, heading included."""
    lines = text.splitlines()
    for start, line in enumerate(lines):
        if line.strip() == f'### {code}':
            end = start + 1
            while end < len(lines) and not lines[end].startswith(('## ', '### ')):
                end += 1
            return '\n'.join(lines[start:end]).rstrip() + '\n'
    return None


#: Where the files under tests/ that a section names are: not in an installed package.
TESTS_ELSEWHERE = ('The files under tests/ named above are in the source repository ({url}), '
                   'not in the installed package.')


def spoken(code: str) -> str:
    """A code span's text without its backticks, still read as code: a name
    (``re.sub``, ``ESC401``, ``--unsafe``) as it is, a quoted literal as it is,
    anything else in double quotes, so that ``(`` is not lost in the sentence."""
    if re.fullmatch(r'[-\w.]+', code) or (len(code) > 1 and code[0] == code[-1] and code[0] in '\'"'):
        return code
    return f'"{code}"'


def plain(markdown: str) -> str:
    """A README section as plain text for a terminal: no headings' ``#``, no
    ``**``, no backticks (code spans as ``spoken`` gives them); code blocks
    indented by four spaces; links as ``text (address)``."""
    out = []
    in_code = False
    for line in markdown.splitlines():
        if line.startswith('```'):
            in_code = not in_code
            continue
        if in_code:
            out.append('    ' + line if line else '')
            continue
        heading = re.match(r'#+ (.*)', line)
        if heading:
            line = heading.group(1)
            out.extend([line, '=' * len(line)])
            continue
        line = re.sub(r'\*\*(.+?)\*\*', r'\1', line)
        line = re.sub(r'(`+)(.+?)\1', lambda span: spoken(span.group(2)), line)
        line = re.sub(r'\[([^]]+)\]\(([^)]+)\)', r'\1 (\2)', line)
        out.append(line)
    return '\n'.join(out).rstrip() + '\n'


def run(args: argparse.Namespace) -> int:
    code = args.code.strip().upper()
    known = [rule.code for rule in rules.RULES]
    text = section(readme(), code) if code in known else None
    if text is None:
        print(f'flake8-escapes explain: error: unknown code {args.code!r} '
              f'(codes: {", ".join(known)})', file=sys.stderr)
        return 2
    if args.markdown:  # as the README has it
        sys.stdout.write(text)
        return 0
    if 'tests/' in text:
        text += '\n' + TESTS_ELSEWHERE.format(url=source_url()) + '\n'
    sys.stdout.write(plain(text))
    return 0


def source_url() -> str:
    """The project's source repository, from the package's metadata."""
    try:
        entries: list[str] = importlib.metadata.metadata('flake8-escapes').get_all('Project-URL') or []
        for entry in entries:
            label, _, url = entry.partition(',')
            if label.strip() == 'Source':
                return url.strip()
    except importlib.metadata.PackageNotFoundError:
        pass
    return 'https://github.com/flake8-escapes/flake8-escapes'
