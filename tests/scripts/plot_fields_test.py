#!/usr/bin/python3
"""scripts/plot_fields.py on made-up 2-D and 3-D snapshots, written with h5py in the layout simapp's
snapshots have (CF dimension scales time, z, [y,] x with their bounds; rho_prime, theta_prime, u,
[v,] w with units and long_name):

  plot_fields_test.py SOURCE_DIR

Each file's PNG is written, readable, of a sensible size and not of one colour; of a 3-D one the
printed line names the slices, and the slices drawn (the colour meshes and wind vectors of the
figure) are the field's x–z row j = ny // 2 and its x–y layer at --height; of a file of several
output times (the series layout), the last time, or the one --time or --step names, titled with
its time and step; time in "s" or in CF's "seconds since <date>"; of a run's directory, its last
snapshot or series time, or the one --time or --step names; the water (qv, qc, qr in kg/kg) on a
sequential colour map from 0, blank at 0 and below, in g/kg (or kg/kg), and --field water, qc
shaded with qr's contours, in 2-D and on both 3-D slices, the printed line saying the range and the
levels; bad input is a one-line error. Exits 77 (skipped) without h5py, numpy or matplotlib.
"""
import importlib
import os
import sys
import tempfile

SKIPPED = 77
try:
    import h5py
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.collections
    import matplotlib.colors
    import matplotlib.image
    import matplotlib.pyplot
    import matplotlib.quiver
    import matplotlib.text
    import numpy as np
except ImportError as e:
    print(f"skipped: {e} (install python3-h5py, python3-matplotlib and python3-numpy)")
    sys.exit(SKIPPED)

source_dir = sys.argv[1]
scripts = os.path.join(source_dir, "scripts")
script = os.path.join(scripts, "plot_fields.py")
sys.path.insert(0, scripts)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from script_checks import check, check_png, finish, run_script  # noqa: E402

NX, NY, NZ = 16, 6, 8
DX, DY, DZ = 1000.0, 1500.0, 1000.0  # x ∈ [0, 16] km, y ∈ [0, 9] km, z ∈ [0, 8] km
U, V, W = 4.0, -2.0, 3.0  # the wind is constant, so that each panel's vectors show which components it drew



def theta(k, j, i):
    """theta_prime of cell (k, j, i): its layer and row can be read off its value."""
    return 10.0 * k + j + 0.01 * i


def scale(f, name, cells, spacing, attrs):
    centres = f.create_dataset(name, data=(np.arange(cells) + 0.5) * spacing)
    centres.attrs.update(attrs)
    centres.attrs["bounds"] = f"{name}_bnds"
    centres.make_scale(name)
    edges = np.arange(cells + 1) * spacing
    bounds = f.create_dataset(f"{name}_bnds", data=np.stack([edges[:-1], edges[1:]], axis=1))
    bounds.attrs.update({"long_name": f"{name} of the cell edges", "units": "m"})
    bounds.dims[0].attach_scale(centres)
    bounds.dims[1].attach_scale(f["bnds"])


