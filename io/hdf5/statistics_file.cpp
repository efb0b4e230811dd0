#include "io/hdf5/statistics_file.hpp"

#include <hdf5.h>
#include <algorithm>
#include <cmath>
#include <functional>
#include <iterator>
#include <string>
#include <system_error>
#include <utility>

#include <fmt/format.h>

#include "foundation/error.hpp"
#include "io/files/new_file.hpp"
#include "io/hdf5/cf_time.hpp"
#include "io/hdf5/hdf5_file.hpp"
#include "io/hdf5/hdf5_handle.hpp"
#include "io/hdf5/hdf5_reader.hpp"
#include "io/hdf5/netcdf_dimensions.hpp"
#include "io/hdf5/snapshot_layout.hpp"

namespace simapp::io {

namespace fs = std::filesystem;

namespace {

/// A variable of the file along time: what it is, and where a row keeps its value.
struct Column {
  FieldInfo info;  ///< its comment says how it is computed
  std::function<double&(StatisticsRow& row)> of;
};

/// Whether `run` has water (physics.microphysics).
bool has_water(const Snapshot& run) { return run.microphysics != Microphysics::none; }

/// The names of the tracers of physics.tracers whose mixing ratios `run`'s snapshots hold (the
/// water's, first, have columns of their own).
std::vector<std::string> tracer_names(const Snapshot& run) {
  std::vector<std::string> names;
  for (std::size_t f = has_water(run) ? water_tracer_names.size() : 0; f < run.tracer_fields.size(); ++f)
    names.push_back(run.tracer_fields[f].description.name);
  return names;
}

/// The water's variables of a run with water.
std::vector<Column> water_columns(const std::string& kg, const std::string& per_y) {
  return {{{"water", kg, "total water" + per_y, "",
            "sum over cells of (rho_v + rho_c + rho_r) dV + sum over columns of precipitation_amount dA: the water "
            "in the air and on the ground"},
           [](StatisticsRow& row) -> double& { return row.statistics.totals.water->water; }},
          {{"d_water", "1", "relative change of the total water since t = 0", "",
            "(water - water at t = 0) / water at t = 0: the water clipped over water at t = 0"},
           [](StatisticsRow& row) -> double& { return row.change.water->water; }},
          {{"clipped_water", kg, "water clipped since t = 0" + per_y, "",
            "sum over columns of the water the hole filling and the clips of the microphysics added, dA"},
           [](StatisticsRow& row) -> double& { return row.change.water->clipped; }},
          {{"precipitation", kg, "water on the ground" + per_y, "",
            "sum over columns of precipitation_amount dA, the snapshots' precipitation_amount"},
           [](StatisticsRow& row) -> double& { return row.statistics.totals.water->precipitation; }},
          {{"mean_rain_rate", "kg m-2 s-1", "mean rain rate at the ground", "",
            "mean over columns of the snapshots' rain_rate (rho_w times the rate of the last microphysics call)"},
           [](StatisticsRow& row) -> double& { return row.statistics.totals.water->mean_rain_rate; }},
          {{"max_rain_rate", "kg m-2 s-1", "peak rain rate at the ground", "",
            "maximum over columns of the snapshots' rain_rate"},
           [](StatisticsRow& row) -> double& { return row.statistics.totals.water->max_rain_rate; }}};
}

/// The file's variables besides time and step, for the 2-D or the 3-D model, with water or
/// without, with `tracers` (of physics.tracers).
std::vector<Column> columns(bool three_d, bool water, const std::vector<std::string>& tracers) {
  const std::string per_y = three_d ? "" : " per metre of y";
  const std::string kg = three_d ? "kg" : "kg m-1", joule = three_d ? "J" : "J m-1";
  const std::string squared = three_d ? "u^2 + v^2 + w^2" : "u^2 + w^2";
  const std::string mass = water ? "dry mass" : "total mass";
  std::vector<Column> all{
      {{"mass", kg, mass + per_y, "",
        water ? "sum over cells of rho_d dV, rho_d = rho - rho_v - rho_c - rho_r the dry air's density"
              : "sum over cells of rho dV, rho = rho_bar(z) + rho'"},
       [](StatisticsRow& row) -> double& { return row.statistics.totals.mass; }},
      {{"total_energy", joule, "total energy" + per_y, "", "sum over cells of (rho (" + squared + ") + rho c_v T) dV"},
       [](StatisticsRow& row) -> double& { return row.statistics.totals.total_energy; }},
      {{"d_mass", "1", "relative change of the " + mass + " since t = 0", "", "(mass - mass at t = 0) / mass at t = 0"},
       [](StatisticsRow& row) -> double& { return row.change.mass; }},
      {{"d_te", "1", "relative change of the total energy since t = 0", "",
        "(total_energy - total_energy at t = 0) / total_energy at t = 0"},
       [](StatisticsRow& row) -> double& { return row.change.total_energy; }},
      {{"kinetic_energy", joule, "kinetic energy" + per_y, "", "sum over cells of rho (" + squared + ") / 2 dV"},
       [](StatisticsRow& row) -> double& { return row.statistics.kinetic_energy; }},
      {{"max_abs_u", "m s-1", "largest |u|", "", "maximum over cells of |u|, u = umom / rho"},
       [](StatisticsRow& row) -> double& { return row.statistics.max_abs_u; }}};
  if (three_d)
    all.push_back({{"max_abs_v", "m s-1", "largest |v|", "", "maximum over cells of |v|, v = vmom / rho"},
                   [](StatisticsRow& row) -> double& { return row.statistics.max_abs_v; }});
  all.insert(all.end(),
             {{{"max_abs_w", "m s-1", "largest |w|", "", "maximum over cells of |w|, w = wmom / rho"},
               [](StatisticsRow& row) -> double& { return row.statistics.max_abs_w; }},
              {{"min_theta_prime", "K", "smallest theta'", "",
                "minimum over cells of theta' = theta - theta_bar(z), the snapshots' theta_prime"},
               [](StatisticsRow& row) -> double& { return row.statistics.min_theta_prime; }},
              {{"max_theta_prime", "K", "largest theta'", "",
                "maximum over cells of theta' = theta - theta_bar(z), the snapshots' theta_prime"},
               [](StatisticsRow& row) -> double& { return row.statistics.max_theta_prime; }},
              {{"cfl", "1", "Courant number reached", "",
                "maximum over cells and axes a of (|u_a| + c) dt / d_a, c the speed of sound: the number time.cfl "
                "bounds while every signal speed stays below 450 m/s"},
               [](StatisticsRow& row) -> double& { return row.statistics.courant_number; }}});
  if (water) std::ranges::move(water_columns(kg, per_y), std::back_inserter(all));
  for (std::size_t t = 0; t < tracers.size(); ++t)
    all.push_back(
        {{"d_mass_" + tracers[t], "1", "relative change of the mass of tracer " + tracers[t] + " since t = 0", "",
          "(m - m at t = 0) / m at t = 0, m = sum over cells of rho_x dV, rho_x = rho_x_bar(z) + rho_x' the "
          "tracer's density"},
         [t](StatisticsRow& row) -> double& { return row.change.tracer_mass[t]; }});
  return all;
}

/// Most rows in a chunk: 32 KiB of doubles, well inside a reader's default chunk cache (1 MiB).
constexpr hsize_t rows_per_chunk_at_most = 4096;

/// Creation properties of a variable along the unlimited time dimension of `rows` entries: the
/// fewest chunks of at most rows_per_chunk_at_most rows, all of one length, so that the last one
/// is at most one row a chunk short (the file is written whole, so no chunk is left to grow).
PropertyListHandle along_time(std::size_t rows) {
  PropertyListHandle properties = dataset_creation_properties();
  const hsize_t chunks = std::max<hsize_t>(1, (rows + rows_per_chunk_at_most - 1) / rows_per_chunk_at_most);
  const hsize_t chunk = std::max<hsize_t>(1, (rows + chunks - 1) / chunks);
  check(H5Pset_chunk(properties.get(), 1, &chunk), "cannot set chunking");
  return properties;
}

/// Writes `values` (of `file_type`, read as `memory_type`) as variable `name` along time and
/// returns it, open for its attributes.
DatasetHandle write_along_time(hid_t file, const std::string& name, hid_t file_type, hid_t memory_type,
                               const void* values, std::size_t rows) {
  const hsize_t length = rows, unlimited = H5S_UNLIMITED;
  const DataspaceHandle space(
      checked(H5Screate_simple(1, &length, &unlimited), "cannot create the dataspace of " + name));
  DatasetHandle dataset(
      checked(H5Dcreate2(file, name.c_str(), file_type, space.get(), H5P_DEFAULT, along_time(rows).get(), H5P_DEFAULT),
              "cannot create dataset " + name));
  if (rows > 0)
    check(H5Dwrite(dataset.get(), memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, values), "cannot write dataset " + name);
  return dataset;
}

/// The values of `column` in every row.
std::vector<double> values_of(const Column& column, const std::vector<StatisticsRow>& rows) {
  std::vector<double> values;
  values.reserve(rows.size());
  for (StatisticsRow row : rows) values.push_back(column.of(row));
  return values;
}

void fill(hid_t file, const Snapshot& run, const std::string& time_start, const std::vector<StatisticsRow>& rows) {
  std::vector<double> times;
  std::vector<long> steps;
  for (const StatisticsRow& row : rows) {
    times.push_back(row.time);
    steps.push_back(row.step);
  }
  write_time_attributes(
      write_along_time(file, "time", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, times.data(), rows.size()).get(), time_start);
  make_dimension_scale(file, "time");
  write_variable_attributes(
      write_along_time(file, "step", H5T_STD_I64LE, H5T_NATIVE_LONG, steps.data(), rows.size()).get(),
      {"step", "1", "time step number", "", ""});
  attach_dimensions(file, "step", {"time"});
  for (const Column& column : columns(run.ny > 1, has_water(run), tracer_names(run))) {
    const std::vector<double> values = values_of(column, rows);
    write_variable_attributes(
        write_along_time(file, column.info.name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, values.data(), rows.size()).get(),
        column.info);
    attach_dimensions(file, column.info.name, {"time"});
  }
  write_root_attributes(file, run, "simapp " + run.case_name + ": statistics of the flow over time");
}

/// The rows of a statistics file of the model of `three_d`, with `water` or without, with
/// `tracers`, every variable read and checked.
std::vector<StatisticsRow> read_rows(const Hdf5Reader& file, bool three_d, bool water,
                                     const std::vector<std::string>& tracers) {
  const std::vector<double> times = file.read_dataset<double>("time");
  const std::vector<long> steps = file.read_dataset<long>("step");
  std::vector<StatisticsRow> rows(times.size());
  const auto require_length = [&](const std::string& name, std::size_t length) {
    if (length != rows.size())
      throw Error(ExitCode::io, file.path().string(),
                  fmt::format("dataset {} holds {} values; time holds {}", name, length, rows.size()));
  };
  require_length("step", steps.size());
  for (std::size_t r = 0; r < rows.size(); ++r) {
    rows[r].time = times[r];
    rows[r].step = steps[r];
    rows[r].change.tracer_mass.resize(tracers.size());
    if (water) {
      rows[r].statistics.totals.water.emplace();
      rows[r].change.water.emplace();
    }
  }
  for (const Column& column : columns(three_d, water, tracers)) {
    const std::vector<double> values = file.read_dataset<double>(column.info.name);
    require_length(column.info.name, values.size());
    for (std::size_t r = 0; r < rows.size(); ++r) column.of(rows[r]) = values[r];
  }
  return rows;
}

/// Refuses (bad input) a file that is not a statistics file simapp wrote of the model of `three_d`,
/// with `water` or without, with `tracers`.
void check_statistics_file(const fs::path& path, bool three_d, bool water, const std::vector<std::string>& tracers) {
  std::error_code error;
  if (fs::symlink_status(path, error).type() != fs::file_type::regular ||
      !has_root_attributes(path, {"simapp_version", "input_yaml"}))
    throw Error(ExitCode::bad_input, path.string(), "not a statistics file that simapp wrote");
  const Hdf5Reader file(path, ExitCode::bad_input);
  std::vector<std::string> expected{"time", "step"};
  for (const Column& column : columns(three_d, water, tracers)) expected.push_back(column.info.name);
  for (const std::string& name : expected)
    if (!file.has_dataset(name))
      throw Error(
          ExitCode::bad_input, path.string(),
          fmt::format("not a statistics file of the {} model (it has no variable {})", three_d ? "3-D" : "2-D", name));
  if (three_d != file.has_dataset("max_abs_v"))
    throw Error(ExitCode::bad_input, path.string(), "a statistics file of the 3-D model; this run is 2-D");
}

}  // namespace

double statistics_file_bound(long rows, std::size_t yaml_bytes, std::size_t tracers) {
  // Measured with HDF5 1.10.8 (the simapp binary, rows 2 to 8194, 2-D and 3-D): a file holds
  // its input YAML, 8 B a value (12 variables in 2-D, 13 in 3-D) for every row and for the up
  // to one row a chunk that its last chunk lacks, and 42.9 to 45.6 kB more in 2-D, 45.4 to
  // 49.4 kB in 3-D (names, attributes, B-trees; which of HDF5's blocks fill up varies with the
  // rows). 56 KiB for that keeps more than 7 kB to spare. A tracer's variable adds a value a
  // row and 2.6 to 2.8 kB (measured with 1, 2 and 8 tracers, 12 rows): 4 KiB each.
  constexpr double rest = 56.0 * 1024.0, bytes_a_row = 13 * sizeof(double);
  constexpr double tracer_rest = 4.0 * 1024.0;
  const auto extra = static_cast<double>(tracers);
  const auto chunks = (static_cast<hsize_t>(std::max(rows, 1L)) + rows_per_chunk_at_most - 1) / rows_per_chunk_at_most;
  return rest + tracer_rest * extra + static_cast<double>(yaml_bytes) +
         (bytes_a_row + sizeof(double) * extra) * static_cast<double>(rows + static_cast<long>(chunks));
}

StatisticsFile::StatisticsFile(fs::path path, Snapshot run, std::string time_start, std::optional<long> kept_step)
    : path_(std::move(path)), run_(std::move(run)), time_start_(std::move(time_start)) {
  std::error_code error;
  if (!kept_step || !fs::exists(fs::symlink_status(path_, error))) return;
  const QuietHdf5Errors quiet;
  check_statistics_file(path_, run_.ny > 1, has_water(run_), tracer_names(run_));
  rows_ = read_rows(Hdf5Reader(path_, ExitCode::io), run_.ny > 1, has_water(run_), tracer_names(run_));
  on_disk_ = true;
  std::erase_if(rows_, [&](const StatisticsRow& row) { return row.step > *kept_step; });
  write();
}

bool StatisticsFile::append(const StatisticsRow& row) {
  rows_.push_back(row);
  const auto now = std::chrono::steady_clock::now();
  if (written_at_ && std::chrono::duration<double>(now - *written_at_).count() < statistics_hold_seconds) return false;
  write();
  return true;
}

bool StatisticsFile::flush() {
  if (rows_written_ == rows_.size()) return false;
  write();
  return true;
}

void StatisticsFile::write() {
  // The variables besides the dry model's: d_mass_<name> of each tracer and the water's.
  const std::size_t extra = tracer_names(run_).size() + (has_water(run_) ? water_columns("", "").size() : 0);
  const auto estimate =
      static_cast<std::size_t>(statistics_file_bound(static_cast<long>(rows_.size()), run_.input_yaml.size(), extra));
  try {
    // Only the file this writer wrote, or continued, is replaced.
    write_new_file(
        path_, estimate, [&](hid_t file) { fill(file, run_, time_start_, rows_); },
        on_disk_ ? Replace::allowed : Replace::never);
  } catch (const FileFailure& failure) {
    throw Error(ExitCode::io, path_.string(), failure.what());
  }
  on_disk_ = true;
  rows_written_ = rows_.size();
  written_at_ = std::chrono::steady_clock::now();
}

std::vector<StatisticsRow> read_statistics_file(const fs::path& path, ExitCode failure,
                                                const std::vector<std::string>& tracers, Microphysics microphysics) {
  const QuietHdf5Errors quiet;
  const Hdf5Reader file(path, failure);
  return read_rows(file, file.has_dataset("max_abs_v"), microphysics != Microphysics::none, tracers);
}

}  // namespace simapp::io
