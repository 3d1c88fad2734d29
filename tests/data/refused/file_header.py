# from: https://github.com/OBKoro1/koro1FileHeader/issues/538 (an editor's header with the file's path)
'''
Author: wang
Date: 2022-12-22 10:21:33
LastEditors: wang
FilePath: \python\xuexi\main.py
Description: the course's first exercise
'''
print('hello')
