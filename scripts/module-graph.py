#!/usr/bin/env python3
"""Prints the package's module graph from Package.swift and the sources' `import` lines, and checks it.

    scripts/module-graph.py           the graph, lowest layer first (docs/ARCHITECTURE.md quotes it)
    scripts/module-graph.py --check   only the problems; exit 1 if there are any (make test runs it)

The rules it checks (docs/ARCHITECTURE.md, "Dependencies"):
  - a module of the package imports only modules it declares as dependencies in Package.swift, so
    Package.swift is the whole truth and no module can import one above it (SwiftPM refuses cycles
    among declared dependencies); a test target may also import what those depend on;
  - a C module is imported only by its wrapper, and with `internal import`;
  - the platform's C library (Glibc) only in the system layer (QuireSupport, QuireSystem) and the
    platform backends named in PLATFORM_FILES; tools and tests may use it;
  - the front ends (the page's server, the executable) import none of the modules
    FRONT_END_FORBIDDEN names for them: they reach those through QuireApp.
It also lists, per module, the files that import the platform's C library directly, and checks that
the docs and the package agree with the code:
  - docs/ARCHITECTURE.md's module table is this graph (`--write` rewrites it);
  - every command file of the executable (a file declaring a ParsableCommand) is named in
    docs/ARCHITECTURE.md;
  - the QuireKit library product holds every library module, so a Swift user can import any of them.
"""
import json
import os
import re
import subprocess
import sys

# Which modules may import each C module.
C_WRAPPERS = {
    "CCmarkGFM": {"QuireMarkdown", "CCmarkGFMShim"},
    "CCmarkGFMShim": {"QuireMarkdown"},
    "CLibYAML": {"QuireYAML"},
    "CLinux": {"QuireSystem"},
    "CMalloc": {"QuireSystem"},
    "CSQLite": {"QuireArchive"},
    "CZstd": {"QuireArchive"},
    "CQREncode": {"QuireServer"},
}
PLATFORM_MODULES = {"Glibc", "Darwin", "Musl"}
# The system layer: the only modules of the library and CLI that call the platform's C library, so
# that a port to another platform is new files there, not a hunt. The Linux file watcher is the
# Linux backend of QuireWatch's FileWatcher; another platform adds its own backend beside it.
SYSTEM_LAYER = {"QuireSupport", "QuireSystem"}
PLATFORM_FILES = {"Sources/QuireWatch/InotifyWatcher.swift"}
# The front ends' rule: a front end reaches files, formats and other programs only through the
# application layer. The page's server imports none of the modules that read formats, talk to other
# programs or write imports; the terminal's executable none of the format readers (front matter,
# archives), whatever else it still does itself.
FRONT_END_FORBIDDEN = {
    "QuireServer": {"QuireParsing", "QuireYAML", "QuireArchive", "QuireInterchange", "QuireIngest", "QuireSync",
                    "QuireEmbedding", "QuireNetwork"},
    "quire": {"QuireYAML", "QuireArchive"},
}

IMPORT = re.compile(r"^\s*(?:@testable\s+|@_implementationOnly\s+)?(internal\s+|public\s+|package\s+)?import\s+(?:struct\s+|enum\s+|class\s+|func\s+)?(\w+)", re.M)


# Modules of the package that are tools, not the library.
TOOLS = {"QuireBench", "QuireFuzz", "QuireTestSupport", "quire"}


def load_package(root):
    out = subprocess.run(["swift", "package", "--package-path", root, "dump-package"],
                         check=True, capture_output=True, text=True).stdout
    dump = json.loads(out)
    global PRODUCTS
    PRODUCTS = {p["name"]: set(p.get("targets", [])) for p in dump.get("products", [])}
    targets = {}
    for t in dump["targets"]:
        deps = []
        for d in t["dependencies"]:
            kind, value = next(iter(d.items()))
            deps.append(value[0])
        default = "Tests" if t["type"] == "test" else "Sources"
        targets[t["name"]] = {
            "type": t["type"],
            "path": t.get("path") or os.path.join(default, t["name"]),
            "deps": deps,
        }
    return targets


def imports_of(root, target):
    found = {}
    folder = os.path.join(root, target["path"])
    for dirpath, _, files in os.walk(folder):
        for name in sorted(files):
            if not name.endswith(".swift"):
                continue
            path = os.path.join(dirpath, name)
            text = open(path, encoding="utf-8").read()
            for m in IMPORT.finditer(text):
                found.setdefault(m.group(2), []).append((os.path.relpath(path, root), m.group(1) or ""))
    return found


def closure(targets, name, seen=None):
    seen = set() if seen is None else seen
    for d in targets.get(name, {}).get("deps", []):
        if d not in seen:
            seen.add(d)
            closure(targets, d, seen)
    return seen


