#include "io/checkpoint/checkpoint.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <hdf5.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <future>
#include <limits>
#include <regex>
#include <string>
#include <vector>

#include "foundation/error.hpp"
#include "io/hdf5/hdf5_handle.hpp"
#include "kernels/physics/variables.hpp"
#include "tests/support/checkpoint_files.hpp"

namespace simapp::io {
namespace {

namespace fs = std::filesystem;

constexpr int nx = 12;
constexpr int nz = 7;

/// The configuration a checkpoint records (as simapp writes it: every key resolved).
const char* const input_yaml = "case: thermal\ngrid:\n  nx: 12\n  nz: 7\n  xlen: 20000\n  zlen: 10000\n";

RunSpec spec() {
  RunSpec spec;
  spec.case_name = CaseName::thermal;
  spec.grid.nx = nx;
  spec.grid.nz = nz;
  return spec;
}

/// Distinct, finite values: state(var, k, i) = 1000 var + 10 k + i / 100.
std::vector<double> state() {
  std::vector<double> values(var::count * nz * nx);
  for (int v = 0; v < var::count; ++v)
    for (int k = 0; k < nz; ++k)
      for (int i = 0; i < nx; ++i) values[(v * nz + k) * nx + i] = 1000.0 * v + 10.0 * k + i / 100.0;
  return values;
}

const RankBox whole{nx, nz, 0, 0};

/// The message of the Error `action` throws, checked to be bad input; "" when it throws none.
template <class Action>
std::string refusal(Action action) {
  try {
    action();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::bad_input) << e.where() << ": " << e.what();
    return e.where() + ": " + e.what();
  }
  return "";
}

class CheckpointTest : public ::testing::Test {
 protected:
  void SetUp() override {
    directory_ =
        fs::temp_directory_path() /
        ("simapp_CheckpointTest_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + "_" +
         std::to_string(::getpid()));
    fs::remove_all(directory_);
    fs::create_directories(directory_);
  }
  void TearDown() override { fs::remove_all(directory_); }

  /// Writes the checkpoint of step `step` (t = 2.5 step s) and returns its path.
  fs::path write(long step, const std::vector<double>& values = state()) const {
    write_checkpoint(directory_,
                     {step, 2.5 * static_cast<double>(step), physics_hash(spec()), nx, nz, 1.5e8, 2.75e13, "thermal",
                      spec().grid.xlen, spec().grid.zlen},
                     values, input_yaml);
    return checkpoint_path(directory_, step);
  }

