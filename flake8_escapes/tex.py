"""ESC601: a valid escape that cuts a TeX command (``'$\\theta$'`` is a tab and ``heta``).

A TeX command is a backslash and letters, and seven letters make a valid
Python escape: ``a b f n r t v``.  A candidate is such an escape, in a
non-raw str, f- or t-string, followed in the source by the rest of a command
of ``COMMANDS`` and then a non-letter (the whole name: ``\\nu`` in
``'\\nu_0'``, never ``\\nu`` in ``'\\number'``).  It is reported when the
text around it reads as TeX (``EVIDENCE``): inside ``$...$``, beside other TeX
in the same line of the literal, in a docstring's ``:math:`` role or ``..
math::`` block, or passed to an API that takes TeX (``roles.TEX``, the
``apis.TEX_ROWS``).  Each rule that keeps a look-alike quiet is a named
entry of ``EXEMPTIONS``.

Every candidate's row of source holds the escape and the whole command
name, then a non-letter or the row's end (a name holds no line break):
``may_hold_command`` is what ``source`` asks of a row before it is read.
"""
from __future__ import annotations

import functools
import re
from typing import Any, Iterable, Iterator, NamedTuple

from flake8_escapes import escapes, literals, roles as role_pass, rules
from flake8_escapes.literals import Found, Piece

#: (line, col, rule, message fields, the escape): formatted only at the plugin's edge.
Finding = tuple[int, int, rules.Rule, dict[str, str], Found]

