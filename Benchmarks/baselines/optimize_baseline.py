"""`quire optimize --revlog` against fsrs-rs-python's `compute_parameters` on the same review log,
timed in the same invocation (docs/BENCHMARKS.md, issue 34).

    python3 optimize_baseline.py QUIRE [--cards N] [--runs 3] [--revlog FILE] [--keep FILE]

Without --revlog, a year of reviews is simulated with py-fsrs (an implementation nobody here wrote):
each card is learnt on a day in the first half year and reviewed when py-fsrs's scheduler says (its
learning and relearning steps give same-day reviews), by parameters away from the defaults; a
review is recalled with the probability py-fsrs gives, then Hard 10 %, Good 80 %, Easy 10 %.
Both optimizers get the same items: each card's reviews in time order, study days starting at
04:00 UTC, one item per review on a later day than the one before. Prints the medians and the
log loss and RMSE(bins) of both parameter sets by fsrs-rs-python's own evaluation.
"""
import argparse, csv, json, os, random, statistics, subprocess, sys, tempfile, time
from datetime import datetime, timedelta, timezone

import fsrs
import fsrs_rs_python as f

TRUTH = [0.4, 1.6, 3.5, 10.0, 6.6, 0.6, 2.8, 0.02, 1.6, 0.2, 0.9, 1.6, 0.08, 0.35, 1.7, 0.5, 2.0, 0.6, 0.1, 0.1, 0.25]
DAY_START_MS = 4 * 3600 * 1000


def simulate(cards, seed):
    rng = random.Random(seed)
    scheduler = fsrs.Scheduler(parameters=TRUTH, desired_retention=0.9, enable_fuzzing=False)
    start = datetime(2025, 1, 1, 10, 0, tzinfo=timezone.utc)
    end = start + timedelta(days=365)
    rows = []
    for card_id in range(1, cards + 1):
        card = fsrs.Card(card_id=card_id)
        now = start + timedelta(days=rng.randrange(180), minutes=rng.randrange(600))
        first = True
        while now < end:
            if first:
                rating = rng.choices([1, 2, 3, 4], [0.2, 0.1, 0.6, 0.1])[0]
                first = False
            else:
                r = scheduler.get_card_retrievability(card, now)
                rating = 1 if rng.random() >= r else rng.choices([2, 3, 4], [0.1, 0.8, 0.1])[0]
            card, _ = scheduler.review_card(card, fsrs.Rating(rating), now)
            rows.append((card_id, int(now.timestamp() * 1000), rating))
            # Reviews happen when due, during the day (a due time at night waits for the morning).
            now = card.due
            if now.hour < 8:
                now = now.replace(hour=8 + rng.randrange(4))
    return rows


def items_of(rows):
    by_card = {}
    for card, ms, rating in rows:
        by_card.setdefault(card, []).append((ms, rating))
    predictions = []
    for card, reviews in by_card.items():
        reviews.sort()
        history, last_day = [], None
        for ms, rating in reviews:
            day = (ms - DAY_START_MS) // 86_400_000
            delta = 0 if last_day is None else max(0, day - last_day)
            history.append((rating, delta))
            last_day = day
            if len(history) >= 2 and delta > 0:
                predictions.append((ms, card, list(history)))
    predictions.sort(key=lambda p: (p[0], p[1]))
    return [f.FSRSItem([f.FSRSReview(r, d) for r, d in h]) for _, _, h in predictions]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("quire")
    parser.add_argument("--cards", type=int, default=5200)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=34)
    parser.add_argument("--revlog")
    parser.add_argument("--keep")
    args = parser.parse_args()

    if args.revlog:
        path = args.revlog
        with open(path, newline="") as handle:
            reader = csv.DictReader(handle)
            rows = []
            for row in reader:
                t = row["review_time"]
                ms = int(t) if t.isdigit() else int(datetime.fromisoformat(t).timestamp() * 1000)
                rows.append((int(row["card_id"]), ms, int(row["review_rating"])))
    else:
        rows = simulate(args.cards, args.seed)
        path = args.keep or os.path.join(tempfile.mkdtemp(), "simulated.csv")
        with open(path, "w", newline="") as handle:
            writer = csv.writer(handle)
            writer.writerow(["card_id", "review_time", "review_rating"])
            writer.writerows(rows)
    items = items_of(rows)
    print(f"{len(rows)} reviews of {len({r[0] for r in rows})} cards, {len(items)} items ({path})")

    env = dict(os.environ, TZ="UTC")
    command = [args.quire, "optimize", "--revlog", path, "--day-start", "4"]
    times = {"fit": ([], []), "fit + validation": ([], [])}
    reference = ours = validation = None
    for _ in range(args.runs):
        begin = time.perf_counter()
        reference = f.FSRS(f.DEFAULT_PARAMETERS).compute_parameters(items)
        times["fit"][0].append(time.perf_counter() - begin)
        begin = time.perf_counter()
        out = subprocess.run(command + ["--no-validation"], env=env, capture_output=True, text=True, check=True).stdout
        times["fit"][1].append(time.perf_counter() - begin)
        begin = time.perf_counter()
        f.FSRS(f.DEFAULT_PARAMETERS).compute_parameters(items)
        validation = f.evaluate_with_time_series_splits(items)
        times["fit + validation"][0].append(time.perf_counter() - begin)
        begin = time.perf_counter()
        full = subprocess.run(command, env=env, capture_output=True, text=True, check=True).stdout
        times["fit + validation"][1].append(time.perf_counter() - begin)
        line = next(l for l in out.splitlines() if l.startswith("fsrs_parameters:"))
        ours = json.loads(line.split(":", 1)[1])
    for name, parameters in [("defaults", f.DEFAULT_PARAMETERS), ("fsrs-rs", reference), ("quire", ours)]:
        e = f.FSRS(parameters).evaluate(items)
        print(f"{name:9} log loss {e.log_loss:.4f}  RMSE(bins) {e.rmse_bins:.4f}")
    print(f"time-series cross-validation: fsrs-rs log loss {validation.log_loss:.4f}  RMSE(bins) {validation.rmse_bins:.4f}")
    print("quire's own report:\n" + full.rstrip())
    for name, (a, b) in times.items():
        a, b = statistics.median(a), statistics.median(b)
        print(f"{name}: fsrs-rs-python {a:.3f} s · quire optimize {b:.3f} s (whole process) · ratio {b / a:.2f}")

if __name__ == "__main__":
    sys.exit(main())
