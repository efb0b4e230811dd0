#!/usr/bin/python3
"""The largest time.cfl at which each case stays healthy: runs simapp on small grids at
increasing Courant numbers (dt = cfl · min(dx, (dy,) dz) / 450 m/s) for a fixed number of steps
and finds, for every case, model (2-D, 3-D) and dissipation (as the shipped inputs have it, and
none), the largest cfl whose run ends healthy and the smallest whose health check fails (exit
code 4): a scan upward in steps of --step from --start (downward where --start fails), then
bisection down to --resolution.
Prints a Markdown table (docs/validation.md, "Stable Courant numbers") and writes every run's
outcome to OUT/runs.csv as it goes.

Usage:
  scripts/stable_cfl.py [--simapp build-cpu/app/simapp] [--out out/stable_cfl] [--cases thermal,...]
                        [--models 2d,3d] [--steps 6000] [--steps-3d 1920] [--start 1.5] [--step 0.25]
                        [--resolution 0.01] [--highest 4] [-- simapp options...]
Options after `--` go to every run (the default: --backend host). Runs one simapp at a time,
each with OMP_NUM_THREADS=1 unless the environment sets it.
"""
import argparse
import csv
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAX_SPEED = 450.0  # m/s: dt = cfl · min spacing / MAX_SPEED
CASES = ["thermal", "collision", "density_current", "gravity_waves", "injection", "straka", "rest"]

# The grids: the case's input file's domain on fewer cells (straka's is 51.2 km × 6.4 km), and in
# 3-D a y extent that makes dy = dx.
GRIDS = {
    ("2d", "straka"): {"grid.nx": 128, "grid.nz": 16},
    ("2d", "other"): {"grid.nx": 64, "grid.nz": 32},
    ("3d", "straka"): {"grid.nx": 48, "grid.ny": 6, "grid.nz": 6, "grid.ylen": 6400.0},
    ("3d", "other"): {"grid.nx": 16, "grid.ny": 16, "grid.nz": 8, "grid.ylen": 20000.0},
}
DOMAINS = {"straka": (51200.0, 6400.0), "other": (20000.0, 10000.0)}  # xlen, zlen of the inputs


def grid_of(model, case):
    kind = "straka" if case == "straka" else "other"
    grid = dict(GRIDS[(model, kind)])
    xlen, zlen = DOMAINS[kind]
    spacings = [xlen / grid["grid.nx"], zlen / grid["grid.nz"]]
    if model == "3d":
        spacings.append(grid["grid.ylen"] / grid["grid.ny"])
    return grid, min(spacings)


def dissipations(case):
    """The dissipation as inputs/<case>.yaml has it (the default hyperviscosity; straka's viscosity), and none."""
    shipped = {"physics.viscosity": 75.0} if case == "straka" else {}
    return {"as shipped": shipped, "none": {"physics.hyperviscosity": 0.0, "physics.viscosity": 0.0}}


class Runner:
    """Runs simapp and appends each run's outcome to `csv_path` as it comes (a cut-short sweep keeps its runs)."""

    FIELDS = ["case", "model", "dissipation", "cfl", "steps", "exit_code", "failed_at_step"]

    def __init__(self, simapp, extra, steps, csv_path):
        self.simapp, self.extra, self.steps, self.csv_path = simapp, extra, steps, csv_path
        self.rows = []
        with open(csv_path, "w", newline="") as file:
            csv.DictWriter(file, fieldnames=self.FIELDS).writeheader()

    def healthy(self, case, model, dissipation, settings, cfl):
        """Runs `steps[model]` steps at `cfl`; True when the run ends healthy, False when its health check fails."""
        grid, spacing = grid_of(model, case)
        steps = self.steps[model]
        keys = dict(grid, **settings)
        keys["time.cfl"] = repr(cfl)
        keys["time.sim_time"] = repr(steps * cfl * spacing / MAX_SPEED)
        keys["output.every"] = 0
        keys["output.checkpoint_every"] = 0
        command = [self.simapp, str(ROOT / "inputs" / f"{case}.yaml")] + self.extra
        for key, value in keys.items():
            command += ["--set", f"{key}={value}"]
        with tempfile.TemporaryDirectory() as scratch:
            command += ["--set", f"output.dir={scratch}/out"]
            environment = dict(os.environ)
            environment.setdefault("OMP_NUM_THREADS", "1")
            result = subprocess.run(command, capture_output=True, text=True, env=environment, cwd=scratch)
        if result.returncode not in (0, 4):
            sys.exit(f"stable_cfl: error: {' '.join(command)} exited {result.returncode}:\n{result.stderr}")
        failed_at = ""
        if result.returncode == 4:
            failed_at = result.stderr.split("step ", 1)[1].split(" ", 1)[0] if "step " in result.stderr else "?"
        row = {"case": case, "model": model, "dissipation": dissipation, "cfl": cfl, "steps": steps,
               "exit_code": result.returncode, "failed_at_step": failed_at}
        self.rows.append(row)
        with open(self.csv_path, "a", newline="") as file:
            csv.DictWriter(file, fieldnames=self.FIELDS).writerow(row)
        print(f"  {case:16} {model} {dissipation:10} cfl {cfl:<6g} "
              f"{'healthy' if result.returncode == 0 else 'failed at step ' + failed_at}", flush=True)
        return result.returncode == 0


