#!/usr/bin/python3
"""Draws a run's statistics over time (stats.nc, docs/usage.md "The statistics file").

    scripts/plot_stats.py output/case/stats.nc [--out stats.png]
    scripts/plot_stats.py output/supercell/stats.nc --reference my_ranges.json
    scripts/plot_stats.py output/supercell/stats.nc --reference NAME      (scripts/reference/NAME.json)

One panel a variable against time (s): d_mass and d_te, kinetic energy, the largest |u|, |v|
(3-D) and |w|, the smallest and largest theta', and the Courant number reached; with water, also
the rain rate at the ground (max_rain_rate and mean_rain_rate, kg m-2 s-1 in the file, drawn in
mm/h: 1 kg m-2 is 1 mm of water) and the water on the ground (precipitation). Writes a PNG (by
default stats.png beside the file) and prints its name, the panels drawn and the reference shaded.

--reference shades a range other models reported: a JSON file (scripts/reference/README.md gives
its format; a bare NAME is scripts/reference/NAME.json) with times in s and, for max_w (m/s) and
optionally max_rain_rate (mm/h, mm/day or kg m-2 s-1), a lower and an upper value at each time,
drawn on the largest-|w| panel and on the rain-rate panel.
"""
import argparse
import json
import math
import pathlib
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import xarray as xr  # noqa: E402

PANELS = [
    (["d_mass", "d_te"], "relative change since t = 0"),
    (["kinetic_energy"], None),
    (["max_abs_u", "max_abs_v", "max_abs_w"], "largest |velocity| (m/s)"),
    (["min_theta_prime", "max_theta_prime"], "theta' (K)"),
    (["cfl"], "Courant number reached"),
]
WATER_PANELS = [
    (["max_rain_rate", "mean_rain_rate"], "rain rate at the ground (mm/h)"),
    (["precipitation"], None),
]
MM_PER_HOUR = 3600.0  # kg m-2 s-1 to mm/h: 1 kg m-2 of water is 1 mm deep
RATE_UNITS = {"mm/h": 1.0, "mm/day": 1.0 / 24.0, "kg m-2 s-1": MM_PER_HOUR}
REFERENCES = pathlib.Path(__file__).resolve().parent / "reference"
SHADED = {"max_w": "max_abs_w", "max_rain_rate": "max_rain_rate"}  # a reference's ranges and the lines they go with


def fail(message):
    sys.exit(f"plot_stats: error: {message}")


def reference_path(text):
    """A file, or a bare name of one in scripts/reference/."""
    path = pathlib.Path(text)
    if path.suffix == ".json" or len(path.parts) > 1 or path.exists():
        return path
    return REFERENCES / f"{text}.json"


def load_reference(text):
    """The ranges of a reference file: {"label", "time" (s), "max_w": (lower, upper) in m/s,
    "max_rain_rate": (lower, upper) in mm/h, where given}."""
    path = reference_path(text)
    try:
        with open(path) as f:
            document = json.load(f)
    except FileNotFoundError:
        fail(f"--reference {text}: no such file {path}")
    except (OSError, ValueError) as error:
        fail(f"--reference {path}: not a readable JSON file ({error})")
    if not isinstance(document, dict):
        fail(f"--reference {path}: expected a JSON object with time and max_w")

    def numbers(value, what):
        if not isinstance(value, list) or not value or not all(
                isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in value):
            fail(f"--reference {path}: {what} must be a non-empty list of finite numbers")
        return [float(v) for v in value]

    time = numbers(document.get("time"), "time")
    if any(b <= a for a, b in zip(time, time[1:])):
        fail(f"--reference {path}: time must increase")
    reference = {"label": str(document.get("label", path.stem)), "time": time}
    for name in SHADED:
        if name not in document:
            if name == "max_w":
                fail(f"--reference {path}: no max_w (lower and upper, m/s)")
            continue
        entry = document[name]
        if not isinstance(entry, dict):
            fail(f"--reference {path}: {name} must be an object with lower and upper")
        lower, upper = (numbers(entry.get(side), f"{name}.{side}") for side in ("lower", "upper"))
        if not len(lower) == len(upper) == len(time):
            fail(f"--reference {path}: {name} has {len(lower)} lower and {len(upper)} upper values for "
                 f"{len(time)} times")
        if any(low > high for low, high in zip(lower, upper)):
            fail(f"--reference {path}: {name} has a lower value above its upper one")
        scale = 1.0
        if name == "max_rain_rate":
            units = entry.get("units", "mm/h")
            if units not in RATE_UNITS:
                fail(f"--reference {path}: max_rain_rate.units '{units}': expected one of {', '.join(RATE_UNITS)}")
            scale = RATE_UNITS[units]
        reference[name] = ([v * scale for v in lower], [v * scale for v in upper])
    return reference


