/// Checkpoints of either model (io/checkpoint/checkpoint.hpp, format 7), each test of both
/// models where it applies: the state [V][nz][nx] ([V][nz][ny][nx] in 3-D) and its checksums
/// per row are stored as documented, with the names of the variables; the state reads back bit
/// for bit, whole and by a rank's box, and a rank's box lands at its global cells; damage fails
/// its checksum and values that are not finite are named by variable and cell; the header's
/// checksum covers every attribute; checkpoints of formats 5 and 6 read as they were written;
/// one of the other model, of other variables or of another configuration is refused by name;
/// hostile files are refused without harm.
#include "io/checkpoint/checkpoint.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <hdf5.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <future>
#include <limits>
#include <regex>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "foundation/error.hpp"
#include "io/hdf5/hdf5_handle.hpp"
#include "kernels/microphysics/microphysics.hpp"
#include "tests/support/checkpoint_files.hpp"

namespace simapp::io {
namespace {

namespace fs = std::filesystem;

/// The checkpoint of a model on a small grid: 12 x 7 cells in 2-D, 6 x 4 x 3 in 3-D.
struct Model {
  int dims = 2;
  int nx = 0, ny = 1, nz = 0;
  int variables = 0;  ///< dens, umom, (vmom,) wmom, rhot
  const char* names = "";

  RunSpec spec() const {
    RunSpec spec;
    spec.case_name = CaseName::thermal;
    spec.grid.nx = nx;
    spec.grid.ny = ny;
    spec.grid.nz = nz;
    if (dims == 3) spec.grid.ylen = 8000.0;
    return spec;
  }
  RankBox whole() const { return {nx, nz, 0, 0, ny, 0}; }
  /// The header of step `step` (t = 2.5 step s) of spec().
  CheckpointHeader header(long step, const RunSpec& run) const {
    CheckpointHeader header{step,
                            2.5 * static_cast<double>(step),
                            physics_hash(run),
                            run.grid.nx,
                            run.grid.nz,
                            1.5e8,
                            2.75e13,
                            "thermal",
                            run.grid.xlen,
                            run.grid.zlen};
    if (dims == 3) {
      header.ny = run.grid.ny;
      header.ylen = run.grid.ylen;
    }
    return header;
  }
  CheckpointHeader header(long step) const { return header(step, spec()); }
  /// The shape of /state ([V][nz][(ny)][columns]), or of /state_checksums with segments for columns.
  std::vector<hsize_t> shape(hsize_t count, hsize_t columns) const {
    if (dims == 3) return {count, static_cast<hsize_t>(nz), static_cast<hsize_t>(ny), columns};
    return {count, static_cast<hsize_t>(nz), columns};
  }
  /// A cell as messages name it: "(i, k) = (9, 4)", in 3-D "(i, j, k) = (9, 2, 4)".
  std::string cell(int i, int j, int k) const {
    return dims == 3 ? fmt::format("(i, j, k) = ({}, {}, {})", i, j, k) : fmt::format("(i, k) = ({}, {})", i, k);
  }
};

const Model model_2d{2, 12, 1, 7, 4, "dens umom wmom rhot"};
const Model model_3d{3, 6, 4, 3, 5, "dens umom vmom wmom rhot"};

/// state(v, k, j, i) = 1000 v + 100 k + 10 j + i / 100: distinct and finite.
double value_of(int v, int k, int j, int i) { return 1000.0 * v + 100.0 * k + 10.0 * j + i / 100.0; }

/// The cells of `box` [var][k][j][i] of `variables` variables.
std::vector<double> state_in(const RankBox& box, int variables) {
  std::vector<double> values;
  for (int v = 0; v < variables; ++v)
    for (int k = 0; k < box.nz; ++k)
      for (int j = 0; j < box.ny; ++j)
        for (int i = 0; i < box.nx; ++i)
          values.push_back(value_of(v, box.k_offset + k, box.j_offset + j, box.i_offset + i));
  return values;
}

std::string box_text(const RankBox& box) {
  return fmt::format("box {}x{}x{} at {},{},{}", box.nx, box.ny, box.nz, box.i_offset, box.j_offset, box.k_offset);
}

/// FNV-1a, as checkpoint.hpp documents the hashes.
std::uint64_t fnv1a(const std::string& text) {
  std::uint64_t hash = 14695981039346656037ull;
  for (const unsigned char c : text) hash = (hash ^ c) * 1099511628211ull;
  return hash;
}

std::uint64_t bits(double value) { return std::bit_cast<std::uint64_t>(value); }

/// The text whose FNV-1a is the header checksum of `header` in `format` (checkpoint.hpp): every
/// attribute, doubles by their bits, the 3-D model's y after cfl, from format 7 on the variables.
std::string checksummed_text(const CheckpointHeader& header, int format, const Model& model) {
  std::string text = fmt::format(
      "format_version={};step={};time={:016x};config_hash={};case={}:{};nx={};nz={};xlen={:016x};zlen={:016x};"
      "initial_mass={:016x};initial_total_energy={:016x};viscosity={:016x};hyperviscosity={:016x};cfl={:016x}",
      format, header.step, bits(header.time), header.config_hash, header.case_name.size(), header.case_name, header.nx,
      header.nz, bits(header.xlen), bits(header.zlen), bits(header.initial_mass), bits(header.initial_total_energy),
      bits(header.physics.viscosity), bits(header.physics.hyperviscosity), bits(header.cfl));
  if (model.dims == 3) text += fmt::format(";ny={};ylen={:016x}", header.ny, bits(header.ylen));
  if (format >= 7) text += std::string(";variables=") + model.names;
  return text;
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

std::string text_attribute(const fs::path& path, const char* name) {
  return Hdf5Reader(path, ExitCode::io).read_attribute<std::string>(name);
}

std::uint64_t stored_header_checksum(const fs::path& path) {
  const FileHandle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  const AttributeHandle attribute(H5Aopen(file.get(), "header_checksum", H5P_DEFAULT));
  std::uint64_t checksum = 0;
  EXPECT_GE(H5Aread(attribute.get(), H5T_NATIVE_UINT64, &checksum), 0);
  return checksum;
}

void set_header_checksum(const fs::path& path, std::uint64_t checksum) {
  const FileHandle file(H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT));
  const AttributeHandle attribute(H5Aopen(file.get(), "header_checksum", H5P_DEFAULT));
  ASSERT_GE(H5Awrite(attribute.get(), H5T_NATIVE_UINT64, &checksum), 0);
}

void delete_attribute(const fs::path& path, const char* name) {
  const FileHandle file(H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT));
  ASSERT_GE(H5Adelete(file.get(), name), 0) << name;
}

/// Replaces root attribute `name` by the text `value` (a fixed-length ASCII string, as simapp writes).
void set_text_attribute(const fs::path& path, const char* name, const std::string& value) {
  delete_attribute(path, name);
  const FileHandle file(H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT));
  const DatatypeHandle type(H5Tcopy(H5T_C_S1));
  H5Tset_size(type.get(), value.size());
  const DataspaceHandle scalar(H5Screate(H5S_SCALAR));
  const AttributeHandle attribute(H5Acreate2(file.get(), name, type.get(), scalar.get(), H5P_DEFAULT, H5P_DEFAULT));
  ASSERT_GE(H5Awrite(attribute.get(), type.get(), value.data()), 0) << name;
}

/// Makes the checkpoint at `path` the file simapp wrote before format 7: format 5 (the 2-D
/// model's) or 6 (the 3-D model's), without the attribute variables, its header checksum the
/// FNV-1a of its attributes as that format spells them.
void rewrite_in_format_before(const fs::path& path, const Model& model) {
  const int format = model.dims == 3 ? 6 : 5;
  const CheckpointHeader header = read_checkpoint_header(path);
  delete_attribute(path, "variables");
  testing::set_attribute(path, "format_version", format);
  set_header_checksum(path, fnv1a(checksummed_text(header, format, model)));
}

