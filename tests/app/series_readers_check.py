"""Opens a series (output.layout: series, fields.nc) again and again while the run appends to it,
with the readers a user has: xarray (h5netcdf), netCDF4-python and ncdump, each in processes of
their own and opening the file plainly (no SWMR). Every open must succeed and show a prefix of the
run's times: after the run, each open's times, steps and field values (per time, bit for bit) are
compared with the first times of the finished file.

usage: series_readers_check.py SIMAPP ARGS...   (the run; output.dir and output.layout are set here;
       with too few opens during it, the run again with time.sim_time 2 and 4 times longer)
       (exit 77 when xarray, h5netcdf, netCDF4 or ncdump is missing)
"""
import hashlib
import multiprocessing
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

try:
    import h5netcdf  # noqa: F401
    import netCDF4
    import numpy as np
    import xarray as xr
except ImportError as error:
    print(f"series_readers_check: {error} (Debian: python3-xarray, python3-h5netcdf, python3-netcdf4): skipped")
    sys.exit(77)

FIELDS = ("rho_prime", "u", "w", "theta_prime")


def digests(values):
    """One digest a time of an array along time."""
    return [hashlib.sha1(np.ascontiguousarray(values[n]).tobytes()).hexdigest() for n in range(values.shape[0])]


def read_xarray(path):
    with xr.open_dataset(path, engine="h5netcdf", decode_times=False) as run:
        return (run["time"].values.tolist(), run["step"].values.tolist(),
                {name: digests(run[name].values) for name in FIELDS})


def read_netcdf4(path):
    with netCDF4.Dataset(path) as run:
        run.set_auto_mask(False)
        return (run["time"][:].tolist(), run["step"][:].tolist(),
                {name: digests(run[name][:]) for name in FIELDS})


def read_ncdump(path):
    header = subprocess.run(["ncdump", "-h", path], capture_output=True, text=True)
    if header.returncode != 0:
        raise RuntimeError(header.stderr.strip() or f"ncdump exit {header.returncode}")
    found = re.search(r"time = UNLIMITED ; // \((\d+) currently\)", header.stdout)
    if not found:
        raise RuntimeError(f"no time dimension in:\n{header.stdout}")
    return int(found.group(1))


READERS = {"xarray": read_xarray, "netCDF4": read_netcdf4, "ncdump": read_ncdump}


def keep_opening(name, path, stop, results):
    """Opens `path` with reader `name` until `stop` is set; puts (name, outcome, what) on `results`."""
    read = READERS[name]
    while not stop.is_set():
        try:
            results.put((name, "ok", read(path)))
        except Exception as error:  # every failure is what the check reports
            results.put((name, "failed", f"{type(error).__name__}: {error}"))
        time.sleep(0.005)


def check(run_args):
    """One run of `run_args` with the readers beside it: 0 (passed), 1 (failed) or None (too few
    opens during the run to tell)."""
    out = tempfile.mkdtemp()
    try:
        path = os.path.join(out, "fields.nc")
        run = subprocess.Popen(run_args + ["--set", f"output.dir={out}", "--set", "output.layout=series",
                                               "--set", "output.variables=" + ",".join(FIELDS)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        while not os.path.exists(path) and run.poll() is None:
            time.sleep(0.001)
        context = multiprocessing.get_context("fork")
        stop, results = context.Event(), context.Queue()
        readers = [context.Process(target=keep_opening, args=(name, path, stop, results))
                   for name in ("xarray", "xarray", "netCDF4", "ncdump")]
        for reader in readers:
            reader.start()
        outcomes = []
        while run.poll() is None:
            while not results.empty():
                outcomes.append(results.get())
            time.sleep(0.01)
        stop.set()
        for reader in readers:
            while reader.is_alive():
                while not results.empty():
                    outcomes.append(results.get())
                reader.join(0.05)
        while not results.empty():
            outcomes.append(results.get())
        if run.returncode != 0:
            print(f"series_readers_check: the run failed ({run.returncode}): {run.stderr.read()}")
            return 1
        times, steps, values = read_xarray(path)
        failures, wrong, counts = [], [], set()
        for name, outcome, what in outcomes:
            if outcome == "failed":
                failures.append(f"{name}: {what}")
                continue
            if name == "ncdump":
                counts.add(what)
                if not 1 <= what <= len(times):
                    wrong.append(f"ncdump: {what} times, the finished file {len(times)}")
                continue
            seen_times, seen_steps, seen_values = what
            n = len(seen_times)
            counts.add(n)
            if not 1 <= n <= len(times) or seen_times != times[:n] or seen_steps != steps[:n] or any(
                    seen_values[field] != values[field][:n] for field in FIELDS):
                wrong.append(f"{name}: {n} times that are not the first {n} of the finished file")
        opens = len(outcomes)
        print(f"series_readers_check: {opens} opens while the run appended {len(times)} times "
              f"({len(counts)} different lengths seen), {len(failures)} failed, {len(wrong)} not a prefix")
        for line in (failures + wrong)[:10]:
            print(f"  {line}")
        if failures or wrong:
            return 1
        if opens < 20 or len(counts) < 3:
            return None
        return 0
    finally:
        shutil.rmtree(out, ignore_errors=True)


def longer(run_args, factor):
    """run_args with time.sim_time (and so the times appended) `factor` times longer."""
    longer_args = list(run_args)
    for n, arg in enumerate(longer_args):
        if arg.startswith("time.sim_time="):
            longer_args[n] = f"time.sim_time={float(arg.split('=', 1)[1]) * factor:g}"
    return longer_args


def main():
    if shutil.which("ncdump") is None:
        print("series_readers_check: no ncdump (Debian: netcdf-bin): skipped")
        sys.exit(77)
    # A busy machine opens the file fewer times while the run goes: the run is then made longer
    # (2 ×, 4 ×), so that the readers see it grow whatever the machine's speed.
    for factor in (1, 2, 4):
        outcome = check(longer(sys.argv[1:], factor))
        if outcome is not None:
            return outcome
        print(f"series_readers_check: too few opens during the run to tell; again {2 * factor} × longer")
    print("series_readers_check: too few opens during the run to tell, even 4 × longer")
    return 1


if __name__ == "__main__":
    sys.exit(main())
