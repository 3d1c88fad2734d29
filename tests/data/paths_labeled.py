# Labeled ESC501 cases, each written here in the shape of real code and
# citing where that shape comes from ("# from:").  Only ESC501 counts in the
# score (tests/test_paths.py); other codes in a case are ignored.
# Hazards: a report is expected.  Clean: look-alikes that must stay quiet.
#
# --- hazards ---------------------------------------------------------------
#: ESC501:2:14 ESC501:2:23
# from: shared/seeds/000-article.md (LWN on the invalid-escape warning: the example quoted from python-dev)
with open('..\training\new_memo.doc', 'w') as memo:
    memo.write(text)
#: ESC501:3:13 ESC501:3:20
# from: nexe/nexe pull request 269 (generated Python held 'C:\target\foo': "the \t would be replaced by a tab")
import os
os.chdir('C:\target\foo')
#: ESC501:3:40
# from: crosswalk-project/crosswalk-cordova-android pull request 84 ("\t as tab when there is 't' in the cordova path")
import os
relative = os.path.relpath(project, 'C:\tools\cordova-android')
#: ESC501:3:15
# from: NatLabRockies/gdx-pandas issue 52 (C:\newGAMSfolder rendered with a newline)
import os
gams_dir = 'C:\newGAMSfolder'
if os.path.isdir(gams_dir):
    os.chdir(gams_dir)
#: ESC501:2:17
# from: Nuitka/NUITKA-Utilities pull request 27 (a path like C:\test became a tab)
scriptname = 'C:\test\get-hints.py'
#: ESC501:2:15
# from: lerner.co.il 2018-07-24 "Avoiding Windows backslash problems with Python's raw strings"
filename = 'c:\abc\def\ghi.txt'
for one_line in open(filename):
    print(one_line)
#: ESC501:3:30
# from: stackoverflow.com questions/2953834 (how to write C:\meshes\as in a literal)
import os
files = os.listdir('C:\meshes\as')
#: ESC501:2:13
# from: topic.alibabacloud.com (open() error demo: Invalid argument 'D:\test.txt')
f = open('D:\test.txt', 'r')
#: ESC501:2:23
# from: mail.python.org tutor 2003-October/025561 (a half-escaped path still holds a tab)
data = open("c:\\stuff\temp").read()
#: ESC501:2:18
# from: qeeebo.com questions/wha/88/e3e (opening D:\file looks for chr(12))
handle = open('D:\file')
#: ESC501:3:27
# from: talkin.icu blog/python-path-error-on-windows (os.system with an app path)
import os
os.system('c:\path\wappapa\app -f=import')
#: ESC501:3:25
# from: s-t.com local/fix-python-path-error-in (an external application's path)
import subprocess
subprocess.run(['C:\path\app.exe', '--version'])
#: ESC501:2:20
# from: qeeebo.com questions/how/78/a1a (the question's open('c:\tmp\...') before the fixes)
junkfile = open('c:\tmp\junkpythonfile', 'w')
#: ESC501:2:24
# from: alexriss/keyboard-layout-converter pull request 2 (absolute paths in open calls)
with open('D:\keyboards\new_layout.klc', encoding='utf-16') as layout:
    source = layout.read()
#: ESC501:3:45
# from: wuub/SublimeREPL pull request 64 ("\activate_this.py" changed to "\x07ctivate_this.py")
import os
activate = os.path.join(venv, 'Scripts') + '\activate_this.py'
exec(open(activate).read())
#: ESC501:3:50
# from: PIA-Group/BioSPPy issue 55 (Invalid argument: 'D:\\Data\x08italinoECG.txt')
from biosppy import storage
ecg_signal, ecg_mdata = storage.load_txt('D:\Data\bitalinoECG.txt')
#: ESC501:3:17 ESC501:3:22 ESC501:3:43 ESC501:3:48
# from: microsoft/vscode-jupyter pull request 10249 (temp debug files interpolated into Python code)
import os
for name in ['c:\temp\tmp-debug-1.py', 'c:\temp\tmp-debug-2.py']:
    os.remove(name)