/// A directory of its own for each test.
class CheckpointFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::replace(name.begin(), name.end(), '/', '_');  // a parameterized test's "Name/2d"
    directory_ = fs::temp_directory_path() / ("simapp_CheckpointTest_" + name + "_" + std::to_string(::getpid()));
    fs::remove_all(directory_);
    fs::create_directories(directory_);
  }
  void TearDown() override { fs::remove_all(directory_); }

  /// Writes the checkpoint of `model` at step `step` holding `values` and returns its path.
  fs::path write(const Model& model, long step, const std::vector<double>& values) const {
    write_checkpoint(directory_, model.header(step), values, "case: thermal\n");
    return checkpoint_path(directory_, step);
  }
  fs::path write(const Model& model, long step) const {
    return write(model, step, state_in(model.whole(), model.variables));
  }
  /// Writes the 2-D model's checkpoint at step `step` of a run of `spec` (its physics recorded)
  /// and returns its path.
  fs::path write_with_physics(const RunSpec& spec, long step) const {
    CheckpointHeader header = model_2d.header(step, spec);
    header.time = stepping_of(spec).time_after(step);
    header.physics = spec.physics;
    write_checkpoint(directory_, header, state_in(model_2d.whole(), model_2d.variables), "");
    return checkpoint_path(directory_, step);
  }
  /// The time stepping of a 1000 s run of `spec`.
  static TimeStepping stepping_of(const RunSpec& spec) {
    return TimeStepping(1000.0, spec.grid.xlen / spec.grid.nx, spec.grid.zlen / spec.grid.nz, spec.time.cfl,
                        spec.physics.largest_coefficient());
  }

  fs::path directory_;
};

/// The tests of either model: the parameter is its dimensions.
class CheckpointTest : public CheckpointFiles, public ::testing::WithParamInterface<int> {
 protected:
  const Model& model() const { return GetParam() == 3 ? model_3d : model_2d; }
  std::vector<double> state() const { return state_in(model().whole(), model().variables); }
  std::vector<double> state(const RankBox& box) const { return state_in(box, model().variables); }
  fs::path write(long step) const { return CheckpointFiles::write(model(), step); }
  fs::path write(long step, const std::vector<double>& values) const {
    return CheckpointFiles::write(model(), step, values);
  }
};

INSTANTIATE_TEST_SUITE_P(Dimensions, CheckpointTest, ::testing::Values(2, 3),
                         [](const ::testing::TestParamInfo<int>& dimensions) {
                           return std::to_string(dimensions.param) + "d";
                         });

// 1. The state: layout, round trip, a rank's part.

TEST_P(CheckpointTest, TheStateAndItsChecksumsAreStoredAsDocumented) {
  const Model& m = model();
  const fs::path path = write(1);
  EXPECT_EQ(testing::attribute(path, "format_version"), 7.0);
  EXPECT_EQ(text_attribute(path, "variables"), m.names);
  if (m.dims == 3) {
    EXPECT_TRUE(attribute_is(path, "ny", H5T_STD_I32LE));
    EXPECT_TRUE(attribute_is(path, "ylen", H5T_IEEE_F64LE));
    EXPECT_EQ(testing::attribute(path, "ny"), 4.0);
    EXPECT_EQ(testing::attribute(path, "ylen"), 8000.0);
  } else {
    EXPECT_FALSE(has_attribute(path, "ny")) << "a 2-D checkpoint has no y";
    EXPECT_FALSE(has_attribute(path, "ylen"));
  }
  std::vector<double> stored;
  std::vector<std::uint64_t> sums;
  ASSERT_EQ(read_all(path, "state", H5T_NATIVE_DOUBLE, stored), m.shape(m.variables, m.nx));
  ASSERT_EQ(read_all(path, "state_checksums", H5T_NATIVE_UINT64, sums), m.shape(m.variables, 1));
  std::size_t n = 0;
  for (int v = 0; v < m.variables; ++v)
    for (int k = 0; k < m.nz; ++k)
      for (int j = 0; j < m.ny; ++j) {
        // Each row's checksum, summed here over the row in one go, as no writer does.
        std::uint64_t sum = 0;
        for (int i = 0; i < m.nx; ++i, ++n) {
          ASSERT_EQ(stored[n], value_of(v, k, j, i)) << "v " << v << " " << m.cell(i, j, k);
          sum += checksum_share(value_of(v, k, j, i), static_cast<std::uint64_t>(i));
        }
        EXPECT_EQ(sums[(static_cast<std::size_t>(v) * m.nz + k) * m.ny + j], sum) << "row (v, k, j) " << v << k << j;
      }
}

TEST_P(CheckpointTest, TheStateReadsBackBitForBitWholeAndByBoxes) {
  const Model& m = model();
  const fs::path path = write(40);
  const CheckpointHeader header = read_checkpoint_header(path);
  EXPECT_EQ(header.step, 40);
  EXPECT_EQ(header.time, 100.0);
  EXPECT_EQ(header.config_hash, physics_hash(m.spec()));
  EXPECT_EQ(header.nx, m.nx);
  EXPECT_EQ(header.ny, m.ny);
  EXPECT_EQ(header.nz, m.nz);
  EXPECT_EQ(header.ylen, m.dims == 3 ? 8000.0 : 0.0);
  EXPECT_EQ(header.initial_mass, 1.5e8);
  EXPECT_EQ(header.initial_total_energy, 2.75e13);
  EXPECT_EQ(read_checkpoint_block(path, m.whole()), state());
  // Boxes of a rank: the 2-D model's i in [5, 9), k in [2, 7), a row and a column; the 3-D model's
  // boxes inside, along a row, along a column and across y.
  const std::vector<RankBox> boxes = m.dims == 3
                                         ? std::vector<RankBox>{{3, 2, 2, 1, 2, 1},
                                                                {m.nx, 1, 0, 2, 1, 3},
                                                                {1, m.nz, 5, 0, m.ny, 0},
                                                                {2, 1, 4, 0, 3, 1}}
                                         : std::vector<RankBox>{{4, 5, 5, 2}, {m.nx, 1, 0, 6}, {1, m.nz, 11, 0}};
  for (const RankBox& box : boxes) {
    const std::vector<double> block = read_checkpoint_block(path, box);
    ASSERT_EQ(block.size(), static_cast<std::size_t>(m.variables * box.nx * box.ny * box.nz)) << box_text(box);
    EXPECT_EQ(block, state(box)) << box_text(box);
  }
}

/// What one rank of several writes: its cells at their global places, its share of each row's
/// checksum by global column (the other ranks' shares are added to them).
TEST_P(CheckpointTest, ARanksBoxIsWrittenAtItsGlobalCells) {
  const Model& m = model();
  // 2-D: i in [4, 9), k in [2, 5); 3-D: i in [3, 6), j in [1, 3), k in [1, 3).
  const RankBox box = m.dims == 3 ? RankBox{3, 2, 3, 1, 2, 1} : RankBox{5, 3, 4, 2};
  write_checkpoint(directory_, m.header(5), box, state(box), "", MPI_COMM_SELF);
  const fs::path path = checkpoint_path(directory_, 5);
  std::vector<double> stored;
  std::vector<std::uint64_t> sums;
  read_all(path, "state", H5T_NATIVE_DOUBLE, stored);
  read_all(path, "state_checksums", H5T_NATIVE_UINT64, sums);
  for (int v = 0; v < m.variables; ++v)
    for (int k = box.k_offset; k < box.k_offset + box.nz; ++k)
      for (int j = box.j_offset; j < box.j_offset + box.ny; ++j) {
        const std::size_t row = (static_cast<std::size_t>(v) * m.nz + k) * m.ny + j;
        std::uint64_t sum = 0;
        for (int i = box.i_offset; i < box.i_offset + box.nx; ++i) {
          EXPECT_EQ(stored[row * m.nx + i], value_of(v, k, j, i)) << "v " << v << " " << m.cell(i, j, k);
          sum += checksum_share(value_of(v, k, j, i), static_cast<std::uint64_t>(i));
        }
        EXPECT_EQ(sums[row], sum) << "row (v, k, j) " << v << k << j;
      }
  // A box of whole rows reads back from such a file.
  const RankBox rows = m.dims == 3 ? RankBox{m.nx, 2, 0, 1, 2, 2} : RankBox{m.nx, 2, 0, 1};
  write_checkpoint(directory_, m.header(6), rows, state(rows), "", MPI_COMM_SELF);
  EXPECT_EQ(read_checkpoint_block(checkpoint_path(directory_, 6), rows), state(rows));
}

