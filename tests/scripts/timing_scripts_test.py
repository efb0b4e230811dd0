#!/usr/bin/python3
"""scripts/mode_table.py and scripts/plot_timing.py on made-up timings (no timing is run):

  timing_scripts_test.py SOURCE_DIR table   the statistics and the table: a best mode is named
      only when its range lies below every other mode's, "within noise" where ranges overlap
      (touching included), no best from one sample; the launch floors only from a simapp-bench
      JSON whose device is the sweep's processor.
  timing_scripts_test.py SOURCE_DIR plot    the plot draws the floors only for a matching bench
      JSON and says why not in the legend, with min–max bars where the CSV has a spread; exits
      77 (skipped) without matplotlib.
"""
import csv
import importlib
import json
import os
import sys
import tempfile

SKIPPED = 77
source_dir, part = sys.argv[1], sys.argv[2]
scripts = os.path.join(source_dir, "scripts")
sys.path.insert(0, scripts)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from script_checks import check, finish, run_script  # noqa: E402



COLUMNS = ["sweep", "nx", "nz", "cells", "granularity", "steps_per_graph", "steps", "mode", "time_per_step_us",
           "kernels_per_step", "launches_per_step", "graphs", "nodes_per_graph", "capture_ms", "instantiate_ms",
           "speedup_vs_eager_sync", "speedup_vs_eager", "identical", "processor", "grid_barriers_per_step",
           "time_min_us", "time_max_us", "time_q1_us", "time_q3_us", "time_median_low_us", "time_median_high_us",
           "repeats", "relative_spread"]
H200 = "NVIDIA H200 (device 0, 132 SMs)"
KERNELS = {"fine": 120, "fused": 18, "stage": 6}

# (nx, nz, granularity) -> {mode: (min, median, max)}, µs a step, 5 repeats.
POINTS = {
    # persistent's range below every other: named best, 1.52× graph_loop's median.
    (64, 32, "stage"): {"eager": (24.0, 24.8, 25.9), "graph": (19.4, 19.9, 20.5), "graph_loop": (19.5, 19.9, 20.4),
                        "persistent": (12.9, 13.1, 13.3)},
    # graph and graph_loop overlap: within noise, both named, no best.
    (64, 32, "fine"): {"eager": (500.0, 504.0, 510.0), "graph": (72.0, 73.5, 74.1),
                       "graph_loop": (72.1, 72.8, 73.9)},
    # The 64 × 32 CPU point: one wild sample makes eager_sync's median lowest, not best.
    (64, 32, "fused"): {"eager_sync": (870.0, 2376.0, 26249.0), "eager": (900.0, 3160.0, 25000.0),
                        "graph": (2500.0, 3000.0, 20469.0)},
    # Ranges that just touch (graph's max = graph_loop's min) count as overlapping.
    (128, 64, "stage"): {"eager": (28.0, 28.9, 29.5), "graph": (21.0, 21.3, 21.6), "graph_loop": (21.6, 21.9, 22.3)},
}


def write_csv(path, points, processor=H200, with_spread=True):
    with open(path, "w", newline="") as f:
        out = csv.DictWriter(f, fieldnames=COLUMNS if with_spread else COLUMNS[:20])
        out.writeheader()
        for (nx, nz, granularity), modes in points.items():
            for mode, (low, median, high) in modes.items():
                row = {"sweep": "size", "nx": nx, "nz": nz, "cells": nx * nz, "granularity": granularity,
                       "steps_per_graph": 10, "steps": 1000, "mode": mode, "time_per_step_us": median,
                       "kernels_per_step": KERNELS[granularity], "launches_per_step": KERNELS[granularity],
                       "identical": True, "processor": processor,
                       "grid_barriers_per_step": 2 if mode == "persistent" else ""}
                if with_spread:
                    row.update({"time_min_us": low, "time_max_us": high, "time_q1_us": (low + median) / 2,
                                "time_q3_us": (median + high) / 2, "time_median_low_us": low,
                                "time_median_high_us": high, "repeats": 5, "relative_spread": (high - low) / median})
                out.writerow({k: v for k, v in row.items() if k in out.fieldnames})


def write_bench(path, name="NVIDIA H200", sm_count=132):
    with open(path, "w") as f:
        json.dump({"benchmark": "simapp-bench launch overhead", "device": {"name": name, "sm_count": sm_count},
                   "summary": {"eager_enqueue_us_per_kernel": 4.5, "graph_node_us_empty": 0.25},
                   "grid_barrier": [{"blocks": 16, "us_per_barrier": 1.0}, {"blocks": 528, "us_per_barrier": 1.25}]},
                  f)


def run(script, *args):
    return run_script(script, *args, timeout=60)


def row_of(table, grid, granularity):
    return next((line for line in table.splitlines() if line.startswith(f"| {grid} | {granularity} (")), "")


