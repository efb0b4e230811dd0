"""Bryan & Fritsch (2002)'s finding, which a consistent moist model reproduces: the moist bubble
(a +2 K saturated bubble in a saturated moist-neutral atmosphere, no rain) rises like the dry
bubble of the same amplitude in a dry neutral atmosphere. Runs simapp's moist_bubble and
dry_bubble at the same grid for 1000 s and compares, at the end, the largest w and the top of the
bubble (the highest cell centre whose θ_ρ′, the snapshot's theta_prime, exceeds 0.2 K): each
within 10 %. Skips (77) without h5py.

usage: bryan_fritsch_check.py SIMAPP INPUTS_DIR WORK_DIR [simapp options...]
"""
import glob
import os
import subprocess
import sys

try:
    import h5py
    import numpy as np
except ImportError:
    print("skipped: h5py and numpy are needed")
    sys.exit(77)

TOLERANCE = 0.10


def run(simapp, inputs, work, case, extra):
    out = os.path.join(work, case)
    command = [simapp, os.path.join(inputs, case + ".yaml"), "--overwrite",
               "--set", "output.every=1000", "--set", f"output.dir={out}", *extra]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    last = sorted(glob.glob(os.path.join(out, "fields_*.nc")))[-1]
    with h5py.File(last, "r") as snapshot:
        w = np.squeeze(snapshot["w"][...])
        theta = np.squeeze(snapshot["theta_prime"][...])
        z = snapshot["z"][...]
        time = float(np.squeeze(snapshot["time"][...]))
    rows = np.where((theta > 0.2).any(axis=tuple(range(1, theta.ndim))))[0]
    return time, float(w.max()), float(z[rows.max()])


def main():
    simapp, inputs, work, extra = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    moist = run(simapp, inputs, work, "moist_bubble", extra)
    dry = run(simapp, inputs, work, "dry_bubble", extra)
    print(f"t = {moist[0]:g} s  max w: moist {moist[1]:.2f} m/s, dry {dry[1]:.2f} m/s "
          f"({moist[1] / dry[1] - 1:+.1%});  top: moist {moist[2]:.0f} m, dry {dry[2]:.0f} m "
          f"({moist[2] / dry[2] - 1:+.1%})")
    failed = False
    for name, m, d in (("max w", moist[1], dry[1]), ("top", moist[2], dry[2])):
        if abs(m / d - 1) > TOLERANCE:
            print(f"FAILED: {name} differs by more than {TOLERANCE:.0%}")
            failed = True
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
