#!/usr/bin/python3
"""scripts/plot_stats.py on made-up statistics files, written with h5py in the layout stats.nc has
(one unlimited dimension scale time in "seconds since <date>", step and every variable on it with
units and long_name):

  plot_stats_test.py SOURCE_DIR

A dry file gives the five dry panels, a file with water two more: the rain rates in mm/h (the
file's kg m-2 s-1 times 3600) and the precipitation; time is drawn in seconds; --reference shades
a JSON file's ranges on the largest-|w| panel and on the rain-rate panel (a rate in mm/day
converted), a bare name is a file of scripts/reference/; the PNG is written and the printed line
names the panels and the shading; a bad file or reference is a one-line error. Exits 77 (skipped)
without h5py, numpy, matplotlib, xarray or h5netcdf.
"""
import importlib
import json
import os
import sys
import tempfile

SKIPPED = 77
try:
    import h5netcdf  # noqa: F401
    import h5py
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.collections
    import matplotlib.image
    import matplotlib.pyplot
    import numpy as np
    import xarray as xr
except ImportError as e:
    print(f"skipped: {e} (install python3-h5py, python3-matplotlib, python3-numpy, python3-xarray and "
          "python3-h5netcdf)")
    sys.exit(SKIPPED)

source_dir = sys.argv[1]
scripts = os.path.join(source_dir, "scripts")
script = os.path.join(scripts, "plot_stats.py")
sys.path.insert(0, scripts)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from script_checks import check, check_png, finish, run_script  # noqa: E402

TIMES = np.arange(0.0, 7201.0, 600.0)  # two hours, a row every 10 minutes
DRY = ["mass", "total_energy", "d_mass", "d_te", "kinetic_energy", "max_abs_u", "max_abs_w", "min_theta_prime",
       "max_theta_prime", "cfl"]
WATER = ["water", "d_water", "clipped_water", "precipitation", "mean_rain_rate", "max_rain_rate"]



def value(name, t):
    """A made-up row: each variable's values are its own (max_rain_rate 1e-2 kg m-2 s-1 at the end, 36 mm/h)."""
    if name.endswith("rain_rate"):
        return (1e-2 if name == "max_rain_rate" else 1e-4) * t / TIMES[-1]
    return (1 + DRY.index(name) if name in DRY else 20 + WATER.index(name) if name in WATER else 40) + t / 1000.0


def write_stats(path, water, three_d=True):
    """A statistics file as simapp writes it, with the water's variables or without."""
    with h5py.File(path, "w") as f:
        f.attrs.update({"Conventions": "CF-1.10", "case": "synthetic", "title": "simapp synthetic: statistics"})
        time = f.create_dataset("time", data=TIMES, maxshape=(None,), chunks=(64,))
        time.attrs.update({"units": "seconds since 2000-01-01 00:00:00", "calendar": "proleptic_gregorian",
                           "standard_name": "time", "long_name": "time", "axis": "T"})
        time.make_scale("time")
        step = f.create_dataset("step", data=(TIMES * 2).astype(np.int64), maxshape=(None,), chunks=(64,))
        step.attrs.update({"units": "1", "long_name": "time step number"})
        step.dims[0].attach_scale(time)
        names = DRY + (["max_abs_v"] if three_d else []) + (WATER if water else [])
        for name in names:
            units = ("kg m-2 s-1" if name.endswith("rain_rate") else "kg" if name in ("water", "precipitation",
                     "clipped_water", "mass") else "m s-1" if name.startswith("max_abs") else "1")
            dataset = f.create_dataset(name, data=[value(name, t) for t in TIMES], maxshape=(None,), chunks=(64,))
            dataset.attrs.update({"units": units, "long_name": name.replace("_", " ")})
            dataset.dims[0].attach_scale(time)


def write_reference(path, **changes):
    """A made-up reference: max w from 10 to 20 m/s at 0 s up to 40 to 60 m/s at 7200 s; max rain rate
    in mm/day."""
    document = {"label": "made-up models", "source": "tests/scripts/plot_stats_test.py, no paper",
                "time": [0, 3600, 7200], "max_w": {"lower": [10, 30, 40], "upper": [20, 45, 60]},
                "max_rain_rate": {"units": "mm/day", "lower": [0, 240, 480], "upper": [24, 480, 960]}}
    document.update(changes)
    with open(path, "w") as f:
        json.dump(document, f)


