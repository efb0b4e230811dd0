#include "io/hdf5/snapshot_writer.hpp"

#include <hdf5.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstddef>
#include <exception>
#include <span>
#include <thread>
#include <utility>

#include "foundation/error.hpp"
#include "io/hdf5/hdf5_file.hpp"
#include "io/hdf5/hdf5_handle.hpp"
#include "io/hdf5/netcdf_dimensions.hpp"
#include "io/hdf5/rank_written_file.hpp"
#include "io/hdf5/snapshot_layout.hpp"
#include "kernels/physics/variables.hpp"
#include "solver/decomposition/error_agreement.hpp"
#include "solver/model/derived_fields.hpp"

namespace simapp::io {

namespace fs = std::filesystem;

namespace {

// ---- the fields -----------------------------------------------------------------------------

/// The cells a field's values come from: a whole snapshot or a rank's block of one, viewed, as
/// rows of nx values: row r is (k, j) = (r / ny, r % ny) (in the 2-D model, ny = 1: row k).
struct CellValues {
  std::size_t nx = 0, ny = 1, nz = 0;
  std::span<const double> state;                         ///< [var][k][i], or [var][k][j][i]
  std::span<const double> density_cell, rho_theta_cell;  ///< ρ̄_c(k), ρ̄θ̄_c(k) of these layers
  std::span<const double> tracer_background;             ///< ρ̄_x(k) of each tracer of these layers, [k][t]

  explicit CellValues(const Snapshot& snapshot)
      : nx(static_cast<std::size_t>(snapshot.nx)),
        ny(static_cast<std::size_t>(snapshot.ny)),
        nz(static_cast<std::size_t>(snapshot.nz)),
        state(snapshot.state),
        density_cell(snapshot.density_cell),
        rho_theta_cell(snapshot.rho_theta_cell),
        tracer_background(snapshot.tracer_background_cell) {}
  explicit CellValues(const SnapshotBlock& block)
      : nx(static_cast<std::size_t>(block.nx)),
        ny(static_cast<std::size_t>(block.ny)),
        nz(static_cast<std::size_t>(block.nz)),
        state(block.state),
        density_cell(block.density_cell),
        rho_theta_cell(block.rho_theta_cell),
        tracer_background(block.tracer_background_cell) {}

