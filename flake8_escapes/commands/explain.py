"""``flake8-escapes explain``: a code's page (docs/ESCxxx.md) as plain text, or as Markdown."""
from __future__ import annotations

import argparse
import importlib.metadata
import importlib.resources
import re
import sys
import textwrap
from pathlib import Path

from flake8_escapes import rules

#: Where the build puts the pages in the package (pyproject.toml maps this
#: folder to the checkout's docs/): ``flake8_escapes/pages/ESC301.md``.
SHIPPED = 'pages'
#: The checkout's docs/, for an editable install, whose package folder has no pages.
CHECKOUT = Path(__file__).resolve().parent.parent.parent / 'docs'

#: The plain text's width, and the most lines it takes before the finding
#: rules and exemptions are given as one line pointing at the page.
WIDTH = 80
MAX_LINES = 50
#: The heading of the section that ends every page.
RULES_HEADING = '## Finding rules and exemptions'
#: How each finding rule and exemption opens in it: its name, and what it is.
RULE_ENTRY = re.compile(r'^\*\*`[\w-]+`\*\* \((finding rule|exemption)\): ', re.MULTILINE)


def page(code: str) -> str | None:
    """The Markdown page of ``code`` (a code of the registry): the copy
    shipped in the package, else the checkout's docs/ (an editable install)."""
    name = f'{code}.md'
    try:
        shipped = importlib.resources.files('flake8_escapes') / SHIPPED / name
        if shipped.is_file():
            return shipped.read_text(encoding='utf-8')
    except (OSError, ModuleNotFoundError):  # pragma: no cover - a package without files
        pass
    local = CHECKOUT / name
    return local.read_text(encoding='utf-8') if local.is_file() else None


#: Where the files under tests/ or docs/ that a page names are: not in an installed package.
ELSEWHERE = 'The files under {folders} named above are in the source repository ({url}).'


def spoken(code: str) -> str:
    """A code span's text without its backticks, still read as code: a name
    (``re.sub``, ``ESC401``, ``--unsafe``), a literal (``r'\\d'``) or code that
    holds quotes of its own as it is, anything else (``(``, ``a``, ``%``) in
    double quotes, so that it is not lost in the sentence."""
    name = re.fullmatch(r'[-\w.]{2,}', code) and re.search(r'\w', code)
    if name or re.fullmatch(r'''[bBfFrRtTuU]{0,2}('|").*\1''', code):
        return code
    return code if '"' in code or "'" in code else f'"{code}"'


#: Stands for a space inside a code span while a paragraph is refilled, so that no span is cut.
KEEP = '\x00'


def inline(text: str) -> str:
    """A line of Markdown without its markup: no ``**``, code spans as
    ``spoken`` gives them (their spaces as ``KEEP``), links as ``text (address)``."""
    text = re.sub(r'\*\*(.+?)\*\*', r'\1', text)
    text = re.sub(r'(`+)(.+?)\1', lambda span: spoken(span.group(2)).replace(' ', KEEP), text)
    return re.sub(r'\[([^]]+)\]\(([^)]+)\)', r'\1 (\2)', text)


def blocks(markdown: str) -> list[tuple[str, list[str]]]:
    """The page cut into blocks: ('heading', [text]), ('code', lines),
    ('item', lines of one list item), ('text', lines of one paragraph), and
    ('blank', []) for each blank line between them."""
    found: list[tuple[str, list[str]]] = []
    code: list[str] | None = None
    for line in markdown.splitlines():
        if code is not None:
            if line.startswith('```'):
                found.append(('code', code))
                code = None
            else:
                code.append(line)
        elif line.startswith('```'):
            code = []
        elif re.match(r'#{1,6} ', line):
            found.append(('heading', [line]))
        elif not line.strip():
            found.append(('blank', []))
        elif line.startswith('- ') or not found or found[-1][0] not in ('text', 'item'):
            found.append(('item' if line.startswith('- ') else 'text', [line]))
        else:
            found[-1][1].append(line)
    return found


def plain(markdown: str, width: int = WIDTH) -> str:
    """A page as plain text for a terminal: the title underlined, other
    headings as they read, paragraphs and list items refilled to ``width``
    without markup, code blocks indented by four spaces, as written; one
    blank line between blocks, none under a heading but the title."""
    out: list[str] = []
    after = 'blank'  # the kind of the last block written, blank lines aside
    for kind, lines in blocks(markdown):
        if kind == 'blank':
            if after not in ('blank', 'heading') and out[-1]:
                out.append('')
            continue
        if kind == 'heading':
            level, _, title = lines[0].partition(' ')
            if level == '#':  # the title, underlined, a blank line under it
                kind = 'title'
                out.extend([inline(title), '=' * len(inline(title))])
            else:
                out.append(inline(title))
        elif kind == 'code':
            out.extend('    ' + line if line else '' for line in lines)
        else:
            words = inline(' '.join(line.strip() for line in lines))
            indent = '  ' if kind == 'item' else ''
            out.extend(line.replace(KEEP, ' ') for line in textwrap.wrap(
                words, width, subsequent_indent=indent, break_long_words=False, break_on_hyphens=False))
        after = kind
    return '\n'.join(out).strip() + '\n'


def summarised(markdown: str, code: str) -> str:
    """The page without its finding rules and exemptions, which one line counts and points at."""
    head, _, section = markdown.partition(RULES_HEADING)
    kinds = [match.group(1) for match in RULE_ENTRY.finditer(section)]
    counted = ' and '.join(f'{kinds.count(kind)} {kind}{"s" * (kinds.count(kind) > 1)}'
                           for kind in ('finding rule', 'exemption') if kind in kinds)
    return (f'{head}{RULES_HEADING}\n\n{counted}, each one sentence with its example, and what they '
            f'apply to: `flake8-escapes explain {code} --markdown` prints the whole page.\n')


def text_of(markdown: str, code: str) -> str:
    """What ``explain CODE`` prints: the page as plain text, in at most
    ``MAX_LINES`` lines (the rules section summarised when the whole is longer),
    and where the repository's files named in it are."""
    text = noted(plain(markdown))
    if text.count('\n') > MAX_LINES and re.search(RULE_ENTRY, markdown):
        text = noted(plain(summarised(markdown, code)))
    return text


def noted(text: str) -> str:
    """``text``, and where the files under docs/ or tests/ it names are, if it names one."""
    folders = [folder for folder in ('docs/', 'tests/') if folder in text]
    if not folders:
        return text
    note = ELSEWHERE.format(folders=' and '.join(folders), url=source_url())
    return text + '\n' + '\n'.join(textwrap.wrap(note, WIDTH, break_long_words=False)) + '\n'


def run(args: argparse.Namespace) -> int:
    code = args.code.strip().upper()
    known = [rule.code for rule in rules.RULES]
    if code not in known:
        print(f'flake8-escapes explain: error: unknown code {args.code!r} '
              f'(codes: {", ".join(known)})', file=sys.stderr)
        return 2
    markdown = page(code)
    if markdown is None:
        print(f'flake8-escapes explain: error: the page of {code} is missing from the package '
              f'(flake8_escapes/{SHIPPED}/{code}.md) and from {CHECKOUT}', file=sys.stderr)
        return 2
    sys.stdout.write(markdown if args.markdown else text_of(markdown, code))
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
