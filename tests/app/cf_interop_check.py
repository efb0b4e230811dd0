"""Opens a simapp run's snapshots with the tools of the field and checks what they see, and that
they can change the files as their own:
- ncdump -h: named dimensions (time unlimited, z, x, and bnds without a variable), the fields on
  (time, z, x), step(time), every text attribute a char one (none a netCDF-4 string), CF time
  with a reference date (units "seconds since <time.start>", calendar proleptic_gregorian);
- xarray's open_mfdataset over the run: times decoded to the dates time.start + t, each file's
  step, the HDF5 datasets' values, the CF attributes, no per-time global attribute, every
  long_name a plot's label shows on at most two lines, and the base state with the pressure
  perturbation: p_bar + p_prime = C0 (rho theta)^gamma of the prognostic variables;
- CDO: the dates (showtimestamp);
- NCO: ncks -v theta_prime copies the variable with its bounds (x_bnds, z_bnds) and says nothing
  on stderr; ncatted -a changes an attribute in place; netCDF4-python opens the file in mode 'a'
  and changes one.
Given the output of the same case with output.layout series too: its fields.nc alike (ncdump -h,
xarray's open_dataset, CDO's dates, ncatted, netCDF4's mode 'a'), each time bit for bit the
per-time snapshot's values, time and step. A run of the 3-D model (snapshots with a y coordinate)
is checked alike on (time, z, y, x).

usage: cf_interop_check.py OUTPUT_DIR [SERIES_OUTPUT_DIR]
       (exit 77 when ncdump, ncks, ncatted, cdo, xarray, h5netcdf, dask or netCDF4 is missing)
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

try:
    import dask  # noqa: F401  (open_mfdataset needs it)
    import h5netcdf  # noqa: F401
    import h5py
    import netCDF4
    import numpy as np
    import xarray as xr
except ImportError as error:
    print(f"cf_interop_check: {error} (Debian: python3-xarray, python3-h5netcdf, python3-dask, python3-netcdf4): "
          "skipped")
    sys.exit(77)

TOOLS = {"ncdump": "netcdf-bin", "ncks": "nco", "ncatted": "nco", "cdo": "cdo"}
DIMS = ("time", "z", "x")  # ("time", "z", "y", "x") for the 3-D model's run (main)
GAMMA, C0 = 1004.0 / 717.0, 27.5629410929725921  # c_p / c_v and C0 = R_d^gamma p0^(-R_d/c_v)


def fail(message):
    print(f"cf_interop_check: {message}")
    sys.exit(1)


def dims_text():
    return "(" + ", ".join(DIMS) + ")"


def run_tool(*command):
    return subprocess.run(list(command), capture_output=True, text=True)


def start_of(path):
    """time.start of the run, from the configuration the file holds (input_yaml)."""
    with h5py.File(path, "r") as h5:
        text = h5.attrs["input_yaml"]
    text = text.decode() if isinstance(text, bytes) else str(text)
    found = re.search(r"^\s+start:\s*'?([0-9T:Z -]+?)'?\s*$", text, re.MULTILINE)
    return found.group(1).strip() if found else "2000-01-01T00:00:00Z"


def dates(start, seconds):
    """The dates `seconds` after `start` (ISO 8601, UTC), as numpy datetime64[ns]."""
    origin = np.datetime64(start.rstrip("Z").replace(" ", "T"), "ns")
    return origin + np.round(np.asarray(seconds, dtype=float) * 1e9).astype("timedelta64[ns]")


def check_ncdump(path, start, times=1):
    header = run_tool("ncdump", "-h", path).stdout
    if "phony_dim" in header:
        fail(f"{path}: ncdump shows unnamed dimensions:\n{header}")
    units = "seconds since " + start.rstrip("Z").replace("T", " ")
    if len(units) == len("seconds since 2000-01-01"):
        units += " 00:00:00"
    lines = [f"time = UNLIMITED ; // ({times} currently)", "bnds = 2 ;", "double time(time) ;",
             f'time:units = "{units}" ;', 'time:calendar = "proleptic_gregorian" ;', "int64 step(time) ;",
             "double x(x) ;", "double z(z) ;", "double x_bnds(x, bnds) ;", ':Conventions = "CF-1.10" ;']
    if "y" in DIMS:
        lines += ["double y(y) ;", "double y_bnds(y, bnds) ;"]
    for line in lines:
        if line not in header:
            fail(f"{path}: ncdump -h has no '{line}':\n{header}")
    strings = [line.strip() for line in header.splitlines() if re.match(r"\s*string\s", line)]
    if strings:
        fail(f"{path}: text attributes stored as netCDF-4 strings, not char: {strings[:3]}")
    if re.search(r"\bbnds\(bnds\)", header):
        fail(f"{path}: bnds is a variable, not a plain dimension:\n{header}")
    fields = [line.split()[1].split("(")[0] for line in header.splitlines() if dims_text() in line]
    if not fields:
        fail(f"{path}: no variable on {dims_text()}:\n{header}")
    return fields


def check_cf_attributes(dataset):
    expect = {
        "x": {"units": "m", "bounds": "x_bnds", "standard_name": "projection_x_coordinate"},
        "z": {"units": "m", "axis": "Z", "positive": "up", "bounds": "z_bnds", "standard_name": "height"},
    }
    if "y" in DIMS:
        expect["y"] = {"units": "m", "bounds": "y_bnds", "standard_name": "projection_y_coordinate"}
    for name in ("x", "y"):  # ParaView's CF reader takes axis X and Y for longitude and latitude
        if name in dataset and "axis" in dataset[name].attrs:
            fail(f"{name} has axis {dataset[name].attrs['axis']!r}: ParaView would lay the grid on a sphere")
    if dataset.attrs.get("Conventions") != "CF-1.10":
        fail(f"Conventions is {dataset.attrs.get('Conventions')!r}")
    for name, attributes in expect.items():
        for key, value in attributes.items():
            if dataset[name].attrs.get(key) != value:
                fail(f"{name}: {key} is {dataset[name].attrs.get(key)!r}, expected {value!r}")
    time = dataset["time"]
    if time.attrs.get("standard_name") != "time" or time.attrs.get("axis") != "T":
        fail(f"time: attributes {time.attrs}")
    if not np.issubdtype(time.dtype, np.datetime64) or time.encoding.get("calendar") != "proleptic_gregorian":
        fail(f"time is {time.dtype} (encoding {time.encoding}), not dates of the proleptic Gregorian calendar")
    for key in ("time", "step"):
        if key in dataset.attrs:
            fail(f"a global attribute {key} = {dataset.attrs[key]!r}: per-time values belong on time")
    for name in dataset.data_vars:
        if name.endswith("_bnds"):
            continue
        for key in ("units", "long_name"):
            if not dataset[name].attrs.get(key):
                fail(f"{name} has no {key}")
        label = xr.plot.utils.label_from_attrs(dataset[name])
        if label.count("\n") > 1:
            fail(f"{name}: a plot labels it on {label.count(chr(10)) + 1} lines: {label!r}")
    standard = {"u": "x_wind", "v": "y_wind", "w": "upward_air_velocity"}
    for name, value in standard.items():
        if name in dataset and dataset[name].attrs.get("standard_name") != value:
            fail(f"{name}: standard_name is {dataset[name].attrs.get('standard_name')!r}, expected {value!r}")


def check_base_state(dataset):
    """p_bar + p_prime is the pressure C0 (rho theta)^gamma of the prognostic variables, and the
    base state's profiles are those of a stable atmosphere."""
    names = ("rho_bar", "theta_bar", "p_bar", "p_prime", "rhot")
    if not all(name in dataset for name in names):
        return
    for name in ("rho_bar", "theta_bar", "p_bar"):
        if dataset[name].dims[-1:] != ("z",) or not np.all(dataset[name].values > 0):
            fail(f"{name}: dimensions {dataset[name].dims}, values {dataset[name].values[:3]}...")
    if not np.all(np.diff(dataset["p_bar"].values.reshape(-1, dataset.sizes["z"]), axis=-1) < 0):
        fail("p_bar does not fall with height")
    shape = [1] * len(DIMS)
    shape[1] = dataset.sizes["z"]
    rho_theta_bar = (dataset["rho_bar"].values * dataset["theta_bar"].values).reshape(-1)[: shape[1]].reshape(shape)
    p_bar = dataset["p_bar"].values.reshape(-1)[: shape[1]].reshape(shape)
    pressure = C0 * (rho_theta_bar + dataset["rhot"].values) ** GAMMA
    if not np.allclose(p_bar + dataset["p_prime"].values, pressure, rtol=1e-12, atol=0):
        fail("p_bar + p_prime is not C0 (rho_bar theta_bar + rhot)^gamma")