TEST_P(CheckpointTest, ABlockOfTheOtherModelsVariablesIsNotWritten) {
  const Model& m = model();
  const Model& other = m.dims == 3 ? model_2d : model_3d;
  const std::vector<double> other_variables(static_cast<std::size_t>(other.variables * m.nx * m.ny * m.nz), 1.0);
  const auto [code, message] = failure([&] { write(2, other_variables); });
  EXPECT_EQ(code, ExitCode::internal) << message;
  EXPECT_EQ(message, "the rank's block does not match the checkpoint's grid");
  EXPECT_FALSE(fs::exists(checkpoint_path(directory_, 2)));
}

/// A grid wider than a checksum segment: blocks that cross segments read back, and damage in a
/// later segment is found by a rank reading only there.
TEST_P(CheckpointTest, BlocksAcrossChecksumSegmentsReadBackAndDamageIsFoundInEach) {
  const Model& m = model();
  constexpr int wide = 2 * checksum_columns + 300, rows = 2;
  RunSpec wide_spec = m.spec();
  wide_spec.grid.nx = wide;
  wide_spec.grid.nz = rows;
  const std::size_t row_values = static_cast<std::size_t>(m.ny) * wide;
  std::vector<double> values(static_cast<std::size_t>(m.variables * rows) * row_values);
  for (std::size_t n = 0; n < values.size(); ++n) values[n] = std::sin(0.001 * static_cast<double>(n));
  write_checkpoint(directory_, m.header(3, wide_spec), values, "");
  const fs::path path = checkpoint_path(directory_, 3);
  const RankBox across{400, 1, checksum_columns - 200, 1, 1, m.ny - 1};  // the last y row of layer 1
  const std::vector<double> block = read_checkpoint_block(path, across);
  for (int v = 0; v < m.variables; ++v)
    for (int i = 0; i < across.nx; ++i)
      ASSERT_EQ(block[static_cast<std::size_t>(v) * across.nx + i],
                values[((static_cast<std::size_t>(v) * rows + 1) * m.ny + m.ny - 1) * wide + across.i_offset + i]);
  std::vector<std::uint64_t> sums;
  const std::vector<hsize_t> sum_shape =
      m.dims == 3 ? std::vector<hsize_t>{5, rows, 4, 3} : std::vector<hsize_t>{4, rows, 3};
  EXPECT_EQ(read_all(path, "state_checksums", H5T_NATIVE_UINT64, sums), sum_shape);
  // Damage in the last segment of the first row: a rank reading there refuses, one reading the
  // first segment does not.
  testing::change_bytes(path, testing::stored_state_bytes(path).offset + (wide - 10) * sizeof(double), 1,
                        [](unsigned char byte) { return byte ^ 0x10u; });
  EXPECT_EQ(refusal([&] {
              read_checkpoint_block(path, RankBox{100, 1, wide - 100, 0, 1, 0});
            }),
            path.string() + ": /state fails its checksum (corrupted)");
  EXPECT_EQ(read_checkpoint_block(path, RankBox{100, rows, 0, 0, m.ny, 0}).size(),
            static_cast<std::size_t>(m.variables * 100 * rows * m.ny));
}

// 2. Damage and values that are not finite.

/// surface(field, j, i) = 100 field + 10 j + i / 100 over the columns of `box`, [field][j][i].
std::vector<double> surface_in(const RankBox& box) {
  std::vector<double> values;
  for (int field = 0; field < surface_water_fields; ++field)
    for (int j = 0; j < box.ny; ++j)
      for (int i = 0; i < box.nx; ++i)
        values.push_back(100.0 * field + 10.0 * (box.j_offset + j) + (box.i_offset + i) / 100.0);
  return values;
}

TEST_P(CheckpointTest, TheSurfaceFieldsReadBackByColumnsAndDamageOrTheirAbsenceIsRefused) {
  const Model& m = model();
  write_checkpoint(directory_, m.header(4), state(), "", surface_in(m.whole()));
  const fs::path path = checkpoint_path(directory_, 4);
  EXPECT_EQ(read_checkpoint_surface(path, m.whole()), surface_in(m.whole()));
  const RankBox part{2, m.nz, 3, 0, m.ny > 1 ? 2 : 1, m.ny > 1 ? 1 : 0};
  EXPECT_EQ(read_checkpoint_surface(path, part), surface_in(part)) << box_text(part);
  EXPECT_EQ(read_checkpoint_block(path, m.whole()), state()) << "the state as without them";
  {  // one value changed in place
    std::vector<double> changed = surface_in(m.whole());
    changed[5] += 1.0;
    const FileHandle file(H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT));
    const DatasetHandle dataset(H5Dopen2(file.get(), "surface_water", H5P_DEFAULT));
    ASSERT_GE(H5Dwrite(dataset.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, changed.data()), 0);
  }
  EXPECT_EQ(refusal([&] { read_checkpoint_surface(path, m.whole()); }),
            path.string() + ": /surface_water fails its checksum (corrupted)");
  const fs::path dry = write(5);
  EXPECT_EQ(refusal([&] { read_checkpoint_surface(dry, m.whole()); }),
            dry.string() +
                ": holds no surface fields of the microphysics (/surface_water): not a checkpoint of a run with "
                "water, or one of a simapp that did not keep them");
}

TEST_P(CheckpointTest, AFlippedBitInTheStateFailsTheChecksum) {
  const fs::path path = write(1);
  testing::flip_state_bit(path);
  EXPECT_EQ(refusal([&] { read_checkpoint_block(path, model().whole()); }),
            path.string() + ": /state fails its checksum (corrupted)");
  EXPECT_TRUE(std::regex_search(path.string(), std::regex(R"(checkpoint_000001\.h5$)")));
}

TEST_P(CheckpointTest, ZeroedBytesInTheStateFailTheChecksum) {
  const fs::path path = write(1);
  testing::zero_state_bytes(path);
  EXPECT_EQ(refusal([&] { read_checkpoint_block(path, model().whole()); }),
            path.string() + ": /state fails its checksum (corrupted)");
}

TEST_P(CheckpointTest, AChangedValueFailsItsChecksumWhereARankReadsIt) {
  const Model& m = model();
  const fs::path path = write(3);
  // Variable 2 (wmom; in 3-D vmom) of cell (i, j, k) = (3, ny - 1, 1): its row is damaged.
  testing::set_state_value(path, 2, 1, m.ny - 1, 3, value_of(2, 1, m.ny - 1, 3) + 0.5, testing::Checksum::stale);
  EXPECT_EQ(refusal([&] { read_checkpoint_block(path, m.whole()); }),
            path.string() + ": /state fails its checksum (corrupted)");
  EXPECT_EQ(refusal([&] {
              read_checkpoint_block(path, RankBox{1, 1, 0, 1, 1, m.ny - 1});
            }),
            path.string() + ": /state fails its checksum (corrupted)")
      << "a box of another column of the damaged row reads the whole row";
  // The other rows are intact: in 2-D those of the other layers, in 3-D those of the other y.
  const RankBox other_rows = m.dims == 3 ? RankBox{m.nx, m.nz, 0, 0, m.ny - 1, 0} : RankBox{m.nx, m.nz - 2, 0, 2};
  EXPECT_EQ(read_checkpoint_block(path, other_rows), state(other_rows));
}

