#!/usr/bin/python3
"""The largest time.cfl at which each case stays healthy: runs simapp on small grids at
increasing Courant numbers (dt = cfl · min(dx, (dy,) dz) / 450 m/s), each for its input file's
simulated time (inputs/<case>.yaml: 1000 s, straka 900 s; the same flow at every cfl, only the
step differs), and finds, for every case, model (2-D, 3-D) and dissipation (as the shipped inputs
have it, and none), the largest cfl whose run ends healthy and the smallest whose health check
fails (exit code 4): a scan upward in steps of --step from --start (downward where --start
fails), then bisection down to --resolution. A configuration that fails at every cfl down to
--step fails for another reason than its time step.
Prints a Markdown table (docs/validation.md, "Stable Courant numbers") and writes every run's
outcome to OUT/runs.csv as it goes.

Usage:
  scripts/stable_cfl.py [--simapp build-cpu/app/simapp] [--out out/stable_cfl] [--cases thermal,...]
                        [--models 2d,3d] [--sim-time S] [--start 1.5] [--step 0.25]
                        [--resolution 0.01] [--highest 4] [-- simapp options...]
Options after `--` go to every run (the default: --backend host). Runs one simapp at a time,
each with OMP_NUM_THREADS=1 unless the environment sets it.
"""
import argparse
import csv
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CASES = ["thermal", "collision", "density_current", "gravity_waves", "injection", "straka", "rest"]

# The grids: the case's input file's domain on fewer cells (straka's is 51.2 km × 6.4 km), and in
# 3-D a y extent that makes dy = dx. At cfl 1.5 a run of 1000 s takes 1920 steps in 2-D, 480 in 3-D.
GRIDS = {
    ("2d", "straka"): {"grid.nx": 256, "grid.nz": 32},
    ("2d", "other"): {"grid.nx": 128, "grid.nz": 64},
    ("3d", "straka"): {"grid.nx": 64, "grid.ny": 8, "grid.nz": 8, "grid.ylen": 6400.0},
    ("3d", "other"): {"grid.nx": 32, "grid.ny": 32, "grid.nz": 16, "grid.ylen": 20000.0},
}


def grid_of(model, case):
    return GRIDS[(model, "straka" if case == "straka" else "other")]


def dissipations(case):
    """The dissipation as inputs/<case>.yaml has it (the default hyperviscosity; straka's viscosity), and none."""
    shipped = {"physics.viscosity": 75.0} if case == "straka" else {}
    return {"as shipped": shipped, "none": {"physics.hyperviscosity": 0.0, "physics.viscosity": 0.0}}


class Runner:
    """Runs simapp and appends each run's outcome to `csv_path` as it comes (a cut-short sweep keeps its runs)."""

    FIELDS = ["case", "model", "dissipation", "cfl", "steps", "exit_code", "failed_at_step"]

    def __init__(self, simapp, extra, sim_time, csv_path):
        self.simapp, self.extra, self.sim_time, self.csv_path = simapp, extra, sim_time, csv_path
        self.rows = []
        with open(csv_path, "w", newline="") as file:
            csv.DictWriter(file, fieldnames=self.FIELDS, lineterminator="\n").writeheader()

    def healthy(self, case, model, dissipation, settings, cfl):
        """Runs the case at `cfl`; True when the run ends healthy, False when its health check fails."""
        keys = dict(grid_of(model, case), **settings)
        keys["time.cfl"] = repr(cfl)
        if self.sim_time is not None:
            keys["time.sim_time"] = repr(self.sim_time)
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
        stepped = re.search(r"\(cfl [^)]*\), (\d+) steps", result.stdout)  # the header's time line
        steps = stepped.group(1) if stepped else "?"
        row = {"case": case, "model": model, "dissipation": dissipation, "cfl": cfl, "steps": steps,
               "exit_code": result.returncode, "failed_at_step": failed_at}
        self.rows.append(row)
        with open(self.csv_path, "a", newline="") as file:
            csv.DictWriter(file, fieldnames=self.FIELDS, lineterminator="\n").writerow(row)
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
    parser.add_argument("--sim-time", type=float, help="simulated time of every run, s (default: the input file's)")
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
    runner = Runner(simapp, extra, options.sim_time, out / "runs.csv")

    table = []
    for model in options.models.split(","):
        for case in options.cases.split(","):
            for dissipation, settings in dissipations(case).items():
                low, high = limit(runner, case, model, dissipation, settings, options)
                table.append((model, case, dissipation, low, high))

    def run_of(model, case, dissipation, cfl):
        return next(r for r in runner.rows if (r["model"], r["case"], r["dissipation"], r["cfl"]) ==
                    (model, case, dissipation, cfl))

    print("\n| model | case | dissipation | largest healthy cfl (steps) | smallest failing cfl (failed at step of) |")
    print("|---|---|---|---:|---:|")
    for model, case, dissipation, low, high in table:
        healthy = "–" if low is None else f"{low:g} ({run_of(model, case, dissipation, low)['steps']})"
        if high is None:
            failing = f"none up to {options.highest:g}"
        else:
            run = run_of(model, case, dissipation, high)
            failing = f"{high:g} ({run['failed_at_step']} of {run['steps']})"
        print(f"| {model} | {case} | {dissipation} | {healthy} | {failing} |")
    for model in options.models.split(","):
        for dissipation in ("as shipped", "none"):
            rows = [(case, low) for m, case, d, low, _ in table if (m, d) == (model, dissipation)]
            limited = [(low, case) for case, low in rows if low is not None]
            unstable = [case for case, low in rows if low is None]
            if limited:
                print(f"\n{model}, {dissipation}: every case healthy up to cfl {min(limited)[0]:g} ({min(limited)[1]})"
                      + (f"; {', '.join(unstable)} failed at every cfl tried" if unstable else ""))
    print(f"\nstable_cfl: wrote {out / 'runs.csv'}")


if __name__ == "__main__":
    main()
