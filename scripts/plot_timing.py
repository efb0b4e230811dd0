#!/usr/bin/python3
"""Plots a timing sweep (scripts/timing_sweep.sh): time per step of every execution mode versus
cells for each granularity, with the launch floors, and time per step versus nodes per graph.

usage: scripts/plot_timing.py SWEEP.csv [--out DIR]
"""
import argparse
import csv
import os
import sys

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np
except ImportError as error:
    sys.exit(f"plot_timing: error: {error} (install python3-matplotlib and python3-numpy)")

MODES = ("eager_sync", "eager", "eager_streams", "graph", "graph_loop", "persistent")
GRANULARITIES = ("fine", "fused", "stage")
STYLE = {"fine": "-", "fused": "--", "stage": ":"}


def load(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def series(rows, **match):
    picked = [r for r in rows if all(r[k] == v for k, v in match.items())]
    return sorted(picked, key=lambda r: int(r["cells"]))


def plot_sizes(rows, out, launch_us, node_us):
    fig, axes = plt.subplots(1, len(GRANULARITIES), figsize=(6 * len(GRANULARITIES), 4.8), sharey=True)
    for axis, granularity in zip(axes, GRANULARITIES):
        for mode in MODES:
            s = series(rows, sweep="size", granularity=granularity, mode=mode)
            if s:
                axis.loglog([int(r["cells"]) for r in s], [float(r["time_per_step_us"]) for r in s], marker="o",
                            label=mode)
        s = series(rows, sweep="size", granularity=granularity, mode="eager")
        if s:
            cells = [int(r["cells"]) for r in s]
            kernels = float(s[0]["kernels_per_step"])
            axis.axhline(kernels * launch_us, color="grey", linestyle="--", linewidth=0.8,
                         label=f"eager launch floor ({kernels:.0f} × {launch_us} µs)")
            axis.axhline(kernels * node_us, color="grey", linestyle=":", linewidth=0.8,
                         label=f"graph node floor ({kernels:.0f} × {node_us} µs)")
            axis.set_xlim(min(cells) / 1.5, max(cells) * 1.5)
        axis.set(xlabel="cells", ylabel="time per step (µs)", title=f"granularity {granularity}")
        axis.grid(True, which="both", alpha=0.3)
        axis.legend(fontsize=7)
    processor = rows[0]["processor"] if rows else ""
    fig.suptitle(f"simapp: every execution mode, time per step ({processor})")
    fig.tight_layout()
    path = os.path.join(out, "timing_vs_cells.png")
    fig.savefig(path, dpi=120)
    return path


def plot_steps_per_graph(rows, out):
    grids = sorted({(int(r["nx"]), int(r["nz"])) for r in rows if r["sweep"] == "steps_per_graph"})
    if not grids:
        return None
    fig, axes = plt.subplots(1, len(grids), figsize=(6 * len(grids), 4.5), squeeze=False)
    for axis, (nx, nz) in zip(axes[0], grids):
        for granularity in GRANULARITIES:
            s = [r for r in rows if r["sweep"] == "steps_per_graph" and int(r["nx"]) == nx
                 and r["granularity"] == granularity]
            graph = sorted((r for r in s if r["mode"] == "graph"), key=lambda r: int(r["steps_per_graph"]))
            eager = [float(r["time_per_step_us"]) for r in s if r["mode"] == "eager"]
            if not graph:
                continue
            nodes = [int(r["steps_per_graph"]) * float(r["kernels_per_step"]) for r in graph]
            axis.semilogx(nodes, [float(r["time_per_step_us"]) for r in graph], STYLE[granularity], marker="o",
                          label=f"graph, {granularity}")
            if eager:
                axis.axhline(np.median(eager), linestyle=STYLE[granularity], color="grey", linewidth=0.8,
                             label=f"eager, {granularity}")
        axis.axvspan(50, 200, color="tab:green", alpha=0.1, label="50–200 kernels per graph")
        axis.set(xlabel="kernels per graph (K × kernels per step)", ylabel="time per step (µs)",
                 title=f"{nx} × {nz}: steps per graph K")
        axis.grid(True, which="both", alpha=0.3)
        axis.legend(fontsize=8)
    fig.tight_layout()
    path = os.path.join(out, "timing_vs_graph_size.png")
    fig.savefig(path, dpi=120)
    return path


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("csv")
    parser.add_argument("--out", default=None, help="directory for the PNGs (default: the CSV's)")
    parser.add_argument("--launch-us", type=float, default=4.43, help="host enqueue cost of an eager launch, µs "
                        "(simapp-bench's summary.eager_enqueue_us_per_kernel)")
    parser.add_argument("--node-us", type=float, default=0.50, help="device cost of a dependent graph node, µs "
                        "(simapp-bench's summary.graph_node_us_empty)")
    args = parser.parse_args()
    if not os.path.exists(args.csv):
        sys.exit(f"plot_timing: error: {args.csv}: no such file")
    rows = load(args.csv)
    out = args.out or os.path.dirname(os.path.abspath(args.csv))
    os.makedirs(out, exist_ok=True)
    for path in (plot_sizes(rows, out, args.launch_us, args.node_us), plot_steps_per_graph(rows, out)):
        if path:
            print(f"plot_timing: wrote {path}")


if __name__ == "__main__":
    main()
