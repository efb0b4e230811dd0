#!/usr/bin/python3
"""Draws one field of simapp's output files (netCDF-4) as a colour map with wind vectors, one PNG each.

usage: scripts/plot_fields.py RUN [RUN ...] [--out DIR] [--field theta_prime] [--time SECONDS | --step N]
                              [--contours LO:HI:STEP] [--xlim X0:X1] [--height METRES]
                              [--water-units g/kg|kg/kg]
       scripts/plot_fields.py output/moist_bubble --field qc          # cloud water, g/kg
       scripts/plot_fields.py output/supercell --field water --height 5000

RUN is a snapshot (fields_<step>.nc, or .h5 as earlier versions named them), the series layout's
fields.nc, which holds every output time, or a run's output directory (its snapshots or fields.nc):
the last time is drawn unless --time or --step names another (an output time in seconds, or a step
number). A file of one output time gives a PNG named after it (fields_006000.png), one of several
the stem and the step drawn (fields_006000.png from fields.nc); the title says the time and step.
Time may be in s or in CF's "seconds since <date>".

--contours draws contour lines at LO, LO + STEP, …, HI instead of the colour map and wind, as
the density-current benchmark's figure does (straka: --contours=-16.5:-0.5:1 --xlim=25.6:44);
--xlim shows x ∈ [X0, X1] km only.

The water's mixing ratios qv, qc and qr (kg/kg in the files) are drawn in g/kg (--water-units
kg/kg: as the file has them; the colour bar says which, "qc (g/kg)") on a sequential colour map
from 0 to the largest value drawn, where a cell of 0 or less is left blank (white); the printed
line adds the range ("qc: 0 to 1.23 g/kg"). --field water draws cloud water qc shaded so and rain
water qr as contour lines on the same panels (levels at a round step from the largest qr, or
those --contours gives, in the units drawn); the line says both ("qc shaded 0 to 1.23 g/kg; qr
contours 0.5 to 2 every 0.5 g/kg", or "qr none" where no cell holds rain). Other fields keep the
diverging map symmetric about 0.

A 2-D snapshot (fields (time, z, x)) is drawn as one x–z panel with the wind (u, w). A 3-D one
(fields (time, z, y, x), with a y scale) is drawn as two panels of one PNG, on one colour scale:
above, the x–z slice through the centre (the row j = ny // 2, y nearest ylen / 2) with (u, w);
below, the x–y slice at --height METRES (default: the middle of the domain), the cell row that
holds that height (on an edge between two, the upper), with (u, v). The titles and the printed
line name the y and z of the cells drawn.
"""
import argparse
import os
import sys

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import matplotlib.ticker
    import numpy as np
    import h5py
    from mpl_toolkits.axes_grid1 import make_axes_locatable

    from output_files import BadOutput, chosen_time, edges, file_holding, output_times, text
except ImportError as error:
    sys.exit(f"plot_fields: error: {error} (install python3-matplotlib, python3-numpy and python3-h5py)")

WATER = {"qv": "YlGnBu", "qc": "Blues", "qr": "Purples"}  # the water's mixing ratios and their colour maps
WATER_UNITS = {"g/kg": 1e3, "kg/kg": 1.0}
RAIN_COLOUR = "crimson"
ARROWS = (25, 15)  # about this many wind vectors across x and z (across x and y on an x–y slice)
LAYOUT_3D = ("time", "z", "y", "x")


def fail(message):
    sys.exit(f"plot_fields: error: {message}")


def require(snapshot, path, name, what):
    if name not in snapshot:
        fields = ", ".join(sorted(k for k, v in snapshot.items() if v.ndim in (3, 4))) or "none"
        fail(f"{path}: no {what} '{name}' (fields: {fields})")


def dataset(snapshot, path, name, what):
    """A coordinate's or its bounds' values."""
    require(snapshot, path, name, what)
    return snapshot[name][()]


def field_at(snapshot, path, name, index):
    """A field's (time, z, x) of output time `index` as (z, x): only that time is read."""
    require(snapshot, path, name, "field")
    return snapshot[name][index]


