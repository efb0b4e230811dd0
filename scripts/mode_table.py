#!/usr/bin/python3
"""Tabulates the size sweep of scripts/timing_sweep.sh as Markdown: µs a step of every
execution mode for each grid and granularity, beside the launch floors, and the best mode
per grid with its speed-up over eager launching of the same granularity.

The floors are what launching or synchronising alone costs a step: eager, kernels × the
host's enqueue cost per launch; graph, kernels × the device's cost per dependent graph node;
persistent, its grid-wide barriers a step (timing.json's grid_barriers_per_step: 2 with a
barrier a pass, 6 with a barrier a stage; 6 where the sweep predates that column) × one barrier. simapp-bench measures all three (--bench
BENCH.json takes them from its output; else the H200's figures of docs/performance).

usage: scripts/mode_table.py SWEEP.csv [--bench BENCH.json]
"""
import argparse
import csv
import json
import os
import sys

MODES = ("eager_sync", "eager", "eager_streams", "graph", "graph_loop", "persistent")
GRANULARITIES = ("fine", "fused", "stage")
STAGES_PER_STEP = 6  # two passes of three RK stages, a grid-wide barrier after each


def floors(bench_path):
    """(eager launch, graph node, grid barrier) in µs: from simapp-bench's JSON, or the H200's."""
    if bench_path is None:
        return 4.43, 0.50, 0.98
    if not os.path.exists(bench_path):
        sys.exit(f"mode_table: error: {bench_path}: no such file")
    with open(bench_path) as f:
        bench = json.load(f)
    barriers = [row["us_per_barrier"] for row in bench.get("grid_barrier", [])]
    return (bench["summary"]["eager_enqueue_us_per_kernel"], bench["summary"]["graph_node_us_empty"],
            min(barriers) if barriers else float("nan"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("csv")
    parser.add_argument("--bench", help="simapp-bench JSON output to take the floors from")
    args = parser.parse_args()
    launch_us, node_us, barrier_us = floors(args.bench)
    if not os.path.exists(args.csv):
        sys.exit(f"mode_table: error: {args.csv}: no such file")
    with open(args.csv, newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["sweep"] == "size"]
    if not rows:
        sys.exit(f"mode_table: error: {args.csv}: no rows of the size sweep")

    times = {}   # (nx, nz, granularity) -> {mode: µs}
    kernels = {}  # (nx, nz, granularity) -> kernels a step of the step program
    barriers = {}  # (nx, nz, granularity) -> persistent's grid barriers a step
    for r in rows:
        key = (int(r["nx"]), int(r["nz"]), r["granularity"])
        times.setdefault(key, {})[r["mode"]] = float(r["time_per_step_us"])
        if r["mode"] == "eager":
            kernels[key] = float(r["kernels_per_step"])
        if r["mode"] == "persistent":
            barriers[key] = int(r.get("grid_barriers_per_step") or STAGES_PER_STEP)
    grids = sorted({(nx, nz) for nx, nz, _ in times}, key=lambda g: g[0] * g[1])

    print("| grid | granularity | " + " | ".join(MODES) + " | eager floor | graph floor | barrier floor |")
    print("|---|---|" + "---:|" * (len(MODES) + 3))
    for nx, nz in grids:
        for granularity in GRANULARITIES:
            t = times.get((nx, nz, granularity))
            if t is None:
                continue
            best = min(t, key=t.get)
            cells = [f"**{t[m]:.1f}**" if m == best else f"{t[m]:.1f}" if m in t else "–" for m in MODES]
            k = kernels.get((nx, nz, granularity), 0.0)
            barrier = f"{barriers[(nx, nz, granularity)] * barrier_us:.1f}" if "persistent" in t else "–"
            print(f"| {nx} × {nz} | {granularity} ({k:.0f} kernels) | " + " | ".join(cells) +
                  f" | {k * launch_us:.1f} | {k * node_us:.1f} | {barrier} |")

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
