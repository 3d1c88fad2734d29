# Labeled ESC601 cases, each written here in the shape of real code and
# citing where that shape comes from ("# from:").  Only ESC601 counts in the
# score (tests/test_tex.py); other codes in a case are ignored.
# Hazards: a report is expected.  Clean: look-alikes that must stay quiet.
#
# --- hazards ---------------------------------------------------------------
#: ESC601:2:14
# from: issue 23 (examples written for the issue: a matplotlib axis label)
plt.xlabel('$\theta$ [rad]')
#: ESC601:2:16
# from: issue 23 (a title with a format operator)
ax.set_title("$\alpha$ = %0.2f" % a)
#: ESC601:2:15
# from: issue 23 (a legend's list of labels)
plt.legend(["$\vec{v}$"])
#: ESC601:3:16
# from: issue 23 (a sympy symbol named by its TeX)
import sympy as sp
x = sp.Symbol('\theta')
#: ESC601:2:10
# from: issue 23 (a LaTeX table written to a file)
f.write("\textbf{Total} & 1 \\\\\n")
#: ESC601:2:9
# from: issue 23 (a fraction written as TeX)
half = '\frac{1}{2}'
#: ESC601:2:10
# from: issue 23 (a LaTeX environment)
f.write('\begin{tabular}{lr}\n')
#: ESC601:2:15
# from: issue 23 (an f-string label)
plt.ylabel(f'$\tau$ = {tau:.1f} s')
#: ESC601:2:23
# from: matplotlib mathtext tutorial (label= of a plot line; the tutorial writes r'...')
ax.plot(x, y, label='$\beta = 0.5$')
#: ESC601:2:21
# from: matplotlib mathtext tutorial (text placed in data coordinates)
ax.text(0.5, 0.5, '$\nabla \cdot E$')
#: ESC601:2:15
# from: matplotlib gallery annotations (an annotation holding a Greek letter)
ax.annotate('$\rho_0$', xy=(1, 2))
#: ESC601:2:16
# from: matplotlib gallery (a figure title with mathtext)
fig.suptitle('$\varphi$ against time')
#: ESC601:3:17 ESC601:3:24
# from: sympy docs (symbols named with TeX)
from sympy import symbols
a, b = symbols('\alpha \beta')
#: ESC601:3:7 ESC601:3:13
# from: IPython.display docs (Math renders a LaTeX string)
from IPython.display import Math
Math('\frac{\nu}{2}')
#: ESC601:2:12
# from: pandas Styler.to_latex shapes (a LaTeX row with a command and a brace)
row = 'x & \textit{n/a} \\\\'
#: ESC601:2:16
# from: LaTeX report writers (a vector in a table cell)
cell = '$v$ & $\vec{x}$'
#: ESC601:2:17
# from: plotting helpers (a unit in a label held in a dict)
units = {'t': '$\times 10^3$ s'}
#: ESC601:2:13
# from: physics notebooks (a subscripted symbol beside another TeX command)
label = 'E_{\nu} \\sigma'
#: ESC601:5:15
# from: scientific docstrings (a math directive in a non-raw docstring)
def energy(v):
    """Kinetic energy.

    .. math:: \frac{1}{2} m v^2
    """
#: ESC601:7:9
# from: scientific docstrings (a math block, indented under the directive)
def gradient(f):
    """Gradient of f.

    .. math::

        \nabla f = (f_x, f_y)
    """
#: ESC601:3:22
# from: scientific docstrings (a :math: role in a one-line docstring)
def angle():
    """Return :math:`\theta` in radians."""
#: ESC601:2:19
# from: plotting code (a TeX API's keyword argument)
plt.title(label='$\rho$ profile')
#: ESC601:2:33
# from: plotly docs (an axis title with mathjax)
fig.update_layout(xaxis_title='$\alpha$')
#: ESC601:2:18
# from: matplotlib colorbar label
cbar.set_label('$\bar{T}$ [K]')
#: ESC601:2:26
# from: plotting helpers (a string built by concatenation inside $...$)
plt.xlabel('$' + name + '\times$')
#: ESC601:2:6
# from: LaTeX preamble writers (an environment with an option)
s = '\begin{figure}[h]'
#: ESC601:2:14 ESC601:2:21 ESC601:2:28
# from: matplotlib mathtext tutorial (two commands in one label)
plt.xlabel('$\alpha \times \beta$')
#: ESC601:2:13
# from: pgf/TikZ writers in Python (a LaTeX length)
width = '0.8\textwidth'
#: ESC601:2:20
# from: plotting scripts (a mathtext symbol after the text)
plt.ylabel('Angle $\theta$')
#: ESC601:3:17
# from: issue 30 (TeX in docstring prose, with no $ and no :math:)
def grad(f):
    """Gradient \nabla f of the loss."""
