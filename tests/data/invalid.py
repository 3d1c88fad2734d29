# Cases for ESC301-ESC303, on every supported Python.
# Each case starts with a "#:" line naming what it must report, pycodestyle
# style: CODE:LINE:COL with LINE counted from the case's first line and COL
# from 1, as flake8 prints it.  "#: Okay" means no report at all.
#: ESC301:1:12
pattern = '\d+'
#: ESC301:1:12 ESC301:1:15 ESC301:1:18
pattern = '\d+\s+\w+'
#: ESC301:1:16
formula = '\\\\\latex'
#: Okay
formula = '\\latex'
#: Okay
pattern = r'\d+\s+\w+'
#: Okay
pattern = R'\d', rb'\d', Rb'\d', bR'\d', BR'\d', br'\d', rf'\d{x}', fR'\d{x}', RF'\d'
#: Okay
# Every valid escape, in str and in bytes.
text = '\\ \' \" \a \b \f \n \r \t \v \0 \7 \12 \123 \377 \x41 \N{BULLET} \u00e9 \U0001F600'
data = b'\\ \' \" \a \b \f \n \r \t \v \0 \7 \12 \123 \377 \x41'
#: Okay
# A backslash before a newline continues the literal.
text = 'one \
two'
#: ESC301:1:9 ESC301:1:12
text = '\8 \9'
#: ESC301:1:10
text = u'\q'
#: ESC301:1:9
text = '\é'
#: ESC301:2:11
# Columns count characters, not bytes: wide characters do not shift them.
text = '中文\d'
#: ESC301:1:18
text = 'naïve', '\d'
#: ESC302:1:10 ESC302:1:17 ESC302:1:28
data = b'\u00e9 \U0001F600 \N{BULLET}'
#: ESC301:1:10
data = b'\d'
#: ESC303:1:9
text = '\777'
#: ESC303:1:10 ESC303:1:15
data = b'\400 \777'
#: Okay
text = '\377\0\1234'
#: ESC303:2:9
# Only three digits belong to the escape: '\4000' is '\400' and '0'.
text = '\4000'
#: ESC301:2:5 ESC301:4:1
text = """
    \d
  ok
\w"""
#: ESC301:2:14
def f():
    """Match \d here."""
#: ESC301:1:13 ESC301:1:18
pattern = ('\d' '\w'
           )
#: ESC301:1:13 ESC301:2:13
pattern = ('\d'
           '\w')
#: ESC301:1:13 ESC301:1:29
pattern = ("\d" + f"{x}" + "\w")
#: ESC301:1:7
x = f"\{x}"
#: ESC301:1:10
x = f"{x:\w}"
#: ESC301:1:16 ESC301:1:20
x = f"{x!r:>{x}\d}a\q"
#: ESC301:1:11 ESC301:1:19
x = f"a{{b\d}}c{x}\q"
#: ESC301:1:7
x = f"\{{"
#: ESC301:1:7
x = f"\}}"
#: Okay
x = f"\N{BULLET}{x}"
#: ESC301:2:1 ESC301:3:4
x = f"""{x}
\d{{
{x}\q"""
#: ESC301:1:11
x = f"{x=}\d"
#: Okay
x = f"{x!r} {'a' if x else 'b'} {x:>{x}}"
#: ESC301:1:11
x = f"{x:a\}"
#: Okay
x = '\\d', "\\w", f"\\{x}"
#: ESC301:1:9
text = '\ '
#: ESC301:1:13
text = 'tab:\	end'
#: ESC301:4:12
# The backslash after a multi-line string that ends in wide characters
# (3.12.1 gives that string's end column in bytes).
text = """é
ü\tüüü""" '\d'
