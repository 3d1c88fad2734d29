# from: a symbol table with a short \u escape (a digit left out)
SYMBOLS = {
    'degree': '\u00b0',
    'micro': '\u0b5',
    'ohm': '\u03a9',
}
