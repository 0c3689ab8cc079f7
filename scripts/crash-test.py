#!/usr/bin/env python3
"""Crash consistency: kill -9 quire at random points of its writes, then check nothing is lost.

    scripts/crash-test.py [--trials N] [--quire PATH] [--seed S]

Each trial copies SampleVault/ to a temporary folder, starts one writing command (grade, tag add,
undo, replay after a hand edit, or a cold index that writes the cache), kills it with SIGKILL
after a random delay (0 to 1.5 times what the command takes), and checks:

  1. every note holds either its bytes from before the command or the bytes the command writes
     when it is not killed (no torn or mixed note);
  2. every log line is whole or is reported with its location, and the next grade's line is whole;
  3. `quire replay` brings every note in line with the log, after which `replay --check` passes
     (the log is written first: a kill between the two writes leaves the log ahead of the note);
  4. the index answers from the cache exactly as it does from the files (`list --count`);
  5. temporary files left by the killed process are reported by `check` and gone after the next
     write in their folder (those in `.quire/cache/`, which is not scanned, after the next cache
     write).

Prints one line per command kind and a total; exits 1 on the first broken invariant, with the
trial's folder kept. Figures are recorded in docs/RELIABILITY.md.
"""
import argparse
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NOW = "2026-11-22T12:00:00Z"
CARD = "atbk8qp31xm2"            # Biology/Cells/cell-membrane.md
NOTE = "Biology/Cells/cell-membrane.md"


def run(quire, vault, args, check=True):
    p = subprocess.run([quire, "-C", vault] + args, capture_output=True, text=True,
                       env=dict(os.environ, NO_COLOR="1", QUIRE_LOCK_TIMEOUT="10"))
    if check and p.returncode not in (0, 1):
        raise AssertionError(f"{args}: exit {p.returncode}: {p.stderr[-2000:]}")
    return p


def notes(vault):
    out = {}
    for base, dirs, files in os.walk(vault):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        for f in files:
            if f.endswith(".md"):
                path = os.path.join(base, f)
                out[os.path.relpath(path, vault)] = open(path, "rb").read()
    return out


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


COMMANDS = [
    ("grade", setup_none, ["grade", CARD, "good", "--at", NOW]),
    ("tag", setup_none, ["tag", "add", "crash-test"]),
    ("undo", setup_graded, ["undo"]),
    ("replay", setup_hand_edit, ["replay"]),
    ("cold-index", setup_cold, ["list", "--count"]),
]


def trial(quire, sample, name, setup, args, delay, keep):
    work = tempfile.mkdtemp(prefix="quire-crash-")
    vault = os.path.join(work, "vault")
    shutil.copytree(sample, vault, symlinks=True)
    try:
        setup(quire, vault)
        before = notes(vault)
        # What the command writes when it is not killed, from a copy.
        reference = os.path.join(work, "reference")
        shutil.copytree(vault, reference, symlinks=True)
        run(quire, reference, args)
        after = notes(reference)
        shutil.rmtree(reference)

        p = subprocess.Popen([quire, "-C", vault] + args, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, env=dict(os.environ, NO_COLOR="1"))
        time.sleep(delay)
        killed = p.poll() is None
        if killed:
            p.send_signal(signal.SIGKILL)
        p.wait()

        now = notes(vault)
        for path, data in now.items():
            if data != before.get(path) and data != after.get(path):
                raise AssertionError(f"{path}: neither the old nor the new bytes")
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
    args = ap.parse_args()
    rng = random.Random(args.seed)
    sample = os.path.join(ROOT, "SampleVault")
    # How long each command takes when not killed, to spread the kills over it.
    durations = {}
    for name, setup, cmd in COMMANDS:
        work = tempfile.mkdtemp(prefix="quire-crash-")
        vault = os.path.join(work, "vault")
        shutil.copytree(sample, vault, symlinks=True)
        setup(args.quire, vault)
        start = time.monotonic()
        run(args.quire, vault, cmd)
        durations[name] = time.monotonic() - start
        shutil.rmtree(work)
    counts = {name: [0, 0] for name, _, _ in COMMANDS}
    for i in range(args.trials):
        name, setup, cmd = COMMANDS[i % len(COMMANDS)]
        delay = rng.uniform(0, durations[name] * 1.5)
        try:
            killed = trial(args.quire, sample, name, setup, cmd, delay, keep=True)
        except AssertionError as e:
            print(f"FAILED trial {i} ({name}, kill after {delay * 1000:.1f} ms): {e}")
            return 1
        counts[name][0] += 1
        counts[name][1] += killed
    for name, (n, k) in counts.items():
        print(f"{name}: {n} trials, {k} killed mid-run (command takes {durations[name] * 1000:.0f} ms), 0 broken")
    total = sum(n for n, _ in counts.values())
    killed = sum(k for _, k in counts.values())
    print(f"total: {total} trials, {killed} killed mid-run, 0 broken")
    return 0


if __name__ == "__main__":
    sys.exit(main())
