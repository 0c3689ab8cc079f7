"""Simulates a year of study with fsrs-rs-python (the reference simulator): a deck of new cards
learnt N a day, no review limit and no daily time cap, FSRS-6 defaults, eight seeds. Reads
{"cards": N, "new_per_day": n, "retentions": [...]} as JSON from standard input and prints, for
each retention, the runs' mean {"remembered", "reviews_per_day", "minutes_per_day"}."""
import json, statistics, sys
import fsrs_rs_python as f

data = json.load(sys.stdin)
config = f.default_simulator_config()
config.deck_size = data["cards"]
config.learn_span = 365
config.learn_limit = data["new_per_day"]
config.review_limit = 10**9
config.max_cost_perday = 1e12
out = []
for retention in data["retentions"]:
    runs = [f.simulate(f.DEFAULT_PARAMETERS, retention, config, 42 + k) for k in range(8)]
    out.append({"remembered": statistics.mean(r.memorized_cnt_per_day[-1] for r in runs),
                "reviews_per_day": statistics.mean(sum(r.review_cnt_per_day) for r in runs) / 365,
                "minutes_per_day": statistics.mean(sum(r.cost_per_day) for r in runs) / 60 / 365})
print(json.dumps(out))
