#!/usr/bin/env python3
"""Benchmark baseline: what a user would otherwise write to query a vault's front matter.

Walks the vault like Quire (every *.md, hidden folders skipped), parses each file's front matter
with python-frontmatter (PyYAML underneath), and counts the notes with a `due` date on or before
today: a due count the plain-Python way. Prints "<files> <due>".
"""
import datetime
import os
import sys

import frontmatter

root = sys.argv[1]
today = datetime.date.today()
files = due = 0
for folder, dirs, names in os.walk(root):
    dirs[:] = [d for d in dirs if not d.startswith(".")]
    for name in names:
        if name.startswith(".") or not name.lower().endswith(".md"):
            continue
        files += 1
        try:
            post = frontmatter.load(os.path.join(folder, name))
        except Exception:
            continue
        d = post.metadata.get("due")
        if isinstance(d, datetime.datetime):
            d = d.date()
        if isinstance(d, datetime.date) and d <= today:
            due += 1
print(files, due)
