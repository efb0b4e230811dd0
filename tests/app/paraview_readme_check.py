"""Follows README.md's ParaView steps on a 2-D run (run by pvpython) and looks at the pictures:
open fields.xmf with each reader it names, Apply (Show), choose the representation README names
(none where it names none), colour by theta_prime, go to the last time, save the view as a PNG.
Each picture must show the warm bubble (red pixels over the colour map's blue to red), not an
outline only.

usage: pvpython paraview_readme_check.py OUTPUT_DIR/fields.xmf
Exits 77 (skipped) where ParaView needs an X display and neither one nor Xvfb is there.
"""
import os
import re
import shutil
import sys

import matplotlib.image
import numpy as np

SOURCE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(SOURCE_DIR, "scripts"))
from render import draws_through_x, ensure_display  # noqa: E402 (after the path to scripts/)

READERS = {"XDMF Reader": "XDMFReader", "Xdmf3 Reader S": "Xdmf3ReaderS", "Xdmf3 Reader T": "Xdmf3ReaderT"}


def fail(message):
    print(f"paraview_readme_check: {message}")
    sys.exit(1)


def readme_steps():
    """README's ParaView paragraph, and the representation it says to choose (None: it names none)."""
    with open(os.path.join(SOURCE_DIR, "README.md"), encoding="utf-8") as readme:
        text = readme.read()
    paragraph = re.search(r"In \*\*ParaView\*\*:(.*?)\n\n", text, re.S)
    if not paragraph:
        fail("README.md has no paragraph 'In **ParaView**: ...'")
    named = re.search(r"representation[^.]*?\*\*(\w+)\*\*", paragraph.group(1), re.I)
    return paragraph.group(1), named.group(1) if named else None


def picture(pv, reader_name, xmf, representation, png):
    """The README's steps with one reader, saved as `png`."""
    reader = getattr(pv, READERS[reader_name])(**({"FileNames": [xmf]} if reader_name == "XDMF Reader"
                                                   else {"FileName": [xmf]}))
    view = pv.CreateRenderView()
    view.ViewSize = [800, 500]
    view.OrientationAxesVisibility = 0  # its red x axis is not the bubble
    display = pv.Show(reader, view)
    if representation:
        display.Representation = representation
    pv.ColorBy(display, ("CELLS", "theta_prime"))
    display.RescaleTransferFunctionToDataRange(True, False)
    view.ViewTime = reader.TimestepValues[-1]
    view.InteractionMode = "2D"
    view.ResetCamera()
    pv.SaveScreenshot(png, view, ImageResolution=[800, 500])
    pv.Delete(display)
    pv.Delete(view)
    pv.Delete(reader)


def main():
    xmf = os.path.abspath(sys.argv[1])
    paragraph, representation = readme_steps()
    missing = [name for name in READERS if name not in paragraph]
    if missing:
        fail(f"README's ParaView steps do not name the reader(s) {', '.join(missing)}")
    if draws_through_x() and not os.environ.get("DISPLAY") and not shutil.which("Xvfb"):
        print("skipped: ParaView needs an X display: none, and no Xvfb (install xvfb)")
        sys.exit(77)
    ensure_display()
    import paraview.simple as pv

    print(f"README's representation: {representation or 'none named (ParaView chooses)'}")
    for reader_name in READERS:
        png = os.path.join(os.path.dirname(xmf), reader_name.replace(" ", "_") + ".png")
        picture(pv, reader_name, xmf, representation, png)
        image = matplotlib.image.imread(png)[..., :3]
        warm = int((image[..., 0] - image[..., 2] > 0.25).sum())
        print(f"{reader_name}: {warm} warm pixels in {png}")
        if warm < 500:
            fail(f"{reader_name}: README's steps show no bubble (only {warm} warm pixels): an outline?")


if __name__ == "__main__":
    main()
