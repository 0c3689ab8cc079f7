#!/usr/bin/env python3
"""Two release binaries of quire, run in alternation in one invocation on copies of one
generated vault: the cold index (`list --count`, cache deleted), `due` on a warm cache, a grade
through the command, and a grade through the page (`quire serve`, POST …/grade on loopback).
Prints medians and the after/before ratios as a Markdown table.

Usage: before-after.py BEFORE AFTER [--files N] [--pairs N] [--grades N] [--work DIR]
"""
import argparse, http.cookiejar, json, os, re, shutil, statistics, subprocess, sys, time, urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))


def run(cmd):
    t = time.perf_counter()
    out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return time.perf_counter() - t, out


def serve_grades(binary, vault, grades):
    """Starts `quire serve` on `vault`, starts a session, grades `grades` cards Good; the wall
    time of each POST …/grade (request sent → next card's JSON read)."""
    proc = subprocess.Popen([binary, "-C", vault, "serve", "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        address = None
        for line in proc.stdout:
            m = re.search(r"(http://127\.0\.0\.1:\d+/\?token=\S+)", line)
            if m:
                address = m.group(1)
                break
        base = address.split("/?")[0]
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        opener.open(address).read()

        def post(path, body):
            req = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST",
                                         headers={"Content-Type": "application/json", "Origin": base, "X-Quire-Page": "1"})
            return json.loads(opener.open(req).read())

        state = post("/api/sessions", {})
        session = state["session"]
        times = []
        for _ in range(grades):
            card = state.get("card")
            if not card:
                break
            t = time.perf_counter()
            state = post("/api/sessions/%s/grade" % session, {"card": card["id"], "rating": "good"})
            times.append(time.perf_counter() - t)
        return times
    finally:
        proc.terminate()
        proc.wait()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--files", type=int, default=20000)
    ap.add_argument("--pairs", type=int, default=5)
    ap.add_argument("--grades", type=int, default=100)
    ap.add_argument("--work", default="/tmp/quire-before-after")
    ap.add_argument("--genvault", default=os.path.join(HERE, "genvault.py"))
    a = ap.parse_args()
    bins = {"before": os.path.abspath(a.before), "after": os.path.abspath(a.after)}
    base = os.path.join(a.work, "base")
    if not os.path.isdir(base):
        subprocess.run([sys.executable, a.genvault, base, "-n", str(a.files)], check=True, stdout=subprocess.DEVNULL)
        subprocess.run([bins["before"], "-C", base, "init"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    vaults = {}
    for name in bins:
        vaults[name] = os.path.join(a.work, name)
        shutil.rmtree(vaults[name], ignore_errors=True)
        shutil.copytree(base, vaults[name], symlinks=True)
    rows = {}

    def measure(label, fn, pairs):
        got = {"before": [], "after": []}
        for k in range(pairs):
            order = ["before", "after"] if k % 2 == 0 else ["after", "before"]
            for name in order:
                got[name].append(fn(name))
        rows[label] = got

    def cold(name):
        shutil.rmtree(os.path.join(vaults[name], ".quire", "cache"), ignore_errors=True)
        t, out = run([bins[name], "-C", vaults[name], "list", "--count"])
        assert out.returncode in (0, 1), out.stderr
        return t

    def due(name):
        t, out = run([bins[name], "-C", vaults[name], "due"])
        return t

    measure("cold index (`list --count`, cache deleted)", cold, a.pairs)
    for name in bins:
        run([bins[name], "-C", vaults[name], "due"])  # the cache written
    measure("`due`, warm cache", due, a.pairs + 2)
    ids = json.loads(subprocess.run([bins["before"], "-C", vaults["before"], "list", "--json"], stdout=subprocess.PIPE).stdout)
    ids = [c["id"] for c in (ids if isinstance(ids, list) else ids.get("cards", []))][: 2 * (a.pairs + 2)]
    queue = {"before": list(ids), "after": list(ids)}

    def grade(name):
        card = queue[name].pop(0)
        t, out = run([bins[name], "-C", vaults[name], "grade", card, "good"])
        assert out.returncode == 0, out.stderr
        return t

    measure("`grade ID good`, a process per grade", grade, a.pairs + 2)
    page = {name: serve_grades(bins[name], vaults[name], a.grades) for name in bins}
    rows["page's grade round trip (POST …/grade → next card, %d grades)" % a.grades] = page
    print("| measurement | before: median (range) | after: median (range) | after / before |")
    print("| --- | ---: | ---: | ---: |")
    for label, got in rows.items():
        b, f = statistics.median(got["before"]), statistics.median(got["after"])
        def shown(xs, m):
            return "%.1f ms (%.1f–%.1f)" % (m * 1000, min(xs) * 1000, max(xs) * 1000)
        print("| %s | %s | %s | %.3f |" % (label, shown(got["before"], b), shown(got["after"], f), f / b))


if __name__ == "__main__":
    main()