#: The TeX and LaTeX command names (two letters or more) that begin with a
#: letter of a valid escape, by that letter: LaTeX's math symbols, Greek
#: letters, functions, accents, font and layout commands
#: (https://www.ctan.org/pkg/comprehensive, "The Comprehensive LaTeX Symbol List").
#: One-letter accents (``\\b``, ``\\t``, ``\\v``) are left out: ``'\\t{'`` is a tab.
COMMANDS: dict[str, frozenset[str]] = {
    'a': frozenset({
        'alpha', 'aleph', 'amalg', 'angle', 'approx', 'approxeq', 'arccos', 'arcsin', 'arctan', 'arg',
        'ast', 'asymp', 'atop', 'acute', 'arrowvert', 'addtocounter', 'author', 'appendix',
    }),
    'b': frozenset({
        'beta', 'bar', 'begin', 'bf', 'bfseries', 'big', 'bigl', 'bigr', 'bigg', 'biggl', 'biggr', 'bigm',
        'bigcap', 'bigcup', 'bigodot', 'bigoplus', 'bigotimes', 'bigsqcup', 'biguplus', 'bigvee',
        'bigwedge', 'bigstar', 'bigtriangleup', 'bigtriangledown', 'binom', 'bmod', 'bot', 'bowtie',
        'boldsymbol', 'bm', 'breve', 'bullet', 'backslash', 'boxed', 'boxplus', 'boxtimes', 'boxdot',
        'because', 'beth', 'between', 'blacksquare', 'blacktriangle', 'bibitem', 'bibliography',
        'baselineskip', 'bigskip', 'bra', 'braket',
    }),
    'f': frozenset({
        'frac', 'forall', 'flat', 'frown', 'footnote', 'footnotesize', 'fbox', 'framebox', 'fontsize',
        'fill', 'flushleft', 'flushright', 'frak', 'figurename',
    }),
    'n': frozenset({
        'nu', 'nabla', 'neq', 'ne', 'not', 'neg', 'ni', 'newline', 'newcommand', 'newenvironment',
        'newpage', 'nolimits', 'nonumber', 'noindent', 'nearrow', 'nwarrow', 'natural', 'ngeq', 'nleq',
        'ngtr', 'nless', 'nmid', 'nparallel', 'nsubseteq', 'nsupseteq', 'notin', 'nexists', 'normalsize',
        'nsim', 'ncong', 'nvdash', 'norm', 'nolinebreak', 'nleftarrow', 'nrightarrow', 'nobreak',
    }),
    'r': frozenset({
        'rho', 'right', 'rightarrow', 'rightharpoonup', 'rightharpoondown', 'rightleftharpoons',
        'rightrightarrows', 'rangle', 'rceil', 'rfloor', 'rbrace', 'rbrack', 'rvert', 'rVert', 'rm',
        'rmfamily', 'ref', 'renewcommand', 'raisebox', 'restriction', 'rtimes', 'rq', 'rule',
    }),
    't': frozenset({
        'tau', 'theta', 'times', 'to', 'top', 'tilde', 'text', 'textbf', 'textit', 'textrm', 'textsf',
        'texttt', 'textsc', 'textup', 'textmd', 'textnormal', 'textstyle', 'textwidth', 'textheight',
        'textcolor', 'textsuperscript', 'textsubscript', 'textdegree', 'textmu', 'textbackslash',
        'tfrac', 'tbinom', 'tan', 'tanh', 'therefore', 'triangle', 'triangleleft', 'triangleright',
        'triangledown', 'trianglelefteq', 'trianglerighteq', 'tt', 'ttfamily', 'tiny', 'today', 'tag',
        'thinspace', 'tableofcontents', 'thispagestyle', 'twoheadrightarrow', 'tabular', 'title',
    }),
    'v': frozenset({
        'vec', 'varphi', 'varepsilon', 'vartheta', 'varpi', 'varrho', 'varsigma', 'varkappa', 'varnothing',
        'varpropto', 'vartriangle', 'vee', 'vert', 'vdash', 'vdots', 'vspace', 'verb', 'vline', 'vbox',
        'vskip', 'vfill', 'veebar', 'vDash',
    }),
}
#: Other TeX names, whose backslash makes no valid escape (``\\sigma`` is an
#: invalid one, ``\\\\sigma`` a doubled one): beside a candidate, they say the
#: literal is TeX.
OTHER_COMMANDS = frozenset({
    'gamma', 'Gamma', 'delta', 'Delta', 'epsilon', 'zeta', 'eta', 'Theta', 'iota', 'kappa', 'lambda',
    'Lambda', 'mu', 'xi', 'Xi', 'pi', 'Pi', 'sigma', 'Sigma', 'upsilon', 'Upsilon', 'phi', 'Phi', 'chi',
    'psi', 'Psi', 'omega', 'Omega', 'cdot', 'cdots', 'ldots', 'dots', 'sum', 'prod', 'int', 'iint',
    'oint', 'partial', 'infty', 'sqrt', 'left', 'mathrm', 'mathbf', 'mathcal', 'mathbb', 'mathit',
    'mathsf', 'mathtt', 'mathfrak', 'hat', 'dot', 'ddot', 'pm', 'mp', 'leq', 'geq', 'le', 'ge', 'll',
    'gg', 'sim', 'simeq', 'equiv', 'propto', 'cap', 'cup', 'subset', 'supset', 'subseteq', 'supseteq',
    'in', 'exp', 'log', 'ln', 'sin', 'cos', 'sinh', 'cosh', 'lim', 'max', 'min', 'sup', 'inf', 'det',
    'quad', 'qquad', 'circ', 'odot', 'oplus', 'otimes', 'perp', 'parallel', 'emptyset', 'exists',
    'hbar', 'ell', 'langle', 'lceil', 'lfloor', 'overline', 'underline', 'widehat', 'widetilde',
    'displaystyle', 'scriptstyle', 'item', 'section', 'subsection', 'label', 'cite', 'end', 'hline',
    'centering', 'caption', 'emph', 'operatorname', 'dagger', 'prime', 'leftarrow', 'Leftarrow',
    'Rightarrow', 'leftrightarrow', 'Leftrightarrow', 'uparrow', 'downarrow', 'mapsto', 'implies',
    'iff', 'setminus', 'mid', 'div', 'mathring', 'overrightarrow', 'hspace', 'mathop', 'limits',
    'Re', 'Im', 'degree', 'checkmark', 'star', 'wedge', 'land', 'lor', 'lnot', 'hfill', 'small',
    'large', 'Large', 'huge', 'Huge', 'scriptsize', 'mathscr', 'dfrac', 'ket', 'expval', 'dd',
})
#: Commands whose letters after the escape's are an ordinary word or a
#: one-letter name (``\\ne``: a newline and ``e`` in ``'c = 4\\ne = 5'``;
#: ``\\tan``: a tab and ``an``; ``\\rangle``: a carriage return and ``angle``):
#: an API that takes TeX alone does not make them TeX.
EVERYDAY_WORDS = frozenset({
    'ne', 'ni', 'nu', 'neq', 'nexists', 'to', 'top', 'tan', 'tt', 'rm', 'rangle', 'rfloor', 'rbrace',
})
_NAMES = sorted({name for names in COMMANDS.values() for name in names}, key=lambda name: (-len(name), name))
NAMES = frozenset(_NAMES)


def _trie(words: Iterable[str]) -> str:
    """A regex that matches any of ``words``, as a trie: one branch per
    letter, so that a search tries a handful of letters at each backslash,
    not every word."""
    root: dict[str, Any] = {}
    for word in words:
        node = root
        for char in word:
            node = node.setdefault(char, {})
        node[''] = {}

    def pattern(node: dict[str, Any]) -> str:
        branches = [char + pattern(child) for char, child in sorted(node.items()) if char]
        if not branches:
            return ''
        body = branches[0] if len(branches) == 1 else '(?:%s)' % '|'.join(branches)
        return '(?:%s)?' % body if '' in node else body
    return pattern(root)