/// Where a test puts values that are not finite into the state of a model: a first one, which
/// a reading of the whole grid names; a second, which a box without the first names; and a box
/// without either.
struct NonFiniteCells {
  int first_i, first_j, first_k;     ///< of wmom: NaN
  int second_i, second_j, second_k;  ///< of rhot: infinity
  RankBox second_only, finite;
};

TEST_P(CheckpointTest, StateThatIsNotFiniteIsRefusedWhereARankReadsIt) {
  const Model& m = model();
  const int wmom = m.variables - 2, rhot = m.variables - 1;
  const NonFiniteCells cells =
      m.dims == 3
          ? NonFiniteCells{0, 3, 1, 2, 0, 0, RankBox{m.nx, 1, 0, 0, m.ny, 0}, RankBox{m.nx, m.nz - 1, 0, 1, 3, 0}}
          : NonFiniteCells{9, 0, 4, 2, 0, 1, RankBox{4, 3, 0, 0}, RankBox{m.nx, 2, 0, 5}};
  const fs::path path = write(7);
  testing::set_state_value(path, wmom, cells.first_k, cells.first_j, cells.first_i,
                           std::numeric_limits<double>::quiet_NaN());
  testing::set_state_value(path, rhot, cells.second_k, cells.second_j, cells.second_i,
                           std::numeric_limits<double>::infinity());
  // The first non-finite value in [var][k][j][i] order of the block read.
  EXPECT_EQ(refusal([&] { read_checkpoint_block(path, m.whole()); }),
            path.string() + ": /state: wmom is not finite (nan) at cell " +
                m.cell(cells.first_i, cells.first_j, cells.first_k));
  EXPECT_EQ(refusal([&] { read_checkpoint_block(path, cells.second_only); }),
            path.string() + ": /state: rhot is not finite (inf) at cell " +
                m.cell(cells.second_i, cells.second_j, cells.second_k));
  // A rank whose cells are all finite reads them.
  EXPECT_EQ(read_checkpoint_block(path, cells.finite), state(cells.finite));
}

TEST_P(CheckpointTest, StateThatIsNotFiniteIsNotWrittenNamingTheCellAndEarlierCheckpointsStay) {
  const Model& m = model();
  write(1);
  std::vector<double> values = state();
  // 2-D: umom at (i, k) = (5, 2) is -inf; 3-D: vmom at (i, j, k) = (4, 1, 2) is NaN.
  const auto [v, i, j, k] = m.dims == 3 ? std::tuple{2, 4, 1, 2} : std::tuple{1, 5, 0, 2};
  const double value =
      m.dims == 3 ? std::numeric_limits<double>::quiet_NaN() : -std::numeric_limits<double>::infinity();
  values[((static_cast<std::size_t>(v) * m.nz + k) * m.ny + j) * m.nx + i] = value;
  const auto [code, message] = failure([&] { write(2, values); });
  EXPECT_EQ(code, ExitCode::numerical) << message;
  EXPECT_EQ(message, m.dims == 3 ? "not written: the state's vmom is not finite (nan) at cell (i, j, k) = (4, 1, 2)"
                                 : "not written: the state's umom is not finite (-inf) at cell (i, k) = (5, 2)");
  EXPECT_FALSE(fs::exists(checkpoint_path(directory_, 2)));
  EXPECT_EQ(read_checkpoint_block(checkpoint_path(directory_, 1), m.whole()), state());
}

TEST_P(CheckpointTest, NonFiniteDiagnosticsAreRefused) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  for (const auto& [name, value, text] :
       {std::tuple{"initial_mass", nan, "nan"}, std::tuple{"initial_mass", inf, "inf"},
        std::tuple{"initial_total_energy", -inf, "-inf"}, std::tuple{"time", nan, "nan"}}) {
    const fs::path path = write(6);
    testing::set_attribute(path, name, value);
    EXPECT_EQ(refusal([&] { read_checkpoint_header(path); }),
              path.string() + ": attribute " + name + " is not finite (" + text + ")");
    fs::remove(path);
  }
}

// 3. Types and shapes.

TEST_P(CheckpointTest, StateOfAnotherTypeIsRefusedNamingIt) {
  for (const auto& [type, name] :
       {std::pair{H5T_IEEE_F32LE, "float32"}, std::pair{H5T_STD_I32LE, "int32"}, std::pair{H5T_STD_I64LE, "int64"}}) {
    const fs::path path = write(3);
    testing::rewrite_state_as(path, type);
    EXPECT_EQ(refusal([&] { read_checkpoint_block(path, model().whole()); }),
              path.string() + ": /state holds " + name + " values; expected 64-bit IEEE floats");
    fs::remove(path);
  }
}

TEST_P(CheckpointTest, StateOfAnotherShapeIsRefusedNamingIt) {
  const Model& m = model();
  const hsize_t nx = m.nx, ny = m.ny, nz = m.nz;
  const std::vector<std::pair<std::vector<hsize_t>, std::string>> shapes =
      m.dims == 3 ? std::vector<std::pair<std::vector<hsize_t>, std::string>>{{{4, nz, ny, nx}, "4 x 3 x 4 x 6"},
                                                                              {{5, nz, ny + 1, nx}, "5 x 3 x 5 x 6"},
                                                                              {{5, nz, nx}, "5 x 3 x 6"}}
                  : std::vector<std::pair<std::vector<hsize_t>, std::string>>{{{4, nz, nx + 1}, "4 x 7 x 13"},
                                                                              {{4, nz + 1, nx}, "4 x 8 x 12"},
                                                                              {{3, nz, nx}, "3 x 7 x 12"},
                                                                              {{4 * nz * nx}, "336"},
                                                                              {{4, nz, nx, 1}, "4 x 7 x 12 x 1"}};
  const std::string expected = m.dims == 3 ? "5 x 3 x 4 x 6 (the variables on its nz x ny x nx cells)"
                                           : "4 x 7 x 12 (the variables on its nz x nx cells)";
  for (const auto& [dims, text] : shapes) {
    const fs::path path = write(4);
    testing::replace_state(path, H5T_IEEE_F64LE, dims);
    EXPECT_EQ(refusal([&] {
                read_checkpoint_block(path, RankBox{m.nx, 1, 0, 0, 1, 0});
              }),
              path.string() + ": /state has shape " + text + "; expected " + expected);
    fs::remove(path);
  }
}

TEST_P(CheckpointTest, AttributeOfAnotherTypeIsRefusedNamingIt) {
  const std::vector<std::tuple<const char*, hid_t, std::string>> cases{
      {"nx", H5T_IEEE_F64LE, "attribute nx is float64; expected int32"},
      {"step", H5T_STD_I32LE, "attribute step is int32; expected int64"},
      {"time", H5T_IEEE_F32LE, "attribute time is float32; expected float64"},
      {"initial_mass", H5T_STD_I64LE, "attribute initial_mass is int64; expected float64"},
      {"config_hash", H5T_STD_I64LE, "attribute config_hash is int64; expected uint64"}};
  for (const auto& [name, type, expected] : cases) {
    const fs::path path = write(5);
    testing::retype_attribute(path, name, type, testing::attribute(path, name));
    EXPECT_EQ(refusal([&] { read_checkpoint_header(path); }), path.string() + ": " + expected);
    fs::remove(path);
  }
}

// 4. The header.

