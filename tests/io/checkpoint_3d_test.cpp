/// Checkpoints of the 3-D model (format 6): the state [5][nz][ny][nx] and its checksums per row
/// (k, j) are stored as checkpoint.hpp documents; the state reads back bit for bit, whole and by
/// boxes; a rank's box lands at its global cells; damage fails its checksum and values that are
/// not finite are named by variable and cell (i, j, k); ny and ylen are part of the header, its
/// checksum and the configuration hash; a 2-D checkpoint stays the format-5 file; a checkpoint
/// of the other model, or of another ny or ylen, is refused by name.
#include <gtest/gtest.h>
#include <hdf5.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "foundation/error.hpp"
#include "io/checkpoint/checkpoint.hpp"
#include "io/hdf5/hdf5_handle.hpp"
#include "tests/support/checkpoint_files.hpp"

namespace simapp::io {
namespace {

namespace fs = std::filesystem;

constexpr int nx = 6, ny = 4, nz = 3, variables = 5;
/// The 3-D model's variables, as checkpoint.hpp orders them.
constexpr int vmom = 2, wmom = 3;

RunSpec spec_3d() {
  RunSpec spec;
  spec.grid.nx = nx;
  spec.grid.ny = ny;
  spec.grid.nz = nz;
  spec.grid.ylen = 8000.0;
  return spec;
}

/// The same configuration in the 2-D model.
RunSpec spec_2d() {
  RunSpec spec = spec_3d();
  spec.grid.ny = 1;
  return spec;
}

/// state(v, k, j, i) = 1000 v + 100 k + 10 j + i / 100: distinct and finite.
double value_of(int v, int k, int j, int i) { return 1000.0 * v + 100.0 * k + 10.0 * j + i / 100.0; }

/// The cells of `box` [var][k][j][i] (the whole grid by default).
std::vector<double> state_3d(const RankBox& box = RankBox{nx, nz, 0, 0, ny, 0}) {
  std::vector<double> values;
  for (int v = 0; v < variables; ++v)
    for (int k = 0; k < box.nz; ++k)
      for (int j = 0; j < box.ny; ++j)
        for (int i = 0; i < box.nx; ++i)
          values.push_back(value_of(v, box.k_offset + k, box.j_offset + j, box.i_offset + i));
  return values;
}

CheckpointHeader header_of(const RunSpec& spec, long step) {
  CheckpointHeader header{step,
                          2.0 * static_cast<double>(step),
                          physics_hash(spec),
                          nx,
                          nz,
                          1.5e12,
                          2.5e17,
                          "thermal",
                          spec.grid.xlen,
                          spec.grid.zlen};
  if (spec.grid.ny > 1) {
    header.ny = spec.grid.ny;
    header.ylen = spec.grid.ylen;
  }
  return header;
}

/// FNV-1a, as checkpoint.hpp documents the hashes.
std::uint64_t fnv1a(const std::string& text) {
  std::uint64_t hash = 14695981039346656037ull;
  for (const unsigned char c : text) hash = (hash ^ c) * 1099511628211ull;
  return hash;
}

/// "where: what" of the Error `action` throws, checked to be bad input; "" when it throws none.
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

/// The code and message of the Error `action` throws; ExitCode::success and "" when it throws none.
template <class Action>
std::pair<ExitCode, std::string> failure(Action action) {
  try {
    action();
  } catch (const Error& e) {
    return {e.code(), e.what()};
  }
  return {ExitCode::success, ""};
}

/// One element of dataset `name` at `start` [v][k][j][column], read into or written from
/// `value` as `memory_type` through the HDF5 C API.
void access_element(const fs::path& path, const char* name, const hsize_t (&start)[4], hid_t memory_type, void* value,
                    bool write) {
  const FileHandle file(H5Fopen(path.c_str(), write ? H5F_ACC_RDWR : H5F_ACC_RDONLY, H5P_DEFAULT));
  const DatasetHandle dataset(H5Dopen2(file.get(), name, H5P_DEFAULT));
  const DataspaceHandle space(H5Dget_space(dataset.get()));
  const hsize_t one[4] = {1, 1, 1, 1};
  ASSERT_GE(H5Sselect_hyperslab(space.get(), H5S_SELECT_SET, start, nullptr, one, nullptr), 0) << name;
  const DataspaceHandle memory(H5Screate_simple(4, one, nullptr));
  ASSERT_GE(write ? H5Dwrite(dataset.get(), memory_type, memory.get(), space.get(), H5P_DEFAULT, value)
                  : H5Dread(dataset.get(), memory_type, memory.get(), space.get(), H5P_DEFAULT, value),
            0)
      << name;
}

/// Whether /state_checksums is kept in step with the value a test writes.
enum class Checksum { kept, stale };

/// Writes `value` into /state at variable `v`, cell (i, j, k); with Checksum::kept its row's
/// checksum too, as a writer of that value would have left the file.
void set_state_value(const fs::path& path, int v, int k, int j, int i, double value, Checksum checksum) {
  const hsize_t cell[4] = {static_cast<hsize_t>(v), static_cast<hsize_t>(k), static_cast<hsize_t>(j),
                           static_cast<hsize_t>(i)};
  const hsize_t segment[4] = {cell[0], cell[1], cell[2], static_cast<hsize_t>(i / checksum_columns)};
  double old_value = 0.0;
  std::uint64_t sum = 0;
  access_element(path, "state", cell, H5T_NATIVE_DOUBLE, &old_value, false);
  access_element(path, "state_checksums", segment, H5T_NATIVE_UINT64, &sum, false);
  access_element(path, "state", cell, H5T_NATIVE_DOUBLE, &value, true);
  if (checksum == Checksum::stale) return;
  sum +=
      checksum_share(value, static_cast<std::uint64_t>(i)) - checksum_share(old_value, static_cast<std::uint64_t>(i));
  access_element(path, "state_checksums", segment, H5T_NATIVE_UINT64, &sum, true);
}

/// Every value of dataset `name` as `memory_type`, and its shape.
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

bool has_attribute(const fs::path& path, const char* name) {
  const FileHandle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  return H5Aexists(file.get(), name) > 0;
}

/// Whether root attribute `name` is stored as `file_type` (H5T_STD_I32LE, H5T_IEEE_F64LE …).
bool attribute_is(const fs::path& path, const char* name, hid_t file_type) {
  const FileHandle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  const AttributeHandle attribute(H5Aopen(file.get(), name, H5P_DEFAULT));
  const DatatypeHandle type(H5Aget_type(attribute.get()));
  return H5Tequal(type.get(), file_type) > 0;
}

std::uint64_t stored_header_checksum(const fs::path& path) {
  const FileHandle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  const AttributeHandle attribute(H5Aopen(file.get(), "header_checksum", H5P_DEFAULT));
  std::uint64_t checksum = 0;
  EXPECT_GE(H5Aread(attribute.get(), H5T_NATIVE_UINT64, &checksum), 0);
  return checksum;
}

void delete_attribute(const fs::path& path, const char* name) {
  const FileHandle file(H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT));
  ASSERT_GE(H5Adelete(file.get(), name), 0) << name;
}

class Checkpoint3dTest : public ::testing::Test {
 protected:
  void SetUp() override {
    directory_ =
        fs::temp_directory_path() /
        ("simapp_Checkpoint3dTest_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) +
         "_" + std::to_string(::getpid()));
    fs::remove_all(directory_);
    fs::create_directories(directory_);
  }
  void TearDown() override { fs::remove_all(directory_); }

