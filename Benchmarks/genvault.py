#!/usr/bin/env python3
"""Deterministic synthetic vault generator for Quire's benchmarks.

Usage:
    python3 Benchmarks/genvault.py OUT_DIR -n N [--seed S] [--force] [--stats]

Writes N Markdown files with YAML front matter into deck folders 1-3 levels
deep under OUT_DIR. File i depends only on (seed, i) and the deck tree, which
depends only on (seed, N), so the output is byte-for-byte reproducible.
Even-numbered files carry scheduling fields (due, interval, ease, ...).
Each file holds 1-20 flashcards: "Q:/A:" pairs, "term :: definition" lines,
{{cN::cloze}} sentences and ==highlight== sentences (weights 4:3:2:1).

--stats prints: files dirs bytes min p10 median p90 max cards
(dirs = deck folders below OUT_DIR; sizes in bytes; cards = cards written).
Only the standard library is used; every random stream is a random.Random
seeded with a string, which is stable across runs and platforms.
"""

import argparse
import datetime
import os
import shutil
import sys
from random import Random

SUBJECTS = [
    "Biology", "Chemistry", "Physics", "Mathematics", "History", "Geography",
    "Languages", "Programming", "Medicine", "Economics", "Law", "Music",
    "Philosophy", "Astronomy", "Linguistics", "Art",
]

COMMON = """
the of and to in is was for on that by with as at from it be this which or are
an not but have has were can also more one all their its two three first new
other some many most time when where after before between during under over into
about than then only such these those each both often may must will would could
very well much how what why who because while through against within without
cell protein membrane enzyme gene genome organism species tissue nucleus virus
bacteria evolution energy mass force field charge atom molecule electron photon
wave particle orbit planet star galaxy gravity velocity momentum pressure heat
temperature reaction acid base salt bond element compound solution gas liquid
metal carbon oxygen water light sound theory law model method data value result
system process structure function pattern level rate change state order number
set graph node edge tree network vector matrix equation proof limit series sum
signal memory language verb noun tense mood word sentence meaning grammar case
empire king queen war treaty river mountain city nation trade market price
demand supply money bank tax labour capital revolution republic dynasty century
church temple battle army coast island desert ocean climate soil forest harvest
court contract right duty crime justice music rhythm melody chord scale
painting colour form space logic truth mind ethics reason example question
answer note rule type class object array loop index key record table query
patient disease symptom dose heart blood brain bone muscle nerve drug therapy
""".split()

NON_ASCII = [
    "naïve", "Straße", "café", "日本語", "Ελληνικά", "Kraków", "résumé", "façade",
    "coöperate", "São Paulo", "Zürich", "Ångström", "jalapeño", "Dvořák", "Москва",
    "東京", "über", "crème", "Øresund", "Łódź", "Reykjavík", "piñata", "smörgåsbord",
    "fiancée", "déjà vu", "Ελλάδα", "中文", "Gödel", "Schrödinger", "Erdős",
]

SYLLABLES = [
    "ka", "lo", "mi", "zan", "tev", "ion", "eth", "pra", "gri", "vis", "ost",
    "mur", "sel", "ne", "qu", "bor", "fen", "jin", "ae", "hol", "wy", "tar",
    "ri", "um", "ex", "cal", "dra", "sul", "pon", "ver", "dal", "ky", "ro",
    "vek", "sa", "thi", "ul", "mo", "bri", "zo",
]

CODE_LANGS = ["python", "swift", "c", "rust", "javascript", "bash", "sql", "go"]

# Share of each word source, in percent of words (common / made-up / non-ASCII).
P_COMMON, P_MADEUP, P_NONASCII = 55.0, 44.5, 0.5
CARD_KINDS = ["qa", "term", "cloze", "highlight"]
CARD_WEIGHTS = [4, 3, 2, 1]
FILES_PER_LEAF = 40


def make_vocabulary(count=3000):
    """Fixed list of made-up words; independent of the user's seed."""
    rng = Random("quire-genvault-vocabulary-1")
    common = set(COMMON)
    seen = set()
    words = []
    while len(words) < count:
        k = rng.choices([1, 2, 3, 4], weights=[6, 40, 38, 16])[0]
        w = "".join(rng.choice(SYLLABLES) for _ in range(k))
        if len(w) < 3 or w in seen or w in common:
            continue
        seen.add(w)
        words.append(w)
    return words


