#!/usr/bin/env python3
"""FSRS oracle for QuireScheduling's tests.

Usage: fsrs_oracle.py SEED COUNT

Generates COUNT random review sequences from SEED (same-day reviews, long gaps, every rating,
learning steps on and off, several desired retentions, maximum intervals and parameter sets), runs
every review through py-fsrs (`fsrs` on PyPI, fuzz off) for all four ratings, and the memory state
through fsrs-rs-python's `next_states`, chained on its own output. Prints one JSON document on stdout.

Nothing is written to disk: the Swift test regenerates the data from the seed on every run.
Requires: pip install fsrs fsrs-rs-python
"""

import json
import math
import random
import sys
from datetime import datetime, timedelta, timezone

try:
    import fsrs
    import fsrs_rs_python
except ImportError as error:  # the Swift test turns this into a failure with the message
    sys.stderr.write(f"fsrs_oracle.py: {error}; run: pip install fsrs fsrs-rs-python\n")
    sys.exit(3)

FSRS5_DEFAULT_DECAY = 0.5
S_MAX = 36500.0  # fsrs-rs's upper clamp on stability

# FSRS-4.5 (17) and FSRS-5 (19) default parameter sets, and a few FSRS-6 variations.
FSRS45 = [0.4872, 1.4003, 3.7145, 13.8206, 5.1618, 1.2298, 0.8975, 0.031, 1.6474, 0.1367, 1.0461,
          2.1072, 0.0793, 0.3246, 1.587, 0.2272, 2.8755]
FSRS5 = [0.40255, 1.18385, 3.173, 15.69105, 7.1949, 0.5345, 1.4604, 0.0046, 1.54575, 0.1192,
         1.01925, 1.9395, 0.11, 0.29605, 2.2698, 0.2315, 2.9898, 0.51655, 0.6621]
FSRS6_DEFAULT = list(fsrs.scheduler.DEFAULT_PARAMETERS)
FSRS6_ALT = [0.3, 1.1, 2.9, 10.0, 6.8, 0.6, 2.5, 0.01, 1.6, 0.2, 0.9, 1.6, 0.08, 0.3, 1.8, 0.5, 2.2,
             0.4, 0.2, 0.1, 0.3]
PARAMETER_SETS = [FSRS6_DEFAULT] * 6 + [FSRS6_ALT, FSRS45, FSRS5]


def fill(parameters):
    """17/19 -> 21 values, as fsrs-rs `check_and_fill_parameters` does (in float64)."""
    p = list(parameters)
    if len(p) == 17:
        p[4] = p[5] * 2.0 + p[4]
        p[5] = math.log(p[5] * 3.0 + 1.0) / 3.0
        p[6] += 0.5
        p += [0.0, 0.0, 0.0, FSRS5_DEFAULT_DECAY]
    elif len(p) == 19:
        p += [0.0, FSRS5_DEFAULT_DECAY]
    return p


def anki_ordered(state_before, outcomes, scheduler):
    """The intervals (days) with Anki's hard < good < easy rule applied, fuzz off; None for
    outcomes that stay in (re)learning."""
    maximum = scheduler.maximum_interval

    def days(card):
        return card.due_days if card.state == fsrs.State.Review else None

    raw = [days(c) for c in outcomes]
    ordered = list(raw)
    if state_before == fsrs.State.Review:
        hard = min(max(raw[1], 1), maximum)
        good = min(max(raw[2], hard + 1), maximum)
        easy = min(max(raw[3], good + 1), maximum)
        ordered[1:] = [hard, good, easy]
    elif raw[3] is not None:
        good_if_graduating = scheduler._next_interval(stability=outcomes[2].stability)
        ordered[3] = min(max(raw[3], good_if_graduating + 1), maximum)
    return ordered


