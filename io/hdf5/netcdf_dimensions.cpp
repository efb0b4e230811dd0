#include "io/hdf5/netcdf_dimensions.hpp"

#include <hdf5_hl.h>

#include <fmt/format.h>

#include "io/hdf5/hdf5_file.hpp"
#include "io/hdf5/hdf5_handle.hpp"

namespace simapp::io {

namespace {

DatasetHandle open_dataset(hid_t file, const std::string& name) {
  return DatasetHandle(checked(H5Dopen2(file, name.c_str(), H5P_DEFAULT), "cannot open dataset " + name));
}

}  // namespace

void make_dimension_scale(hid_t file, const std::string& name) {
  check(H5DSset_scale(open_dataset(file, name).get(), name.c_str()), "cannot make " + name + " a dimension scale");
}

void write_dimension_without_variable(hid_t file, const std::string& name, hsize_t length) {
  const DataspaceHandle space(
      checked(H5Screate_simple(1, &length, nullptr), "cannot create the dataspace of dimension " + name));
  const DatasetHandle dataset(checked(H5Dcreate2(file, name.c_str(), H5T_IEEE_F32BE, space.get(), H5P_DEFAULT,
                                                 dataset_creation_properties().get(), H5P_DEFAULT),
                                      "cannot create dimension " + name));
  const std::string mark = fmt::format("This is a netCDF dimension but not a netCDF variable.{:10}", length);
  check(H5DSset_scale(dataset.get(), mark.c_str()), "cannot make " + name + " a dimension");
}

void attach_dimensions(hid_t file, const std::string& name, const std::vector<std::string>& dimensions) {
  const DatasetHandle dataset = open_dataset(file, name);
  for (std::size_t n = 0; n < dimensions.size(); ++n)
    check(H5DSattach_scale(dataset.get(), open_dataset(file, dimensions[n]).get(), static_cast<unsigned>(n)),
          "cannot attach dimension " + dimensions[n] + " to " + name);
}

}  // namespace simapp::io