MADEUP = make_vocabulary()
POPULATION = COMMON + MADEUP + NON_ASCII
CUM_WEIGHTS = []
_acc = 0.0
for _group, _share in ((COMMON, P_COMMON), (MADEUP, P_MADEUP), (NON_ASCII, P_NONASCII)):
    for _ in _group:
        _acc += _share / len(_group)
        CUM_WEIGHTS.append(_acc)
del _acc, _group, _share


def title_case(w):
    return w[:1].upper() + w[1:]


def build_deck_tree(seed, n):
    """Leaf deck paths (tuples of folder names) for (seed, n)."""
    rng = Random("genvault-tree:%s:%d" % (seed, n))
    leaves = max(8, n // FILES_PER_LEAF)
    children = {s: [] for s in SUBJECTS}  # subject -> level-2 names
    used = set()
    out = []

    def deck_name():
        k = rng.choices([1, 2], weights=[55, 45])[0]
        return "-".join(title_case(rng.choice(MADEUP)) for _ in range(k))

    j = 0
    while len(out) < leaves:
        # The first 16 leaves cover every subject, Biology first.
        subject = SUBJECTS[j % len(SUBJECTS)] if j < len(SUBJECTS) else rng.choice(SUBJECTS)
        j += 1
        depth = rng.choices([1, 2, 3], weights=[4, 46, 50])[0]
        if depth == 1:
            path = (subject,)
        else:
            kids = children[subject]
            if depth == 3 and kids and rng.random() < 0.45:
                mid = rng.choice(kids)
            else:
                mid = deck_name()
                if mid not in kids:
                    kids.append(mid)
            path = (subject, mid) if depth == 2 else (subject, mid, deck_name())
        if path in used:
            continue
        used.add(path)
        out.append(path)
    return out


class FileGen:
    """Generates the text of one file from its own random stream."""

    def __init__(self, rng):
        self.rng = rng
        self.cards = 0

    def words(self, k):
        return self.rng.choices(POPULATION, cum_weights=CUM_WEIGHTS, k=k)

    def ascii_words(self, k):
        return self.rng.choices(MADEUP if self.rng.random() < 0.5 else COMMON, k=k)

    def title(self, lo, hi):
        return " ".join(title_case(w) for w in self.words(self.rng.randint(lo, hi)))

    def decorate(self, ws):
        rng = self.rng
        kind = rng.randrange(5)
        p = rng.randrange(len(ws))
        m = min(rng.randint(1, 3), len(ws) - p)
        span = " ".join(ws[p:p + m])
        if kind == 0:
            rep = "**%s**" % span
        elif kind == 1:
            m = 1
            rep = "`%s()`" % rng.choice(MADEUP)
        elif kind == 2:
            rep = "[%s](https://example.org/%s)" % (span, rng.choice(MADEUP))
        elif kind == 3:
            rep = "[[%s]]" % span
        else:
            rep = "~~%s~~" % span
        ws[p:p + m] = [rep]

    def sentence(self, lo=5, hi=20, end=None):
        rng = self.rng
        ws = self.words(rng.randint(lo, hi))
        ws[0] = title_case(ws[0])
        if rng.random() < 0.25:
            self.decorate(ws)
        if end is None:
            end = rng.choices(".?!;", weights=[80, 8, 6, 6])[0]
        return " ".join(ws) + end

    def paragraph(self, lo=2, hi=6):
        return " ".join(self.sentence() for _ in range(self.rng.randint(lo, hi)))

    def list_block(self):
        rng = self.rng
        ordered = rng.random() < 0.3
        tasks = not ordered and rng.random() < 0.3
        lines = []
        for k in range(rng.randint(2, 6)):
            marker = "%d. " % (k + 1) if ordered else "- "
            if tasks and rng.random() < 0.6:
                marker += "[x] " if rng.random() < 0.4 else "[ ] "
            lines.append(marker + self.sentence(2, 10))
            if rng.random() < 0.12:
                lines.append("    - " + self.sentence(2, 8))
        return "\n".join(lines)

    def table(self):
        rng = self.rng
        cols = rng.randint(2, 5)
        rows = rng.randint(2, 8)
        align = ["---", ":---", "---:", ":---:"]
        head = [title_case(w) for w in self.ascii_words(cols)]
        out = ["| " + " | ".join(head) + " |",
               "| " + " | ".join(rng.choice(align) for _ in range(cols)) + " |"]
        for _ in range(rows):
            cells = []
            for _ in range(cols):
                if rng.random() < 0.3:
                    cells.append("%d.%d" % (rng.randrange(1000), rng.randrange(10)))
                else:
                    cells.append(" ".join(self.words(rng.randint(1, 3))))
            out.append("| " + " | ".join(cells) + " |")
        return "\n".join(out)

    def code_block(self):
        rng = self.rng
        lang = rng.choice(CODE_LANGS)
        lines = []
        for _ in range(rng.randint(3, 10)):
            name, arg = rng.choice(MADEUP), rng.choice(MADEUP)
            indent = "    " * rng.randint(0, 2)
            lines.append("%s%s = %s(%s, %d)" % (indent, name, rng.choice(MADEUP), arg, rng.randrange(100)))
        return "```%s\n%s\n```" % (lang, "\n".join(lines))

    def quote(self):
        return "> " + " ".join(self.sentence() for _ in range(self.rng.randint(1, 3)))

    def card(self):
        rng = self.rng
        self.cards += 1
        kind = rng.choices(CARD_KINDS, weights=CARD_WEIGHTS)[0]
        if kind == "qa":
            text = "Q: %s\nA: %s" % (self.sentence(4, 16, "?"), self.sentence(3, 20, "."))
            if rng.random() < 0.25:
                text += "\n" + self.sentence(3, 12)
            return text
        if kind == "term":
            term = " ".join(self.ascii_words(rng.randint(1, 3))).lower()
            return "%s :: %s" % (term, self.sentence(4, 16))
        ws = self.words(rng.randint(8, 22))
        ws[0] = title_case(ws[0])
        if kind == "cloze":
            spans = rng.randint(1, 3)
            slots = sorted(rng.sample(range(len(ws)), spans))
            for c, p in enumerate(slots, 1):
                ws[p] = "{{c%d::%s}}" % (c, " ".join(self.words(rng.randint(1, 2))))
        else:
            p = rng.randrange(len(ws))
            ws[p] = "==%s==" % " ".join(self.words(rng.randint(1, 3)))
        return " ".join(ws) + "."

    def section_count(self):
        # Log-normal-ish, median about 2, clamped to 1..12.
        return max(1, min(12, int(round(self.rng.lognormvariate(0.69, 0.75)))))


def date_str(d):
    return "%04d-%02d-%02d" % (d.year, d.month, d.day)


BASE_DAY = datetime.date(2019, 1, 1).toordinal()
SPAN_DAYS = datetime.date(2023, 12, 31).toordinal() - BASE_DAY + 1


def generate_file(seed, i, leaves):
    """Returns (relative folder, file name, text, cards) for file i."""
    rng = Random("genvault-file:%s:%d" % (seed, i))
    g = FileGen(rng)
    deck = leaves[rng.randrange(len(leaves))]
    title = g.title(2, 5)

    fm = ["---",
          "id: %016x-%07d" % (rng.getrandbits(64), i),
          'title: "%s"' % title,
          "deck: " + "/".join(deck)]
    tags = [deck[0].lower()]
    for w in g.ascii_words(rng.randint(0, 3)):
        w = w.lower()
        if w not in tags:
            tags.append(w)
    if rng.random() < 0.5:
        fm.append("tags: [%s]" % ", ".join(tags))
    else:
        fm.append("tags:")
        fm.extend("  - " + t for t in tags)
    created = datetime.date.fromordinal(BASE_DAY + rng.randrange(SPAN_DAYS))
    fm.append("created: " + date_str(created))
    if i % 2 == 0:
        interval = rng.randint(1, 365)
        reps = rng.randint(1, 40)
        due = datetime.date.fromordinal(created.toordinal() + rng.randint(1, 900))
        fm.append("due: " + date_str(due))
        fm.append("interval: %d" % interval)
        fm.append("ease: %.2f" % rng.uniform(1.3, 3.0))
        fm.append("stability: %.4f" % rng.uniform(0.1, 400.0))
        fm.append("difficulty: %.4f" % rng.uniform(1.0, 10.0))
        fm.append("reps: %d" % reps)
        fm.append("lapses: %d" % rng.randint(0, reps // 3))
    if rng.random() < 0.2:
        fm.append('aliases: ["%s"]' % g.title(1, 3))
    fm.append("---")

    blocks = ["\n".join(fm), "# " + title, g.paragraph(1, 3)]
    nsec = g.section_count()
    ncards = rng.randint(1, 20)
    per_section = [0] * nsec
    for _ in range(ncards):
        per_section[rng.randrange(nsec)] += 1
    for s in range(nsec):
        level = "###" if rng.random() < 0.25 else "##"
        blocks.append("%s %s" % (level, g.title(1, 4)))
        items = [g.paragraph() for _ in range(rng.choices([0, 1, 2], weights=[25, 45, 30])[0])]
        if rng.random() < 0.25:
            items.append(g.list_block())
        if rng.random() < 0.10:
            items.append(g.table())
        if rng.random() < 0.08:
            items.append(g.code_block())
        if rng.random() < 0.05:
            items.append(g.quote())
        cards = [g.card() for _ in range(per_section[s])]
        # Interleave cards with the other blocks, keeping each group's order.
        merged = []
        while items or cards:
            pick = cards if (cards and (not items or rng.random() < 0.5)) else items
            merged.append(pick.pop(0))
        blocks.extend(merged)

    stem = title.lower().replace(" ", "-")[:40]
    name = "%s-%07d.md" % (stem, i)
    return os.path.join(*deck), name, "\n\n".join(blocks) + "\n", g.cards


def percentile(sorted_vals, q):
    if not sorted_vals:
        return 0
    return sorted_vals[min(len(sorted_vals) - 1, int(q * len(sorted_vals)))]


def main(argv=None):
    ap = argparse.ArgumentParser(description="Deterministic synthetic Quire vault generator.")
    ap.add_argument("out", help="output folder (must not exist unless --force)")
    ap.add_argument("-n", type=int, required=True, help="number of files")
    ap.add_argument("--seed", default="42", help="seed (default 42)")
    ap.add_argument("--force", action="store_true", help="delete OUT first if it exists")
    ap.add_argument("--stats", action="store_true", help="print one line of size statistics")
    a = ap.parse_args(argv)
    if a.n < 0:
        ap.error("-n must be >= 0")
    if os.path.lexists(a.out):
        if not a.force:
            ap.error("%s exists (use --force to replace it)" % a.out)
        if os.path.isdir(a.out) and not os.path.islink(a.out):
            shutil.rmtree(a.out)
        else:
            os.remove(a.out)

    leaves = build_deck_tree(a.seed, a.n)
    dirs = set()
    for leaf in leaves:
        for k in range(1, len(leaf) + 1):
            dirs.add(leaf[:k])
    os.makedirs(a.out)
    for d in sorted(dirs):  # parents sort before children
        os.mkdir(os.path.join(a.out, *d))

    sizes = []
    cards = 0
    for i in range(a.n):
        folder, name, text, c = generate_file(a.seed, i, leaves)
        data = text.encode("utf-8")
        with open(os.path.join(a.out, folder, name), "wb") as f:
            f.write(data)
        sizes.append(len(data))
        cards += c

    if a.stats:
        sizes.sort()
        print("files=%d dirs=%d bytes=%d min=%d p10=%d median=%d p90=%d max=%d cards=%d" % (
            len(sizes), len(dirs), sum(sizes), sizes[0] if sizes else 0,
            percentile(sizes, 0.10), percentile(sizes, 0.50), percentile(sizes, 0.90),
            sizes[-1] if sizes else 0, cards))
    return 0


if __name__ == "__main__":
    sys.exit(main())
