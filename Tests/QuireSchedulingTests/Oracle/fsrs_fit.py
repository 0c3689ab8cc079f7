"""Fits FSRS parameters with fsrs-rs-python (the reference optimizer) on items read as JSON from
standard input ({"items": [[[rating, delta_days], ...], ...]}); prints the 21 parameters as JSON."""
import json, sys
import fsrs_rs_python as f

data = json.load(sys.stdin)
items = [f.FSRSItem([f.FSRSReview(r, d) for r, d in item]) for item in data["items"]]
print(json.dumps(list(f.FSRS(f.DEFAULT_PARAMETERS).compute_parameters(items))))
