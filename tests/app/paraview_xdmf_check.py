"""Opens a simapp run with each of ParaView's readers (run by pvpython) and checks what they show
against the HDF5 datasets: fields.xmf with the XDMF Reader, Xdmf3 Reader S and Xdmf3 Reader T
(every time the index lists: the time, the mesh's cells and bounds, x along ParaView's x and z
along its y, or in the 3-D model x, y and z along its x, y and z, every field's values), and every
snapshot with the netCDF CF reader (its time step, the cell centres as its points, every field's
values), 2-D and 3-D. Given the same case run with output.layout series too: its fields.nc in the
netCDF CF reader, with a time step for each of its times and each time's values.

usage: pvpython paraview_xdmf_check.py PER_TIME_OUTPUT_DIR [SERIES_OUTPUT_DIR]
"""
import os
import sys
import xml.etree.ElementTree as ET

import h5py
import numpy as np
from paraview import servermanager
from paraview.simple import NetCDFReader, OpenDataFile, Xdmf3ReaderS, Xdmf3ReaderT, XDMFReader
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


def check_cf(path):
    """File > Open finds readers for a snapshot or a series, and the netCDF CF reader opens it as it
    is: a time step at each time of the file, points at the cell centres (x, z), or (x, y, z) in
    the 3-D model, and the fields' values at each time."""
    name = os.path.basename(path)
    try:  # what File > Open does: find the readers of the file's name (.nc: the netCDF ones)
        OpenDataFile(os.path.abspath(path))
    except RuntimeError as error:
        fail(f"{name}: ParaView's File > Open finds no reader for it: {error}")
    reader = NetCDFReader(FileName=[path])
    with h5py.File(path, "r") as h5:
        times = h5["time"][()]
        steps = reader.TimestepValues
        steps = list(steps) if isinstance(steps, (list, tuple)) or hasattr(steps, "__len__") else [steps]
        if len(steps) != len(times) or not np.allclose(steps, times, rtol=1e-12, atol=0.0):
            fail(f"CF reader: {name}: time steps {steps}, the file's times {list(times)}")
        axes = [h5[axis][()] for axis in ("x", "y", "z") if axis in h5]
        expected = tuple(value for axis in axes for value in (axis[0], axis[-1]))
        points = int(np.prod([axis.size for axis in axes]))
        rank = len(axes) + 1  # time and the axes
        names = [field for field in h5 if h5[field].dims and len(h5[field].shape) == rank]
        for n, time in enumerate(times):
            reader.UpdatePipeline(time)
            data = servermanager.Fetch(reader)
            if data.GetNumberOfPoints() != points:
                fail(f"CF reader: {name}: {data.GetNumberOfPoints()} points, expected {points}")
            bounds = data.GetBounds()[0 : len(expected)]
            if not np.allclose(bounds, expected, rtol=1e-12, atol=0.0):
                fail(f"CF reader: {name}: bounds {bounds}, expected the cell centres' {expected}")
            for field in names:
                array = data.GetPointData().GetArray(field)
                if array is None:
                    fail(f"CF reader: {name}: no field {field} at t = {time:g} s")
                if not np.array_equal(vtk_to_numpy(array), h5[field][n].reshape(-1)):
                    fail(f"CF reader: {name}: {field} at t = {time:g} s differs from the HDF5 dataset")
    print(f"CF reader: {name}: {len(times)} time step(s) {list(times)}, {points} points at the cell centres, "
          f"{len(names)} fields equal")


def is_3d(directory, grids):
    """Whether the index is of the 3-D model's snapshots (they carry ny)."""
    first = grids[0].find("Attribute//DataItem[@Format='HDF']").text.split(":/")[0]
    with h5py.File(os.path.join(directory, first), "r") as h5:
        return "ny" in h5.attrs


def main():
    directory = sys.argv[1]
    xmf = os.path.join(directory, "fields.xmf")
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
        check_cf(os.path.join(directory, snapshot))
    if len(sys.argv) > 2:
        check_cf(os.path.join(sys.argv[2], "fields.nc"))


if __name__ == "__main__":
    main()
