"""Opens a simapp run with each of ParaView's readers (run by pvpython) and checks what they show
against the HDF5 datasets: fields.xmf with the XDMF Reader, Xdmf3 Reader S and Xdmf3 Reader T
(every time the index lists: the time, the mesh's cells and bounds, x along ParaView's x and z
along its y, or in the 3-D model x, y and z along its x, y and z, every field's values), and every
snapshot with the netCDF CF reader (the cell centres as its points, every field's values).

usage: pvpython paraview_xdmf_check.py OUTPUT_DIR/fields.xmf
"""
import os
import sys
import xml.etree.ElementTree as ET

import h5py
import numpy as np
from paraview import servermanager
from paraview.simple import NetCDFReader, Xdmf3ReaderS, Xdmf3ReaderT, XDMFReader
from vtk.util.numpy_support import vtk_to_numpy

XDMF_READERS = {
    "XDMF Reader": lambda xmf: XDMFReader(FileNames=[xmf]),
    "Xdmf3 Reader S": lambda xmf: Xdmf3ReaderS(FileName=[xmf]),
    "Xdmf3 Reader T": lambda xmf: Xdmf3ReaderT(FileName=[xmf]),
}


def fail(message):
    print(f"paraview_xdmf_check: {message}")
    sys.exit(1)


def check_values(reader_name, snapshot, arrays, h5, names):
    """Every field `names` of `arrays` (a vtkDataSetAttributes) equals its HDF5 dataset."""
    for name in names:
        array = arrays.GetArray(name)
        if array is None:
            fail(f"{reader_name}: {snapshot}: no field {name}")
        if not np.array_equal(vtk_to_numpy(array), h5[name][()].reshape(-1)):
            fail(f"{reader_name}: {snapshot}: {name} differs from the HDF5 dataset")


def check_index(reader_name, xmf, directory, grids):
    reader = XDMF_READERS[reader_name](xmf)
    times = list(reader.TimestepValues)
    if len(times) != len(grids):
        fail(f"{reader_name}: lists {len(times)} times, the index {len(grids)} grids")
    for grid, time in zip(grids, times):
        items = grid.findall("Attribute//DataItem[@Format='HDF']")
        (snapshot,) = {item.text.split(":/")[0] for item in items}
        names = [item.text.split(":/")[1] for item in items]
        with h5py.File(os.path.join(directory, snapshot), "r") as h5:
            nx, nz = int(h5.attrs["nx"]), int(h5.attrs["nz"])
            ny = int(h5.attrs["ny"]) if "ny" in h5.attrs else 1
            if abs(float(h5["time"][0]) - time) > 1e-9 * max(1.0, abs(time)):
                fail(f"{reader_name}: {snapshot}: time {time} is not the snapshot's {h5['time'][0]}")
            reader.UpdatePipeline(time)
            data = servermanager.Fetch(reader)
            if data.GetNumberOfCells() != nx * ny * nz:
                fail(f"{reader_name}: {snapshot}: {data.GetNumberOfCells()} cells, expected {nx * ny * nz}")
            x_edges, z_edges = h5["x_bnds"][()], h5["z_bnds"][()]
            if ny > 1:
                y_edges = h5["y_bnds"][()]
                expected = (x_edges[0, 0], x_edges[-1, 1], y_edges[0, 0], y_edges[-1, 1], z_edges[0, 0], z_edges[-1, 1])
            else:
                expected = (x_edges[0, 0], x_edges[-1, 1], z_edges[0, 0], z_edges[-1, 1], 0.0, 0.0)
            if not np.allclose(data.GetBounds(), expected, rtol=1e-12, atol=0.0):
                fail(f"{reader_name}: {snapshot}: bounds {data.GetBounds()}, expected the cell bounds' {expected}")
            check_values(reader_name, snapshot, data.GetCellData(), h5, names)
        print(f"{reader_name}: {snapshot}: t = {time:g} s, {nx * ny * nz} cells, bounds {data.GetBounds()}, "
              f"{len(names)} fields equal")
    return {item.text.split(":/")[0] for grid in grids for item in grid.findall("Attribute//DataItem[@Format='HDF']")}


def check_cf(directory, snapshot):
    """The netCDF CF reader opens a snapshot as it is: points at the cell centres (x, z), or
    (x, y, z) in the 3-D model."""
    path = os.path.join(directory, snapshot)
    reader = NetCDFReader(FileName=[path])
    reader.UpdatePipeline()
    data = servermanager.Fetch(reader)
    with h5py.File(path, "r") as h5:
        axes = [h5[name][()] for name in ("x", "y", "z") if name in h5]
        expected = tuple(value for axis in axes for value in (axis[0], axis[-1]))
        points = int(np.prod([axis.size for axis in axes]))
        if data.GetNumberOfPoints() != points:
            fail(f"CF reader: {snapshot}: {data.GetNumberOfPoints()} points, expected {points}")
        bounds = data.GetBounds()[0 : len(expected)]
        if not np.allclose(bounds, expected, rtol=1e-12, atol=0.0):
            fail(f"CF reader: {snapshot}: bounds {bounds}, expected the cell centres' {expected}")
        rank = len(axes) + 1  # time and the axes
        names = [name for name in h5 if h5[name].dims and len(h5[name].shape) == rank]
        check_values("CF reader", snapshot, data.GetPointData(), h5, names)
    print(f"CF reader: {snapshot}: {points} points at the cell centres, {len(names)} fields equal")


def is_3d(directory, grids):
    """Whether the index is of the 3-D model's snapshots (they carry ny)."""
    first = grids[0].find("Attribute//DataItem[@Format='HDF']").text.split(":/")[0]
    with h5py.File(os.path.join(directory, first), "r") as h5:
        return "ny" in h5.attrs


def main():
    xmf = sys.argv[1]
    directory = os.path.dirname(os.path.abspath(xmf))
    grids = ET.parse(xmf).getroot().findall("Domain/Grid/Grid")
    three_d = is_3d(directory, grids)
    snapshots = set()
    for reader_name in XDMF_READERS:
        if three_d and reader_name == "XDMF Reader":
            # ParaView 5.11's legacy (xdmf2) reader selects a 3-D slab of the 4-D datasets; the
            # Xdmf3 readers take them as they are.
            print(f"{reader_name}: not a reader of 3-D indexes (use Xdmf3 Reader S or T)")
            continue
        snapshots |= check_index(reader_name, xmf, directory, grids)
    for snapshot in sorted(snapshots):
        if three_d:
            # ParaView 5.11's netCDF CF reader finds the time dimension by units "... since ...",
            # so it takes time, z, y, x for four spatial dimensions, which it does not read.
            print(f"CF reader: {snapshot}: not a reader of 4-D (time, z, y, x) variables with time in s")
            continue
        check_cf(directory, snapshot)


if __name__ == "__main__":
    main()
