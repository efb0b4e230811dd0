#!/usr/bin/python3
"""Tabulates the size sweep of scripts/timing_sweep.sh as Markdown: µs a step of every
execution mode for each grid and granularity, beside the launch floors, and the best mode
per grid with its speed-up over eager launching of the same granularity.

The floors are what launching alone costs a step: eager, kernels × the host's enqueue cost
per launch; graph, kernels × the device's cost per dependent graph node (both measured by
simapp-bench: performance/bench_h200.json gives 4.43 and 0.50 µs on the H200).

usage: scripts/mode_table.py SWEEP.csv [--launch-us 4.43] [--node-us 0.50]
"""
import argparse
import csv
import os
import sys

MODES = ("eager_sync", "eager", "eager_streams", "graph", "graph_loop", "persistent")
GRANULARITIES = ("fine", "fused", "stage")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("csv")
    parser.add_argument("--launch-us", type=float, default=4.43, help="host enqueue cost of an eager launch, µs")
    parser.add_argument("--node-us", type=float, default=0.50, help="device cost of a dependent graph node, µs")
    args = parser.parse_args()
    if not os.path.exists(args.csv):
        sys.exit(f"mode_table: error: {args.csv}: no such file")
    with open(args.csv, newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["sweep"] == "size"]
    if not rows:
        sys.exit(f"mode_table: error: {args.csv}: no rows of the size sweep")

    times = {}   # (nx, nz, granularity) -> {mode: µs}
    kernels = {}  # (nx, nz, granularity) -> kernels a step of the step program
    for r in rows:
        key = (int(r["nx"]), int(r["nz"]), r["granularity"])
        times.setdefault(key, {})[r["mode"]] = float(r["time_per_step_us"])
        if r["mode"] == "eager":
            kernels[key] = float(r["kernels_per_step"])
    grids = sorted({(nx, nz) for nx, nz, _ in times}, key=lambda g: g[0] * g[1])

    print("| grid | granularity | " + " | ".join(MODES) + " | eager floor | graph floor |")
    print("|---|---|" + "---:|" * (len(MODES) + 2))
    for nx, nz in grids:
        for granularity in GRANULARITIES:
            t = times.get((nx, nz, granularity))
            if t is None:
                continue
            best = min(t, key=t.get)
            cells = [f"**{t[m]:.1f}**" if m == best else f"{t[m]:.1f}" if m in t else "–" for m in MODES]
            k = kernels.get((nx, nz, granularity), 0.0)
            print(f"| {nx} × {nz} | {granularity} ({k:.0f} kernels) | " + " | ".join(cells) +
                  f" | {k * args.launch_us:.1f} | {k * args.node_us:.1f} |")

    print()
    print("| grid | best mode | µs a step | eager, same granularity | speed-up |")
    print("|---|---|---:|---:|---:|")
    for nx, nz in grids:
        candidates = [(us, mode, g) for (x, z, g), t in times.items() if (x, z) == (nx, nz) for mode, us in t.items()]
        us, mode, granularity = min(candidates)
        eager = times[(nx, nz, granularity)].get("eager")
        ratio = f"{eager / us:.2f}×" if eager else "–"
        print(f"| {nx} × {nz} | {mode}, {granularity} | {us:.2f} | {eager:.2f} | {ratio} |" if eager else
              f"| {nx} × {nz} | {mode}, {granularity} | {us:.2f} | – | – |")


if __name__ == "__main__":
    main()