def scale_names(field):
    """The name of the dimension scale attached to each of a dataset's dimensions (None where none is)."""
    return [os.path.basename(dim[0].name) if len(dim) else None for dim in field.dims]


def nearest_row(nodes, height):
    """The cell [nodes[k], nodes[k + 1]] holding height, the upper one on an edge between two."""
    return min(int(np.searchsorted(nodes, height, side="right")) - 1, len(nodes) - 2)


def load(path, field, height=None, when=None, water_units="g/kg"):
    """The field at the output time `when` names (None: the last; see chosen_time), the mesh, the wind
    (None when u or w is missing), the run's case and the time and step drawn; of a 3-D field, its x–z
    slice through the centre and its x–y slice at height (None: the middle). A water mixing ratio in
    water_units; field "water": qc's, with qr's slices beside them as "rain"."""
    if field == "water":
        data = load(path, "qc", height, when, water_units)
        rain = load(path, "qr", height, when, water_units)
        if "panels" in data:
            for panel, rain_panel in zip(data["panels"], rain["panels"]):
                panel["rain"] = rain_panel["values"]
        else:
            data["rain"] = rain["values"]
        return data
    data = load_field(path, field, height, when)
    if field in WATER:
        scale = WATER_UNITS[water_units]
        for holder in data.get("panels", [data]):
            holder["values"] = holder["values"] * scale
        data["units"] = water_units if scale != 1.0 else data["units"] or "kg/kg"
    return data


def load_field(path, field, height=None, when=None):
    """One field's slices (see load), as the file has them."""
    if not os.path.isfile(path):
        fail(f"{path}: no such file")
    try:
        snapshot = h5py.File(path, "r")
    except OSError as error:
        fail(f"{path}: cannot read as HDF5 ({error})")
    with snapshot:
        require(snapshot, path, field, "field")
        rank = snapshot[field].ndim
        if rank not in (3, 4):
            fail(f"{path}: '{field}' has {rank} dimension(s), not (time, z, x) nor (time, z, y, x)")
        try:
            times, steps = output_times(snapshot, path)
            index = chosen_time(path, times, steps, when)
        except BadOutput as error:
            fail(str(error))
        if index >= snapshot[field].shape[0]:
            fail(f"{path}: '{field}' holds {snapshot[field].shape[0]} times, the time coordinate {len(times)}")
        drawn = {"case": text(snapshot.attrs.get("case", "?")), "time": float(times[index]), "step": steps[index],
                 "several": len(times) > 1}
        if rank == 4:
            return drawn | load_3d(snapshot, path, field, height, index)
        if height is not None:
            fail(f"{path}: --height is for 3-D snapshots, and '{field}' is 2-D (time, z, x)")
        data = drawn | {
            "values": field_at(snapshot, path, field, index),
            "units": text(snapshot[field].attrs.get("units", "")),
            "x_nodes": edges(dataset(snapshot, path, "x_bnds", "dataset")),
            "z_nodes": edges(dataset(snapshot, path, "z_bnds", "dataset")),
            "x": dataset(snapshot, path, "x", "dataset"),
            "z": dataset(snapshot, path, "z", "dataset"),
            "wind": None,
        }
        if "u" in snapshot and "w" in snapshot:
            data["wind"] = (field_at(snapshot, path, "u", index), field_at(snapshot, path, "w", index))
    return data


