# from: a tutorial on the error, os.stat of a picture (a backspace '\b' in the same path)
import os

statinfo = os.stat("C:\Users\Mafaza\Pictures\Saved Pictures\bg.jpg")
print(statinfo.st_size)
