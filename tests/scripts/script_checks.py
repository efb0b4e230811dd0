"""What the scripts' tests share: checks that print ok or FAIL and keep the failures, a script run
in a child Python, and the check of a written PNG. A test imports it from its own directory and
ends with `finish()`."""
import os
import subprocess
import sys

failures = []


def check(condition, what, detail=""):
    """Prints `ok: what`, or `FAIL: what` (with what was got) and keeps it among the failures."""
    if condition:
        print(f"ok: {what}")
    else:
        failures.append(what)
        print(f"FAIL: {what}" + (f"\n  got: {detail}" if detail else ""))


def run_script(script, *args, timeout=120):
    """Runs `script` with `args` in this Python: its exit status, standard output and error."""
    result = subprocess.run([sys.executable, script, *args], capture_output=True, text=True, timeout=timeout)
    return result.returncode, result.stdout, result.stderr


def check_png(path, what, min_height, min_width=0):
    """The PNG at `path` exists, reads back as an image at least min_height × min_width pixels,
    and holds more than 50 colours (a drawing, not a blank page)."""
    import matplotlib.image
    import numpy as np

    if not os.path.isfile(path):
        check(False, f"{what}: the PNG {path} is written")
        return
    image = matplotlib.image.imread(path)
    colours = len(np.unique(image.reshape(-1, image.shape[-1]), axis=0))
    size = f"at least {min_width} × {min_height} pixels" if min_width else f"at least {min_height} pixels high"
    check(image.ndim == 3 and image.shape[0] >= min_height and image.shape[1] >= min_width and colours > 50,
          f"{what}: the PNG reads back, {size}, more than one colour", f"{image.shape}, {colours}")


def finish():
    """Exits 1 when a check failed, printing how many."""
    if failures:
        print(f"{len(failures)} check(s) failed")
        sys.exit(1)