def check_cdo(path, start, seconds):
    shown = run_tool("cdo", "-s", "showtimestamp", path)
    expected = [str(date)[:19] for date in dates(start, seconds).astype("datetime64[s]")]
    if shown.returncode != 0 or shown.stdout.split() != expected:
        fail(f"{path}: cdo showtimestamp shows {shown.stdout.split()} ({shown.stderr.strip()}), expected {expected}")
    return expected


def check_changes(path):
    """NCO and netCDF4-python treat a copy of `path` as their own: ncks -v theta_prime keeps the
    bounds and warns of nothing; ncatted -a and netCDF4's mode 'a' change attributes in place."""
    with tempfile.TemporaryDirectory() as work:
        copy = os.path.join(work, os.path.basename(path))
        shutil.copyfile(path, copy)
        extracted = os.path.join(work, "theta_prime.nc")
        ncks = run_tool("ncks", "-O", "-v", "theta_prime", copy, extracted)
        if ncks.returncode != 0 or ncks.stderr.strip():
            fail(f"{path}: ncks -v theta_prime: exit {ncks.returncode}, stderr {ncks.stderr.strip()!r}")
        header = run_tool("ncdump", "-h", extracted).stdout
        for bounds in ("x_bnds", "z_bnds") + (("y_bnds",) if "y" in DIMS else ()):
            if f"double {bounds}(" not in header:
                fail(f"{path}: ncks -v theta_prime dropped {bounds}:\n{header}")
        ncatted = run_tool("ncatted", "-a", "comment,theta_prime,o,c,changed by ncatted", copy)
        if ncatted.returncode != 0:
            fail(f"{path}: ncatted -a: exit {ncatted.returncode}: {ncatted.stderr.strip()}")
        with netCDF4.Dataset(copy, "a") as dataset:
            dataset.setncattr("history", "changed by netCDF4-python")
        with netCDF4.Dataset(copy) as dataset:
            if dataset["theta_prime"].comment != "changed by ncatted" or dataset.history != "changed by netCDF4-python":
                fail(f"{path}: the attributes written by ncatted and netCDF4's mode 'a' are not there")
        with xr.open_dataset(copy, engine="h5netcdf") as changed, xr.open_dataset(path, engine="h5netcdf") as original:
            if not changed["theta_prime"].equals(original["theta_prime"]):
                fail(f"{path}: changing attributes changed theta_prime's values")


