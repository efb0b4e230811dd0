#!/usr/bin/env pvpython
"""Renders a simapp run with ParaView: a field at every output time to PNGs, and a movie.

usage: pvpython scripts/render.py RUN [--out DIR] [--field theta_prime] [--range LO:HI] [--width PIXELS]
                                      [--fps N] [--no-movie]

RUN is a run's output directory (its snapshots fields_<step>.nc, or .h5 as earlier versions named
them; or the series layout's fields.nc) or one of those files. Each output time becomes
DIR/<field>_<step>.png (DIR: RUN/render by default): a 2-D run's x–z plane, a 3-D run's x–z slice
through the centre (the row j = ny // 2), coloured by the field on one scale for the whole run,
centred on 0 (blue below, red above; --range sets it), titled with the case, the time and the
step. With ffmpeg on the PATH the frames also become DIR/<field>.mp4 (--no-movie: none).

Needs ParaView's Python (pvpython, Debian's python3-paraview) with h5py and numpy. A ParaView
that draws through X (Debian's) and finds no DISPLAY starts a virtual one, Xvfb (Debian's xvfb),
for as long as it runs.
"""
import argparse
import atexit
import ctypes
import os
import shutil
import signal
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

DEFAULT_WIDTH = 1280
DOMAIN_SHARE = (0.9, 0.78)  # at most this share of the image's width and height shows the domain
DOMAIN_RISE = 0.04  # the domain sits this share of the image's height above its centre: room for the colour bar


def fail(message):
    sys.exit(f"render: error: {message}")


def arguments():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     epilog="Example: pvpython scripts/render.py output/case  (then "
                                            "output/case/render/theta_prime_006000.png and theta_prime.mp4)")
    parser.add_argument("run", metavar="RUN", help="a run's output directory, or fields.nc or a snapshot")
    parser.add_argument("--out", metavar="DIR", help="where the PNGs and the movie go (default: RUN/render)")
    parser.add_argument("--field", default="theta_prime", help="the field to draw (default: theta_prime)")
    parser.add_argument("--range", metavar="LO:HI", help="the colour scale (default: ±the largest |value| of the run)")
    parser.add_argument("--width", type=int, default=DEFAULT_WIDTH, metavar="PIXELS",
                        help=f"the images' width (default {DEFAULT_WIDTH}); the height follows the domain")
    parser.add_argument("--fps", type=float, default=4.0, help="the movie's frames a second (default 4)")
    parser.add_argument("--no-movie", action="store_true", help="PNGs only")
    args = parser.parse_args()
    if args.range:
        try:
            low, high = (float(value) for value in args.range.split(":"))
        except ValueError:
            fail(f"--range '{args.range}': expected two numbers LO:HI")
        if not low < high:
            fail(f"--range '{args.range}': LO must be below HI")
        args.range = (low, high)
    if not 64 <= args.width <= 8192:
        fail(f"--width {args.width}: expected 64 to 8192 pixels")
    if not args.fps > 0:
        fail(f"--fps {args.fps:g}: expected a positive number")
    return args


def draws_through_x():
    """Whether this ParaView's render windows are X windows (those of Debian's build are; an EGL or
    OSMesa build draws without a display)."""
    import vtkmodules.vtkRenderingOpenGL2  # noqa: F401 (registers the OpenGL render window)
    from vtkmodules.vtkRenderingCore import vtkRenderWindow

    return vtkRenderWindow().GetClassName() == "vtkXOpenGLRenderWindow"


def end_with_parent():
    """In a child process before it starts: SIGTERM when its parent ends (Linux's PR_SET_PDEATHSIG)."""
    PR_SET_PDEATHSIG = 1
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


def ensure_display():
    """Starts a virtual X display (Xvfb) for this process where ParaView needs one and there is none.
    The server picks a free display itself (-displayfd) and ends when this process does, even by a
    crash (the kernel sends it SIGTERM then: PR_SET_PDEATHSIG)."""
    if os.environ.get("DISPLAY") or not draws_through_x():
        return
    if not shutil.which("Xvfb"):
        fail("this ParaView draws through X and there is no DISPLAY: install xvfb, or run under an X server")
    read_end, write_end = os.pipe()
    # -noreset: an X server resets when its last client leaves, and refuses connections meanwhile;
    # ParaView's check of OpenGL connects and leaves before its render window connects.
    server = subprocess.Popen(["Xvfb", "-displayfd", str(write_end), "-noreset", "-nolisten", "tcp", "-screen", "0",
                               "1920x1080x24"], pass_fds=(write_end,), stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, preexec_fn=end_with_parent)
    os.close(write_end)
    with os.fdopen(read_end) as announced:
        display = announced.readline().strip()
    if not display.isdigit():
        server.kill()
        fail(f"Xvfb started no X display (exit status {server.wait()})")
    os.environ["DISPLAY"] = f":{display}"

    def stop():
        server.terminate()
        server.wait()

    atexit.register(stop)