#: A backslash, an escape's letter and the rest of a command of ``NAMES``,
#: then no letter, as the source spells it (searched on the rows of every file).
COMMAND = re.compile(r'\\%s(?![A-Za-z])' % _trie(_NAMES))
_LETTERS = re.compile('[A-Za-z]*')


@functools.cache
def other_tex() -> re.Pattern[str]:
    """Another TeX command, doubled or with an invalid or valid escape, its
    name in group 1.  Compiled when first asked (a candidate's ``evidence``),
    not by every flake8 process that loads the plugin: a file with no
    candidate never needs it."""
    return re.compile(r'\\\\?(%s)(?![A-Za-z])' % _trie(OTHER_COMMANDS.union(_NAMES)))


# What the text around a candidate must show to read as TeX (and ``other_tex``).
#: TeX's syntax: a superscript or a subscript in braces, a command with an argument
#: (two letters or more: not ``\\N{...}``).
TEX_SYNTAX = re.compile(r'[\^_]\{|\\[A-Za-z]{2,}\{')
#: An unescaped dollar sign.
DOLLAR = re.compile(r'(?<!\\)\$')
#: A ``:math:`...``` role of reStructuredText.
MATH_ROLE = re.compile(r':math:`[^`]*`')
#: A ``.. math::`` directive, and what stands after it on its line.
MATH_DIRECTIVE = re.compile(r'^([ \t]*)\.\. math::(.*)$', re.MULTILINE)

#: The kinds of evidence, as ``evidence`` names them.
IN_MATH = 'inside $...$'
BESIDE_TEX = 'beside other TeX'
MATH_DOCSTRING = 'in a :math: role or a .. math:: block'
TEX_API = 'passed to an API that takes TeX'

_ESC601 = (rules.ESC601.code,)
DISCARDED_STRING = rules.Exemption(
    'discarded-string', _ESC601,
    'A string statement that is not a docstring is thrown away (code kept in a string to disable '
    'it): nothing in it is shown, so nothing in it is reported.',
    'import matplotlib.pyplot as plt\n"""\nax.set_xlabel(r\'$\\beta$\')\n"""\n',
)
NO_TEX_CONTEXT = rules.Exemption(
    'no-tex-context', _ESC601,
    'A command after an escape in text that shows no TeX (no `$...$`, no other TeX command, `^{` '
    'or `_{` on its line, no `:math:` role or `.. math::` block, no API that takes TeX) is not '
    'reported: a file name, a name or a word that happens to spell one after a backslash.',
    "table = 'results\\beta.csv'\n",
)
EVERYDAY_WORD = rules.Exemption(
    'everyday-word', _ESC601,
    'A newline, tab or carriage return before a one-letter name or an ordinary word that spells a '
    'command with it (`\\ne`: a newline and `e`; `\\tan`, `\\rangle`, ...: `EVERYDAY_WORDS`) reads as '
    'TeX only inside `$...$` or in a math docstring; other TeX beside it or an API that takes TeX is '
    'not enough.',
    "import matplotlib.pyplot as plt\nplt.title('c = %d\\ne = %d' % (c, e))\n",
)
#: Every exemption of ESC601, in the order they are tried.
EXEMPTIONS: tuple[rules.Exemption, ...] = (DISCARDED_STRING, NO_TEX_CONTEXT, EVERYDAY_WORD)


class Candidate(NamedTuple):
    """An escape that begins a TeX command: the escape, and the command's name."""

    found: Found
    name: str          # the whole command name, the escape's letter first ('theta')


def may_hold_command(line: str) -> bool:
    """Could an escape of this row of source begin a TeX command?  False
    only when no backslash of the row is followed by a command of
    ``COMMANDS`` and then a non-letter (see the module's docstring)."""
    return COMMAND.search(line) is not None


def may_hold_candidate(piece: Piece) -> bool:
    """Could the piece hold a candidate?  (A str piece whose text spells a command after a backslash.)"""
    return not piece.is_bytes and may_hold_command(piece.text)


def command_after(text: str, escape: escapes.Escape) -> str:
    """The whole command name an escape begins in ``text`` (its letter and
    every letter after it), if that is a command of ``COMMANDS``; else ''."""
    if escape.kind != escapes.SIMPLE or escape.text[1] not in COMMANDS:
        return ''
    start = escape.offset + 1
    match = _LETTERS.match(text, start)
    name = match[0] if match is not None else ''
    return name if name in COMMANDS[escape.text[1]] else ''