def run(*args):
    return run_script(script, *args)




def panel(figure, name):
    """The axis whose lines include `name` (by its legend label), or None."""
    for axis in figure.axes:
        if any(line.get_label() == name for line in axis.get_lines()):
            return axis
    return None


def shading(axis):
    """The vertices' y range of each filled area of a panel, at its first and last time."""
    areas = [c for c in axis.collections if isinstance(c, matplotlib.collections.PolyCollection)]
    return [(float(path.vertices[:, 1].min()), float(path.vertices[:, 1].max()))
            for area in areas for path in area.get_paths()]


with tempfile.TemporaryDirectory() as work:
    plot_stats = importlib.import_module("plot_stats")
    dry, wet = os.path.join(work, "dry.nc"), os.path.join(work, "wet.nc")
    write_stats(dry, water=False)
    write_stats(wet, water=True)
    reference = os.path.join(work, "ranges.json")
    write_reference(reference)

    dry_panels = "d_mass, kinetic_energy, max_abs_u, min_theta_prime, cfl"
    out = os.path.join(work, "dry.png")
    status, stdout, stderr = run(dry, "--out", out)
    check(status == 0 and stdout.strip() == f"plot_stats: wrote {out} (5 panels: {dry_panels})",
          "a dry file: five panels, the line names them", stdout + stderr)
    check_png(out, "a dry file", 1000)
    status, stdout, stderr = run(wet)
    out = os.path.join(work, "stats.png")
    check(status == 0 and stdout.strip() == f"plot_stats: wrote {out} (7 panels: {dry_panels}, max_rain_rate, "
          "precipitation)", "a file with water: the rain rates and the precipitation too, into stats.png beside it",
          stdout + stderr)
    check_png(out, "a file with water", 1000)

    stats = xr.open_dataset(wet, engine="h5netcdf", decode_times=False)
    figure, drawn, shaded = plot_stats.figure(stats, "synthetic")
    rates = panel(figure, "max_rain_rate")
    lines = {line.get_label(): line for line in rates.get_lines()} if rates else {}
    check(rates is not None and rates.get_ylabel() == "rain rate at the ground (mm/h)"
          and set(lines) == {"max_rain_rate", "mean_rain_rate"}
          and np.allclose(lines["max_rain_rate"].get_ydata(), [value("max_rain_rate", t) * 3600 for t in TIMES])
          and np.isclose(lines["max_rain_rate"].get_ydata()[-1], 36.0)
          and np.allclose(lines["mean_rain_rate"].get_ydata(), [value("mean_rain_rate", t) * 3600 for t in TIMES]),
          "the rain rates in mm/h (kg m-2 s-1 times 3600), max and mean on one panel",
          f"{rates and rates.get_ylabel()}, {sorted(lines)}")
    precipitation = panel(figure, "precipitation")
    check(precipitation is not None and precipitation.get_ylabel() == "precipitation (kg)"
          and np.allclose(precipitation.get_lines()[0].get_ydata(), [value("precipitation", t) for t in TIMES]),
          "the precipitation on its own panel, in the file's units", precipitation and precipitation.get_ylabel())
    check(np.array_equal(lines["max_rain_rate"].get_xdata(), TIMES) and figure.axes[-1].get_xlabel() == "time (s)",
          "time in seconds, not dates", f"{lines['max_rain_rate'].get_xdata()[:3]}")
    check(shaded == [] and all(not shading(axis) for axis in figure.axes), "no reference: nothing shaded")
    matplotlib.pyplot.close(figure)

    out = os.path.join(work, "reference.png")
    status, stdout, stderr = run(wet, "--out", out, "--reference", reference)
    check(status == 0 and stdout.strip() == f"plot_stats: wrote {out} (7 panels: {dry_panels}, max_rain_rate, "
          "precipitation; 'made-up models' shaded on max_abs_w, max_rain_rate)",
          "--reference FILE: the line says what is shaded", stdout + stderr)
    check_png(out, "--reference FILE", 1000)
    figure, drawn, shaded = plot_stats.figure(stats, "synthetic", plot_stats.load_reference(reference))
    w_range, rate_range = shading(panel(figure, "max_abs_w")), shading(panel(figure, "max_rain_rate"))
    check(shaded == ["max_abs_w", "max_rain_rate"] and w_range == [(10.0, 60.0)] and rate_range == [(0.0, 40.0)],
          "--reference: max w shaded from 10 to 60 m/s, the max rain rate from 0 to 40 mm/h (960 mm/day)",
          f"{shaded}, {w_range}, {rate_range}")
    check(all(not shading(axis) for axis in figure.axes if axis not in (panel(figure, "max_abs_w"),
                                                                        panel(figure, "max_rain_rate"))),
          "--reference: no other panel shaded")
    matplotlib.pyplot.close(figure)

    status, stdout, stderr = run(dry, "--out", os.path.join(work, "dry.png"), "--reference", reference)
    check(status == 0 and f"{dry} holds no water: the reference's max_rain_rate is not drawn" in stdout
          and stdout.strip().endswith("'made-up models' shaded on max_abs_w)"),
          "--reference on a dry file: max w shaded, a note for the rain rate", stdout + stderr)

    check(plot_stats.reference_path("dcmip2016") == plot_stats.REFERENCES / "dcmip2016.json"
          and plot_stats.REFERENCES == plot_stats.pathlib.Path(scripts).resolve() / "reference"
          and plot_stats.reference_path(reference) == plot_stats.pathlib.Path(reference),
          "--reference NAME is scripts/reference/NAME.json, a path the file itself",
          f"{plot_stats.reference_path('dcmip2016')}")

    def error(args, message, what):
        status, stdout, stderr = run(*args)
        check(status != 0 and stderr.count("\n") <= 1 and stderr.strip() == f"plot_stats: error: {message}",
              f"{what} is a one-line error", f"{status} {stderr}")

    missing = os.path.join(work, "none.json")
    error([wet, "--reference", missing], f"--reference {missing}: no such file {missing}", "a missing reference")
    error([wet, "--reference", "no_such_reference"], "--reference no_such_reference: no such file "
          f"{os.path.join(os.path.realpath(scripts), 'reference', 'no_such_reference.json')}", "an unknown NAME")
    for changes, message, what in (
            ({"max_w": {"lower": [1, 2], "upper": [3, 4]}}, "max_w has 2 lower and 2 upper values for 3 times",
             "ranges and times of different lengths"),
            ({"max_w": {"lower": [1, 50, 2], "upper": [3, 4, 5]}}, "max_w has a lower value above its upper one",
             "a lower value above the upper"),
            ({"time": [0, 10, 5]}, "time must increase", "times out of order"),
            ({"max_w": None}, "max_w must be an object with lower and upper", "max_w not an object"),
            ({"max_rain_rate": {"units": "in/h", "lower": [0, 0, 0], "upper": [1, 1, 1]}},
             "max_rain_rate.units 'in/h': expected one of mm/h, mm/day, kg m-2 s-1", "a rate in unknown units"),
            ({"time": [0, "an hour", 7200]}, "time must be a non-empty list of finite numbers", "a time not a number")):
        write_reference(reference, **changes)
        error([wet, "--reference", reference], f"--reference {reference}: {message}", what)
    with open(reference, "w") as f:
        f.write("{not json")
    status, stdout, stderr = run(wet, "--reference", reference)
    check(status != 0 and stderr.count("\n") <= 1 and stderr.startswith(f"plot_stats: error: --reference {reference}: "
                                                                        "not a readable JSON file"),
          "a reference that is not JSON is a one-line error", stderr)
    not_stats = os.path.join(work, "not_stats.nc")
    with h5py.File(not_stats, "w") as f:
        f.create_dataset("x", data=[1.0, 2.0])
    status, stdout, stderr = run(not_stats)
    check(status != 0 and stderr.count("\n") <= 1 and stderr.startswith(f"plot_stats: error: {not_stats}: "),
          "a file that is not a statistics file is a one-line error", stderr)
    no_w = os.path.join(work, "no_w.nc")
    write_stats(no_w, water=False)
    with h5py.File(no_w, "a") as f:
        del f["max_abs_w"]
    error([no_w], f"{no_w}: not a statistics file (no time dimension and max_abs_w)", "a file without max_abs_w")
finish()