#: ESC501:3:32
# from: GvozdevLeonid/python_hackrf pull request 10 (the DLL folder in a .pth line)
import os
os.add_dll_directory('C:\hackrf\bin')
#: ESC501:3:35
# from: runebook.dev docs/python/library/os/index-50 (a folder named newton)
from pathlib import Path
target = Path('C:\data') / 'newton\file.txt'
#: ESC501:3:22
# from: open-mmlab/mmskeleton pull request 294 (mmskl_home 'C:\path\to\mmskeleton' without the r)
import os
mmskl_home = 'C:\path\to\mmskeleton'
os.makedirs(mmskl_home, exist_ok=True)
#: ESC501:3:20 ESC501:3:24 ESC501:3:33 ESC501:3:40
# from: chiphogg/vim-vtd pull request 22 (a Windows path handed to Python for sys.path)
import sys
sys.path.append('C:\vim\vimfiles\bundle\vim-vtd\python')
#: ESC501:2:27 ESC501:2:37
# from: atopile/atopile pull request 279 (plugin_path written into a generated file: "still treat the \n")
plugin_path = "C:\projects\new-board\atopile\src"
#: ESC501:3:15
# from: cognitive-catalyst/watson-beat issue 10 (folders beginning with "a": D:\audio)
import os
os.listdir('D:\audio')
#: ESC501:3:18
# from: xonsh/xonsh issue 1850 ('r' as the first letter of a directory becomes a carriage return)
import os
os.chdir('C:\code\repo')
#: ESC501:3:45
# from: mikeckennedy/python-jumpstart-course-demos issue 42 (a folder named 10PythonApps)
import subprocess
subprocess.call(['explorer', 'D:\programming\10PythonApps\LoLCat\cat_pictures'])
#: ESC501:3:32 ESC501:3:37
# from: python/cpython issue 82120 (os.path.normpath turned part of a path into a "hex number")
import os
print(os.path.normpath('D:\work\2019\report.docx'))
#: ESC501:3:26
# from: stackoverflow.com questions/42654934 (why r before a path given to read_csv)
import pandas as pd
df = pd.read_csv('C:\data\new_sales.csv')
#: ESC501:2:11 ESC501:2:22
# from: bqtyf.cn windows/how-to-correctly-specify-windows-file-paths-in-python-string (C:\new_folder\test.txt)
path = "C:\new_folder\test.txt"
#: ESC501:3:12
# from: ecweb.ecer.com topic 259933 (a path kept in a variable for read_excel)
import pandas as pd
file1 = "F:\test\data1.xlsx"
df = pd.read_excel(file1, sheet_name="Sheet1")
#: ESC501:4:22
# from: PyFilesystem/pyfilesystem issue 156 ('foo\bar': two names and no extension, a known miss)
from fs.osfs import OSFS
os_fs = OSFS('/')
os_fs.getsyspath('foo\bar')
#: ESC501:3:15
# from: ragestack/blockchain-parser issue 15 (Invalid argument: 'D:\\BTC\x08locks')
import os
dirA = 'D:\BTC\blocks'
fList = os.listdir(dirA)
#: ESC501:3:29 ESC501:3:39 ESC501:3:92 ESC501:3:102
# from: ram-jayapalan/filesplit issue 9 (\f and \n in both the file and the output folder)
from fsplit.filesplit import FileSplit
fs = FileSplit(file='C:\Temp\filesplit\new1.dat', splitsize=1000000000, output_dir='C:\Temp\filesplit\new_files')
#: ESC501:3:51
# from: GENI-NSF/geni-tools issue 640 (a log file under \tmp joined to the home folder)
import os
log = open(os.path.join('C:\\Users\\local_user', '\tmp\stitcher.log'), 'a')
#: ESC501:3:21 ESC501:3:26
# from: python/cpython issue 83696 (bpo 39515: "pathlib won't strip \n in path")
import pathlib
p = pathlib.Path('D:\test\new.txt')
#: ESC501:3:45 ESC501:3:49
# from: pywinauto/pywinauto issue 1021 (starting C:\tmp\first second\some.exe)
from pywinauto.application import Application
app = Application(backend="win32").start('C:\tmp\first second\some.exe')
#: ESC501:3:13
# from: corpnewt/gibMacOS issue 209 (the scripts kept in C:\abv asgas\gibMacOS)
import os
os.chdir('C:\abv asgas\gibMacOS')
#: ESC501:3:66
# from: OpenModelica/OMPython issue 109 (the omc command under C:\Program Files)
import subprocess
omc = subprocess.Popen('C:\Program Files\OpenModelica1.14.1-64bit\bin\omc --interactive=zmq', shell=True)
#: ESC501:3:19
# from: ankonzoid/artificio pull request 2 (a relative output folder .\query\asparagus)
import os
out_dir = '.\query\asparagus'
os.makedirs(out_dir, exist_ok=True)
#: ESC501:2:29 ESC501:2:32
# from: kouhan.cn article 00022271 (a UNC path \\HOST\share\path\to\file written without the r)
with open('\\HOST\share\path\to\file', 'r') as file:
    content = file.read()