TEST_P(CheckpointTest, TheHeaderChecksumIsTheFnv1aOfEveryAttribute) {
  const Model& m = model();
  const fs::path path = write(9);
  EXPECT_EQ(stored_header_checksum(path), fnv1a(checksummed_text(m.header(9), 7, m)));
  // Each attribute changed alone fails the checksum: the 3-D model's y too.
  std::vector<std::pair<const char*, double>> changes{
      {"step", 10.0}, {"time", 23.5}, {"nx", m.nx + 1.0}, {"initial_total_energy", 2.75e13 + 1.0}};
  if (m.dims == 3) changes.insert(changes.end(), {{"ny", 5.0}, {"ylen", 8000.5}});
  for (const auto& [name, value] : changes) {
    const fs::path changed = write(2);
    testing::set_attribute(changed, name, value);
    EXPECT_EQ(refusal([&] { read_checkpoint_header(changed); }),
              changed.string() + ": header attributes fail their checksum (corrupted)")
        << name;
    fs::remove(changed);
  }
  const fs::path rehashed = write(2);
  testing::set_attribute(rehashed, "config_hash", testing::attribute(rehashed, "config_hash") + 1.0);
  EXPECT_EQ(refusal([&] { read_checkpoint_header(rehashed); }),
            rehashed.string() + ": header attributes fail their checksum (corrupted)");
  // A format-7 file relabelled as its model's format before no longer matches its checksum:
  // the names of its variables are part of it.
  const fs::path relabelled = write(3);
  testing::set_attribute(relabelled, "format_version", m.dims == 3 ? 6.0 : 5.0);
  EXPECT_EQ(refusal([&] { read_checkpoint_header(relabelled); }),
            relabelled.string() + ": header attributes fail their checksum (corrupted)");
}

TEST_P(CheckpointTest, ACheckpointOfOtherVariablesIsRefusedNamingThem) {
  const Model& m = model();
  const fs::path path = write(4);
  set_text_attribute(path, "variables", std::string(m.names) + " qv");
  EXPECT_EQ(refusal([&] { read_checkpoint_header(path); }),
            fmt::format("{}: checkpoint of the variables {} qv; the {}-D model's are {}", path.string(), m.names,
                        m.dims, m.names));
  set_text_attribute(path, "variables", m.dims == 3 ? model_2d.names : model_3d.names);
  EXPECT_TRUE(std::regex_search(refusal([&] { read_checkpoint_header(path); }),
                                std::regex("checkpoint of the variables .*; the [23]-D model's are ")));
}

/// A checkpoint simapp wrote before format 7 (format 5 of the 2-D model, 6 of the 3-D one: the
/// same file without `variables`) reads as it was written, and a run continues from it.
TEST_P(CheckpointTest, ACheckpointOfTheFormatBeforeReadsAsItWasWritten) {
  const Model& m = model();
  const fs::path path = write(40);
  rewrite_in_format_before(path, m);
  EXPECT_EQ(testing::attribute(path, "format_version"), m.dims == 3 ? 6.0 : 5.0);
  EXPECT_FALSE(has_attribute(path, "variables"));
  const CheckpointHeader header = read_checkpoint_header(path);
  EXPECT_EQ(header.step, 40);
  EXPECT_EQ(header.time, 100.0);
  EXPECT_EQ(header.ny, m.ny);
  EXPECT_EQ(header.config_hash, physics_hash(m.spec()));
  EXPECT_EQ(read_checkpoint_block(path, m.whole()), state());
  const TimeStepping stepping(1000.0, 2.5, 2.5, 1.5);
  EXPECT_EQ(refusal([&] { check_restart_compatible(path, header, m.spec(), stepping); }), "");
  // Its header checksum is its format's: the variables are not part of it.
  testing::set_attribute(path, "format_version", m.dims == 3 ? 5.0 : 6.0);
  EXPECT_FALSE(refusal([&] { read_checkpoint_header(path); }).empty()) << "relabelled as the other model's";
}

TEST_P(CheckpointTest, ACheckpointOfAnotherFormatVersionIsRefusedNamingThose) {
  for (const double format : {4.0, 8.0}) {  // format 4 had no cfl attribute
    const fs::path path = write(8);
    testing::set_attribute(path, "format_version", format);
    EXPECT_EQ(refusal([&] { read_checkpoint_header(path); }),
              fmt::format("{}: checkpoint format {}; this simapp reads format 7 (and formats 5 and 6, of the 2-D and "
                          "the 3-D model, which simapp wrote before)",
                          path.string(), format));
    fs::remove(path);
  }
}

TEST_P(CheckpointTest, WritingTakesCaseAndDomainFromTheHeader) {
  const Model& m = model();
  RunSpec other = m.spec();
  other.case_name = CaseName::gravity_waves;
  other.grid.xlen = 40000.0;
  CheckpointHeader header = m.header(3, other);
  header.case_name = "gravity_waves";
  write_checkpoint(directory_, header, state(), "");
  const CheckpointHeader written = read_checkpoint_header(checkpoint_path(directory_, 3));
  EXPECT_EQ(written.case_name, "gravity_waves");
  EXPECT_EQ(written.xlen, 40000.0);
  // A header whose case, grid and domain do not give its hash is a bug, never written.
  header.xlen = 20000.0;
  const auto [code, message] = failure([&] { write_checkpoint(directory_, header, state(), ""); });
  EXPECT_EQ(code, ExitCode::internal) << message;
}

// The precision of the state (execution.precision).

/// `values` rounded to the nearest floats: the state of a float32 run, as its host copy holds it.
std::vector<double> through_float(std::vector<double> values) {
  for (double& value : values) value = static_cast<double>(static_cast<float>(value));
  return values;
}

/// Whether dataset `name` is stored as `file_type` (H5T_IEEE_F32LE, H5T_IEEE_F64LE …).
bool dataset_is(const fs::path& path, const char* name, hid_t file_type) {
  const FileHandle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  const DatasetHandle dataset(H5Dopen2(file.get(), name, H5P_DEFAULT));
  const DatatypeHandle type(H5Dget_type(dataset.get()));
  return H5Tequal(type.get(), file_type) > 0;
}

TEST_P(CheckpointTest, AFloat32CheckpointStoresFloatsNamesItsPrecisionAndReadsBackExactly) {
  const Model& m = model();
  CheckpointHeader header = m.header(12);
  header.precision = Precision::float32;
  const std::vector<double> values = through_float(state());
  ASSERT_NE(values, state()) << "the test's state is not all floats already";
  write_checkpoint(directory_, header, values, "case: thermal\n");
  const fs::path path = checkpoint_path(directory_, 12);
  EXPECT_EQ(text_attribute(path, "precision"), "float32");
  EXPECT_TRUE(dataset_is(path, "state", H5T_IEEE_F32LE));
  EXPECT_TRUE(dataset_is(path, "state_checksums", H5T_STD_U64LE));
  std::vector<float> stored;
  ASSERT_EQ(read_all(path, "state", H5T_NATIVE_FLOAT, stored), m.shape(m.variables, m.nx));
  for (std::size_t n = 0; n < stored.size(); ++n) ASSERT_EQ(static_cast<double>(stored[n]), values[n]) << n;
  // The header's checksum covers the precision; the state's checksums are of the values as read back.
  EXPECT_EQ(stored_header_checksum(path), fnv1a(checksummed_text(header, 7, m) + ";precision=float32"));
  const CheckpointHeader read = read_checkpoint_header(path);
  EXPECT_EQ(read.precision, Precision::float32);
  EXPECT_EQ(read_checkpoint_block(path, m.whole()), values);
  const RankBox box = m.dims == 3 ? RankBox{3, 2, 2, 1, 2, 1} : RankBox{4, 5, 5, 2};
  EXPECT_EQ(read_checkpoint_block(path, box), through_float(state(box))) << box_text(box);
  // Damage is found in floats as in doubles.
  testing::flip_state_bit(path);
  EXPECT_EQ(refusal([&] { read_checkpoint_block(path, m.whole()); }),
            path.string() + ": /state fails its checksum (corrupted)");
}

