#!/usr/bin/python3
"""Tabulates and plots scripts/straka_convergence.sh's CSV: the density current's front
position and θ′ extremes at 900 s against grid spacing, with the observed order of
convergence between successive halvings, p = log2(|f(4h) − f(2h)| / |f(2h) − f(h)|), and the
Richardson estimate of the converged value, f(h) + (f(h) − f(2h)) / (2^p − 1), and the
finest run's relative difference from the published reference solution.

usage: scripts/plot_convergence.py CONVERGENCE.csv [--out DIR]
"""
import argparse
import csv
import math
import os
import sys

MEASURES = (("front_m", "front (m)"), ("theta_prime_min_K", "θ′ min (K)"), ("theta_prime_max_K", "θ′ max (K)"),
            ("u_max_m_per_s", "u max (m/s)"), ("w_min_m_per_s", "w min (m/s)"), ("w_max_m_per_s", "w max (m/s)"))

# The reference solution of Straka, Wilhelmson, Wicker, Anderson and Droegemeier (1993),
# "Numerical solutions of a non-linear density current: a benchmark solution and comparisons",
# Int. J. Numer. Methods Fluids 17, 1-22, doi:10.1002/fld.1650170103: its 25 m run (REFC) at
# 900 s, front position from Table IV, extremes from Table V. The paper's extremes are taken on
# the half domain x >= 0, where u's minimum is the return flow, so u min is not compared here
# (in the full, mirror-symmetric domain u min = -u max).
PUBLISHED = {"front_m": 15537.44, "theta_prime_min_K": -9.77, "theta_prime_max_K": 0.0, "u_max_m_per_s": 36.46,
             "w_min_m_per_s": -15.95, "w_max_m_per_s": 12.93}
PUBLISHED_SPACING_M = 25.0
PUBLISHED_LABEL = "Straka et al. (1993), 25 m"


def relative_difference(value, reference):
    """(value − reference) / |reference| in percent; None where the reference is 0."""
    return None if reference == 0 else 100.0 * (value - reference) / abs(reference)


def order(coarse, medium, fine):
    """Observed order from three spacings h, h/2, h/4; None when it is undefined."""
    a, b = coarse - medium, medium - fine
    if a == 0 or b == 0 or (a > 0) != (b > 0):
        return None
    return math.log2(abs(a) / abs(b))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("csv")
    parser.add_argument("--out", default=None, help="directory for the PNG (default: the CSV's)")
    args = parser.parse_args()
    if not os.path.exists(args.csv):
        sys.exit(f"plot_convergence: error: {args.csv}: no such file")
    with open(args.csv, newline="") as f:
        rows = sorted(csv.DictReader(f), key=lambda r: -float(r["spacing_m"]))
    if not rows:
        sys.exit(f"plot_convergence: error: {args.csv}: no runs")

    print("| spacing | cells | " + " | ".join(label for _, label in MEASURES) + " | wall s |")
    print("|---:|---:|" + "---:|" * (len(MEASURES) + 1))
    for r in rows:
        values = [f"{float(r[key]):.2f}" if r[key] else "–" for key, _ in MEASURES]
        print(f"| {float(r['spacing_m']):g} m | {r['nx']} × {r['nz']} | " + " | ".join(values) + f" | {r['wall_s']} |")
    print(f"| {PUBLISHED_LABEL} | | " + " | ".join(f"{PUBLISHED[key]:.2f}" for key, _ in MEASURES) + " | |")
    compared = [r for r in rows if float(r["spacing_m"]) == PUBLISHED_SPACING_M]
    compared += [rows[-1]] if rows[-1] not in compared else []
    for run in compared:
        differences = []
        for key, _ in MEASURES:
            difference = relative_difference(float(run[key]), PUBLISHED[key]) if run[key] else None
            differences.append("–" if difference is None else f"{difference:+.2f} %")
        print(f"| difference at {float(run['spacing_m']):g} m | | " + " | ".join(differences) + " | |")
    print()
    print("| spacings | " + " | ".join(f"order of {label}" for _, label in MEASURES[:2]) +
          " | Richardson front (m) | Richardson θ′ min (K) |")
    print("|---|---:|---:|---:|---:|")
    for a, b, c in zip(rows, rows[1:], rows[2:]):
        cells = []
        extrapolated = []
        for key, _ in MEASURES[:2]:
            try:
                f1, f2, f3 = float(a[key]), float(b[key]), float(c[key])
            except ValueError:
                cells.append("–")
                extrapolated.append("–")
                continue
            p = order(f1, f2, f3)
            cells.append(f"{p:.2f}" if p is not None else "–")
            extrapolated.append(f"{f3 + (f3 - f2) / (2 ** p - 1):.2f}" if p else "–")
        print(f"| {a['spacing_m']}, {b['spacing_m']}, {c['spacing_m']} m | " + " | ".join(cells + extrapolated) + " |")

    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("plot_convergence: no matplotlib: table only (install python3-matplotlib for the plot)")
        return
    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    spacing = [float(r["spacing_m"]) for r in rows]
    for axis, (key, label) in zip(axes, MEASURES[:2]):
        axis.semilogx(spacing, [float(r[key]) if r[key] else math.nan for r in rows], marker="o", label="simapp")
        axis.axhline(PUBLISHED[key], color="black", linestyle="--", linewidth=1, label=PUBLISHED_LABEL)
        axis.legend(loc="lower right" if key == "front_m" else "upper right")
        axis.set(xlabel="grid spacing (m)", ylabel=label, title=f"straka at 900 s: {label}")
        axis.set_xticks(spacing, [f"{h:g}" for h in spacing])
        axis.minorticks_off()
        axis.invert_xaxis()
        axis.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    out = args.out or os.path.dirname(os.path.abspath(args.csv))
    path = os.path.join(out, "straka_convergence.png")
    fig.savefig(path, dpi=120)
    print(f"plot_convergence: wrote {path}")


if __name__ == "__main__":
    main()
