# from: a local web project's settings (XAMPP's folder: "truncated \xXX escape")
DOCUMENT_ROOT = "C:\xampp\htdocs\shop"
LOG_FILE = DOCUMENT_ROOT + "\\logs\\import.log"
