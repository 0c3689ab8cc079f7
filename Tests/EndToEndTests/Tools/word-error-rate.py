#!/usr/bin/env python3
"""Word error rate of transcripts against a human one.

    word-error-rate.py TRUTH HYPOTHESIS...   one line per HYPOTHESIS: "wer errors truth_words"

Files are plain text; a Quire note is read from its `## Transcript` section on, without its time
anchors, headings and the `(?)` marks of uncertain words. Words are lower-cased runs of letters,
digits and apostrophes; the rate is the word-level edit distance over the truth's word count.
"""
import re
import sys

WORD = re.compile(r"[a-z0-9']+")


def words(text):
    if "## Transcript" in text:
        text = text.split("## Transcript", 1)[1]
        text = re.sub(r"<!--.*?-->", " ", text)
        text = "\n".join(line for line in text.split("\n") if not line.startswith("#"))
        text = text.replace("(?)", " ")
    text = text.lower().replace("’", "'")
    return [w.strip("'") for w in WORD.findall(text) if w.strip("'")]


def distance(a, b):
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        previous, row[0] = row[0], i
        for j, y in enumerate(b, 1):
            previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, previous + (x != y))
    return row[len(b)]


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    truth = words(open(sys.argv[1], encoding="utf-8").read())
    for path in sys.argv[2:]:
        errors = distance(truth, words(open(path, encoding="utf-8", errors="replace").read()))
        print(f"{errors / len(truth) if truth else 0:.4f} {errors} {len(truth)}")


if __name__ == "__main__":
    main()
