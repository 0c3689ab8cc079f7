"""Fits FSRS parameters with fsrs-rs-python (the reference optimizer) on items read as JSON from
standard input: {"items": [[[rating, delta_days], ...], ...], "epochs": 5, "validate": false}.
Prints {"parameters": [21 floats]} and, with "validate", the time-series cross-validation's
{"validation": {"log_loss": x, "rmse_bins": y}}."""
import json, sys
import fsrs_rs_python as f

data = json.load(sys.stdin)
items = [f.FSRSItem([f.FSRSReview(r, d) for r, d in item]) for item in data["items"]]
config = f.TrainingConfig(num_epochs=data.get("epochs", 5))
out = {"parameters": list(f.FSRS(f.DEFAULT_PARAMETERS).compute_parameters(items, training_config=config))}
if data.get("validate"):
    e = f.evaluate_with_time_series_splits(items)
    out["validation"] = {"log_loss": e.log_loss, "rmse_bins": e.rmse_bins}
print(json.dumps(out))