def layers(targets, names):
    level = {}

    def depth(n):
        if n not in level:
            inside = [d for d in targets[n]["deps"] if d in targets]
            level[n] = 1 + max((depth(d) for d in inside), default=-1)
        return level[n]

    for n in names:
        depth(n)
    return level


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    check_only = "--check" in sys.argv[1:]
    targets = load_package(root)
    problems = []
    graph = {}
    platform = {}
    for name, t in targets.items():
        if t["type"] == "system":
            continue
        allowed = set(t["deps"])
        if t["type"] == "test":
            for d in list(t["deps"]):
                allowed |= closure(targets, d)
        used = imports_of(root, t)
        quire_imports = sorted(m for m in used if m in targets and m != name)
        graph[name] = quire_imports
        for module in quire_imports:
            places = used[module]
            if module not in allowed:
                problems.append(f"{places[0][0]}: {name} imports {module}, which Package.swift does not give it")
            if module in FRONT_END_FORBIDDEN.get(name, set()):
                problems.append(f"{places[0][0]}: the front end {name} imports {module}; it goes through QuireApp")
            if targets[module]["type"] == "system" or module in C_WRAPPERS:
                if name not in C_WRAPPERS.get(module, set()):
                    problems.append(f"{places[0][0]}: {name} imports the C module {module}; only {sorted(C_WRAPPERS.get(module, []))} may")
                for path, access in places:
                    if access.strip() != "internal" and targets[name]["type"] != "system" and name != "CCmarkGFMShim":
                        problems.append(f"{path}: {module} must be imported with `internal import`")
        for module in sorted(PLATFORM_MODULES & set(used)):
            platform.setdefault(name, set()).update(path for path, _ in used[module])
            if name in SYSTEM_LAYER or t["type"] == "test" or name in ("QuireBench", "QuireFuzz", "QuireTestSupport"):
                continue
            for path, _ in used[module]:
                if path not in PLATFORM_FILES:
                    problems.append(f"{path}: {name} imports {module}; only the system layer ({', '.join(sorted(SYSTEM_LAYER))}) may")

    library = [n for n, t in targets.items() if t["type"] in ("regular", "executable") and n not in C_WRAPPERS]
    level = layers(targets, library)
    table = ["layer  module             imports (of this package's modules)"]
    for n in sorted(library, key=lambda n: (level[n], n)):
        if n in TOOLS - {"quire"}:
            continue
        table.append(f"{level[n]:>5}  {n:<18} {' '.join(graph.get(n, [])) or '-'}")
    problems += check_docs(root, targets, table, write="--write" in sys.argv[1:])
    if not check_only:
        print("\n".join(table))
        print()
        print("files that import the platform's C library (Glibc) directly")
        for n in sorted(platform, key=lambda n: (level.get(n, 99), n)):
            print(f"  {n:<18} {len(platform[n])}")
    for p in problems:
        print(f"module-graph: {p}", file=sys.stderr)
    if problems:
        sys.exit(1)


def check_docs(root, targets, table, write):
    """The architecture document's table, its list of commands, and the library product."""
    found = []
    path = os.path.join(root, "docs", "ARCHITECTURE.md")
    text = open(path, encoding="utf-8").read()
    start = text.find(table[0])
    end = text.find("```", start)
    if start < 0 or end < 0:
        found.append("docs/ARCHITECTURE.md: no module table (a block starting with the table's heading)")
    else:
        current = text[start:end].rstrip("\n").split("\n")
        if current != table:
            if write:
                open(path, "w", encoding="utf-8").write(text[:start] + "\n".join(table) + "\n" + text[end:])
            else:
                found.append("docs/ARCHITECTURE.md: the module table is not the graph the code has; "
                             "scripts/module-graph.py --write rewrites it")
    command = re.compile(r"struct\s+\w+\s*:\s*(?:Async)?ParsableCommand")
    folder = os.path.join(root, "Sources", "quire")
    for name in sorted(os.listdir(folder)):
        if name.endswith(".swift") and command.search(open(os.path.join(folder, name), encoding="utf-8").read()):
            if not re.search(r"\b" + re.escape(name[:-6]) + r"\b", text):
                found.append(f"docs/ARCHITECTURE.md does not name the command file Sources/quire/{name}")
    modules = {n for n, t in targets.items() if t["type"] == "regular" and n.startswith("Quire") and n not in TOOLS}
    missing = sorted(modules - PRODUCTS.get("QuireKit", set()))
    if missing:
        found.append(f"Package.swift: the QuireKit product lacks {', '.join(missing)}")
    return found


if __name__ == "__main__":
    main()
