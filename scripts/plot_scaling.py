#!/usr/bin/python3
"""Tables and plots of a scaling sweep (scripts/scaling_sweep.sh): time per step and parallel
efficiency versus GPUs, weak and strong, for eager and graph execution with halos by MPI and
by NCCL. One GPU exchanges no halos, so its run is the baseline of both halo back-ends.

  weak efficiency   E(N) = T(1) / T(N)        (fixed cells per GPU)
  strong efficiency E(N) = T(1) / (N · T(N))  (fixed global grid)

usage: scripts/plot_scaling.py SCALING.csv [--out DIR]
Prints Markdown tables; writes DIR/scaling.png and DIR/scaling_summary.json.
"""
import argparse
import csv
import json
import os
import sys

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError as error:
    sys.exit(f"plot_scaling: error: {error} (install python3-matplotlib)")

SERIES = (("eager", "mpi"), ("graph", "mpi"), ("eager", "nccl"), ("graph", "nccl"))
STYLE = {("eager", "mpi"): "C0--o", ("graph", "mpi"): "C0-o", ("eager", "nccl"): "C1--s", ("graph", "nccl"): "C1-s"}


def load(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        sys.exit(f"plot_scaling: error: {path}: no runs")
    return rows


def times(rows, sweep, mode, halo):
    """GPUs -> (µs per step, row); the one-GPU run stands for every halo back-end."""
    found = {}
    for r in rows:
        if r["sweep"] == sweep and r["mode"] == mode and (r["halo"] == halo or r["gpus"] == "1"):
            found[int(r["gpus"])] = (float(r["time_per_step_us"]), r)
    return dict(sorted(found.items()))


def efficiency(sweep, gpus, t, t1):
    return t1 / t if sweep == "weak" else t1 / (gpus * t)


def summarise(rows):
    summary = {}
    for sweep in ("weak", "strong"):
        entries = []
        graph_mpi = times(rows, sweep, "graph", "mpi")
        for gpus, (_, row) in graph_mpi.items():
            entry = {"gpus": gpus, "layout": f'{row["px"]}x{row["pz"]}', "nx": int(row["nx"]), "nz": int(row["nz"])}
            for mode, halo in SERIES:
                series = times(rows, sweep, mode, halo)
                if gpus in series and 1 in series:
                    t, r = series[gpus]
                    entry[f"{mode}_{halo}_us"] = t
                    entry[f"{mode}_{halo}_efficiency"] = efficiency(sweep, gpus, t, series[1][0])
                    entry[f"{mode}_{halo}_steps_per_graph"] = int(r["steps_per_graph"])
                    entry[f"{mode}_{halo}_identical"] = r["identical"] == "True"
            entries.append(entry)
        if entries:
            summary[sweep] = entries
    return summary


def print_size_table(rows):
    """Graph-mode time per step by grid at the largest GPU count, halos by MPI and by NCCL."""
    runs = {}
    for r in rows:
        if r["sweep"] == "size" and r["mode"] in ("eager", "graph"):
            runs.setdefault((int(r["nx"]), int(r["nz"]), r["gpus"], f'{r["px"]}x{r["pz"]}'), {})[
                (r["mode"], r["halo"])] = float(r["time_per_step_us"])
    if not runs:
        return {}
    table = []
    print("\nby grid size (fused granularity, µs per step)\n")
    print("| grid | GPUs | eager, MPI | graph, MPI | eager, NCCL | graph, NCCL | NCCL vs MPI (graph) |")
    print("|---|---|---|---|---|---|---|")
    for (nx, nz, gpus, layout), t in sorted(runs.items()):
        def cell(key):
            return f"{t[key]:.1f}" if key in t else "–"
        ratio = t.get(("graph", "mpi"), 0) / t[("graph", "nccl")] if ("graph", "nccl") in t else None
        print(f"| {nx} × {nz} | {gpus} ({layout}) | {cell(('eager', 'mpi'))} | {cell(('graph', 'mpi'))} | "
              f"{cell(('eager', 'nccl'))} | {cell(('graph', 'nccl'))} | {f'{ratio:.2f}×' if ratio else '–'} |")
        table.append({"nx": nx, "nz": nz, "gpus": int(gpus), "layout": layout,
                      **{f"{m}_{h}_us": v for (m, h), v in t.items()}})
    return table


def print_tables(summary):
    for sweep, entries in summary.items():
        print(f"\n{sweep} scaling (fused granularity, µs per step; efficiency in brackets)\n")
        print("| GPUs | layout | grid | eager, MPI halos | graph, MPI halos | graph, NCCL halos | NCCL vs MPI (graph) |")
        print("|---|---|---|---|---|---|---|")
        for e in entries:
            def cell(key):
                return f'{e[key + "_us"]:.0f} ({100 * e[key + "_efficiency"]:.1f} %)' if key + "_us" in e else "–"
            ratio = (f'{e["graph_mpi_us"] / e["graph_nccl_us"]:.2f}×'
                     if "graph_nccl_us" in e and e["gpus"] > 1 else "–")
            print(f'| {e["gpus"]} | {e["layout"]} | {e["nx"]} × {e["nz"]} | {cell("eager_mpi")} | '
                  f'{cell("graph_mpi")} | {cell("graph_nccl")} | {ratio} |')


def plot(summary, path):
    fig, axes = plt.subplots(1, 2 * len(summary), figsize=(6 * len(summary) * 2 / 2 + 2, 4.2), squeeze=False)
    for column, (sweep, entries) in enumerate(summary.items()):
        time_axis, efficiency_axis = axes[0][2 * column], axes[0][2 * column + 1]
        for mode, halo in SERIES:
            points = [(e["gpus"], e[f"{mode}_{halo}_us"], e[f"{mode}_{halo}_efficiency"])
                      for e in entries if f"{mode}_{halo}_us" in e]
            if len(points) < 2:
                continue
            gpus = [p[0] for p in points]
            label = f"{mode}, {halo.upper()} halos"
            time_axis.plot(gpus, [p[1] / 1000 for p in points], STYLE[(mode, halo)], label=label)
            efficiency_axis.plot(gpus, [100 * p[2] for p in points], STYLE[(mode, halo)], label=label)
        grid_text = ("per GPU " + f'{entries[0]["nx"]} × {entries[0]["nz"]}') if sweep == "weak" else \
                    f'{entries[0]["nx"]} × {entries[0]["nz"]}'
        time_axis.set_title(f"{sweep} scaling ({grid_text})")
        time_axis.set_xlabel("GPUs")
        time_axis.set_ylabel("ms per step")
        efficiency_axis.set_title(f"{sweep} scaling efficiency")
        efficiency_axis.set_xlabel("GPUs")
        efficiency_axis.set_ylabel("efficiency (%)")
        efficiency_axis.axhline(90 if sweep == "weak" else 100, color="grey", linewidth=0.8, linestyle=":")
        for axis in (time_axis, efficiency_axis):
            axis.set_xticks([e["gpus"] for e in entries])
            axis.grid(True, alpha=0.3)
        efficiency_axis.set_ylim(0, 110)
        time_axis.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("csv")
    parser.add_argument("--out", default=None, help="folder for scaling.png and scaling_summary.json (default: the CSV's)")
    args = parser.parse_args()
    if not os.path.exists(args.csv):
        sys.exit(f"plot_scaling: error: {args.csv}: no such file")
    out = args.out or os.path.dirname(os.path.abspath(args.csv))
    os.makedirs(out, exist_ok=True)
    rows = load(args.csv)
    summary = summarise(rows)
    print_tables(summary)
    sizes = print_size_table(rows)
    plot(summary, os.path.join(out, "scaling.png"))
    if sizes:
        summary["size"] = sizes
    with open(os.path.join(out, "scaling_summary.json"), "w") as f:
        json.dump(summary, f, indent=2)
    print(f"\nwrote {os.path.join(out, 'scaling.png')} and scaling_summary.json")


if __name__ == "__main__":
    main()
