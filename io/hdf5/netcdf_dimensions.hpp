#pragma once
/// Dimensions as netCDF-4 stores them in an HDF5 file: dimension scales (HDF5's high-level H5DS
/// API), so that netCDF-C, NCO, xarray (h5netcdf or netcdf4) and ParaView's CF reader see named
/// dimensions and coordinate variables, and h5py and the HDF5 C API plain datasets.
#include <hdf5.h>

#include <string>
#include <vector>

namespace simapp::io {

/// Makes dataset `name` of `file` the dimension scale of the dimension of its own name: a
/// coordinate variable.
void make_dimension_scale(hid_t file, const std::string& name);

/// A dimension of `length` that has no variable, as netCDF-C writes one: a float32 dataset of
/// that length that holds no values, made a dimension scale whose name is netCDF-C's mark ("This
/// is a netCDF dimension but not a netCDF variable." and the length), which netCDF-C, h5netcdf
/// and xarray show as a dimension only.
void write_dimension_without_variable(hid_t file, const std::string& name, hsize_t length);

/// Attaches the dimension scales named `dimensions` to dataset `name`'s dimensions, in order.
void attach_dimensions(hid_t file, const std::string& name, const std::vector<std::string>& dimensions);

}  // namespace simapp::io
