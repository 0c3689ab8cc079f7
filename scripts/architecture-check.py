#!/usr/bin/env python3
"""Checks that docs/ARCHITECTURE.md names only what exists.

Every CamelCase name in it (two humps or more: `StudyDesk`, `QuireApp`, `ReviewController+Grade`)
must be a module, a file or folder under Sources/, Tests/, Benchmarks/ or Fuzz/, or a Swift
declaration (type, extension, function, case, property) in them — or one of the outside names
listed below (libraries, tools, standards). Every path it names with a `/` and a file extension
(`scripts/fuzz.sh`, `EndToEndTests/Tools/serve-check.py`) must exist, from the repository root or
under Sources/ or Tests/. Exits 1 and lists what is missing, with its line.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = os.path.join(ROOT, "docs", "ARCHITECTURE.md")
TREES = ["Sources", "Tests", "Benchmarks", "Fuzz", "scripts"]

# Names of things outside this repository that the document mentions, each with what it is.
OUTSIDE = {
    "SwiftNIO": "Apple's networking library, under Hummingbird",
    "FlyingFox": "a Swift HTTP server weighed against Hummingbird",
    "ArgumentParser": "swift-argument-parser's module",
    "ZIPFoundation": "the zip library QuireArchive wraps",
    "OpenBLAS": "the BLAS library SentenceEncoder loads",
    "MathJax": "Anki's math renderer",
    "KaTeX": "the page's math renderer",
    "JavaScript": "a language",
    "AddressSanitizer": "the sanitizer fuzz.sh builds with",
    "LibFuzzer": "LLVM's fuzzing driver",
    "CamelCase": "this script's word for names",
    "GitHub": "a host",
    "SimHash": "a fingerprint method",
    "SipHash": "a hash function",
    "TextRank": "a summarisation method",
    "WordPiece": "BERT's tokenizer scheme",
    "PyPI": "Python's package index",
    "QuireKit": "the library product (Package.swift)",
    "QuireBench": "the benchmark executable (Package.swift)",
    "QuireFuzz": "the fuzz executable (Package.swift)",
    "XMLParser": "Foundation's XML parser",
    "FoundationXML": "Foundation's XML module",
    "FoundationEssentials": "Foundation's core module",
    "SystemPackage": "swift-system's module",
    "HummingbirdCore": "Hummingbird's core module",
    "StudyFlow": "the state scheduler's name (FORMAT.md; the type is StudyFlowScheduler)",
    "TeX": "the typesetting system",
    "SwiftPM": "Swift's package manager",
}


def declared_names():
    names = set()
    decl = re.compile(r"\b(?:class|struct|enum|protocol|actor|typealias|extension|func|case|var|let|@Tag\s+package\s+static\s+var)\s+([A-Za-z_][A-Za-z0-9_]*)")
    for tree in TREES:
        base = os.path.join(ROOT, tree)
        for folder, dirs, files in os.walk(base):
            dirs[:] = [d for d in dirs if not d.startswith(".") and d not in ("Fixtures", "corpus", "Golden")]
            names.add(os.path.basename(folder))
            for f in files:
                stem = f.split(".")[0]
                names.add(stem)
                names.update(stem.split("+"))
                names.add(f)
                if f.endswith(".swift"):
                    with open(os.path.join(folder, f), encoding="utf-8", errors="replace") as handle:
                        names.update(decl.findall(handle.read()))
    names.update(n for n in os.listdir(ROOT) if not n.startswith("."))
    with open(os.path.join(ROOT, "Package.swift"), encoding="utf-8") as handle:
        names.update(re.findall(r'"([A-Za-z][A-Za-z0-9]*)"', handle.read()))
    return names


def repository_files():
    """Every file's path from the repository root (hidden folders and .build left out)."""
    paths = []
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        rel = os.path.relpath(folder, ROOT)
        paths.extend(f if rel == "." else rel + "/" + f for f in files)
    return paths


def main():
    names = declared_names()
    files = repository_files()
    missing = []
    with open(DOC, encoding="utf-8") as handle:
        lines = handle.read().split("\n")
    camel = re.compile(r"(?<![\w./-])([A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+)(\+[A-Z][A-Za-z0-9]*)?(?![\w-])")
    path = re.compile(r"(?<![\w/.-])((?:[\w.-]+/)+[\w.+-]+\.(?:swift|py|sh|md|txt|c|h|json|yaml|tsv))\b")
    for number, line in enumerate(lines, 1):
        for match in camel.finditer(line):
            name, extension = match.group(1), match.group(2)
            if name in OUTSIDE and OUTSIDE[name]:
                continue
            if name not in names and not (name.endswith("s") and name[:-1] in names):
                missing.append(f"docs/ARCHITECTURE.md:{number}: {name} is no module, file or declaration")
            elif extension and (name + extension) not in names and not any(
                    n.startswith(name + extension) for n in names):
                missing.append(f"docs/ARCHITECTURE.md:{number}: no file {name}{extension}.swift")
        for match in path.finditer(line):
            p = match.group(1)
            if p.startswith(".quire/"):
                continue  # a vault's file, not the repository's
            if not any(f == p or f.endswith("/" + p) for f in files):
                missing.append(f"docs/ARCHITECTURE.md:{number}: no file {p}")
    for m in missing:
        print(m)
    if missing:
        print(f"{len(missing)} name(s) in docs/ARCHITECTURE.md name nothing in the repository", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
