#!/usr/bin/env python3
"""Everything at once on one vault: nothing a review logs and nothing an editor writes is lost.

    scripts/concurrency-trial.py [--seconds N] [--quire PATH] [--seed S] [--keep]

A copy of SampleVault/ is made a git repository with a remote (a bare repository beside it) and a
second clone, "the other device". For N seconds (default 600), at the same time:

  - `quire serve` grades through its page's API: a session is started and each card graded with a
    random answer, as the page does;
  - `quire review --plain` grades one card at a time, as in a terminal, and the full-screen
    `quire review` in a pseudo-terminal takes Space (start), Space, a grade, Space, a grade and q,
    as typed;
  - an editor rewrites a random note every half second — half the time by a temporary file renamed
    over it (vim, VS Code), half in place (nano) — adding a line with a unique marker, after checking
    the note did not change since it read it, as an editor does before it saves;
  - `quire watch` keeps the index current;
  - `quire sync` runs every five seconds, and the other device grades a card and syncs every ten.

Then everything stops, both devices sync until they agree, and the trial checks:

  1. `quire replay --check` passes: every answer in the log is in the notes' scheduling keys;
  2. every marker the editor wrote is in the notes (no outside edit was lost);
  3. the log holds every answer the page, the terminal and the other device reported as taken
     (at least that many grade lines: a grade can be logged and its reply lost to a closing
     connection, never the other way round);
  4. `quire check` reports no error and no temporary file is left;
  5. the two devices hold the same notes.

Prints the counts and exits 1 on a broken check, keeping the folder. Figures go in docs/RELIABILITY.md.
"""
import argparse
import http.client
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

from vault_trials import GIT_ENV, Page, git, logged, notes

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
ENV = dict(GIT_ENV, NO_COLOR="1")


def run(quire, vault, args, stdin=None, timeout=120):
    return subprocess.run([quire, "-C", vault] + args, input=stdin, capture_output=True, text=True, env=ENV, timeout=timeout)