#: ESC501:3:12
# from: industrialmonitordirect.com knowledgebase python-unc-path-network-file-access ("\192 is interpreted as octal")
import pandas as pd
with open('\192.168.209.191\Data\Main.csv') as f:
    parts = pd.read_csv(f)
#
#: ESC501:3:27
# from: issue 22's table (imaging / ML APIs; example written for the issue): OpenCV reads a tab
import cv2
image = cv2.imread("images\test.png")
#: ESC501:3:16
# from: issue 22's table (imaging / ML APIs): numpy saves to 'models<backspace>est.npy'
import numpy as np
np.save("models\best.npy", weights)
#: ESC501:3:31
# from: examples written for issue 22 (PyTorch checkpoints under a Windows folder)
import torch
torch.save(model, "checkpoints\net.pt")
#: ESC501:3:29
# from: examples written for issue 22 (a SQLite database beside the script)
import sqlite3
conn = sqlite3.connect("data\trades.db")
#: ESC501:3:23
# from: examples written for issue 22 (a native library loaded with ctypes)
import ctypes
lib = ctypes.CDLL("bin\native.dll")
#: ESC501:3:9
# from: issue 22's table (a % template opened as a path; example written for the issue)
import os
open("%s\temp.txt" % root)
#: ESC501:3:18
# from: issue 22's table (a .format template opened as a path)
import os
open("{}\\results\new.csv".format(root))
#: ESC501:2:14
# from: issue 22's table (an f-string opened as a path)
open(f"{root}\new_folder\data.txt")
#: ESC501:3:24
# from: issue 22's table (a component of os.path.join)
import os
os.path.join(root, "sub\new")
#: ESC501:3:16
# from: issue 22's table (a name bound to a path, used later as one)
import os
LOG_DIR = "logs\training"
os.makedirs(LOG_DIR)
#: ESC501:3:34
# from: issue 22's table (a literal after / on a pathlib object)
from pathlib import Path
target = Path.home() / "Documents\new"
#: ESC501:2:32
# from: issue 22's table (mixed separators: a UNC share written doubled, its last separator single)
share = "\\\\fileserver\\public\new"
#: ESC501:2:39
# from: issue 22's table (mixed separators: a registry key)
key = "Software\\Acme\\Backup\\targets\network"
#: ESC501:2:19 ESC501:2:23
# from: issue 22's table (a path inside a message)
print("Saved to C:\new\file.txt")
#: ESC501:3:25
# from: issue 22's table (a path inside a log message)
import logging
logging.info("Reading C:\temp\input.csv")
#: ESC501:3:16
# from: examples written for issue 22 (a %-template folder made under the working directory)
import os
os.makedirs("%s\new_run" % os.getcwd())
#: ESC501:3:37
# from: examples written for issue 22 (a data file beside the script, found with pathlib)
from pathlib import Path
data = Path(__file__).parent / "data\train"
#: ESC501:3:35
# from: issue 40 item 8 (a docstring names the folder a report goes to, the path ending its sentence)
def save_report(report):
    """Write the report to C:\data\root."""
#: ESC501:3:53
# from: issue 40 item 8 (a registry value named in a docstring, \value its last part)
def read_setting():
    """Values live under HKEY_LOCAL_MACHINE\Software\value."""
#: ESC501:3:24
# from: issue 40 item 8 (a folder whose last name spells TeX's \tiny)
def backup():
    """Saved in D:\work\tiny."""
#: ESC501:2:22 ESC501:2:26
# from: issue 40 item 8 (a log message with a path at the end of its sentence)
log.info("Saved to C:\new\file.txt.")
# --- clean look-alikes -----------------------------------------------------
#: Okay
# from: kouhan.cn article 00039995 (a raw path with %s)
PDF = r'C:\Users\user\Desktop\File_%s.pdf' % item
#: Okay
# from: qeeebo.com questions/how/78/a1a (forward slashes)
junkfile = open('c:/tmp/junkpythonfile', 'w')
#: Okay
# from: qeeebo.com questions/how/78/a1a (a raw string)
junkfile = open(r'c:\tmp\junkpythonfile', 'w')
#: Okay
# from: qeeebo.com questions/how/78/a1a (doubled backslashes)
junkfile = open('c:\\tmp\\junkpythonfile', 'w')
#: Okay
# from: urduweb.org mehfil (raw string for a full path)
path = r'C:\docs\newfile.txt'
#: Okay
# from: runebook.dev docs/python/library/os/index-50 (doubled)
file_path_double = "C:\\users\\newton\\file.txt"
#: Okay
# from: runebook.dev docs/python/library/os/index-50 (raw)
file_path_raw = r"C:\users\newton\file.txt"
#: Okay
# from: stackoverflow.com questions/2953834 (a raw folder ending in a doubled backslash)
import codecs
with codecs.open(r"C:\maXbox\EKON24\tweet_data\\" + file, 'r', encoding='utf-8') as f:
    tweets = f.read()