TEST_P(CheckpointTest, AFloat32CheckpointOfRanksBoxesRoundsDoublesAndRefusesAValueBeyondFloats) {
  const Model& m = model();
  CheckpointHeader header = m.header(5);
  header.precision = Precision::float32;
  // A rank's box of whole rows, of doubles that are not floats: stored rounded, checksummed as stored.
  const RankBox box = m.dims == 3 ? RankBox{m.nx, 2, 0, 1, 2, 2} : RankBox{m.nx, 2, 0, 1};
  write_checkpoint(directory_, header, box, state(box), "", MPI_COMM_SELF);
  EXPECT_EQ(read_checkpoint_block(checkpoint_path(directory_, 5), box), through_float(state(box)));
  // A double beyond the floats' range would be stored as infinity: not written, like one that is not finite.
  std::vector<double> values = through_float(state());
  values[2 * static_cast<std::size_t>(m.nx) + 1] = 1e300;  // dens at i = 1 of row 2 (k = 2; in 3-D k = 0, j = 2)
  header.step = 6;
  const auto [code, message] = failure([&] { write_checkpoint(directory_, header, values, ""); });
  EXPECT_EQ(code, ExitCode::numerical) << message;
  EXPECT_EQ(message, m.dims == 3 ? "not written: the state's dens is not finite (inf) at cell (i, j, k) = (1, 2, 0)"
                                 : "not written: the state's dens is not finite (inf) at cell (i, k) = (1, 2)");
  EXPECT_FALSE(fs::exists(checkpoint_path(directory_, 6)));
  EXPECT_TRUE(fs::exists(checkpoint_path(directory_, 5)));
}

TEST_P(CheckpointTest, AFloat64CheckpointNamesItsPrecisionAndOneWithoutTheAttributeIsFloat64) {
  const Model& m = model();
  const fs::path path = write(20);
  EXPECT_EQ(text_attribute(path, "precision"), "float64");
  EXPECT_TRUE(dataset_is(path, "state", H5T_IEEE_F64LE));
  EXPECT_EQ(stored_header_checksum(path), fnv1a(checksummed_text(m.header(20), 7, m))) << "as before the attribute";
  EXPECT_EQ(read_checkpoint_header(path).precision, Precision::float64);
  // A checkpoint written before the attribute holds doubles.
  delete_attribute(path, "precision");
  EXPECT_EQ(read_checkpoint_header(path).precision, Precision::float64);
  EXPECT_EQ(read_checkpoint_block(path, m.whole()), state());
}

TEST_P(CheckpointTest, ARestartInTheOtherPrecisionIsRefusedNamingBoth) {
  const Model& m = model();
  const TimeStepping stepping(1000.0, 2.5, 2.5, 1.5);
  RunSpec float32_run = m.spec();
  float32_run.execution.precision = Precision::float32;
  const fs::path doubles = write(40);
  const CheckpointHeader double_header = read_checkpoint_header(doubles);
  EXPECT_EQ(refusal([&] { check_restart_compatible(doubles, double_header, m.spec(), stepping); }), "");
  EXPECT_EQ(refusal([&] { check_restart_compatible(doubles, double_header, float32_run, stepping); }),
            doubles.string() +
                ": holds a float64 state; this run's execution.precision is float32 (restart with --set "
                "execution.precision=float64)");
  delete_attribute(doubles, "precision");  // written before the attribute: float64
  EXPECT_EQ(refusal([&] { check_restart_compatible(doubles, read_checkpoint_header(doubles), float32_run, stepping); }),
            doubles.string() +
                ": holds a float64 state; this run's execution.precision is float32 (restart with --set "
                "execution.precision=float64)");

  CheckpointHeader header = m.header(41);
  header.precision = Precision::float32;
  write_checkpoint(directory_, header, through_float(state()), "");
  const fs::path floats = checkpoint_path(directory_, 41);
  const CheckpointHeader float_header = read_checkpoint_header(floats);
  EXPECT_EQ(refusal([&] { check_restart_compatible(floats, float_header, float32_run, stepping); }), "");
  EXPECT_EQ(refusal([&] { check_restart_compatible(floats, float_header, m.spec(), stepping); }),
            floats.string() +
                ": holds a float32 state; this run's execution.precision is float64 (restart with --set "
                "execution.precision=float32)");
  // The precision is refused before anything else that differs.
  RunSpec other = m.spec();
  other.grid.nx += 1;
  EXPECT_TRUE(refusal([&] {
                check_restart_compatible(floats, float_header, other, stepping);
              }).starts_with(floats.string() + ": holds a float32 state; "));
}

TEST_P(CheckpointTest, APrecisionAttributeOfAnotherNameOrChangedIsRefused) {
  const Model& m = model();
  CheckpointHeader header = m.header(7);
  header.precision = Precision::float32;
  const auto write_floats = [&] {
    write_checkpoint(directory_, header, through_float(state()), "");
    return checkpoint_path(directory_, 7);
  };
  const fs::path unknown = write_floats();
  set_text_attribute(unknown, "precision", "float16");
  EXPECT_EQ(refusal([&] { read_checkpoint_header(unknown); }),
            unknown.string() + ": attribute precision is 'float16', not one of float64, float32");
  fs::remove(unknown);
  // Relabelled float64, or the attribute removed: the header checksum fails.
  const fs::path relabelled = write_floats();
  set_text_attribute(relabelled, "precision", "float64");
  EXPECT_EQ(refusal([&] { read_checkpoint_header(relabelled); }),
            relabelled.string() + ": header attributes fail their checksum (corrupted)");
  fs::remove(relabelled);
  const fs::path removed = write_floats();
  delete_attribute(removed, "precision");
  EXPECT_EQ(refusal([&] { read_checkpoint_header(removed); }),
            removed.string() + ": header attributes fail their checksum (corrupted)");
  fs::remove(removed);
  // A float32 checkpoint whose state is of doubles (or the other way round) is refused naming both.
  const fs::path retyped = write_floats();
  testing::rewrite_state_as(retyped, H5T_IEEE_F64LE);
  EXPECT_EQ(refusal([&] { read_checkpoint_block(retyped, m.whole()); }),
            retyped.string() + ": /state holds float64 values; expected 32-bit IEEE floats");
}

// 5. The 3-D model's y, and checkpoints of the other model.

TEST_F(CheckpointFiles, AHeaderWithoutItsYIsRefusedNamingIt) {
  for (const char* name : {"ny", "ylen"}) {
    const fs::path path = write(model_3d, 2);
    delete_attribute(path, name);
    EXPECT_EQ(refusal([&] { read_checkpoint_header(path); }),
              path.string() + ": a 3-D checkpoint without attribute " + name);
    fs::remove(path);
  }
  const fs::path path = write(model_3d, 2);
  testing::set_attribute(path, "ny", 1.0);
  EXPECT_EQ(refusal([&] { read_checkpoint_header(path); }),
            path.string() + ": attribute ny is 1; a 3-D checkpoint has more than one cell in y");
}

TEST_F(CheckpointFiles, NyAndYlenArePartOfTheConfigurationHash) {
  const RunSpec spec = model_3d.spec();
  const std::string common = fmt::format(
      "case=thermal;nx={};nz={};xlen={:a};zlen={:a};viscosity={:a};"
      "hyperviscosity={:a};cfl={:a}",
      spec.grid.nx, spec.grid.nz, spec.grid.xlen, spec.grid.zlen, spec.physics.viscosity, spec.physics.hyperviscosity,
      spec.time.cfl);
  EXPECT_EQ(physics_hash(spec), fnv1a(common + fmt::format(";ny={};ylen={:a}", spec.grid.ny, spec.grid.ylen)));
  RunSpec flat = spec;
  flat.grid.ny = 1;
  EXPECT_EQ(physics_hash(flat), fnv1a(common)) << "the 2-D model's hash has no y";
  flat.grid.ylen = 123.0;
  EXPECT_EQ(physics_hash(flat), fnv1a(common)) << "grid.ylen has no effect in 2-D";
}