class Trial:
    def __init__(self, quire, work, seed):
        self.quire = quire
        self.work = work
        self.vault = os.path.join(work, "vault")
        self.other = os.path.join(work, "other")
        self.rng = random.Random(seed)
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.counts = {"page grades": 0, "terminal grades": 0, "full-screen sessions": 0, "full-screen hangs": 0,
                       "other device grades": 0, "editor saves": 0,
                       "editor saves skipped (note changed)": 0, "syncs": 0, "syncs refused": 0, "page errors": 0}
        self.markers = []
        self.failures = []

    def count(self, name, n=1):
        with self.lock:
            self.counts[name] += n

    def setup(self):
        shutil.copytree(os.path.join(ROOT, "SampleVault"), self.vault, symlinks=True)
        remote = os.path.join(self.work, "remote.git")
        git(self.vault, "init", "-q", "-b", "main")
        git(self.vault, "add", "-A")
        git(self.vault, "commit", "-q", "-m", "start")
        subprocess.run(["git", "init", "-q", "--bare", "-b", "main", remote], check=True)
        git(self.vault, "remote", "add", "origin", remote)
        git(self.vault, "push", "-q", "-u", "origin", "main")
        run(self.quire, self.vault, ["git", "setup"])
        subprocess.run(["git", "clone", "-q", remote, self.other], check=True, env=ENV)
        run(self.quire, self.other, ["git", "setup"])

    # The page.
    def page(self, serve):
        post = serve.post
        while not self.stop.is_set():
            try:
                status, state = post("/api/sessions", {})
                session = state.get("session")
                while session and not self.stop.is_set() and state.get("card"):
                    card = state["card"]["id"]
                    status, state = post(f"/api/sessions/{session}/grade", {"card": card, "rating": self.rng.choice(["again", "hard", "good", "easy"])})
                    # Taken: the page says the answer and the next due time ("Good: learning, due …").
                    if status == 200 and re.match(r"(Again|Hard|Good|Easy)\b", state.get("message") or ""):
                        self.count("page grades")
                    elif status != 200:
                        self.count("page errors")
                        break
                    time.sleep(0.2)
            except (OSError, http.client.HTTPException, ValueError) as error:
                self.count("page errors")
                self.page_error = repr(error)
            time.sleep(0.5)

    def terminal(self):
        while not self.stop.is_set():
            r = run(self.quire, self.vault, ["review", "--plain"], stdin=" \n" + self.rng.choice("1234") + "\nq\n")
            taken = re.search(r"Session done: \d+ cards?, (\d+) answers?", r.stdout)
            if taken:
                self.count("terminal grades", int(taken.group(1)))
            time.sleep(0.3)

    def screen(self):
        """The full-screen review in a terminal (a pseudo-terminal): Space, a grade, q, as a user
        types them. Its grades are not counted as reported (it prints them on its screen only);
        one that does not end within 30 s of its q is a hang."""
        import pty
        while not self.stop.is_set():
            pid, fd = pty.fork()
            if pid == 0:
                os.execvpe(self.quire, [self.quire, "-C", self.vault, "review"], dict(ENV, TERM="xterm-256color", COLUMNS="100", LINES="30"))
            # Space starts the session from its overview, Space shows an answer, a digit grades it.
            keys = [b" ", b" ", self.rng.choice(b"1234").to_bytes(1, "big"), b" ", self.rng.choice(b"1234").to_bytes(1, "big"), b"q"]
            ended = False
            deadline = time.monotonic() + 60
            for key in keys:
                self.drain(fd, 0.5)
                try:
                    os.write(fd, key)
                except OSError:
                    break
            while time.monotonic() < deadline:
                self.drain(fd, 0.2)
                done, _ = os.waitpid(pid, os.WNOHANG)
                if done:
                    ended = True
                    break
            if not ended:
                self.count("full-screen hangs")
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
            else:
                self.count("full-screen sessions")
            os.close(fd)
            time.sleep(0.3)

    @staticmethod
    def drain(fd, seconds):
        """Reads what the screen drew for `seconds` (a terminal that is not read blocks its program)."""
        import select
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            ready, _, _ = select.select([fd], [], [], max(0, end - time.monotonic()))
            if not ready:
                break
            try:
                if not os.read(fd, 65536):
                    break
            except OSError:
                break

    def editor(self):
        k = 0
        while not self.stop.is_set():
            time.sleep(0.5)
            paths = sorted(notes(self.vault))
            path = os.path.join(self.vault, self.rng.choice(paths))
            try:
                before = open(path, "rb").read()
            except OSError:
                continue
            k += 1
            marker = f"Edited outside Quire, marker {k:05d}."
            text = before + (b"" if before.endswith(b"\n") else b"\n") + b"\n" + marker.encode() + b"\n"
            time.sleep(0.05)   # the user typing
            # As an editor does before it saves: the file must be as it read it.
            if open(path, "rb").read() != before:
                self.count("editor saves skipped (note changed)")
                continue
            if self.rng.random() < 0.5:
                temp = path + f".edit{k}~"
                with open(temp, "wb") as f:
                    f.write(text)
                    f.flush()
                    os.fsync(f.fileno())
                os.rename(temp, path)
            else:
                with open(path, "r+b") as f:
                    f.write(text)
                    f.truncate()
            with self.lock:
                self.markers.append((os.path.relpath(path, self.vault), marker))
            self.count("editor saves")

    def syncing(self):
        while not self.stop.is_set():
            time.sleep(5)
            r = run(self.quire, self.vault, ["sync"], timeout=300)
            self.count("syncs" if r.returncode == 0 else "syncs refused")

    def other_device(self):
        while not self.stop.is_set():
            time.sleep(10)
            r = run(self.quire, self.other, ["review", "--plain"], stdin=" \n3\nq\n")
            taken = re.search(r"Session done: \d+ cards?, (\d+) answers?", r.stdout)
            if taken:
                self.count("other device grades", int(taken.group(1)))
            run(self.quire, self.other, ["sync"], timeout=300)

    def go(self, seconds):
        self.setup()
        before = logged(self.vault, "grade")
        serve = Page(self.quire, self.vault, ENV)
        watch = subprocess.Popen([self.quire, "-C", self.vault, "watch"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                 env=ENV, start_new_session=True)
        threads = [threading.Thread(target=t, daemon=True) for t in
                   (lambda: self.page(serve), self.terminal, self.screen, self.editor, self.syncing, self.other_device)]
        for t in threads:
            t.start()
        time.sleep(seconds)
        self.stop.set()
        for t in threads:
            t.join(timeout=600)
        serve.stop()
        os.killpg(watch.pid, signal.SIGINT)
        watch.wait(timeout=60)

        # Both devices sync until they agree.
        for _ in range(4):
            run(self.quire, self.vault, ["sync"], timeout=300)
            run(self.quire, self.other, ["sync"], timeout=300)
        return before

    def check(self, before):
        replay = run(self.quire, self.vault, ["replay", "--check"])
        if replay.returncode != 0:
            self.failures.append("replay --check: " + (replay.stdout + replay.stderr)[-1500:])
        final = notes(self.vault)
        lost = [(p, m) for p, m in self.markers if m.encode() not in final.get(p, b"")]
        # A note renamed or moved keeps its marker elsewhere: look in every note before calling it lost.
        everything = b"".join(final.values())
        lost = [(p, m) for p, m in lost if m.encode() not in everything]
        if lost:
            self.failures.append(f"{len(lost)} editor markers lost, first: {lost[:3]}")
        if self.counts["full-screen hangs"]:
            self.failures.append(f"{self.counts['full-screen hangs']} full-screen reviews did not end after q")
        answers = logged(self.vault, "grade") - before
        reported = self.counts["page grades"] + self.counts["terminal grades"] + self.counts["other device grades"]
        if answers < reported:
            self.failures.append(f"{answers} grades logged, {reported} reported taken")
        self.counts["grade lines logged"] = answers
        check = run(self.quire, self.vault, ["check"])
        if check.returncode != 0:
            self.failures.append("check: " + (check.stdout + check.stderr)[-1500:])
        left = [os.path.join(b, f) for b, d, fs in os.walk(self.vault) for f in fs if f.endswith(".tmp") and ".quire-" in f]
        if left:
            self.failures.append(f"temporary files left: {left[:3]}")
        if notes(self.other) != final:
            differ = sorted(set(notes(self.other).items()) ^ set(final.items()))
            self.failures.append(f"the devices differ in {len(differ)} notes: {[p for p, _ in differ[:4]]}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=int, default=600)
    ap.add_argument("--quire", default=os.path.join(ROOT, ".build", "release", "quire"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep", action="store_true")
    args = ap.parse_args()
    work = tempfile.mkdtemp(prefix="quire-concurrency-")
    trial = Trial(os.path.abspath(args.quire), work, args.seed)
    before = trial.go(args.seconds)
    trial.check(before)
    for name, n in trial.counts.items():
        print(f"{name}: {n}")
    if getattr(trial, "page_error", None):
        print(f"last page error: {trial.page_error}")
    if trial.failures:
        for f in trial.failures:
            print("BROKEN: " + f)
        print(f"kept: {work}")
        return 1
    print(f"{args.seconds} s, nothing lost")
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
