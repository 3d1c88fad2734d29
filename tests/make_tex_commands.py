"""Build flake8_escapes/data/tex_commands.txt, the TeX command names, from two real sources.

    python tests/make_tex_commands.py [--katex DIR] [--latex FILE] [--output FILE]

(a) KaTeX: every string literal of its TypeScript sources that is exactly one
command, ``"\\\\name"`` or ``'\\\\name'``, in ``src/symbols.ts``, ``src/macros.ts``
and ``src/functions/*.ts``.  DIR is the unpacked npm package (its ``package``
folder); without --katex, ``npm pack katex@0.19.1`` is run in a temporary folder
(network: npm).

(b) The LaTeX kernel: every name that ``latex.ltx`` defines with ``\\def`` and its
kin (``\\gdef``, ``\\edef``, ``\\xdef``, ``\\let``, ``\\chardef``, ``\\newcount``, ...),
``\\newcommand`` and its kin, ``\\DeclareRobustCommand``, ``\\NewDocumentCommand``
and the ``\\DeclareText...``/``\\DeclareMath...`` family, comments left out.
Without --latex, the file is found with ``dpkg -L texlive-latex-base``.

Kept: names of two letters or more, letters only; a name followed by ``@``,
``_``, ``:`` or a digit is an internal one (``\\reserved@a``, ``\\cs_new:Npn``)
and is left out.  A one-letter name is left out too: after a valid escape
(``\\t``, ``\\n``) it would make every such escape a command.  The header names
each source, its version and this command.  Not run by the test suite.
"""
from __future__ import annotations

import argparse
import glob
import json
import os
import re
import subprocess
import sys
import tarfile
import tempfile

KATEX_VERSION = '0.19.1'
LATEX_PACKAGE = 'texlive-latex-base'
OUTPUT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                      'flake8_escapes', 'data', 'tex_commands.txt')

#: A TypeScript string literal that is exactly one command: "\\name" or '\\name'.
KATEX_COMMAND = re.compile(r'''(["'])\\\\([A-Za-z]+)\1''')
#: The commands of latex.ltx that define the name right after them (braces and a star allowed).
DEFINERS = (
    'def', 'gdef', 'edef', 'xdef', 'let', 'chardef', 'mathchardef', 'countdef', 'dimendef', 'skipdef',
    'toksdef', 'newcount', 'newdimen', 'newskip', 'newmuskip', 'newtoks', 'newbox', 'newif', 'newlength',
    'newcommand', 'renewcommand', 'providecommand', 'DeclareRobustCommand', 'NewDocumentCommand',
    'DeclareDocumentCommand', 'ProvideDocumentCommand', 'RenewDocumentCommand', 'DeclareTextCommand',
    'DeclareTextCommandDefault', 'ProvideTextCommand', 'ProvideTextCommandDefault', 'DeclareTextSymbol',
    'DeclareTextSymbolDefault', 'DeclareTextAccent', 'DeclareTextAccentDefault',
    'DeclareTextCompositeCommand',
    'DeclareTextFontCommand', 'DeclareOldFontCommand', 'DeclareMathSymbol', 'DeclareMathAccent',
    'DeclareMathDelimiter', 'DeclareMathRadical', 'DeclareMathAlphabet', 'DeclareSymbolFontAlphabet',
    'DeclareMathOperator',
)
LATEX_DEFINITION = re.compile(
    r'\\(?:' + '|'.join(DEFINERS) + r')(?![A-Za-z@])\*?\s*\{?\s*\\([A-Za-z]+)(?![A-Za-z@_:0-9])')
#: A comment of a TeX file: an unescaped % to the end of the line.
TEX_COMMENT = re.compile(r'(?<!\\)%.*')


def katex_names(package: str) -> set[str]:
    """The command names of KaTeX's sources in ``package`` (the unpacked npm package)."""
    sources = [os.path.join(package, 'src', 'symbols.ts'), os.path.join(package, 'src', 'macros.ts')]
    sources += sorted(glob.glob(os.path.join(package, 'src', 'functions', '*.ts')))
    names: set[str] = set()
    for path in sources:
        with open(path, encoding='utf-8') as f:
            names.update(match[2] for match in KATEX_COMMAND.finditer(f.read()))
    return names


