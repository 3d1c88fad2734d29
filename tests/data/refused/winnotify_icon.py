# from: https://github.com/OzymandiasTheGreat/winnotify/issues/1 (an icon's path, in a call)
from winnotify import notify

notify.notify('This notification body', 'Title', 'C:\Users\username\Downloads\python.ico', False, 5)
