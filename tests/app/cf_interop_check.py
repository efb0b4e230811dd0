"""Opens a simapp run's snapshots with the tools of the field and checks what they see: ncdump -h
shows named dimensions (time unlimited, z, x) and the fields on (time, z, x); xarray opens every
snapshot of the run at once (open_mfdataset, h5netcdf, combine by coordinates) as (time, z, x)
arrays whose times are the snapshots' and whose values are the HDF5 datasets'; and the CF
attributes are there (Conventions, units, long_name, standard_name, axis, positive, bounds).
Given the output of the same case with output.layout series too: its fields.nc alike (ncdump -h:
time UNLIMITED with as many times as snapshots, step(time); xarray's open_dataset: (time, z, x)),
each time bit for bit the per-time snapshot's values, time and step. A run of the 3-D model
(snapshots with a y coordinate) is checked alike on (time, z, y, x).

usage: cf_interop_check.py OUTPUT_DIR [SERIES_OUTPUT_DIR]
       (exit 77 when ncdump, xarray, h5netcdf or dask is missing)
"""
import glob
import os
import shutil
import subprocess
import sys

try:
    import dask  # noqa: F401  (open_mfdataset needs it)
    import h5netcdf  # noqa: F401
    import h5py
    import numpy as np
    import xarray as xr
except ImportError as error:
    print(f"cf_interop_check: {error} (Debian: python3-xarray, python3-h5netcdf, python3-dask): skipped")
    sys.exit(77)


def fail(message):
    print(f"cf_interop_check: {message}")
    sys.exit(1)


DIMS = ("time", "z", "x")  # ("time", "z", "y", "x") for the 3-D model's run (main)


def dims_text():
    return "(" + ", ".join(DIMS) + ")"


def check_ncdump(path, times=1, extra=()):
    header = subprocess.run(["ncdump", "-h", path], capture_output=True, text=True, check=True).stdout
    if "phony_dim" in header:
        fail(f"{path}: ncdump shows unnamed dimensions:\n{header}")
    if "y" in DIMS:
        extra = extra + ("double y(y) ;", "double y_bnds(y, bnds) ;")
    for line in (f"time = UNLIMITED ; // ({times} currently)", "double time(time) ;", "double x(x) ;",
                 "double z(z) ;", "double x_bnds(x, bnds) ;", 'string :Conventions = "CF-1.10" ;') + extra:
        if line not in header:
            fail(f"{path}: ncdump -h has no '{line}':\n{header}")
    fields = [line.split()[1].split("(")[0] for line in header.splitlines() if dims_text() in line]
    if not fields:
        fail(f"{path}: no variable on {dims_text()}:\n{header}")
    return fields


def check_cf_attributes(dataset):
    expect = {
        "time": {"units": "s", "standard_name": "time", "axis": "T"},
        "x": {"units": "m", "axis": "X", "bounds": "x_bnds", "standard_name": "projection_x_coordinate"},
        "z": {"units": "m", "axis": "Z", "positive": "up", "bounds": "z_bnds", "standard_name": "height"},
    }
    if "y" in DIMS:
        expect["y"] = {"units": "m", "axis": "Y", "bounds": "y_bnds", "standard_name": "projection_y_coordinate"}
    if dataset.attrs.get("Conventions") != "CF-1.10":
        fail(f"Conventions is {dataset.attrs.get('Conventions')!r}")
    for name, attributes in expect.items():
        for key, value in attributes.items():
            if dataset[name].attrs.get(key) != value:
                fail(f"{name}: {key} is {dataset[name].attrs.get(key)!r}, expected {value!r}")
    for name in dataset.data_vars:
        if name.endswith("_bnds"):
            continue
        for key in ("units", "long_name"):
            if not dataset[name].attrs.get(key):
                fail(f"{name} has no {key}")
    standard = {"u": "x_wind", "v": "y_wind", "w": "upward_air_velocity"}
    for name, value in standard.items():
        if name in dataset and dataset[name].attrs.get("standard_name") != value:
            fail(f"{name}: standard_name is {dataset[name].attrs.get('standard_name')!r}, expected {value!r}")


def same_bits(a, b):
    a, b = np.asarray(a), np.asarray(b)
    return a.shape == b.shape and a.dtype == b.dtype and a.tobytes() == b.tobytes()


def check_series(path, snapshots, fields):
    """fields.nc of the series run against the per-time snapshots of the same case."""
    series_fields = check_ncdump(path, len(snapshots), ("int64 step(time) ;",))
    if sorted(series_fields) != sorted(fields):
        fail(f"{path}: fields {series_fields}, the snapshots' {fields}")
    with xr.open_dataset(path, engine="h5netcdf") as run:
        check_cf_attributes(run)
        if run["step"].dims != ("time",):
            fail(f"{path}: step on {run['step'].dims}")
        for n, snapshot in enumerate(snapshots):
            with h5py.File(snapshot, "r") as h5:
                if not same_bits(run["time"].values[n], h5["time"][0]):
                    fail(f"{path}: time {n} is {run['time'].values[n]}, {snapshot}'s {h5['time'][0]}")
                if int(run["step"].values[n]) != int(h5.attrs["step"]):
                    fail(f"{path}: step {n} is {run['step'].values[n]}, {snapshot}'s {h5.attrs['step']}")
                for name in fields:
                    if run[name].dims != DIMS:
                        fail(f"{path}: {name} on {run[name].dims}")
                    if not same_bits(run[name].isel(time=n).values, h5[name][0]):
                        fail(f"{path}: {name} at time {n} is not {snapshot}'s, bit for bit")
    print(f"cf_interop_check: {path}: {len(snapshots)} times of {len(fields)} fields on {dims_text()}, time "
          f"UNLIMITED; ncdump and xarray open_dataset agree with the snapshots bit for bit")


def main():
    directory = sys.argv[1]
    if shutil.which("ncdump") is None:
        print("cf_interop_check: no ncdump (Debian: netcdf-bin): skipped")
        sys.exit(77)
    paths = sorted(p for p in glob.glob(os.path.join(directory, "fields_*.h5")) if not p.endswith("_failed.h5"))
    if len(paths) < 2:
        fail(f"{directory}: {len(paths)} snapshots; the check needs at least two")
    global DIMS
    with h5py.File(paths[0], "r") as h5:
        if "y" in h5:
            DIMS = ("time", "z", "y", "x")
    fields = [check_ncdump(path) for path in paths][0]
    run = xr.open_mfdataset(os.path.join(directory, "fields_*.h5"), engine="h5netcdf", combine="by_coords")
    check_cf_attributes(run)
    times = []
    for path in paths:
        with h5py.File(path, "r") as h5:
            times.append(float(h5.attrs["time"]))
    if not np.array_equal(run["time"].values, np.array(times)):
        fail(f"the run's times are {run['time'].values}, the snapshots' {times}")
    for name in fields:
        if run[name].dims != DIMS:
            fail(f"{name}: dimensions {run[name].dims}")
        for n, path in enumerate(paths):
            with h5py.File(path, "r") as h5:
                if not np.array_equal(run[name].isel(time=n).values, h5[name][0]):
                    fail(f"{name} at {path}: xarray's values are not the HDF5 dataset's")
    print(f"cf_interop_check: {len(paths)} snapshots, {len(fields)} fields on {dims_text()}, times {times}: "
          f"ncdump, xarray open_mfdataset and the CF attributes agree")
    if len(sys.argv) > 2:
        check_series(os.path.join(sys.argv[2], "fields.nc"), paths, fields)


if __name__ == "__main__":
    main()
