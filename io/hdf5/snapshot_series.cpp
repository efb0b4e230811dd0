#include "io/hdf5/snapshot_series.hpp"

#include <hdf5.h>

#include <algorithm>
#include <iterator>
#include <system_error>
#include <utility>

#include <fmt/format.h>

#include "foundation/error.hpp"
#include "io/files/file_space.hpp"
#include "io/files/new_file.hpp"
#include "io/hdf5/cf_time.hpp"
#include "io/hdf5/hdf5_file.hpp"
#include "io/hdf5/hdf5_handle.hpp"
#include "io/hdf5/hdf5_reader.hpp"
#include "io/hdf5/snapshot_layout.hpp"

namespace simapp::io {

namespace fs = std::filesystem;

namespace {

// ---- the layout -----------------------------------------------------------------------------

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
  const auto write = [&](const FieldInfo& field) {
    write_variable(file, field, field_dims(snapshot), snapshot_field(snapshot, field.name), creation.get(),
                   field_dimension_names(snapshot), series_max_dims(snapshot), snapshot.precision);
  };
  for (const FieldInfo& field : snapshot_fields())
    if (!field.profile && std::ranges::find(fields, field.name) != fields.end()) write(field);
  for (const std::vector<DerivedField>* extra : {&snapshot.tracer_fields, &snapshot.water_fields})
    for (const DerivedField& field : *extra) {
      const FieldDescription& d = field.description;
      if (std::ranges::find(fields, d.name) != fields.end())
        write({d.name, d.unit, d.long_name, d.standard_name, d.comment});
    }
  std::vector<hsize_t> surface_chunk = surface_dims(snapshot), surface_max = surface_chunk;
  surface_max[0] = H5S_UNLIMITED;
  write_surface_fields(file, snapshot, fields, along_time(surface_chunk).get(), surface_max);
}

/// More than the bytes of a new series holding one time: a snapshot's, with room for deflate's
/// growth of values it cannot shrink and the chunk indexes.
long long series_size_bound(const Snapshot& snapshot, std::size_t field_count) {
  const long long values = static_cast<long long>(field_count * cell_count(snapshot) * sizeof(double));
  return file_size_bound(snapshot, field_count) + values / 64 + (64LL << 10) +
         4096 * static_cast<long long>(field_count);
}

/// More than the bytes `appended` appends add to a series holding `times` times: each field's
/// new chunk (with room for deflate's growth), and for every variable along time the growth of
/// its chunk index (a few dozen bytes an entry, allocated in blocks of up to about half its
/// entries so far), besides the metadata written again.
long long append_size_bound(const Snapshot& snapshot, std::size_t field_count, long times, long appended) {
  const long long values = static_cast<long long>(field_count * cell_count(snapshot) * sizeof(double));
  const auto variables = static_cast<long long>(field_count) + 2;  // the fields, step, time
  return appended * (values + values / 64 + variables * ((64LL << 10) + 32LL * (times + appended))) + (1LL << 20);
}

// ---- changing a private copy ----------------------------------------------------------------

/// Opens `path`, a private copy of the series, to change it: no file locks (nobody else opens
/// it, and a file system without locks must not stop the run).
FileHandle open_to_change(const fs::path& path) {
  const PropertyListHandle access(checked(H5Pcreate(H5P_FILE_ACCESS), "cannot create file access properties"));
  check(H5Pset_file_locking(access.get(), false, true), "cannot turn file locking off");
  return FileHandle(checked(H5Fopen(path.c_str(), H5F_ACC_RDWR, access.get()), "cannot open the series"));
}

/// Where the file's allocated space ends (HDF5's end of allocation), as the closed file says.
off_t allocated_end(const fs::path& path) {
  const FileHandle file = open_to_change(path);
  haddr_t end = 0;
  check(H5Fget_eoa(file.get(), &end), "cannot get the end of the series' allocated space");
  return static_cast<off_t>(end);
}

DatasetHandle open_dataset(hid_t file, const std::string& name) {
  return DatasetHandle(checked(H5Dopen2(file, name.c_str(), H5P_DEFAULT), "cannot open dataset " + name));
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

/// The series' variables along time: its fields of the grid and over the surface, step and time.
std::vector<std::string> variables_along_time(const std::vector<std::string>& fields) {
  std::vector<std::string> variables = grid_fields(fields);
  std::ranges::copy(surface_fields_among(fields), std::back_inserter(variables));
  variables.insert(variables.end(), {"step", "time"});
  return variables;
}

/// The entries every variable along time of the series has (a file an earlier simapp left
/// killed in an append may have some one longer).
hsize_t whole_times(hid_t file, const std::vector<std::string>& variables) {
  hsize_t whole = length_along_time(file, variables.front());
  for (const std::string& name : variables) whole = std::min(whole, length_along_time(file, name));
  return whole;
}

/// Sets every variable along time to `length` entries.
void set_times(hid_t file, const std::vector<std::string>& variables, hsize_t length) {
  for (const std::string& name : variables) set_length_along_time(open_dataset(file, name).get(), name, length);
}

/// Makes the copy `file` hold the first `times` times of `published`, of which it holds a prefix
/// (the version an append replaced, or a copy of `published`): cut to them, or caught up by the
/// times it lacks, read from `published`.
void catch_up(hid_t file, const fs::path& published, const std::vector<std::string>& variables, hsize_t times) {
  const hsize_t held = std::min(whole_times(file, variables), times);
  set_times(file, variables, held);
  if (held == times) return;
  const Hdf5Reader source(published, ExitCode::io);
  for (hsize_t index = held; index < times; ++index) {
    for (const std::string& name : variables) {
      const DatasetShape shape = source.dataset_shape(name);
      Hyperslab entry{std::vector<hsize_t>(shape.dims.size(), 0), shape.dims};
      entry.start[0] = index;
      entry.count[0] = 1;
      if (name == "step") {
        write_along_time(file, name, index, H5T_NATIVE_LONG, source.read_dataset<long>(name, entry).data());
      } else {
        write_along_time(file, name, index, H5T_NATIVE_DOUBLE, source.read_dataset<double>(name, entry).data());
      }
    }
  }
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
  for (const std::string& name : grid_fields(fields))
    if (series.dataset_shape(name).max_dims.at(0) != H5S_UNLIMITED)
      throw Error(ExitCode::bad_input, series.path().string(),
                  "not a snapshot series (its field " + name + " does not grow along time: a per-time snapshot?)");
}

/// Refuses (bad input) a snapshot of another grid, time origin or precision than the series'.
void check_continues(hid_t file, const fs::path& path, const Snapshot& snapshot) {
  const Hdf5Reader series(file, path, ExitCode::io);
  const int nx = series.read_attribute<int>("nx"), nz = series.read_attribute<int>("nz");
  const int ny = series.has_attribute("ny") ? series.read_attribute<int>("ny") : 1;
  if (nx != snapshot.nx || ny != snapshot.ny || nz != snapshot.nz) {
    const auto cells = [](int x, int y, int z) {
      return y > 1 ? fmt::format("{} x {} x {}", x, y, z) : fmt::format("{} x {}", x, z);
    };
    throw Error(ExitCode::bad_input, path.string(),
                fmt::format("the series is of a grid of {} cells, the run's {}", cells(nx, ny, nz),
                            cells(snapshot.nx, snapshot.ny, snapshot.nz)));
  }
  const std::string units = cf_time_units(std::get<UtcTime>(parse_utc_time(snapshot.time_start)));
  if (series.read_attribute<std::string>("units", "time") != units)
    throw Error(ExitCode::bad_input, path.string(),
                fmt::format("the series' time is not in '{}' (time.start {}): a series continues with the time.start "
                            "it was made with",
                            units, snapshot.time_start));
  if (const Precision held = stored_precision(file, path); held != snapshot.precision)
    throw Error(ExitCode::bad_input, path.string(),
                fmt::format("the series holds {} fields; this run's execution.precision is {}: a series continues "
                            "in the precision it was made with",
                            to_string(held), to_string(snapshot.precision)));
}

}  // namespace

SnapshotSeriesFile::SnapshotSeriesFile(fs::path path, std::vector<std::string> fields, int compression_level,
                                       std::optional<long> kept_step, std::span<const DerivedField> tracers,
                                       std::span<const DerivedField> water)
    : path_(std::move(path)), fields_(std::move(fields)), compression_level_(compression_level), versions_(path_) {
  check_fields(path_, fields_, compression_level_, tracers, water);
  std::error_code error;
  if (!kept_step || !fs::exists(fs::symlink_status(path_, error))) return;
  if (fs::symlink_status(path_, error).type() != fs::file_type::regular ||
      !has_root_attributes(path_, {"simapp_version", "input_yaml"}))
    throw Error(ExitCode::bad_input, path_.string(), "not a snapshot series that simapp wrote");
  check_series_variables(Hdf5Reader(path_, ExitCode::bad_input), fields_);
  times_ = keep_until(*kept_step);
  exists_ = true;
}

long SnapshotSeriesFile::keep_until(long kept_step) {
  const QuietHdf5Errors quiet;
  const std::vector<std::string> variables = variables_along_time(fields_);
  try {
    hsize_t kept = 0;
    bool cut = false;
    {
      const Hdf5Reader series(path_, ExitCode::io);
      std::vector<long> steps = series.read_dataset<long>("step");
      hsize_t whole = steps.size();
      for (const std::string& name : variables) whole = std::min(whole, series.dataset_shape(name).dims[0]);
      steps.resize(whole);
      kept = static_cast<hsize_t>(std::ranges::find_if(steps, [&](long step) { return step > kept_step; }) -
                                  steps.begin());
      for (const std::string& name : variables) cut = cut || series.dataset_shape(name).dims[0] != kept;
    }
    if (cut) {
      versions_.make_working_copy();
      const fs::path& copy = versions_.working_copy();
      {
        FileHandle file = open_to_change(copy);
        catch_up(file.get(), path_, variables, kept);
        check(file.close(), "cannot close the series");
      }
      cut_and_sync(copy, allocated_end(copy));
      versions_.replace();
    }
    return static_cast<long>(kept);
  } catch (const FileFailure& failure) {
    throw Error(ExitCode::io, path_.string(), failure.what());
  }
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
    write_layout(file, series_size_bound(snapshot, fields_.size()), {}, [&](hid_t layout) {
      write_coordinates(layout, snapshot);
      write_series_fields(layout, snapshot, fields_, compression_level_);
      write_profiles(layout, snapshot, fields_);
      write_root_attributes(layout, snapshot);
      write_precision_attribute(layout, snapshot);
    });
    file.sync_and_close();
    file.publish(Replace::never);
  } catch (const FileFailure& failure) {
    throw Error(ExitCode::io, path_.string(), failure.what());
  }
}