TEST_F(CheckpointFiles, TheOtherModelsCheckpointIsRefusedByName) {
  const TimeStepping stepping(100.0, 1000.0, 1000.0, 1.5);
  RunSpec flat = model_3d.spec();
  flat.grid.ny = 1;
  const fs::path path = write(model_3d, 4);
  const CheckpointHeader header = read_checkpoint_header(path);
  EXPECT_EQ(refusal([&] { check_restart_compatible(path, header, model_3d.spec(), stepping); }), "");
  EXPECT_EQ(refusal([&] { check_restart_compatible(path, header, flat, stepping); }),
            path.string() + ": a checkpoint of the 3-D model (ny = 4); this run is 2-D (grid.ny = 1)");

  fs::create_directories(directory_ / "2d");
  write_checkpoint(directory_ / "2d", model_2d.header(4), state_in(model_2d.whole(), 4), "");
  const fs::path path_2d = checkpoint_path(directory_ / "2d", 4);
  const CheckpointHeader header_2d = read_checkpoint_header(path_2d);
  EXPECT_EQ(refusal([&] { check_restart_compatible(path_2d, header_2d, model_2d.spec(), stepping); }), "");
  RunSpec wide = model_2d.spec();
  wide.grid.ny = 24;
  EXPECT_EQ(refusal([&] { check_restart_compatible(path_2d, header_2d, wide, stepping); }),
            path_2d.string() + ": a checkpoint of the 2-D model (ny = 1); this run is 3-D (grid.ny = 24)");
}

TEST_F(CheckpointFiles, A3dCheckpointOfAnotherNyOrYlenIsRefusedNamingBoth) {
  const TimeStepping stepping(100.0, 1000.0, 1000.0, 1.5);
  const fs::path path = write(model_3d, 4);
  const CheckpointHeader header = read_checkpoint_header(path);
  const auto refusal_for = [&](const RunSpec& other) {
    return refusal([&] { check_restart_compatible(path, header, other, stepping); });
  };
  const std::string prefix = path.string() + ": checkpoint of an incompatible configuration: ";
  const std::string suffix = " (checkpoint vs configuration)";
  RunSpec other = model_3d.spec();
  other.grid.ny = 8;
  EXPECT_EQ(refusal_for(other), prefix + "grid 6 x 4 x 3 vs 6 x 8 x 3" + suffix);
  other = model_3d.spec();
  other.grid.ylen = 9000.0;
  EXPECT_EQ(refusal_for(other), prefix + "ylen 8000 m vs 9000 m" + suffix);
  other.grid.ny = 8;
  EXPECT_EQ(refusal_for(other), prefix + "grid 6 x 4 x 3 vs 6 x 8 x 3; ylen 8000 m vs 9000 m" + suffix);
}

/// A bump perturbation.* configures in place of the case's own is recorded with its y (centre
/// and radius) and read back; a restart with another is refused naming the key and its
/// [x, y, z]. The case's own bump is recorded as none: such a file is the one written before.
TEST_F(CheckpointFiles, A3dCheckpointRecordsAConfiguredBumpWithItsY) {
  RunSpec spec = model_3d.spec();  // thermal: its bump at [xlen / 2, ylen / 2, 2000] = [10000, 4000, 2000]
  spec.perturbation.center = {10000.0, 3000.0, 2000.0};
  CheckpointHeader header = model_3d.header(5, spec);
  header.perturbation = configured_perturbation(spec);
  ASSERT_TRUE(header.perturbation);
  write_checkpoint(directory_, header, state_in(model_3d.whole(), 5), "");
  const fs::path path = checkpoint_path(directory_, 5);
  EXPECT_EQ(testing::attribute(path, "perturbation_y0"), 3000.0);
  EXPECT_EQ(testing::attribute(path, "perturbation_yr"), 2000.0);
  const CheckpointHeader read = read_checkpoint_header(path);
  ASSERT_TRUE(read.perturbation);
  EXPECT_EQ(read.perturbation->y0, 3000.0);
  EXPECT_EQ(read.config_hash, physics_hash(spec));
  EXPECT_NE(physics_hash(spec), physics_hash(model_3d.spec()));

  const TimeStepping stepping(100.0, 1000.0, 1000.0, 1.5);
  EXPECT_EQ(refusal([&] { check_restart_compatible(path, read, spec, stepping); }), "");
  RunSpec other = spec;
  other.perturbation.center = {10000.0, 4000.0, 2000.0};
  EXPECT_EQ(refusal([&] { check_restart_compatible(path, read, other, stepping); }),
            path.string() +
                ": checkpoint of an incompatible configuration: perturbation.center [10000, 3000, 2000] vs "
                "[10000, 4000, 2000] (checkpoint vs configuration)");

  EXPECT_FALSE(configured_perturbation(model_3d.spec()));
  EXPECT_FALSE(configured_perturbation(other)) << "the case's own centre, given";
  EXPECT_FALSE(has_attribute(write(model_3d, 6), "perturbation_amplitude"));
}

// 6. Another configuration (the 2-D model's messages).

TEST_F(CheckpointFiles, IncompatibleConfigurationIsRefusedNamingWhatDiffers) {
  const fs::path path = write(model_2d, 10);
  CheckpointHeader header = read_checkpoint_header(path);
  EXPECT_EQ(header.case_name, "thermal");
  EXPECT_EQ(header.xlen, 20000.0);
  EXPECT_EQ(header.zlen, 10000.0);
  const auto plan_of = [](const RunSpec& run) {
    return TimeStepping(1000.0, run.grid.xlen / run.grid.nx, run.grid.zlen / run.grid.nz, run.time.cfl);
  };
  const RunSpec spec = model_2d.spec();
  header.time = plan_of(spec).time_after(header.step);  // a step of this run
  const auto refusal_for = [&](const RunSpec& other) {
    return refusal([&] { check_restart_compatible(path, header, other, plan_of(other)); });
  };
  RunSpec other = spec;
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
  other = spec;
  other.grid.zlen = 12500.5;
  EXPECT_EQ(refusal_for(other), path.string() +
                                    ": checkpoint of an incompatible configuration: domain 20000 x 10000 m vs 20000 x "
                                    "12500.5 m (checkpoint vs configuration)");
  other = spec;
  other.physics.viscosity = 75.0;
  EXPECT_EQ(refusal_for(other), path.string() +
                                    ": checkpoint of an incompatible configuration: physics.viscosity 0 vs 75 m²/s "
                                    "(checkpoint vs configuration)");
  other.physics.hyperviscosity = 0.0;
  EXPECT_EQ(refusal_for(other), path.string() +
                                    ": checkpoint of an incompatible configuration: physics.viscosity 0 vs 75 m²/s; "
                                    "physics.hyperviscosity 0.05 vs 0 (checkpoint vs configuration)");
  // Another Courant number makes other steps: the step numbers would stop matching t / dt.
  other = spec;
  other.time.cfl = 2.0;
  EXPECT_EQ(refusal_for(other), path.string() +
                                    ": checkpoint of an incompatible configuration: time.cfl 1.5 vs 2 (checkpoint vs "
                                    "configuration)");
  // The config hash alone (a checkpoint of a simapp that hashes more of the configuration).
  CheckpointHeader rehashed = header;
  rehashed.config_hash += 1;
  const std::string message = refusal([&] { check_restart_compatible(path, rehashed, spec, plan_of(spec)); });
  EXPECT_TRUE(std::regex_search(message, std::regex("checkpoint of an incompatible configuration: its config_hash")))
      << message;
  // A step the run does not reach.
  const TimeStepping short_run(3.0, 1.0, 1.0, 1.5);
  EXPECT_TRUE(std::regex_search(refusal([&] { check_restart_compatible(path, header, spec, short_run); }),
                                std::regex("checkpoint at step 10 .* does not fit this run's")));
}