def load_3d(snapshot, path, field, height, index):
    """A 3-D field's two slices at output time `index` (only those are read), with their meshes and winds."""
    shape = snapshot[field].shape
    attached = scale_names(snapshot[field])
    if any(name and name != expected for expected, name in zip(LAYOUT_3D, attached)):
        fail(f"{path}: '{field}' has dimensions ({', '.join(name or '?' for name in attached)}), not (time, z, y, x)")
    if "y" not in snapshot or "y_bnds" not in snapshot or (any(attached) and attached[2] is None):
        fail(f"{path}: '{field}' is 3-D {shape} but has no y scale (expected dimensions (time, z, y, x), "
             f"with datasets y and y_bnds)")
    coordinates = {name: dataset(snapshot, path, name, "dataset") for name in ("x", "y", "z")}
    nodes = {name: edges(dataset(snapshot, path, f"{name}_bnds", "dataset")) for name in ("x", "y", "z")}
    for axis, name in ((1, "z"), (2, "y"), (3, "x")):
        if not len(coordinates[name]) == len(nodes[name]) - 1 == shape[axis]:
            fail(f"{path}: '{field}' has {shape[axis]} cells along {name}, but {name} {len(coordinates[name])} "
                 f"and {name}_bnds {len(nodes[name]) - 1}")
    bottom, top = float(nodes["z"][0]), float(nodes["z"][-1])
    if height is None:
        height = (bottom + top) / 2
    elif not bottom <= height <= top:
        fail(f"{path}: --height {height:g} m is outside the domain (z from {bottom:g} to {top:g} m)")
    j, k = shape[2] // 2, nearest_row(nodes["z"], height)

    def slices(name):
        return snapshot[name][index, :, j, :], snapshot[name][index, k, :, :]

    if any(name in snapshot and snapshot[name].shape != shape for name in ("u", "v", "w")):
        fail(f"{path}: the wind (u, v, w) is not of the shape of '{field}' {shape}")
    values, winds = slices(field), {name: slices(name) for name in ("u", "v", "w") if name in snapshot}
    return {
        "units": text(snapshot[field].attrs.get("units", "")),
        "x_nodes": nodes["x"], "x": coordinates["x"],
        # Each panel: its vertical axis's name, edges, centres; the slice, its wind, where it lies.
        "panels": [
            {"axis": "z", "nodes": nodes["z"], "centres": coordinates["z"], "values": values[0],
             "wind": (winds["u"][0], winds["w"][0]) if "u" in winds and "w" in winds else None,
             "at": ("y", float(coordinates["y"][j]), j)},
            {"axis": "y", "nodes": nodes["y"], "centres": coordinates["y"], "values": values[1],
             "wind": (winds["u"][1], winds["v"][1]) if "u" in winds and "v" in winds else None,
             "at": ("z", float(coordinates["z"][k]), k)},
        ],
    }


