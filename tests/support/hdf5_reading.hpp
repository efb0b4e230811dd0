#pragma once
/// Reading a file simapp wrote through the HDF5 C API itself, as an independent reader: a
/// dataset's dimensions and its values.
#include <gtest/gtest.h>
#include <hdf5.h>

#include <algorithm>
#include <string>
#include <vector>

#include "io/hdf5/hdf5_handle.hpp"

namespace simapp::testing {

/// The dimensions of dataset `name` of `file` (none when it cannot be read).
inline std::vector<hsize_t> dims_of(hid_t file, const std::string& name) {
  const io::DatasetHandle dataset(H5Dopen2(file, name.c_str(), H5P_DEFAULT));
  const io::DataspaceHandle space(H5Dget_space(dataset.get()));
  std::vector<hsize_t> dims(static_cast<std::size_t>(std::max(H5Sget_simple_extent_ndims(space.get()), 0)));
  H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
  return dims;
}

/// Every value of dataset `name` of `file`, as doubles (a test failure when it cannot be read).
inline std::vector<double> read_values(hid_t file, const std::string& name) {
  const io::DatasetHandle dataset(H5Dopen2(file, name.c_str(), H5P_DEFAULT));
  const io::DataspaceHandle space(H5Dget_space(dataset.get()));
  std::vector<double> values(
      static_cast<std::size_t>(std::max<hssize_t>(H5Sget_simple_extent_npoints(space.get()), 0)));
  EXPECT_GE(H5Dread(dataset.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), 0) << name;
  return values;
}

}  // namespace simapp::testing