#: Okay
# from: python/cpython issue 111399 (a raw string cannot end in a backslash: concatenate one)
windows = r'C:\Windows' '\\'
#: Okay
# from: bugs.python.org msg350382 (eryksun on Windows paths in literals)
print(r'C:\Users' '\\')
#: Okay
# from: DietrichGebert/ponytail issue 202 (a raw path handed to os.chdir)
import os
os.chdir(r"D:\data\csv")
#: Okay
# from: mdickinson/refcycle issue 47 (the path in the report is raw)
filename = r"C:\temp\somefile"
#: Okay
# from: wxGlade/wxGlade issue 555 (escaping newlines and tabs for a project file, not a path)
value = value.replace("\n", "\\n").replace("\t", "\\t")
#: Okay
# from: talkin.icu blog/python-path-error-on-windows (the fixed call)
import os
os.system(r'c:\path\wappapa\app -f=import')
#: Okay
# from: topic.alibabacloud.com (the corrected open)
f = open('D:/test.txt', 'r')
#: Okay
# from: python/cpython Lib/ntpath.py (the separator itself, and the extended-path prefix)
sep = '\\'
prefix = '\\\\?\\'
#: Okay
# from: python/cpython Lib/csv.py (class excel: a line terminator, not a path)
lineterminator = '\r\n'
#: Okay
# from: python/cpython Lib/http/client.py (protocol bytes)
header = b'%s: %s\r\n' % (name, value)
#: Okay
# from: tartley/colorama colorama/ansi.py (ANSI control sequences)
CSI = '\033['
OSC = '\033]'
BEL = '\a'
#: Okay
# from: sympy/sympy sympy/printing/latex.py (LaTeX with doubled backslashes)
tex = r"\frac{%s}{%s}" % (num, den) + "\\left(%s\\right)" % arg
#: Okay
# from: md2latex-0.0.2 md2latex.py lines 97 and 99 (LaTeX written fully escaped: the newline is meant)
def block(kind, body):
    if kind == 'ol':
        return '\\begin{enumerate}\n%s\\end{enumerate}' % body
    return '\\begin{itemize}\n%s\\end{itemize}' % body
#: Okay
# from: numpy/numpy numpy/distutils/npy_pkg_config.py (a tab-separated listing)
print("%s\t%s - %s" % (info.name, info.name, info.description))
#: Okay
# from: python/cpython Lib/textwrap.py (a tab in a regex)
import re
_whitespace_only_re = re.compile('^[ \t]+$', re.MULTILINE)
#: Okay
# from: python/cpython Doc/library/subprocess.rst (run with input: text to a pipe, not a path)
import subprocess
subprocess.run(['sort'], input='b\na\n', text=True)
#: Okay
# from: python/cpython Doc/library/os.rst (os.write: bytes to a descriptor, not a path)
import os
os.write(fd, b'\n')
#: Okay
# from: python/cpython Lib/shutil.py (move: a message, not a path)
raise Error("Cannot move a directory '%s' into itself '%s'." % (src, dst))
#: Okay
# from: python/cpython Lib/textwrap.py (fill: wrapped lines joined by newlines)
message = '\n'.join(lines)
#: Okay
# from: python/cpython Lib/ntpath.py (realpath: the UNC prefix, doubled)
unc_prefix = '\\\\?\\UNC\\'
#: Okay
# from: python/cpython Lib/test/test_ntpath.py (UNC paths doubled)
tester('ntpath.splitdrive("\\\\conky\\mountpoint\\foo\\bar")', ('\\\\conky\\mountpoint', '\\foo\\bar'))
#: Okay
# from: python/cpython Doc/library/pathlib.rst (PureWindowsPath with forward slashes)
from pathlib import PureWindowsPath
p = PureWindowsPath('c:/Program Files/PSF')
#: Okay
# from: python/cpython Doc/library/glob.rst (glob.glob, then the names joined by newlines)
import glob
files = glob.glob('*.txt')
lines = '\n'.join(files)
#: Okay
# from: python/cpython Doc/library/zipfile.rst (ZipFile.comment: bytes, not a path)
import zipfile
with zipfile.ZipFile(target, 'w') as archive:
    archive.comment = b'created by python\n'