def write_snapshot(path, three_d, y_scale=True, layout=None, times=(10.0,), steps=(10,), time_units="s",
                   per_time_attributes=True):
    """A snapshot at t = 10 s (step 10), or a series of the output times `times` (steps `steps`, in
    step(time)); at time index n theta_prime is its value at t = 10 s plus 1000 n. three_d: fields
    (time, z, y, x) with a y scale unless y_scale is False; layout: the scales to attach to a field's
    dimensions instead of (time, z, [y,] x); time_units: "s" or CF's "seconds since <date>";
    per_time_attributes: the time and step as global attributes too (a per-time snapshot's)."""
    with h5py.File(path, "w") as f:
        f.attrs.update({"Conventions": "CF-1.10", "case": "synthetic", "nx": NX, "nz": NZ})
        if per_time_attributes:
            f.attrs.update({"step": steps[0], "time": times[0]})
        time = f.create_dataset("time", data=list(times), maxshape=(None,))
        time.attrs.update({"axis": "T", "long_name": "time", "standard_name": "time", "units": time_units})
        time.make_scale("time")
        if len(times) > 1 or not per_time_attributes:
            step = f.create_dataset("step", data=list(steps), maxshape=(None,))
            step.attrs.update({"long_name": "time step number", "units": "1"})
            step.dims[0].attach_scale(time)
        bnds = f.create_dataset("bnds", data=[0.0, 1.0])
        bnds.attrs.update({"long_name": "the two ends of a cell", "units": "1"})
        bnds.make_scale("bnds")
        scale(f, "x", NX, DX, {"axis": "X", "long_name": "x of the cell centres",
                               "standard_name": "projection_x_coordinate", "units": "m"})
        scale(f, "z", NZ, DZ, {"axis": "Z", "long_name": "height of the cell centres", "positive": "up",
                               "standard_name": "height", "units": "m"})
        k, j, i = np.meshgrid(np.arange(NZ), np.arange(NY), np.arange(NX), indexing="ij")
        if three_d:
            f.attrs["ny"] = NY
            if y_scale:
                scale(f, "y", NY, DY, {"axis": "Y", "long_name": "y of the cell centres",
                                       "standard_name": "projection_y_coordinate", "units": "m"})
            dims, values = layout or (("time", "z", "y", "x") if y_scale else ("time", "z", None, "x")), theta(k, j, i)
        else:
            dims, values = layout or ("time", "z", "x"), theta(k[:, 0], 0, i[:, 0])
        fields = {"rho_prime": ("kg m-3", "density perturbation", -1e-3 * values),
                  "theta_prime": ("K", "potential temperature perturbation", values),
                  "u": ("m s-1", "x wind", np.full_like(values, U)),
                  "w": ("m s-1", "vertical velocity", np.full_like(values, W))}
        if three_d:
            fields["v"] = ("m s-1", "y wind", np.full_like(values, V))
        for name, (units, long_name, data) in fields.items():
            field = f.create_dataset(name, data=np.stack([data + (1000.0 * n if name == "theta_prime" else 0.0) for n in range(len(times))]))
            field.attrs.update({"units": units, "long_name": long_name})
            for dim, scale_name in zip(field.dims, dims):
                if scale_name:
                    dim.attach_scale(f[scale_name])


def run(*args):
    return run_script(script, *args)




def meshes(figure):
    """Each panel's title (left), colour mesh values and wind vectors (U, V), panels top to bottom."""
    drawn = []
    for axis in figure.axes:
        quadmesh = [c for c in axis.collections if isinstance(c, matplotlib.collections.QuadMesh)]
        quiver = [c for c in axis.collections if isinstance(c, matplotlib.quiver.Quiver)]
        if quadmesh and axis.get_xlabel():  # not a colour bar
            drawn.append((axis.get_title(loc="left"), np.asarray(quadmesh[0].get_array()),
                          (np.asarray(quiver[0].U), np.asarray(quiver[0].V)) if quiver else None))
    return drawn


def summary(drawn):
    """What meshes() found, short: each panel's title, first column of values and first wind vector."""
    return "; ".join(f"'{title}': values[::{NX}] {np.round(values[::NX], 2).tolist()}, wind "
                     + (f"({wind[0][0]:g}, {wind[1][0]:g})" if wind else "none") for title, values, wind in drawn)


def two_d_tests(work, plot_fields):
    path = os.path.join(work, "fields_000010.nc")
    write_snapshot(path, three_d=False)
    out = os.path.join(work, "out2d")
    status, stdout, stderr = run(path, "--out", out)
    png = os.path.join(out, "fields_000010.png")
    check(status == 0 and stdout.strip() == f"plot_fields: wrote {png}",
          "2-D: draws the file, and the line names only the PNG", stdout + stderr)
    check_png(png, "2-D", 300, 1000)
    status, stdout, stderr = run(path, "--out", out, "--contours=0:70:5", "--xlim=2:12", "--field", "theta_prime")
    check(status == 0 and stdout.strip() == f"plot_fields: wrote {png}", "2-D: --contours and --xlim as before",
          stdout + stderr)
    check_png(png, "2-D contours", 300, 1000)
    figure, slices = plot_fields.figure(plot_fields.load(path, "theta_prime"), "theta_prime")
    drawn = meshes(figure)
    expected = theta(np.arange(NZ)[:, None], 0, np.arange(NX)[None, :])
    check(slices is None and len(drawn) == 1 and np.array_equal(drawn[0][1].reshape(NZ, NX), expected)
          and np.all(drawn[0][2][0] == U) and np.all(drawn[0][2][1] == W),
          "2-D: one x–z panel of the field, with (u, w)", summary(drawn))
    check("synthetic: theta_prime at t = 10 s (step 10)" in texts(figure), "2-D: titled with the snapshot's time and step",
          texts(figure))

    status, stdout, stderr = run(path, "--out", out, "--height", "2500")
    check(status != 0 and stderr.strip() == f"plot_fields: error: {path}: --height is for 3-D snapshots, and "
          "'theta_prime' is 2-D (time, z, x)", "2-D: --height is a one-line error", stderr)


