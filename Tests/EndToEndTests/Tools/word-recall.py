#!/usr/bin/env python3
"""Word recall of an importer's output against a document's ground truth.

    word-recall.py TRUTH OUTPUT...   one line per OUTPUT: "recall HIT TRUTH_WORDS OUTPUT_WORDS"

TRUTH is plain text, or the Markdown / R Markdown a slide deck was made from: its front matter,
code chunks, comments, presenter notes, slide properties, tags, link targets and LaTeX commands
are taken out, keeping the words a slide shows. A word is a lower-cased run of letters or digits;
recall is the share of the truth's words (as a multiset) the output holds.
"""
import re
import sys
from collections import Counter

WORD = re.compile(r"[^\W_]+")


def words(text):
    return [w.lower() for w in WORD.findall(text)]


def shown(source):
    s = source.replace("\r\n", "\n")
    s = re.sub(r"\A---\n.*?\n---\n", "\n", s, flags=re.S)
    s = re.sub(r"<!--.*?-->", " ", s, flags=re.S)
    s = re.sub(r"^[ \t]*(```|~~~).*?^[ \t]*\1[ \t]*$", " ", s, flags=re.S | re.M)
    s = re.sub(r"^\?\?\?[ \t]*$.*?(?=^---[ \t]*$|^--[ \t]*$|\Z)", " ", s, flags=re.S | re.M)
    kept = []
    for line in s.split("\n"):
        t = line.strip()
        if re.match(r"^(class|name|background-image|background-size|background-position|layout|exclude|template|count|seal)\s*:", t):
            continue
        if re.match(r"^-{2,}\s*$", t) or re.match(r"^<(script|style|link|meta)\b", t, re.I):
            continue
        kept.append(line)
    s = "\n".join(kept)
    s = re.sub(r"<(style|script)\b.*?</\1>", " ", s, flags=re.S | re.I)
    s = re.sub(r"`r [^`]*`", " ", s)
    s = re.sub(r"!\[([^\]]*)\]\([^)]*\)", " ", s)
    s = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", s)
    s = re.sub(r"\{(:[^}]*|[#.][^}]*)\}", " ", s)
    s = re.sub(r"https?://\S+", " ", s)
    s = re.sub(r"<[^>]+>", " ", s)
    s = re.sub(r"\.[A-Za-z][\w-]*(\.[A-Za-z][\w-]*)*\[", " ", s)
    s = re.sub(r"\\[A-Za-z]+", " ", s)
    s = re.sub(r"&[a-z]+;|&#\d+;", " ", s)
    return s


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    truth = open(sys.argv[1], encoding="utf-8", errors="replace").read()
    if re.search(r"\.(md|rmd|qmd)$", sys.argv[1], re.I):
        truth = shown(truth)
    want = Counter(words(truth))
    total = sum(want.values())
    for path in sys.argv[2:]:
        got = Counter(words(open(path, encoding="utf-8", errors="replace").read()))
        hit = sum(min(n, got[w]) for w, n in want.items())
        print(f"{hit / total if total else 0:.4f} {hit} {total} {sum(got.values())}")


if __name__ == "__main__":
    main()
