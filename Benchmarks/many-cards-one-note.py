#!/usr/bin/env python3
"""Many cards in one note: `replay --all` and `import obsidian-sr --dry-run` at two sizes.

    Benchmarks/many-cards-one-note.py [--quire PATH] [--runs N] [--sizes 1000,10000]

Each size gets a fresh vault: one note of N basic cards, every card graded once in a log (so replay
writes N scheduling lines), and one note of N cards in the Obsidian plugin's syntax, each with its
schedule comment. Prints the median of each command per size, and the ratio of the largest size to
the smallest: linear work gives about the ratio of the sizes, quadratic its square (docs/BENCHMARKS.md).
"""
import argparse, json, os, shutil, statistics, subprocess, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def vault(quire, base, n):
    v = os.path.join(base, f"v{n}")
    subprocess.run([quire, "init", v], check=True, capture_output=True)
    with open(os.path.join(v, "big.md"), "w") as f:
        f.write("# Big\n\n" + "".join(f"Q: question {i}?\nA: answer {i}\n\n" for i in range(n)))
    cards = json.loads(subprocess.run([quire, "-C", v, "list", "--json"], capture_output=True, text=True, check=True).stdout)
    lines = ["# quire log v1"] + [f"2026-11-01T09:{i // 60 % 60:02d}:{i % 60:02d}.{i // 3600:03d}Z grade {c['id']} good id=e{i:09d} "
                                  f"sched=fsrs ms=1000 path=big.md" for i, c in enumerate(cards)]
    with open(os.path.join(v, ".quire", "log", "dev00000.log"), "w") as f:
        f.write("\n".join(lines) + "\n")
    o = os.path.join(base, f"o{n}")
    subprocess.run([quire, "init", o], check=True, capture_output=True)
    with open(os.path.join(o, "deck.md"), "w") as f:
        f.write("#flashcards\n\n" + "".join(f"Question {i}::Answer {i}\n<!--SR:!2026-12-{1 + i % 28:02d},{3 + i % 20},250-->\n\n"
                                            for i in range(n)))
    return v, o


def timed(args, reset=None):
    times = []
    for _ in range(RUNS):
        if reset:
            reset()
        start = time.monotonic()
        subprocess.run(args, check=True, capture_output=True)
        times.append(time.monotonic() - start)
    return statistics.median(times)


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--quire", default=os.path.join(ROOT, ".build", "release", "quire"))
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--sizes", default="1000,10000")
    args = ap.parse_args()
    RUNS = args.runs
    sizes = [int(s) for s in args.sizes.split(",")]
    base = tempfile.mkdtemp(prefix="quire-one-note-")
    results = {}
    try:
        for n in sizes:
            v, o = vault(args.quire, base, n)
            note = open(os.path.join(v, "big.md"), "rb").read()
            def reset():
                open(os.path.join(v, "big.md"), "wb").write(note)
            replay = timed([args.quire, "-C", v, "replay", "--all"], reset)
            obsidian = timed([args.quire, "-C", o, "import", "obsidian-sr", "--dry-run"])
            results[n] = (replay, obsidian)
            print(f"{n} cards in one note: replay --all {replay:.3f} s, import obsidian-sr --dry-run {obsidian:.3f} s")
        small, large = min(sizes), max(sizes)
        print(f"ratio {large}/{small} cards: replay {results[large][0] / results[small][0]:.1f}, "
              f"obsidian-sr {results[large][1] / results[small][1]:.1f} (sizes ratio {large / small:.0f})")
    finally:
        shutil.rmtree(base)