def rule_tests(mode_table):
    """The rule itself, on Timings."""
    timing = mode_table.Timing
    v = mode_table.verdict([timing("persistent", 13.1, 12.9, 13.3, None, None, 5),
                            timing("graph", 19.9, 19.4, 20.5, None, None, 5),
                            timing("eager", 24.8, 24.0, 25.9, None, None, 5)])
    check(v.kind == "best" and v.text.startswith("best: persistent 13.1 µs (12.9–13.3), 1.52× (1.46–1.59) graph"),
          "separate ranges: the fastest is named best, with its factor over the next mode and that factor's range",
          v.text)
    v = mode_table.verdict([timing("graph", 22.07, 21.9, 22.3, None, None, 5),
                            timing("graph_loop", 22.10, 22.0, 22.2, None, None, 5),
                            timing("eager", 31.5, 30.0, 32.0, None, None, 5)])
    check(v.kind == "noise" and v.text == "within noise: graph, graph_loop",
          "overlapping ranges: 'within noise: graph, graph_loop', no best", v.text)
    v = mode_table.verdict([timing("a", 10.0, 9.0, 11.0, None, None, 5), timing("b", 12.0, 11.0, 13.0, None, None, 5)])
    check(v.kind == "noise", "ranges that touch (max = other's min) are within noise", v.text)
    v = mode_table.verdict([timing("a", 10.0, 9.0, 10.9, None, None, 5), timing("b", 12.0, 11.0, 13.0, None, None, 5),
                            timing("c", 12.5, 10.5, 14.0, None, None, 5)])
    check(v.kind == "noise" and v.names == ["a", "c"],
          "a slower median whose range reaches the fastest's is within noise; one that does not is left out", v.text)
    v = mode_table.verdict([timing("a", 10.0, 10.0, 10.0, None, None, 1), timing("b", 20.0, 20.0, 20.0, None, None, 1)])
    check(v.kind == "unknown" and "best:" not in v.text and "spread unknown" in v.text,
          "one sample a mode: no best named, the spread is unknown", v.text)
    ratio, ratio_range = mode_table.speedup(timing("eager", 30.0, 28.0, 33.0, None, None, 5),
                                            timing("graph", 20.0, 19.0, 22.0, None, None, 5))
    check(abs(ratio - 1.5) < 1e-12 and abs(ratio_range[0] - 28 / 22) < 1e-12 and abs(ratio_range[1] - 33 / 19) < 1e-12,
          "speed-up: ratio of medians, range [baseline min / max, baseline max / min]", f"{ratio} {ratio_range}")


def table_tests(work):
    """The table from a CSV, without and with bench JSONs; then the rule on Timings."""
    sweep_csv = os.path.join(work, "sweep.csv")
    write_csv(sweep_csv, POINTS)
    table_script = os.path.join(scripts, "mode_table.py")
    status, table, stderr = run(table_script, sweep_csv)
    check(status == 0, "mode_table.py runs on a CSV with spread columns", stderr)
    stage = row_of(table, "64 × 32", "stage")
    check("best: persistent 13.1 µs (12.9–13.3), 1.52× (1.46–1.59) graph" in stage and "**13.1 (12.9–13.3)**" in stage,
          "table: persistent named best (bold) where its range lies below all others", stage)
    fine = row_of(table, "64 × 32", "fine")
    check("within noise: graph_loop, graph" in fine and "best:" not in fine and "**" not in fine,
          "table: 'within noise: graph_loop, graph' where their ranges overlap, nothing bold", fine)
    fused = row_of(table, "64 × 32", "fused")
    check("within noise: eager_sync, graph, eager" in fused and "best:" not in fused,
          "table: the issue's noisy 64 × 32 point names no best eager_sync", fused)
    touching = row_of(table, "128 × 64", "stage")
    check("within noise: graph, graph_loop" in touching, "table: touching ranges are within noise", touching)
    check("eager floor" not in table and "no launch floors: no simapp-bench JSON given (--bench)" in table,
          "table: no floors without --bench, and it says so", table)

    matching = os.path.join(work, "bench_h200.json")
    write_bench(matching)
    status, table, stderr = run(table_script, sweep_csv, "--bench", matching)
    stage = row_of(table, "64 × 32", "stage")
    check(status == 0 and "eager floor | graph floor | barrier floor" in table and "| 27.0 | 1.5 | 2.0 |" in stage,
          "table: floors from a bench JSON of the sweep's processor (6 × 4.5, 6 × 0.25, 2 × 1.0 µs)",
          stderr + stage)

    for name, sm_count, what in (("NVIDIA H100 80GB HBM3", 132, "another GPU"),
                                 ("NVIDIA H200", 114, "the same name with other SMs")):
        other = os.path.join(work, "bench_other.json")
        write_bench(other, name, sm_count)
        status, table, stderr = run(table_script, sweep_csv, "--bench", other)
        check(status == 0 and "eager floor" not in table and f"no launch floors: {other} measured {name}" in table
              and H200 in table, f"table: no floors from a bench JSON of {what}, and it says why", stderr + table)

    cpu_csv = os.path.join(work, "sweep_cpu.csv")
    write_csv(cpu_csv, POINTS, processor="CPU, 2 OpenMP threads")
    status, table, stderr = run(table_script, cpu_csv, "--bench", matching)
    check(status == 0 and "eager floor" not in table and '"CPU, 2 OpenMP threads"' in table,
          "table: no floors from an H200 bench JSON for a CPU sweep", stderr + table)

    old_csv = os.path.join(work, "sweep_old.csv")
    write_csv(old_csv, POINTS, with_spread=False)
    status, table, stderr = run(table_script, old_csv)
    check(status == 0 and "best:" not in table and "(1 sample: spread unknown)" in table,
          "table: a CSV without spread columns names no best mode", stderr + table)

    status, _, stderr = run(table_script, sweep_csv, "--bench", os.path.join(work, "missing.json"))
    check(status != 0 and stderr.strip().count("\n") == 0 and "missing.json: no such file" in stderr,
          "table: a missing bench JSON is a one-line error", stderr)
    mode_table = importlib.import_module("mode_table")
    if not all(hasattr(mode_table, f) for f in ("Timing", "verdict", "speedup")):
        check(False, "mode_table has Timing, verdict() and speedup(), the statistics the rule is checked on")
    else:
        rule_tests(mode_table)


