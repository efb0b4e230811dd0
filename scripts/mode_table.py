#!/usr/bin/python3
"""Tabulates the size sweep of scripts/timing_sweep.sh as Markdown: µs a step of every
execution mode for each grid and granularity (median and min–max over the repeats), the best
mode where the noise allows naming one, and the launch floors where simapp-bench measured them
on the sweep's processor.

A mode is named best at a point only when its whole range [min, max] lies below every other
mode's range there ("best: persistent 13.1 µs (12.9–13.3), 1.52× (1.48–1.56) graph": the
factor over the next fastest mode, from the medians, and its range, [its min / best's max,
its max / best's min]); where the fastest median's range overlaps others' (touching counts)
the row says "within noise: graph, graph_loop" (the fastest median first, then those that
overlap it); with one sample a mode (an older sweep, --repeats 1) no range is known and it says
"fastest: … (1 sample: spread unknown)".

The floors are what launching or synchronising alone costs a step: eager, kernels × the
host's enqueue cost per launch; graph, kernels × the device's cost per dependent graph node;
persistent, its grid-wide barriers a step (timing.json's grid_barriers_per_step: 2 with a
barrier a pass, 6 with a barrier a stage; 6 where the sweep predates that column) × one
barrier. They come from simapp-bench's JSON (--bench BENCH.json, e.g. the one
`timing_sweep.sh --bench` keeps beside the CSV) and are shown only when its device is the
processor of every row of the sweep; otherwise the table has no floors and says why.

usage: scripts/mode_table.py SWEEP.csv [--bench BENCH.json]
"""
import argparse
import csv
import json
import math
import os
import re
import sys
from collections import namedtuple

MODES = ("eager_sync", "eager", "eager_streams", "graph", "graph_loop", "persistent", "persistent_cluster")
GRANULARITIES = ("fine", "fused", "stage", "pass")
STAGES_PER_STEP = 6  # two passes of three RK stages, a grid-wide barrier after each

# One mode's time per step at one point: median and [low, high] = [min, max] over `repeats`
# samples (low/high None when the CSV has no spread), quartiles where known; µs.
Timing = namedtuple("Timing", "name median low high q1 q3 repeats")
# What a point's timings allow saying: kind "best", "noise", "unknown" or "only"; `names` the
# modes named (fastest first); `text` the sentence; for "best", `runner_up` and `factor`
# (median ratio) with `factor_range`.
Verdict = namedtuple("Verdict", "kind names text runner_up factor factor_range")
# The launch floors in µs, or None, with the sentence saying where they come from or why none.
Floors = namedtuple("Floors", "launch_us node_us barrier_us note")


def error(message):
    sys.exit(f"{os.path.basename(sys.argv[0]).removesuffix('.py')}: error: {message}")


def number(text):
    """A CSV cell as a float; None when empty or missing."""
    if text is None or str(text).strip() == "":
        return None
    return float(text)


def timing_of(row, name=None):
    """The Timing of one CSV row of timing_sweep.sh (`name`: how to call it, default its mode)."""
    repeats = number(row.get("repeats"))
    return Timing(name or row["mode"], float(row["time_per_step_us"]), number(row.get("time_min_us")),
                  number(row.get("time_max_us")), number(row.get("time_q1_us")), number(row.get("time_q3_us")),
                  int(repeats) if repeats is not None else 1)


def has_spread(t):
    return t.repeats >= 2 and t.low is not None and t.high is not None


def us(value):
    """µs to about 3–4 significant digits: 1289, 72.8, 13.1, 4.43."""
    if value >= 10000:
        return f"{value:.0f}"
    return f"{value:.1f}" if value >= 10 else f"{value:.2f}"


def with_range(t):
    """'13.1 (12.9–13.3)', or the median alone without a spread."""
    return f"{us(t.median)} ({us(t.low)}–{us(t.high)})" if has_spread(t) else us(t.median)


def factor(value):
    return "∞" if math.isinf(value) else f"{value:.2f}"


