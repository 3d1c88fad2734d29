# t-strings (PEP 750): Python 3.14+.
#: ESC301:1:7 ESC301:1:16
x = t"\d{x:>{x}\w}"
#: Okay
x = rt"\d{x}" tR"\w"
#: ESC301:2:1
x = t"""{x}
\q"""
