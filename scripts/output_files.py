"""simapp's output files as h5py reads them, for plot_fields.py and render.py: which files a run
wrote, and the output times and steps a file holds.

A run writes per-time snapshots fields_<step>.nc (fields_<step>.h5 in earlier versions) or, in the
series layout, every output time into fields.nc. Time is in s, or in CF's "<unit> since <date>"
(seconds since the reference date); the step is the variable step(time), or a snapshot's global
attribute step in earlier versions.
"""
import glob
import os
import re

import numpy as np

# Seconds in each unit the time coordinate may be in, alone ("s") or as CF's "<unit> since <date>".
SECONDS_IN = {"s": 1.0, "sec": 1.0, "second": 1.0, "seconds": 1.0, "min": 60.0, "minute": 60.0, "minutes": 60.0,
              "h": 3600.0, "hour": 3600.0, "hours": 3600.0, "d": 86400.0, "day": 86400.0, "days": 86400.0}
SNAPSHOT = re.compile(r"fields_([0-9]+)\.(nc|h5)$")


class BadOutput(Exception):
    """A file or directory that is not what simapp writes; the message names it, on one line."""


def text(value):
    return value.decode() if isinstance(value, bytes) else str(value)


def run_files(run):
    """The files of a run: `run` itself when it is a file; of a directory, its snapshots in the
    order of their steps, or its series fields.nc."""
    if os.path.isfile(run):
        return [run]
    if not os.path.isdir(run):
        raise BadOutput(f"{run}: no such file or directory")
    by_step = {}
    for path in glob.glob(os.path.join(glob.escape(run), "fields_*")):
        match = SNAPSHOT.search(os.path.basename(path))
        if match:
            step = int(match.group(1))
            if step in by_step:
                raise BadOutput(f"{run}: holds two snapshots of step {step}: {os.path.basename(by_step[step])} "
                                f"and {os.path.basename(path)}")
            by_step[step] = path
    series = os.path.join(run, "fields.nc")
    if by_step and os.path.isfile(series):
        raise BadOutput(f"{run}: holds both snapshots (fields_<step>.nc) and a series (fields.nc): name one file")
    if by_step:
        return [by_step[step] for step in sorted(by_step)]
    if os.path.isfile(series):
        return [series]
    raise BadOutput(f"{run}: no output files (fields_<step>.nc, fields_<step>.h5 or fields.nc)")


def output_times(file, path):
    """The output times an open file holds, in seconds, and the step of each (None where the file
    does not say)."""
    if "time" not in file:
        raise BadOutput(f"{path}: no time coordinate")
    units = text(file["time"].attrs.get("units", "s"))
    unit = units.split(" since ")[0].strip()
    if unit not in SECONDS_IN:
        raise BadOutput(f"{path}: time in '{units}', not a unit of time (s, or CF's 'seconds since <date>')")
    times = np.asarray(file["time"][()], dtype=float).reshape(-1) * SECONDS_IN[unit]
    if "step" in file and file["step"].shape == times.shape:
        steps = [int(step) for step in file["step"][()]]
    elif "step" in file.attrs and len(times) == 1:
        steps = [int(file.attrs["step"])]
    else:
        steps = [None] * len(times)
    return times, steps


def listing(values, unit=""):
    """A short list of values: all of up to six, else the first three and the last two."""
    shown = [f"{value:g}" for value in values]
    if len(shown) > 6:
        shown = shown[:3] + ["…"] + shown[-2:]
    return ", ".join(shown) + unit


def matching_time(times, steps, when):
    """The index of the output time that `when` names, ("time", seconds) or ("step", n); None where none is."""
    kind, value = when
    if kind == "step":
        return steps.index(value) if value in steps else None
    matches = np.flatnonzero(np.abs(times - value) <= 1e-6 * max(1.0, abs(value)))
    return int(matches[0]) if len(matches) else None


def chosen_time(path, times, steps, when):
    """The index of the output time that `when` names (see matching_time), or the last for None."""
    if len(times) == 0:
        raise BadOutput(f"{path}: holds no output time")
    if when is None:
        return len(times) - 1
    index = matching_time(times, steps, when)
    if index is not None:
        return index
    count = f"{len(times)} time{'s' if len(times) != 1 else ''}"
    if when[0] == "step":
        known = [step for step in steps if step is not None]
        raise BadOutput(f"{path}: no output step {when[1]} ({count}, steps {listing(known) if known else 'not recorded'})")
    raise BadOutput(f"{path}: no output time t = {when[1]:g} s ({count}, t = {listing(times, ' s')})")


def file_holding(run, when):
    """The file of a run (a file, or a directory: see run_files) that holds the output time `when`
    names (see matching_time; None: the run's last)."""
    files = run_files(run)
    if when is None or len(files) == 1:
        return files[-1]
    import h5py

    for path in files:
        with h5py.File(path, "r") as file:
            times, steps = output_times(file, path)
        if matching_time(times, steps, when) is not None:
            return path
    what = f"step {when[1]}" if when[0] == "step" else f"time t = {when[1]:g} s"
    raise BadOutput(f"{run}: no output {what} in its {len(files)} snapshots")


def edges(bounds):
    """The cell edges from CF cell bounds [cells][2]."""
    return np.append(bounds[:, 0], bounds[-1, 1])