#: ESC601:3:26
# from: issue 30 (a Greek letter in a docstring's prose)
def angle(v):
    """Returns the angle \theta in radians."""
#: ESC601:3:24
# from: issue 30 (a binary operator in prose)
def cost(n, m):
    """Cost grows as n \times m."""
#: ESC601:3:15
# from: issue 30 (an arrow in prose)
def mapping():
    """Maps A \rightarrow B."""
#: ESC601:3:20
# from: issue 30 (a font switch in a group)
def show(name):
    """Printed as {\tt name}."""
#: ESC601:7:17
# from: issue 30 (a math block makes prose two paragraphs below TeX)
def density(m, v):
    """Density.

    .. math:: \\rho = m / V

    Zero when v \neq 0.
    """
#: ESC601:2:17
# from: issue 30 (partial escaping: one command doubled, the other single)
state = '$|\\psi\rangle$'
#: ESC601:2:21
# from: issue 30 (partial escaping beside a doubled command)
expr = "\\mathbf{x} \rtimes y"
#: ESC601:3:14
# from: issue 30 (a math role without its backquotes)
def period():
    """:math:\tau is the period."""
#: ESC601:3:19
# from: issue 30 (the default role, where a project writes math in single backquotes)
def arrow():
    """The map `x \rightarrow y`."""
#: ESC601:2:11 ESC601:2:26
# from: issue 30 (a TeX-to-text table: one item doubled makes the table TeX)
GREEK = {'\theta': 'θ', '\rho': 'ρ', '\\sigma': 'σ'}
#: ESC601:2:20
# from: issue 30 (a label in a config value: a group command)
labels = {"r": "r_{\rm eff}"}
#: ESC601:2:11
# from: issue 30 (a group command in an expectation label)
title = '{\rm E}[X]'
#: ESC601:5:9
# from: issue 30 (a short name in a docstring that shows $...$ elsewhere)
def decay(t):
    """Decay as $e^{-t}$.

    The \nu here is the rate.
    """
#: ESC601:2:18
# from: issue 30 item 7 (a command of the generated list: \arabic)
fmt = '\\section{\arabic{page}}'
#: ESC601:3:5
# from: issue 30 survey re-run (nbconvert's markdown tests: a group command in display math, a line break after it)
text = """$r$
$$ {\bf
b}_{i}^{r}(t)$$"""
#: ESC601:2:27
# from: issue 30 survey re-run (simsurvey: a symbol's TeX name appended to a list of LaTeX names)
param_names_latex.append('\alpha_%i' % k)
#: ESC601:2:12
# from: issue 30 (display math between $$ and $$)
label = '$$\frac{a}{b}$$'
# --- clean -----------------------------------------------------------------
#: Okay
# from: issue 23 (a newline before TeX that is not a command)
plt.title('Loss\n$\\alpha=0.1$')
#: Okay
# from: issue 23 (a tab between two math spans)
header = '$x$\t$y$'
#: Okay
# from: issue 23 (a newline before a unit)
plt.ylabel('Temperature\n(K)')
#: Okay
# from: issue 23 (text that is not TeX)
f.write('Total\tamount\n')
#: Okay
# from: issue 23 (a header row of tab-separated names)
header = 'name\ttype\tvalue'
#: Okay
# from: matplotlib mathtext tutorial (the raw string it recommends)
plt.xlabel(r'$\theta$ [rad]')
#: Okay
# from: matplotlib mathtext tutorial (the command doubled)
plt.xlabel('$\\theta$ [rad]')
#: Okay
# from: survey_science.md's probe (a newline before a variable e, not \ne)
source = 'c = 4\ne = 4+f'
#: Okay
# from: survey_science.md's probe (code written as text)
code = "x = Symbol('x')\ne = 1/x"
#: Okay
# from: report writers (a newline before a word that is a TeX command)
plt.title('Results\nnot final')
#: Okay
# from: report writers (a tab before the word "to")
print('from\tto')
#: Okay
# from: CSV writers (a tab before a column named "top")
f.write('bottom\ttop\n')
#: Okay
# from: log messages (a newline before a number)
log.info('done\n1 file')
#: Okay
# from: plotting scripts (a newline before a word starting with a command's letters)
plt.title('Error\nnumber of runs')
#: Okay
# from: plotting scripts (a newline then a variable name in a title)
plt.title('Model\nnu={}'.format(nu))
#: Okay
# from: text writers (a tab before "tan" in a colour name list)
colours = 'red\ttan\tblue'
#: Okay
# from: report writers (a newline before "ref" in plain text)
f.write('see\nref. 3\n')
#: Okay
# from: a raw docstring with math (already right)
def energy(v):
    r"""Kinetic energy.

    .. math:: \frac{1}{2} m v^2
    """