def same_bits(a, b):
    a, b = np.asarray(a), np.asarray(b)
    return a.shape == b.shape and a.dtype == b.dtype and a.tobytes() == b.tobytes()


def check_series(path, snapshots, fields, start):
    """fields.nc of the series run against the per-time snapshots of the same case."""
    series_fields = check_ncdump(path, start, len(snapshots))
    if sorted(series_fields) != sorted(fields):
        fail(f"{path}: fields {series_fields}, the snapshots' {fields}")
    with xr.open_dataset(path, engine="h5netcdf") as run:
        check_cf_attributes(run)
        check_base_state(run)
        if run["step"].dims != ("time",):
            fail(f"{path}: step on {run['step'].dims}")
        for n, snapshot in enumerate(snapshots):
            with h5py.File(snapshot, "r") as h5:
                if not same_bits(run["time"].values[n], dates(start, h5["time"][0:1])[0]):
                    fail(f"{path}: time {n} is {run['time'].values[n]}, {snapshot}'s {h5['time'][0]} s")
                if int(run["step"].values[n]) != int(h5["step"][0]):
                    fail(f"{path}: step {n} is {run['step'].values[n]}, {snapshot}'s {h5['step'][0]}")
                for name in fields:
                    if run[name].dims != DIMS:
                        fail(f"{path}: {name} on {run[name].dims}")
                    if not same_bits(run[name].isel(time=n).values, h5[name][0]):
                        fail(f"{path}: {name} at time {n} is not {snapshot}'s, bit for bit")
    with h5py.File(path, "r") as h5:
        shown = check_cdo(path, start, h5["time"][()])
    check_changes(path)
    print(f"cf_interop_check: {path}: {len(snapshots)} times of {len(fields)} fields on {dims_text()}, time "
          f"UNLIMITED; ncdump, xarray open_dataset and cdo ({shown[0]} ...) agree with the snapshots bit for bit; "
          f"ncks keeps the bounds, ncatted and netCDF4 'a' change it")


