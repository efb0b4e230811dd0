#include "io/hdf5/snapshot_layout.hpp"

#include <algorithm>
#include <set>
#include <utility>

#include "foundation/error.hpp"
#include "foundation/printable_text.hpp"
#include "io/hdf5/cf_time.hpp"
#include "io/hdf5/hdf5_file.hpp"
#include "io/hdf5/hdf5_reader.hpp"
#include "io/hdf5/netcdf_dimensions.hpp"
#include "kernels/physics/variables.hpp"

namespace simapp::io {

namespace fs = std::filesystem;

namespace {

std::string known_field_names() {
  std::string names;
  for (const FieldInfo& field : snapshot_fields()) names += (names.empty() ? "" : ", ") + field.name;
  return names;
}

bool is_known_field(const std::string& name) {
  return std::ranges::any_of(snapshot_fields(), [&](const FieldInfo& field) { return field.name == name; });
}

/// Whether the snapshot's arrays have its grid's sizes.
bool arrays_match(const Snapshot& snapshot) {
  const auto rows = static_cast<std::size_t>(snapshot.nz);
  const std::size_t variables = model_variables_of_grid(snapshot.ny).size() + snapshot.tracer_fields.size();
  return snapshot.state.size() == variables * cell_count(snapshot) && snapshot.density_cell.size() == rows &&
         snapshot.rho_theta_cell.size() == rows &&
         snapshot.tracer_background_cell.size() == rows * snapshot.tracer_fields.size();
}

/// The `count` points (i + 0.5)·spacing, i = 0..count-1: the cell centres.
std::vector<double> cell_centres(int count, double spacing) {
  std::vector<double> points(static_cast<std::size_t>(count));
  for (std::size_t i = 0; i < points.size(); ++i) points[i] = (static_cast<double>(i) + 0.5) * spacing;
  return points;
}

/// The bounds [i·spacing, (i + 1)·spacing] of `count` cells, [count][2].
std::vector<double> cell_bounds(int count, double spacing) {
  std::vector<double> bounds;
  for (int i = 0; i < count; ++i) bounds.insert(bounds.end(), {i * spacing, (i + 1) * spacing});
  return bounds;
}

/// A coordinate variable of `count` cells of `spacing`: a dimension scale of its own name holding
/// the cell centres, with the CF attributes `extra` (axis, positive) besides its units, names and
/// its bounds, `<name>_bnds`, the cell edges on (name, bnds).
void write_axis(hid_t file, const FieldInfo& info, int count, double spacing,
                const std::vector<std::pair<const char*, std::string>>& extra) {
  const auto cells = static_cast<hsize_t>(count);
  write_variable(file, info, {cells}, cell_centres(count, spacing), dataset_creation_properties().get(), {});
  make_dimension_scale(file, info.name);
  {
    const DatasetHandle dataset(
        checked(H5Dopen2(file, info.name.c_str(), H5P_DEFAULT), "cannot open dataset " + info.name));
    for (const auto& [name, value] : extra) write_attribute(dataset.get(), name, value);
    write_attribute(dataset.get(), "bounds", info.name + "_bnds");
  }
}

/// The bounds of an axis written by write_axis: `<name>_bnds` on (name, bnds).
void write_axis_bounds(hid_t file, const FieldInfo& axis, int count, double spacing) {
  write_variable(file, {axis.name + "_bnds", axis.unit, axis.name + " of the cell edges", "", ""},
                 {static_cast<hsize_t>(count), 2}, cell_bounds(count, spacing), dataset_creation_properties().get(),
                 {axis.name, "bnds"});
}

/// Creates `name` along the unlimited time dimension holding `value` (of `memory_type`, stored as
/// `file_type`) as its first entry.
DatasetHandle create_along_time(hid_t file, const std::string& name, hid_t file_type, hid_t memory_type,
                                const void* value) {
  const hsize_t one = 1, unlimited = H5S_UNLIMITED;
  const DataspaceHandle space(checked(H5Screate_simple(1, &one, &unlimited), "cannot create the dataspace of " + name));
  DatasetHandle dataset(
      checked(H5Dcreate2(file, name.c_str(), file_type, space.get(), H5P_DEFAULT, along_time({1}).get(), H5P_DEFAULT),
              "cannot create dataset " + name));
  check(H5Dwrite(dataset.get(), memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, value), "cannot write dataset " + name);
  return dataset;
}

/// time(time): the output time in seconds since the snapshot's time_start (CF time), unlimited so
/// that the files of a run concatenate along it (open_mfdataset) and a series grows along it;
/// step(time), the time step of each output time (int64), a variable of its own so that each
/// file of a run has its own.
void write_time_and_step(hid_t file, const Snapshot& snapshot) {
  {
    DatasetHandle time = create_along_time(file, "time", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &snapshot.time);
    write_time_attributes(time.get(), snapshot.time_start);
    check(time.close(), "cannot close dataset time");
  }
  make_dimension_scale(file, "time");
  DatasetHandle step = create_along_time(file, "step", H5T_STD_I64LE, H5T_NATIVE_LONG, &snapshot.step);
  write_variable_attributes(step.get(), {"step", "1", "time step number", "", ""});
  check(step.close(), "cannot close dataset step");
  attach_dimensions(file, "step", {"time"});
}

}  // namespace

void check_fields(const fs::path& path, const std::vector<std::string>& fields, int compression_level,
                  std::span<const DerivedField> tracers, std::span<const DerivedField> water) {
  if (compression_level < 0 || compression_level > 9)
    throw Error(ExitCode::bad_input, path.string(),
                "compression level " + std::to_string(compression_level) + " is not in 0..9");
  std::set<std::string> seen;
  for (const std::string& name : fields) {
    if (!is_known_field(name) && find_field(2, tracers, name, water) == nullptr &&
        (water.empty() || find_surface_field(name) == nullptr))
      throw Error(ExitCode::bad_input, path.string(),
                  "unknown field '" + name + "' (known: " + known_field_names() + ")");
    if (!seen.insert(name).second) throw Error(ExitCode::bad_input, path.string(), "field '" + name + "' listed twice");
  }
}

void check_model_fields(const fs::path& path, const std::vector<std::string>& fields, int ny) {
  if (ny > 1) return;
  for (const std::string& name : fields)
    if (is_3d_field(name))
      throw Error(ExitCode::bad_input, path.string(),
                  "field '" + name + "' is of the 3-D model (grid.ny > 1); this grid is 2-D");
}

void check_dimensions(const fs::path& path, const Snapshot& snapshot) {
  if (snapshot.nx <= 0 || snapshot.nz <= 0 || snapshot.ny <= 0 || !(snapshot.dx > 0.0) || !(snapshot.dz > 0.0) ||
      (snapshot.ny > 1 && !(snapshot.dy > 0.0)))
    throw Error(ExitCode::internal, path.string(), "snapshot has no valid grid");
}

void check_grid(const fs::path& path, const Snapshot& snapshot) {
  check_dimensions(path, snapshot);
  if (!arrays_match(snapshot)) throw Error(ExitCode::internal, path.string(), "snapshot arrays do not match its grid");
}

std::size_t cell_count(const Snapshot& snapshot) {
  return static_cast<std::size_t>(snapshot.nx) * static_cast<std::size_t>(snapshot.ny) *
         static_cast<std::size_t>(snapshot.nz);
}

/// The fields, the coordinates with their bounds, time, step and the input YAML, and room for the
/// metadata with the dimension scales' references and the creation-order indexes of every
/// object's attributes (measured on 40 × 20 cells: 19.3 KiB with one field, 2.2 KiB more with a
/// second, 0.65 KiB a variable beyond; allowed: 24 KiB and 2.5 KiB a variable; in the 3-D model,
/// with y and four dimensions a field, twice that: 22.5 KiB measured with one field).
long long file_size_bound(const Snapshot& snapshot, std::size_t field_count) {
  const bool three_d = snapshot.ny > 1;
  const auto values = static_cast<long long>(field_count * cell_count(snapshot)) +
                      3LL * (snapshot.nx + (three_d ? snapshot.ny : 0) + snapshot.nz) + 3;
  const long long metadata = (three_d ? 2 : 1) * ((24LL << 10) + 2560 * static_cast<long long>(field_count));
  return values * static_cast<long long>(sizeof(double)) + static_cast<long long>(snapshot.input_yaml.size()) +
         metadata;
}

std::vector<hsize_t> field_dims(const Snapshot& snapshot) {
  if (snapshot.ny > 1)
    return {1, static_cast<hsize_t>(snapshot.nz), static_cast<hsize_t>(snapshot.ny), static_cast<hsize_t>(snapshot.nx)};
  return {1, static_cast<hsize_t>(snapshot.nz), static_cast<hsize_t>(snapshot.nx)};
}

std::vector<std::string> field_dimension_names(const Snapshot& snapshot) {
  if (snapshot.ny > 1) return {"time", "z", "y", "x"};
  return {"time", "z", "x"};
}

std::vector<hsize_t> surface_dims(const Snapshot& snapshot) {
  if (snapshot.ny > 1) return {1, static_cast<hsize_t>(snapshot.ny), static_cast<hsize_t>(snapshot.nx)};
  return {1, static_cast<hsize_t>(snapshot.nx)};
}

std::vector<std::string> surface_dimension_names(const Snapshot& snapshot) {
  if (snapshot.ny > 1) return {"time", "y", "x"};
  return {"time", "x"};
}

void write_surface_fields(hid_t file, const Snapshot& snapshot, const std::vector<std::string>& fields, hid_t creation,
                          const std::vector<hsize_t>& max_dims) {
  for (const std::string& name : surface_fields_among(fields)) {
    const FieldDescription& d = find_surface_field(name)->description;
    write_variable(file, {d.name, d.unit, d.long_name, d.standard_name, d.comment}, surface_dims(snapshot),
                   snapshot_field(snapshot, name), creation, surface_dimension_names(snapshot), max_dims);
  }
}

void set_deflate(hid_t properties, int compression_level) {
  check(H5Pset_shuffle(properties), "cannot set the shuffle filter");
  check(H5Pset_deflate(properties, static_cast<unsigned>(compression_level)), "cannot set deflate");
}

PropertyListHandle along_time(const std::vector<hsize_t>& chunk) {
  PropertyListHandle properties = dataset_creation_properties();
  check(H5Pset_chunk(properties.get(), static_cast<int>(chunk.size()), chunk.data()), "cannot set chunking");
  return properties;
}

void write_variable_attributes(hid_t dataset, const FieldInfo& info) {
  write_attribute(dataset, "units", info.unit);
  write_attribute(dataset, "long_name", info.long_name);
  if (!info.standard_name.empty()) write_attribute(dataset, "standard_name", info.standard_name);
  if (!info.comment.empty()) write_attribute(dataset, "comment", info.comment);
}

void write_variable(hid_t file, const FieldInfo& info, const std::vector<hsize_t>& dims,
                    const std::vector<double>& values, hid_t creation, const std::vector<std::string>& dimensions,
                    const std::vector<hsize_t>& max_dims, Precision precision) {
  const DataspaceHandle space(checked(
      H5Screate_simple(static_cast<int>(dims.size()), dims.data(), max_dims.empty() ? nullptr : max_dims.data()),
      "cannot create the dataspace of " + info.name));
  DatasetHandle dataset(checked(H5Dcreate2(file, info.name.c_str(), stored_float_type(precision), space.get(),
                                           H5P_DEFAULT, creation, H5P_DEFAULT),
                                "cannot create dataset " + info.name));
  // Rounded here, as a rank rounds its rows of a block-written file, not by HDF5's conversion.
  const herr_t written =
      precision == Precision::float32
          ? H5Dwrite(dataset.get(), H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, as_floats(values).data())
          : H5Dwrite(dataset.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data());
  check(written, "cannot write dataset " + info.name);
  write_variable_attributes(dataset.get(), info);
  check(dataset.close(), "cannot close dataset " + info.name);
  if (!dimensions.empty()) attach_dimensions(file, info.name, dimensions);
}

void write_coordinates(hid_t file, const Snapshot& snapshot) {
  const bool three_d = snapshot.ny > 1;
  const FieldInfo x{"x", "m", "x of the cell centres", "projection_x_coordinate", ""};
  const FieldInfo y{"y", "m", "y of the cell centres", "projection_y_coordinate", ""};
  const FieldInfo z{"z", "m", "height of the cell centres", "height", ""};
  write_time_and_step(file, snapshot);
  // x and y are known by their standard names, without CF's optional axis "X" and "Y": ParaView's
  // netCDF CF reader takes those for longitude and latitude and lays a 3-D grid out on a sphere.
  write_axis(file, x, snapshot.nx, snapshot.dx, {});
  if (three_d) write_axis(file, y, snapshot.ny, snapshot.dy, {});
  write_axis(file, z, snapshot.nz, snapshot.dz, {{"axis", "Z"}, {"positive", "up"}});
  write_dimension_without_variable(file, "bnds", 2);
  write_axis_bounds(file, x, snapshot.nx, snapshot.dx);
  if (three_d) write_axis_bounds(file, y, snapshot.ny, snapshot.dy);
  write_axis_bounds(file, z, snapshot.nz, snapshot.dz);
}

void write_profiles(hid_t file, const Snapshot& snapshot, const std::vector<std::string>& fields) {
  for (const FieldInfo& info : snapshot_fields())
    if (info.profile && std::ranges::find(fields, info.name) != fields.end())
      write_variable(file, info, {static_cast<hsize_t>(snapshot.nz)}, snapshot_field(snapshot, info.name),
                     dataset_creation_properties().get(), {"z"});
}

void write_root_attributes(hid_t file, const Snapshot& snapshot, const std::string& title) {
  write_attribute(file, "Conventions", std::string("CF-1.10"));
  write_attribute(file, "title", title.empty() ? "simapp " + snapshot.case_name : title);
  write_attribute(file, "source", "simapp " + snapshot.version + " (git " + snapshot.git_hash + ")");
  write_attribute(file, "dx", snapshot.dx);
  write_attribute(file, "dz", snapshot.dz);
  write_attribute(file, "nx", snapshot.nx);
  write_attribute(file, "nz", snapshot.nz);
  if (snapshot.ny > 1) {  // the 3-D model
    write_attribute(file, "dy", snapshot.dy);
    write_attribute(file, "ny", snapshot.ny);
  }
  write_attribute(file, "case", snapshot.case_name);
  write_attribute(file, "simapp_version", snapshot.version);
  write_attribute(file, "git_hash", snapshot.git_hash);
  write_attribute(file, "input_yaml", snapshot.input_yaml);
}

void write_precision_attribute(hid_t file, const Snapshot& snapshot) {
  write_attribute(file, "simapp_precision", std::string(to_string(snapshot.precision)));
}

Precision stored_precision(hid_t file, const fs::path& path) {
  const Hdf5Reader reader(file, path, ExitCode::bad_input);
  if (!reader.has_attribute("simapp_precision")) return Precision::float64;
  const std::string name = reader.read_attribute<std::string>("simapp_precision");
  for (const auto& [precision, known] : precision_names)
    if (name == known) return precision;
  throw Error(ExitCode::bad_input, path.string(),
              "attribute simapp_precision is '" + printable(name) + "', not one of float64, float32");
}

}  // namespace simapp::io