def panels_of(stats):
    """The panels the file has variables for: the dry ones, and the water's where it holds them."""
    return [(names, label) for names, label in PANELS + WATER_PANELS if any(name in stats for name in names)]


def figure(stats, title, reference=None):
    """The figure, the names of its panels' first variables and the variables the reference shades."""
    time = stats["time"].values
    panels = panels_of(stats)
    fig, axes = plt.subplots(len(panels), 1, figsize=(8, 2.2 * len(panels)), sharex=True, squeeze=False)
    axes = axes[:, 0]
    shaded = []
    for axis, (names, label) in zip(axes, panels):
        for name in names:
            if name in stats:
                scale = MM_PER_HOUR if name.endswith("rain_rate") else 1.0
                axis.plot(time, stats[name].values * scale, marker=".", label=name)
        for key, line in SHADED.items():
            if reference and key in reference and line in names and line in stats:
                lower, upper = reference[key]
                axis.fill_between(reference["time"], lower, upper, color="tab:grey", alpha=0.3, linewidth=0,
                                  label=f"{reference['label']}: {key.replace('_', ' ')}")
                shaded.append(line)
        first = stats[next(name for name in names if name in stats)]
        axis.set_ylabel(label or f"{first.name} ({first.attrs.get('units', '')})")
        axis.legend(loc="best", fontsize="small")
        axis.grid(True, alpha=0.3)
    axes[-1].set_xlabel("time (s)")
    fig.suptitle(title)
    fig.tight_layout()
    return fig, [next(name for name in names if name in stats) for names, _ in panels], shaded


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", type=pathlib.Path, help="a run's stats.nc")
    parser.add_argument("--out", type=pathlib.Path, help="the PNG to write (default: stats.png beside the file)")
    parser.add_argument("--reference", metavar="FILE|NAME",
                        help="a JSON file of reference ranges to shade (NAME: scripts/reference/NAME.json)")
    args = parser.parse_args()
    reference = load_reference(args.reference) if args.reference else None
    try:
        # Time in seconds since time.start, not decoded to dates: the reference's times are seconds.
        stats = xr.open_dataset(args.file, engine="h5netcdf", decode_times=False)
    except (OSError, ValueError) as error:
        fail(f"{args.file}: {' '.join(str(error).split())}")
    if "time" not in stats.dims or "max_abs_w" not in stats:
        fail(f"{args.file}: not a statistics file (no time dimension and max_abs_w)")
    if reference and "max_rain_rate" in reference and "max_rain_rate" not in stats:
        print(f"plot_stats: note: {args.file} holds no water: the reference's max_rain_rate is not drawn")
    fig, drawn, shaded = figure(stats, stats.attrs.get("title", str(args.file)), reference)
    out = args.out or args.file.with_name("stats.png")
    fig.savefig(out, dpi=100)
    print(f"plot_stats: wrote {out} ({len(drawn)} panels: {', '.join(drawn)}"
          + (f"; '{reference['label']}' shaded on {', '.join(shaded)}" if reference else "") + ")")


if __name__ == "__main__":
    main()
