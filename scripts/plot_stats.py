#!/usr/bin/python3
"""Draws a run's statistics over time (stats.nc, docs/usage.md "The statistics file").

    scripts/plot_stats.py output/case/stats.nc [--out stats.png]

One panel a variable against time: d_mass and d_te, kinetic energy, the largest |u|, |v| (3-D)
and |w|, the smallest and largest theta', and the Courant number reached. Writes a PNG (by
default stats.png beside the file) and prints its name.
"""
import argparse
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


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", type=pathlib.Path, help="a run's stats.nc")
    parser.add_argument("--out", type=pathlib.Path, help="the PNG to write (default: stats.png beside the file)")
    args = parser.parse_args()
    try:
        stats = xr.open_dataset(args.file, engine="h5netcdf")
    except (OSError, ValueError) as error:
        sys.exit(f"plot_stats: error: {args.file}: {error}")
    if "time" not in stats.dims or "max_abs_w" not in stats:
        sys.exit(f"plot_stats: error: {args.file}: not a statistics file (no time dimension and max_abs_w)")
    time = stats["time"].values
    figure, axes = plt.subplots(len(PANELS), 1, figsize=(8, 2.2 * len(PANELS)), sharex=True)
    for axis, (names, label) in zip(axes, PANELS):
        for name in names:
            if name in stats:
                axis.plot(time, stats[name].values, marker=".", label=name)
        first = stats[names[0]]
        axis.set_ylabel(label or f"{names[0]} ({first.attrs.get('units', '')})")
        axis.legend(loc="best", fontsize="small")
        axis.grid(True, alpha=0.3)
    axes[-1].set_xlabel(f"time ({stats['time'].attrs.get('units', 's')})")
    figure.suptitle(stats.attrs.get("title", str(args.file)))
    figure.tight_layout()
    out = args.out or args.file.with_name("stats.png")
    figure.savefig(out, dpi=100)
    print(f"plot_stats: wrote {out}")


if __name__ == "__main__":
    main()
