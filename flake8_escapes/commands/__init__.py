"""One module per command of ``flake8-escapes``: ``check``, ``fix``, ``explain``; ``cli`` parses
the command line and hands the arguments to the command's ``run``."""
