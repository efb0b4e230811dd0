#!/usr/bin/python3
"""Snapshot write speed: simapp against h5py on the same disk. For each grid, runs simapp for
two steps with a snapshot at t = 0 and one at the end (4 float64 fields, uncompressed) and
takes the host time its summary gives for output ("output: 2 files in X s"), then writes the
same four nz × nx float64 datasets with h5py and fsyncs, and prints both per snapshot, with
their ratio.

usage: scripts/snapshot_bench.py [--simapp PATH] [--grids 1024x512,2048x1024,4096x2048] [--out DIR]
                                 [-- simapp options...]
"""
import argparse
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


def simapp_seconds(args, nx, nz):
    """Host seconds per snapshot of a 2-step run with snapshots at its start and end."""
    directory = os.path.join(args.out, f"simapp_{nx}x{nz}")
    dt = 1.5 * min(20000.0 / nx, 10000.0 / nz) / 450.0
    command = [args.simapp, "inputs/case.yaml", "--overwrite", "--set", f"grid.nx={nx}", "--set", f"grid.nz={nz}",
               "--set", f"time.sim_time={2 * dt!r}", "--set", f"output.every={2 * dt!r}",
               "--set", f"output.dir={directory}"] + args.simapp_options
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        fail(f"{' '.join(command)} failed:\n{done.stderr}")
    found = re.search(r"output: (\d+) files in ([0-9.]+) s", done.stdout)
    if not found:
        fail(f"no output line in simapp's summary:\n{done.stdout}")
    return float(found.group(2)) / int(found.group(1))


def h5py_seconds(args, nx, nz):
    """Seconds to write four nz × nx float64 datasets with h5py and fsync, best of three."""
    path = os.path.join(args.out, f"h5py_{nx}x{nz}.h5")
    data = [np.random.default_rng(v).standard_normal((nz, nx)) for v in range(4)]
    best = float("inf")
    for _ in range(3):
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
    parser.add_argument("simapp_options", nargs="*", help="after --: passed to every simapp run")
    args = parser.parse_args()
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    if not os.access(args.simapp, os.X_OK):
        fail(f"{args.simapp} is not an executable (build first)")
    os.makedirs(args.out, exist_ok=True)
    print("| grid | MB a snapshot | simapp s | h5py s | simapp / h5py |")
    print("|---|---:|---:|---:|---:|")
    for item in args.grids.split(","):
        nx, nz = (int(v) for v in item.split("x"))
        ours, theirs = simapp_seconds(args, nx, nz), h5py_seconds(args, nx, nz)
        print(f"| {nx} × {nz} | {4 * 8 * nx * nz / 1e6:.0f} | {ours:.3f} | {theirs:.3f} | {ours / theirs:.2f} |")


if __name__ == "__main__":
    main()
