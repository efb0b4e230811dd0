#!/usr/bin/python3
"""A stand-in for `simapp FILE --mode compare --set key=value ...` as scripts/timing_sweep.sh runs
it: writes output.dir/timing.json in simapp's format with made-up times (execution.repeats
samples a mode, 5 by default), and appends its command line to $FAKE_SIMAPP_JOURNAL. The times
are fixed by the grid, so that the sweep's CSV can be checked against them."""
import json
import os
import sys

settings = dict(arg.split("=", 1) for arg in sys.argv[1:] if "=" in arg and not arg.startswith("--"))
with open(os.environ["FAKE_SIMAPP_JOURNAL"], "a") as journal:
    print(" ".join(sys.argv[1:]), file=journal)
nx, ny, nz = int(settings["grid.nx"]), int(settings.get("grid.ny", "1")), int(settings["grid.nz"])
repeats = int(settings.get("execution.repeats", "5"))
granularity = settings.get("execution.granularity", "stage")
kernels = {"fine": 120.0, "fused": 18.0, "stage": 6.0, "pass": 2.0}[granularity]
# eager_sync slowest, eager and graph within each other's ranges.
base = {"eager_sync": 300.0, "eager": 100.0, "graph": 96.0}


def samples(mode):
    return [base[mode] * (1 + 0.05 * ((i * 7 + len(mode)) % 5 - 2) / 2) for i in range(repeats)]


def summary(values):
    ordered = sorted(values)
    n = len(ordered)
    median = ordered[n // 2] if n % 2 else 0.5 * (ordered[n // 2 - 1] + ordered[n // 2])
    return {"median_us": median, "min_us": ordered[0], "max_us": ordered[-1], "q1_us": ordered[(n - 1) // 4],
            "q3_us": ordered[(3 * (n - 1)) // 4], "median_low_us": ordered[0], "median_high_us": ordered[-1],
            "relative_spread": (ordered[-1] - ordered[0]) / median}


times = {mode: samples(mode) for mode in base}
stats = {mode: summary(v) for mode, v in times.items()}
modes = []
for mode, values in times.items():
    s = stats[mode]
    entry = {"mode": mode, "steps": 100, "seconds": values[0] * 1e-4, "time_per_step_us": s["median_us"],
             "time_per_step": s, "time_per_step_samples_us": values,
             "within_noise_of": [m for m in base if m != mode and stats[m]["min_us"] <= s["max_us"]
                                 and stats[m]["max_us"] >= s["min_us"]],
             "kernels_per_step": kernels, "launches_per_step": kernels if mode != "graph" else 0.5}
    for baseline in ("eager_sync", "eager"):
        b = stats[baseline]
        entry[f"speedup_vs_{baseline}"] = b["median_us"] / s["median_us"]
        entry[f"speedup_vs_{baseline}_range"] = [b["min_us"] / s["max_us"], b["max_us"] / s["min_us"]]
    entry.update({"captures": 1 if mode == "graph" else 0, "instantiations": 1 if mode == "graph" else 0,
                  "d_mass": 0.0, "d_te": 0.0})
    if mode == "graph":
        entry.update({"graphs": 1, "nodes_per_graph": [250], "capture_ms": 0.5, "instantiate_ms": 1.0,
                      "break_even_steps": 250.0, "break_even_steps_range": [120.0, None]})
    modes.append(entry)
report = {"simapp_version": "0.1.0", "git": "fake", "case": "thermal", "nx": nx, **({"ny": ny} if ny > 1 else {}),
          "nz": nz, "cells": nx * ny * nz,
          "backend": "host", "processor": "CPU, 2 OpenMP threads", "ranks": 1, "layout": [1, 1], "halo": "mpi",
          "granularity": granularity, "steps_per_graph": int(settings.get("execution.steps_per_graph", "0")) or 40,
          "warmup_steps": 20, "repeats": repeats, "identical": True, "difference": "", "modes": modes,
          "skipped": [{"mode": "persistent", "reason": "persistent needs the CUDA backend, but this run uses host"}]}
os.makedirs(settings["output.dir"], exist_ok=True)
with open(os.path.join(settings["output.dir"], "timing.json"), "w") as f:
    json.dump(report, f)
print("wrote timing.json")
