#include "io/hdf5/snapshot_writer.hpp"

#include <hdf5.h>

#include <algorithm>
#include <bit>
#include <cstddef>
#include <functional>
#include <optional>
#include <set>
#include <stdexcept>
#include <system_error>
#include <utility>

#include "io/hdf5/hdf5_file.hpp"
#include "io/hdf5/hdf5_handle.hpp"
#include "kernels/backend/error.hpp"
#include "solver/decomposition/error_agreement.hpp"

namespace simapp::io {

namespace fs = std::filesystem;

namespace {

// ---- the fields -----------------------------------------------------------------------------

/// The prognostic variables in the order Snapshot::state holds them.
enum Variable : std::size_t { dens, umom, wmom, rhot, variable_count };

std::size_t cell_count(const Snapshot& snapshot) {
  return static_cast<std::size_t>(snapshot.nx) * static_cast<std::size_t>(snapshot.nz);
}

double value_of(const Snapshot& snapshot, Variable variable, std::size_t cell) {
  return snapshot.state[variable * cell_count(snapshot) + cell];
}

/// ρ = ρ̄_c(k) + ρ′ in `cell` of row k.
double density(const Snapshot& snapshot, std::size_t k, std::size_t cell) {
  return snapshot.density_cell[k] + value_of(snapshot, dens, cell);
}

/// `value(k, cell)` for every cell, row by row (cell = k*nx + i).
template <class Value>
std::vector<double> per_cell(const Snapshot& snapshot, Value value) {
  std::vector<double> values(cell_count(snapshot));
  const auto nx = static_cast<std::size_t>(snapshot.nx);
  for (std::size_t cell = 0; cell < values.size(); ++cell) values[cell] = value(cell / nx, cell);
  return values;
}

template <Variable variable>
std::vector<double> prognostic(const Snapshot& snapshot) {
  return per_cell(snapshot, [&](std::size_t, std::size_t cell) { return value_of(snapshot, variable, cell); });
}

/// Momentum `variable` divided by the density: a velocity.
template <Variable variable>
std::vector<double> velocity(const Snapshot& snapshot) {
  return per_cell(snapshot, [&](std::size_t k, std::size_t cell) {
    return value_of(snapshot, variable, cell) / density(snapshot, k, cell);
  });
}

/// θ′ = (ρ̄θ̄_c + (ρθ)′)/ρ − ρ̄θ̄_c/ρ̄_c.
std::vector<double> theta_prime(const Snapshot& snapshot) {
  return per_cell(snapshot, [&](std::size_t k, std::size_t cell) {
    const double background = snapshot.rho_theta_cell[k];
    return (background + value_of(snapshot, rhot, cell)) / density(snapshot, k, cell) -
           background / snapshot.density_cell[k];
  });
}

struct FieldDefinition {
  FieldInfo info;
  std::vector<double> (*values)(const Snapshot&);
};

const std::vector<FieldDefinition>& field_definitions() {
  static const std::vector<FieldDefinition> definitions{
      {{"rho_prime", "kg m-3", "density perturbation rho' = rho - rho_bar(z)"}, prognostic<dens>},
      {{"u", "m s-1", "horizontal velocity u = umom / rho"}, velocity<umom>},
      {{"w", "m s-1", "vertical velocity w = wmom / rho"}, velocity<wmom>},
      {{"theta_prime", "K", "potential temperature perturbation theta' = theta - theta_bar(z)"}, theta_prime},
      {{"dens", "kg m-3", "prognostic variable dens = rho'"}, prognostic<dens>},
      {{"umom", "kg m-2 s-1", "prognostic variable umom = rho u"}, prognostic<umom>},
      {{"wmom", "kg m-2 s-1", "prognostic variable wmom = rho w"}, prognostic<wmom>},
      {{"rhot", "kg m-3 K", "prognostic variable rhot = (rho theta)'"}, prognostic<rhot>},
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
  return field->values(snapshot);
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
      throw Error(ExitCode::bad_input, path.string(), "unknown field '" + name + "' (known: " + known_field_names() + ")");
    if (!seen.insert(name).second) throw Error(ExitCode::bad_input, path.string(), "field '" + name + "' listed twice");
  }
}

void check_dimensions(const fs::path& path, const Snapshot& snapshot) {
  if (snapshot.nx <= 0 || snapshot.nz <= 0 || !(snapshot.dx > 0.0) || !(snapshot.dz > 0.0))
    throw Error(ExitCode::internal, path.string(), "snapshot has no valid grid");
}

void check_grid(const fs::path& path, const Snapshot& snapshot) {
  check_dimensions(path, snapshot);
  const auto rows = static_cast<std::size_t>(snapshot.nz);
  if (snapshot.state.size() != variable_count * cell_count(snapshot) || snapshot.density_cell.size() != rows ||
      snapshot.rho_theta_cell.size() != rows)
    throw Error(ExitCode::internal, path.string(), "snapshot arrays do not match its grid");
}

/// More than the bytes of a snapshot file of `field_count` uncompressed fields: the fields,
/// the coordinates and the input YAML, and room for the metadata (measured: 8 to 10 KiB for
/// 1 to 8 fields; allowed: 16 KiB and 512 bytes a dataset).
long long file_size_bound(const Snapshot& snapshot, std::size_t field_count) {
  const auto values = static_cast<long long>(field_count * cell_count(snapshot)) + 2LL * (snapshot.nx + snapshot.nz + 2);
  const auto datasets = static_cast<long long>(field_count) + 4;
  return values * static_cast<long long>(sizeof(double)) + static_cast<long long>(snapshot.input_yaml.size()) +
         (16LL << 10) + 512 * datasets;
}

// ---- HDF5 datasets -------------------------------------------------------------------------

/// Dataset creation properties for [rows][columns] fields: chunked, shuffled and deflated when
/// `compression_level` > 0, the library's contiguous default otherwise.
PropertyListHandle field_creation_properties(const Snapshot& snapshot, int compression_level) {
  PropertyListHandle properties(checked(H5Pcreate(H5P_DATASET_CREATE), "cannot create dataset properties"));
  if (compression_level == 0) return properties;
  const hsize_t chunk[2] = {std::min<hsize_t>(static_cast<hsize_t>(snapshot.nz), 64),
                            std::min<hsize_t>(static_cast<hsize_t>(snapshot.nx), 256)};
  check(H5Pset_chunk(properties.get(), 2, chunk), "cannot set chunking");
  check(H5Pset_shuffle(properties.get()), "cannot set the shuffle filter");
  check(H5Pset_deflate(properties.get(), static_cast<unsigned>(compression_level)), "cannot set deflate");
  return properties;
}

/// Writes `values` as dataset `info.name` of shape `dims`, with its units and description.
void write_dataset(hid_t file, const FieldInfo& info, const std::vector<hsize_t>& dims,
                   const std::vector<double>& values, hid_t creation_properties) {
  const DataspaceHandle space(checked(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr),
                                      "cannot create the dataspace of " + info.name));
  DatasetHandle dataset(checked(H5Dcreate2(file, info.name.c_str(), H5T_IEEE_F64LE, space.get(), H5P_DEFAULT,
                                           creation_properties, H5P_DEFAULT),
                                "cannot create dataset " + info.name));
  check(H5Dwrite(dataset.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()),
        "cannot write dataset " + info.name);
  write_attribute(dataset.get(), "units", info.unit);
  write_attribute(dataset.get(), "description", info.description);
  check(dataset.close(), "cannot close dataset " + info.name);
}

// ---- the file -------------------------------------------------------------------------------

/// The `count` points (i + shift)·spacing, i = 0..count-1.
std::vector<double> coordinates(int count, double spacing, double shift) {
  std::vector<double> points(static_cast<std::size_t>(count));
  for (std::size_t i = 0; i < points.size(); ++i) points[i] = (static_cast<double>(i) + shift) * spacing;
  return points;
}

void write_coordinate(hid_t file, const FieldInfo& info, const std::vector<double>& points) {
  write_dataset(file, info, {points.size()}, points, H5P_DEFAULT);
}

void write_coordinates(hid_t file, const Snapshot& snapshot) {
  write_coordinate(file, {"x", "m", "cell centres in x"}, coordinates(snapshot.nx, snapshot.dx, 0.5));
  write_coordinate(file, {"z", "m", "cell centres in z"}, coordinates(snapshot.nz, snapshot.dz, 0.5));
  write_coordinate(file, {"x_nodes", "m", "cell edges in x"}, coordinates(snapshot.nx + 1, snapshot.dx, 0.0));
  write_coordinate(file, {"z_nodes", "m", "cell edges in z"}, coordinates(snapshot.nz + 1, snapshot.dz, 0.0));
}

void write_fields(hid_t file, const Snapshot& snapshot, const std::vector<std::string>& fields,
                  int compression_level) {
  const PropertyListHandle creation = field_creation_properties(snapshot, compression_level);
  const std::vector<hsize_t> dims{static_cast<hsize_t>(snapshot.nz), static_cast<hsize_t>(snapshot.nx)};
  for (const std::string& name : fields) {
    const FieldDefinition& field = *find_field(name);
    write_dataset(file, field.info, dims, field.values(snapshot), creation.get());
  }
}

void write_root_attributes(hid_t file, const Snapshot& snapshot) {
  write_attribute(file, "time", snapshot.time);
  write_attribute(file, "step", snapshot.step);
  write_attribute(file, "dx", snapshot.dx);
  write_attribute(file, "dz", snapshot.dz);
  write_attribute(file, "nx", snapshot.nx);
  write_attribute(file, "nz", snapshot.nz);
  write_attribute(file, "case", snapshot.case_name);
  write_attribute(file, "simapp_version", snapshot.version);
  write_attribute(file, "git_hash", snapshot.git_hash);
  write_attribute(file, "input_yaml", snapshot.input_yaml);
}

/// Creates every field as a reserved dataset (storage allocated, values written later by the
/// ranks), with its units and description.
void reserve_fields(hid_t file, const Snapshot& snapshot, const std::vector<std::string>& fields) {
  const PropertyListHandle creation = reserved_dataset_properties();
  const hsize_t dims[2] = {static_cast<hsize_t>(snapshot.nz), static_cast<hsize_t>(snapshot.nx)};
  for (const std::string& name : fields) {
    const FieldDefinition& field = *find_field(name);
    const DataspaceHandle space(checked(H5Screate_simple(2, dims, nullptr), "cannot create the dataspace of " + name));
    DatasetHandle dataset(checked(
        H5Dcreate2(file, name.c_str(), H5T_IEEE_F64LE, space.get(), H5P_DEFAULT, creation.get(), H5P_DEFAULT),
        "cannot create dataset " + name));
    write_attribute(dataset.get(), "units", field.info.unit);
    write_attribute(dataset.get(), "description", field.info.description);
    check(dataset.close(), "cannot close dataset " + name);
  }
}

/// A file open for writing a rank's rows into the reserved ranges: rank 0's own new file, or
/// the one rank 0 created, opened by another rank.
using RowSink = std::function<void(const void* data, std::size_t size, off_t offset)>;

/// Writes this rank's block of every field into its reserved range of a [nz][nx] dataset.
void write_block_rows(const RowSink& sink, const Snapshot& global, const Snapshot& block, int i_offset, int k_offset,
                      const std::vector<std::string>& fields, const std::vector<ReservedRange>& ranges) {
  static_assert(std::endian::native == std::endian::little, "fields are stored as little-endian doubles");
  const auto row_bytes = static_cast<std::size_t>(block.nx) * sizeof(double);
  const bool whole_rows = block.nx == global.nx;
  for (std::size_t f = 0; f < fields.size(); ++f) {
    const std::vector<double> values = find_field(fields[f])->values(block);
    const auto first = static_cast<off_t>(ranges[f].offset) +
                       static_cast<off_t>((static_cast<long long>(k_offset) * global.nx + i_offset) * sizeof(double));
    if (whole_rows) {
      sink(values.data(), values.size() * sizeof(double), first);
      continue;
    }
    for (int k = 0; k < block.nz; ++k)
      sink(values.data() + static_cast<std::size_t>(k) * block.nx, row_bytes,
           first + static_cast<off_t>(static_cast<long long>(k) * global.nx * sizeof(double)));
  }
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
  const auto estimate = static_cast<std::size_t>(file_size_bound(snapshot, fields.size()));
  try {
    write_new_file(path, estimate, [&](hid_t file) {
      write_coordinates(file, snapshot);
      write_fields(file, snapshot, fields, compression_level);
      write_root_attributes(file, snapshot);
    });
  } catch (const FileFailure& failure) {
    throw Error(ExitCode::io, path.string(), failure.what());
  }
}

void write_snapshot_blocks(const fs::path& path, const Snapshot& global, const Snapshot& block, int i_offset,
                           int k_offset, const std::vector<std::string>& fields, MPI_Comm comm) {
  check_fields(path, fields, 0);
  check_grid(path, block);
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  const auto as_io_error = [&](const std::function<void()>& action) {
    return [&path, action] {
      try {
        action();
      } catch (const FileFailure& failure) {
        throw Error(ExitCode::io, path.string(), failure.what());
      }
    };
  };
  std::optional<NewFile> file;  // rank 0's; removed again unless published
  std::vector<ReservedRange> ranges(fields.size());
  run_on_root_agreed(comm, as_io_error([&] {
    check_dimensions(path, global);
    file.emplace(path);
    ranges = write_layout(*file, file_size_bound(global, fields.size()), fields, [&](hid_t layout) {
      write_coordinates(layout, global);
      reserve_fields(layout, global, fields);
      write_root_attributes(layout, global);
    });
  }));
  MPI_Bcast(ranges.data(), static_cast<int>(ranges.size() * sizeof(ReservedRange)), MPI_BYTE, 0, comm);
  run_agreed(comm, as_io_error([&] {
    if (rank == 0) {
      write_block_rows([&](const void* data, std::size_t size, off_t offset) { file->write_at(data, size, offset); },
                       global, block, i_offset, k_offset, fields, ranges);
      file->sync_and_close();
      return;
    }
    ExistingFileWriter rows(unfinished_path(path));
    write_block_rows([&](const void* data, std::size_t size, off_t offset) { rows.write_at(data, size, offset); },
                     global, block, i_offset, k_offset, fields, ranges);
    rows.sync_and_close();
  }));
  run_on_root_agreed(comm, as_io_error([&] { file->publish(Replace::never); }));
}

std::vector<double> read_dataset(const fs::path& path, const std::string& name) {
  const QuietHdf5Errors quiet;
  try {
    const FileHandle file(checked(H5Fopen(path.string().c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), "cannot open file"));
    const DatasetHandle dataset(checked(H5Dopen2(file.get(), name.c_str(), H5P_DEFAULT), "no dataset '" + name + "'"));
    const DataspaceHandle space(checked(H5Dget_space(dataset.get()), "cannot get the dataspace of " + name));
    const hssize_t count = H5Sget_simple_extent_npoints(space.get());
    if (count < 0) fail("cannot get the size of " + name);
    std::vector<double> values(static_cast<std::size_t>(count));
    check(H5Dread(dataset.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()),
          "cannot read dataset " + name);
    return values;
  } catch (const FileFailure& failure) {
    throw Error(ExitCode::io, path.string(), failure.what());
  }
}

}  // namespace simapp::io