  fs::path directory_;
};

TEST_F(CheckpointTest, WrittenCheckpointReadsBackExactly) {
  const fs::path path = write(40);
  const CheckpointHeader header = read_checkpoint_header(path);
  EXPECT_EQ(header.step, 40);
  EXPECT_EQ(header.time, 100.0);
  EXPECT_EQ(header.config_hash, physics_hash(spec()));
  EXPECT_EQ(header.nx, nx);
  EXPECT_EQ(header.nz, nz);
  EXPECT_EQ(header.initial_mass, 1.5e8);
  EXPECT_EQ(header.initial_total_energy, 2.75e13);
  EXPECT_EQ(read_checkpoint_block(path, whole), state());
  // A rank's block: cells i in [5, 9), k in [2, 7).
  const std::vector<double> block = read_checkpoint_block(path, RankBox{4, 5, 5, 2});
  ASSERT_EQ(block.size(), 4u * 5u * 4u);
  EXPECT_EQ(block[(3 * 5 + 1) * 4 + 2], 3000.0 + 30.0 + 7 / 100.0);
}

// 1. Checksums.

/// Reads all of dataset `name` as `memory_type` into `values`, returning its shape.
template <class T>
std::vector<hsize_t> read_all(const fs::path& path, const char* name, hid_t memory_type, std::vector<T>& values) {
  const FileHandle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  const DatasetHandle dataset(H5Dopen2(file.get(), name, H5P_DEFAULT));
  const DataspaceHandle space(H5Dget_space(dataset.get()));
  std::vector<hsize_t> dims(static_cast<std::size_t>(std::max(0, H5Sget_simple_extent_ndims(space.get()))));
  H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
  values.resize(static_cast<std::size_t>(H5Sget_simple_extent_npoints(space.get())));
  EXPECT_GE(H5Dread(dataset.get(), memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), 0) << name;
  return dims;
}

TEST_F(CheckpointTest, StateIsStoredWithChecksumsOfEveryRowSegment) {
  const fs::path path = write(1);
  std::vector<double> stored;
  std::vector<std::uint64_t> sums;
  EXPECT_EQ(read_all(path, "state", H5T_NATIVE_DOUBLE, stored), (std::vector<hsize_t>{4, nz, nx}));
  EXPECT_EQ(read_all(path, "state_checksums", H5T_NATIVE_UINT64, sums), (std::vector<hsize_t>{4, nz, 1}));
  // Each row's checksum, summed here over the row in one go, as no writer does.
  for (std::size_t row = 0; row < sums.size(); ++row) {
    std::uint64_t sum = 0;
    for (int i = 0; i < nx; ++i) sum += checksum_share(stored[row * nx + i], static_cast<std::uint64_t>(i));
    EXPECT_EQ(sums[row], sum) << "row " << row;
  }
}

/// A grid wider than a checksum segment: blocks that cross segments read back, and damage in a
/// later segment is found by a rank reading only there.
TEST_F(CheckpointTest, BlocksAcrossChecksumSegmentsReadBackAndDamageIsFoundInEach) {
  constexpr int wide = 2 * checksum_columns + 300, rows = 2;
  RunSpec wide_spec = spec();
  wide_spec.grid.nx = wide;
  wide_spec.grid.nz = rows;
  std::vector<double> values(var::count * rows * static_cast<std::size_t>(wide));
  for (std::size_t n = 0; n < values.size(); ++n) values[n] = std::sin(0.001 * static_cast<double>(n));
  write_checkpoint(
      directory_,
      {3, 7.5, physics_hash(wide_spec), wide, rows, 1.0, 2.0, "thermal", wide_spec.grid.xlen, wide_spec.grid.zlen},
      values, "");
  const fs::path path = checkpoint_path(directory_, 3);
  const RankBox across{400, 1, checksum_columns - 200, 1};
  const std::vector<double> block = read_checkpoint_block(path, across);
  for (int v = 0; v < var::count; ++v)
    for (int i = 0; i < across.nx; ++i)
      ASSERT_EQ(block[static_cast<std::size_t>(v) * across.nx + i],
                values[(static_cast<std::size_t>(v) * rows + 1) * wide + across.i_offset + i]);
  std::vector<std::uint64_t> sums;
  EXPECT_EQ(read_all(path, "state_checksums", H5T_NATIVE_UINT64, sums), (std::vector<hsize_t>{4, rows, 3}));
  // Damage in the last segment: a rank reading there refuses, one reading the first does not.
  testing::change_bytes(path, testing::stored_state_bytes(path).offset + (wide - 10) * sizeof(double), 1,
                        [](unsigned char byte) { return byte ^ 0x10u; });
  EXPECT_TRUE(std::regex_search(refusal([&] {
                                  read_checkpoint_block(path, RankBox{100, 1, wide - 100, 0});
                                }),
                                std::regex(R"(/state fails its checksum \(corrupted\))")));
  EXPECT_EQ(read_checkpoint_block(path, RankBox{100, rows, 0, 0}).size(), 4u * 100u * rows);
}

TEST_F(CheckpointTest, FlippedBitInTheStateFailsTheChecksum) {
  const fs::path path = write(1);
  testing::flip_state_bit(path);
  const std::string message = refusal([&] { read_checkpoint_block(path, whole); });
  EXPECT_TRUE(
      std::regex_search(message, std::regex(R"(checkpoint_000001\.h5: /state fails its checksum \(corrupted\))")))
      << message;
}

TEST_F(CheckpointTest, ZeroedBytesInTheStateFailTheChecksum) {
  const fs::path path = write(1);
  testing::zero_state_bytes(path);
  const std::string message = refusal([&] { read_checkpoint_block(path, whole); });
  EXPECT_TRUE(std::regex_search(message, std::regex(R"(/state fails its checksum \(corrupted\))"))) << message;
}

TEST_F(CheckpointTest, ChangedHeaderValuesFailTheHeaderChecksum) {
  for (const char* name : {"step", "time", "config_hash", "nx", "initial_total_energy"}) {
    const fs::path path = write(2);
    testing::set_attribute(path, name, testing::attribute(path, name) + 1.0);
    const std::string message = refusal([&] { read_checkpoint_header(path); });
    EXPECT_TRUE(std::regex_search(message, std::regex(R"(header attributes fail their checksum \(corrupted\))")))
        << name << ": " << message;
    fs::remove(path);
  }
}

// 2. Types and shapes.

TEST_F(CheckpointTest, StateOfAnotherTypeIsRefusedNamingIt) {
  for (const auto& [type, name] :
       {std::pair{H5T_IEEE_F32LE, "float32"}, std::pair{H5T_STD_I32LE, "int32"}, std::pair{H5T_STD_I64LE, "int64"}}) {
    const fs::path path = write(3);
    testing::rewrite_state_as(path, type);
    const std::string message = refusal([&] { read_checkpoint_block(path, whole); });
    EXPECT_TRUE(std::regex_search(
        message, std::regex(std::string("/state holds ") + name + " values; expected 64-bit IEEE floats")))
        << message;
    fs::remove(path);
  }
}

TEST_F(CheckpointTest, StateOfAnotherShapeIsRefusedNamingIt) {
  const std::vector<std::pair<std::vector<hsize_t>, std::string>> shapes{{{4, nz, nx + 1}, "4 x 7 x 13"},
                                                                         {{4, nz + 1, nx}, "4 x 8 x 12"},
                                                                         {{3, nz, nx}, "3 x 7 x 12"},
                                                                         {{4 * nz * nx}, "336"},
                                                                         {{4, nz, nx, 1}, "4 x 7 x 12 x 1"}};
  for (const auto& [dims, text] : shapes) {
    const fs::path path = write(4);
    testing::replace_state(path, H5T_IEEE_F64LE, dims);
    const std::string message = refusal([&] { read_checkpoint_block(path, RankBox{4, 2, 0, 0}); });
    EXPECT_TRUE(std::regex_search(message, std::regex("/state has shape " + text + "; expected 4 x 7 x 12")))
        << message;
    fs::remove(path);
  }
}

TEST_F(CheckpointTest, AttributeOfAnotherTypeIsRefusedNamingIt) {
  const std::vector<std::tuple<const char*, hid_t, std::string>> cases{
      {"nx", H5T_IEEE_F64LE, "attribute nx is float64; expected int32"},
      {"step", H5T_STD_I32LE, "attribute step is int32; expected int64"},
      {"time", H5T_IEEE_F32LE, "attribute time is float32; expected float64"},
      {"initial_mass", H5T_STD_I64LE, "attribute initial_mass is int64; expected float64"},
      {"config_hash", H5T_STD_I64LE, "attribute config_hash is int64; expected uint64"}};
  for (const auto& [name, type, expected] : cases) {
    const fs::path path = write(5);
    testing::retype_attribute(path, name, type, testing::attribute(path, name));
    const std::string message = refusal([&] { read_checkpoint_header(path); });
    EXPECT_TRUE(std::regex_search(message, std::regex(expected))) << message;
    fs::remove(path);
  }
}

// 3. Values that are not finite.

TEST_F(CheckpointTest, NonFiniteDiagnosticsAreRefused) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  for (const auto& [name, value, text] :
       {std::tuple{"initial_mass", nan, "nan"}, std::tuple{"initial_mass", inf, "inf"},
        std::tuple{"initial_total_energy", -inf, "-inf"}, std::tuple{"time", nan, "nan"}}) {
    const fs::path path = write(6);
    testing::set_attribute(path, name, value);
    const std::string message = refusal([&] { read_checkpoint_header(path); });
    EXPECT_TRUE(
        std::regex_search(message, std::regex(std::string("attribute ") + name + " is not finite \\(" + text + "\\)")))
        << message;
    fs::remove(path);
  }
}