void SnapshotSeriesFile::extend(const Snapshot& snapshot) {
  const QuietHdf5Errors quiet;
  const std::vector<std::string> variables = variables_along_time(fields_);
  const auto index = static_cast<hsize_t>(times_);
  try {
    versions_.make_working_copy();
    const fs::path& copy = versions_.working_copy();
    // Room for two appends: the one the copy may lack, and this one.
    reserve_space_after_end(copy, append_size_bound(snapshot, fields_.size(), times_, 2));
    {
      FileHandle file = open_to_change(copy);
      check_continues(file.get(), path_, snapshot);
      catch_up(file.get(), path_, variables, index);
      for (const std::string& name : grid_fields(fields_)) {
        // Rounded here, as the series' first time was (write_variable).
        const std::vector<double> values = snapshot_field(snapshot, name);
        if (snapshot.precision == Precision::float32)
          write_along_time(file.get(), name, index, H5T_NATIVE_FLOAT, as_floats(values).data());
        else
          write_along_time(file.get(), name, index, H5T_NATIVE_DOUBLE, values.data());
      }
      for (const std::string& name : surface_fields_among(fields_))
        write_along_time(file.get(), name, index, H5T_NATIVE_DOUBLE, snapshot_field(snapshot, name).data());
      write_along_time(file.get(), "step", index, H5T_NATIVE_LONG, &snapshot.step);
      write_along_time(file.get(), "time", index, H5T_NATIVE_DOUBLE, &snapshot.time);
      check(file.close(), "cannot close the series");
    }
    cut_and_sync(copy, allocated_end(copy));
    versions_.replace();
  } catch (const FileFailure& failure) {
    throw Error(ExitCode::io, path_.string(), failure.what());
  }
}

}  // namespace simapp::io
