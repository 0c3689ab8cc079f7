#!/usr/bin/env python3
"""Sizes the house keeps: no Swift file under Sources/ over 600 lines (generated tables aside),
the executable (Sources/quire) under a tenth of the Swift lines, and a report of the functions
over 80 lines, the longest first.

    scripts/size-check.py            the report
    scripts/size-check.py --check    exit 1 when a file is over 600 lines, a function over 80, or the
                                     executable holds a tenth of the lines or more (make test runs it)
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FILE_LIMIT = 600
FUNCTION_LIMIT = 80
GENERATED = "// Written by scripts/"
DECLARATION = re.compile(r"^(\s*)((public|package|private|fileprivate|internal|static|mutating|override|@discardableResult|nonisolated|@inlinable|final)\s+)*(func|init)\b")


def long_functions(path, lines):
    found = []
    for i, line in enumerate(lines):
        m = DECLARATION.match(line)
        if not m:
            continue
        indent = m.group(1)
        for j in range(i + 1, len(lines)):
            if lines[j] == indent + "}":
                if j - i + 1 > FUNCTION_LIMIT:
                    name = re.search(r"(func|init)\s*([A-Za-z_0-9]*)", line).group(0)
                    found.append((j - i + 1, f"{os.path.relpath(path, ROOT)}:{i + 1}", name))
                break
            if re.match("^" + indent + r"\S", lines[j]) and not lines[j].startswith(indent + "}"):
                break
    return found


def main():
    check = "--check" in sys.argv[1:]
    too_long, functions = [], []
    total, executable = 0, 0
    for folder, _, files in os.walk(os.path.join(ROOT, "Sources")):
        for name in sorted(files):
            if not name.endswith(".swift"):
                continue
            path = os.path.join(folder, name)
            with open(path, encoding="utf-8", errors="replace") as handle:
                text = handle.read()
            lines = text.split("\n")
            total += len(lines) - 1
            if os.path.basename(folder) == "quire":
                executable += len(lines) - 1
            if len(lines) - 1 > FILE_LIMIT and not text.startswith(GENERATED):
                too_long.append(f"{os.path.relpath(path, ROOT)}: {len(lines) - 1} lines, over {FILE_LIMIT}")
            functions += long_functions(path, lines)
    if total and executable * 10 >= total:
        too_long.append(f"Sources/quire: {executable} of {total} Swift lines ({executable * 100 / total:.1f} %), a tenth or more: "
                        "application logic belongs in QuireApp, drawing in QuireTerminal")
    if check:
        too_long += [f"{place}: {name} is {n} lines, over {FUNCTION_LIMIT}" for n, place, name in sorted(functions, reverse=True)]
    for problem in too_long:
        print(problem)
    if not check:
        for n, place, name in sorted(functions, reverse=True):
            print(f"{n:>4}  {place}  {name}")
        print(f"{len(functions)} functions over {FUNCTION_LIMIT} lines; the executable holds {executable} of {total} lines "
              f"({executable * 100 / max(1, total):.1f} %)")
    return 1 if too_long and check else 0


if __name__ == "__main__":
    sys.exit(main())
