#!/usr/bin/env python
# coding: utf-8
# from: a notebook exported to a script (jupyter nbconvert --to script): a data path, and a pattern further down

# In[1]:


import re
import pandas as pd


# In[2]:


df = pd.read_csv("C:\Users\me\Documents\New folder\sales.csv")
df.head()


# In[3]:


df['year'] = df['date'].str.extract('(\d{4})')
