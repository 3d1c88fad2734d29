# from: a question on reading a file from the desktop ("SyntaxError: (unicode error) ... truncated \UXXXXXXXX escape")
import pathlib

path = pathlib.Path("C:\Users\lucg\Desktop\hello.txt")
print(path.read_text())
