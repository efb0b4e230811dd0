#include "io/hdf5/snapshot_writer.hpp"

#include <hdf5.h>
#include <hdf5_hl.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstddef>
#include <exception>
#include <functional>
#include <optional>
#include <set>
#include <span>
#include <stdexcept>
#include <system_error>
#include <thread>
#include <utility>

#include <fmt/format.h>

#include "foundation/error.hpp"
#include "io/files/file_space.hpp"
#include "io/files/new_file.hpp"
#include "io/hdf5/hdf5_file.hpp"
#include "io/hdf5/hdf5_handle.hpp"
#include "io/hdf5/hdf5_reader.hpp"
#include "io/hdf5/rank_written_file.hpp"
#include "solver/decomposition/error_agreement.hpp"

namespace simapp::io {

namespace fs = std::filesystem;

namespace {

// ---- the fields -----------------------------------------------------------------------------

/// The prognostic variables by name. A snapshot's state holds them in its model's order: dens,
/// umom, wmom, rhot (2-D); dens, umom, vmom, wmom, rhot (3-D, ny > 1).
enum Variable : std::size_t { dens, umom, vmom, wmom, rhot };

/// Where `variable` is in the state of the model of `ny` cells in y.
std::size_t variable_index(Variable variable, std::size_t ny) {
  return ny > 1 || variable < vmom ? variable : variable - 1;
}

std::size_t variable_count(int ny) { return ny > 1 ? 5 : 4; }

std::size_t cell_count(const Snapshot& snapshot) {
  return static_cast<std::size_t>(snapshot.nx) * static_cast<std::size_t>(snapshot.ny) *
         static_cast<std::size_t>(snapshot.nz);
}

/// Whether the snapshot's arrays have its grid's sizes.
bool arrays_match(const Snapshot& snapshot) {
  const auto rows = static_cast<std::size_t>(snapshot.nz);
  return snapshot.nx > 0 && snapshot.ny > 0 && snapshot.nz > 0 &&
         snapshot.state.size() == variable_count(snapshot.ny) * cell_count(snapshot) &&
         snapshot.density_cell.size() == rows && snapshot.rho_theta_cell.size() == rows;
}

/// The cells a field's values come from: a whole snapshot or a rank's block of one, viewed, as
/// rows of nx values: row r is (k, j) = (r / ny, r % ny) (in the 2-D model, ny = 1: row k).
struct CellValues {
  std::size_t nx = 0, ny = 1, nz = 0;
  std::span<const double> state;                         ///< [var][k][i], or [var][k][j][i]
  std::span<const double> density_cell, rho_theta_cell;  ///< ρ̄_c(k), ρ̄θ̄_c(k) of these layers

  explicit CellValues(const Snapshot& snapshot)
      : nx(static_cast<std::size_t>(snapshot.nx)),
        ny(static_cast<std::size_t>(snapshot.ny)),
        nz(static_cast<std::size_t>(snapshot.nz)),
        state(snapshot.state),
        density_cell(snapshot.density_cell),
        rho_theta_cell(snapshot.rho_theta_cell) {}
  /// A block of a snapshot of `global_ny` cells in y (which says the model's variables).
  CellValues(const SnapshotBlock& block, int global_ny)
      : nx(static_cast<std::size_t>(block.nx)),
        ny(static_cast<std::size_t>(block.ny)),
        nz(static_cast<std::size_t>(block.nz)),
        state(block.state),
        density_cell(block.density_cell),
        rho_theta_cell(block.rho_theta_cell),
        model_ny(static_cast<std::size_t>(global_ny)) {}

  std::size_t rows() const { return ny * nz; }
  std::size_t cells() const { return nx * rows(); }
  /// Row r of `variable`.
  const double* row(Variable variable, std::size_t r) const {
    return state.data() + variable_index(variable, model_ny) * cells() + r * nx;
  }
  /// The layer k of row r, which its background values are of.
  std::size_t layer(std::size_t r) const { return r / ny; }

