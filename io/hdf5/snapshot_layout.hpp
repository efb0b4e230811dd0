#pragma once
/// The netCDF-4/CF layout that a snapshot file and a snapshot series share (snapshot_writer.hpp
/// describes it): the checks of a request, the coordinates with time and step, the variables'
/// datasets and the root attributes, made with the HDF5 C API in a file being built.
#include <hdf5.h>

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "io/hdf5/hdf5_handle.hpp"
#include "io/hdf5/snapshot_writer.hpp"

namespace simapp::io {

// ---- checking the request

/// Refuses (bad input) a compression level outside 0..9 and an unknown or repeated field.
/// `tracers` and `water` (water_fields) are the run's fields besides the model's; with water the
/// surface fields may be named too.
void check_fields(const std::filesystem::path& path, const std::vector<std::string>& fields, int compression_level,
                  std::span<const DerivedField> tracers = {}, std::span<const DerivedField> water = {});
/// Refuses (bad input) a field of the 3-D model in a snapshot of the 2-D one (`ny` = 1).
void check_model_fields(const std::filesystem::path& path, const std::vector<std::string>& fields, int ny);
/// Refuses (internal) a snapshot with no valid grid.
void check_dimensions(const std::filesystem::path& path, const Snapshot& snapshot);
/// check_dimensions, then refuses (internal) a snapshot whose arrays do not match its grid.
void check_grid(const std::filesystem::path& path, const Snapshot& snapshot);

/// The cells of the snapshot's grid: nx · ny · nz.
std::size_t cell_count(const Snapshot& snapshot);

/// More than the bytes of a snapshot file of `field_count` uncompressed fields.
long long file_size_bound(const Snapshot& snapshot, std::size_t field_count);

// ---- the layout

/// The shape of a field of the grid at one time: [1][nz][nx] ([1][nz][ny][nx] in 3-D).
std::vector<hsize_t> field_dims(const Snapshot& snapshot);
/// Its dimensions, slowest first: time, z, (y,) x.
std::vector<std::string> field_dimension_names(const Snapshot& snapshot);

/// The shape of a surface field at one time: [1][nx] ([1][ny][nx] in 3-D).
std::vector<hsize_t> surface_dims(const Snapshot& snapshot);
/// Its dimensions, slowest first: time, (y,) x.
std::vector<std::string> surface_dimension_names(const Snapshot& snapshot);
/// The surface fields among `fields` with their values (the snapshot's surface), created with
/// `creation` (chunked where `max_dims` makes time unlimited).
void write_surface_fields(hid_t file, const Snapshot& snapshot, const std::vector<std::string>& fields, hid_t creation,
                          const std::vector<hsize_t>& max_dims = {});
/// Adds the shuffle and deflate filters at `compression_level` (> 0) to chunked `properties`.
void set_deflate(hid_t properties, int compression_level);
/// Creation properties of a dataset along the unlimited time dimension: chunked, `chunk` each.
PropertyListHandle along_time(const std::vector<hsize_t>& chunk);

/// Writes `values` (doubles) as variable `info.name` of shape `dims` (maximum `max_dims`, which
/// needs chunked `creation` properties where it is unlimited) on `dimensions`, with its CF
/// attributes (units, long_name, standard_name, comment); stored as 64-bit floats, or as 32-bit
/// floats (as_floats) where `precision` is float32.
void write_variable(hid_t file, const FieldInfo& info, const std::vector<hsize_t>& dims,
                    const std::vector<double>& values, hid_t creation, const std::vector<std::string>& dimensions,
                    const std::vector<hsize_t>& max_dims = {}, Precision precision = Precision::float64);
/// Writes a variable's CF attributes: units, long_name, and standard_name and comment where it
/// has them.
void write_variable_attributes(hid_t dataset, const FieldInfo& info);

/// The coordinates: time (the snapshot's time, unlimited, in seconds since its time_start) with
/// step(time), x, (y,) z with their bounds x_bnds, (y_bnds,) z_bnds on the dimension bnds.
void write_coordinates(hid_t file, const Snapshot& snapshot);

/// The profiles among `fields`: variables on z of the snapshot's background.
void write_profiles(hid_t file, const Snapshot& snapshot, const std::vector<std::string>& fields);

/// The root attributes: Conventions, title ("simapp <case>" unless given), source, the grid, case,
/// version and the input YAML.
void write_root_attributes(hid_t file, const Snapshot& snapshot, const std::string& title = {});

/// The root attribute simapp_precision: the snapshot's precision ("float64", "float32"), that of
/// the fields of the grid.
void write_precision_attribute(hid_t file, const Snapshot& snapshot);

/// The precision a snapshot file or series at `file` (`path` in messages) names in
/// simapp_precision: float64 where it has none (written before the attribute). A bad-input
/// Error for another name.
Precision stored_precision(hid_t file, const std::filesystem::path& path);

}  // namespace simapp::io
