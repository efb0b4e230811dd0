"""Opens a simapp run's statistics file (stats.nc) with the tools of the field and checks it
against the run's other files, computed here independently: ncdump -h shows time UNLIMITED with
a row at every snapshot and each variable on time with units and long_name; xarray decodes the
CF times to the snapshots' own; each row's largest |u|, |v| (3-D), |w| and smallest and largest
theta' are the snapshot's fields' (numpy over xarray's arrays) bit for bit, its kinetic energy
the sum of (umom u + wmom w (+ vmom v)) / 2 dV over the snapshot's cells; the last d_mass and d_te
are run.json's; netCDF4-python opens the file to change it; scripts/plot_stats.py draws it.

usage: stats_interop_check.py OUTPUT_DIR   (the run with output.variables all)
       (exit 77 when ncdump, xarray, h5netcdf or netCDF4 is missing)
"""
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

try:
    import h5netcdf  # noqa: F401
    import netCDF4
    import numpy as np
    import xarray as xr
except ImportError as error:
    print(f"stats_interop_check: {error} (Debian: python3-xarray, python3-h5netcdf, python3-netcdf4): skipped")
    sys.exit(77)


def fail(message):
    print(f"stats_interop_check: {message}")
    sys.exit(1)


def snapshots(directory):
    paths = sorted(p for p in glob.glob(os.path.join(directory, "fields_[0-9]*")) if "_failed" not in p)
    if not paths:
        fail(f"no snapshot in {directory}")
    return paths


def main():
    if shutil.which("ncdump") is None:
        print("stats_interop_check: no ncdump (Debian: netcdf-bin): skipped")
        sys.exit(77)
    directory = sys.argv[1]
    path = os.path.join(directory, "stats.nc")
    files = snapshots(directory)
    header = subprocess.run(["ncdump", "-h", path], capture_output=True, text=True, check=True).stdout
    expected = [f"time = UNLIMITED ; // ({len(files)} currently)", "double time(time) ;", "int64 step(time) ;"]
    for name in ("mass", "total_energy", "d_mass", "d_te", "kinetic_energy", "max_abs_u", "max_abs_w",
                 "min_theta_prime", "max_theta_prime", "cfl"):
        expected += [f"double {name}(time) ;", f"{name}:units = ", f"{name}:long_name = "]
    for line in expected:
        if line not in header:
            fail(f"{path}: ncdump -h has no '{line}':\n{header}")

    stats = xr.open_dataset(path, engine="h5netcdf")
    if not np.issubdtype(stats.time.dtype, np.datetime64):
        fail(f"{path}: xarray does not decode time to dates ({stats.time.dtype}, units {stats.time.attrs})")
    seconds = xr.open_dataset(path, engine="h5netcdf", decode_times=False).time.values
    three_d = "max_abs_v" in stats
    for row, snapshot_path in enumerate(files):
        snapshot = xr.open_dataset(snapshot_path, engine="h5netcdf", decode_times=False)
        where = f"{os.path.basename(snapshot_path)} against row {row}"
        if snapshot.time.values[0] != seconds[row]:
            fail(f"{where}: time {snapshot.time.values[0]} s vs {seconds[row]} s")
        extremes = {"max_abs_u": np.abs(snapshot.u.values).max(), "max_abs_w": np.abs(snapshot.w.values).max(),
                    "min_theta_prime": snapshot.theta_prime.values.min(),
                    "max_theta_prime": snapshot.theta_prime.values.max()}
        if three_d:
            extremes["max_abs_v"] = np.abs(snapshot.v.values).max()
        for name, value in extremes.items():
            if stats[name].values[row] != value:
                fail(f"{where}: {name} {stats[name].values[row]!r}, the snapshot's {value!r}")
        kinetic_density = snapshot.umom.values * snapshot.u.values + snapshot.wmom.values * snapshot.w.values
        volume = snapshot.attrs["dx"] * snapshot.attrs["dz"]
        if three_d:
            kinetic_density = kinetic_density + snapshot.vmom.values * snapshot.v.values
            volume *= snapshot.attrs["dy"]
        kinetic = 0.5 * kinetic_density.sum() * volume
        # The file's sum is exact over values truncated to 2^-42 J m-3 a cell.
        tolerance = 1e-12 * abs(kinetic) + kinetic_density.size * 2.0**-42 * volume
        if abs(stats.kinetic_energy.values[row] - kinetic) > tolerance:
            fail(f"{where}: kinetic_energy {stats.kinetic_energy.values[row]!r}, the snapshot's {kinetic!r}")
    run = json.load(open(os.path.join(directory, "run.json")))
    for name in ("d_mass", "d_te"):
        if stats[name].values[-1] != run[name]:
            fail(f"{path}: the last {name} {stats[name].values[-1]!r}, run.json's {run[name]!r}")
    stats.close()

    with tempfile.TemporaryDirectory() as scratch:
        copy = shutil.copy(path, os.path.join(scratch, "stats.nc"))
        with netCDF4.Dataset(copy, "a") as changed:
            changed.variables["max_abs_w"].setncattr("comment", "changed by netCDF4-python")
        plot = subprocess.run([sys.executable, os.path.join(os.path.dirname(__file__), "../../scripts/plot_stats.py"),
                               copy], capture_output=True, text=True)
        if plot.returncode != 0 or not os.path.getsize(os.path.join(scratch, "stats.png")):
            fail(f"plot_stats.py: {plot.returncode}\n{plot.stdout}{plot.stderr}")
    print(f"stats_interop_check: {path}: {len(files)} rows agree with the snapshots and run.json")


main()