def verdict(timings):
    """What the timings of one point (a list of Timing) allow saying about the best mode."""
    ranked = sorted(timings, key=lambda t: t.median)
    fastest, others = ranked[0], ranked[1:]
    if not others:
        return Verdict("only", [fastest.name], f"only {fastest.name} timed", None, None, None)
    if not all(has_spread(t) for t in ranked):
        return Verdict("unknown", [fastest.name],
                       f"fastest: {fastest.name} {us(fastest.median)} µs (1 sample: spread unknown)", None, None, None)
    close = [t for t in others if t.low <= fastest.high]
    if close:
        names = [fastest.name] + [t.name for t in close]
        return Verdict("noise", names, "within noise: " + ", ".join(names), None, None, None)
    runner_up = others[0]
    ratio = runner_up.median / fastest.median
    ratio_range = (runner_up.low / fastest.high, runner_up.high / fastest.low if fastest.low > 0 else math.inf)
    text = (f"best: {fastest.name} {us(fastest.median)} µs ({us(fastest.low)}–{us(fastest.high)}), {factor(ratio)}× "
            f"({factor(ratio_range[0])}–{factor(ratio_range[1])}) {runner_up.name}")
    return Verdict("best", [fastest.name], text, runner_up.name, ratio, ratio_range)


def speedup(baseline, t):
    """Median ratio baseline / t and its range [baseline.low / t.high, baseline.high / t.low] (None unknown)."""
    ratio = baseline.median / t.median
    if not (has_spread(baseline) and has_spread(t)):
        return ratio, None
    return ratio, (baseline.low / t.high, baseline.high / t.low if t.low > 0 else math.inf)


def processor_device(processor):
    """(name, SMs) of a CUDA processor as simapp names it ("NVIDIA H200 (device 0, 132 SMs)"); None for a CPU."""
    match = re.fullmatch(r"(.+) \(device \d+, (\d+) SMs\)", processor.strip())
    return (match.group(1), int(match.group(2))) if match else None


def load_bench(path):
    """simapp-bench's JSON document; a one-line error when it is missing or not one."""
    if not os.path.exists(path):
        error(f"{path}: no such file")
    try:
        with open(path) as f:
            bench = json.load(f)
        for section, key in (("device", "name"), ("summary", "eager_enqueue_us_per_kernel"),
                             ("summary", "graph_node_us_empty")):
            if key not in bench[section]:
                raise KeyError(f"{section}.{key}")
    except (OSError, ValueError, KeyError, TypeError) as e:
        error(f"{path}: not a simapp-bench JSON ({type(e).__name__}: {e})")
    return bench


def floors(bench_path, processors):
    """The launch floors of simapp-bench's JSON at `bench_path` when its device is every one of
    `processors` (the CSV's processor column); else none, and the note says why."""
    if bench_path is None:
        return Floors(None, None, None, "no launch floors: no simapp-bench JSON given (--bench)")
    bench = load_bench(bench_path)
    device = bench["device"]
    bench_device = (device["name"], device.get("sm_count"))
    label = f"{device['name']} ({device.get('sm_count', '?')} SMs)"
    sweep = sorted(processors)
    mismatched = [p for p in sweep if processor_device(p) is None or processor_device(p)[0] != bench_device[0] or
                  (bench_device[1] is not None and processor_device(p)[1] != bench_device[1])]
    if mismatched:
        return Floors(None, None, None, f"no launch floors: {bench_path} measured {label}, the sweep ran on " +
                      " and ".join(f'"{p}"' for p in mismatched))
    barriers = [row["us_per_barrier"] for row in bench.get("grid_barrier", []) if row.get("us_per_barrier") is not None]
    summary = bench["summary"]
    return Floors(summary["eager_enqueue_us_per_kernel"], summary["graph_node_us_empty"],
                  min(barriers) if barriers else None, f"launch floors from {bench_path}, measured on {label}")


def read_rows(path):
    if not os.path.exists(path):
        error(f"{path}: no such file")
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def repeats_note(rows):
    counts = sorted({timing_of(r).repeats for r in rows})
    if counts == [1]:
        return "one sample a mode (no spread: best modes are not named)"
    text = f"{counts[0]}" if len(counts) == 1 else f"{counts[0]}–{counts[-1]}"
    return f"median (min–max) of {text} repeats"