def limit(runner, case, model, dissipation, settings, options):
    """(largest healthy cfl or None, smallest failing cfl or None) for one configuration: a scan
    up from --start while the runs stay healthy (down from it while they fail), then bisection."""
    low, high = None, None
    cfl = options.start
    while options.step / 2 < cfl <= options.highest + 1e-9:
        if runner.healthy(case, model, dissipation, settings, cfl):
            low = cfl
            if high is not None:
                break
            cfl = round(cfl + options.step, 10)
        else:
            high = cfl
            if low is not None:
                break
            cfl = round(cfl - options.step, 10)
    if low is None or high is None:
        return low, high
    while high - low > options.resolution + 1e-9:
        middle = round((low + high) / 2, 3)
        if runner.healthy(case, model, dissipation, settings, middle):
            low = middle
        else:
            high = middle
    return low, high


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--simapp", default=str(ROOT / "build-cpu" / "app" / "simapp"))
    parser.add_argument("--out", default="out/stable_cfl")
    parser.add_argument("--cases", default=",".join(CASES))
    parser.add_argument("--models", default="2d,3d")
    parser.add_argument("--steps", type=int, default=6000, help="steps of each 2-D run (inputs/case.yaml's)")
    parser.add_argument("--steps-3d", type=int, default=1920, help="steps of each 3-D run (inputs/thermal3d.yaml's)")
    parser.add_argument("--start", type=float, default=1.5, help="the first cfl tried")
    parser.add_argument("--step", type=float, default=0.25, help="the scan's increment")
    parser.add_argument("--resolution", type=float, default=0.01, help="the bisection's last bracket")
    parser.add_argument("--highest", type=float, default=4.0, help="the scan's last cfl")
    parser.add_argument("extra", nargs="*", help="simapp options (after --)")
    options = parser.parse_args()
    if not os.access(options.simapp, os.X_OK):
        sys.exit(f"stable_cfl: error: {options.simapp} is not an executable (build first, or give --simapp)")
    simapp = os.path.abspath(options.simapp)  # the runs start in scratch directories
    extra = options.extra or ["--backend", "host"]
    out = Path(options.out)
    out.mkdir(parents=True, exist_ok=True)
    runner = Runner(simapp, extra, {"2d": options.steps, "3d": options.steps_3d}, out / "runs.csv")

    table = []
    for model in options.models.split(","):
        for case in options.cases.split(","):
            for dissipation, settings in dissipations(case).items():
                low, high = limit(runner, case, model, dissipation, settings, options)
                table.append((model, case, dissipation, low, high))

    def shown(value, prefix=""):
        return "–" if value is None else f"{prefix}{value:g}"

    print(f"\n| model | case | dissipation | largest healthy cfl | smallest failing cfl (step of failure) |")
    print("|---|---|---|---:|---:|")
    for model, case, dissipation, low, high in table:
        failed = next((r["failed_at_step"] for r in runner.rows
                       if (r["model"], r["case"], r["dissipation"], r["cfl"]) == (model, case, dissipation, high)), "")
        print(f"| {model} | {case} | {dissipation} | {shown(low)} | "
              f"{shown(high) + (f' ({failed})' if high is not None else f' (none up to {options.highest:g})')} |")
    for model in options.models.split(","):
        lows = [low for m, _, _, low, _ in table if m == model and low is not None]
        if lows:
            print(f"\n{model}: every case healthy up to cfl {min(lows):g}")
    print(f"\nstable_cfl: wrote {out / 'runs.csv'}")


if __name__ == "__main__":
    main()