def katex_version(package: str) -> str:
    with open(os.path.join(package, 'package.json'), encoding='utf-8') as f:
        return str(json.load(f)['version'])


def latex_names(path: str) -> set[str]:
    """The user command names that ``latex.ltx`` defines."""
    with open(path, encoding='latin-1') as f:
        text = '\n'.join(TEX_COMMENT.sub('', line) for line in f)
    return {match[1] for match in LATEX_DEFINITION.finditer(text)}


def latex_version(path: str) -> str:
    """``\\fmtversion`` of ``latex.ltx`` and its patch level."""
    with open(path, encoding='latin-1') as f:
        text = f.read()
    version = re.search(r'\\edef\\fmtversion\s*\{([^}]*)\}', text)
    patch = re.search(r'\\def\\patch@level\{([^}]*)\}', text)
    return f"{version[1] if version else '?'} patch level {patch[1] if patch else '?'}"


def debian_version(package: str) -> str:
    result = subprocess.run(['dpkg-query', '-W', '-f=${Version}', package], capture_output=True, text=True)
    return result.stdout.strip() or '?'


def find_latex() -> str:
    listing = subprocess.run(['dpkg', '-L', LATEX_PACKAGE], capture_output=True, text=True, check=True).stdout
    for line in listing.splitlines():
        if line.endswith('/latex.ltx'):
            return line
    raise SystemExit(f'make_tex_commands: no latex.ltx in {LATEX_PACKAGE}'
                     f' (apt-get install -y {LATEX_PACKAGE})')


def fetch_katex(into: str) -> str:
    subprocess.run(['npm', 'pack', f'katex@{KATEX_VERSION}'], cwd=into, check=True, capture_output=True)
    with tarfile.open(os.path.join(into, f'katex-{KATEX_VERSION}.tgz')) as archive:
        archive.extractall(into, filter='data')
    return os.path.join(into, 'package')


def kept(names: set[str]) -> set[str]:
    return {name for name in names if len(name) >= 2 and name.isascii() and name.isalpha()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split('\n', 1)[0])
    parser.add_argument('--katex',
                        help=f"KaTeX's unpacked npm package (default: npm pack katex@{KATEX_VERSION})")
    parser.add_argument('--latex', help=f'latex.ltx (default: from dpkg -L {LATEX_PACKAGE})')
    parser.add_argument('--output', default=OUTPUT)
    args = parser.parse_args(argv)
    command = ' '.join(['python tests/make_tex_commands.py', *(sys.argv[1:] if argv is None else argv)])
    with tempfile.TemporaryDirectory() as scratch:
        package = args.katex or fetch_katex(scratch)
        latex = args.latex or find_latex()
        katex = kept(katex_names(package))
        kernel = kept(latex_names(latex))
        header = [
            '# TeX command names (no backslash), one a line, sorted; generated, do not edit.',
            f'# Command: {command}',
            f'# Source 1: KaTeX {katex_version(package)} (npm katex@{KATEX_VERSION}): string literals'
            ' that are exactly one command in src/symbols.ts, src/macros.ts, src/functions/*.ts'
            f' ({len(katex)} names)',
            f'# Source 2: the LaTeX kernel, latex.ltx {latex_version(latex)}'
            f' (Debian {LATEX_PACKAGE} {debian_version(LATEX_PACKAGE)}): names defined by \\def, \\let,'
            f' \\newcommand, \\DeclareRobustCommand, \\DeclareText..., \\newcount and kin'
            f' ({len(kernel)} names)',
            '# Kept: letters only, two or more; names followed by @ _ : or a digit (internal) left out.',
            f'# {len(katex | kernel)} names in all.',
        ]
    os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
    with open(args.output, 'w', encoding='utf-8', newline='\n') as f:
        f.write('\n'.join(header + sorted(katex | kernel)) + '\n')
    print(f'{args.output}: {len(katex | kernel)} names ({len(katex)} KaTeX, {len(kernel)} latex.ltx)')
    return 0


if __name__ == '__main__':
    sys.exit(main())
