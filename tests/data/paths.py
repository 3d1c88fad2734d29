# ESC501 cases.  Format as in invalid.py.
#: ESC501:1:11 ESC501:1:16
path = 'C:\temp\new.txt'
#: ESC501:2:11 ESC501:2:20
# The seed article's example.
name = '..\training\new_memo.doc'
#: ESC301:1:18 ESC501:1:24 ESC501:1:28
share = "\\server\share\x86\tools"
#: ESC301:3:21 ESC501:3:27
# '\x86' spells a character, no separator: a share without a folder, a path where it is used as one.
import os
os.listdir("\\server\share\x86")
#: ESC301:1:11 ESC501:1:16
path = 'C:\data\file.txt'
#: ESC501:1:13 ESC501:1:20
path = 'logs\backup\new.txt'
#: ESC501:1:11
open('logs\new.txt')
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
#: ESC501:1:12 ESC301:1:20 ESC301:1:27
path = f"C:\reports\{year}\summary.xlsx"
#: ESC501:2:15 ESC301:2:19
# Judged as a whole: on 3.12+ the pieces '\new\' and '.txt' are no path alone.
out = f"{base}\new\{name}.txt"
#: ESC501:2:19
# The f-string's doubled braces are text: a name in the path.
out = f"C:\\x{{1}}\new.txt"
#: Okay
# A field and a line break: text, not a path.
line = f"{name}\nwww.example.org"
#: ESC501:1:29
doc = "C:/Users/me/Documents\notes.txt"
#: ESC501:1:18 ESC501:1:23
long = '\\\\?\\C:\temp\new.txt'
#: ESC501:2:22 ESC501:2:27
# A literal with a NUL terminator is judged without it: the path still holds \t and \n.
name = 'C:\\temp\\new\temp\new.txt\x00'
#: Okay
# Character escapes are no separators; NUL terminators are meant; line breaks are text.
a = ".\u3002\uff0e\uff61", '\\-0-9\u00B7\u0300-\u036F', 'c:\\pagefile.sys\x00', '.\\Administrator\x00'
b = 'a\nwww.example.org', 'c:\\boot.ini\0', 'C:\\Users\\caf\u00e9\N{DEGREE SIGN}'
#: ESC501:2:20
import os
p = os.getcwd() + '\results.csv'
#: ESC501:2:45
import os
p = os.path.join(root, 'data') + '\\out' + '\new.csv'
#: Okay
# A literal added to something that is not a path.
import os
p = os.getenv('HOME') + '\new' + name + '\new.csv'
#: ESC501:1:15
open(f"C:\\{d}\temp\0")
#: Okay
# A loop over a list of odd file names (a test's) does not make its literals paths.
import os


def test(repo):
    special_files = [
        "file\twith\ttabs.txt",
        "plain.txt",
    ]
    for filename in special_files:
        filepath = os.path.join(repo.path, filename)
        with open(filepath, "w") as f:
            f.write(f"Content of {filename}")
#: ESC501:3:13 ESC501:3:19
# Bound by assignment and passed, the same text is a path.
import os
name = "file\twith\ttabs.txt"
open(os.path.join(folder, name))