def frames(run, field):
    """Every output time of the run, in order: its time, step, case and the x–z slice drawn with its
    cell edges (x, z) and what it is."""
    import h5py

    from output_files import BadOutput, edges, output_times, run_files, text

    try:
        files = run_files(run)
    except BadOutput as error:
        fail(str(error))
    for path in files:
        try:
            file = h5py.File(path, "r")
        except OSError as error:
            fail(f"{path}: cannot read as netCDF-4/HDF5 ({error})")
        with file:
            try:
                times, steps = output_times(file, path)
            except BadOutput as error:
                fail(str(error))
            for name in (field, "x_bnds", "z_bnds"):
                if name not in file:
                    fail(f"{path}: no variable '{name}'")
            values = file[field]
            if values.ndim not in (3, 4) or values.shape[0] < len(times):
                fail(f"{path}: '{field}' is {values.shape}, not (time, z, x) nor (time, z, y, x) of {len(times)} times")
            x, z = edges(file["x_bnds"][()]), edges(file["z_bnds"][()])
            where = ""
            if values.ndim == 4:
                j = values.shape[2] // 2
                y = f"{float(file['y'][j]):g} m" if "y" in file else f"row {j}"
                where = f", x–z slice at y = {y}"
            for index, (time, step) in enumerate(zip(times, steps)):
                plane = values[index, :, values.shape[2] // 2, :] if values.ndim == 4 else values[index]
                yield {"time": float(time), "step": step, "case": text(file.attrs.get("case", "simapp")),
                       "units": text(values.attrs.get("units", "")), "values": plane, "x": x, "z": z,
                       "where": where}


def colour_range(all_frames, chosen):
    """The colour scale: the one asked for, else ±the largest |value| over the run (1 where all are 0)."""
    if chosen:
        return chosen
    import numpy as np

    limit = max(float(np.nanmax(np.abs(frame["values"]))) for frame in all_frames) or 1.0
    return -limit, limit


def grid_of(frame, field):
    """The frame's x–z plane as a VTK rectilinear grid of cells (x along x, z along y), the field on the cells."""
    import numpy as np
    from vtkmodules.util.numpy_support import numpy_to_vtk
    from vtkmodules.vtkCommonDataModel import vtkRectilinearGrid

    grid = vtkRectilinearGrid()
    grid.SetDimensions(len(frame["x"]), len(frame["z"]), 1)
    grid.SetXCoordinates(numpy_to_vtk(np.ascontiguousarray(frame["x"], dtype=float), deep=True))
    grid.SetYCoordinates(numpy_to_vtk(np.ascontiguousarray(frame["z"], dtype=float), deep=True))
    grid.SetZCoordinates(numpy_to_vtk(np.zeros(1), deep=True))
    values = numpy_to_vtk(np.ascontiguousarray(frame["values"], dtype=float).ravel(), deep=True)
    values.SetName(field)
    grid.GetCellData().SetScalars(values)
    return grid


def image_size(frame, width):
    """The image's width and height (even, as video encoders want) for the frame's domain."""
    extent_x, extent_z = frame["x"][-1] - frame["x"][0], frame["z"][-1] - frame["z"][0]
    height = width * (extent_z / extent_x) * DOMAIN_SHARE[0] / DOMAIN_SHARE[1]
    height = min(max(height, 0.4 * width), 2 * width)
    return width, 2 * int(round(height / 2))


class Renderer:
    """A ParaView render view holding one x–z plane at a time, its colour bar and its title."""

    def __init__(self, field, units, scale, size):
        import paraview.simple as pv

        self.pv = pv
        self.field = field
        self.view = pv.CreateRenderView()
        self.view.ViewSize = list(size)
        self.view.OrientationAxesVisibility = 0
        self.view.UseColorPaletteForBackground = 0
        self.view.Background = [1.0, 1.0, 1.0]
        self.view.CameraParallelProjection = 1
        self.source = pv.PVTrivialProducer()
        self.title = pv.Text()
        title = pv.Show(self.title, self.view)
        title.WindowLocation = "Upper Center"
        title.Color = [0.0, 0.0, 0.0]
        title.FontSize = 20
        self.scale = scale
        self.lut = pv.GetColorTransferFunction(field)
        self.lut.ApplyPreset("Cool to Warm", True)
        self.lut.AutomaticRescaleRangeMode = "Never"
        bar = pv.GetScalarBar(self.lut, self.view)
        bar.Title = f"{field} ({units})" if units else field
        bar.ComponentTitle = ""
        bar.Orientation = "Horizontal"
        bar.WindowLocation = "Lower Center"
        bar.TitleColor = bar.LabelColor = [0.0, 0.0, 0.0]
        bar.ScalarBarLength = 0.5
        bar.RangeLabelFormat = "%-#.3g"
        self.display = None

    def save(self, frame, path):
        """Draws the frame and writes the PNG `path`."""
        pv = self.pv
        self.source.GetClientSideObject().SetOutput(grid_of(frame, self.field))
        self.source.MarkModified(self.source)
        if self.display is None:
            self.display = pv.Show(self.source, self.view)
            self.display.Representation = "Surface"
            self.display.Ambient, self.display.Diffuse = 1.0, 0.0  # the colour map's own colours, unshaded
            pv.ColorBy(self.display, ("CELLS", self.field))
            self.lut.RescaleTransferFunction(*self.scale)  # after ColorBy, which fits it to the first frame
            self.display.SetScalarBarVisibility(self.view, True)
            self.place_camera(frame)
        step = f" (step {frame['step']})" if frame["step"] is not None else ""
        self.title.Text = f"{frame['case']}: {self.field} at t = {frame['time']:g} s{step}{frame['where']}"
        pv.SaveScreenshot(path, self.view, ImageResolution=list(self.view.ViewSize))

    def place_camera(self, frame):
        """Looks down on the x–z plane, the domain as large as the title and the colour bar leave room for."""
        width, height = self.view.ViewSize
        x0, x1, z0, z1 = frame["x"][0], frame["x"][-1], frame["z"][0], frame["z"][-1]
        half_height = max((x1 - x0) * height / width / DOMAIN_SHARE[0], (z1 - z0) / DOMAIN_SHARE[1]) / 2
        centre = [(x0 + x1) / 2, (z0 + z1) / 2 - DOMAIN_RISE * 2 * half_height]
        self.view.CameraFocalPoint = [*centre, 0.0]
        self.view.CameraPosition = [*centre, 10.0 * max(x1 - x0, z1 - z0)]
        self.view.CameraViewUp = [0.0, 1.0, 0.0]
        self.view.CameraParallelScale = half_height


def encoder():
    """The video encoder: H.264 where this ffmpeg has it, else MPEG-4 part 2."""
    listed = subprocess.run(["ffmpeg", "-hide_banner", "-encoders"], capture_output=True, text=True).stdout
    return ["-c:v", "libx264", "-pix_fmt", "yuv420p"] if " libx264 " in listed else ["-c:v", "mpeg4", "-q:v", "3"]


def movie(pngs, path, fps):
    """Joins the PNGs, in order, into the movie `path` with ffmpeg."""
    command = ["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f", "image2pipe", "-framerate", f"{fps:g}",
               "-i", "-", *encoder(), path]
    with subprocess.Popen(command, stdin=subprocess.PIPE) as ffmpeg:
        for png in pngs:
            with open(png, "rb") as image:
                ffmpeg.stdin.write(image.read())
        ffmpeg.stdin.close()
    if ffmpeg.returncode != 0:
        fail(f"{path}: ffmpeg exited with {ffmpeg.returncode}")


def main():
    args = arguments()
    all_frames = list(frames(args.run, args.field))
    ensure_display()  # after reading the run: bad input is told without starting a display
    out = args.out or os.path.join(args.run if os.path.isdir(args.run) else os.path.dirname(args.run) or ".",
                                   "render")
    os.makedirs(out, exist_ok=True)
    scale = colour_range(all_frames, args.range)
    renderer = Renderer(args.field, all_frames[0]["units"], scale, image_size(all_frames[0], args.width))
    pngs = []
    for number, frame in enumerate(all_frames):
        name = f"{frame['step']:06d}" if frame["step"] is not None else f"frame{number:04d}"
        pngs.append(os.path.join(out, f"{args.field}_{name}.png"))
        renderer.save(frame, pngs[-1])
    print(f"render: {len(pngs)} PNG{'s' if len(pngs) != 1 else ''} of {args.field} in {out} "
          f"({os.path.basename(pngs[0])} … {os.path.basename(pngs[-1])}), colours from {scale[0]:g} to {scale[1]:g}")
    if args.no_movie:
        return
    if not shutil.which("ffmpeg"):
        print("render: no movie: ffmpeg is not installed (Debian's ffmpeg)")
        return
    path = os.path.join(out, f"{args.field}.mp4")
    movie(pngs, path, args.fps)
    print(f"render: wrote {path} ({len(pngs)} frames, {args.fps:g} a second)")


if __name__ == "__main__":
    main()