def candidates(pieces: Iterable[Piece]) -> Iterator[Candidate]:
    """The escapes of ``pieces`` that begin a TeX command, in order."""
    for piece in pieces:
        if piece.is_bytes:
            continue
        text = piece.text
        positions = literals.Positions(piece.start, text)
        for begin, end in piece.spans:
            for escape in escapes.escapes_in(text, False, begin, end, piece.lookahead):
                name = command_after(text, escape)
                if name:
                    line, col = positions.at(escape.offset)
                    yield Candidate(Found(line, col, escape, piece), name)


def context(candidate: Candidate, lines: list[str]) -> tuple[str, int]:
    """The line of text a candidate is judged in, and the escape's offset there:
    its line of the literal (a STRING token), or its whole row of source (a
    3.12+ f-string piece, whose literal goes on beyond the piece)."""
    found = candidate.found
    piece = found.piece
    if piece.spans[0][0]:  # a STRING token: the whole literal
        text, at = piece.text, found.escape.offset
        begin = text.rfind('\n', 0, at) + 1
        end = text.find('\n', at)
        return text[begin:end if end != -1 else len(text)], at - begin
    return lines[found.line - 1], found.col


def evidence(candidate: Candidate, lines: list[str]) -> str:
    """The strongest textual evidence that the candidate is TeX (math first), or ''."""
    line, at = context(candidate, lines)
    end = at + 1 + len(candidate.name)
    if len(DOLLAR.findall(line, 0, at)) % 2 and DOLLAR.search(line, end) is not None:
        return IN_MATH
    if in_math_docstring(candidate):  # before BESIDE_TEX: an everyday word counts in math only
        return MATH_DOCSTRING
    if TEX_SYNTAX.search(line) is not None:
        return BESIDE_TEX
    for match in other_tex().finditer(line):
        if match.start() != at and match[1] not in EVERYDAY_WORDS:
            return BESIDE_TEX
    return ''


def in_math_docstring(candidate: Candidate) -> bool:
    """Is the escape in a ``:math:`...``` role, or in a ``.. math::``
    directive (its line, or the indented block after it) of its literal?"""
    found = candidate.found
    text, at = found.piece.text, found.escape.offset
    if ':math:' in text and any(role.start() < at < role.end() for role in MATH_ROLE.finditer(text)):
        return True
    for directive in MATH_DIRECTIVE.finditer(text, 0, at):
        if at <= directive.end():
            return True  # .. math:: \frac{a}{b}
        indent = len(directive[1])
        block = text[directive.end() + 1:text.rfind('\n', 0, at) + 1]
        rows = block.split('\n')[:-1]
        if all(not row.strip() or len(row) - len(row.lstrip()) > indent for row in rows):
            row_start = text.rfind('\n', 0, at) + 1
            own = text[row_start:at]
            if len(own) - len(own.lstrip()) > indent or not own.strip():
                return True
    return False


def exemption_for(candidate: Candidate, roles: list[role_pass.Role], lines: list[str]) -> str:
    """The name of the exemption that keeps a candidate quiet, or '' (reported)."""
    item, name = candidate
    active = frozenset(exemption.name for exemption in EXEMPTIONS)
    at = (item.line, item.col)
    if DISCARDED_STRING.name in active and role_pass.role_at(roles, *at, (role_pass.DISCARDED,)):
        return DISCARDED_STRING.name
    proof = evidence(candidate, lines)
    api = not proof and role_pass.role_at(roles, *at, (role_pass.TEX,)) is not None
    if not proof and not api and NO_TEX_CONTEXT.name in active:
        return NO_TEX_CONTEXT.name
    if (name in EVERYDAY_WORDS and proof not in (IN_MATH, MATH_DOCSTRING)
            and EVERYDAY_WORD.name in active):
        return EVERYDAY_WORD.name
    return ''


def reports(
    found: Iterable[Candidate],
    roles: list[role_pass.Role],
    lines: list[str],
    silenced: list[rules.Silenced] | None = None,
) -> Iterator[Finding]:
    """ESC601: the candidates whose text reads as TeX, or that an API takes as TeX (``roles``)."""
    for candidate in found:
        item = candidate.found
        exemption = exemption_for(candidate, roles, lines)
        if exemption:
            if silenced is not None:
                silenced.append(rules.Silenced(item.line, item.col, rules.ESC601.code, item.escape.text,
                                               exemption))
            continue
        escape = item.escape.text
        yield item.line, item.col, rules.ESC601, {
            'escape': escape, 'command': '\\' + candidate.name, 'meaning': escapes.CONTROL_NAMES[escape],
        }, item