def main():
    if len(sys.argv) != 3:
        sys.stderr.write("usage: fsrs_oracle.py SEED COUNT\n")
        sys.exit(2)
    seed, count = int(sys.argv[1]), int(sys.argv[2])
    rng = random.Random(seed)
    epoch = datetime(1970, 1, 1, tzinfo=timezone.utc)
    cases = []
    for _ in range(count):
        parameters = rng.choice(PARAMETER_SETS)
        filled = fill(parameters)
        rs_filled = fsrs_rs_python.check_and_fill_parameters(list(parameters))
        assert all(abs(a - b) <= 1e-6 * max(1.0, abs(a)) for a, b in zip(filled, rs_filled)), \
            "17/19-value conversion differs from fsrs-rs"
        retention = rng.choice([0.9, 0.9, 0.8, 0.85, 0.95, 0.7, 0.97])
        learning = rng.choice([[60, 600], [60, 600], [], [600], [60, 600, 3600], [300, 1800, 86400]])
        relearning = rng.choice([[600], [600], [], [600, 3600], [1800, 7200, 86400]])
        maximum = rng.choice([36500, 36500, 36500, 365, 60])
        scheduler = fsrs.Scheduler(
            parameters=filled,
            desired_retention=retention,
            learning_steps=[timedelta(seconds=s) for s in learning],
            relearning_steps=[timedelta(seconds=s) for s in relearning],
            maximum_interval=maximum,
            enable_fuzzing=False,
        )
        rs_model = fsrs_rs_python.FSRS(list(parameters))
        now = datetime(2026, 1, 1, tzinfo=timezone.utc) + timedelta(seconds=rng.randrange(0, 86400 * 365))
        card = fsrs.Card(card_id=1, due=now)
        rs_state = None
        # fsrs-rs clamps stability to 36,500 days, py-fsrs does not: once the py-fsrs chain goes
        # past that, fsrs-rs is no longer comparable for the rest of the sequence.
        rs_comparable = True
        reviews = []
        length = rng.choice([1, 2, 3, 5, 8, 12, 16, 20, 30])
        for index in range(length):
            if index > 0:
                kind = rng.random()
                if kind < 0.35:      # exactly when due
                    gap = max(0, (card.due - now).total_seconds())
                elif kind < 0.6:     # same day: seconds to hours
                    gap = rng.choice([1, 30, 59, 60, 330, 600, 3600, 7200, 43200, 86399])
                elif kind < 0.8:     # late, a few days to years
                    gap = rng.randrange(86400, 86400 * rng.choice([3, 30, 400, 3000]))
                else:                # early or late around the due date, at most 20 years
                    gap = max(0, (card.due - now).total_seconds() * rng.uniform(0.3, 2.5))
                    gap = min(gap, 86400 * 7300)
                now = now + timedelta(seconds=int(gap))
            state_before = card.state
            outcomes = []
            for rating in fsrs.Rating:
                out, _ = scheduler.review_card(card, rating, now)
                out.due_days = (out.due - now).days
                outcomes.append(out)
            days_elapsed = (now - card.last_review).days if card.last_review else 0
            rs_next = rs_model.next_states(rs_state, retention, days_elapsed)
            rs_all = [rs_next.again, rs_next.hard, rs_next.good, rs_next.easy]
            rating = rng.choices([1, 2, 3, 4], weights=[2, 1, 5, 2])[0]
            if card.stability is not None and card.stability >= S_MAX:
                rs_comparable = False
            ordered = anki_ordered(state_before, outcomes, scheduler)
            reviews.append({
                "at": int((now - epoch).total_seconds() * 1000),
                "rating": rating,
                "outcomes": [{
                    "state": {1: "learning", 2: "review", 3: "relearning"}[o.state.value],
                    "step": o.step,
                    "stability": o.stability,
                    "difficulty": o.difficulty,
                    "due": int((o.due - epoch) / timedelta(milliseconds=1)),
                    "days": o.due_days if o.state == fsrs.State.Review else None,
                    "orderedDays": ordered_days,
                    "rsStability": r.memory.stability,
                    "rsDifficulty": r.memory.difficulty,
                    "rsInterval": r.interval,
                    "rsComparable": rs_comparable and o.stability < S_MAX,
                } for o, r, ordered_days in zip(outcomes, rs_all, ordered)],
            })
            card = outcomes[rating - 1]
            rs_state = rs_all[rating - 1].memory
        cases.append({
            "parameters": list(parameters),
            "desiredRetention": retention,
            "learningSteps": learning,
            "relearningSteps": relearning,
            "maximumInterval": maximum,
            "reviews": reviews,
        })
    json.dump({"seed": seed, "fsrs": fsrs.__version__ if hasattr(fsrs, "__version__") else "?",
               "cases": cases}, sys.stdout, separators=(",", ":"))


if __name__ == "__main__":
    main()