 private:
  std::size_t model_ny = ny;  ///< cells in y of the whole grid: more than 1 in the 3-D model
};

/// Row r of a field into out[0..nx).
using RowValues = void (*)(const CellValues& cells, std::size_t r, double* out);

template <Variable variable>
void prognostic(const CellValues& cells, std::size_t r, double* out) {
  std::copy_n(cells.row(variable, r), cells.nx, out);
}

/// Momentum `variable` divided by the density ρ = ρ̄_c(k) + ρ′: a velocity.
template <Variable variable>
void velocity(const CellValues& cells, std::size_t r, double* out) {
  const double* momentum = cells.row(variable, r);
  const double* density_perturbation = cells.row(dens, r);
  const double background = cells.density_cell[cells.layer(r)];
  for (std::size_t i = 0; i < cells.nx; ++i) out[i] = momentum[i] / (background + density_perturbation[i]);
}

/// θ′ = (ρ̄θ̄_c + (ρθ)′)/ρ − ρ̄θ̄_c/ρ̄_c.
void theta_prime(const CellValues& cells, std::size_t r, double* out) {
  const double* rho_theta = cells.row(rhot, r);
  const double* density_perturbation = cells.row(dens, r);
  const double density = cells.density_cell[cells.layer(r)], background = cells.rho_theta_cell[cells.layer(r)];
  for (std::size_t i = 0; i < cells.nx; ++i)
    out[i] = (background + rho_theta[i]) / (density + density_perturbation[i]) - background / density;
}

/// Every value of a field, row by row.
std::vector<double> all_rows(const CellValues& cells, RowValues row) {
  std::vector<double> values(cells.cells());
  for (std::size_t r = 0; r < cells.rows(); ++r) row(cells, r, values.data() + r * cells.nx);
  return values;
}

struct FieldDefinition {
  FieldInfo info;
  RowValues row;
  bool three_d_only = false;  ///< of the 3-D model's y momentum
};

const std::vector<FieldDefinition>& field_definitions() {
  static const std::vector<FieldDefinition> definitions{
      {{"rho_prime", "kg m-3", "density perturbation rho' = rho - rho_bar(z)", ""}, prognostic<dens>},
      {{"u", "m s-1", "horizontal velocity u = umom / rho", "x_wind"}, velocity<umom>},
      {{"v", "m s-1", "horizontal velocity v = vmom / rho (3-D model)", "y_wind"}, velocity<vmom>, true},
      {{"w", "m s-1", "vertical velocity w = wmom / rho", "upward_air_velocity"}, velocity<wmom>},
      {{"theta_prime", "K", "potential temperature perturbation theta' = theta - theta_bar(z)", ""}, theta_prime},
      {{"dens", "kg m-3", "prognostic variable dens = rho'", ""}, prognostic<dens>},
      {{"umom", "kg m-2 s-1", "prognostic variable umom = rho u", ""}, prognostic<umom>},
      {{"vmom", "kg m-2 s-1", "prognostic variable vmom = rho v (3-D model)", ""}, prognostic<vmom>, true},
      {{"wmom", "kg m-2 s-1", "prognostic variable wmom = rho w", ""}, prognostic<wmom>},
      {{"rhot", "kg m-3 K", "prognostic variable rhot = (rho theta)'", ""}, prognostic<rhot>},
  };
  return definitions;
}

const FieldDefinition* find_field(const std::string& name) {
  const auto& definitions = field_definitions();
  const auto found = std::find_if(definitions.begin(), definitions.end(),
                                  [&](const FieldDefinition& definition) { return definition.info.name == name; });
  return found == definitions.end() ? nullptr : &*found;
}
}  // namespace

std::vector<double> snapshot_field(const Snapshot& snapshot, const std::string& name) {
  const FieldDefinition* field = find_field(name);
  if (field == nullptr) throw Error(ExitCode::internal, "snapshot_field", "no field '" + name + "'");
  if (!arrays_match(snapshot))
    throw Error(ExitCode::internal, "snapshot_field", "snapshot arrays do not match its grid");
  if (field->three_d_only && snapshot.ny == 1)
    throw Error(ExitCode::bad_input, "snapshot_field", "field '" + name + "' is of the 3-D model (ny > 1)");
  return all_rows(CellValues(snapshot), field->row);
}

namespace {

// ---- checking the request -------------------------------------------------------------------

std::string known_field_names() {
  std::string names;
  for (const FieldInfo& field : snapshot_fields()) names += (names.empty() ? "" : ", ") + field.name;
  return names;
}

void check_fields(const fs::path& path, const std::vector<std::string>& fields, int compression_level) {
  if (compression_level < 0 || compression_level > 9)
    throw Error(ExitCode::bad_input, path.string(),
                "compression level " + std::to_string(compression_level) + " is not in 0..9");
  std::set<std::string> seen;
  for (const std::string& name : fields) {
    if (!find_field(name))
      throw Error(ExitCode::bad_input, path.string(),
                  "unknown field '" + name + "' (known: " + known_field_names() + ")");
    if (!seen.insert(name).second) throw Error(ExitCode::bad_input, path.string(), "field '" + name + "' listed twice");
  }
}

/// Refuses (bad input) a field of the 3-D model in a snapshot of the 2-D one.
void check_model_fields(const fs::path& path, const std::vector<std::string>& fields, int ny) {
  if (ny > 1) return;
  for (const std::string& name : fields)
    if (find_field(name)->three_d_only)
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

void check_block(const fs::path& path, const Snapshot& global, const SnapshotBlock& block) {
  const auto layers = static_cast<std::size_t>(block.nz);
  const bool inside = block.nx > 0 && block.ny > 0 && block.nz > 0 && block.i_offset >= 0 && block.j_offset >= 0 &&
                      block.k_offset >= 0 && block.i_offset + block.nx <= global.nx &&
                      block.j_offset + block.ny <= global.ny && block.k_offset + block.nz <= global.nz;
  const std::size_t cells = layers * static_cast<std::size_t>(block.ny) * static_cast<std::size_t>(block.nx);
  if (!inside || block.state.size() != variable_count(global.ny) * cells || block.density_cell.size() != layers ||
      block.rho_theta_cell.size() != layers)
    throw Error(ExitCode::internal, path.string(), "the rank's block does not match the grid");
}

/// More than the bytes of a snapshot file of `field_count` uncompressed fields: the fields,
/// the coordinates with their bounds and the input YAML, and room for the metadata with the
/// dimension scales' references (measured: 13.7 KiB with one field, 0.7 KiB more a field;
/// allowed: 16 KiB and 1 KiB a field; in the 3-D model, with y and four dimensions a field,
/// twice that).
long long file_size_bound(const Snapshot& snapshot, std::size_t field_count) {
  const bool three_d = snapshot.ny > 1;
  const auto values = static_cast<long long>(field_count * cell_count(snapshot)) +
                      3LL * (snapshot.nx + (three_d ? snapshot.ny : 0) + snapshot.nz) + 3;
  const long long metadata = (three_d ? 2 : 1) * ((16LL << 10) + 1024 * static_cast<long long>(field_count));
  return values * static_cast<long long>(sizeof(double)) + static_cast<long long>(snapshot.input_yaml.size()) +
         metadata;
}

// ---- HDF5 datasets -------------------------------------------------------------------------

/// Adds the shuffle and deflate filters at `compression_level` (> 0) to chunked `properties`.
void set_deflate(hid_t properties, int compression_level) {
  check(H5Pset_shuffle(properties), "cannot set the shuffle filter");
  check(H5Pset_deflate(properties, static_cast<unsigned>(compression_level)), "cannot set deflate");
}

/// Dataset creation properties for [1][nz][nx] fields ([1][nz][ny][nx] in 3-D): chunked, shuffled
/// and deflated when `compression_level` > 0, the library's contiguous default otherwise. Chunks
/// are at most 64 × 256 cells (128 KiB) in 2-D and 8 × 64 × 256 (1 MiB) in 3-D: a reader inflates
/// whole chunks and HDF5 caches only those that fit its chunk cache (1 MiB a dataset by
/// default), so that reading a 3-D field a part at a time inflates a chunk once, not once a part.
PropertyListHandle field_creation_properties(const Snapshot& snapshot, int compression_level) {
  PropertyListHandle properties(checked(H5Pcreate(H5P_DATASET_CREATE), "cannot create dataset properties"));
  if (compression_level == 0) return properties;
  const auto at_most = [](int cells, hsize_t most) { return std::min<hsize_t>(static_cast<hsize_t>(cells), most); };
  const std::vector<hsize_t> chunk =
      snapshot.ny > 1
          ? std::vector<hsize_t>{1, at_most(snapshot.nz, 8), at_most(snapshot.ny, 64), at_most(snapshot.nx, 256)}
          : std::vector<hsize_t>{1, at_most(snapshot.nz, 64), at_most(snapshot.nx, 256)};
  check(H5Pset_chunk(properties.get(), static_cast<int>(chunk.size()), chunk.data()), "cannot set chunking");
  set_deflate(properties.get(), compression_level);
  return properties;
}

/// A variable's CF attributes: units, long_name, and standard_name where CF has one.
void write_variable_attributes(hid_t dataset, const FieldInfo& info) {
  write_attribute(dataset, "units", info.unit);
  write_attribute(dataset, "long_name", info.long_name);
  if (!info.standard_name.empty()) write_attribute(dataset, "standard_name", info.standard_name);
}

/// Opens dataset `name` of `file`.
DatasetHandle open_dataset(hid_t file, const std::string& name) {
  return DatasetHandle(checked(H5Dopen2(file, name.c_str(), H5P_DEFAULT), "cannot open dataset " + name));
}

/// Attaches the dimension scales named `dimensions` to `name`'s dimensions, in order.
void attach_dimensions(hid_t file, const std::string& name, const std::vector<std::string>& dimensions) {
  const DatasetHandle dataset = open_dataset(file, name);
  for (std::size_t n = 0; n < dimensions.size(); ++n)
    check(H5DSattach_scale(dataset.get(), open_dataset(file, dimensions[n]).get(), static_cast<unsigned>(n)),
          "cannot attach dimension " + dimensions[n] + " to " + name);
}

/// Writes `values` as dataset `info.name` of shape `dims` (maximum `max_dims`, which needs
/// chunked `creation_properties` where it is unlimited), with its CF attributes.
void write_dataset(hid_t file, const FieldInfo& info, const std::vector<hsize_t>& dims,
                   const std::vector<double>& values, hid_t creation_properties,
                   const std::vector<hsize_t>& max_dims = {}) {
  const DataspaceHandle space(checked(
      H5Screate_simple(static_cast<int>(dims.size()), dims.data(), max_dims.empty() ? nullptr : max_dims.data()),
      "cannot create the dataspace of " + info.name));
  DatasetHandle dataset(checked(
      H5Dcreate2(file, info.name.c_str(), H5T_IEEE_F64LE, space.get(), H5P_DEFAULT, creation_properties, H5P_DEFAULT),
      "cannot create dataset " + info.name));
  check(H5Dwrite(dataset.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()),
        "cannot write dataset " + info.name);
  write_variable_attributes(dataset.get(), info);
  check(dataset.close(), "cannot close dataset " + info.name);
}

// ---- the file -------------------------------------------------------------------------------

/// The `count` points (i + shift)·spacing, i = 0..count-1.
std::vector<double> coordinates(int count, double spacing, double shift) {
  std::vector<double> points(static_cast<std::size_t>(count));
  for (std::size_t i = 0; i < points.size(); ++i) points[i] = (static_cast<double>(i) + shift) * spacing;
  return points;
}

/// The bounds [i·spacing, (i + 1)·spacing] of `count` cells, [count][2].
std::vector<double> cell_bounds(int count, double spacing) {
  std::vector<double> bounds;
  for (int i = 0; i < count; ++i) bounds.insert(bounds.end(), {i * spacing, (i + 1) * spacing});
  return bounds;
}

/// A coordinate variable: a dimension scale of its own name holding `points`, with the CF
/// attributes `extra` (axis, positive, bounds) besides its units and names.
void write_coordinate(hid_t file, const FieldInfo& info, const std::vector<double>& points,
                      const std::vector<std::pair<const char*, std::string>>& extra, hid_t creation = H5P_DEFAULT,
                      const std::vector<hsize_t>& max_dims = {}) {
  write_dataset(file, info, {points.size()}, points, creation, max_dims);
  const DatasetHandle dataset = open_dataset(file, info.name);
  check(H5DSset_scale(dataset.get(), info.name.c_str()), "cannot make " + info.name + " a dimension scale");
  for (const auto& [name, value] : extra) write_attribute(dataset.get(), name, value);
}

/// Creation properties of a dataset along the unlimited time dimension: chunked, `chunk` each.
PropertyListHandle along_time(const std::vector<hsize_t>& chunk) {
  PropertyListHandle properties(checked(H5Pcreate(H5P_DATASET_CREATE), "cannot create dataset properties"));
  check(H5Pset_chunk(properties.get(), static_cast<int>(chunk.size()), chunk.data()), "cannot set chunking");
  return properties;
}

/// time (the values `times`, an unlimited dimension), x, (y,) z with their bounds, and the
/// bounds' dimension.
void write_coordinates(hid_t file, const Snapshot& snapshot, const std::vector<double>& times) {
  const bool three_d = snapshot.ny > 1;
  write_coordinate(file, {"time", "s", "time", "time"}, times, {{"axis", "T"}}, along_time({1}).get(), {H5S_UNLIMITED});
  write_coordinate(file, {"x", "m", "x of the cell centres", "projection_x_coordinate"},
                   coordinates(snapshot.nx, snapshot.dx, 0.5), {{"axis", "X"}, {"bounds", "x_bnds"}});
  if (three_d)
    write_coordinate(file, {"y", "m", "y of the cell centres", "projection_y_coordinate"},
                     coordinates(snapshot.ny, snapshot.dy, 0.5), {{"axis", "Y"}, {"bounds", "y_bnds"}});
  write_coordinate(file, {"z", "m", "height of the cell centres", "height"}, coordinates(snapshot.nz, snapshot.dz, 0.5),
                   {{"axis", "Z"}, {"positive", "up"}, {"bounds", "z_bnds"}});
  write_coordinate(file, {"bnds", "1", "the two ends of a cell", ""}, {0.0, 1.0}, {});
  write_dataset(file, {"x_bnds", "m", "x of the cell edges", ""}, {static_cast<hsize_t>(snapshot.nx), 2},
                cell_bounds(snapshot.nx, snapshot.dx), H5P_DEFAULT);
  if (three_d)
    write_dataset(file, {"y_bnds", "m", "y of the cell edges", ""}, {static_cast<hsize_t>(snapshot.ny), 2},
                  cell_bounds(snapshot.ny, snapshot.dy), H5P_DEFAULT);
  write_dataset(file, {"z_bnds", "m", "height of the cell edges", ""}, {static_cast<hsize_t>(snapshot.nz), 2},
                cell_bounds(snapshot.nz, snapshot.dz), H5P_DEFAULT);
  attach_dimensions(file, "x_bnds", {"x", "bnds"});
  if (three_d) attach_dimensions(file, "y_bnds", {"y", "bnds"});
  attach_dimensions(file, "z_bnds", {"z", "bnds"});
}

/// The shape of a field: one time, nz rows, nx columns (3-D: nz layers of ny rows).
std::vector<hsize_t> field_dims(const Snapshot& snapshot) {
  if (snapshot.ny > 1)
    return {1, static_cast<hsize_t>(snapshot.nz), static_cast<hsize_t>(snapshot.ny), static_cast<hsize_t>(snapshot.nx)};
  return {1, static_cast<hsize_t>(snapshot.nz), static_cast<hsize_t>(snapshot.nx)};
}

/// The dimensions of a field, slowest first: time, z, (y,) x.
std::vector<std::string> field_dimension_names(const Snapshot& snapshot) {
  if (snapshot.ny > 1) return {"time", "z", "y", "x"};
  return {"time", "z", "x"};
}

void write_fields(hid_t file, const Snapshot& snapshot, const std::vector<std::string>& fields, int compression_level) {
  const PropertyListHandle creation = field_creation_properties(snapshot, compression_level);
  for (const std::string& name : fields) {
    const FieldDefinition& field = *find_field(name);
    write_dataset(file, field.info, field_dims(snapshot), all_rows(CellValues(snapshot), field.row), creation.get());
    attach_dimensions(file, name, field_dimension_names(snapshot));
  }
}

/// The root attributes of the run, which a series file holds too.
void write_run_attributes(hid_t file, const Snapshot& snapshot, const std::string& title) {
  write_attribute(file, "Conventions", std::string("CF-1.10"));
  write_attribute(file, "title", title);
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

void write_root_attributes(hid_t file, const Snapshot& snapshot) {
  write_run_attributes(file, snapshot,
                       "simapp " + snapshot.case_name + " at t = " + fmt::format("{:g}", snapshot.time) + " s");
  write_attribute(file, "time", snapshot.time);
  write_attribute(file, "step", snapshot.step);
}

/// Creates every field as a reserved dataset (storage allocated, values written later by the
/// ranks), with its units and description.
void reserve_fields(hid_t file, const Snapshot& snapshot, const std::vector<std::string>& fields) {
  const PropertyListHandle creation = reserved_dataset_properties();
  const std::vector<hsize_t> dims = field_dims(snapshot);
  for (const std::string& name : fields) {
    const FieldDefinition& field = *find_field(name);
    const DataspaceHandle space(checked(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr),
                                        "cannot create the dataspace of " + name));
    DatasetHandle dataset(
        checked(H5Dcreate2(file, name.c_str(), H5T_IEEE_F64LE, space.get(), H5P_DEFAULT, creation.get(), H5P_DEFAULT),
                "cannot create dataset " + name));
    write_variable_attributes(dataset.get(), field.info);
    check(dataset.close(), "cannot close dataset " + name);
    attach_dimensions(file, name, field_dimension_names(snapshot));
  }
}

// ---- the series -----------------------------------------------------------------------------

/// The most values in one chunk of a series' field: 1 GiB of doubles (HDF5 allows 4 GiB).
constexpr hsize_t chunk_values = hsize_t{1} << 27;

/// A field of the series at one time: all its rows where they fit in a chunk, else bands of rows
/// (3-D: of layers, or of rows of one layer).
std::vector<hsize_t> series_chunk(const Snapshot& snapshot) {
  const hsize_t columns = std::min<hsize_t>(static_cast<hsize_t>(snapshot.nx), chunk_values);
  const auto fitting = [](int cells, hsize_t room) {
    return std::min<hsize_t>(static_cast<hsize_t>(cells), std::max<hsize_t>(1, room));
  };
  if (snapshot.ny == 1) return {1, fitting(snapshot.nz, chunk_values / columns), columns};
  const hsize_t rows = fitting(snapshot.ny, chunk_values / columns);
  return {1, fitting(snapshot.nz, chunk_values / (columns * rows)), rows, columns};
}

/// The shape of a field of the series, unlimited along time.
std::vector<hsize_t> series_max_dims(const Snapshot& snapshot) {
  std::vector<hsize_t> dims = field_dims(snapshot);
  dims[0] = H5S_UNLIMITED;
  return dims;
}

void write_series_fields(hid_t file, const Snapshot& snapshot, const std::vector<std::string>& fields,
                         int compression_level) {
  const PropertyListHandle creation = along_time(series_chunk(snapshot));
  if (compression_level > 0) set_deflate(creation.get(), compression_level);
  for (const std::string& name : fields) {
    const FieldDefinition& field = *find_field(name);
    write_dataset(file, field.info, field_dims(snapshot), all_rows(CellValues(snapshot), field.row), creation.get(),
                  series_max_dims(snapshot));
    attach_dimensions(file, name, field_dimension_names(snapshot));
  }
}

/// step(time): the time step of each output time (int64).
void write_step(hid_t file, long step) {
  const hsize_t one = 1, unlimited = H5S_UNLIMITED;
  const DataspaceHandle space(checked(H5Screate_simple(1, &one, &unlimited), "cannot create the dataspace of step"));
  DatasetHandle dataset(
      checked(H5Dcreate2(file, "step", H5T_STD_I64LE, space.get(), H5P_DEFAULT, along_time({1}).get(), H5P_DEFAULT),
              "cannot create dataset step"));
  check(H5Dwrite(dataset.get(), H5T_NATIVE_LONG, H5S_ALL, H5S_ALL, H5P_DEFAULT, &step), "cannot write dataset step");
  write_variable_attributes(dataset.get(), {"step", "1", "time step number", ""});
  check(dataset.close(), "cannot close dataset step");
  attach_dimensions(file, "step", {"time"});
}

/// More than the bytes of a new series holding one time: a snapshot's, with room for deflate's
/// growth of values it cannot shrink, the chunk indexes and the step.
long long series_size_bound(const Snapshot& snapshot, std::size_t field_count) {
  const long long values = static_cast<long long>(field_count * cell_count(snapshot) * sizeof(double));
  return file_size_bound(snapshot, field_count) + values / 64 + (64LL << 10) +
         4096 * static_cast<long long>(field_count);
}

/// More than the bytes an append adds to a series holding `times` times: each field's new
/// chunk (with room for deflate's growth), and for every variable along time the growth of its
/// chunk index, which HDF5 allocates in blocks of up to about half its entries so far (a few
/// dozen bytes each), besides the metadata written again.
long long append_size_bound(const Snapshot& snapshot, std::size_t field_count, long times) {
  const long long values = static_cast<long long>(field_count * cell_count(snapshot) * sizeof(double));
  const auto variables = static_cast<long long>(field_count) + 2;  // the fields, step, time
  return values + values / 64 + variables * ((64LL << 10) + 32LL * (times + 1)) + (1LL << 20);
}

/// What opening a series does with the marks a writer in SWMR mode leaves in the file while it
/// has it open: keep them (a file still marked is then refused), or clear them as HDF5's
/// `h5clear -s` does, for the file a run killed in an append left.
enum class WriterMarks { keep, clear };

/// File access properties of a series being written: the latest format (SWMR needs it), and no
/// file locks, so that a reader holding the file open (plain readers lock it) cannot stop the
/// run; one writer at a time is the output directory lock's work.
PropertyListHandle series_access(WriterMarks marks) {
  PropertyListHandle access(checked(H5Pcreate(H5P_FILE_ACCESS), "cannot create file access properties"));
  check(H5Pset_libver_bounds(access.get(), H5F_LIBVER_LATEST, H5F_LIBVER_LATEST), "cannot select the latest format");
  check(H5Pset_file_locking(access.get(), false, true), "cannot turn file locking off");
  // The library's own property for this, which h5clear sets; not in HDF5's public headers.
  constexpr const char* clear_marks = "clear_status_flags";
  if (marks == WriterMarks::clear && H5Pexist(access.get(), clear_marks) > 0) {
    hbool_t clear = true;
    check(H5Pset(access.get(), clear_marks, &clear), "cannot ask for the writer's marks to be cleared");
  }
  return access;
}

FileHandle open_series_for_writing(const fs::path& path, WriterMarks marks) {
  return FileHandle(checked(H5Fopen(path.c_str(), H5F_ACC_RDWR | H5F_ACC_SWMR_WRITE, series_access(marks).get()),
                            "cannot open the series for writing"));
}

/// Where the file's allocated space ends (HDF5's end of allocation), as the closed file says.
off_t allocated_end(const fs::path& path) {
  const FileHandle file(
      checked(H5Fopen(path.c_str(), H5F_ACC_RDONLY, series_access(WriterMarks::keep).get()), "cannot open the series"));
  haddr_t end = 0;
  check(H5Fget_eoa(file.get(), &end), "cannot get the end of the series' allocated space");
  return static_cast<off_t>(end);
}

/// The entries of dataset `name` along time.
hsize_t length_along_time(hid_t file, const std::string& name) {
  const DatasetHandle dataset = open_dataset(file, name);
  const DataspaceHandle space(checked(H5Dget_space(dataset.get()), "cannot get the dataspace of " + name));
  hsize_t dims[4] = {};
  if (H5Sget_simple_extent_dims(space.get(), dims, nullptr) < 1) fail("cannot get the shape of " + name);
  return dims[0];
}

/// Sets dataset `name` to `length` entries along time, keeping its other dimensions, and
/// returns the dataspace of entry `length` - 1 selected.
DataspaceHandle set_length_along_time(hid_t dataset, const std::string& name, hsize_t length) {
  DataspaceHandle space(checked(H5Dget_space(dataset), "cannot get the dataspace of " + name));
  std::vector<hsize_t> dims(static_cast<std::size_t>(std::max(H5Sget_simple_extent_ndims(space.get()), 1)));
  H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
  dims[0] = length;
  check(H5Dset_extent(dataset, dims.data()), "cannot change the length of " + name);
  space = DataspaceHandle(checked(H5Dget_space(dataset), "cannot get the dataspace of " + name));
  if (length == 0) return space;
  std::vector<hsize_t> start(dims.size(), 0), count = dims;
  start[0] = length - 1;
  count[0] = 1;
  check(H5Sselect_hyperslab(space.get(), H5S_SELECT_SET, start.data(), nullptr, count.data(), nullptr),
        "cannot select the last time of " + name);
  return space;
}

/// Writes `values` (of `memory_type`) as entry `index` along time of dataset `name`, which then
/// has index + 1 entries.
void write_along_time(hid_t file, const std::string& name, hsize_t index, hid_t memory_type, const void* values) {
  const DatasetHandle dataset = open_dataset(file, name);
  const DataspaceHandle selected = set_length_along_time(dataset.get(), name, index + 1);
  const auto count = static_cast<hsize_t>(H5Sget_select_npoints(selected.get()));
  const DataspaceHandle memory(checked(H5Screate_simple(1, &count, nullptr), "cannot create a dataspace"));
  check(H5Dwrite(dataset.get(), memory_type, memory.get(), selected.get(), H5P_DEFAULT, values),
        "cannot write dataset " + name);
}

/// The series' variables along time, in the order an append writes them: time last, so that
/// its length counts the times whose every variable is written.
std::vector<std::string> variables_along_time(const std::vector<std::string>& fields) {
  std::vector<std::string> variables = fields;
  variables.insert(variables.end(), {"step", "time"});
  return variables;
}

/// Refuses (bad input) a series that is not one of exactly `fields`.
void check_series_variables(const Hdf5Reader& series, const std::vector<std::string>& fields) {
  if (!series.has_dataset("time") || !series.has_dataset("step"))
    throw Error(ExitCode::bad_input, series.path().string(),
                "not a snapshot series (it has no time and step variables)");
  std::string held;
  bool same = true;
  for (const FieldInfo& field : snapshot_fields()) {
    const bool in_file = series.has_dataset(field.name);
    if (in_file) held += (held.empty() ? "" : ", ") + field.name;
    same = same && in_file == (std::ranges::find(fields, field.name) != fields.end());
  }
  if (!same)
    throw Error(ExitCode::bad_input, series.path().string(),
                "the series holds the fields " + (held.empty() ? std::string("(none)") : held) +
                    "; output.variables must name the same to continue it");
}

/// Continues the series at `path` (a regular file simapp wrote, of exactly `fields`) for a
/// restarted run: keeps its times of steps up to `kept_step`, also where a run killed in an
/// append left it marked as being written, or with some variables one time longer than
/// others. Returns the times kept.
long continue_series(const fs::path& path, const std::vector<std::string>& fields, long kept_step) {
  std::error_code error;
  if (fs::symlink_status(path, error).type() != fs::file_type::regular ||
      !has_root_attributes(path, {"simapp_version", "input_yaml"}))
    throw Error(ExitCode::bad_input, path.string(), "not a snapshot series that simapp wrote");
  const QuietHdf5Errors quiet;
  check_series_variables(Hdf5Reader(path, ExitCode::bad_input), fields);  // before anything is written
  try {
    reserve_space_after_end(path, 1 << 20);  // the metadata that cutting writes again
    hsize_t kept = 0;
    {
      FileHandle file = open_series_for_writing(path, WriterMarks::clear);
      // A writer killed inside an append may have put chunks past the end of allocation its file
      // records (which reaches the disk at the close it did not reach): the end is moved past
      // them, so that dropping them below frees space inside the file, not beyond it.
      check(H5Fincrement_filesize(file.get(), 0), "cannot take in the series' unrecorded space");
      const std::vector<std::string> variables = variables_along_time(fields);
      hsize_t whole = length_along_time(file.get(), variables.front());
      for (const std::string& name : variables) whole = std::min(whole, length_along_time(file.get(), name));
      std::vector<long> steps = Hdf5Reader(file.get(), path, ExitCode::io).read_dataset<long>("step");
      steps.resize(whole);
      kept = static_cast<hsize_t>(std::ranges::find_if(steps, [&](long step) { return step > kept_step; }) -
                                  steps.begin());
      for (const std::string& name : variables) set_length_along_time(open_dataset(file.get(), name).get(), name, kept);
      check(file.close(), "cannot close the series");
    }
    cut_and_sync(path, allocated_end(path));
    return static_cast<long>(kept);
  } catch (const FileFailure& failure) {
    throw Error(ExitCode::io, path.string(), failure.what());
  }
}

/// The most bytes of field values computed before they are written: a few MiB, so a block of
/// any size is written through one small buffer that stays in cache.
constexpr std::size_t row_buffer_bytes = std::size_t{4} << 20;

/// Writes this rank's block of one field into its reserved range of a [nz][nx] dataset
/// ([nz][ny][nx] of the whole grid's `global_ny` in 3-D), computing the values a few rows at a
/// time. The block's rows lie a file row apart in runs: all of them where the block spans the
/// grid's y (always in 2-D), else each layer's.
void write_field_rows(const RowSink& sink, int global_nx, int global_ny, const SnapshotBlock& block, RowValues row,
                      const ReservedRange& range) {
  static_assert(std::endian::native == std::endian::little, "fields are stored as little-endian doubles");
  const CellValues cells(block, global_ny);
  const auto file_nx = static_cast<std::size_t>(global_nx);
  const std::size_t run_rows = block.ny == global_ny ? cells.rows() : cells.ny;
  const std::size_t rows_at_once =
      cells.nx == file_nx ? std::max<std::size_t>(1, row_buffer_bytes / (cells.nx * sizeof(double))) : 1;
  std::vector<double> buffer(std::min(rows_at_once, run_rows) * cells.nx);
  constexpr auto value_bytes = static_cast<long long>(sizeof(double));
  for (std::size_t run = 0; run < cells.rows(); run += run_rows) {
    const std::size_t k = run / cells.ny;
    const long long first =
        range.offset +
        ((static_cast<long long>(block.k_offset + static_cast<long long>(k)) * global_ny + block.j_offset) * global_nx +
         block.i_offset) *
            value_bytes;
    for (std::size_t r = 0; r < run_rows; r += rows_at_once) {
      const std::size_t rows = std::min(rows_at_once, run_rows - r);
      for (std::size_t n = 0; n < rows; ++n) row(cells, run + r + n, buffer.data() + n * cells.nx);
      write_rows(sink, buffer.data(), cells.nx, rows, file_nx,
                 first + static_cast<long long>(r * file_nx) * value_bytes);
    }
  }
}

/// How many fields are written at the same time: one a thread, on at most half the
/// processor's hardware threads (the rest step, or serve other ranks), at least one.
std::size_t concurrent_fields(std::size_t fields) {
  const std::size_t half = std::max(1u, std::thread::hardware_concurrency() / 2);
  return std::clamp<std::size_t>(half, 1, std::max<std::size_t>(fields, 1));
}

/// Writes this rank's block of every field into its reserved range, several fields at once
/// where the processor has the threads (the sink must accept writes from several threads).
void write_block_rows(const RowSink& sink, int global_nx, int global_ny, const SnapshotBlock& block,
                      const std::vector<std::string>& fields, const std::vector<ReservedRange>& ranges) {
  const std::size_t lanes = concurrent_fields(fields.size());
  const auto write_lane = [&](std::size_t lane) {
    for (std::size_t f = lane; f < fields.size(); f += lanes)
      write_field_rows(sink, global_nx, global_ny, block, find_field(fields[f])->row, ranges[f]);
  };
  std::vector<std::future<void>> others;
  for (std::size_t lane = 1; lane < lanes; ++lane) others.push_back(std::async(std::launch::async, write_lane, lane));
  std::exception_ptr failure;
  try {
    write_lane(0);
  } catch (...) {
    failure = std::current_exception();
  }
  for (std::future<void>& other : others) {
    try {
      other.get();
    } catch (...) {
      if (!failure) failure = std::current_exception();
    }
  }
  if (failure) std::rethrow_exception(failure);
}

}  // namespace

const std::vector<FieldInfo>& snapshot_fields() {
  static const std::vector<FieldInfo> fields = [] {
    std::vector<FieldInfo> infos;
    for (const FieldDefinition& definition : field_definitions()) infos.push_back(definition.info);
    return infos;
  }();
  return fields;
}

void write_snapshot(const fs::path& path, const Snapshot& snapshot, const std::vector<std::string>& fields,
                    int compression_level) {
  check_fields(path, fields, compression_level);
  check_grid(path, snapshot);
  check_model_fields(path, fields, snapshot.ny);
  const auto estimate = static_cast<std::size_t>(file_size_bound(snapshot, fields.size()));
  try {
    write_new_file(path, estimate, [&](hid_t file) {
      write_coordinates(file, snapshot, {snapshot.time});
      write_fields(file, snapshot, fields, compression_level);
      write_root_attributes(file, snapshot);
    });
  } catch (const FileFailure& failure) {
    throw Error(ExitCode::io, path.string(), failure.what());
  }
}

bool is_3d_field(const std::string& name) {
  const FieldDefinition* field = find_field(name);
  return field != nullptr && field->three_d_only;
}

std::size_t snapshot_writer_threads(std::size_t fields) { return concurrent_fields(fields); }

SnapshotWrite::SnapshotWrite(fs::path path, const Snapshot& global, const SnapshotBlock& block,
                             const std::vector<std::string>& fields, MPI_Comm comm)
    : comm_(comm) {
  check_fields(path, fields, 0);
  check_dimensions(path, global);
  check_model_fields(path, fields, global.ny);
  check_block(path, global, block);
  file_ = std::make_unique<RankWrittenFile>(
      std::move(path), file_size_bound(global, fields.size()), fields,
      [&](hid_t layout) {
        write_coordinates(layout, global, {global.time});
        reserve_fields(layout, global, fields);
        write_root_attributes(layout, global);
      },
      comm_);
  // The rows, on a thread of their own: plain writes to a file no other thread touches, no HDF5.
  // The block is released once they are written; the sync that follows needs only the file.
  rows_written_ = rows_released_.get_future();
  written_ = std::async(std::launch::async, [this, global_nx = global.nx, global_ny = global.ny, block, fields] {
    const auto start = std::chrono::steady_clock::now();
    bool block_released = false;
    try {
      file_->write_part(
          [&](const RowSink& sink) { write_block_rows(sink, global_nx, global_ny, block, fields, file_->ranges()); },
          [&] {
            rows_released_.set_value();
            block_released = true;
          });
    } catch (...) {
      if (!block_released) rows_released_.set_value();
      throw;
    }
    thread_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  });
}

SnapshotWrite::~SnapshotWrite() {
  if (written_.valid()) written_.wait();  // an unfinished file is then removed with file_
}

double SnapshotWrite::release_block() {
  const auto start = std::chrono::steady_clock::now();
  rows_written_.wait();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void SnapshotWrite::finish() {
  const auto start = std::chrono::steady_clock::now();
  run_agreed(comm_, [&] { written_.get(); });
  waited_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  run_on_root_agreed(comm_, [&] { file_->publish(); });
}

void write_snapshot_blocks(const fs::path& path, const Snapshot& global, const SnapshotBlock& block,
                           const std::vector<std::string>& fields, MPI_Comm comm) {
  SnapshotWrite(path, global, block, fields, comm).finish();
}

SnapshotSeriesFile::SnapshotSeriesFile(fs::path path, std::vector<std::string> fields, int compression_level,
                                       std::optional<long> kept_step)
    : path_(std::move(path)), fields_(std::move(fields)), compression_level_(compression_level) {
  check_fields(path_, fields_, compression_level_);
  std::error_code error;
  if (!kept_step || !fs::exists(fs::symlink_status(path_, error))) return;
  times_ = continue_series(path_, fields_, *kept_step);
  exists_ = true;
}

void SnapshotSeriesFile::append(const Snapshot& snapshot) {
  check_grid(path_, snapshot);
  check_model_fields(path_, fields_, snapshot.ny);
  if (exists_)
    extend(snapshot);
  else
    create(snapshot);
  exists_ = true;
  ++times_;
}

void SnapshotSeriesFile::create(const Snapshot& snapshot) {
  try {
    NewFile file(path_);
    write_layout(
        file, series_size_bound(snapshot, fields_.size()), {},
        [&](hid_t layout) {
          write_coordinates(layout, snapshot, {snapshot.time});
          write_step(layout, snapshot.step);
          write_series_fields(layout, snapshot, fields_, compression_level_);
          write_run_attributes(layout, snapshot, "simapp " + snapshot.case_name + ", every output time");
        },
        FileFormat::appendable);
    file.sync_and_close();
    file.publish(Replace::never);
  } catch (const FileFailure& failure) {
    throw Error(ExitCode::io, path_.string(), failure.what());
  }
}

void SnapshotSeriesFile::extend(const Snapshot& snapshot) {
  const QuietHdf5Errors quiet;
  try {
    reserve_space_after_end(path_, append_size_bound(snapshot, fields_.size(), times_));
    {
      FileHandle file = open_series_for_writing(path_, WriterMarks::keep);
      const Hdf5Reader series(file.get(), path_, ExitCode::io);
      const int nx = series.read_attribute<int>("nx"), nz = series.read_attribute<int>("nz");
      const int ny = series.has_attribute("ny") ? series.read_attribute<int>("ny") : 1;
      if (nx != snapshot.nx || ny != snapshot.ny || nz != snapshot.nz) {
        const auto cells = [](int x, int y, int z) {
          return y > 1 ? fmt::format("{} x {} x {}", x, y, z) : fmt::format("{} x {}", x, z);
        };
        throw Error(ExitCode::bad_input, path_.string(),
                    fmt::format("the series is of a grid of {} cells, the run's {}", cells(nx, ny, nz),
                                cells(snapshot.nx, snapshot.ny, snapshot.nz)));
      }
      const auto index = static_cast<hsize_t>(times_);
      // The fields, then step, then time, each on its way to the disk before the next is
      // extended (HDF5 writes its cached metadata in no order of its own at a close): killed at
      // any moment, the file's time counts only times whose fields and step are there.
      for (const std::string& name : fields_)
        write_along_time(file.get(), name, index, H5T_NATIVE_DOUBLE,
                         all_rows(CellValues(snapshot), find_field(name)->row).data());
      check(H5Fflush(file.get(), H5F_SCOPE_LOCAL), "cannot flush the series");
      write_along_time(file.get(), "step", index, H5T_NATIVE_LONG, &snapshot.step);
      check(H5Fflush(file.get(), H5F_SCOPE_LOCAL), "cannot flush the series");
      write_along_time(file.get(), "time", index, H5T_NATIVE_DOUBLE, &snapshot.time);
      check(file.close(), "cannot close the series");
    }
    cut_and_sync(path_, allocated_end(path_));
  } catch (const FileFailure& failure) {
    throw Error(ExitCode::io, path_.string(), failure.what());
  }
}

}  // namespace simapp::io