def grid_of(r):
    """(nx, ny, nz) of a row; ny is 1 in 2-D (and in a CSV from before the ny column)."""
    return int(r["nx"]), int(r.get("ny") or 1), int(r["nz"])


def grid_label(grid):
    nx, ny, nz = grid
    return f"{nx} × {nz}" if ny == 1 else f"{nx} × {ny} × {nz}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("csv")
    parser.add_argument("--bench", help="simapp-bench JSON measured on the sweep's processor: the launch floors")
    args = parser.parse_args()
    rows = [r for r in read_rows(args.csv) if r["sweep"] == "size"]
    if not rows:
        error(f"{args.csv}: no rows of the size sweep")
    floor = floors(args.bench, {r["processor"] for r in rows})

    times = {}  # ((nx, ny, nz), granularity) -> {mode: Timing}
    kernels = {}  # ((nx, ny, nz), granularity) -> kernels a step of the step program
    barriers = {}  # ((nx, ny, nz), granularity) -> persistent's grid barriers a step
    for r in rows:
        key = (grid_of(r), r["granularity"])
        times.setdefault(key, {})[r["mode"]] = timing_of(r)
        if r["mode"] == "eager" or key not in kernels:  # eager's, else any mode's
            kernels[key] = float(r["kernels_per_step"])
        if r["mode"] == "persistent":
            barriers[key] = int(number(r.get("grid_barriers_per_step")) or STAGES_PER_STEP)
    grids = sorted({grid for grid, _ in times}, key=lambda g: g[0] * g[1] * g[2])
    drawn = floor.launch_us is not None

    floor_heads = " eager floor | graph floor | barrier floor |" if drawn else ""
    print("| grid | granularity | " + " | ".join(MODES) + " |" + floor_heads + " best |")
    print("|---|---|" + "---:|" * (len(MODES) + (3 if drawn else 0)) + "---|")
    for grid in grids:
        for granularity in GRANULARITIES:
            t = times.get((grid, granularity))
            if t is None:
                continue
            v = verdict(list(t.values()))
            cells = [("**" + with_range(t[m]) + "**" if v.kind == "best" and m == v.names[0] else with_range(t[m]))
                     if m in t else "–" for m in MODES]
            k = kernels.get((grid, granularity), 0.0)
            floor_cells = ""
            if drawn:
                barrier = ("–" if "persistent" not in t or floor.barrier_us is None else
                           f"{barriers[(grid, granularity)] * floor.barrier_us:.1f}")
                floor_cells = f" {k * floor.launch_us:.1f} | {k * floor.node_us:.1f} | {barrier} |"
            print(f"| {grid_label(grid)} | {granularity} ({k:.0f} kernels) | " + " | ".join(cells) + " |" + floor_cells +
                  f" {v.text} |")
    print()
    print(f"µs a step, {repeats_note(rows)}; {floor.note}.")

    print()
    print("| grid | best | µs a step | eager, same granularity | speed-up over eager |")
    print("|---|---|---:|---:|---:|")
    for grid in grids:
        point = {f"{m} ({g})": (t, g) for (of, g), modes in times.items() if of == grid for m, t in modes.items()}
        everything = [t._replace(name=name) for name, (t, _) in point.items()]
        v = verdict(everything)
        fastest_name = v.names[0]
        fastest = next(t for t in everything if t.name == fastest_name)
        granularity = point[fastest_name][1]
        eager = times[(grid, granularity)].get("eager")
        if eager is None:
            print(f"| {grid_label(grid)} | {v.text} | {with_range(fastest)} | – | – |")
            continue
        ratio, ratio_range = speedup(eager, fastest)
        spread = f" ({factor(ratio_range[0])}–{factor(ratio_range[1])})" if ratio_range else ""
        print(f"| {grid_label(grid)} | {v.text} | {with_range(fastest)} | {with_range(eager)} | {factor(ratio)}×{spread} |")
    print()
    print("Best over every mode and granularity of a grid, named only outside the others' ranges; the numbers are "
          "those of the fastest median (the first named).")


if __name__ == "__main__":
    main()