TEST_F(CheckpointTest, NonFiniteStateIsRefusedWhereARankReadsIt) {
  const fs::path path = write(7);
  testing::set_state_value(path, var::wmom, 4, 9, std::numeric_limits<double>::quiet_NaN());
  testing::set_state_value(path, var::rhot, 1, 2, std::numeric_limits<double>::infinity());
  // The first non-finite value in [var][k][i] order of the block read.
  std::string message = refusal([&] { read_checkpoint_block(path, whole); });
  EXPECT_TRUE(
      std::regex_search(message, std::regex(R"(/state: wmom is not finite \(nan\) at cell \(i, k\) = \(9, 4\))")))
      << message;
  message = refusal([&] { read_checkpoint_block(path, RankBox{4, 3, 0, 0}); });
  EXPECT_TRUE(
      std::regex_search(message, std::regex(R"(/state: rhot is not finite \(inf\) at cell \(i, k\) = \(2, 1\))")))
      << message;
  // A rank whose cells are all finite reads them.
  EXPECT_EQ(read_checkpoint_block(path, RankBox{nx, 2, 0, 5}).size(), 4u * 2u * nx);
}

// 4. The older format.

TEST_F(CheckpointTest, CheckpointOfTheOlderFormatIsRefused) {
  const fs::path path = write(8);
  testing::rewrite_in_older_format(path);
  const std::string message = refusal([&] { read_checkpoint_header(path); });
  EXPECT_TRUE(
      std::regex_search(message, std::regex("written by an older simapp without checksums; cannot be verified")))
      << message;
}