#: Okay
# from: a docstring whose math is doubled (already right)
def angle():
    """Return :math:`\\theta` in radians."""
#: Okay
# from: docstrings (a newline escape in text that is not math)
def lines(text):
    """Split text at each '\n' character."""
#: Okay
# from: bytes protocols (bytes are never TeX)
frame = b'$\theta$'
#: Okay
# from: LaTeX writers (a line end after a doubled command)
f.write('\\hline\n')
#: Okay
# from: LaTeX writers (doubled commands and a newline)
f.write('\\begin{tabular}{ll}\n')
#: Okay
# from: pandas to_latex shapes (tab-separated row with braces in a format string)
row = '{}\t{}\n'.format(a, b)
#: Okay
# from: matplotlib (a label whose newline is before a dollar)
plt.xlabel('time\n$t$ [s]')
#: Okay
# from: sympy shapes (a symbol name that is not TeX)
x = sp.Symbol('x\ty')
#: Okay
# from: text writers (a tab before an ordinary word inside $-delimited shell text)
cmd = 'echo $HOME\ttheta'
#: Okay
# from: docstrings (a math block that ended before the paragraph)
def f(x):
    """Compute.

    .. math:: x^2

    Then\tabulate the result.
    """
#: Okay
# from: issue 30 (a newline before a word in a message)
print('Error\nnot found')
#: Okay
# from: issue 30 (a table header with tabs)
header = '\tName\tValue'
#: Okay
# from: issue 30 (code-generating strings: a newline and i)
code = "x = 1\ni = 0"
#: Okay
# from: issue 30 (a file name)
out = 'results\beta.csv'
#: Okay
# from: issue 30 (a short name in a docstring with no other sign)
def rate():
    """Rate \nu of decay."""
#: Okay
# from: issue 30 (code written in a docstring: a newline and i)
def gen():
    """Writes "x = 1\ni = 0" to the file."""
#: Okay
# from: issue 30 (a file name in a docstring)
def save():
    """Saved to results\beta.csv."""
#: Okay
# from: issue 30 (a table of escapes, not of TeX)
SEPARATORS = {'tab': '\t', 'newline': '\n'}
#: Okay
# from: issue 30 (a table of names: no item written as TeX)
NAMES = ['\theta', 'beta']
#: Okay
# from: issue 30 (dollars in a docstring that hold no math)
def price():
    """Costs $5 and $6.

    Then \to the shop.
    """
#: Okay
# from: issue 30 (a docstring laid out by \n escapes: a newline before "e.g.")
def area(r):
    """Area :math:`\\pi r^2`.\n\ne.g. 3 for 1."""
#: Okay
# from: issue 30 survey re-run (a Qt label: a newline before "eg", not \neg)
lbl = QLabel("(Harmonics can be included\neg 50, 100, 150)")
#: Okay
# from: issue 30 (a file name that begins with a command and an underscore)
path = '\bar_chart.png'
#: Okay
# from: issue 40 item 8 (a Windows path in a docstring: \root is its last folder, ESC501's)
def save_report(report):
    """Write the report to C:\data\root."""
#: Okay
# from: issue 40 item 8 (a registry key in a docstring: \value is its last part)
def read_setting():
    """Values live under HKEY_LOCAL_MACHINE\Software\value."""
#: Okay
# from: issue 40 item 8 (a folder named tiny)
def backup():
    """Saved in D:\work\tiny."""
#: Okay
# from: issue 40 item 8 (a folder named title)
def export():
    """Saved in C:\docs\title."""
