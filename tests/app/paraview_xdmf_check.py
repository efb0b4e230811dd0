"""Opens a simapp fields.xmf with ParaView's own XDMF reader (run by pvpython) and checks, for
every time it lists, the mesh (dimensions, bounds: x along ParaView's x, z along its y), the
time, and every field's values against the HDF5 datasets the index names.

usage: pvpython paraview_xdmf_check.py OUTPUT_DIR/fields.xmf
"""
import os
import sys
import xml.etree.ElementTree as ET

import h5py
import numpy as np
from paraview import servermanager
from paraview.simple import XDMFReader
from vtk.util.numpy_support import vtk_to_numpy


def fail(message):
    print(f"paraview_xdmf_check: {message}")
    sys.exit(1)


def main():
    xmf = sys.argv[1]
    directory = os.path.dirname(os.path.abspath(xmf))
    grids = ET.parse(xmf).getroot().findall("Domain/Grid/Grid")
    reader = XDMFReader(FileNames=[xmf])
    times = list(reader.TimestepValues)
    if len(times) != len(grids):
        fail(f"ParaView lists {len(times)} times, the index {len(grids)} grids")
    for grid, time in zip(grids, times):
        items = grid.findall("Attribute//DataItem[@Format='HDF']")
        files = {item.text.split(":/")[0] for item in items}
        (snapshot,) = files
        with h5py.File(os.path.join(directory, snapshot), "r") as h5:
            nx, nz = int(h5.attrs["nx"]), int(h5.attrs["nz"])
            dx, dz = float(h5.attrs["dx"]), float(h5.attrs["dz"])
            if abs(float(h5.attrs["time"]) - time) > 1e-9 * max(1.0, abs(time)):
                fail(f"{snapshot}: ParaView's time {time} is not the snapshot's {h5.attrs['time']}")
            reader.UpdatePipeline(time)
            data = servermanager.Fetch(reader)
            if tuple(data.GetDimensions()) != (nx + 1, nz + 1, 2):
                fail(f"{snapshot}: dimensions {data.GetDimensions()}, expected {(nx + 1, nz + 1, 2)}")
            expected = (0.0, nx * dx, 0.0, nz * dz, 0.0, 0.0)
            if not np.allclose(data.GetBounds(), expected, rtol=1e-12, atol=0.0):
                fail(f"{snapshot}: bounds {data.GetBounds()}, expected {expected}")
            if not np.allclose(h5["x_nodes"][()][[0, -1]], expected[0:2]) or \
                    not np.allclose(h5["z_nodes"][()][[0, -1]], expected[2:4]):
                fail(f"{snapshot}: the mesh's bounds are not the snapshot's node coordinates")
            cells = data.GetCellData()
            names = [item.text.split(":/")[1] for item in items]
            for name in names:
                array = cells.GetArray(name)
                if array is None:
                    fail(f"{snapshot}: ParaView shows no cell field {name}")
                values = vtk_to_numpy(array)
                if not np.array_equal(values, h5[name][()].reshape(-1)):
                    fail(f"{snapshot}: {name} differs from the HDF5 dataset")
        print(f"{snapshot}: t = {time:g} s, {nx} x {nz} cells, bounds {data.GetBounds()}, {len(names)} fields equal")


if __name__ == "__main__":
    main()