// 7. The older format and hostile files, whatever the model.

TEST_F(CheckpointFiles, ADiffusivityOtherThanTheViscosityIsRecordedHashedAndCompared) {
  RunSpec spec = model_2d.spec();
  spec.physics.viscosity = 500.0;
  spec.physics.diffusivity = 1500.0;
  const TimeStepping stepping = stepping_of(spec);
  const fs::path path = write_with_physics(spec, 5);
  EXPECT_EQ(testing::attribute(path, "diffusivity"), 1500.0);
  const CheckpointHeader read = read_checkpoint_header(path);
  EXPECT_EQ(read.physics.viscosity, 500.0);
  EXPECT_EQ(read.physics.diffusivity, 1500.0);
  EXPECT_EQ(read.config_hash, physics_hash(spec));
  EXPECT_EQ(refusal([&] { check_restart_compatible(path, read, spec, stepping); }), "");
  RunSpec other = spec;
  other.physics.diffusivity = 500.0;
  EXPECT_NE(physics_hash(other), physics_hash(spec));
  EXPECT_EQ(refusal([&] { check_restart_compatible(path, read, other, stepping); }),
            path.string() +
                ": checkpoint of an incompatible configuration: physics.diffusivity 1500 vs 500 m²/s (checkpoint vs "
                "configuration)");

  // A diffusivity that is the viscosity (every checkpoint before the key): no attribute, the
  // hash and checksum of before, read back as the viscosity.
  RunSpec plain = model_2d.spec();
  plain.physics.viscosity = plain.physics.diffusivity = 75.0;
  EXPECT_EQ(
      physics_hash(plain),
      fnv1a(fmt::format("case=thermal;nx={};nz={};xlen={:a};zlen={:a};viscosity={:a};hyperviscosity={:a};cfl={:a}",
                        plain.grid.nx, plain.grid.nz, plain.grid.xlen, plain.grid.zlen, 75.0,
                        plain.physics.hyperviscosity, plain.time.cfl)));
  CheckpointHeader before = model_2d.header(6, plain);
  before.physics = plain.physics;
  write_checkpoint(directory_, before, state_in(model_2d.whole(), model_2d.variables), "");
  const fs::path before_path = checkpoint_path(directory_, 6);
  EXPECT_FALSE(has_attribute(before_path, "diffusivity"));
  EXPECT_EQ(read_checkpoint_header(before_path).physics.diffusivity, 75.0);
}

TEST_F(CheckpointFiles, TheInitialStateAsTheDiffusionReferenceIsRecordedHashedAndCompared) {
  RunSpec spec = model_2d.spec();
  spec.physics.viscosity = 500.0;
  spec.physics.diffusivity = 1500.0;
  spec.physics.reference = DiffusionReference::initial_state;
  const TimeStepping stepping = stepping_of(spec);
  const fs::path path = write_with_physics(spec, 5);
  const CheckpointHeader read = read_checkpoint_header(path);
  EXPECT_EQ(read.physics.reference, DiffusionReference::initial_state);
  EXPECT_EQ(read.config_hash, physics_hash(spec));
  EXPECT_EQ(refusal([&] { check_restart_compatible(path, read, spec, stepping); }), "");
  RunSpec background = spec;
  background.physics.reference = DiffusionReference::background;
  EXPECT_NE(physics_hash(background), physics_hash(spec)) << "a restart with the background as the reference differs";
  EXPECT_NE(refusal([&] { check_restart_compatible(path, read, background, stepping); }), "");
  // The background (every checkpoint before the key): no attribute, read back as the background.
  const fs::path before_path = write_with_physics(background, 6);
  EXPECT_FALSE(has_attribute(before_path, "diffusion_reference"));
  EXPECT_EQ(read_checkpoint_header(before_path).physics.reference, DiffusionReference::background);
}

TEST_F(CheckpointFiles, CheckpointOfTheOlderFormatIsRefused) {
  const fs::path path = write(model_2d, 8);
  testing::rewrite_in_older_format(path);
  EXPECT_EQ(refusal([&] { read_checkpoint_header(path); }),
            path.string() + ": written by an older simapp without checksums; cannot be verified");
}

TEST_F(CheckpointFiles, SimappCheckpointsAreRecognized) {
  const fs::path checkpoint = write(model_2d, 1);
  EXPECT_TRUE(is_simapp_checkpoint(checkpoint));
  fs::create_directories(directory_ / "3d");
  write_checkpoint(directory_ / "3d", model_3d.header(2), state_in(model_3d.whole(), 5), "");
  EXPECT_TRUE(is_simapp_checkpoint(checkpoint_path(directory_ / "3d", 2)));
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

TEST_F(CheckpointFiles, WhatIsNotACheckpointIsRefusedNamingWhy) {
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

TEST_F(CheckpointFiles, LatestIgnoresNamesWhoseStepDoesNotFit) {
  write(model_2d, 12);
  std::ofstream(directory_ / "checkpoint_99999999999999999999.h5") << "x";
  std::ofstream(directory_ / "checkpoint_9223372036854775808.h5") << "x";
  EXPECT_EQ(latest_checkpoint(directory_), std::optional(checkpoint_path(directory_, 12)));
}

TEST_F(CheckpointFiles, LatestIgnoresWhatIsNotARegularFile) {
  write(model_2d, 12);
  testing::make_fifo(directory_ / "checkpoint_000013.h5");
  fs::create_directories(directory_ / "checkpoint_000014.h5");
  fs::create_symlink(directory_ / "nowhere.h5", directory_ / "checkpoint_000015.h5");
  EXPECT_EQ(latest_checkpoint(directory_), std::optional(checkpoint_path(directory_, 12)));
}

TEST_F(CheckpointFiles, LatestIsTheFileFound) {
  fs::rename(write(model_2d, 12), directory_ / "checkpoint_12.h5");
  EXPECT_EQ(latest_checkpoint(directory_), std::optional(directory_ / "checkpoint_12.h5"));
}

TEST_F(CheckpointFiles, NamedPipeIsRefusedWithoutOpeningIt) {
  const fs::path fifo = directory_ / "checkpoint_000001.h5";
  testing::make_fifo(fifo);
  auto reading = std::async(std::launch::async, [&] {
    return refusal([&] { read_checkpoint_header(fifo); }) +
           refusal([&] { read_checkpoint_block(fifo, model_2d.whole()); });
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

TEST_F(CheckpointFiles, WritingRemovesOnlyEarlierSimappCheckpoints) {
  fs::create_directories(directory_ / "kept");
  write(model_2d, 5);
  fs::rename(checkpoint_path(directory_, 5), directory_ / "kept" / "checkpoint_000005.h5");
  fs::create_symlink(directory_ / "kept" / "checkpoint_000005.h5", directory_ / "checkpoint_000005.h5");
  std::ofstream(directory_ / "checkpoint_000003.h5") << "a user's notes\n";
  testing::write_plain_hdf5(directory_ / "checkpoint_000004.h5");
  testing::make_fifo(directory_ / "checkpoint_000006.h5");
  fs::create_directories(directory_ / "checkpoint_000007.h5");
  write(model_2d, 1);
  fs::rename(write(model_2d, 2), directory_ / "checkpoint_2.h5");  // simapp's, under another spelling of its step
  write(model_2d, 9);
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