def plot_tests(work):
    try:
        import matplotlib  # noqa: F401
        import numpy  # noqa: F401
    except ImportError as e:
        print(f"skipped: {e} (install python3-matplotlib and python3-numpy)")
        sys.exit(SKIPPED)
    mode_table = importlib.import_module("mode_table")
    plot_timing = importlib.import_module("plot_timing")
    sweep_csv = os.path.join(work, "sweep.csv")
    write_csv(sweep_csv, POINTS)
    matching = os.path.join(work, "bench_h200.json")
    write_bench(matching)
    other = os.path.join(work, "bench_h100.json")
    write_bench(other, "NVIDIA H100 80GB HBM3", 132)
    out = os.path.join(work, "plots")
    status, stdout, stderr = run(os.path.join(scripts, "plot_timing.py"), sweep_csv, "--out", out)
    check(status == 0 and "plot_timing: no launch floors: no simapp-bench JSON given" in stdout,
          "plot_timing.py: no floors without --bench, and it says so", stdout + stderr)
    status, stdout, stderr = run(os.path.join(scripts, "plot_timing.py"), sweep_csv, "--out", out, "--bench", other)
    check(status == 0 and "plot_timing: no launch floors" in stdout and
          os.path.exists(os.path.join(out, "timing_vs_cells.png")),
          "plot_timing.py: writes the plot and says there are no floors for another GPU's bench JSON", stdout + stderr)
    status, stdout, stderr = run(os.path.join(scripts, "plot_timing.py"), sweep_csv, "--out", out, "--bench", matching)
    check(status == 0 and "plot_timing: launch floors from" in stdout, "plot_timing.py: floors from a matching one",
          stdout + stderr)
    if not (hasattr(mode_table, "read_rows") and hasattr(mode_table, "floors") and hasattr(plot_timing, "figure_sizes")):
        check(False, "plot_timing has figure_sizes() and mode_table floors(), the drawing the floors are checked on")
        return
    rows = mode_table.read_rows(sweep_csv)

    def labels(figure):
        return [text.get_text() for axis in figure.axes if axis.get_legend() for text in axis.get_legend().get_texts()]

    figure = plot_timing.figure_sizes(rows, mode_table.floors(matching, {r["processor"] for r in rows}))
    drawn = labels(figure)
    check(any(label.startswith("eager launch floor (6 × 4.50 µs)") for label in drawn) and
          any(label.startswith("graph node floor (6 × 0.25 µs)") for label in drawn),
          "plot: floors drawn from a bench JSON of the sweep's processor", str(drawn))
    check(any(len(axis.collections) > 0 for axis in figure.axes), "plot: min–max bars drawn where the CSV has a spread")
    for bench, what in ((None, "no bench JSON"), (other, "a bench JSON of another GPU")):
        figure = plot_timing.figure_sizes(rows, mode_table.floors(bench, {r["processor"] for r in rows}))
        drawn = labels(figure)
        check(not any("floor (" in label for label in drawn) and any("no launch floors" in label for label in drawn),
              f"plot: no floors with {what}, and the legend says why", str(drawn))


with tempfile.TemporaryDirectory() as work:
    {"table": table_tests, "plot": plot_tests}[part](work)
finish()
