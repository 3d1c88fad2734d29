# ESC501 cases.  Format as in invalid.py.
#: ESC501:1:11 ESC501:1:16
path = 'C:\temp\new.txt'
#: ESC501:2:11 ESC501:2:20
# The seed article's example.
name = '..\training\new_memo.doc'
#: ESC301:1:18 ESC501:1:24
share = "\\server\share\x86"
#: ESC301:1:11 ESC501:1:16
path = 'C:\data\file.txt'
#: ESC501:1:13
path = 'logs\new.txt'
#: ESC501:1:12 ESC301:1:17
data = b'C:\temp\data.bin'
#: ESC301:1:14 ESC501:1:19 ESC501:1:25
with open('D:\Temp\build\report.txt') as f:
    pass
#: Okay
# Not paths: escaped or raw, text, TSV, format strings, ANSI codes, protocol bytes.
a = 'C:\\temp\\new.txt', r'C:\temp\new.txt', 'C:/temp/new.txt'
b = 'line1\nline2', '%s\t%s', '\n'.join(rows), 'Q:\n', '.\n', 'a:\rb'
c = '\x1b[31m', b'GET / HTTP/1.0\r\n', b'..\r\n.\r\n', 'abc\n.jkl\rfoo\r\n..blue'
d = '\\begin{document}\n', '\\item\n', 'pyth\xf6n.org', b'ol\xe9.txt', 'test.txt\n\roverflow.txt'
#: ESC501:2:13
import os
os.chdir('C:\new')
#: ESC301:2:15 ESC501:2:27
from pathlib import Path
out = Path('C:\data') / '.\temp' / name
#: ESC501:2:27 ESC501:2:37
import subprocess
subprocess.run(['copy', '.\new', 'D:\backup'], check=True)
#: ESC501:1:13 ESC501:1:30
f = open('C:\new' + '\\' + '.\tmp', 'w')
#: Okay
# A drive and one name, not used as a path: a label, a keyboard hint, a message.
print('C:\new'); label = 'A:\b'; hint = '.\n'
import re
re.sub('C:\new', 'x', s)
