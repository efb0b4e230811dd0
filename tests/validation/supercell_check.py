"""The DCMIP2016 splitting supercell (Zarzycki et al. 2019) at 2 km for two hours, against what a
correct model shows: rain on the ground by 30 min; the storm's largest updraft in the range the
DCMIP2016 models reported (scripts/reference/dcmip2016.json, scripts/reference/README.md's format,
when present); and the
storm mirror-symmetric about the domain's middle in y (the sounding's wind has no v and the
bubble sits at y = ylen/2): w and q_r even in y at the end, to `SYMMETRY` of their largest
values. Runs where simapp would run the case on a GPU (`--plan` names the backend); on the host
(13 minutes on two cores) it skips (77) unless SIMAPP_SUPERCELL_ON_HOST=1. Skips without h5py.

usage: supercell_check.py SIMAPP INPUTS_DIR WORK_DIR [simapp options...]
"""
import glob
import json
import os
import pathlib
import subprocess
import sys

try:
    import h5py
    import numpy as np
except ImportError:
    print("skipped: h5py and numpy are needed")
    sys.exit(77)

RAIN_BY = 1800.0  # s: rain on the ground by 30 min
SYMMETRY = 1e-6  # of the largest |w| and q_r: the mirror image after two hours of convection
REFERENCE = pathlib.Path(__file__).resolve().parents[2] / "scripts" / "reference" / "dcmip2016.json"
PER_HOUR = {"mm/h": 1.0, "mm/day": 1.0 / 24.0, "kg m-2 s-1": 3600.0}  # a rain rate's units to mm/h


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    simapp, inputs, work, extra = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    case = [simapp, os.path.join(inputs, "supercell.yaml"), "--set", "grid.nx=84", "--set", "grid.ny=84", *extra]
    plan = subprocess.run([*case, "--plan"], check=True, capture_output=True, text=True).stdout
    if "host backend" in plan and os.environ.get("SIMAPP_SUPERCELL_ON_HOST") != "1":
        print("skipped: the case runs on the host backend here (13 minutes on two cores); "
              "set SIMAPP_SUPERCELL_ON_HOST=1 to run it")
        return 77
    subprocess.run([*case, "--overwrite", "--set", f"output.dir={work}", "--set", "output.stats_every=60",
                    "--set", "output.every=1800"], check=True, stdout=subprocess.DEVNULL)
    with h5py.File(os.path.join(work, "stats.nc"), "r") as stats:
        time = stats["time"][...]
        max_w = stats["max_abs_w"][...]
        rain = stats["max_rain_rate"][...]
        ground = stats["precipitation"][...]
    failures = []
    first_rain = time[np.argmax(ground > 0)] if (ground > 0).any() else None
    print(f"rain on the ground from t = {first_rain} s; largest |w| {max_w.max():.1f} m/s at "
          f"t = {time[np.argmax(max_w)]:.0f} s; peak rain rate {rain.max() * 3600:.1f} mm/h")
    if first_rain is None or first_rain > RAIN_BY:
        failures.append(f"no rain on the ground by t = {RAIN_BY:.0f} s")
    if not REFERENCE.exists():
        print(f"no {REFERENCE.name}: the DCMIP2016 range is not checked (scripts/reference/README.md)")
    else:
        reference = json.loads(REFERENCE.read_text())
        for name, series in (("max_w", max_w), ("max_rain_rate", rain * 3600.0)):
            if name not in reference:
                continue
            band = reference[name]
            scale = PER_HOUR[band.get("units", "mm/h")] if name == "max_rain_rate" else 1.0
            lower = np.interp(time, reference["time"], np.multiply(band["lower"], scale), left=np.nan, right=np.nan)
            upper = np.interp(time, reference["time"], np.multiply(band["upper"], scale), left=np.nan, right=np.nan)
            outside = [(t, v, lo, hi) for t, v, lo, hi in zip(time, series, lower, upper)
                       if np.isfinite(lo) and not lo <= v <= hi]
            print(f"{name}: {len(outside)} of {np.isfinite(lower).sum()} times outside the DCMIP2016 range")
            for t, v, lo, hi in outside[:5]:
                failures.append(f"{name} {v:.1f} at t = {t:.0f} s outside [{lo:.1f}, {hi:.1f}]")
    last = sorted(glob.glob(os.path.join(work, "fields_*.nc")))[-1]
    with h5py.File(last, "r") as snapshot:
        for name in ("w", "qr"):
            field = np.squeeze(snapshot[name][...])  # (z, y, x)
            scale = np.abs(field).max()
            asymmetry = np.abs(field - field[:, ::-1, :]).max() / scale if scale > 0 else 0.0
            print(f"{name}: largest |{name}(y) - {name}(ylen - y)| is {asymmetry:.2e} of its largest value")
            if asymmetry > SYMMETRY:
                failures.append(f"{name} not mirror-symmetric in y: {asymmetry:.2e} > {SYMMETRY:.0e}")
    for failure in failures:
        print("FAILED:", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