def draw_wind(axis, x, z, u, w):
    """Wind vectors (u, w) at cell centres x, z (m); on an x–y slice, z is y and w is v."""
    speed = float(np.max(np.hypot(u, w)))
    if speed == 0.0:
        return
    sz, sx = (max(1, n // arrows) for n, arrows in zip(u.shape, reversed(ARROWS)))
    rows, columns = slice(sz // 2, None, sz), slice(sx // 2, None, sx)
    x, z = np.meshgrid(x[columns] / 1e3, z[rows] / 1e3)
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


def parse_number(text, flag, expected, kind=float):
    try:
        return kind(text)
    except ValueError:
        fail(f"{flag} '{text}': expected {expected}")


def png_name(path, data):
    """A file of one output time gives its own name; one of several, its stem and the step drawn."""
    stem = os.path.splitext(os.path.basename(path))[0]
    if not data["several"]:
        return stem + ".png"
    return f"{stem}_{data['step']:06d}.png" if data["step"] is not None else f"{stem}_t{data['time']:g}s.png"


def water_levels(largest, contours):
    """The rain's contour levels: those --contours gives, else a round step from the largest value."""
    if contours:
        low, high, step = contours
        return np.arange(low, high + step / 2, step)
    if not largest > 0:
        return np.array([])
    levels = matplotlib.ticker.MaxNLocator(nbins=5, steps=[1, 2, 2.5, 5, 10]).tick_values(0.0, largest)
    levels = levels[(levels > 0) & (levels <= largest * (1 + 1e-12))]
    return levels if len(levels) else np.array([largest / 2])


def levels_text(levels):
    if not len(levels):
        return "none"
    if len(levels) == 1:
        return f"at {levels[0]:.3g}"
    return f"{levels[0]:.3g} to {levels[-1]:.3g} every {levels[1] - levels[0]:.3g}"


def draw_water(fig, axis, x, z, values, rain, wind, field, units, levels, limit):
    """A water mixing ratio shaded from 0 to limit, 0 and below blank; rain (None: none) as contours."""
    mesh = axis.pcolormesh(x[0] / 1e3, z[0] / 1e3, np.ma.masked_less_equal(values, 0.0), shading="flat",
                           cmap=WATER[field], vmin=0.0, vmax=limit)
    colour_axis = make_axes_locatable(axis).append_axes("right", size="2.5%", pad=0.15)
    fig.colorbar(mesh, cax=colour_axis, label=f"{field} ({units})")
    if rain is not None and len(levels):
        lines = axis.contour(x[1] / 1e3, z[1] / 1e3, rain, levels=levels, colors=RAIN_COLOUR, linewidths=0.9)
        axis.clabel(lines, fontsize=7, fmt="%g")
    if wind is not None:
        draw_wind(axis, x[1], z[1], *wind)


def draw_panel(fig, axis, x, z, values, wind, field, units, contours, limit):
    """One slice: x, z are (edges, centres) in m of its horizontal and vertical axes."""
    if contours:
        low, high, step = contours
        levels = np.arange(low, high + step / 2, step)
        lines = axis.contour(x[1] / 1e3, z[1] / 1e3, values, levels=levels, colors="black", linewidths=0.7)
        axis.clabel(lines, levels[::4], fontsize=7, fmt="%g")
    else:
        mesh = axis.pcolormesh(x[0] / 1e3, z[0] / 1e3, values, shading="flat", cmap="RdBu_r", vmin=-limit,
                               vmax=limit)
        colour_axis = make_axes_locatable(axis).append_axes("right", size="2.5%", pad=0.15)
        fig.colorbar(mesh, cax=colour_axis, label=f"{field} ({units})" if units else field)
        if wind is not None:
            draw_wind(axis, x[1], z[1], *wind)


def panel_height(extent, width):
    return min(max(8 * extent / width, 2.0), 10)


def water_range(field, values, rain, units, contours):
    """A water field's colour range (0 to the largest value, 1 where none is above 0), the rain's
    contour levels and what was drawn, as the printed line says it."""
    largest = max(float(np.max(v)) for v in values)
    limit = largest if largest > 0 else 1.0
    if field != "water":
        return limit, None, f"{field}: 0 to {limit:.3g} {units}"
    levels = water_levels(max(float(np.max(r)) for r in rain), contours)
    return limit, levels, f"qc shaded 0 to {limit:.3g} {units}; qr " + (
        f"contours {levels_text(levels)} {units}" if len(levels) else "none")


def figure(data, field, contours=None, xlim=None):
    """The figure of a snapshot and what it drew: of a 3-D one the slices ("x–z at y = … m, x–y at
    z = … m"), of water its range ("qc: 0 to 1.2 g/kg"); None where there is nothing to say."""
    x_km = data["x_nodes"] / 1e3
    holders = data.get("panels", [data])
    water = field == "water" or (field in WATER and not contours)
    shade = "qc" if field == "water" else field
    limit, levels, drawn = (water_range(field, [h["values"] for h in holders], [h.get("rain") for h in holders],
                                        data["units"], contours) if water else (None, None, None))

    def draw(fig, axis, x, z, holder, panel_limit):
        if water:
            draw_water(fig, axis, x, z, holder["values"], holder.get("rain"), holder["wind"], shade, data["units"],
                       levels, limit)
        else:
            draw_panel(fig, axis, x, z, holder["values"], holder["wind"], field, data["units"], contours,
                       panel_limit)

    width = xlim[1] - xlim[0] if xlim else x_km[-1] - x_km[0]
    name = f"cloud water qc (shaded), rain water qr (contours, {data['units']})" if field == "water" else field
    title = (f"{data['case']}: {name} at t = {data['time']:g} s"
             + (f" (step {data['step']})" if data["step"] is not None else "")
             + (f", contours every {contours[2]:g} {data['units']}" if contours and not water else ""))
    if "panels" not in data:
        z_km = data["z_nodes"] / 1e3
        fig, axis = plt.subplots(figsize=(10, panel_height(z_km[-1] - z_km[0], width) + 1.4))
        draw(fig, axis, (data["x_nodes"], data["x"]), (data["z_nodes"], data["z"]), data,
             float(np.max(np.abs(data["values"]))) or 1.0)
        if xlim:
            axis.set_xlim(*xlim)
        axis.set(xlabel="x (km)", ylabel="z (km)", aspect="equal", title=title)
        fig.tight_layout()
        return fig, drawn
    panels = data["panels"]
    heights = [panel_height((p["nodes"][-1] - p["nodes"][0]) / 1e3, width) for p in panels]
    fig, axes = plt.subplots(len(panels), 1, figsize=(10, sum(heights) + 2.4), gridspec_kw={"height_ratios": heights})
    both = max(float(np.max(np.abs(p["values"]))) for p in panels) or 1.0  # one colour scale for both
    slices = []
    for axis, p in zip(axes, panels):
        draw(fig, axis, (data["x_nodes"], data["x"]), (p["nodes"], p["centres"]), p, both)
        if xlim:
            axis.set_xlim(*xlim)
        across, at, index = p["at"]
        slices.append(f"x–{p['axis']} at {across} = {at:g} m")
        axis.set(xlabel="x (km)", ylabel=f"{p['axis']} (km)", aspect="equal")
        axis.set_title(f"{slices[-1]} ({'j' if across == 'y' else 'k'} = {index})", loc="left", fontsize="medium")
    fig.suptitle(title)
    fig.tight_layout()
    return fig, ", ".join(slices) + (f"; {drawn}" if drawn else "")


def plot(data, field, out_path, contours=None, xlim=None):
    fig, slices = figure(data, field, contours, xlim)
    fig.savefig(out_path, dpi=120)
    plt.close(fig)
    return slices


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", metavar="RUN", help="snapshots (fields_<step>.nc or .h5), a series "
                        "(fields.nc), or a run's output directory")
    parser.add_argument("--out", default=None, help="directory for the PNGs (default: each snapshot's)")
    parser.add_argument("--field", default="theta_prime", help="the field to draw (default: theta_prime); water: "
                        "cloud water qc shaded, rain water qr as contours")
    when = parser.add_mutually_exclusive_group()
    when.add_argument("--time", default=None, metavar="SECONDS", help="the output time to draw (default: the last)")
    when.add_argument("--step", default=None, metavar="N", help="the output step to draw (default: the last)")
    parser.add_argument("--contours", default=None, metavar="LO:HI:STEP", help="contour lines instead of colours")
    parser.add_argument("--xlim", default=None, metavar="X0:X1", help="x range to show, km")
    parser.add_argument("--height", default=None, metavar="METRES",
                        help="3-D snapshots: the height of the x–y slice, m (default: the middle of the domain)")
    parser.add_argument("--water-units", default="g/kg", choices=sorted(WATER_UNITS),
                        help="units of qv, qc and qr as drawn (default: g/kg)")
    args = parser.parse_args()
    contours = parse_range(args.contours, "--contours", 3) if args.contours else None
    xlim = parse_range(args.xlim, "--xlim", 2) if args.xlim else None
    height = parse_number(args.height, "--height", "a height in metres") if args.height is not None else None
    when = None
    if args.time is not None:
        when = ("time", parse_number(args.time, "--time", "a time in seconds"))
    elif args.step is not None:
        when = ("step", parse_number(args.step, "--step", "a step number", int))
    if contours and not contours[2] > 0:
        fail(f"--contours '{args.contours}': the step must be positive")
    for run in args.runs:
        try:
            path = file_holding(run, when) if os.path.isdir(run) else run
        except BadOutput as error:
            fail(str(error))
        data = load(path, args.field, height, when, args.water_units)
        out = args.out or os.path.dirname(os.path.abspath(path))
        os.makedirs(out, exist_ok=True)
        out_path = os.path.join(out, png_name(path, data))
        slices = plot(data, args.field, out_path, contours, xlim)
        print(f"plot_fields: wrote {out_path}" + (f" ({slices})" if slices else ""))


if __name__ == "__main__":
    main()
