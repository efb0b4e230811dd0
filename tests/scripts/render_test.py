#!/usr/bin/python3
"""scripts/render.py (run by pvpython) on small runs of simapp, its pictures read back as pixels:

  render_test.py SOURCE_DIR SIMAPP

A warm bubble of known centre and radius (perturbation.center, .radii) is run in 2-D (per-time
snapshots, then the series layout) and in 3-D, and rendered. At t = 0 the picture must show it where
the configuration put it: the domain (the cells of θ′ = 0, the colour map's middle) is found in the
image; the warm pixels (red over blue) lie inside the bubble's ellipse, their centre at its centre,
and they cover a good part of it; nothing is cool. At the end, the bubble has risen and stays at its
x. The series gives the same pictures as the per-time snapshots; there is one PNG an output time and
a movie of as many frames; --help and a directory without results behave.
Exits 77 (skipped) without pvpython, without a display or Xvfb, or without numpy and matplotlib.
"""
import os
import shutil
import subprocess
import sys
import tempfile

SKIPPED = 77
try:
    import matplotlib.image
    import numpy as np
except ImportError as error:
    print(f"skipped: {error} (install python3-numpy and python3-matplotlib)")
    sys.exit(SKIPPED)
if not shutil.which("pvpython"):
    print("skipped: no pvpython (install python3-paraview)")
    sys.exit(SKIPPED)
if not os.environ.get("DISPLAY") and not shutil.which("Xvfb"):
    print("skipped: no DISPLAY and no Xvfb (install xvfb)")
    sys.exit(SKIPPED)

source_dir, simapp = sys.argv[1], sys.argv[2]
render = os.path.join(source_dir, "scripts", "render.py")
failures = []

CENTRE, RADIUS = (7000.0, 3000.0), 2000.0  # the bubble in x and z, m: left of the middle, low
XLEN, ZLEN = 20000.0, 10000.0


def check(condition, what, detail=""):
    print(f"{'ok' if condition else 'FAIL'}: {what}" + ("" if condition else f"\n  got: {detail}"))
    if not condition:
        failures.append(what)


def run_simapp(out, *extra):
    command = [simapp, os.path.join(source_dir, "inputs", "case.yaml"), "--backend", "host", "--set",
               "time.sim_time=200", "--set", "output.every=100", "--set", f"output.dir={out}", *extra]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    if result.returncode != 0:
        print(f"simapp failed ({result.returncode}): {' '.join(command)}\n{result.stderr}")
        sys.exit(1)


def run_render(*args):
    result = subprocess.run(["pvpython", render, *args], capture_output=True, text=True, timeout=240)
    return result.returncode, result.stdout, result.stderr


def classes(image):
    """Masks of the warm (red over blue), cool (blue over red) and neutral (the middle grey) pixels."""
    red, green, blue = image[..., 0], image[..., 1], image[..., 2]
    warm, cool = red - blue > 0.25, blue - red > 0.25
    neutral = (np.abs(red - blue) < 0.03) & (np.abs(red - green) < 0.03) & (red > 0.75) & (red < 0.95)
    return warm, cool, neutral


def domain_box(neutral):
    """The pixel rows and columns of the domain: those mostly of the neutral grey (θ′ = 0 around the bubble)."""
    rows = np.flatnonzero(neutral.mean(axis=1) > 0.3)
    columns = np.flatnonzero(neutral.mean(axis=0) > 0.3)
    return rows[0], rows[-1] + 1, columns[0], columns[-1] + 1


def look(png, what, cell, rises_from=None):
    """Checks a picture of the bubble, inside the domain; returns its warm pixels' centre in m. cell: the cells' size, m;
    rises_from: the centre at t = 0, which the bubble must have risen from (None: this is t = 0)."""
    image = matplotlib.image.imread(png)[..., :3]
    warm, cool, neutral = classes(image)
    colours = len(np.unique(image.reshape(-1, 3), axis=0))
    check(colours > 20 and warm.any(), f"{what}: not uniform, warm pixels", f"{colours} colours, {warm.sum()} warm")
    if not warm.any() or not neutral.any():
        return None
    top, bottom, left, right = domain_box(neutral)
    width, height = right - left, bottom - top
    outside = np.ones_like(warm)
    outside[top:bottom, left:right] = False
    warm, cool = warm & ~outside, cool & ~outside  # outside it: the colour bar
    check(abs(width / height - XLEN / ZLEN) < 0.03, f"{what}: the domain is {XLEN / ZLEN:g} times as wide as high",
          f"{width} x {height} pixels at ({left}, {top})")
    rows, columns = np.nonzero(warm)
    x = XLEN * (columns + 0.5 - left) / width
    z = ZLEN * (bottom - rows - 0.5) / height  # image rows run downwards, z upwards
    centre = (float(x.mean()), float(z.mean()))
    inside = (x - CENTRE[0]) ** 2 + (z - CENTRE[1]) ** 2 <= (RADIUS + cell) ** 2
    if rises_from is None:
        check(inside.all(), f"{what}: every warm pixel inside the bubble (r ≤ {RADIUS:g} m + a cell)",
              f"{(~inside).sum()} of {inside.size} outside; x {x.min():.0f}..{x.max():.0f}, z {z.min():.0f}..{z.max():.0f}")
        check(np.hypot(centre[0] - CENTRE[0], centre[1] - CENTRE[1]) < cell,
              f"{what}: the warm pixels centred on the bubble's centre {CENTRE}", centre)
        area = np.pi * (RADIUS / XLEN * width) * (RADIUS / ZLEN * height)
        check(warm.sum() > 0.25 * area, f"{what}: warm pixels cover a quarter of the bubble at least",
              f"{warm.sum()} pixels, the bubble {area:.0f}")
        check(not cool.any(), f"{what}: no cool pixel (θ′ ≥ 0 at t = 0)", f"{cool.sum()} cool pixels")
    else:
        check(centre[1] > rises_from[1] + cell and abs(centre[0] - rises_from[0]) < cell,
              f"{what}: the bubble has risen (by more than a cell) and stayed at its x",
              f"centre {centre}, at t = 0 {rises_from}")
    return centre