def three_d_tests(work, plot_fields):
    path = os.path.join(work, "fields_000010.nc")
    write_snapshot(path, three_d=True)
    out = os.path.join(work, "out3d")
    png = os.path.join(out, "fields_000010.png")
    j = NY // 2
    y = (j + 0.5) * DY  # 5250 m
    for height, k, what in ((None, NZ // 2, "default: the middle of the domain, 4000 m, an edge: the row above"),
                            ("2500", 2, "a cell centre"), ("2000", 2, "an edge: the row above"),
                            ("2999", 2, "within a cell"), ("0", 0, "the bottom"), ("8000", NZ - 1, "the top")):
        status, stdout, stderr = run(path, "--out", out, *(["--height", height] if height else []))
        z = (k + 0.5) * DZ
        named = f"x–z at y = {y:g} m, x–y at z = {z:g} m"
        check(status == 0 and stdout.strip() == f"plot_fields: wrote {png} ({named})",
              f"3-D --height {height}: {what}, the line names the slices (row j = {j}, layer k = {k})",
              stdout + stderr)
        figure, slices = plot_fields.figure(plot_fields.load(path, "theta_prime", height and float(height)),
                                            "theta_prime")
        drawn = meshes(figure)
        kk, jj, ii = np.meshgrid(np.arange(NZ), np.arange(NY), np.arange(NX), indexing="ij")
        xz, xy = theta(kk, jj, ii)[:, j, :], theta(kk, jj, ii)[k]
        check(slices == named and len(drawn) == 2 and drawn[0][0] == f"x–z at y = {y:g} m (j = {j})"
              and np.array_equal(drawn[0][1].reshape(NZ, NX), xz)
              and drawn[1][0] == f"x–y at z = {z:g} m (k = {k})" and np.array_equal(drawn[1][1].reshape(NY, NX), xy),
              f"3-D --height {height}: draws theta_prime[:, {j}, :] above and theta_prime[{k}] below", summary(drawn))
        check(len(drawn) == 2 and drawn[0][2] is not None and np.all(drawn[0][2][0] == U)
              and np.all(drawn[0][2][1] == W) and drawn[1][2] is not None and np.all(drawn[1][2][0] == U)
              and np.all(drawn[1][2][1] == V), f"3-D --height {height}: wind (u, w) on x–z, (u, v) on x–y",
              summary(drawn))
        matplotlib.pyplot.close(figure)
    check_png(png, "3-D", 300, 1000)
    status, stdout, stderr = run(path, "--out", out, "--contours=0:80:5", "--xlim=2:12", "--field", "theta_prime")
    check(status == 0 and stdout.strip().startswith(f"plot_fields: wrote {png} (x–z at"),
          "3-D: --contours and --xlim", stdout + stderr)
    check_png(png, "3-D contours", 300, 1000)
    status, stdout, stderr = run(path, "--out", out, "--field", "v")
    check(status == 0, "3-D: --field v (the y wind)", stdout + stderr)

    def error(args, message, what):
        status, stdout, stderr = run(*args)
        check(status != 0 and stderr.count("\n") <= 1 and stderr.strip() == f"plot_fields: error: {message}",
              f"3-D: {what} is a one-line error", f"{status} {stderr}")

    for height in ("8000.5", "-1", "nan"):
        error([path, "--out", out, "--height", height],
              f"{path}: --height {float(height):g} m is outside the domain (z from 0 to 8000 m)",
              f"--height {height}, outside the domain")
    error([path, "--out", out, "--height", "2 km"], "--height '2 km': expected a height in metres",
          "--height that is not a number")
    no_y = os.path.join(work, "no_y.h5")
    write_snapshot(no_y, three_d=True, y_scale=False)
    error([no_y, "--out", out], f"{no_y}: 'theta_prime' is 3-D (1, {NZ}, {NY}, {NX}) but has no y scale (expected "
          "dimensions (time, z, y, x), with datasets y and y_bnds)", "a 3-D field without a y scale")
    swapped = os.path.join(work, "swapped.h5")
    write_snapshot(swapped, three_d=True, layout=("time", "y", "z", "x"))
    error([swapped, "--out", out], f"{swapped}: 'theta_prime' has dimensions (time, y, z, x), not (time, z, y, x)",
          "a 3-D field whose scales are in another order")
    check(not os.path.exists(os.path.join(out, "no_y.png")) and not os.path.exists(os.path.join(out, "swapped.png")),
          "3-D: no PNG for a file refused")


def texts(figure):
    """Every text of the figure: its titles, labels and the suptitle."""
    return [text.get_text() for text in figure.findobj(matplotlib.text.Text)]


def series_tests(work, plot_fields):
    """A file of several output times (the series layout's fields.nc): the last is drawn by default,
    --time and --step choose another, the title and the PNG's name say which; and a per-time snapshot
    whose time and step are variables on time, with time in CF's "seconds since" units."""
    out = os.path.join(work, "out")
    times, steps = (0.0, 10.0, 20.0), (0, 60, 120)
    base = theta(np.arange(NZ)[:, None], 0, np.arange(NX)[None, :])
    for units in ("s", "seconds since 2000-01-01 00:00:00"):
        path = os.path.join(work, "fields.nc")
        write_snapshot(path, three_d=False, times=times, steps=steps, time_units=units, per_time_attributes=False)
        for choice, index in (([], 2), (["--time", "10"], 1), (["--step", "0"], 0), (["--time", "20.0"], 2)):
            what = f"series, time in '{units}', {' '.join(choice) or 'by default'}: draws t = {times[index]:g} s"
            if units == "s":  # the command line once; the other units in-process only, for speed
                png = os.path.join(out, f"fields_{steps[index]:06d}.png")
                status, stdout, stderr = run(path, "--out", out, *choice)
                check(status == 0 and stdout.strip() == f"plot_fields: wrote {png}", f"{what}, into {png}",
                      stdout + stderr)
                check_png(png, what, 300, 1000)
            when = None
            if choice:
                when = ("time", float(choice[1])) if choice[0] == "--time" else ("step", int(choice[1]))
            data = plot_fields.load(path, "theta_prime", when=when) if when else plot_fields.load(path, "theta_prime")
            figure, _ = plot_fields.figure(data, "theta_prime")
            drawn = meshes(figure)
            title = f"synthetic: theta_prime at t = {times[index]:g} s (step {steps[index]})"
            check(title in texts(figure) and len(drawn) == 1
                  and np.array_equal(drawn[0][1].reshape(NZ, NX), base + 1000.0 * index),
                  f"{what}: titled '{title}', the values of that time", f"{texts(figure)}; {summary(drawn)}")
            matplotlib.pyplot.close(figure)

    def error(args, message, what):
        status, stdout, stderr = run(*args)
        check(status != 0 and stderr.count("\n") <= 1 and stderr.strip() == f"plot_fields: error: {message}",
              f"series: {what} is a one-line error", f"{status} {stderr}")

    error([path, "--out", out, "--time", "15"], f"{path}: no output time t = 15 s (3 times, t = 0, 10, 20 s)",
          "--time that is not an output time")
    error([path, "--out", out, "--step", "7"], f"{path}: no output step 7 (3 times, steps 0, 60, 120)",
          "--step that is not an output step")
    error([path, "--out", out, "--time", "ten"], "--time 'ten': expected a time in seconds", "--time not a number")

    three_d = os.path.join(work, "fields3d.nc")
    write_snapshot(three_d, three_d=True, times=times, steps=steps, per_time_attributes=False)
    png = os.path.join(out, f"fields3d_{steps[2]:06d}.png")
    status, stdout, stderr = run(three_d, "--out", out)
    check(status == 0 and stdout.strip().startswith(f"plot_fields: wrote {png} (x–z at"),
          "3-D series: draws the last time by default", stdout + stderr)
    figure, _ = plot_fields.figure(plot_fields.load(three_d, "theta_prime"), "theta_prime")
    drawn = meshes(figure)
    kk, jj, ii = np.meshgrid(np.arange(NZ), np.arange(NY), np.arange(NX), indexing="ij")
    check("synthetic: theta_prime at t = 20 s (step 120)" in texts(figure) and len(drawn) == 2
          and np.array_equal(drawn[0][1].reshape(NZ, NX), theta(kk, jj, ii)[:, NY // 2, :] + 2000.0),
          "3-D series: titled with the last time, its values", f"{texts(figure)}; {summary(drawn)}")
    matplotlib.pyplot.close(figure)

    snapshot = os.path.join(work, "fields_000010.nc")
    write_snapshot(snapshot, three_d=False, time_units="seconds since 2000-01-01 00:00:00", per_time_attributes=False)
    png = os.path.join(out, "fields_000010.png")
    status, stdout, stderr = run(snapshot, "--out", out, "--time", "10")
    check(status == 0 and stdout.strip() == f"plot_fields: wrote {png}",
          "a per-time .nc snapshot, time and step as variables: named after the file", stdout + stderr)
    figure, _ = plot_fields.figure(plot_fields.load(snapshot, "theta_prime"), "theta_prime")
    check("synthetic: theta_prime at t = 10 s (step 10)" in texts(figure),
          "a per-time .nc snapshot, time and step as variables: titled t = 10 s (step 10)", texts(figure))
    matplotlib.pyplot.close(figure)


def directory_tests(work, plot_fields):
    """A run's output directory: its last snapshot (.h5 or .nc alike), or the one holding --time or
    --step; or the last time of its series fields.nc."""
    run_dir = os.path.join(work, "run")
    os.makedirs(run_dir)
    write_snapshot(os.path.join(run_dir, "fields_000000.h5"), three_d=False, times=(0.0,), steps=(0,))
    write_snapshot(os.path.join(run_dir, "fields_000060.nc"), three_d=False, times=(10.0,), steps=(60,),
                   time_units="seconds since 2000-01-01 00:00:00", per_time_attributes=False)
    out = os.path.join(work, "out")
    for choice, png in (([], "fields_000060.png"), (["--step", "0"], "fields_000000.png"),
                        (["--time", "10"], "fields_000060.png")):
        status, stdout, stderr = run(run_dir, "--out", out, *choice)
        check(status == 0 and stdout.strip() == f"plot_fields: wrote {os.path.join(out, png)}",
              f"a directory of snapshots, {' '.join(choice) or 'by default'}: draws {png}", stdout + stderr)
    status, stdout, stderr = run(run_dir, "--time", "5")
    check(status != 0 and stderr.strip() == f"plot_fields: error: {run_dir}: no output time t = 5 s in its 2 snapshots",
          "a directory of snapshots, --time that none holds: a one-line error", f"{status} {stderr}")
    series_dir = os.path.join(work, "series")
    os.makedirs(series_dir)
    write_snapshot(os.path.join(series_dir, "fields.nc"), three_d=False, times=(0.0, 10.0, 20.0), steps=(0, 60, 120),
                   per_time_attributes=False)
    status, stdout, stderr = run(series_dir)
    png = os.path.join(series_dir, "fields_000120.png")
    check(status == 0 and stdout.strip() == f"plot_fields: wrote {png}", "a directory of a series: its last time, "
          "the PNG beside it", stdout + stderr)
    empty = os.path.join(work, "empty")
    os.makedirs(empty)
    status, stdout, stderr = run(empty)
    check(status != 0 and stderr.strip() == f"plot_fields: error: {empty}: no output files (fields_<step>.nc, "
          "fields_<step>.h5 or fields.nc)", "a directory without output files: a one-line error", f"{status} {stderr}")


def cloud(k, j, i):
    """qc (kg/kg) of cell (k, j, i): a cloud of 2 g/kg at (k, j, i) = (4, 3, 8), none far from it, and
    one cell slightly below 0 (what the microphysics' clips leave)."""
    values = np.maximum(2e-3 - 5e-4 * (np.abs(i - 8) + np.abs(k - 4) + np.abs(j - NY // 2)), 0.0)
    values[(k == 0) & (i == 0)] = -1e-9
    return values


def rain(k, j, i):
    """qr (kg/kg) of cell (k, j, i): 1.5 g/kg at the ground below the cloud, less higher up."""
    return np.maximum(1.5e-3 - 5e-4 * (np.abs(i - 8) + k + np.abs(j - NY // 2)), 0.0)


def add_water(path, three_d, rainy=True, with_rain=True):
    """qv, qc and qr (kg kg-1) added to a snapshot of write_snapshot, on its fields' dimensions; qr 0
    everywhere unless rainy, and missing without with_rain."""
    with h5py.File(path, "a") as f:
        k, j, i = np.meshgrid(np.arange(NZ), np.arange(NY), np.arange(NX), indexing="ij")
        if not three_d:
            k, j, i = k[:, NY // 2], j[:, NY // 2], i[:, NY // 2]
        water = {"qv": 15e-3 - 1e-3 * k, "qc": cloud(k, j, i), "qr": rain(k, j, i) if rainy else 0.0 * k}
        for name, values in water.items():
            if name == "qr" and not with_rain:
                continue
            field = f.create_dataset(name, data=values[None])
            field.attrs.update({"units": "kg kg-1", "long_name": f"{name} mixing ratio"})
            for dim, other in zip(field.dims, f["theta_prime"].dims):
                dim.attach_scale(other[0])


def rain_levels(axis):
    """How many rain contour levels (crimson lines) a panel has."""
    crimson = matplotlib.colors.to_rgba("crimson")
    lines = [c for c in axis.collections if not isinstance(c, matplotlib.collections.QuadMesh)
             and len(c.get_edgecolor()) and tuple(c.get_edgecolor()[0]) == crimson]
    if len(lines) == 1 and hasattr(lines[0], "levels"):  # matplotlib 3.8 and later: one ContourSet
        return len(lines[0].levels)
    return len(lines)


def water_panels(figure):
    """Each panel's QuadMesh and rain levels, top to bottom (not the colour bars)."""
    return [([c for c in axis.collections if isinstance(c, matplotlib.collections.QuadMesh)][0], rain_levels(axis))
            for axis in figure.axes if axis.get_xlabel()]


def water_tests(work, plot_fields):
    path = os.path.join(work, "fields_000010.nc")
    write_snapshot(path, three_d=False)
    add_water(path, three_d=False)
    out = os.path.join(work, "out")
    png = os.path.join(out, "fields_000010.png")
    k, i = np.meshgrid(np.arange(NZ), np.arange(NX), indexing="ij")
    for choice, line in ((["--field", "qc"], "qc: 0 to 2 g/kg"),
                         (["--field", "qc", "--water-units", "kg/kg"], "qc: 0 to 0.002 kg kg-1"),
                         (["--field", "qv"], "qv: 0 to 15 g/kg"), (["--field", "qr"], "qr: 0 to 1.5 g/kg"),
                         (["--field", "water"], "qc shaded 0 to 2 g/kg; qr contours 0.5 to 1.5 every 0.5 g/kg"),
                         (["--field", "water", "--contours=0.25:1:0.25"],
                          "qc shaded 0 to 2 g/kg; qr contours 0.25 to 1 every 0.25 g/kg")):
        what = f"2-D {' '.join(choice)}"
        status, stdout, stderr = run(path, "--out", out, *choice)
        check(status == 0 and stdout.strip() == f"plot_fields: wrote {png} ({line})",
              f"{what}: the line gives what was drawn, '{line}'", stdout + stderr)
        check_png(png, what, 300, 1000)

    figure, drawn = plot_fields.figure(plot_fields.load(path, "qc"), "qc")
    (mesh, levels), = water_panels(figure)
    values = mesh.get_array()
    expected = cloud(k, NY // 2, i) * 1e3
    check(drawn == "qc: 0 to 2 g/kg" and mesh.cmap.name == "Blues" and mesh.get_clim() == (0.0, 2.0)
          and np.array_equal(np.ma.getmaskarray(values).reshape(NZ, NX), expected <= 0)
          and np.allclose(np.ma.filled(values, 0.0).reshape(NZ, NX), np.maximum(expected, 0.0), rtol=1e-12, atol=0)
          and levels == 0 and "qc (g/kg)" in texts(figure),
          "2-D qc: g/kg on Blues from 0 to the largest value, 0 and below blank (masked), the colour bar "
          "labelled 'qc (g/kg)'", f"{drawn}, {mesh.cmap.name}, {mesh.get_clim()}, {texts(figure)}")
    matplotlib.pyplot.close(figure)
    figure, drawn = plot_fields.figure(plot_fields.load(path, "water"), "water")
    (mesh, levels), = water_panels(figure)
    check(mesh.cmap.name == "Blues" and mesh.get_clim() == (0.0, 2.0) and levels == 3
          and np.allclose(np.ma.filled(mesh.get_array(), 0.0).reshape(NZ, NX), np.maximum(expected, 0.0))
          and "synthetic: cloud water qc (shaded), rain water qr (contours, g/kg) at t = 10 s (step 10)"
          in texts(figure),
          "2-D water: qc shaded, qr's 3 contour levels (0.5, 1, 1.5 g/kg) on the same panel",
          f"{mesh.cmap.name}, {mesh.get_clim()}, {levels} levels, {texts(figure)}")
    matplotlib.pyplot.close(figure)
    figure, _ = plot_fields.figure(plot_fields.load(path, "theta_prime"), "theta_prime")
    (mesh, _), = water_panels(figure)
    check(mesh.cmap.name == "RdBu_r" and mesh.get_clim()[0] == -mesh.get_clim()[1],
          "theta_prime keeps the diverging map, symmetric about 0", f"{mesh.cmap.name}, {mesh.get_clim()}")
    matplotlib.pyplot.close(figure)

    dry = os.path.join(work, "dry.nc")
    write_snapshot(dry, three_d=False)
    add_water(dry, three_d=False, rainy=False)
    status, stdout, stderr = run(dry, "--out", out, "--field", "water")
    check(status == 0 and stdout.strip() == f"plot_fields: wrote {os.path.join(out, 'dry.png')} "
          "(qc shaded 0 to 2 g/kg; qr none)", "2-D water without rain: the line says 'qr none'", stdout + stderr)

    three_d = os.path.join(work, "fields3d.nc")
    write_snapshot(three_d, three_d=True)
    add_water(three_d, three_d=True)
    png = os.path.join(out, "fields3d.png")
    status, stdout, stderr = run(three_d, "--out", out, "--field", "water", "--height", "500")
    check(status == 0 and stdout.strip() == f"plot_fields: wrote {png} (x–z at y = {(NY // 2 + 0.5) * DY:g} m, "
          "x–y at z = 500 m; qc shaded 0 to 2 g/kg; qr contours 0.5 to 1.5 every 0.5 g/kg)",
          "3-D water: the line names the slices, the range and the levels", stdout + stderr)
    check_png(png, "3-D water", 300, 1000)
    figure, _ = plot_fields.figure(plot_fields.load(three_d, "water", 500.0), "water")
    panels = water_panels(figure)
    kk, jj, ii = np.meshgrid(np.arange(NZ), np.arange(NY), np.arange(NX), indexing="ij")
    qc = np.maximum(cloud(kk, jj, ii) * 1e3, 0.0)
    check(len(panels) == 2 and all(mesh.get_clim() == (0.0, 2.0) for mesh, _ in panels)
          and np.allclose(np.ma.filled(panels[0][0].get_array(), 0.0).reshape(NZ, NX), qc[:, NY // 2, :])
          and np.allclose(np.ma.filled(panels[1][0].get_array(), 0.0).reshape(NY, NX), qc[0])
          and panels[0][1] == 3 and panels[1][1] == 3,
          "3-D water: qc's x–z row j = ny // 2 and x–y layer k = 0 on one scale, qr's contours on both",
          f"{[(mesh.get_clim(), levels) for mesh, levels in panels]}")
    matplotlib.pyplot.close(figure)

    no_rain = os.path.join(work, "no_rain.nc")
    write_snapshot(no_rain, three_d=False)
    add_water(no_rain, three_d=False, with_rain=False)
    status, stdout, stderr = run(no_rain, "--out", out, "--field", "water")
    check(status != 0 and stderr.count("\n") <= 1 and stderr.strip() == f"plot_fields: error: {no_rain}: no field "
          "'qr' (fields: qc, qv, rho_prime, theta_prime, u, w)", "water without qr: a one-line error", stderr)


with tempfile.TemporaryDirectory() as work:
    plot_fields = importlib.import_module("plot_fields")
    for part, tests in (("2d", two_d_tests), ("3d", three_d_tests), ("series", series_tests),
                        ("directories", directory_tests), ("water", water_tests)):
        os.makedirs(os.path.join(work, part))
        tests(os.path.join(work, part), plot_fields)
finish()
