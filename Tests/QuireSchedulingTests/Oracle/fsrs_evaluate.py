"""Evaluates FSRS parameters on review items with fsrs-rs-python, the reference optimizer.

Reads JSON from standard input: {"items": [[[rating, delta_days], ...], ...], "parameters": [[21 floats], ...]}
and prints, for each parameter set, {"log_loss": x, "rmse_bins": y}, as a JSON list.
"""
import json, sys
import fsrs_rs_python as f

data = json.load(sys.stdin)
items = [f.FSRSItem([f.FSRSReview(r, d) for r, d in item]) for item in data["items"]]
out = []
for parameters in data["parameters"]:
    e = f.FSRS(parameters).evaluate(items)
    out.append({"log_loss": e.log_loss, "rmse_bins": e.rmse_bins})
print(json.dumps(out))