def frames_of(movie):
    if not shutil.which("ffprobe"):
        return None
    result = subprocess.run(["ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                             "stream=nb_read_frames", "-of", "csv=p=0", movie], capture_output=True, text=True)
    return result.stdout.strip()


with tempfile.TemporaryDirectory() as work:
    two_d = ["--set", "grid.nx=80", "--set", "grid.nz=40", "--set", f"perturbation.center={CENTRE[0]:g},{CENTRE[1]:g}",
             "--set", f"perturbation.radii={RADIUS:g},{RADIUS:g}"]
    per_time, series = os.path.join(work, "per_time"), os.path.join(work, "series")
    run_simapp(per_time, *two_d)
    run_simapp(series, *two_d, "--set", "output.layout=series")

    status, stdout, stderr = run_render(per_time)
    pngs = [os.path.join(per_time, "render", f"theta_prime_{step:06d}.png") for step in (0, 120, 240)]
    check(status == 0 and all(os.path.isfile(png) for png in pngs),
          "per-time snapshots: a PNG an output time, named by step", f"{status} {stdout} {stderr}")
    if all(os.path.isfile(png) for png in pngs):
        start = look(pngs[0], "2-D, t = 0", cell=XLEN / 80)
        if start:
            look(pngs[-1], "2-D, t = 200 s", cell=XLEN / 80, rises_from=start)
    movie = os.path.join(per_time, "render", "theta_prime.mp4")
    if shutil.which("ffmpeg"):
        frames = frames_of(movie)
        check(os.path.isfile(movie) and frames in (None, "3"), "per-time snapshots: a movie of 3 frames",
              f"{movie}: {frames} frames")

    out = os.path.join(work, "series_render")
    status, stdout, stderr = run_render(os.path.join(series, "fields.nc"), "--out", out, "--no-movie")
    same = [np.array_equal(matplotlib.image.imread(png), matplotlib.image.imread(os.path.join(out, os.path.basename(png))))
            if os.path.isfile(os.path.join(out, os.path.basename(png))) else False for png in pngs]
    check(status == 0 and all(same) and not os.path.exists(os.path.join(out, "theta_prime.mp4")),
          "the series fields.nc: the same pictures as the per-time snapshots, no movie with --no-movie",
          f"{status} {stdout} {stderr} equal: {same}")

    three_d = os.path.join(work, "three_d")
    run_simapp(three_d, "--set", "grid.nx=40", "--set", "grid.ny=8", "--set", "grid.nz=20", "--set",
               f"grid.ylen={XLEN / 2:g}", "--set", f"perturbation.center={CENTRE[0]:g},{XLEN / 4:g},{CENTRE[1]:g}",
               "--set", f"perturbation.radii={RADIUS:g},{RADIUS:g},{RADIUS:g}", "--set", "time.sim_time=100",
               "--set", "output.layout=series")
    status, stdout, stderr = run_render(three_d, "--no-movie")
    png = os.path.join(three_d, "render", "theta_prime_000000.png")
    check(status == 0 and os.path.isfile(png), "3-D: the x–z slice through the centre rendered",
          f"{status} {stdout} {stderr}")
    if os.path.isfile(png):
        look(png, "3-D, t = 0, the slice j = ny // 2", cell=XLEN / 40)

    status, stdout, stderr = run_render("--help")
    check(status == 0 and stdout.startswith("usage:") and "--out" in stdout, "--help", f"{status} {stdout} {stderr}")
    empty = os.path.join(work, "empty")
    os.makedirs(empty)
    status, stdout, stderr = run_render(empty)
    check(status != 0 and stderr.strip() == f"render: error: {empty}: no output files (fields_<step>.nc, "
          "fields_<step>.h5 or fields.nc)", "a directory without results: a one-line error", f"{status} {stderr}")

if failures:
    print(f"{len(failures)} check(s) failed")
    sys.exit(1)