TEST_F(CheckpointTest, CheckpointOfAnEarlierFormatVersionIsRefusedNamingBoth) {
  const fs::path path = write(8);
  testing::set_attribute(path, "format_version", 4.0);  // format 4 had no cfl attribute
  EXPECT_EQ(refusal([&] { read_checkpoint_header(path); }),
            path.string() + ": checkpoint format 4; this simapp reads formats 5 (the 2-D model) and 6 (the 3-D model)");
}

TEST_F(CheckpointTest, IncompatibleConfigurationIsRefusedNamingWhatDiffers) {
  const fs::path path = write(10);
  CheckpointHeader header = read_checkpoint_header(path);
  EXPECT_EQ(header.case_name, "thermal");
  EXPECT_EQ(header.xlen, 20000.0);
  EXPECT_EQ(header.zlen, 10000.0);
  const auto plan_of = [](const RunSpec& run) {
    return TimeStepping(1000.0, run.grid.xlen / run.grid.nx, run.grid.zlen / run.grid.nz, run.time.cfl);
  };
  header.time = plan_of(spec()).time_after(header.step);  // a step of this run
  const auto refusal_for = [&](const RunSpec& other) {
    return refusal([&] { check_restart_compatible(path, header, other, plan_of(other)); });
  };
  RunSpec other = spec();
  EXPECT_EQ(refusal_for(other), "");
  other.case_name = CaseName::collision;
  EXPECT_EQ(refusal_for(other),
            path.string() + ": checkpoint of case thermal, but the configuration's case is collision");
  other.grid.nx = 16;
  other.grid.xlen = 30000.0;
  EXPECT_EQ(refusal_for(other), path.string() +
                                    ": checkpoint of case thermal, but the configuration's case is collision; grid 12 "
                                    "x 7 vs 16 x 7; domain 20000 x 10000 m vs 30000 x 10000 m (checkpoint vs "
                                    "configuration)");
  other = spec();
  other.grid.zlen = 12500.5;
  EXPECT_EQ(refusal_for(other), path.string() +
                                    ": checkpoint of an incompatible configuration: domain 20000 x 10000 m vs 20000 x "
                                    "12500.5 m (checkpoint vs configuration)");
  other = spec();
  other.physics.viscosity = 75.0;
  EXPECT_EQ(refusal_for(other), path.string() +
                                    ": checkpoint of an incompatible configuration: physics.viscosity 0 vs 75 m²/s "
                                    "(checkpoint vs configuration)");
  other.physics.hyperviscosity = 0.0;
  EXPECT_EQ(refusal_for(other), path.string() +
                                    ": checkpoint of an incompatible configuration: physics.viscosity 0 vs 75 m²/s; "
                                    "physics.hyperviscosity 0.05 vs 0 (checkpoint vs configuration)");
  // Another Courant number makes other steps: the step numbers would stop matching t / dt.
  other = spec();
  other.time.cfl = 2.0;
  EXPECT_EQ(refusal_for(other), path.string() +
                                    ": checkpoint of an incompatible configuration: time.cfl 1.5 vs 2 (checkpoint vs "
                                    "configuration)");
  // The config hash alone (a checkpoint of a simapp that hashes more of the configuration).
  CheckpointHeader rehashed = header;
  rehashed.config_hash += 1;
  const std::string message = refusal([&] { check_restart_compatible(path, rehashed, spec(), plan_of(spec())); });
  EXPECT_TRUE(std::regex_search(message, std::regex("checkpoint of an incompatible configuration: its config_hash")))
      << message;
  // A step the run does not reach.
  const TimeStepping short_run(3.0, 1.0, 1.0, 1.5);
  EXPECT_TRUE(std::regex_search(refusal([&] { check_restart_compatible(path, header, spec(), short_run); }),
                                std::regex("checkpoint at step 10 .* does not fit this run's")));
}

