#!/usr/bin/python3
"""Compares simapp snapshot files bit for bit: every field dataset of each file (the variables on
(time, z, x), or (time, z, y, x)) against the first one (same names, shapes and bytes). Prints
one line per file; exits 1 when any differs.

usage: scripts/compare_fields.py REFERENCE.nc OTHER.nc [OTHER.nc ...]
"""
import sys

try:
    import h5py
    import numpy as np
except ImportError as error:
    sys.exit(f"compare_fields: error: {error} (install python3-h5py and python3-numpy)")


def fields_of(path):
    """{name: values} of the file's fields: its datasets of three or four dimensions (the
    coordinates, their bounds and the profiles have one or two)."""
    try:
        with h5py.File(path, "r") as f:
            return {name: item[...] for name, item in f.items()
                    if isinstance(item, h5py.Dataset) and item.ndim >= 3}
    except OSError as error:
        sys.exit(f"compare_fields: error: {path}: {error}")


def difference(reference, other):
    """'' when bitwise equal, else where the first difference is."""
    if sorted(reference) != sorted(other):
        return f"fields differ: {sorted(reference)} vs {sorted(other)}"
    for name, values in reference.items():
        if values.shape != other[name].shape:
            return f"{name}: shape {values.shape} vs {other[name].shape}"
        unequal = values.view(np.uint64) != other[name].view(np.uint64)
        if unequal.any():
            first = tuple(int(n) for n in np.argwhere(unequal)[0])
            axes = ("time", "k", "j", "i") if values.ndim == 4 else ("time", "k", "i")[-values.ndim:]
            where = " ".join(f"{axis}={n}" for axis, n in zip(axes, first))
            return (f"{name}: {int(unequal.sum())} cells differ, first at {where}: "
                    f"{values[first]!r} vs {other[name][first]!r}")
    return ""


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__.strip())
    reference = fields_of(sys.argv[1])
    if not reference:
        sys.exit(f"compare_fields: error: {sys.argv[1]}: no field datasets")
    differ = False
    for path in sys.argv[2:]:
        where = difference(reference, fields_of(path))
        print(f"{path}: {'bitwise equal to ' + sys.argv[1] if not where else 'DIFFERS: ' + where}")
        differ = differ or bool(where)
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
