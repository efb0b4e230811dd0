#!/usr/bin/python3
"""Self-convergence order of simapp on a smooth flow: runs a case on grids of h, h/2, h/4, …
(default the thermal bubble for 24 s, before anything steepens), averages each finer solution
onto the next coarser grid (2 × 2 cells: the finite-volume restriction), and reports for every
variable e(h) = ‖q_h − R q_{h/2}‖₂ and the observed order p = log₂(e(h) / e(h/2)).

usage: scripts/order_of_accuracy.py [--simapp PATH] [--case thermal] [--grids 50x25,100x50,200x100,400x200]
                                    [--sim-time 24] [--out DIR] [-- simapp options...]

The step follows the grid (dt = cfl · min(dx, dz) / 450 m/s), so p measures space and time
together; --set time.cfl=… after "--" shows how much of the error is the time step's.
"""
import argparse
import math
import os
import subprocess
import sys

try:
    import h5py
    import numpy as np
except ImportError as error:
    sys.exit(f"order_of_accuracy: error: {error} (install python3-numpy and python3-h5py)")


def fail(message):
    sys.exit(f"order_of_accuracy: error: {message}")


def parse_grids(text):
    grids = []
    for item in text.split(","):
        try:
            nx, nz = (int(v) for v in item.lower().split("x"))
        except ValueError:
            fail(f"--grids '{text}': expected NXxNZ,NXxNZ,… (e.g. 50x25,100x50,200x100)")
        grids.append((nx, nz))
    if len(grids) < 3:
        fail("--grids needs three grids or more")
    for (nx, nz), (fx, fz) in zip(grids, grids[1:]):
        if (fx, fz) != (2 * nx, 2 * nz):
            fail(f"--grids: {fx}x{fz} is not twice {nx}x{nz}")
    return grids


def run(args, nx, nz):
    """The final state of a run on nx × nz cells: {variable: array [nz][nx]}, every variable of
    the model, as its checkpoint at the end names and holds them."""
    directory = os.path.join(args.out, f"{nx}x{nz}")
    command = [args.simapp, f"inputs/{args.case}.yaml", "--overwrite", "--set", f"case={args.case}",
               "--set", f"grid.nx={nx}", "--set", f"grid.nz={nz}", "--set", f"time.sim_time={args.sim_time}",
               "--set", "output.every=0", "--set", f"output.checkpoint_every={args.sim_time}",
               "--set", f"output.dir={directory}"] + args.simapp_options
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        fail(f"{' '.join(command)} failed:\n{done.stderr}")
    checkpoints = sorted(f for f in os.listdir(directory) if f.startswith("checkpoint_") and f.endswith(".h5"))
    with h5py.File(os.path.join(directory, checkpoints[-1]), "r") as checkpoint:
        names = checkpoint.attrs["variables"]
        names = (names.decode() if isinstance(names, bytes) else str(names)).split()
        state = checkpoint["state"][...]  # [variable][z][x]
        return {name: state[n] for n, name in enumerate(names)}


def restrict(fine):
    """The average of each 2 × 2 block of cells."""
    return 0.25 * (fine[0::2, 0::2] + fine[0::2, 1::2] + fine[1::2, 0::2] + fine[1::2, 1::2])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--simapp", default="build/app/simapp")
    parser.add_argument("--case", default="thermal")
    parser.add_argument("--grids", default="50x25,100x50,200x100,400x200")
    parser.add_argument("--sim-time", type=float, default=24.0)
    parser.add_argument("--out", default="out/order_of_accuracy")
    parser.add_argument("simapp_options", nargs="*", help="after --: passed to every simapp run")
    args = parser.parse_args()
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    if not os.access(args.simapp, os.X_OK):
        fail(f"{args.simapp} is not an executable (build first)")
    grids = parse_grids(args.grids)
    states = [run(args, nx, nz) for nx, nz in grids]
    variables = list(states[0])
    errors = {v: [] for v in variables}
    for coarse, fine in zip(states, states[1:]):
        for v in variables:
            errors[v].append(float(np.sqrt(np.mean((coarse[v] - restrict(fine[v])) ** 2))))
    print(f"{args.case}, t = {args.sim_time:g} s, {' '.join(args.simapp_options) or 'defaults'}")
    header = "| variable | " + " | ".join(f"e({nx}x{nz})" for nx, nz in grids[:-1]) + " | " + \
             " | ".join(f"p({a[0]}→{b[0]})" for a, b in zip(grids[:-2], grids[1:-1])) + " |"
    print(header)
    print("|---|" + "---:|" * (2 * len(grids) - 3))
    for v in variables:
        e = errors[v]
        orders = [math.log2(a / b) if a > 0 and b > 0 else float("nan") for a, b in zip(e, e[1:])]
        print(f"| {v} | " + " | ".join(f"{x:.3e}" for x in e) + " | " + " | ".join(f"{p:.2f}" for p in orders) + " |")


if __name__ == "__main__":
    main()