#: Okay
# from: python/cpython Lib/tarfile.py (NUL padding in a header, not a path)
NUL = b"\0"
#: Okay
# from: python/cpython Lib/cmd.py (do_help writes a line to stdout)
self.stdout.write("%s\n" % str(doc))
#: Okay
# from: python/cpython Lib/csv.py (class excel_tab)
delimiter = '\t'
#: Okay
# from: python/cpython Lib/email/generator.py (a newline constant)
NL = '\n'
#: Okay
# from: python/cpython Lib/json/encoder.py (ESCAPE_DCT: control characters and their escapes)
ESCAPE_DCT = {'\\': '\\\\', '"': '\\"', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t'}
#: Okay
# from: python/cpython Lib/sysconfig/__init__.py (the nt scheme, written with forward slashes)
_INSTALL_SCHEMES = {'nt': {'stdlib': '{installed_base}/Lib', 'scripts': '{base}/Scripts'}}
#: Okay
# from: python/cpython Lib/os.py (the nt line separator)
linesep = '\r\n'
#: Okay
# from: python/cpython Lib/subprocess.py (list2cmdline quoting: doubled backslashes)
result.append('\\' * len(bs_buf) * 2)
#: Okay
# from: python/cpython Lib/ntpath.py (normpath special prefixes)
special_prefixes = ('\\\\.\\', '\\\\?\\')
#: Okay
# from: examples written for issue 22 (torch.save's first argument is the object, not the path)
import torch
torch.save({'log': 'epoch\tloss\n'}, path)
#: Okay
# from: examples written for issue 22 (a registry value's data is text, not a key)
import winreg
winreg.SetValueEx(key, 'Notes', 0, winreg.REG_SZ, 'line one\nline two')
#: Okay
# from: examples written for issue 22 (SQL text through a connection, not a path)
import sqlite3
sqlite3.connect(database).execute("INSERT INTO t VALUES ('a\tb')")
#: Okay
# from: examples written for issue 22 (text drawn on an image, not a path)
import cv2
cv2.putText(frame, 'fps\t%d' % fps, (10, 30), cv2.FONT_HERSHEY_SIMPLEX, 1, (0, 255, 0))
#: Okay
# from: issue 22's look-alikes (an f-string that ends a path with a newline)
print(f"{path}\n")
#: Okay
# from: issue 22's look-alikes (a message template, not a path)
msg = "Error in file\n%s" % path
#: Okay
# from: issue 22's look-alikes (a tab-separated header row)
header = "name\tpath\n"
#: Okay
# from: issue 22's look-alikes (two file names separated by a tab)
pair = "old.txt\tnew.txt"
#: Okay
# from: issue 22's look-alikes (a separator keyword)
print(a, b, sep="\t")
#: Okay
# from: issue 22's look-alikes (open's newline keyword)
f = open(path, "w", newline="\r\n")
#: Okay
# from: issue 22's look-alikes (a prompt that shows a drive)
prompt = "C:\\> "
#: Okay
# from: examples written for issue 22 (text written to a file opened by its path)
import os
with open(os.path.join(folder, "notes.txt"), "w") as f:
    f.write("first line\nsecond line")
#: Okay
# from: examples written for issue 22 (a regex with doubled escapes and a newline, not a path)
import re
pattern = re.compile("\\d+\\s*\n")
#: Okay
# from: examples written for issue 22 (a drive letter in a message, then a newline)
print("Drive C:\nFree space: %d" % free)
#: Okay
# from: examples written for issue 22 (lines joined for a file's content)
content = "\n".join(lines)
#: Okay
# from: examples written for issue 22 (a template of two fields and a tab)
row = "%s\t%s" % (name, path)
#: Okay
# from: issue 40 item 10 (ANTLR 4.9's Python target writes its serialized ATN in chunks; one starts with '.')
def serializedATN():
    with StringIO() as buf:
        buf.write("\3\u608b\ua72a\u8133\ub9ed\u417c\u3be7\u7786\u5964\3")
        buf.write(".\30\2\u008b\u008c\78\2\2\u008c\u008d\7\t\2\2\u008d\u008e")
        buf.write("..\30\2\u008b\u008c\7f\2\2\u008e\u008f\7\60\2\2\u008f")
        return buf.getvalue()
#: Okay
# from: issue 40 item 10 (ANTLR 4.9's lexer tables: a chunk with tabs and a '.')
def lexerATN():
    with StringIO() as buf:
        buf.write(".\t\2\4\3\t\3\4\4\t\4\4\5\t\5\4\6\t\6")
        return buf.getvalue()
