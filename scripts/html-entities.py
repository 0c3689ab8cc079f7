#!/usr/bin/env python3
"""Writes Sources/QuireInterchange/HTML/HTMLEntities+Names.swift: HTML's named character
references (the WHATWG list, as Python's html.entities.html5 holds it), the names that end in `;`,
each with the one or two code points it stands for. Run it again when the list changes."""
import html.entities
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Sources", "QuireInterchange", "HTML", "HTMLEntities+Names.swift")

entries = []
for name, text in sorted(html.entities.html5.items()):
    if not name.endswith(";"):
        continue
    entries.append(name[:-1] + "=" + ",".join("%X" % ord(c) for c in text))

lines, line = [], ""
for entry in entries:
    if len(line) + len(entry) + 1 > 100:
        lines.append(line)
        line = ""
    line += (" " if line else "") + entry
lines.append(line)

with open(OUT, "w") as out:
    out.write("// Written by scripts/html-entities.py from the WHATWG list of named character references;\n")
    out.write("// do not edit by hand.\n\n")
    out.write("extension HTMLEntities {\n")
    out.write("    /// HTML's %d named character references: `name=code point[,code point]`, space-separated\n" % len(entries))
    out.write("    /// (names without their `&` and `;`, code points in hexadecimal).\n")
    out.write('    static let table = """\n')
    for l in lines:
        out.write("        " + l + "\n")
    out.write('        """\n}\n')
print(len(entries), "references written to", os.path.relpath(OUT, ROOT))
