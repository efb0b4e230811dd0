#!/usr/bin/python3
"""Snapshot write speed: simapp against h5py on the same disk. For each grid, runs simapp for
two steps with a snapshot at t = 0 and one at the end (4 float64 fields, uncompressed) and
takes the time its summary gives for output (the run's own, less its waits for the writer
thread, plus that thread's time writing rows and syncing), then writes the
same four nz × nx float64 datasets with h5py and fsyncs, and prints both per snapshot, with
their ratio. Each figure is the best of --repeat runs (default 3), simapp's and h5py's alike.
With --overlap NXxNZ it also runs that grid for --steps steps with and without a snapshot
every --every steps and prints the time per step of each and the slowdown: how well the
snapshots overlap the stepping.

usage: scripts/snapshot_bench.py [--simapp PATH] [--grids 1024x512,2048x1024,4096x2048] [--out DIR]
                                 [--repeat N] [--json FILE] [--overlap NXxNZ [--steps 300] [--every 100]]
                                 [-- simapp options...]
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time

try:
    import h5py
    import numpy as np
except ImportError as error:
    sys.exit(f"snapshot_bench: error: {error} (install python3-numpy and python3-h5py)")


def fail(message):
    sys.exit(f"snapshot_bench: error: {message}")


def simapp_run_seconds(args, nx, nz):
    """Host seconds per snapshot of a 2-step run with snapshots at its start and end."""
    directory = os.path.join(args.out, f"simapp_{nx}x{nz}")
    dt = time_step(nx, nz)
    command = [args.simapp, "inputs/case.yaml", "--overwrite", "--set", f"grid.nx={nx}", "--set", f"grid.nz={nz}",
               "--set", f"time.sim_time={2 * dt!r}", "--set", f"output.every={2 * dt!r}",
               "--set", f"output.dir={directory}"] + args.simapp_options
    stdout = run_simapp(args, command)
    # The work of a snapshot, wherever it ran: the host's time on output less its waits for the
    # writer thread, plus the thread's time; the summary gives the host's blocking time and the
    # thread's time beside the steps (older simapps: the host's time and the thread's whole time).
    found = re.search(r"output: (\d+) files: ([0-9.]+) s blocking the steps"
                      r"(?: \([0-9.]+ s of it waiting for the writer thread\), ([0-9.]+) s on the writer thread)?",
                      stdout)
    if found:
        return (float(found.group(2)) + float(found.group(3) or 0.0)) / int(found.group(1))
    found = re.search(r"output: (\d+) files in ([0-9.]+) s of it"
                      r"(?: \(([0-9.]+) s waiting for the writer thread, which wrote for ([0-9.]+) s\))?", stdout)
    if not found:
        fail(f"no output line in simapp's summary:\n{stdout}")
    files, host = int(found.group(1)), float(found.group(2))
    waited, thread = (float(found.group(3)), float(found.group(4))) if found.group(3) else (0.0, 0.0)
    return (host - waited + thread) / files


def time_step(nx, nz):
    """The default case's step at this grid (cfl 1.5, signal speed 450 m/s), as simapp takes it."""
    return 1.5 * min(20000.0 / nx, 10000.0 / nz) / 450.0


def run_simapp(args, command):
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        fail(f"{' '.join(command)} failed:\n{done.stderr}")
    return done.stdout


def ms_per_step(args, nx, nz, steps, every):
    """Wall ms a step of a `steps`-step run, with a snapshot every `every` steps (0: none)."""
    dt = time_step(nx, nz)
    directory = os.path.join(args.out, f"overlap_{nx}x{nz}_{every}")
    command = [args.simapp, "inputs/case.yaml", "--overwrite", "--set", f"grid.nx={nx}", "--set", f"grid.nz={nz}",
               "--set", f"time.sim_time={steps * dt!r}", "--set", f"output.every={every * dt if every else 0!r}",
               "--set", "output.checkpoint_every=0", "--set", f"output.dir={directory}"] + args.simapp_options
    found = re.search(r"timing: (\d+) steps in [0-9.]+ s, ([0-9.]+) ms/step", run_simapp(args, command))
    if not found:
        fail("no timing line in simapp's summary")
    return float(found.group(2))


