# from: a script reading a workbook from Windows' default "New folder" ("malformed \N character escape")
import openpyxl

book = openpyxl.load_workbook('D:\New folder\report.xlsx')