TEST_F(CheckpointTest, WritingTakesCaseAndDomainFromTheHeader) {
  RunSpec other = spec();
  other.case_name = CaseName::gravity_waves;
  other.grid.xlen = 40000.0;
  CheckpointHeader header{3, 7.5, physics_hash(other), nx, nz, 1.0, 2.0};
  header.case_name = "gravity_waves";
  header.xlen = 40000.0;
  header.zlen = 10000.0;
  write_checkpoint(directory_, header, state(), "");
  const CheckpointHeader written = read_checkpoint_header(checkpoint_path(directory_, 3));
  EXPECT_EQ(written.case_name, "gravity_waves");
  EXPECT_EQ(written.xlen, 40000.0);
  // A header whose case, grid and domain do not give its hash is a bug, never written.
  header.xlen = 20000.0;
  try {
    write_checkpoint(directory_, header, state(), "");
    ADD_FAILURE() << "written";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::internal) << e.what();
  }
}

TEST_F(CheckpointTest, StateThatIsNotFiniteIsNotWrittenAndEarlierCheckpointsStay) {
  write(1);
  std::vector<double> values = state();
  values[(var::umom * nz + 2) * nx + 5] = -std::numeric_limits<double>::infinity();
  try {
    write(2, values);
    ADD_FAILURE() << "written";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::numerical);
    EXPECT_EQ(std::string(e.what()), "not written: the state's umom is not finite (-inf) at cell (i, k) = (5, 2)");
  }
  EXPECT_FALSE(fs::exists(checkpoint_path(directory_, 2)));
  EXPECT_EQ(read_checkpoint_block(checkpoint_path(directory_, 1), whole), state());
}

// 5. Hostile files.

TEST_F(CheckpointTest, SimappCheckpointsAreRecognized) {
  const fs::path checkpoint = write(1);
  EXPECT_TRUE(is_simapp_checkpoint(checkpoint));
  const fs::path older = directory_ / "older.h5";
  fs::copy_file(checkpoint, older);
  testing::rewrite_in_older_format(older);
  EXPECT_TRUE(is_simapp_checkpoint(older)) << "the older format is simapp's too";
  std::ofstream(directory_ / "text.h5") << "a user's notes\n";
  EXPECT_FALSE(is_simapp_checkpoint(directory_ / "text.h5"));
  testing::write_plain_hdf5(directory_ / "plain.h5");
  EXPECT_FALSE(is_simapp_checkpoint(directory_ / "plain.h5"));
  fs::create_symlink(checkpoint, directory_ / "link.h5");
  EXPECT_FALSE(is_simapp_checkpoint(directory_ / "link.h5")) << "a link is not a checkpoint to delete";
  testing::make_fifo(directory_ / "pipe.h5");
  EXPECT_FALSE(is_simapp_checkpoint(directory_ / "pipe.h5"));
  EXPECT_FALSE(is_simapp_checkpoint(directory_));
  EXPECT_FALSE(is_simapp_checkpoint(directory_ / "missing.h5"));
}

TEST_F(CheckpointTest, WhatIsNotACheckpointIsRefusedNamingWhy) {
  std::ofstream(directory_ / "text.h5") << "a user's notes\n";
  EXPECT_TRUE(std::regex_search(refusal([&] { read_checkpoint_header(directory_ / "text.h5"); }),
                                std::regex(R"(text\.h5: cannot open as an HDF5 file)")));
  testing::write_plain_hdf5(directory_ / "plain.h5");
  EXPECT_TRUE(std::regex_search(refusal([&] { read_checkpoint_header(directory_ / "plain.h5"); }),
                                std::regex(R"(plain\.h5: not a simapp checkpoint \(no attribute config_hash\))")));
  EXPECT_TRUE(std::regex_search(refusal([&] { read_checkpoint_header(directory_); }),
                                std::regex(R"(not a regular file \(a directory\))")));
  EXPECT_TRUE(std::regex_search(refusal([&] { read_checkpoint_header(directory_ / "missing.h5"); }),
                                std::regex(R"(missing\.h5: no such checkpoint file)")));
}