def simapp_seconds(args, nx, nz):
    return min(simapp_run_seconds(args, nx, nz) for _ in range(args.repeat))


def h5py_seconds(args, nx, nz):
    """Seconds to write four nz × nx float64 datasets with h5py and fsync, best of args.repeat."""
    path = os.path.join(args.out, f"h5py_{nx}x{nz}.h5")
    data = [np.random.default_rng(v).standard_normal((nz, nx)) for v in range(4)]
    best = float("inf")
    for _ in range(args.repeat):
        start = time.perf_counter()
        with h5py.File(path, "w") as f:
            for v, values in enumerate(data):
                f.create_dataset(f"field{v}", data=values)
            f.flush()
        with open(path, "rb+") as f:
            os.fsync(f.fileno())
        best = min(best, time.perf_counter() - start)
        os.remove(path)
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--simapp", default="build/app/simapp")
    parser.add_argument("--grids", default="1024x512,2048x1024,4096x2048")
    parser.add_argument("--out", default="out/snapshot_bench")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each; the best counts")
    parser.add_argument("--json", help="also write the rows to this JSON file")
    parser.add_argument("--overlap", help="NXxNZ: also time a run with and without snapshots on this grid")
    parser.add_argument("--steps", type=int, default=300, help="steps of the overlap runs")
    parser.add_argument("--every", type=int, default=100, help="steps between the overlap run's snapshots")
    parser.add_argument("simapp_options", nargs="*", help="after --: passed to every simapp run")
    args = parser.parse_args()
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    if not os.access(args.simapp, os.X_OK):
        fail(f"{args.simapp} is not an executable (build first)")
    if args.repeat < 1:
        fail("--repeat must be at least 1")
    os.makedirs(args.out, exist_ok=True)
    print("| grid | MB a snapshot | simapp s | h5py s | simapp / h5py |")
    print("|---|---:|---:|---:|---:|")
    rows = []
    for item in args.grids.split(","):
        nx, nz = (int(v) for v in item.split("x"))
        ours, theirs = simapp_seconds(args, nx, nz), h5py_seconds(args, nx, nz)
        megabytes = 4 * 8 * nx * nz / 1e6
        print(f"| {nx} × {nz} | {megabytes:.0f} | {ours:.3f} | {theirs:.3f} | {ours / theirs:.2f} |", flush=True)
        rows.append({"nx": nx, "nz": nz, "megabytes": megabytes, "simapp_seconds": ours, "h5py_seconds": theirs,
                     "ratio": ours / theirs})
    report = {"repeat": args.repeat, "snapshots": rows}
    if args.overlap:
        nx, nz = (int(v) for v in args.overlap.split("x"))
        without = min(ms_per_step(args, nx, nz, args.steps, 0) for _ in range(args.repeat))
        with_snapshots = min(ms_per_step(args, nx, nz, args.steps, args.every) for _ in range(args.repeat))
        slowdown = 100.0 * (with_snapshots / without - 1.0)
        print()
        print(f"| grid | steps | ms/step, no output | ms/step, a snapshot every {args.every} steps | slower by |")
        print("|---|---:|---:|---:|---:|")
        print(f"| {nx} × {nz} | {args.steps} | {without:.3f} | {with_snapshots:.3f} | {slowdown:.1f} % |")
        report["overlap"] = {"nx": nx, "nz": nz, "steps": args.steps, "every": args.every,
                             "ms_per_step_without": without, "ms_per_step_with": with_snapshots,
                             "slowdown_percent": slowdown}
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=2)


if __name__ == "__main__":
    main()
