# from: a script building a path in the user's folder with an f-string
import getpass

user = getpass.getuser()
report = f"C:\Users\{user}\Desktop\report.txt"
