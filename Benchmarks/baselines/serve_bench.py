"""`quire serve` on a synthetic vault: time to first card and the grade's round trip, each against
the terminal doing the same in the same invocation (docs/BENCHMARKS.md, issue 36).

    python3 serve_bench.py QUIRE [--files 10000] [--runs 5] [--grades 40] [--genvault PATH]

The vault comes from genvault.py and is made a Quire vault with `quire init`; one `quire today`
fills the index cache first, as a user's vault has one. Each run, interleaved:
Each run is on a day of its own (`--now`), with the vault's default daily limits.
- terminal: `quire review --plain` started, until it prints the first card (`Q:`);
- page: `quire serve --port 0` started, until the first card's JSON is back (the address read from
  its output, the page's shell loaded, the overview asked with the token, a session started) — what
  opening the page costs; then three searches;
- grade round trip: POST …/grade from a client on loopback until the next card's JSON is back,
  against `quire grade ID good` (a process per grade: what a script without the server pays).
Prints medians and ratios.
"""
from datetime import datetime, timedelta, timezone
import argparse, http.client, json, os, statistics, subprocess, sys, tempfile, time, urllib.parse


def first_card_terminal(quire, vault, now):
    start = time.perf_counter()
    p = subprocess.Popen([quire, "review", "--plain", "--now", now], cwd=vault, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True)
    elapsed = None
    for line in p.stdout:
        if line.startswith("Q:"):
            elapsed = time.perf_counter() - start
            break
    p.stdin.close()
    p.kill()
    p.wait()
    return elapsed


class Page:
    def __init__(self, quire, vault, now):
        self.start = time.perf_counter()
        self.p = subprocess.Popen([quire, "serve", "--port", "0", "--now", now], cwd=vault, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        url = None
        for line in self.p.stdout:
            if "#token=" in line:
                url = line.strip()
                break
        parts = urllib.parse.urlsplit(url)
        self.port = parts.port
        self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        self.conn.request("GET", "/", headers={"Host": f"127.0.0.1:{self.port}"})
        r = self.conn.getresponse()
        r.read()
        self.token = urllib.parse.parse_qs(parts.fragment)["token"][0]
        t = time.perf_counter()
        self.get("/api/overview")
        self.overview = time.perf_counter() - t
        self.state = self.post("/api/sessions", {})
        self.first_card = time.perf_counter() - self.start

    def get(self, path):
        self.conn.request("GET", path, headers={"Host": f"127.0.0.1:{self.port}", "X-Quire-Token": self.token})
        r = self.conn.getresponse()
        payload = json.loads(r.read())
        if r.status != 200:
            raise RuntimeError(payload)
        return payload

    def post(self, path, body):
        data = json.dumps(body).encode()
        self.conn.request("POST", path, body=data, headers={
            "Host": f"127.0.0.1:{self.port}", "X-Quire-Token": self.token, "X-Quire-Page": "1", "Content-Type": "application/json"})
        r = self.conn.getresponse()
        payload = json.loads(r.read())
        if r.status != 200:
            raise RuntimeError(payload)
        return payload

    def grade(self):
        t = time.perf_counter()
        self.state = self.post(f"/api/sessions/{self.state['session']}/grade", {"card": self.state["card"]["id"], "rating": "good"})
        return time.perf_counter() - t

    def close(self):
        self.p.kill()
        self.p.wait()


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("quire")
    ap.add_argument("--files", type=int, default=10000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--grades", type=int, default=40)
    ap.add_argument("--genvault", default=os.path.join(here, "..", "genvault.py"))
    a = ap.parse_args()
    quire = os.path.abspath(a.quire)
    with tempfile.TemporaryDirectory() as tmp:
        vault = os.path.join(tmp, "vault")
        subprocess.run([sys.executable, a.genvault, vault, "-n", str(a.files)], check=True, stdout=subprocess.DEVNULL)
        subprocess.run([quire, "init"], cwd=vault, check=True, stdout=subprocess.DEVNULL)
        subprocess.run([quire, "today"], cwd=vault, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        terminal, page, web_grades, cli_grades, overviews, searches = [], [], [], [], [], []
        for run in range(a.runs):
            # Each run on a day of its own, the vault's default daily limits (20 new, 200 reviews):
            # a session as a user's is.
            now = (datetime.now(timezone.utc).replace(hour=12, minute=0, second=0, microsecond=0) + timedelta(days=2 * run)).strftime("%Y-%m-%dT%H:%M:%SZ")
            terminal.append(first_card_terminal(quire, vault, now))
            server = Page(quire, vault, now)
            page.append(server.first_card)
            overviews.append(server.overview)
            for word in ["energy", "protein", "network"]:
                t = time.perf_counter()
                server.get("/api/search?q=" + word)
                searches.append(time.perf_counter() - t)
            for _ in range(a.grades):
                if "card" not in server.state:
                    break
                web_grades.append(server.grade())
            server.close()
            # New cards graded by the command instead (the server stopped first: two writers
            # would only wait for each other's lock).
            listed = subprocess.run([quire, "list", "--json", "is:new"], cwd=vault, check=True, capture_output=True, text=True).stdout
            ids = [c["id"] for c in json.loads(listed)[:a.grades]]
            for card in ids:
                t = time.perf_counter()
                subprocess.run([quire, "grade", card, "good", "--now", now], cwd=vault, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                cli_grades.append(time.perf_counter() - t)
        m = statistics.median
        print(f"vault: {a.files} files; runs: {a.runs}; grades: {len(web_grades)} by the page, {len(cli_grades)} by the command")
        print(f"time to first card: page {m(page) * 1000:.0f} ms (range {min(page) * 1000:.0f}–{max(page) * 1000:.0f}), "
              f"terminal {m(terminal) * 1000:.0f} ms (range {min(terminal) * 1000:.0f}–{max(terminal) * 1000:.0f}); "
              f"page ÷ terminal {m(page) / m(terminal):.2f}×")
        print(f"overview (today's plan and every deck, in the time to first card): {m(overviews) * 1000:.0f} ms; "
              f"search (first one of a run builds the search index): median {m(searches) * 1000:.0f} ms, max {max(searches) * 1000:.0f} ms")
        print(f"grade round trip: page {m(web_grades) * 1000:.2f} ms (p90 {sorted(web_grades)[int(len(web_grades) * 0.9)] * 1000:.2f}), "
              f"quire grade {m(cli_grades) * 1000:.1f} ms; page ÷ command {m(web_grades) / m(cli_grades):.3f}×")


if __name__ == "__main__":
    main()