  /// Writes the 3-D checkpoint of step `step` (t = 2 step s) holding `values` and returns its path.
  fs::path write(long step, const std::vector<double>& values = state_3d()) const {
    write_checkpoint(directory_, header_of(spec_3d(), step), values, "grid:\n  ny: 4\n");
    return checkpoint_path(directory_, step);
  }

  /// Writes the 2-D checkpoint of step `step` of the same configuration, in its own directory.
  fs::path write_2d(long step) const {
    const fs::path directory = directory_ / "2d";
    fs::create_directories(directory);
    std::vector<double> values;
    for (int v = 0; v < 4; ++v)
      for (int k = 0; k < nz; ++k)
        for (int i = 0; i < nx; ++i) values.push_back(value_of(v, k, 0, i));
    write_checkpoint(directory, header_of(spec_2d(), step), values, "");
    return checkpoint_path(directory, step);
  }

  fs::path directory_;
};

// 1. The state: layout, round trip, a rank's part.

TEST_F(Checkpoint3dTest, TheStateAndItsChecksumsAreStoredAsDocumented) {
  const fs::path path = write(1);
  EXPECT_EQ(testing::attribute(path, "format_version"), 6.0);
  EXPECT_TRUE(attribute_is(path, "ny", H5T_STD_I32LE));
  EXPECT_TRUE(attribute_is(path, "ylen", H5T_IEEE_F64LE));
  EXPECT_EQ(testing::attribute(path, "ny"), 4.0);
  EXPECT_EQ(testing::attribute(path, "ylen"), 8000.0);
  std::vector<double> stored;
  std::vector<std::uint64_t> sums;
  ASSERT_EQ(read_all(path, "state", H5T_NATIVE_DOUBLE, stored), (std::vector<hsize_t>{5, nz, ny, nx}));
  ASSERT_EQ(read_all(path, "state_checksums", H5T_NATIVE_UINT64, sums), (std::vector<hsize_t>{5, nz, ny, 1}));
  std::size_t n = 0;
  for (int v = 0; v < variables; ++v)
    for (int k = 0; k < nz; ++k)
      for (int j = 0; j < ny; ++j) {
        // Each row's checksum, summed here over the row in one go.
        std::uint64_t sum = 0;
        for (int i = 0; i < nx; ++i, ++n) {
          ASSERT_EQ(stored[n], value_of(v, k, j, i))
              << "v " << v << " (i, j, k) = (" << i << ", " << j << ", " << k << ")";
          sum += checksum_share(value_of(v, k, j, i), static_cast<std::uint64_t>(i));
        }
        EXPECT_EQ(sums[(static_cast<std::size_t>(v) * nz + k) * ny + j], sum) << "row (v, k, j) " << v << k << j;
      }
}

TEST_F(Checkpoint3dTest, TheStateReadsBackBitForBitWholeAndByBoxes) {
  const fs::path path = write(12);
  const CheckpointHeader header = read_checkpoint_header(path);
  EXPECT_EQ(header.step, 12);
  EXPECT_EQ(header.nx, nx);
  EXPECT_EQ(header.ny, ny);
  EXPECT_EQ(header.nz, nz);
  EXPECT_EQ(header.ylen, 8000.0);
  EXPECT_EQ(header.config_hash, physics_hash(spec_3d()));
  EXPECT_EQ(read_checkpoint_block(path, RankBox{nx, nz, 0, 0, ny, 0}), state_3d());
  for (const RankBox& box : {RankBox{3, 2, 2, 1, 2, 1}, RankBox{nx, 1, 0, 2, 1, 3}, RankBox{1, nz, 5, 0, ny, 0},
                             RankBox{2, 1, 4, 0, 3, 1}}) {
    std::vector<double> expected;
    for (int v = 0; v < variables; ++v)
      for (int k = 0; k < box.nz; ++k)
        for (int j = 0; j < box.ny; ++j)
          for (int i = 0; i < box.nx; ++i)
            expected.push_back(value_of(v, box.k_offset + k, box.j_offset + j, box.i_offset + i));
    EXPECT_EQ(read_checkpoint_block(path, box), expected)
        << "box " << box.nx << "x" << box.ny << "x" << box.nz << " at " << box.i_offset << "," << box.j_offset << ","
        << box.k_offset;
  }
}

/// What one rank of several writes: its cells at their global places, its share of each row's
/// checksum by global column (the other ranks' shares are added to them).
TEST_F(Checkpoint3dTest, ARanksBoxIsWrittenAtItsGlobalCells) {
  const RankBox box{3, 2, 3, 1, 2, 1};  // i in [3, 6), j in [1, 3), k in [1, 3)
  write_checkpoint(directory_, header_of(spec_3d(), 5), box, state_3d(box), "", MPI_COMM_SELF);
  const fs::path path = checkpoint_path(directory_, 5);
  std::vector<double> stored;
  std::vector<std::uint64_t> sums;
  read_all(path, "state", H5T_NATIVE_DOUBLE, stored);
  read_all(path, "state_checksums", H5T_NATIVE_UINT64, sums);
  for (int v = 0; v < variables; ++v)
    for (int k = box.k_offset; k < box.k_offset + box.nz; ++k)
      for (int j = box.j_offset; j < box.j_offset + box.ny; ++j) {
        const std::size_t row = (static_cast<std::size_t>(v) * nz + k) * ny + j;
        std::uint64_t sum = 0;
        for (int i = box.i_offset; i < box.i_offset + box.nx; ++i) {
          EXPECT_EQ(stored[row * nx + i], value_of(v, k, j, i))
              << "v " << v << " (i, j, k) = (" << i << ", " << j << ", " << k << ")";
          sum += checksum_share(value_of(v, k, j, i), static_cast<std::uint64_t>(i));
        }
        EXPECT_EQ(sums[row], sum) << "row (v, k, j) " << v << k << j;
      }
  // A box of whole rows reads back from such a file.
  const RankBox rows{nx, 2, 0, 1, 2, 2};
  write_checkpoint(directory_, header_of(spec_3d(), 6), rows, state_3d(rows), "", MPI_COMM_SELF);
  EXPECT_EQ(read_checkpoint_block(checkpoint_path(directory_, 6), rows), state_3d(rows));
}

TEST_F(Checkpoint3dTest, ABlockOfTheOtherModelIsNotWritten) {
  const std::vector<double> four_variables(4 * nz * ny * nx, 1.0);
  const auto [code, message] = failure([&] { write(2, four_variables); });
  EXPECT_EQ(code, ExitCode::internal) << message;
  EXPECT_EQ(message, "the rank's block does not match the checkpoint's grid");
  EXPECT_FALSE(fs::exists(checkpoint_path(directory_, 2)));
}

// 2. Damage and values that are not finite.

TEST_F(Checkpoint3dTest, ADamagedStateFailsItsChecksum) {
  const fs::path path = write(3);
  testing::flip_state_bit(path);
  EXPECT_EQ(refusal([&] {
              read_checkpoint_block(path, RankBox{nx, nz, 0, 0, ny, 0});
            }),
            path.string() + ": /state fails its checksum (corrupted)");
}

TEST_F(Checkpoint3dTest, AChangedValueFailsItsChecksumWhereARankReadsIt) {
  const fs::path path = write(3);
  set_state_value(path, vmom, 1, 2, 3, value_of(vmom, 1, 2, 3) + 0.5, Checksum::stale);
  EXPECT_EQ(refusal([&] {
              read_checkpoint_block(path, RankBox{nx, nz, 0, 0, ny, 0});
            }),
            path.string() + ": /state fails its checksum (corrupted)");
  EXPECT_EQ(refusal([&] {
              read_checkpoint_block(path, RankBox{1, 1, 0, 1, 1, 2});
            }),
            path.string() + ": /state fails its checksum (corrupted)")
      << "a box of another column of the damaged row reads the whole row";
  // Rows other than (k, j) = (1, 2) are intact.
  const RankBox other_rows{nx, nz, 0, 0, 2, 0};
  EXPECT_EQ(read_checkpoint_block(path, other_rows), state_3d(other_rows));
}

TEST_F(Checkpoint3dTest, StateThatIsNotFiniteIsNotWrittenNamingTheCell) {
  write(1);
  std::vector<double> values = state_3d();
  values[((vmom * nz + 2) * ny + 1) * nx + 4] = std::numeric_limits<double>::quiet_NaN();
  const auto [code, message] = failure([&] { write(2, values); });
  EXPECT_EQ(code, ExitCode::numerical) << message;
  EXPECT_EQ(message, "not written: the state's vmom is not finite (nan) at cell (i, j, k) = (4, 1, 2)");
  EXPECT_FALSE(fs::exists(checkpoint_path(directory_, 2)));
  EXPECT_EQ(read_checkpoint_block(checkpoint_path(directory_, 1), RankBox{nx, nz, 0, 0, ny, 0}), state_3d());
}

TEST_F(Checkpoint3dTest, StateThatIsNotFiniteIsRefusedWhereARankReadsIt) {
  const fs::path path = write(7);
  set_state_value(path, wmom, 1, 3, 0, std::numeric_limits<double>::infinity(), Checksum::kept);
  EXPECT_EQ(refusal([&] {
              read_checkpoint_block(path, RankBox{nx, nz, 0, 0, ny, 0});
            }),
            path.string() + ": /state: wmom is not finite (inf) at cell (i, j, k) = (0, 3, 1)");
  EXPECT_EQ(refusal([&] {
              read_checkpoint_block(path, RankBox{2, 1, 0, 1, 1, 3});
            }),
            path.string() + ": /state: wmom is not finite (inf) at cell (i, j, k) = (0, 3, 1)");
  // A rank whose cells are all finite reads them.
  const RankBox finite{nx, nz, 0, 0, 3, 0};
  EXPECT_EQ(read_checkpoint_block(path, finite), state_3d(finite));
}

// 3. Types and shapes.

TEST_F(Checkpoint3dTest, StateOfAnotherTypeOrShapeIsRefusedNamingIt) {
  const std::vector<std::pair<std::vector<hsize_t>, std::string>> shapes{
      {{4, nz, ny, nx}, "4 x 3 x 4 x 6"}, {{5, nz, ny + 1, nx}, "5 x 3 x 5 x 6"}, {{5, nz, nx}, "5 x 3 x 6"}};
  for (const auto& [dims, text] : shapes) {
    const fs::path path = write(4);
    testing::replace_state(path, H5T_IEEE_F64LE, dims);
    EXPECT_EQ(refusal([&] {
                read_checkpoint_block(path, RankBox{nx, 1, 0, 0, 1, 0});
              }),
              path.string() + ": /state has shape " + text +
                  "; expected 5 x 3 x 4 x 6 (the variables on its nz x ny x nx cells)");
    fs::remove(path);
  }
  const fs::path path = write(4);
  testing::rewrite_state_as(path, H5T_IEEE_F32LE);
  EXPECT_EQ(refusal([&] {
              read_checkpoint_block(path, RankBox{nx, 1, 0, 0, 1, 0});
            }),
            path.string() + ": /state holds float32 values; expected 64-bit IEEE floats");
}

// 4. The header.

TEST_F(Checkpoint3dTest, TheHeaderChecksumCoversNyAndYlen) {
  for (const auto& [name, value] : {std::pair{"ny", 5.0}, std::pair{"ylen", 8000.5}}) {
    const fs::path path = write(2);
    testing::set_attribute(path, name, value);
    EXPECT_EQ(refusal([&] { read_checkpoint_header(path); }),
              path.string() + ": header attributes fail their checksum (corrupted)")
        << name;
    fs::remove(path);
  }
  // A 3-D file relabelled as the 2-D format no longer matches its checksum either.
  const fs::path path = write(2);
  testing::set_attribute(path, "format_version", 5.0);
  EXPECT_EQ(refusal([&] { read_checkpoint_header(path); }),
            path.string() + ": header attributes fail their checksum (corrupted)");
}

TEST_F(Checkpoint3dTest, AHeaderWithoutItsYIsRefusedNamingIt) {
  for (const char* name : {"ny", "ylen"}) {
    const fs::path path = write(2);
    delete_attribute(path, name);
    EXPECT_EQ(refusal([&] { read_checkpoint_header(path); }),
              path.string() + ": a 3-D checkpoint without attribute " + name);
    fs::remove(path);
  }
  const fs::path path = write(2);
  testing::set_attribute(path, "ny", 1.0);
  EXPECT_EQ(refusal([&] { read_checkpoint_header(path); }),
            path.string() + ": attribute ny is 1; a 3-D checkpoint has more than one cell in y");
}

TEST_F(Checkpoint3dTest, NyAndYlenArePartOfTheConfigurationHash) {
  const RunSpec spec = spec_3d();
  const std::string common = fmt::format(
      "case=thermal;nx={};nz={};xlen={:a};zlen={:a};viscosity={:a};"
      "hyperviscosity={:a};cfl={:a}",
      nx, nz, spec.grid.xlen, spec.grid.zlen, spec.physics.viscosity, spec.physics.hyperviscosity, spec.time.cfl);
  EXPECT_EQ(physics_hash(spec), fnv1a(common + fmt::format(";ny={};ylen={:a}", ny, spec.grid.ylen)));
  RunSpec flat = spec_2d();
  EXPECT_EQ(physics_hash(flat), fnv1a(common)) << "the 2-D model's hash has no y";
  flat.grid.ylen = 123.0;
  EXPECT_EQ(physics_hash(flat), fnv1a(common)) << "grid.ylen has no effect in 2-D";
}

/// The 2-D model's checkpoint is the format-5 file: no y in its attributes or its state, and
/// header_checksum the FNV-1a of its attributes as format 5 spells them.
TEST_F(Checkpoint3dTest, A2dCheckpointIsTheFormat5File) {
  const fs::path path = write_2d(9);
  EXPECT_EQ(testing::attribute(path, "format_version"), 5.0);
  EXPECT_FALSE(has_attribute(path, "ny"));
  EXPECT_FALSE(has_attribute(path, "ylen"));
  std::vector<double> stored;
  std::vector<std::uint64_t> sums;
  EXPECT_EQ(read_all(path, "state", H5T_NATIVE_DOUBLE, stored), (std::vector<hsize_t>{4, nz, nx}));
  EXPECT_EQ(read_all(path, "state_checksums", H5T_NATIVE_UINT64, sums), (std::vector<hsize_t>{4, nz, 1}));
  const RunSpec spec = spec_2d();
  const auto bits = [](double value) { return std::bit_cast<std::uint64_t>(value); };
  const std::string attributes = fmt::format(
      "format_version=5;step=9;time={:016x};config_hash={};case=7:thermal;nx={};nz={};xlen={:016x};zlen={:016x};"
      "initial_mass={:016x};initial_total_energy={:016x};viscosity={:016x};hyperviscosity={:016x};cfl={:016x}",
      bits(18.0), physics_hash(spec), nx, nz, bits(spec.grid.xlen), bits(spec.grid.zlen), bits(1.5e12), bits(2.5e17),
      bits(spec.physics.viscosity), bits(spec.physics.hyperviscosity), bits(spec.time.cfl));
  EXPECT_EQ(stored_header_checksum(path), fnv1a(attributes));
  const CheckpointHeader header = read_checkpoint_header(path);
  EXPECT_EQ(header.ny, 1);
  EXPECT_EQ(header.ylen, 0.0);
  EXPECT_EQ(read_checkpoint_block(path, RankBox{nx, nz, 0, 0}).size(), 4u * nz * nx);
}

// 5. Restarts.

TEST_F(Checkpoint3dTest, TheOtherModelsCheckpointIsRefusedByName) {
  const TimeStepping stepping(100.0, 1000.0, 1000.0, 1.5);
  const fs::path path = write(4);
  const CheckpointHeader header = read_checkpoint_header(path);
  EXPECT_EQ(refusal([&] { check_restart_compatible(path, header, spec_3d(), stepping); }), "");
  EXPECT_EQ(refusal([&] { check_restart_compatible(path, header, spec_2d(), stepping); }),
            path.string() + ": a checkpoint of the 3-D model (ny = 4); this run is 2-D (grid.ny = 1)");

  const fs::path path_2d = write_2d(4);
  const CheckpointHeader header_2d = read_checkpoint_header(path_2d);
  EXPECT_EQ(refusal([&] { check_restart_compatible(path_2d, header_2d, spec_2d(), stepping); }), "");
  RunSpec wide = spec_3d();
  wide.grid.ny = 24;
  EXPECT_EQ(refusal([&] { check_restart_compatible(path_2d, header_2d, wide, stepping); }),
            path_2d.string() + ": a checkpoint of the 2-D model (ny = 1); this run is 3-D (grid.ny = 24)");
}

TEST_F(Checkpoint3dTest, A3dCheckpointOfAnotherNyOrYlenIsRefusedNamingBoth) {
  const TimeStepping stepping(100.0, 1000.0, 1000.0, 1.5);
  const fs::path path = write(4);
  const CheckpointHeader header = read_checkpoint_header(path);
  const auto refusal_for = [&](const RunSpec& other) {
    return refusal([&] { check_restart_compatible(path, header, other, stepping); });
  };
  const std::string prefix = path.string() + ": checkpoint of an incompatible configuration: ";
  const std::string suffix = " (checkpoint vs configuration)";
  RunSpec other = spec_3d();
  other.grid.ny = 8;
  EXPECT_EQ(refusal_for(other), prefix + "grid 6 x 4 x 3 vs 6 x 8 x 3" + suffix);
  other = spec_3d();
  other.grid.ylen = 9000.0;
  EXPECT_EQ(refusal_for(other), prefix + "ylen 8000 m vs 9000 m" + suffix);
  other.grid.ny = 8;
  EXPECT_EQ(refusal_for(other), prefix + "grid 6 x 4 x 3 vs 6 x 8 x 3; ylen 8000 m vs 9000 m" + suffix);
}

/// A bump perturbation.* configures in place of the case's own is recorded with its y (centre
/// and radius) and read back; a restart with another is refused naming the key and its
/// [x, y, z]. The case's own bump is recorded as none: such a file is the one written before.
TEST_F(Checkpoint3dTest, A3dCheckpointRecordsAConfiguredBumpWithItsY) {
  RunSpec spec = spec_3d();  // thermal: its bump at [xlen / 2, ylen / 2, 2000] = [10000, 4000, 2000]
  spec.perturbation.center = {10000.0, 3000.0, 2000.0};
  CheckpointHeader header = header_of(spec, 5);
  header.perturbation = configured_perturbation(spec);
  ASSERT_TRUE(header.perturbation);
  write_checkpoint(directory_, header, state_3d(), "");
  const fs::path path = checkpoint_path(directory_, 5);
  EXPECT_EQ(testing::attribute(path, "perturbation_y0"), 3000.0);
  EXPECT_EQ(testing::attribute(path, "perturbation_yr"), 2000.0);
  const CheckpointHeader read = read_checkpoint_header(path);
  ASSERT_TRUE(read.perturbation);
  EXPECT_EQ(read.perturbation->y0, 3000.0);
  EXPECT_EQ(read.config_hash, physics_hash(spec));
  EXPECT_NE(physics_hash(spec), physics_hash(spec_3d()));

  const TimeStepping stepping(100.0, 1000.0, 1000.0, 1.5);
  EXPECT_EQ(refusal([&] { check_restart_compatible(path, read, spec, stepping); }), "");
  RunSpec other = spec;
  other.perturbation.center = {10000.0, 4000.0, 2000.0};
  EXPECT_EQ(refusal([&] { check_restart_compatible(path, read, other, stepping); }),
            path.string() +
                ": checkpoint of an incompatible configuration: perturbation.center [10000, 3000, 2000] vs "
                "[10000, 4000, 2000] (checkpoint vs configuration)");

  EXPECT_FALSE(configured_perturbation(spec_3d()));
  EXPECT_FALSE(configured_perturbation(other)) << "the case's own centre, given";
  EXPECT_FALSE(has_attribute(write(6), "perturbation_amplitude"));
}

}  // namespace
}  // namespace simapp::io
