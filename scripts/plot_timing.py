#!/usr/bin/python3
"""Plots a timing sweep (scripts/timing_sweep.sh): time per step of every execution mode versus
cells for each granularity, and time per step versus nodes per graph. Points are medians over
the repeats, bars their min–max and thick bars their quartiles (none for a sweep of one sample a
mode). The launch floors are drawn only from a simapp-bench JSON measured on the sweep's
processor (--bench BENCH.json, e.g. the one `timing_sweep.sh --bench` keeps beside the CSV);
otherwise none, and the legend says why. Each panel's title names the best mode at its largest
grid only where its range lies below every other mode's (scripts/mode_table.py's rule).

usage: scripts/plot_timing.py SWEEP.csv [--out DIR] [--bench BENCH.json]
"""
import argparse
import os
import sys
import textwrap

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mode_table  # noqa: E402 (the statistics and the bench's floors, shared with the table)

MODES = mode_table.MODES
GRANULARITIES = mode_table.GRANULARITIES
grid_of = mode_table.grid_of
grid_label = mode_table.grid_label
STYLE = {"fine": "-", "fused": "--", "stage": ":", "pass": "-."}


def plotting():
    """matplotlib.pyplot and numpy, or a one-line error naming the packages."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        import numpy as np
    except ImportError as e:
        sys.exit(f"plot_timing: error: {e} (install python3-matplotlib and python3-numpy)")
    return plt, np


def series(rows, **match):
    picked = [r for r in rows if all(r[k] == v for k, v in match.items())]
    return sorted(picked, key=lambda r: int(r["cells"]))


def draw_with_spread(axis, x, rows, **style):
    """Medians of `rows` at `x` with min–max bars and quartile bars where the rows have them."""
    timings = [mode_table.timing_of(r) for r in rows]
    medians = [t.median for t in timings]
    line, = axis.plot(x, medians, marker="o", markersize=3.5, **style)
    spread = [(xi, t) for xi, t in zip(x, timings) if mode_table.has_spread(t)]
    if spread:
        xs = [xi for xi, _ in spread]
        ys = [t.median for _, t in spread]
        axis.errorbar(xs, ys, yerr=[[t.median - t.low for _, t in spread], [t.high - t.median for _, t in spread]],
                      fmt="none", ecolor=line.get_color(), elinewidth=0.8, capsize=2.5)
        quartiles = [(xi, t) for xi, t in spread if t.q1 is not None and t.q3 is not None]
        if quartiles:
            axis.errorbar([xi for xi, _ in quartiles], [t.median for _, t in quartiles],
                          yerr=[[t.median - t.q1 for _, t in quartiles], [t.q3 - t.median for _, t in quartiles]],
                          fmt="none", ecolor=line.get_color(), elinewidth=3, alpha=0.5)
    return line


def spread_note(rows):
    counts = sorted({mode_table.timing_of(r).repeats for r in rows})
    if counts == [1]:
        return "one sample a mode: no spread known"
    text = f"{counts[0]}" if len(counts) == 1 else f"{counts[0]}–{counts[-1]}"
    return f"median of {text} repeats; bars min–max, thick bars quartiles"


def figure_sizes(rows, floors):
    """The figure of time per step versus cells, a panel per granularity; `floors` from mode_table.floors()."""
    plt, _ = plotting()
    fig, axes = plt.subplots(1, len(GRANULARITIES), figsize=(6 * len(GRANULARITIES), 5.0), sharey=True)
    for axis, granularity in zip(axes, GRANULARITIES):
        title = f"granularity {granularity}"
        for mode in MODES:
            s = series(rows, sweep="size", granularity=granularity, mode=mode)
            if s:
                draw_with_spread(axis, [int(r["cells"]) for r in s], s, label=mode)
        s = series(rows, sweep="size", granularity=granularity)
        if s:
            cells = [int(r["cells"]) for r in s]
            axis.set_xscale("log")
            axis.set_yscale("log")
            axis.set_xlim(min(cells) / 1.5, max(cells) * 1.5)
            largest = [r for r in s if int(r["cells"]) == max(cells)]
            verdict = mode_table.verdict([mode_table.timing_of(r) for r in largest]).text
            title += "\n" + textwrap.fill(f"{max(cells)} cells: {verdict}", 60)
        kernel_rows = series(rows, sweep="size", granularity=granularity, mode="eager") or s
        if kernel_rows and floors.launch_us is not None:
            kernels = float(kernel_rows[0]["kernels_per_step"])
            axis.axhline(kernels * floors.launch_us, color="grey", linestyle="--", linewidth=0.8,
                         label=f"eager launch floor ({kernels:.0f} × {floors.launch_us:.2f} µs)")
            axis.axhline(kernels * floors.node_us, color="grey", linestyle=":", linewidth=0.8,
                         label=f"graph node floor ({kernels:.0f} × {floors.node_us:.2f} µs)")
        elif kernel_rows:
            axis.plot([], [], " ", label=textwrap.fill(floors.note, 48))  # a legend line without a mark: why none
        axis.set(xlabel="cells", ylabel="time per step (µs)", title=title)
        axis.title.set_fontsize(9)
        axis.grid(True, which="both", alpha=0.3)
        axis.legend(fontsize=7)
    processors = sorted({r["processor"] for r in rows})
    fig.suptitle(f"simapp: every execution mode, time per step ({'; '.join(processors)})\n"
                 + textwrap.fill(f"{spread_note(rows)}; {floors.note}", 150), fontsize=10)
    fig.tight_layout()
    return fig


def plot_sizes(rows, out, floors):
    plt, _ = plotting()
    fig = figure_sizes(rows, floors)
    path = os.path.join(out, "timing_vs_cells.png")
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def plot_steps_per_graph(rows, out):
    grids = sorted({grid_of(r) for r in rows if r["sweep"] == "steps_per_graph"}, key=lambda g: g[0] * g[1] * g[2])
    if not grids:
        return None
    plt, np = plotting()
    fig, axes = plt.subplots(1, len(grids), figsize=(6 * len(grids), 4.8), squeeze=False)
    for axis, grid in zip(axes[0], grids):
        for granularity in GRANULARITIES:
            s = [r for r in rows if r["sweep"] == "steps_per_graph" and grid_of(r) == grid
                 and r["granularity"] == granularity]
            graph = sorted((r for r in s if r["mode"] == "graph"), key=lambda r: int(r["steps_per_graph"]))
            eager = [float(r["time_per_step_us"]) for r in s if r["mode"] == "eager"]
            if not graph:
                continue
            nodes = [int(r["steps_per_graph"]) * float(r["kernels_per_step"]) for r in graph]
            axis.set_xscale("log")
            draw_with_spread(axis, nodes, graph, linestyle=STYLE[granularity], label=f"graph, {granularity}")
            if eager:
                axis.axhline(np.median(eager), linestyle=STYLE[granularity], color="grey", linewidth=0.8,
                             label=f"eager, {granularity} (median over K)")
        axis.axvspan(50, 200, color="tab:green", alpha=0.1, label="50–200 kernels per graph")
        axis.set(xlabel="kernels per graph (K × kernels per step)", ylabel="time per step (µs)",
                 title=f"{grid_label(grid)}: steps per graph K")
        axis.grid(True, which="both", alpha=0.3)
        axis.legend(fontsize=8)
    fig.suptitle(spread_note([r for r in rows if r["sweep"] == "steps_per_graph"]), fontsize=10)
    fig.tight_layout()
    path = os.path.join(out, "timing_vs_graph_size.png")
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("csv")
    parser.add_argument("--out", default=None, help="directory for the PNGs (default: the CSV's)")
    parser.add_argument("--bench", help="simapp-bench JSON measured on the sweep's processor: the launch floors")
    parser.add_argument("--launch-us", help=argparse.SUPPRESS)
    parser.add_argument("--node-us", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.launch_us is not None or args.node_us is not None:
        print("plot_timing: error: --launch-us and --node-us are gone: the floors come from simapp-bench's JSON "
              "of the sweep's processor, --bench BENCH.json", file=sys.stderr)
        sys.exit(2)
    rows = mode_table.read_rows(args.csv)
    if not rows:
        sys.exit(f"plot_timing: error: {args.csv}: no rows")
    floors = mode_table.floors(args.bench, {r["processor"] for r in rows})
    print(f"plot_timing: {floors.note}")
    out = args.out or os.path.dirname(os.path.abspath(args.csv))
    os.makedirs(out, exist_ok=True)
    for path in (plot_sizes(rows, out, floors), plot_steps_per_graph(rows, out)):
        if path:
            print(f"plot_timing: wrote {path}")


if __name__ == "__main__":
    main()
