/// output.layout: series. Appends to one file hold, bit for bit, what the per-time snapshots of
/// the same states hold; the file is whole for any reader after every append, after a failed one
/// and after its writer is killed in the middle of one, and a reader that has it open keeps the
/// version it opened while appends go on; a restarted run keeps the times up to its checkpoint's
/// step; and only a series simapp wrote, of the same fields and time.start, is continued.
#include <gtest/gtest.h>
#include <hdf5.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <climits>
#include <cmath>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "foundation/error.hpp"
#include "io/hdf5/hdf5_handle.hpp"
#include "io/hdf5/hdf5_reader.hpp"
#include "io/hdf5/snapshot_series.hpp"
#include "io/hdf5/snapshot_writer.hpp"
#include "tests/support/binary_test.hpp"
#include "tests/support/bitwise_equal.hpp"
#include "tests/support/error_of.hpp"
#include "tests/support/file_size_limit.hpp"
#include "tests/support/hdf5_reading.hpp"

namespace simapp::io {
namespace {

namespace fs = std::filesystem;
using testing::bitwise_equal;
using testing::dims_of;
using testing::error_of;
using testing::read_values;

// More than one band of rows of a per-time compressed snapshot's chunks, with partial ones.
constexpr int nx = 300;
constexpr int nz = 70;

const std::vector<std::string> all_fields{"rho_prime", "u", "w", "theta_prime", "dens", "umom", "wmom", "rhot"};

/// The snapshot of output `n` at `step`: a state that differs in every cell and at every output.
Snapshot snapshot_at(long step, int n) {
  Snapshot snapshot;
  snapshot.step = step;
  snapshot.time = 1.25 * static_cast<double>(step);
  snapshot.nx = nx;
  snapshot.nz = nz;
  snapshot.dx = 20000.0 / nx;
  snapshot.dz = 10000.0 / nz;
  snapshot.case_name = "thermal";
  snapshot.input_yaml = "case: thermal\noutput:\n  layout: series\n";
  snapshot.version = "0.1.0";
  snapshot.git_hash = "0123456789abcdef";
  for (int k = 0; k < nz; ++k) {
    snapshot.density_cell.push_back(1.16 * std::exp(-(k + 0.5) * snapshot.dz / 9000.0));
    snapshot.rho_theta_cell.push_back(300.0 * snapshot.density_cell.back());
  }
  for (int v = 0; v < 4; ++v)
    for (int k = 0; k < nz; ++k)
      for (int i = 0; i < nx; ++i)
        snapshot.state.push_back(0.01 * (v + 1) * std::sin(0.05 * i + 0.11 * k + 0.7 * n) + (v == 1 ? 3.0 : 0.0));
  return snapshot;
}

// ---- reading through the HDF5 C API ---------------------------------------------------------

/// Opens `path` read-only as any reader does.
FileHandle open_file(const fs::path& path) {
  const QuietHdf5Errors quiet;
  return FileHandle(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
}

/// Entry `n` along time of field `name`: nz × nx values.
std::vector<double> field_at(hid_t file, const std::string& name, std::size_t n) {
  const std::vector<double> all = read_values(file, name);
  const std::size_t cells = std::size_t{nx} * nz;
  if (all.size() < (n + 1) * cells) return {};
  return {all.begin() + static_cast<std::ptrdiff_t>(n * cells),
          all.begin() + static_cast<std::ptrdiff_t>((n + 1) * cells)};
}

int filters_of(hid_t file, const std::string& name) {
  const DatasetHandle dataset(H5Dopen2(file, name.c_str(), H5P_DEFAULT));
  const PropertyListHandle properties(H5Dget_create_plist(dataset.get()));
  return H5Pget_nfilters(properties.get());
}

// ---- fixture --------------------------------------------------------------------------------

class SnapshotSeriesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string test_name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    dir_ = fs::temp_directory_path() / ("simapp_series_test_" + std::to_string(::getpid()) + "_" + test_name);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path series() const { return dir_ / "fields.nc"; }

  /// Appends the snapshots of `steps` (output n at steps[n]) to a new series.
  void append_steps(const std::vector<long>& steps, int level = 0) const {
    SnapshotSeriesFile file(series(), all_fields, level, std::nullopt);
    for (std::size_t n = 0; n < steps.size(); ++n) file.append(snapshot_at(steps[n], static_cast<int>(n)));
  }

  /// Expects the series (as `file` has it open, else as a reader opening it now sees it) to hold
  /// exactly the outputs `outputs` (indices n of snapshot_at) at `steps`, each field bit for bit
  /// the per-time snapshot's.
  void expect_series(const std::vector<long>& steps, const std::vector<int>& outputs,
                     hid_t file = H5I_INVALID_HID) const {
    const FileHandle opened = file == H5I_INVALID_HID ? open_file(series()) : FileHandle(H5I_INVALID_HID);
    if (file == H5I_INVALID_HID) file = opened.get();
    ASSERT_GE(file, 0);
    std::vector<double> times, step_values;
    for (long step : steps) {
      times.push_back(1.25 * static_cast<double>(step));
      step_values.push_back(static_cast<double>(step));
    }
    EXPECT_TRUE(bitwise_equal(read_values(file, "time"), times));
    EXPECT_TRUE(bitwise_equal(read_values(file, "step"), step_values));
    for (std::size_t n = 0; n < steps.size(); ++n) {
      const fs::path per_time = dir_ / ("per_time_" + std::to_string(n) + ".h5");
      fs::remove(per_time);
      write_snapshot(per_time, snapshot_at(steps[n], outputs[n]), all_fields, 0);
      for (const std::string& name : all_fields)
        EXPECT_TRUE(bitwise_equal(field_at(file, name, n), read_dataset(per_time, name))) << name << " at time " << n;
    }
  }

  fs::path dir_;
};

// ---- appending ------------------------------------------------------------------------------

class SeriesCompressionTest : public SnapshotSeriesTest, public ::testing::WithParamInterface<int> {};

TEST_P(SeriesCompressionTest, AppendsHoldWhatPerTimeSnapshotsHoldBitForBit) {
  const std::vector<long> steps{0, 40, 80, 120};
  {
    SnapshotSeriesFile file(series(), all_fields, GetParam(), std::nullopt);
    for (std::size_t n = 0; n < steps.size(); ++n) {
      file.append(snapshot_at(steps[n], static_cast<int>(n)));
      EXPECT_EQ(file.times(), static_cast<long>(n + 1));
      // Whole after every append, for any reader.
      const FileHandle now = open_file(series());
      ASSERT_TRUE(now.valid()) << "after append " << n;
      EXPECT_EQ(dims_of(now.get(), "time"), std::vector<hsize_t>{n + 1});
      EXPECT_EQ(dims_of(now.get(), "u"), (std::vector<hsize_t>{n + 1, nz, nx}));
    }
  }
  expect_series(steps, {0, 1, 2, 3});
  const FileHandle file = open_file(series());
  const fs::path per_time = dir_ / "grid.h5";
  write_snapshot(per_time, snapshot_at(0, 0), all_fields, 0);
  for (const std::string name : {"x", "z", "x_bnds", "z_bnds"})
    EXPECT_TRUE(bitwise_equal(read_values(file.get(), name), read_dataset(per_time, name))) << name;
  for (const std::string& name : all_fields) EXPECT_EQ(filters_of(file.get(), name), GetParam() > 0 ? 2 : 0) << name;
  EXPECT_FALSE(fs::exists(dir_ / ".simapp_tmp"));
}

INSTANTIATE_TEST_SUITE_P(Levels, SeriesCompressionTest, ::testing::Values(0, 6));

TEST_F(SnapshotSeriesTest, RejectsBadRequestsBeforeWriting) {
  EXPECT_EQ(error_of([&] { SnapshotSeriesFile(series(), {"pressure"}, 0, std::nullopt); }).code(), ExitCode::bad_input);
  EXPECT_EQ(error_of([&] { SnapshotSeriesFile(series(), {"u", "u"}, 0, std::nullopt); }).code(), ExitCode::bad_input);
  EXPECT_EQ(error_of([&] { SnapshotSeriesFile(series(), {"u"}, 10, std::nullopt); }).code(), ExitCode::bad_input);
  EXPECT_FALSE(fs::exists(series()));
}

TEST_F(SnapshotSeriesTest, ANewSeriesNeverReplacesAFile) {
  std::ofstream(series()) << "precious";
  SnapshotSeriesFile file(series(), all_fields, 0, std::nullopt);
  const Error error = error_of([&] { file.append(snapshot_at(0, 0)); });
  EXPECT_EQ(error.code(), ExitCode::io);
  EXPECT_EQ(error.where(), series().string());
  EXPECT_TRUE(testing::read_text(series()) == "precious");
  EXPECT_FALSE(fs::exists(dir_ / ".simapp_tmp"));
}

using testing::FileSizeLimit;

TEST_F(SnapshotSeriesTest, AFailedAppendKeepsTheEarlierTimesAndTheNextOneSucceeds) {
  SnapshotSeriesFile file(series(), all_fields, 0, std::nullopt);
  file.append(snapshot_at(0, 0));
  file.append(snapshot_at(10, 1));
  const Error error = error_of([&] {
    const FileSizeLimit limit(fs::file_size(series()) + 64 * 1024);  // less than one field more
    file.append(snapshot_at(20, 2));
  });
  EXPECT_EQ(error.code(), ExitCode::io);
  EXPECT_EQ(error.where(), series().string());
  EXPECT_NE(std::string(error.what()).find("File too large"), std::string::npos) << error.what();
  EXPECT_EQ(file.times(), 2);
  expect_series({0, 10}, {0, 1});
  file.append(snapshot_at(20, 2));
  expect_series({0, 10, 20}, {0, 1, 2});
}

// ---- readers --------------------------------------------------------------------------------

TEST_F(SnapshotSeriesTest, AReaderThatHasTheFileOpenKeepsItsVersionWhileAppendsGoOn) {
  SnapshotSeriesFile file(series(), all_fields, 0, std::nullopt);
  file.append(snapshot_at(0, 0));
  file.append(snapshot_at(10, 1));
  const FileHandle reader = open_file(series());  // holds a shared lock, as HDF5's readers do
  ASSERT_TRUE(reader.valid());
  for (int n = 2; n < 6; ++n) file.append(snapshot_at(10L * n, n));
  {
    SCOPED_TRACE("the version the reader opened");
    expect_series({0, 10}, {0, 1}, reader.get());
  }
  SCOPED_TRACE("the file now");
  expect_series({0, 10, 20, 30, 40, 50}, {0, 1, 2, 3, 4, 5});
}

TEST_F(SnapshotSeriesTest, AContinuedSeriesKeepsItsTimeStart) {
  append_steps({0, 10});
  SnapshotSeriesFile continued(series(), all_fields, 0, LONG_MAX);
  Snapshot later = snapshot_at(20, 2);
  later.time_start = "2024-01-01T00:00:00Z";
  const Error error = error_of([&] { continued.append(later); });
  EXPECT_EQ(error.code(), ExitCode::bad_input);
  EXPECT_NE(std::string(error.what()).find("a series continues with the time.start it was made with"),
            std::string::npos)
      << error.what();
  expect_series({0, 10}, {0, 1});
}

// ---- continuing -----------------------------------------------------------------------------

/// The snapshot of output `n` at `step` of a float32 run: its state rounded to floats.
Snapshot float32_snapshot_at(long step, int n) {
  Snapshot snapshot = snapshot_at(step, n);
  snapshot.precision = Precision::float32;
  for (double& value : snapshot.state) value = static_cast<double>(static_cast<float>(value));
  return snapshot;
}

TEST_F(SnapshotSeriesTest, AFloat32SeriesHoldsEachTimesFieldsAsTheFloat32SnapshotAndContinuesOnlyInFloat32) {
  // The first time made with the file, the later ones appended, and one after a restart.
  const std::vector<long> steps{0, 10, 20};
  for (const int level : {0, 6}) {
    fs::remove(series());
    {
      SnapshotSeriesFile file(series(), all_fields, level, std::nullopt);
      file.append(float32_snapshot_at(steps[0], 0));
      file.append(float32_snapshot_at(steps[1], 1));
    }
    SnapshotSeriesFile continued(series(), all_fields, level, 10L);
    continued.append(float32_snapshot_at(steps[2], 2));
    const FileHandle file = open_file(series());
    ASSERT_TRUE(file.valid());
    EXPECT_EQ(Hdf5Reader(series(), ExitCode::io).read_attribute<std::string>("simapp_precision"), "float32");
    for (const std::string& name : all_fields) {
      const DatasetHandle dataset(H5Dopen2(file.get(), name.c_str(), H5P_DEFAULT));
      const DatatypeHandle type(H5Dget_type(dataset.get()));
      EXPECT_GT(H5Tequal(type.get(), H5T_IEEE_F32LE), 0) << name;
    }
    for (std::size_t n = 0; n < steps.size(); ++n) {
      const fs::path per_time = dir_ / ("per_time_" + std::to_string(n) + ".h5");
      fs::remove(per_time);
      write_snapshot(per_time, float32_snapshot_at(steps[n], static_cast<int>(n)), all_fields, 0);
      for (const std::string& name : all_fields)
        EXPECT_TRUE(bitwise_equal(field_at(file.get(), name, n), read_dataset(per_time, name)))
            << name << " at time " << n << ", level " << level;
    }
    EXPECT_TRUE(bitwise_equal(read_values(file.get(), "time"), {0.0, 12.5, 25.0}));
  }
  // A float64 run does not continue it.
  SnapshotSeriesFile continued(series(), all_fields, 6, LONG_MAX);
  const Error error = error_of([&] { continued.append(snapshot_at(30, 3)); });
  EXPECT_EQ(error.code(), ExitCode::bad_input);
  EXPECT_EQ(std::string(error.what()),
            "the series holds float32 fields; this run's execution.precision is float64: a series continues in the "
            "precision it was made with");
  const FileHandle file = open_file(series());
  EXPECT_EQ(dims_of(file.get(), "time"), std::vector<hsize_t>{3});
}

TEST_F(SnapshotSeriesTest, AFloat64SeriesNamesItsPrecisionAndOneWithoutTheAttributeIsFloat64) {
  append_steps({0, 10});
  EXPECT_EQ(Hdf5Reader(series(), ExitCode::io).read_attribute<std::string>("simapp_precision"), "float64");
  {
    const FileHandle file(H5Fopen(series().c_str(), H5F_ACC_RDWR, H5P_DEFAULT));
    ASSERT_GE(H5Adelete(file.get(), "simapp_precision"), 0);
  }
  SnapshotSeriesFile continued(series(), all_fields, 0, LONG_MAX);
  continued.append(snapshot_at(20, 2));
  expect_series({0, 10, 20}, {0, 1, 2});
  SnapshotSeriesFile refused(series(), all_fields, 0, LONG_MAX);
  const Error error = error_of([&] { refused.append(float32_snapshot_at(30, 3)); });
  EXPECT_EQ(std::string(error.what()),
            "the series holds float64 fields; this run's execution.precision is float32: a series continues in the "
            "precision it was made with");
}

TEST_F(SnapshotSeriesTest, ARestartKeepsTheTimesUpToItsCheckpointAndAppendsAfterThem) {
  append_steps({0, 10, 20, 30, 40});
  {
    SnapshotSeriesFile continued(series(), all_fields, 0, 25L);
    EXPECT_EQ(continued.times(), 3);
    expect_series({0, 10, 20}, {0, 1, 2});
    // The restarted run's next output, of another state than the first run's.
    continued.append(snapshot_at(30, 7));
    EXPECT_EQ(continued.times(), 4);
  }
  expect_series({0, 10, 20, 30}, {0, 1, 2, 7});
  EXPECT_EQ(SnapshotSeriesFile(series(), all_fields, 0, LONG_MAX).times(), 4) << "a later step keeps every time";
  EXPECT_EQ(SnapshotSeriesFile(series(), all_fields, 0, 20L).times(), 3) << "the checkpoint's own step is kept";
  SnapshotSeriesFile emptied(series(), all_fields, 0, -1L);
  EXPECT_EQ(emptied.times(), 0);
  emptied.append(snapshot_at(0, 5));
  expect_series({0}, {5});
}

TEST_F(SnapshotSeriesTest, ARestartWithoutASeriesStartsOne) {
  SnapshotSeriesFile file(series(), all_fields, 0, 30L);
  EXPECT_EQ(file.times(), 0);
  file.append(snapshot_at(40, 0));
  expect_series({40}, {0});
}

TEST_F(SnapshotSeriesTest, OnlyASeriesSimappWroteOfTheSameFieldsIsContinued) {
  const auto expect_refused = [&](const std::string& what, const std::vector<std::string>& fields = all_fields) {
    SCOPED_TRACE(what);
    const std::string before = testing::read_text(series());
    const Error error = error_of([&] { SnapshotSeriesFile(series(), fields, 0, 10L); });
    EXPECT_EQ(error.code(), ExitCode::bad_input) << error.what();
    EXPECT_EQ(error.where(), series().string());
    EXPECT_TRUE(testing::read_text(series()) == before) << "left as it was";
  };
  std::ofstream(series()) << "precious";
  expect_refused("a text file");
  fs::remove(series());
  {
    const FileHandle other(H5Fcreate(series().c_str(), H5F_ACC_EXCL, H5P_DEFAULT, H5P_DEFAULT));
    ASSERT_TRUE(other.valid());
  }
  expect_refused("an HDF5 file without simapp's attributes");
  fs::remove(series());
  write_snapshot(series(), snapshot_at(0, 0), all_fields, 0);
  expect_refused("a per-time snapshot");
  fs::remove(series());
  append_steps({0, 10});
  expect_refused("a series of other fields", {"u", "w"});
  fs::rename(series(), dir_ / "elsewhere.nc");
  fs::create_symlink(dir_ / "elsewhere.nc", series());
  const Error linked = error_of([&] { SnapshotSeriesFile(series(), all_fields, 0, 10L); });
  EXPECT_EQ(linked.code(), ExitCode::bad_input) << "a link is never followed";
}

// ---- a killed writer ------------------------------------------------------------------------

/// In a child process: appends snapshots to a new series without end, writing a byte to
/// `ready` after each; never returns.
[[noreturn]] void append_until_killed(const fs::path& path, int ready) {
  try {
    SnapshotSeriesFile file(path, all_fields, 0, std::nullopt);
    for (int n = 0;; ++n) {
      file.append(snapshot_at(10L * n, n));
      const char byte = 1;
      if (::write(ready, &byte, 1) != 1) ::_exit(2);
    }
  } catch (...) {
    ::_exit(1);
  }
}

TEST_F(SnapshotSeriesTest, AKilledWriterLeavesTheEarlierTimesWholeAndARestartContinuesThem) {
  // Killed after 3, 4 and 6 appends, a moment later each time: nearly always in an append.
  for (const int appended : {3, 4, 6}) {
    SCOPED_TRACE("killed after " + std::to_string(appended) + " appends");
    fs::remove(series());
    int pipe_ends[2];
    ASSERT_EQ(::pipe(pipe_ends), 0);
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      ::close(pipe_ends[0]);
      append_until_killed(series(), pipe_ends[1]);
    }
    ::close(pipe_ends[1]);
    char byte = 0;
    for (int n = 0; n < appended; ++n) ASSERT_EQ(::read(pipe_ends[0], &byte, 1), 1) << "the child failed";
    ::usleep(static_cast<useconds_t>(1000 * appended));
    ::kill(child, SIGKILL);
    int status = 0;
    ::waitpid(child, &status, 0);
    ::close(pipe_ends[0]);
    ASSERT_TRUE(WIFSIGNALED(status));

    // Whole for any reader: every variable holds the times the file counts, each written.
    hsize_t times = 0;
    {
      const FileHandle file = open_file(series());
      ASSERT_TRUE(file.valid());
      times = dims_of(file.get(), "time").front();
      EXPECT_GE(times, static_cast<hsize_t>(appended));
      for (const std::string& name : all_fields) EXPECT_EQ(dims_of(file.get(), name).front(), times) << name;
    }
    std::vector<long> steps;
    std::vector<int> outputs;
    for (int n = 0; n < static_cast<int>(times); ++n) {
      steps.push_back(10L * n);
      outputs.push_back(n);
    }
    {
      SCOPED_TRACE("as the kill left it");
      expect_series(steps, outputs);
    }
    // A restart continues it.
    SnapshotSeriesFile continued(series(), all_fields, 0, LONG_MAX);
    EXPECT_EQ(continued.times(), static_cast<long>(times));
    continued.append(snapshot_at(10L * static_cast<long>(times), static_cast<int>(times)));
    steps.push_back(10L * static_cast<long>(times));
    outputs.push_back(static_cast<int>(times));
    SCOPED_TRACE("continued");
    expect_series(steps, outputs);
  }
}

/// What an earlier simapp, which appended in place, left when killed in an append after writing
/// `step` and before `time`: `step` one time longer than `time` counts. A restart continues the
/// times `time` counts.
TEST_F(SnapshotSeriesTest, ASeriesWithStepLongerThanTimeContinuesTheTimesTimeCounts) {
  append_steps({0, 10});
  {
    const FileHandle file(H5Fopen(series().c_str(), H5F_ACC_RDWR, H5P_DEFAULT));
    ASSERT_TRUE(file.valid());
    const DatasetHandle step(H5Dopen2(file.get(), "step", H5P_DEFAULT));
    const hsize_t extended = 3, appended = 1, at = 2;
    ASSERT_GE(H5Dset_extent(step.get(), &extended), 0);
    const DataspaceHandle in_file(H5Dget_space(step.get()));
    ASSERT_GE(H5Sselect_hyperslab(in_file.get(), H5S_SELECT_SET, &at, nullptr, &appended, nullptr), 0);
    const DataspaceHandle in_memory(H5Screate_simple(1, &appended, nullptr));
    const long next_step = 20;
    ASSERT_GE(H5Dwrite(step.get(), H5T_NATIVE_LONG, in_memory.get(), in_file.get(), H5P_DEFAULT, &next_step), 0);
  }
  SnapshotSeriesFile continued(series(), all_fields, 0, LONG_MAX);
  EXPECT_EQ(continued.times(), 2);
  continued.append(snapshot_at(30, 2));
  SCOPED_TRACE("continued");
  expect_series({0, 10, 30}, {0, 1, 2});
}

}  // namespace
}  // namespace simapp::io
