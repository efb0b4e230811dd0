#!/usr/bin/python3
"""Draws one field of simapp snapshots (HDF5) as a colour map with wind vectors, one PNG each.

usage: scripts/plot_fields.py FILE.h5 [FILE.h5 ...] [--out DIR] [--field theta_prime] [--contours LO:HI:STEP]
                              [--xlim X0:X1]

--contours draws contour lines at LO, LO + STEP, …, HI instead of the colour map and wind, as
the density-current benchmark's figure does (straka: --contours=-16.5:-0.5:1 --xlim=25.6:44);
--xlim shows x ∈ [X0, X1] km only.
"""
import argparse
import os
import sys

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np
    import h5py
    from mpl_toolkits.axes_grid1 import make_axes_locatable
except ImportError as error:
    sys.exit(f"plot_fields: error: {error} (install python3-matplotlib, python3-numpy and python3-h5py)")

ARROWS = (25, 15)  # about this many wind vectors across x and z


def fail(message):
    sys.exit(f"plot_fields: error: {message}")


def text(value):
    return value.decode() if isinstance(value, bytes) else str(value)


def dataset(snapshot, path, name, what):
    """A dataset's values; a field's (time, z, x) of one time as (z, x)."""
    if name not in snapshot:
        fields = ", ".join(sorted(k for k, v in snapshot.items() if v.ndim == 3)) or "none"
        fail(f"{path}: no {what} '{name}' (fields: {fields})")
    values = snapshot[name][()]
    return values[0] if values.ndim == 3 else values


def edges(bounds):
    """The cell edges from CF cell bounds [cells][2]."""
    return np.append(bounds[:, 0], bounds[-1, 1])


def load(path, field):
    """The field, the mesh, the wind (None when u or w is missing) and the run's attributes."""
    if not os.path.isfile(path):
        fail(f"{path}: no such file")
    try:
        snapshot = h5py.File(path, "r")
    except OSError as error:
        fail(f"{path}: cannot read as HDF5 ({error})")
    with snapshot:
        data = {
            "values": dataset(snapshot, path, field, "field"),
            "units": text(snapshot[field].attrs.get("units", "")),
            "x_nodes": edges(dataset(snapshot, path, "x_bnds", "dataset")),
            "z_nodes": edges(dataset(snapshot, path, "z_bnds", "dataset")),
            "x": dataset(snapshot, path, "x", "dataset"),
            "z": dataset(snapshot, path, "z", "dataset"),
            "wind": None,
            "case": text(snapshot.attrs.get("case", "?")),
            "time": float(snapshot.attrs.get("time", float("nan"))),
            "step": int(snapshot.attrs.get("step", -1)),
        }
        if "u" in snapshot and "w" in snapshot:
            data["wind"] = (dataset(snapshot, path, "u", "field"), dataset(snapshot, path, "w", "field"))
    return data


def draw_wind(axis, data):
    u, w = data["wind"]
    speed = float(np.max(np.hypot(u, w)))
    if speed == 0.0:
        return
    sz, sx = (max(1, n // arrows) for n, arrows in zip(u.shape, reversed(ARROWS)))
    rows, columns = slice(sz // 2, None, sz), slice(sx // 2, None, sx)
    x, z = np.meshgrid(data["x"][columns] / 1e3, data["z"][rows] / 1e3)
    spacing = min(x[0, 1] - x[0, 0] if x.shape[1] > 1 else np.inf, z[1, 0] - z[0, 0] if z.shape[0] > 1 else np.inf)
    scale = speed / (spacing if np.isfinite(spacing) else 1.0)  # the fastest arrow spans one spacing
    arrows = axis.quiver(x, z, u[rows, columns], w[rows, columns], angles="xy", scale_units="xy", scale=scale,
                         color="black", alpha=0.7)
    reference = float(f"{speed:.1g}")
    axis.quiverkey(arrows, 0.88, 1.03, reference, f"{reference:g} m/s", labelpos="E", coordinates="axes")


def parse_range(text, what, parts):
    """LO:HI[:STEP] as floats."""
    try:
        values = [float(v) for v in text.split(":")]
    except ValueError:
        values = []
    if len(values) != parts:
        fail(f"{what} '{text}': expected {parts} numbers separated by ':'")
    return values


def plot(data, field, out_path, contours=None, xlim=None):
    x_km, z_km = data["x_nodes"] / 1e3, data["z_nodes"] / 1e3
    width, height = (xlim[1] - xlim[0] if xlim else x_km[-1] - x_km[0]), z_km[-1] - z_km[0]
    fig, axis = plt.subplots(figsize=(10, min(max(8 * height / width, 2.0), 10) + 1.4))
    if contours:
        low, high, step = contours
        levels = np.arange(low, high + step / 2, step)
        lines = axis.contour(data["x"] / 1e3, data["z"] / 1e3, data["values"], levels=levels, colors="black",
                             linewidths=0.7)
        axis.clabel(lines, levels[::4], fontsize=7, fmt="%g")
    else:
        limit = float(np.max(np.abs(data["values"]))) or 1.0
        mesh = axis.pcolormesh(x_km, z_km, data["values"], shading="flat", cmap="RdBu_r", vmin=-limit, vmax=limit)
        colour_axis = make_axes_locatable(axis).append_axes("right", size="2.5%", pad=0.15)
        fig.colorbar(mesh, cax=colour_axis, label=f"{field} ({data['units']})" if data["units"] else field)
        if data["wind"] is not None:
            draw_wind(axis, data)
    if xlim:
        axis.set_xlim(*xlim)
    axis.set(xlabel="x (km)", ylabel="z (km)", aspect="equal",
             title=f"{data['case']}: {field} at t = {data['time']:g} s (step {data['step']})"
                   + (f", contours every {contours[2]:g} {data['units']}" if contours else ""))
    fig.tight_layout()
    fig.savefig(out_path, dpi=120)
    plt.close(fig)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", metavar="FILE.h5")
    parser.add_argument("--out", default=None, help="directory for the PNGs (default: each snapshot's)")
    parser.add_argument("--field", default="theta_prime", help="the field to draw (default: theta_prime)")
    parser.add_argument("--contours", default=None, metavar="LO:HI:STEP", help="contour lines instead of colours")
    parser.add_argument("--xlim", default=None, metavar="X0:X1", help="x range to show, km")
    args = parser.parse_args()
    contours = parse_range(args.contours, "--contours", 3) if args.contours else None
    xlim = parse_range(args.xlim, "--xlim", 2) if args.xlim else None
    if contours and not contours[2] > 0:
        fail(f"--contours '{args.contours}': the step must be positive")
    for path in args.files:
        data = load(path, args.field)
        out = args.out or os.path.dirname(os.path.abspath(path))
        os.makedirs(out, exist_ok=True)
        out_path = os.path.join(out, os.path.splitext(os.path.basename(path))[0] + ".png")
        plot(data, args.field, out_path, contours, xlim)
        print(f"plot_fields: wrote {out_path}")


if __name__ == "__main__":
    main()