def main():
    directory = sys.argv[1]
    for tool, package in TOOLS.items():
        if shutil.which(tool) is None:
            print(f"cf_interop_check: no {tool} (Debian: {package}): skipped")
            sys.exit(77)
    paths = sorted(p for p in glob.glob(os.path.join(directory, "fields_*.nc")) if not p.endswith("_failed.nc"))
    if len(paths) < 2:
        fail(f"{directory}: {len(paths)} snapshots; the check needs at least two")
    global DIMS
    with h5py.File(paths[0], "r") as h5:
        if "y" in h5:
            DIMS = ("time", "z", "y", "x")
    start = start_of(paths[0])
    fields = [check_ncdump(path, start) for path in paths][0]
    run = xr.open_mfdataset(os.path.join(directory, "fields_*.nc"), engine="h5netcdf", combine="by_coords")
    check_cf_attributes(run)
    check_base_state(run)
    seconds, steps = [], []
    for path in paths:
        with h5py.File(path, "r") as h5:
            seconds.append(float(h5["time"][0]))
            steps.append(int(h5["step"][0]))
    if not np.array_equal(run["time"].values, dates(start, seconds)):
        fail(f"the run's times are {run['time'].values}, the snapshots' {dates(start, seconds)}")
    if run["step"].dims != ("time",) or run["step"].values.tolist() != steps:
        fail(f"the run's steps are {run['step'].values} on {run['step'].dims}, the snapshots' {steps}")
    for name in fields:
        if run[name].dims != DIMS:
            fail(f"{name}: dimensions {run[name].dims}")
        for n, path in enumerate(paths):
            with h5py.File(path, "r") as h5:
                if not np.array_equal(run[name].isel(time=n).values, h5[name][0]):
                    fail(f"{name} at {path}: xarray's values are not the HDF5 dataset's")
    for path, second in zip(paths, seconds):
        check_cdo(path, start, [second])
    check_changes(paths[-1])
    print(f"cf_interop_check: {len(paths)} snapshots, {len(fields)} fields on {dims_text()}, times {seconds} s "
          f"after {start}: ncdump, xarray open_mfdataset, cdo's dates and the CF attributes agree; ncks keeps the "
          f"bounds, ncatted and netCDF4 'a' change a snapshot")
    if len(sys.argv) > 2:
        check_series(os.path.join(sys.argv[2], "fields.nc"), paths, fields, start)


if __name__ == "__main__":
    main()