TEST_F(CheckpointTest, LatestIgnoresNamesWhoseStepDoesNotFit) {
  write(12);
  std::ofstream(directory_ / "checkpoint_99999999999999999999.h5") << "x";
  std::ofstream(directory_ / "checkpoint_9223372036854775808.h5") << "x";
  EXPECT_EQ(latest_checkpoint(directory_), std::optional(checkpoint_path(directory_, 12)));
}

TEST_F(CheckpointTest, LatestIgnoresWhatIsNotARegularFile) {
  write(12);
  testing::make_fifo(directory_ / "checkpoint_000013.h5");
  fs::create_directories(directory_ / "checkpoint_000014.h5");
  fs::create_symlink(directory_ / "nowhere.h5", directory_ / "checkpoint_000015.h5");
  EXPECT_EQ(latest_checkpoint(directory_), std::optional(checkpoint_path(directory_, 12)));
}

TEST_F(CheckpointTest, LatestIsTheFileFound) {
  fs::rename(write(12), directory_ / "checkpoint_12.h5");
  EXPECT_EQ(latest_checkpoint(directory_), std::optional(directory_ / "checkpoint_12.h5"));
}

TEST_F(CheckpointTest, NamedPipeIsRefusedWithoutOpeningIt) {
  const fs::path fifo = directory_ / "checkpoint_000001.h5";
  testing::make_fifo(fifo);
  auto reading = std::async(std::launch::async, [&] {
    return refusal([&] { read_checkpoint_header(fifo); }) + refusal([&] { read_checkpoint_block(fifo, whole); });
  });
  bool blocked = false;
  for (auto wait = std::chrono::seconds(10); reading.wait_for(wait) != std::future_status::ready;
       wait = std::chrono::seconds(1)) {
    blocked = true;
    const int writer = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);  // lets a blocked reader go
    if (writer >= 0) ::close(writer);
  }
  EXPECT_FALSE(blocked) << "blocked opening a named pipe";
  const std::string message = reading.get();
  EXPECT_TRUE(std::regex_search(message, std::regex(R"(checkpoint_000001\.h5: not a regular file \(a named pipe\))")))
      << message;
}

TEST_F(CheckpointTest, WritingRemovesOnlyEarlierSimappCheckpoints) {
  fs::create_directories(directory_ / "kept");
  write(5);
  fs::rename(checkpoint_path(directory_, 5), directory_ / "kept" / "checkpoint_000005.h5");
  fs::create_symlink(directory_ / "kept" / "checkpoint_000005.h5", directory_ / "checkpoint_000005.h5");
  std::ofstream(directory_ / "checkpoint_000003.h5") << "a user's notes\n";
  testing::write_plain_hdf5(directory_ / "checkpoint_000004.h5");
  testing::make_fifo(directory_ / "checkpoint_000006.h5");
  fs::create_directories(directory_ / "checkpoint_000007.h5");
  write(1);
  fs::rename(write(2), directory_ / "checkpoint_2.h5");  // simapp's, under another spelling of its step
  write(9);
  EXPECT_FALSE(fs::exists(checkpoint_path(directory_, 1)));
  EXPECT_FALSE(fs::exists(directory_ / "checkpoint_2.h5"));
  EXPECT_TRUE(fs::is_regular_file(directory_ / "checkpoint_000003.h5"));
  EXPECT_TRUE(fs::is_regular_file(directory_ / "checkpoint_000004.h5"));
  EXPECT_TRUE(fs::is_symlink(directory_ / "checkpoint_000005.h5"));
  EXPECT_TRUE(fs::is_regular_file(directory_ / "kept" / "checkpoint_000005.h5"));
  EXPECT_EQ(fs::symlink_status(directory_ / "checkpoint_000006.h5").type(), fs::file_type::fifo);
  EXPECT_TRUE(fs::is_directory(directory_ / "checkpoint_000007.h5"));
  EXPECT_TRUE(fs::is_regular_file(checkpoint_path(directory_, 9)));
}

}  // namespace
}  // namespace simapp::io