  std::size_t rows() const { return ny * nz; }
  std::size_t cells() const { return nx * rows(); }
  /// Row r of every variable, with the background of its layer k = r / ny.
  StateRow row(std::size_t r) const {
    const std::size_t k = r / ny;
    const std::size_t tracers = tracer_background.size() / nz;
    return {state.data() + r * nx, cells(),           nx,
            density_cell[k],       rho_theta_cell[k], tracers > 0 ? &tracer_background[k * tracers] : nullptr};
  }
};

/// Every value of a field of the grid, row by row.
std::vector<double> all_rows(const CellValues& cells, const RowDerivation& row) {
  std::vector<double> values(cells.cells());
  for (std::size_t r = 0; r < cells.rows(); ++r) row(cells.row(r), values.data() + r * cells.nx);
  return values;
}

/// A profile's values at every layer of the snapshot.
std::vector<double> all_layers(const Snapshot& snapshot, LayerDerivation layer) {
  std::vector<double> values(snapshot.density_cell.size());
  for (std::size_t k = 0; k < values.size(); ++k)
    values[k] = layer(snapshot.density_cell[k], snapshot.rho_theta_cell[k]);
  return values;
}

/// Field `name` of the model of a grid of `ny` cells in y, of its `tracers` or of its `water`
/// (water_fields); nullptr when none is.
const DerivedField* model_field(const std::string& name, int ny, std::span<const DerivedField> tracers,
                                std::span<const DerivedField> water) {
  return find_field(model_dimensions(ny), tracers, name, water);
}

/// The values of surface field `field` over the snapshot's columns, [i] ([j][i] in 3-D).
std::vector<double> surface_values(const Snapshot& snapshot, const SurfaceField& field) {
  const std::size_t columns = static_cast<std::size_t>(snapshot.nx) * static_cast<std::size_t>(snapshot.ny);
  if (snapshot.surface.size() != 3 * columns)
    throw Error(ExitCode::internal, "snapshot_field", "the snapshot holds no surface fields of its grid");
  std::vector<double> values(columns);
  const double* first = snapshot.surface.data() + static_cast<std::size_t>(field.field) * columns;
  for (std::size_t c = 0; c < columns; ++c) values[c] = field.scale * first[c];
  return values;
}

/// Field `name` of either model; nullptr when neither has one.
const DerivedField* any_model_field(const std::string& name) {
  for (const int dims : {3, 2})
    if (const DerivedField* field = find_derived_field(dims, name)) return field;
  return nullptr;
}

FieldInfo info_of(const DerivedField& field) {
  const FieldDescription& d = field.description;
  return {d.name, d.unit, d.long_name, d.standard_name, d.comment, field.is_profile()};
}

}  // namespace

std::vector<double> snapshot_field(const Snapshot& snapshot, const std::string& name) {
  if (const SurfaceField* surface = find_surface_field(name); surface != nullptr && !snapshot.surface.empty())
    return surface_values(snapshot, *surface);
  if (any_model_field(name) == nullptr && find_field(2, snapshot.tracer_fields, name, snapshot.water_fields) == nullptr)
    throw Error(ExitCode::internal, "snapshot_field", "no field '" + name + "'");
  const DerivedField* field = model_field(name, snapshot.ny, snapshot.tracer_fields, snapshot.water_fields);
  if (field == nullptr)
    throw Error(ExitCode::bad_input, "snapshot_field", "field '" + name + "' is of the 3-D model (ny > 1)");
  if (field->is_profile()) {
    if (snapshot.density_cell.size() != static_cast<std::size_t>(snapshot.nz) ||
        snapshot.rho_theta_cell.size() != static_cast<std::size_t>(snapshot.nz))
      throw Error(ExitCode::internal, "snapshot_field", "the snapshot's background does not match its grid");
    return all_layers(snapshot, field->layer);
  }
  check_grid("snapshot_field", snapshot);
  return all_rows(CellValues(snapshot), field->row);
}

std::vector<std::string> grid_fields(const std::vector<std::string>& fields) {
  std::vector<std::string> grid;
  for (const std::string& name : fields)
    if (const DerivedField* field = any_model_field(name);
        (field == nullptr && find_surface_field(name) == nullptr) || (field != nullptr && !field->is_profile()))
      grid.push_back(name);
  return grid;
}

std::vector<std::string> surface_fields_among(const std::vector<std::string>& fields) {
  std::vector<std::string> surface;
  for (const std::string& name : fields)
    if (find_surface_field(name) != nullptr) surface.push_back(name);
  return surface;
}

namespace {

// ---- checking the request -------------------------------------------------------------------

void check_block(const fs::path& path, const Snapshot& global, const SnapshotBlock& block) {
  const auto layers = static_cast<std::size_t>(block.nz);
  const bool inside = block.nx > 0 && block.ny > 0 && block.nz > 0 && block.i_offset >= 0 && block.j_offset >= 0 &&
                      block.k_offset >= 0 && block.i_offset + block.nx <= global.nx &&
                      block.j_offset + block.ny <= global.ny && block.k_offset + block.nz <= global.nz;
  const std::size_t cells = layers * static_cast<std::size_t>(block.ny) * static_cast<std::size_t>(block.nx);
  const std::size_t variables = model_variables_of_grid(global.ny).size() + global.tracer_fields.size();
  if (!inside || block.state.size() != variables * cells || block.density_cell.size() != layers ||
      block.rho_theta_cell.size() != layers ||
      block.tracer_background_cell.size() != layers * global.tracer_fields.size())
    throw Error(ExitCode::internal, path.string(), "the rank's block does not match the grid");
}

// ---- the file -------------------------------------------------------------------------------

/// Dataset creation properties for [1][nz][nx] fields ([1][nz][ny][nx] in 3-D): chunked, shuffled
/// and deflated when `compression_level` > 0, the library's contiguous default otherwise. Chunks
/// are at most 64 × 256 cells (128 KiB) in 2-D and 8 × 64 × 256 (1 MiB) in 3-D: a reader inflates
/// whole chunks and HDF5 caches only those that fit its chunk cache (1 MiB a dataset by
/// default), so that reading a 3-D field a part at a time inflates a chunk once, not once a part.
PropertyListHandle field_creation_properties(const Snapshot& snapshot, int compression_level) {
  PropertyListHandle properties = dataset_creation_properties();
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

/// The fields of the grid among `fields`, with their values.
void write_fields(hid_t file, const Snapshot& snapshot, const std::vector<std::string>& fields, int compression_level) {
  const PropertyListHandle creation = field_creation_properties(snapshot, compression_level);
  for (const std::string& name : grid_fields(fields)) {
    const DerivedField& field = *model_field(name, snapshot.ny, snapshot.tracer_fields, snapshot.water_fields);
    write_variable(file, info_of(field), field_dims(snapshot), all_rows(CellValues(snapshot), field.row),
                   creation.get(), field_dimension_names(snapshot), {}, snapshot.precision);
  }
  write_surface_fields(file, snapshot, fields, dataset_creation_properties().get());
}

/// Creates every field of the grid among `fields` as a reserved dataset (storage allocated,
/// values written later by the ranks) of the snapshot's precision, with its CF attributes.
void reserve_fields(hid_t file, const Snapshot& snapshot, const std::vector<std::string>& fields) {
  const PropertyListHandle creation = reserved_dataset_properties();
  const std::vector<hsize_t> dims = field_dims(snapshot);
  for (const std::string& name : grid_fields(fields)) {
    const DerivedField& field = *model_field(name, snapshot.ny, snapshot.tracer_fields, snapshot.water_fields);
    const DataspaceHandle space(checked(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr),
                                        "cannot create the dataspace of " + name));
    DatasetHandle dataset(checked(H5Dcreate2(file, name.c_str(), stored_float_type(snapshot.precision), space.get(),
                                             H5P_DEFAULT, creation.get(), H5P_DEFAULT),
                                  "cannot create dataset " + name));
    write_variable_attributes(dataset.get(), info_of(field));
    check(dataset.close(), "cannot close dataset " + name);
    attach_dimensions(file, name, field_dimension_names(snapshot));
  }
}

// ---- block writes --------------------------------------------------------------------------

/// The most bytes of field values computed before they are written: a few MiB, so a block of
/// any size is written through one small buffer that stays in cache.
constexpr std::size_t row_buffer_bytes = std::size_t{4} << 20;

/// Writes this rank's block of one field into its reserved range of a [nz][nx] dataset
/// ([nz][ny][nx] of the whole grid's `global_ny` in 3-D) of `precision`, computing the values a
/// few rows at a time. The block's rows lie a file row apart in runs: all of them where the block
/// spans the grid's y (always in 2-D), else each layer's.
void write_field_rows(const RowSink& sink, int global_nx, int global_ny, Precision precision,
                      const SnapshotBlock& block, const RowDerivation& row, const ReservedRange& range) {
  static_assert(std::endian::native == std::endian::little, "fields are stored as little-endian floats");
  const CellValues cells(block);
  const auto file_nx = static_cast<std::size_t>(global_nx);
  const std::size_t run_rows = block.ny == global_ny ? cells.rows() : cells.ny;
  const std::size_t rows_at_once =
      cells.nx == file_nx ? std::max<std::size_t>(1, row_buffer_bytes / (cells.nx * sizeof(double))) : 1;
  std::vector<double> buffer(std::min(rows_at_once, run_rows) * cells.nx);
  const auto value_bytes = static_cast<long long>(simapp::value_bytes(precision));
  for (std::size_t run = 0; run < cells.rows(); run += run_rows) {
    const std::size_t k = run / cells.ny;
    const long long first =
        range.offset +
        ((static_cast<long long>(block.k_offset + static_cast<long long>(k)) * global_ny + block.j_offset) * global_nx +
         block.i_offset) *
            value_bytes;
    for (std::size_t r = 0; r < run_rows; r += rows_at_once) {
      const std::size_t rows = std::min(rows_at_once, run_rows - r);
      for (std::size_t n = 0; n < rows; ++n) row(cells.row(run + r + n), buffer.data() + n * cells.nx);
      const long long at = first + static_cast<long long>(r * file_nx) * value_bytes;
      if (precision == Precision::float32)
        write_rows(sink, as_floats(std::span(buffer).first(rows * cells.nx)).data(), cells.nx, rows, file_nx, at);
      else
        write_rows(sink, buffer.data(), cells.nx, rows, file_nx, at);
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
void write_block_rows(const RowSink& sink, int global_nx, int global_ny, Precision precision,
                      const SnapshotBlock& block, const std::vector<std::string>& fields,
                      const std::vector<ReservedRange>& ranges) {
  const std::size_t lanes = concurrent_fields(fields.size());
  const auto write_lane = [&](std::size_t lane) {
    for (std::size_t f = lane; f < fields.size(); f += lanes)
      write_field_rows(sink, global_nx, global_ny, precision, block,
                       model_field(fields[f], global_ny, block.tracer_fields, block.water_fields)->row, ranges[f]);
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
  // The 3-D model's fields, which hold the 2-D model's, then any of the 2-D model's it has not.
  static const std::vector<FieldInfo> fields = [] {
    std::vector<FieldInfo> infos;
    for (const int dims : {3, 2})
      for (const DerivedField& field : derived_fields(dims))
        if (std::ranges::none_of(infos, [&](const FieldInfo& info) { return info.name == field.description.name; }))
          infos.push_back(info_of(field));
    return infos;
  }();
  return fields;
}

void write_snapshot(const fs::path& path, const Snapshot& snapshot, const std::vector<std::string>& fields,
                    int compression_level) {
  check_fields(path, fields, compression_level, snapshot.tracer_fields, snapshot.water_fields);
  check_grid(path, snapshot);
  check_model_fields(path, fields, snapshot.ny);
  const auto estimate = static_cast<std::size_t>(file_size_bound(snapshot, fields.size()));
  try {
    write_new_file(path, estimate, [&](hid_t file) {
      write_coordinates(file, snapshot);
      write_fields(file, snapshot, fields, compression_level);
      write_profiles(file, snapshot, fields);
      write_root_attributes(file, snapshot);
      write_precision_attribute(file, snapshot);
    });
  } catch (const FileFailure& failure) {
    throw Error(ExitCode::io, path.string(), failure.what());
  }
}

bool is_3d_field(const std::string& name) {
  return find_derived_field(3, name) != nullptr && find_derived_field(2, name) == nullptr;
}

std::size_t snapshot_writer_threads(std::size_t fields) { return concurrent_fields(fields); }

SnapshotWrite::SnapshotWrite(fs::path path, const Snapshot& global, const SnapshotBlock& block,
                             const std::vector<std::string>& fields, MPI_Comm comm)
    : comm_(comm) {
  check_fields(path, fields, 0, global.tracer_fields, global.water_fields);
  check_dimensions(path, global);
  check_model_fields(path, fields, global.ny);
  check_block(path, global, block);
  const std::vector<std::string> rows_of = grid_fields(fields);
  file_ = std::make_unique<RankWrittenFile>(
      std::move(path), file_size_bound(global, fields.size()), rows_of,
      [&](hid_t layout) {
        write_coordinates(layout, global);
        reserve_fields(layout, global, fields);
        write_surface_fields(layout, global, fields, dataset_creation_properties().get());
        write_profiles(layout, global, fields);
        write_root_attributes(layout, global);
        write_precision_attribute(layout, global);
      },
      comm_);
  // The rows, on a thread of their own: plain writes to a file no other thread touches, no HDF5.
  // The block is released once they are written; the sync that follows needs only the file.
  rows_written_ = rows_released_.get_future();
  written_ = std::async(std::launch::async, [this, global_nx = global.nx, global_ny = global.ny,
                                             precision = global.precision, block, rows_of] {
    const auto start = std::chrono::steady_clock::now();
    bool block_released = false;
    try {
      file_->write_part(
          [&](const RowSink& sink) {
            write_block_rows(sink, global_nx, global_ny, precision, block, rows_of, file_->ranges());
          },
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

}  // namespace simapp::io
