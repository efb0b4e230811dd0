/// stats.nc (io/hdf5/statistics_file.hpp): the rows come back bit for bit, each variable on the
/// time dimension with its units and long_name, time in CF's seconds since time.start; a row waits while the file was
/// written less than statistics_hold_seconds before, and flush() writes it; a restarted run keeps the rows up to its
/// checkpoint's step at once; only a statistics file simapp wrote, of the run's model, is
/// continued; a first write never replaces a file it did not write; statistics_file_bound() is more than
/// a real file's size.
#include "io/hdf5/statistics_file.hpp"

#include <gtest/gtest.h>
#include <hdf5.h>
#include <hdf5_hl.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "io/hdf5/hdf5_handle.hpp"
#include "tests/support/binary_test.hpp"
#include "tests/support/error_of.hpp"
#include "tests/support/hdf5_reading.hpp"

namespace simapp::io {
namespace {

namespace fs = std::filesystem;
using testing::error_of;
using testing::read_values;

Snapshot run_of(int ny) {
  Snapshot run;
  run.nx = 40;
  run.nz = 20;
  run.ny = ny;
  run.dx = 500.0;
  run.dz = 500.0;
  run.dy = ny > 1 ? 500.0 : 0.0;
  run.case_name = "thermal";
  run.input_yaml = "case: thermal\n";
  run.version = "0.1.0";
  run.git_hash = "0123456789abcdef";
  return run;
}

/// A row whose every value differs from every other row's.
StatisticsRow row_at(long step) {
  const double s = static_cast<double>(step);
  StatisticsRow row;
  row.step = step;
  row.time = 1.25 * s;
  row.statistics = {{1.0e7 + s, 2.5e12 + 3.0 * s, {}}, 4.0e3 * s, 0.1 * s, 0.2 * s, 0.3 * s, -0.01 * s, 0.5 + s, 1.1};
  row.change = {1e-15 * s, -2e-14 * s, {}};
  return row;
}

constexpr const char* start = "2000-01-01T00:00:00Z";

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

void expect_rows(const std::vector<StatisticsRow>& got, const std::vector<long>& steps) {
  ASSERT_EQ(got.size(), steps.size());
  for (std::size_t r = 0; r < got.size(); ++r) {
    const StatisticsRow expected = row_at(steps[r]);
    EXPECT_EQ(got[r].step, expected.step);
    EXPECT_TRUE(same_bits(got[r].time, expected.time));
    EXPECT_TRUE(same_bits(got[r].statistics.totals.mass, expected.statistics.totals.mass));
    EXPECT_TRUE(same_bits(got[r].statistics.totals.total_energy, expected.statistics.totals.total_energy));
    EXPECT_TRUE(same_bits(got[r].statistics.kinetic_energy, expected.statistics.kinetic_energy));
    EXPECT_TRUE(same_bits(got[r].statistics.max_abs_u, expected.statistics.max_abs_u));
    EXPECT_TRUE(same_bits(got[r].statistics.max_abs_w, expected.statistics.max_abs_w));
    EXPECT_TRUE(same_bits(got[r].statistics.min_theta_prime, expected.statistics.min_theta_prime));
    EXPECT_TRUE(same_bits(got[r].statistics.max_theta_prime, expected.statistics.max_theta_prime));
    EXPECT_TRUE(same_bits(got[r].statistics.courant_number, expected.statistics.courant_number));
    EXPECT_TRUE(same_bits(got[r].change.mass, expected.change.mass));
    EXPECT_TRUE(same_bits(got[r].change.total_energy, expected.change.total_energy));
  }
}

/// Text attribute `attribute` of dataset `name`, through the HDF5 C API ("" when there is none).
std::string text_attribute(hid_t file, const std::string& name, const std::string& attribute) {
  if (H5Aexists_by_name(file, name.c_str(), attribute.c_str(), H5P_DEFAULT) <= 0) return "";
  const AttributeHandle handle(H5Aopen_by_name(file, name.c_str(), attribute.c_str(), H5P_DEFAULT, H5P_DEFAULT));
  const DatatypeHandle type(H5Aget_type(handle.get()));
  if (H5Tis_variable_str(type.get()) > 0) {
    char* text = nullptr;
    const DatatypeHandle memory(H5Tget_native_type(type.get(), H5T_DIR_ASCEND));
    H5Aread(handle.get(), memory.get(), &text);
    std::string value = text != nullptr ? text : "";
    H5free_memory(text);
    return value;
  }
  std::string value(H5Tget_size(type.get()), '\0');
  H5Aread(handle.get(), type.get(), value.data());
  return value.substr(0, value.find('\0'));
}

class StatisticsFileTest : public testing::BinaryTest {
 protected:
  fs::path path() const { return directory_ / "stats.nc"; }
};

TEST_F(StatisticsFileTest, RowsComeBackBitForBitOnTheTimeDimensionWithUnitsAndNames) {
  for (const int ny : {1, 6}) {
    SCOPED_TRACE("ny = " + std::to_string(ny));
    fs::remove(path());
    StatisticsFile file(path(), run_of(ny), start, std::nullopt);
    for (const long step : {0L, 3L, 6L}) file.append(row_at(step));
    file.flush();
    expect_rows(read_statistics_file(path(), ExitCode::io), {0, 3, 6});
    const FileHandle h5(H5Fopen(path().c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
    ASSERT_TRUE(h5.valid());
    const DatasetHandle time(H5Dopen2(h5.get(), "time", H5P_DEFAULT));
    EXPECT_GT(H5DSis_scale(time.get()), 0);
    EXPECT_EQ(read_values(h5.get(), "time"), (std::vector<double>{0.0, 3.75, 7.5}));
    std::vector<std::string> variables{
        "step",      "mass",      "total_energy",    "d_mass",          "d_te", "kinetic_energy",
        "max_abs_u", "max_abs_w", "min_theta_prime", "max_theta_prime", "cfl"};
    if (ny > 1) variables.push_back("max_abs_v");
    for (const std::string& name : variables) {
      SCOPED_TRACE(name);
      const DatasetHandle dataset(H5Dopen2(h5.get(), name.c_str(), H5P_DEFAULT));
      ASSERT_TRUE(dataset.valid());
      EXPECT_GT(H5DSis_attached(dataset.get(), time.get(), 0), 0);
      EXPECT_NE(text_attribute(h5.get(), name, "units"), "");
      EXPECT_NE(text_attribute(h5.get(), name, "long_name"), "");
    }
    EXPECT_EQ(H5Lexists(h5.get(), "max_abs_v", H5P_DEFAULT) > 0, ny > 1);
    EXPECT_EQ(text_attribute(h5.get(), "mass", "units"), ny > 1 ? "kg" : "kg m-1");
    EXPECT_EQ(text_attribute(h5.get(), "max_abs_w", "units"), "m s-1");
    EXPECT_EQ(text_attribute(h5.get(), "time", "standard_name"), "time");
    EXPECT_EQ(text_attribute(h5.get(), "time", "units"), "seconds since 2000-01-01 00:00:00");
    EXPECT_EQ(text_attribute(h5.get(), "time", "calendar"), "proleptic_gregorian");
  }
}

TEST_F(StatisticsFileTest, ARowWaitsWhileTheFileIsFreshAndFlushWritesIt) {
  StatisticsFile file(path(), run_of(1), start, std::nullopt);
  EXPECT_TRUE(file.append(row_at(0)));  // the first row at once
  EXPECT_FALSE(file.append(row_at(1)));
  expect_rows(read_statistics_file(path(), ExitCode::io), {0});
  EXPECT_TRUE(file.flush());
  expect_rows(read_statistics_file(path(), ExitCode::io), {0, 1});
  EXPECT_FALSE(file.flush()) << "nothing waits";
}

TEST_F(StatisticsFileTest, ARestartKeepsTheRowsUpToItsCheckpointAtOnceAndGoesOn) {
  {
    StatisticsFile file(path(), run_of(1), start, std::nullopt);
    for (const long step : {0L, 3L, 6L, 9L}) file.append(row_at(step));
    file.flush();
  }
  StatisticsFile continued(path(), run_of(1), start, 5);
  expect_rows(read_statistics_file(path(), ExitCode::io), {0, 3});
  continued.append(row_at(6));
  continued.flush();
  expect_rows(read_statistics_file(path(), ExitCode::io), {0, 3, 6});
  // No file yet: the restart starts one.
  fs::remove(path());
  StatisticsFile fresh(path(), run_of(1), start, 5);
  EXPECT_FALSE(fs::exists(path()));
  fresh.append(row_at(6));
  expect_rows(read_statistics_file(path(), ExitCode::io), {6});
}

TEST_F(StatisticsFileTest, OnlyAStatisticsFileOfTheRunsModelIsContinued) {
  std::ofstream(path()) << "not HDF5\n";
  const Error foreign = error_of([&] { StatisticsFile(path(), run_of(1), start, 5); });
  EXPECT_EQ(foreign.code(), ExitCode::bad_input);
  EXPECT_NE(std::string(foreign.what()).find("not a statistics file that simapp wrote"), std::string::npos)
      << foreign.what();
  EXPECT_EQ(testing::read_text(path()), "not HDF5\n") << "left as it was";

  fs::remove(path());
  {
    StatisticsFile three_d(path(), run_of(6), start, std::nullopt);
    three_d.append(row_at(0));
  }
  const Error other_model = error_of([&] { StatisticsFile(path(), run_of(1), start, 5); });
  EXPECT_EQ(other_model.code(), ExitCode::bad_input);
  EXPECT_NE(std::string(other_model.what()).find("3-D model; this run is 2-D"), std::string::npos)
      << other_model.what();
}

TEST_F(StatisticsFileTest, TheSizeBoundHoldsForFilesOfEveryModelRowCountAndInput) {
  // Row counts about the chunks' edges (4096 rows at most a chunk), the YAML short and long.
  for (const int ny : {1, 6})
    for (const std::size_t yaml_bytes : {std::size_t{14}, std::size_t{6000}})
      for (const long rows : {1L, 100L, 4096L, 4097L, 8193L}) {
        SCOPED_TRACE(fmt::format("ny = {}, {} B of YAML, {} rows", ny, yaml_bytes, rows));
        fs::remove(path());
        Snapshot run = run_of(ny);
        run.input_yaml = std::string(yaml_bytes - 1, '#') + "\n";
        StatisticsFile file(path(), run, start, std::nullopt);
        for (long step = 0; step < rows; ++step) file.append(row_at(step));
        file.flush();
        const auto size = static_cast<double>(fs::file_size(path()));
        EXPECT_LE(size, statistics_file_bound(rows, yaml_bytes));
        // A file that holds every value and the YAML.
        EXPECT_GT(size, static_cast<double>(yaml_bytes) + 8.0 * (ny > 1 ? 13 : 12) * static_cast<double>(rows));
      }
}

TEST_F(StatisticsFileTest, AFirstWriteNeverReplacesAFileItDidNotWrite) {
  std::ofstream(path()) << "someone's\n";
  StatisticsFile file(path(), run_of(1), start, std::nullopt);
  const Error error = error_of([&] { file.append(row_at(0)); });
  EXPECT_EQ(error.code(), ExitCode::io);
  EXPECT_EQ(testing::read_text(path()), "someone's\n");
}

}  // namespace
}  // namespace simapp::io
