# f-strings that only parse on Python 3.12+ (PEP 701): backslashes and the
# same quotes inside replacement fields.
#: ESC301:1:9
x = f"{'\d'}"
#: ESC301:1:10 ESC301:1:15
x = f"{f"\d{x}\q"}"
#: ESC301:1:12
x = f"{x:{'\w'}}"
#: Okay
x = f"{r'\d'}" rf"{'\\d'}"
#: ESC301:1:10
x = rf"{'\d'}"
