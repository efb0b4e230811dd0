/// Snapshots of either model (io/hdf5/snapshot_writer.hpp), each test of both models where it
/// applies: fields [1][nz][nx] on (time, z, x), in the 3-D model [1][nz][ny][nx] on (time, z, y,
/// x), holding the documented formulas bit for bit with their CF attributes; the coordinates and
/// their bounds (y, ny and dy in 3-D alone), time and step; compressed chunks; a rank's block
/// written where its cells are; the XDMF index; the failures that leave nothing behind; and the
/// 3-D model's series and splits.
#include "io/hdf5/snapshot_writer.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <hdf5.h>
#include <hdf5_hl.h>
#include <mpi.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "foundation/error.hpp"
#include "io/hdf5/hdf5_handle.hpp"
#include "io/hdf5/hdf5_reader.hpp"
#include "io/hdf5/snapshot_series.hpp"
#include "io/xdmf/xdmf_writer.hpp"
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

/// Cells of a grid: ny = 1 is the 2-D model's.
struct Cells {
  int nx = 0, ny = 1, nz = 0;
};

/// A model's snapshot in these tests: its grid and spacing, and the fields it can hold of those
/// it stores as it computes them (not p_prime: PressureAndBackgroundHoldTheirFormulas).
struct Model {
  int dims = 2;
  Cells grid;
  double dx = 0.0, dy = 0.0, dz = 0.0;
  std::vector<std::string> fields;
  int variables = 0;  ///< dens, umom, (vmom,) wmom, rhot
};

// The 2-D grid has more than one 64 × 256 chunk each way, with partial chunks at the ends.
const Model model_2d{2,   {300, 1, 70}, 20000.0 / 300,
                     0.0, 10000.0 / 70, {"rho_prime", "u", "w", "theta_prime", "dens", "umom", "wmom", "rhot"},
                     4};
const Model model_3d{3,     {6, 4, 3},
                     500.0, 250.0,
                     400.0, {"rho_prime", "u", "v", "w", "theta_prime", "dens", "umom", "vmom", "wmom", "rhot"},
                     5};

/// The value of variable v (dens, umom, (vmom,) wmom, rhot) at cell (k, j, i): distinct over a
/// small grid, and varying along every axis.
double value_of(int v, int k, int j, int i) {
  return (v == 0 ? -1e-3 : 1.0) * (1.0 + v + 0.1 * k + 0.01 * j + 0.001 * i);
}

/// A snapshot of `model` on `grid` (the model's own by default), of values independent of the
/// solver over an exponential background.
Snapshot snapshot_of(const Model& model, std::optional<Cells> cells = std::nullopt) {
  const Cells grid = cells.value_or(model.grid);
  Snapshot snapshot;
  snapshot.step = 1234;
  snapshot.time = 567.25;
  snapshot.nx = grid.nx;
  snapshot.ny = grid.ny;
  snapshot.nz = grid.nz;
  snapshot.dx = model.dx;
  snapshot.dy = model.dy;
  snapshot.dz = model.dz;
  snapshot.case_name = "thermal";
  snapshot.input_yaml = "case: thermal\ngrid:\n  nx: 300\n  nz: 70\n# non-ASCII: \u03c1\u03b8\n";
  snapshot.version = "0.1.0";
  snapshot.git_hash = "0123456789abcdef";
  for (int v = 0; v < model.variables; ++v)
    for (int k = 0; k < grid.nz; ++k)
      for (int j = 0; j < grid.ny; ++j)
        for (int i = 0; i < grid.nx; ++i) snapshot.state.push_back(value_of(v, k, j, i));
  for (int k = 0; k < grid.nz; ++k) {
    const double background = 1.16 * std::exp(-(k + 0.5) * model.dz / 9000.0);
    snapshot.density_cell.push_back(background);
    snapshot.rho_theta_cell.push_back(300.0 * background * (1.0 + 1e-3 * k));
  }
  return snapshot;
}

/// The documented value of `field` at cell (k, j, i), computed here from the formulas with the
/// background of layer k: ρ = ρ̄_c(k) + dens, velocities momentum / ρ,
/// θ′ = (ρ̄θ̄_c + rhot)/ρ − ρ̄θ̄_c/ρ̄_c.
double expected_value(const Snapshot& snapshot, const std::string& field, int k, int j, int i) {
  const bool three_d = snapshot.ny > 1;
  const double dens = value_of(0, k, j, i), umom = value_of(1, k, j, i), vmom = value_of(2, k, j, i),
               wmom = value_of(three_d ? 3 : 2, k, j, i), rhot = value_of(three_d ? 4 : 3, k, j, i);
  const double rho = snapshot.density_cell[k] + dens, rho_theta = snapshot.rho_theta_cell[k];
  const std::map<std::string, double> values{
      {"rho_prime", dens},
      {"u", umom / rho},
      {"v", vmom / rho},
      {"w", wmom / rho},
      {"theta_prime", (rho_theta + rhot) / rho - rho_theta / snapshot.density_cell[k]},
      {"dens", dens},
      {"umom", umom},
      {"vmom", vmom},
      {"wmom", wmom},
      {"rhot", rhot}};
  return values.at(field);
}

/// Every value of `field` over the snapshot's grid, [k][j][i].
std::vector<double> expected(const Snapshot& snapshot, const std::string& field) {
  std::vector<double> values;
  for (int k = 0; k < snapshot.nz; ++k)
    for (int j = 0; j < snapshot.ny; ++j)
      for (int i = 0; i < snapshot.nx; ++i) values.push_back(expected_value(snapshot, field, k, j, i));
  return values;
}

/// The `count` values (n + shift)·spacing, n = 0..count-1.
std::vector<double> points(int count, double spacing, double shift) {
  std::vector<double> values;
  for (int n = 0; n < count; ++n) values.push_back((n + shift) * spacing);
  return values;
}

/// The bounds [n·spacing, (n + 1)·spacing] of `count` cells, [count][2].
std::vector<double> bounds(int count, double spacing) {
  std::vector<double> values;
  for (int n = 0; n < count; ++n) values.insert(values.end(), {n * spacing, (n + 1) * spacing});
  return values;
}

// ---- reading through the HDF5 C API ---------------------------------------------------------

FileHandle open_file(const fs::path& path) {
  FileHandle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  EXPECT_TRUE(file.valid()) << path;
  return file;
}

/// Attribute `name` of object `path` in `file`, read as `memory_type` into `value`.
void read_attribute(hid_t file, const std::string& path, const std::string& name, hid_t memory_type, void* value) {
  const AttributeHandle attribute(H5Aopen_by_name(file, path.c_str(), name.c_str(), H5P_DEFAULT, H5P_DEFAULT));
  ASSERT_TRUE(attribute.valid()) << path << " has no attribute " << name;
  EXPECT_GE(H5Aread(attribute.get(), memory_type, value), 0) << name;
}

/// Text attribute `name` of object `object` in `file`.
std::string string_attribute(hid_t file, const std::string& object, const std::string& name) {
  if (H5Aexists_by_name(file, object.c_str(), name.c_str(), H5P_DEFAULT) <= 0) return "<no attribute " + name + ">";
  return Hdf5Reader(file, "snapshot", ExitCode::io).read_attribute<std::string>(name, object);
}

double double_attribute(hid_t file, const std::string& name) {
  double value = -1.0;
  read_attribute(file, "/", name, H5T_NATIVE_DOUBLE, &value);
  return value;
}

long long integer_attribute(hid_t file, const std::string& name) {
  long long value = -1;
  read_attribute(file, "/", name, H5T_NATIVE_LLONG, &value);
  return value;
}

/// (layout, number of filters) of a dataset's creation properties.
std::pair<H5D_layout_t, int> storage_of(hid_t file, const std::string& name) {
  const DatasetHandle dataset(H5Dopen2(file, name.c_str(), H5P_DEFAULT));
  const PropertyListHandle properties(H5Dget_create_plist(dataset.get()));
  return {H5Pget_layout(properties.get()), H5Pget_nfilters(properties.get())};
}

/// The names of the dimensions of dataset `name`, in order: the datasets of the dimension scales
/// attached to them (netCDF's dimension names).
std::vector<std::string> dimension_names(hid_t file, const std::string& name) {
  const DatasetHandle dataset(H5Dopen2(file, name.c_str(), H5P_DEFAULT));
  std::vector<std::string> names;
  for (std::size_t d = 0; d < dims_of(file, name).size(); ++d) {
    std::string scale = "<none>";
    const auto visit = [](hid_t, unsigned, hid_t attached, void* out) -> herr_t {
      std::array<char, 64> text{};
      H5Iget_name(attached, text.data(), text.size());
      *static_cast<std::string*>(out) = text.data() + 1;  // without the root's "/"
      return 1;                                           // the first scale of the dimension
    };
    H5DSiterate_scales(dataset.get(), static_cast<unsigned>(d), nullptr, visit, &scale);
    names.push_back(scale);
  }
  return names;
}

/// The chunk dimensions of dataset `name` (none when it is not chunked).
std::vector<hsize_t> chunk_of(hid_t file, const std::string& name) {
  const DatasetHandle dataset(H5Dopen2(file, name.c_str(), H5P_DEFAULT));
  const PropertyListHandle properties(H5Dget_create_plist(dataset.get()));
  if (H5Pget_layout(properties.get()) != H5D_CHUNKED) return {};
  std::vector<hsize_t> chunk(static_cast<std::size_t>(H5Pget_chunk(properties.get(), 0, nullptr)));
  H5Pget_chunk(properties.get(), static_cast<int>(chunk.size()), chunk.data());
  return chunk;
}

/// The shape of a field of `snapshot`: [1][nz][nx], or [1][nz][ny][nx] in 3-D.
std::vector<hsize_t> field_shape(const Snapshot& snapshot) {
  const auto nx = static_cast<hsize_t>(snapshot.nx), ny = static_cast<hsize_t>(snapshot.ny),
             nz = static_cast<hsize_t>(snapshot.nz);
  return snapshot.ny > 1 ? std::vector<hsize_t>{1, nz, ny, nx} : std::vector<hsize_t>{1, nz, nx};
}

/// Its dimensions: time, z, (y,) x.
std::vector<std::string> field_dimensions(const Snapshot& snapshot) {
  return snapshot.ny > 1 ? std::vector<std::string>{"time", "z", "y", "x"} : std::vector<std::string>{"time", "z", "x"};
}

std::vector<std::string> files_in(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) names.push_back(entry.path().filename().string());
  return names;
}

// ---- rank blocks ----------------------------------------------------------------------------

/// A rank's box of the grid: cells [i0, i0 + nx) × [j0, j0 + ny) × [k0, k0 + nz).
struct Box {
  int i0 = 0, j0 = 0, k0 = 0;
  int nx = 0, ny = 0, nz = 0;
  bool contains(int k, int j, int i) const {
    return k >= k0 && k < k0 + nz && j >= j0 && j < j0 + ny && i >= i0 && i < i0 + nx;
  }
};

/// The state of the cells in `box` of a snapshot of `variables` variables, [var][k][j][i], as a
/// rank holds its block.
std::vector<double> state_in(const Box& box, int variables) {
  std::vector<double> state;
  for (int v = 0; v < variables; ++v)
    for (int k = 0; k < box.nz; ++k)
      for (int j = 0; j < box.ny; ++j)
        for (int i = 0; i < box.nx; ++i) state.push_back(value_of(v, box.k0 + k, box.j0 + j, box.i0 + i));
  return state;
}

/// The block of `box` viewing `state` (state_in(box)) and the snapshot's background rows.
SnapshotBlock block_of(const Snapshot& snapshot, const Box& box, const std::vector<double>& state) {
  return SnapshotBlock{box.nx,
                       box.nz,
                       box.i0,
                       box.k0,
                       state,
                       std::span<const double>(snapshot.density_cell).subspan(box.k0, box.nz),
                       std::span<const double>(snapshot.rho_theta_cell).subspan(box.k0, box.nz),
                       box.ny,
                       box.j0};
}

// ---- fixtures -------------------------------------------------------------------------------

/// A directory of its own for each test.
class SnapshotFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::replace(name.begin(), name.end(), '/', '_');  // a parameterized test's "Name/2d"
    dir_ = fs::temp_directory_path() / ("simapp_snapshot_test_" + std::to_string(::getpid()) + "_" + name);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    fs::permissions(dir_, fs::perms::owner_all);
    fs::remove_all(dir_);
  }

  /// Writes `snapshot` with `fields` to `name` in this test's directory.
  fs::path write(const Snapshot& snapshot, const std::string& name, const std::vector<std::string>& fields,
                 int level = 0) const {
    write_snapshot(dir_ / name, snapshot, fields, level);
    return dir_ / name;
  }

  fs::path dir_;
};

/// The tests of either model: the parameter is its dimensions.
class SnapshotTest : public SnapshotFiles, public ::testing::WithParamInterface<int> {
 protected:
  void SetUp() override {
    SnapshotFiles::SetUp();
    snapshot_ = snapshot_of(model());
  }
  const Model& model() const { return GetParam() == 3 ? model_3d : model_2d; }
  /// Writes the model's snapshot with `fields` (the model's by default) to `name`.
  fs::path write(const std::string& name, std::optional<std::vector<std::string>> fields = std::nullopt,
                 int level = 0) const {
    return SnapshotFiles::write(snapshot_, name, fields.value_or(model().fields), level);
  }

  Snapshot snapshot_;
};

INSTANTIATE_TEST_SUITE_P(Dimensions, SnapshotTest, ::testing::Values(2, 3),
                         [](const ::testing::TestParamInfo<int>& dimensions) {
                           return std::to_string(dimensions.param) + "d";
                         });

// ---- the fields -----------------------------------------------------------------------------

TEST(SnapshotFieldsTest, ListsTheDocumentedFieldsWithUnits) {
  const std::map<std::string, std::string> units{
      {"rho_prime", "kg m-3"}, {"u", "m s-1"},         {"v", "m s-1"},       {"w", "m s-1"},
      {"theta_prime", "K"},    {"p_prime", "Pa"},      {"dens", "kg m-3"},   {"umom", "kg m-2 s-1"},
      {"vmom", "kg m-2 s-1"},  {"wmom", "kg m-2 s-1"}, {"rhot", "kg m-3 K"}, {"rho_bar", "kg m-3"},
      {"theta_bar", "K"},      {"p_bar", "Pa"}};
  std::vector<std::string> names, of_2d;
  for (const FieldInfo& field : snapshot_fields()) {
    names.push_back(field.name);
    if (!is_3d_field(field.name)) of_2d.push_back(field.name);
    EXPECT_EQ(field.unit, units.at(field.name));
    EXPECT_FALSE(field.long_name.empty()) << field.name;
    EXPECT_LE(field.long_name.size() + field.unit.size() + 3, 60u) << field.name << ": a plot's label of two lines";
    EXPECT_EQ(field.profile, field.name.ends_with("_bar")) << field.name;
  }
  EXPECT_EQ(names, (std::vector<std::string>{"rho_prime", "u", "v", "w", "theta_prime", "p_prime", "dens", "umom",
                                             "vmom", "wmom", "rhot", "rho_bar", "theta_bar", "p_bar"}));
  EXPECT_EQ(of_2d, (std::vector<std::string>{"rho_prime", "u", "w", "theta_prime", "p_prime", "dens", "umom", "wmom",
                                             "rhot", "rho_bar", "theta_bar", "p_bar"}))
      << "v and vmom are the 3-D model's only";
}

TEST_P(SnapshotTest, FieldsHoldTheDocumentedFormulasBitForBitOnTheirDimensions) {
  const FileHandle file = open_file(write("fields.h5"));
  std::map<std::string, FieldInfo> infos;
  for (const FieldInfo& field : snapshot_fields()) infos[field.name] = field;
  for (const std::string& field : model().fields) {
    EXPECT_EQ(dims_of(file.get(), field), field_shape(snapshot_)) << field;
    EXPECT_EQ(dimension_names(file.get(), field), field_dimensions(snapshot_)) << field;
    EXPECT_TRUE(bitwise_equal(read_values(file.get(), field), expected(snapshot_, field))) << field;
    EXPECT_EQ(string_attribute(file.get(), field, "units"), infos.at(field).unit);
    EXPECT_EQ(string_attribute(file.get(), field, "long_name"), infos.at(field).long_name);
    // The values a writer computes are those of snapshot_field.
    EXPECT_TRUE(bitwise_equal(snapshot_field(snapshot_, field), expected(snapshot_, field))) << field;
  }
  EXPECT_EQ(string_attribute(file.get(), "u", "standard_name"), "x_wind");
  if (model().dims == 3) {
    EXPECT_EQ(string_attribute(file.get(), "v", "units"), "m s-1");
    EXPECT_EQ(string_attribute(file.get(), "v", "standard_name"), "y_wind");  // as u's x_wind
    EXPECT_EQ(string_attribute(file.get(), "vmom", "units"), "kg m-2 s-1");
  }
}

/// C₀ and γ as docs/model.md gives them: p = C₀ (ρθ)^γ.
constexpr double c0 = 27.5629410929725921, gamma = 1004.0 / 717.0;

TEST_P(SnapshotTest, PressureAndBackgroundHoldTheirFormulas) {
  const FileHandle file =
      open_file(write("pressure.h5", std::vector<std::string>{"p_prime", "rho_bar", "theta_bar", "p_bar"}));
  const auto nz = static_cast<hsize_t>(snapshot_.nz);
  EXPECT_EQ(dims_of(file.get(), "p_prime"), field_shape(snapshot_));
  for (const char* profile : {"rho_bar", "theta_bar", "p_bar"})
    EXPECT_EQ(dims_of(file.get(), profile), std::vector<hsize_t>{nz}) << profile;
  const std::vector<double> p_prime = read_values(file.get(), "p_prime"), rho_bar = read_values(file.get(), "rho_bar"),
                            theta_bar = read_values(file.get(), "theta_bar"), p_bar = read_values(file.get(), "p_bar");
  const std::size_t layer = static_cast<std::size_t>(snapshot_.nx) * snapshot_.ny;
  const int rhot = model().variables - 1;
  for (int k = 0; k < snapshot_.nz; ++k) {
    const double density = snapshot_.density_cell[k], rho_theta = snapshot_.rho_theta_cell[k];
    EXPECT_EQ(rho_bar[k], density) << k;
    EXPECT_DOUBLE_EQ(theta_bar[k], rho_theta / density) << k;
    EXPECT_NEAR(p_bar[k], c0 * std::pow(rho_theta, gamma), 1e-12 * p_bar[k]) << k;
    for (std::size_t c = 0; c < layer; c += 7) {
      const int j = static_cast<int>(c / snapshot_.nx), i = static_cast<int>(c % snapshot_.nx);
      const double pressure = c0 * std::pow(rho_theta + value_of(rhot, k, j, i), gamma);
      EXPECT_NEAR(p_bar[k] + p_prime[k * layer + c], pressure, 1e-11 * pressure) << k << " " << j << " " << i;
    }
  }
}

TEST_P(SnapshotTest, HoldsOnlyTheSelectedFields) {
  const FileHandle file = open_file(write("some.h5", std::vector<std::string>{"theta_prime", "w"}));
  EXPECT_GT(H5Lexists(file.get(), "theta_prime", H5P_DEFAULT), 0);
  EXPECT_GT(H5Lexists(file.get(), "w", H5P_DEFAULT), 0);
  EXPECT_EQ(H5Lexists(file.get(), "u", H5P_DEFAULT), 0);
  EXPECT_EQ(H5Lexists(file.get(), "dens", H5P_DEFAULT), 0);
}

TEST_F(SnapshotFiles, AFieldOfThe3DModelIsRefusedInA2DSnapshotSeriesAndBlock) {
  const Snapshot flat = snapshot_of(model_2d, Cells{6, 1, 3});
  const SnapshotBlock block{flat.nx, flat.nz, 0, 0, flat.state, flat.density_cell, flat.rho_theta_cell};
  for (const std::string name : {"v", "vmom"}) {
    const Error file = error_of([&] { write(flat, "refused.h5", {"u", name}); });
    const Error blocks =
        error_of([&] { write_snapshot_blocks(dir_ / "blocks.h5", flat, block, {name}, MPI_COMM_SELF); });
    const Error series =
        error_of([&] { SnapshotSeriesFile(dir_ / "fields.nc", {name}, 0, std::nullopt).append(flat); });
    const Error values = error_of([&] { snapshot_field(flat, name); });
    for (const Error& error : {file, blocks, series, values}) {
      EXPECT_EQ(error.code(), ExitCode::bad_input) << name;
      EXPECT_NE(std::string(error.what()).find("field '" + name + "' is of the 3-D model"), std::string::npos)
          << error.what();
    }
    EXPECT_NE(std::string(file.what()).find("field '" + name + "' is of the 3-D model (grid.ny > 1)"),
              std::string::npos)
        << file.what();
  }
  EXPECT_TRUE(fs::is_empty(dir_));
}

// ---- the coordinates, time and attributes ---------------------------------------------------

TEST_P(SnapshotTest, HoldsCellCentresAndEdges) {
  const FileHandle file = open_file(write("grid.h5"));
  const Snapshot& s = snapshot_;
  EXPECT_TRUE(bitwise_equal(read_values(file.get(), "x"), points(s.nx, s.dx, 0.5)));
  EXPECT_TRUE(bitwise_equal(read_values(file.get(), "z"), points(s.nz, s.dz, 0.5)));
  // CF cell bounds: each cell's two edges, [cells][2].
  EXPECT_TRUE(bitwise_equal(read_values(file.get(), "x_bnds"), bounds(s.nx, s.dx)));
  EXPECT_TRUE(bitwise_equal(read_values(file.get(), "z_bnds"), bounds(s.nz, s.dz)));
  EXPECT_EQ(dims_of(file.get(), "x_bnds"), (std::vector<hsize_t>{static_cast<hsize_t>(s.nx), 2}));
  EXPECT_EQ(dims_of(file.get(), "z_bnds"), (std::vector<hsize_t>{static_cast<hsize_t>(s.nz), 2}));
  std::vector<std::string> axes{"x", "z"};
  if (model().dims == 3) {
    axes.emplace_back("y");
    EXPECT_TRUE(bitwise_equal(read_values(file.get(), "y"), points(s.ny, s.dy, 0.5)));
    EXPECT_TRUE(bitwise_equal(read_values(file.get(), "y_bnds"), bounds(s.ny, s.dy)));
    EXPECT_EQ(dims_of(file.get(), "y_bnds"), (std::vector<hsize_t>{static_cast<hsize_t>(s.ny), 2}));
    EXPECT_EQ(dimension_names(file.get(), "y_bnds"), (std::vector<std::string>{"y", "bnds"}));
    EXPECT_EQ(H5DSis_scale(DatasetHandle(H5Dopen2(file.get(), "y", H5P_DEFAULT)).get()), 1);
    EXPECT_EQ(string_attribute(file.get(), "y", "standard_name"), "projection_y_coordinate");
  } else {
    EXPECT_EQ(H5Lexists(file.get(), "y", H5P_DEFAULT), 0) << "a 2-D file has no y";
  }
  for (const std::string& axis : axes)
    for (const std::string& name : {axis, axis + "_bnds"}) {
      EXPECT_EQ(string_attribute(file.get(), name, "units"), "m") << name;
      EXPECT_NE(string_attribute(file.get(), name, "long_name"), "<no attribute long_name>") << name;
      EXPECT_FALSE(string_attribute(file.get(), name, "long_name").empty()) << name;
    }
  for (const std::string& axis : axes) EXPECT_EQ(string_attribute(file.get(), axis, "bounds"), axis + "_bnds");
  // ParaView's CF reader would take axis X and Y for longitude and latitude.
  EXPECT_EQ(string_attribute(file.get(), "x", "axis"), "<no attribute axis>");
  if (model().dims == 3) {
    EXPECT_EQ(string_attribute(file.get(), "y", "axis"), "<no attribute axis>");
  }
  EXPECT_EQ(string_attribute(file.get(), "z", "axis"), "Z");
  EXPECT_EQ(string_attribute(file.get(), "x", "standard_name"), "projection_x_coordinate");  // the same style
}

TEST_P(SnapshotTest, TimeAndStepAreVariablesOnTime) {
  Snapshot started = snapshot_;
  started.time_start = "1999-12-31T23:00:00Z";
  write_snapshot(dir_ / "time.h5", started, model().fields, 0);
  const FileHandle file = open_file(dir_ / "time.h5");
  EXPECT_EQ(read_values(file.get(), "time"), std::vector<double>{snapshot_.time});
  EXPECT_EQ(read_values(file.get(), "step"), std::vector<double>{static_cast<double>(snapshot_.step)});
  EXPECT_EQ(dims_of(file.get(), "step"), std::vector<hsize_t>{1});
  EXPECT_EQ(string_attribute(file.get(), "time", "units"), "seconds since 1999-12-31 23:00:00");
  EXPECT_EQ(string_attribute(file.get(), "time", "calendar"), "proleptic_gregorian");
  for (const char* per_time : {"time", "step"})
    EXPECT_EQ(H5Aexists(file.get(), per_time), 0) << "a root attribute " << per_time << " would label a whole run";
  EXPECT_EQ(string_attribute(file.get(), "/", "title"), "simapp thermal");
}

TEST_P(SnapshotTest, EveryTextAttributeIsNetcdfCharacterData) {
  const FileHandle file = open_file(write("text.h5"));
  std::vector<std::string> texts;
  const auto each_attribute = [](hid_t object, const char* name, const H5A_info_t*, void* found) -> herr_t {
    const AttributeHandle attribute(H5Aopen(object, name, H5P_DEFAULT));
    const DatatypeHandle type(H5Aget_type(attribute.get()));
    if (H5Tget_class(type.get()) == H5T_STRING) {
      static_cast<std::vector<std::string>*>(found)->push_back(name);
      EXPECT_EQ(H5Tis_variable_str(type.get()), 0) << name << ": a netCDF-4 string (NC_STRING), not NC_CHAR";
      EXPECT_EQ(H5Tget_cset(type.get()), H5T_CSET_ASCII) << name;
    }
    return 0;
  };
  H5Aiterate2(file.get(), H5_INDEX_CRT_ORDER, H5_ITER_INC, nullptr, each_attribute, &texts);
  std::vector<std::string> datasets{"time", "x", "z", "x_bnds", "theta_prime"};
  if (model().dims == 3) datasets.insert(datasets.end(), {"y", "y_bnds", "v"});
  for (const std::string& name : datasets) {
    const DatasetHandle dataset(H5Dopen2(file.get(), name.c_str(), H5P_DEFAULT));
    ASSERT_GE(H5Aiterate2(dataset.get(), H5_INDEX_CRT_ORDER, H5_ITER_INC, nullptr, each_attribute, &texts), 0)
        << name << ": attributes not indexed in creation order";
  }
  EXPECT_GE(texts.size(), 20u);
}

TEST_P(SnapshotTest, BndsIsADimensionWithoutAVariable) {
  const FileHandle file = open_file(write("bnds.h5"));
  const DatasetHandle bnds(H5Dopen2(file.get(), "bnds", H5P_DEFAULT));
  char name[128] = {};
  ASSERT_GT(H5DSget_scale_name(bnds.get(), name, sizeof name), 0);
  EXPECT_EQ(std::string(name), "This is a netCDF dimension but not a netCDF variable.         2");
  EXPECT_EQ(H5Dget_storage_size(bnds.get()), 0u) << "no values";
}

TEST_P(SnapshotTest, RootAttributesDescribeTheRun) {
  const fs::path path = write("attributes.h5");
  const FileHandle file = open_file(path);
  EXPECT_EQ(double_attribute(file.get(), "dx"), snapshot_.dx);
  EXPECT_EQ(double_attribute(file.get(), "dz"), snapshot_.dz);
  EXPECT_EQ(integer_attribute(file.get(), "nx"), snapshot_.nx);
  EXPECT_EQ(integer_attribute(file.get(), "nz"), snapshot_.nz);
  EXPECT_EQ(string_attribute(file.get(), "/", "case"), "thermal");
  EXPECT_EQ(string_attribute(file.get(), "/", "simapp_version"), snapshot_.version);
  EXPECT_EQ(string_attribute(file.get(), "/", "git_hash"), snapshot_.git_hash);
  EXPECT_EQ(string_attribute(file.get(), "/", "input_yaml"), snapshot_.input_yaml);
  const Hdf5Reader reader(path, ExitCode::bad_input);
  EXPECT_EQ(reader.read_attribute<int>("nx"), snapshot_.nx);  // int32
  if (model().dims == 3) {
    EXPECT_EQ(reader.read_attribute<int>("ny"), snapshot_.ny);  // int32, as nx
    EXPECT_EQ(reader.read_attribute<double>("dy"), snapshot_.dy);
  } else {
    EXPECT_FALSE(reader.has_attribute("ny"));
    EXPECT_FALSE(reader.has_attribute("dy"));
  }
}

// ---- compression ----------------------------------------------------------------------------

TEST_P(SnapshotTest, CompressionChangesStorageNotData) {
  // Enough cells that the values, not the chunk indexes, make the file (the 3-D model's grid of
  // 6 x 4 x 3 cells is smaller compressed than the metadata compression adds).
  const Snapshot snapshot = model().dims == 3 ? snapshot_of(model_3d, Cells{40, 16, 8}) : snapshot_;
  const FileHandle plain = open_file(SnapshotFiles::write(snapshot, "plain.h5", model().fields, 0));
  const FileHandle packed = open_file(SnapshotFiles::write(snapshot, "packed.h5", model().fields, 6));
  for (const std::string& name : model().fields) {
    EXPECT_TRUE(bitwise_equal(read_values(plain.get(), name), read_values(packed.get(), name))) << name;
    EXPECT_EQ(storage_of(plain.get(), name), std::make_pair(H5D_CONTIGUOUS, 0)) << name;
    EXPECT_EQ(storage_of(packed.get(), name), std::make_pair(H5D_CHUNKED, 2)) << name;  // shuffle, deflate
  }
  EXPECT_LT(fs::file_size(dir_ / "packed.h5"), fs::file_size(dir_ / "plain.h5"));
}

TEST_P(SnapshotTest, CompressedFieldsHoldTheSameValuesInChunksOfAtMost1MiB) {
  // More than one chunk (64 × 256, in 3-D 8 × 64 × 256) each way, with partial chunks at the ends.
  const bool three_d = model().dims == 3;
  const Snapshot large = three_d ? snapshot_of(model_3d, Cells{257, 65, 9}) : snapshot_;
  const std::vector<std::string> fields{three_d ? "v" : "w", "rhot"};
  write_snapshot(dir_ / "deflated.h5", large, fields, 4);
  const FileHandle file = open_file(dir_ / "deflated.h5");
  const std::vector<hsize_t> chunk = three_d ? std::vector<hsize_t>{1, 8, 64, 256} : std::vector<hsize_t>{1, 64, 256};
  for (const std::string& field : fields) {
    EXPECT_EQ(chunk_of(file.get(), field), chunk) << field;
    EXPECT_TRUE(bitwise_equal(read_values(file.get(), field), expected(large, field))) << field;
  }
  const Snapshot small = snapshot_of(model(), three_d ? model_3d.grid : Cells{6, 1, 3});
  write_snapshot(dir_ / "small.h5", small, {fields[0]}, 4);
  const FileHandle small_file = open_file(dir_ / "small.h5");
  EXPECT_EQ(chunk_of(small_file.get(), fields[0]), field_shape(small)) << "a small grid in one chunk";
  EXPECT_TRUE(bitwise_equal(read_values(small_file.get(), fields[0]), expected(small, fields[0])));
}

TEST_P(SnapshotTest, ReadDatasetReturnsTheStoredValues) {
  const fs::path path = write("read.h5");
  const FileHandle file = open_file(path);
  EXPECT_TRUE(bitwise_equal(read_dataset(path, "theta_prime"), read_values(file.get(), "theta_prime")));
  EXPECT_TRUE(bitwise_equal(read_dataset(path, "x"), points(snapshot_.nx, snapshot_.dx, 0.5)));
  const Error missing_dataset = error_of([&] { read_dataset(path, "pressure"); });
  EXPECT_EQ(missing_dataset.code(), ExitCode::io);
  EXPECT_EQ(missing_dataset.where(), path.string());
  EXPECT_EQ(error_of([&] { read_dataset(dir_ / "absent.h5", "u"); }).code(), ExitCode::io);
}

// ---- a rank's block -------------------------------------------------------------------------

TEST_P(SnapshotTest, ARanksBlockIsWrittenWhereItsCellsAre) {
  // 2-D: cells i 100..219, k 10..39; 3-D: i 2..5, j 1..2, k 1..2 (MPI_COMM_SELF: the rank writes).
  const Box box = model().dims == 3 ? Box{2, 1, 1, 4, 2, 2} : Box{100, 0, 10, 120, 1, 30};
  const std::vector<double> state = state_in(box, model().variables);
  const std::vector<std::string> fields{model().dims == 3 ? "v" : "u", "rhot"};
  const fs::path path = dir_ / "block.h5";
  write_snapshot_blocks(path, snapshot_, block_of(snapshot_, box, state), fields, MPI_COMM_SELF);
  const FileHandle file = open_file(path);
  for (const std::string& field : fields) {
    const std::vector<double> values = read_values(file.get(), field);
    std::size_t c = 0;
    for (int k = 0; k < snapshot_.nz; ++k)
      for (int j = 0; j < snapshot_.ny; ++j)
        for (int i = 0; i < snapshot_.nx; ++i, ++c)
          ASSERT_EQ(values[c], box.contains(k, j, i) ? expected_value(snapshot_, field, k, j, i) : 0.0)
              << field << " k " << k << " j " << j << " i " << i;
  }
}

TEST_P(SnapshotTest, AWholeGridBlockWritesWhatWriteSnapshotWrites) {
  const Box whole{0, 0, 0, snapshot_.nx, snapshot_.ny, snapshot_.nz};
  const std::vector<double> state = state_in(whole, model().variables);
  const std::vector<std::string>& fields = model().fields;
  write_snapshot(dir_ / "gathered.h5", snapshot_, fields, 0);
  write_snapshot_blocks(dir_ / "blocks.h5", snapshot_, block_of(snapshot_, whole, state), fields, MPI_COMM_SELF);
  const FileHandle gathered = open_file(dir_ / "gathered.h5");
  const FileHandle blocks = open_file(dir_ / "blocks.h5");
  std::vector<std::string> datasets{"time", "x", "z", "bnds", "x_bnds", "z_bnds"};
  if (model().dims == 3) datasets.insert(datasets.end(), {"y", "y_bnds"});
  datasets.insert(datasets.end(), fields.begin(), fields.end());
  for (const std::string& name : datasets) {
    EXPECT_EQ(dims_of(blocks.get(), name), dims_of(gathered.get(), name)) << name;
    EXPECT_EQ(dimension_names(blocks.get(), name), dimension_names(gathered.get(), name)) << name;
    EXPECT_TRUE(bitwise_equal(read_values(blocks.get(), name), read_values(gathered.get(), name))) << name;
  }
  const Hdf5Reader reader(dir_ / "blocks.h5", ExitCode::bad_input);
  EXPECT_EQ(reader.has_attribute("ny"), model().dims == 3);
  if (model().dims == 3) {
    EXPECT_EQ(reader.read_attribute<int>("ny"), snapshot_.ny);
    EXPECT_EQ(reader.read_attribute<double>("dy"), snapshot_.dy);
  }
}

// ---- the precision of the fields --------------------------------------------------------------

/// Whether dataset `name` is stored as `file_type` (H5T_IEEE_F32LE, H5T_IEEE_F64LE …).
bool stored_as(hid_t file, const std::string& name, hid_t file_type) {
  const DatasetHandle dataset(H5Dopen2(file, name.c_str(), H5P_DEFAULT));
  const DatatypeHandle type(H5Dget_type(dataset.get()));
  return H5Tequal(type.get(), file_type) > 0;
}

/// `values` rounded to the nearest floats.
std::vector<double> through_float(std::vector<double> values) {
  for (double& value : values) value = static_cast<double>(static_cast<float>(value));
  return values;
}

/// The coordinates, their bounds and time, which are double in either precision.
std::vector<std::string> coordinates_of(const Model& model) {
  std::vector<std::string> names{"time", "x", "z", "x_bnds", "z_bnds"};
  if (model.dims == 3) names.insert(names.end(), {"y", "y_bnds"});
  return names;
}

TEST_P(SnapshotTest, AFloat64RunsFieldsAre64BitFloatsAndTheFileNamesItsPrecision) {
  const FileHandle file = open_file(write("float64.h5"));
  EXPECT_EQ(string_attribute(file.get(), "/", "simapp_precision"), "float64");
  for (const std::string& name : model().fields) EXPECT_TRUE(stored_as(file.get(), name, H5T_IEEE_F64LE)) << name;
  for (const std::string& name : coordinates_of(model()))
    EXPECT_TRUE(stored_as(file.get(), name, H5T_IEEE_F64LE)) << name;
}

TEST_P(SnapshotTest, AFloat32RunsFieldsAre32BitFloatsWrittenWholeCompressedOrByBlocks) {
  // A float32 run's state holds floats; the fields derived from it (u, θ′, …) are computed in
  // double, as a float64 file of that state holds them, and stored rounded to floats.
  Snapshot snapshot = snapshot_;
  snapshot.state = through_float(snapshot.state);
  const fs::path doubles = SnapshotFiles::write(snapshot, "float64.h5", model().fields);
  snapshot.precision = Precision::float32;
  const std::vector<std::string>& fields = model().fields;
  SnapshotFiles::write(snapshot, "whole.h5", fields);
  SnapshotFiles::write(snapshot, "compressed.h5", fields, 4);
  const Box whole{0, 0, 0, snapshot.nx, snapshot.ny, snapshot.nz};
  write_snapshot_blocks(dir_ / "blocks.h5", snapshot, block_of(snapshot, whole, snapshot.state), fields, MPI_COMM_SELF);
  const FileHandle reference = open_file(doubles);
  for (const std::string name : {"whole.h5", "compressed.h5", "blocks.h5"}) {
    const FileHandle file = open_file(dir_ / name);
    EXPECT_EQ(string_attribute(file.get(), "/", "simapp_precision"), "float32") << name;
    for (const std::string& field : fields) {
      EXPECT_TRUE(stored_as(file.get(), field, H5T_IEEE_F32LE)) << name << " " << field;
      EXPECT_EQ(dims_of(file.get(), field), field_shape(snapshot)) << name << " " << field;
      EXPECT_TRUE(bitwise_equal(read_values(file.get(), field), through_float(read_values(reference.get(), field))))
          << name << " " << field;
    }
    for (const std::string& coordinate : coordinates_of(model())) {
      EXPECT_TRUE(stored_as(file.get(), coordinate, H5T_IEEE_F64LE)) << name << " " << coordinate;
      EXPECT_TRUE(bitwise_equal(read_values(file.get(), coordinate), read_values(reference.get(), coordinate)))
          << name << " " << coordinate;
    }
  }
  // The state's variables read back as the run held them, exactly.
  const FileHandle file = open_file(dir_ / "whole.h5");
  const auto cells = static_cast<std::size_t>(snapshot.nx) * snapshot.ny * snapshot.nz;
  const std::vector<std::string> variables = model().dims == 3
                                                 ? std::vector<std::string>{"dens", "umom", "vmom", "wmom", "rhot"}
                                                 : std::vector<std::string>{"dens", "umom", "wmom", "rhot"};
  for (std::size_t v = 0; v < variables.size(); ++v)
    EXPECT_TRUE(
        bitwise_equal(read_values(file.get(), variables[v]),
                      std::vector<double>(snapshot.state.begin() + static_cast<std::ptrdiff_t>(v * cells),
                                          snapshot.state.begin() + static_cast<std::ptrdiff_t>((v + 1) * cells))))
        << variables[v];
}

/// A cut of the grid into px × py × pz rank boxes, as a Cartesian decomposition makes them.
struct Split {
  int px = 1, py = 1, pz = 1;
};

std::ostream& operator<<(std::ostream& out, const Split& split) {
  return out << split.px << " x " << split.py << " x " << split.pz;
}

/// The first cell and the cells of part p of n cells cut in `parts` (sizes differing by one at most).
std::pair<int, int> part_of(int n, int parts, int p) {
  const int first = n * p / parts;
  return {first, n * (p + 1) / parts - first};
}

class Snapshot3dSplitTest : public SnapshotFiles, public ::testing::WithParamInterface<Split> {};

TEST_P(Snapshot3dSplitTest, TheBlocksOfASplitWriteEveryCellOnceWhereItIs) {
  // Each box written by one rank (MPI_COMM_SELF) into a file of its own: its cells hold the
  // box's values and the others none; together the boxes give every cell once.
  const Split split = GetParam();
  const Snapshot snapshot = snapshot_of(model_3d);
  const std::vector<std::string>& fields = model_3d.fields;
  const int nx = snapshot.nx, ny = snapshot.ny, nz = snapshot.nz;
  const std::size_t cells = static_cast<std::size_t>(nx) * ny * nz;
  std::vector<int> writes(cells, 0);
  std::map<std::string, std::vector<double>> joined;
  for (const std::string& field : fields) joined[field].assign(cells, 0.0);
  for (int pz = 0; pz < split.pz; ++pz)
    for (int py = 0; py < split.py; ++py)
      for (int px = 0; px < split.px; ++px) {
        const auto [i0, bx] = part_of(nx, split.px, px);
        const auto [j0, by] = part_of(ny, split.py, py);
        const auto [k0, bz] = part_of(nz, split.pz, pz);
        const Box box{i0, j0, k0, bx, by, bz};
        const std::vector<double> state = state_in(box, model_3d.variables);
        const fs::path path = dir_ / fmt::format("block_{}_{}_{}.h5", px, py, pz);
        write_snapshot_blocks(path, snapshot, block_of(snapshot, box, state), fields, MPI_COMM_SELF);
        const FileHandle file = open_file(path);
        std::map<std::string, std::vector<double>> values;
        for (const std::string& field : fields) values[field] = read_values(file.get(), field);
        for (int k = 0; k < nz; ++k)
          for (int j = 0; j < ny; ++j)
            for (int i = 0; i < nx; ++i) {
              const std::size_t c = (static_cast<std::size_t>(k) * ny + j) * nx + i;
              if (box.contains(k, j, i)) ++writes[c];
              for (const std::string& field : fields) {
                if (box.contains(k, j, i))
                  joined[field][c] = values[field][c];
                else
                  EXPECT_EQ(values[field][c], 0.0) << path.filename() << " " << field << " (k, j, i) = (" << k << ", "
                                                   << j << ", " << i << ") is outside its box";
              }
            }
      }
  EXPECT_EQ(std::count(writes.begin(), writes.end(), 1), static_cast<long>(cells)) << "every cell in one box";
  for (const std::string& field : fields) EXPECT_TRUE(bitwise_equal(joined[field], expected(snapshot, field))) << field;
}

// 2 × 2 and 1 × 3 cuts across x, y and z: boxes spanning the grid's rows, its y, or neither.
INSTANTIATE_TEST_SUITE_P(Splits, Snapshot3dSplitTest,
                         ::testing::Values(Split{2, 2, 1}, Split{1, 2, 2}, Split{1, 3, 1}, Split{1, 1, 3},
                                           Split{3, 1, 1}, Split{2, 3, 3}));

// ---- series of the 3-D model (snapshot_series_test.cpp: of the 2-D one) ----------------------

TEST_F(SnapshotFiles, ASeriesOf3dTimesHoldsBoth) {
  const Snapshot snapshot = snapshot_of(model_3d);
  const fs::path path = dir_ / "fields.nc";
  SnapshotSeriesFile series(path, {"v"}, 0, std::nullopt);
  series.append(snapshot);
  Snapshot later = snapshot;
  later.step = 1235;
  later.time = 568.0;
  for (double& value : later.density_cell) value += 0.05;  // another v, the same momentum
  series.append(later);
  {
    const FileHandle file = open_file(path);
    EXPECT_EQ(dims_of(file.get(), "v"), (std::vector<hsize_t>{2, 3, 4, 6}));
    EXPECT_EQ(dimension_names(file.get(), "v"), (std::vector<std::string>{"time", "z", "y", "x"}));
    std::vector<double> both = expected(snapshot, "v");
    const std::vector<double> second = expected(later, "v");
    both.insert(both.end(), second.begin(), second.end());
    EXPECT_TRUE(bitwise_equal(read_values(file.get(), "v"), both));
    EXPECT_TRUE(bitwise_equal(read_values(file.get(), "y"), points(snapshot.ny, snapshot.dy, 0.5)));
    EXPECT_TRUE(bitwise_equal(read_values(file.get(), "time"), std::vector<double>{567.25, 568.0}));
  }
  {
    const Hdf5Reader reader(path, ExitCode::bad_input);
    EXPECT_EQ(reader.read_attribute<int>("ny"), snapshot.ny);
    EXPECT_EQ(reader.read_attribute<double>("dy"), snapshot.dy);
  }

  Snapshot other_grid = snapshot;
  other_grid.ny = 2;
  other_grid.state.resize(other_grid.state.size() / 2);
  const Error error = error_of([&] { series.append(other_grid); });
  EXPECT_EQ(error.code(), ExitCode::bad_input);
  EXPECT_NE(std::string(error.what()).find("the series is of a grid of 6 x 4 x 3 cells, the run's 6 x 2 x 3"),
            std::string::npos)
      << error.what();
}

TEST_F(SnapshotFiles, ARestartContinuesA3dSeriesAfterItsCheckpoint) {
  const Snapshot snapshot = snapshot_of(model_3d);
  const fs::path path = dir_ / "fields.nc";
  Snapshot later = snapshot;
  later.step = 1235;
  later.time = 568.0;
  {
    SnapshotSeriesFile series(path, {"u", "v"}, 3, std::nullopt);
    series.append(snapshot);
    series.append(later);
  }
  SnapshotSeriesFile continued(path, {"u", "v"}, 3, snapshot.step);
  EXPECT_EQ(continued.times(), 1);
  for (double& value : later.density_cell) value += 0.05;  // the restarted run's step 1235, another v
  continued.append(later);
  const FileHandle file = open_file(path);
  EXPECT_EQ(dims_of(file.get(), "v"), (std::vector<hsize_t>{2, 3, 4, 6}));
  std::vector<double> both = expected(snapshot, "v");
  const std::vector<double> second = expected(later, "v");
  both.insert(both.end(), second.begin(), second.end());
  EXPECT_TRUE(bitwise_equal(read_values(file.get(), "v"), both));
}

TEST_F(SnapshotFiles, ASeriesIsContinuedOnlyOnItsOwnGrid) {
  // A 3-D series continued by a 2-D run of the same nx and nz, and the other way round: each
  // refused, naming both grids, and left holding its time.
  const Snapshot snapshot = snapshot_of(model_3d);
  const Snapshot flat = snapshot_of(model_2d, Cells{6, 1, 3});
  const auto refused = [&](const std::string& name, const Snapshot& first, const Snapshot& next,
                           const std::string& message) {
    const fs::path path = dir_ / name;
    SnapshotSeriesFile(path, {"u"}, 0, std::nullopt).append(first);
    SnapshotSeriesFile continued(path, {"u"}, 0, first.step);
    const Error error = error_of([&] { continued.append(next); });
    EXPECT_EQ(error.code(), ExitCode::bad_input) << name;
    EXPECT_NE(std::string(error.what()).find(message), std::string::npos) << error.what();
    EXPECT_EQ(read_dataset(path, "time"), std::vector<double>{first.time}) << name;
  };
  refused("3d.nc", snapshot, flat, "the series is of a grid of 6 x 4 x 3 cells, the run's 6 x 3");
  refused("2d.nc", flat, snapshot, "the series is of a grid of 6 x 3 cells, the run's 6 x 4 x 3");
}

TEST_F(SnapshotFiles, A2DFileHoldsNoYAxis) {
  const Snapshot flat = snapshot_of(model_2d, Cells{6, 1, 3});
  write(flat, "flat.h5", {"u"});
  write(flat, "deflated.h5", {"u"}, 4);
  const SnapshotBlock block{flat.nx, flat.nz, 0, 0, flat.state, flat.density_cell, flat.rho_theta_cell};
  write_snapshot_blocks(dir_ / "blocks.h5", flat, block, {"u"}, MPI_COMM_SELF);
  SnapshotSeriesFile(dir_ / "fields.nc", {"u"}, 0, std::nullopt).append(flat);
  for (const std::string name : {"flat.h5", "deflated.h5", "blocks.h5", "fields.nc"}) {
    const Hdf5Reader reader(dir_ / name, ExitCode::bad_input);
    EXPECT_FALSE(reader.has_attribute("ny")) << name;
    EXPECT_FALSE(reader.has_attribute("dy")) << name;
    EXPECT_FALSE(reader.has_dataset("y")) << name;
    EXPECT_FALSE(reader.has_dataset("y_bnds")) << name;
    const FileHandle file = open_file(dir_ / name);
    EXPECT_EQ(dims_of(file.get(), "u"), (std::vector<hsize_t>{1, 3, 6})) << name;
    EXPECT_EQ(dimension_names(file.get(), "u"), (std::vector<std::string>{"time", "z", "x"})) << name;
  }
}

// ---- failures -------------------------------------------------------------------------------

TEST_F(SnapshotFiles, RefusesToOverwriteAndKeepsTheExistingFile) {
  const fs::path path = dir_ / "existing.h5";
  std::ofstream(path) << "precious";
  const Error error = error_of([&] { write_snapshot(path, snapshot_of(model_2d), model_2d.fields, 0); });
  EXPECT_EQ(error.code(), ExitCode::io);
  EXPECT_EQ(error.where(), path.string());
  EXPECT_EQ(testing::read_text(path), "precious");
  EXPECT_EQ(files_in(dir_), std::vector<std::string>{"existing.h5"});
}

TEST_F(SnapshotFiles, ReadOnlyDirectoryFailsWithoutLeavingFiles) {
  fs::permissions(dir_, fs::perms::owner_read | fs::perms::owner_exec);
  if (::access(dir_.c_str(), W_OK) == 0) GTEST_SKIP() << "directory permissions do not bind this user (root)";
  const Error error = error_of([&] { write(snapshot_of(model_2d), "denied.h5", model_2d.fields); });
  EXPECT_EQ(error.code(), ExitCode::io);
  EXPECT_EQ(error.where(), (dir_ / "denied.h5").string());
  EXPECT_TRUE(files_in(dir_).empty());
}

using testing::FileSizeLimit;

TEST_F(SnapshotFiles, FailedWriteRemovesTheTemporaryFile) {
  const Snapshot snapshot = snapshot_of(model_2d);
  const Error error = error_of([&] {
    const FileSizeLimit limit(64 * 1024);  // less than one field
    write(snapshot, "full.h5", model_2d.fields);
  });
  EXPECT_EQ(error.code(), ExitCode::io);
  EXPECT_NE(std::string(error.what()).find("File too large"), std::string::npos) << error.what();
  EXPECT_TRUE(files_in(dir_).empty());
}

TEST_P(SnapshotTest, RejectsBadRequestsBeforeWriting) {
  EXPECT_EQ(error_of([&] { write("a.h5", std::vector<std::string>{"pressure"}); }).code(), ExitCode::bad_input);
  EXPECT_EQ(error_of([&] { write("b.h5", std::vector<std::string>{"u", "u"}); }).code(), ExitCode::bad_input);
  EXPECT_EQ(error_of([&] { write("c.h5", std::vector<std::string>{"u"}, 10); }).code(), ExitCode::bad_input);
  Snapshot short_state = snapshot_;
  short_state.state.pop_back();
  EXPECT_EQ(error_of([&] { write_snapshot(dir_ / "d.h5", short_state, {"u"}, 0); }).code(), ExitCode::internal);
  Snapshot other_model = snapshot_;
  other_model.state.resize(snapshot_.state.size() / model().variables * (model().dims == 3 ? 4 : 5));
  EXPECT_EQ(error_of([&] { write_snapshot(dir_ / "e.h5", other_model, {"u"}, 0); }).code(), ExitCode::internal)
      << "a state of the other model's variables";
  EXPECT_TRUE(files_in(dir_).empty());
}

// ---- XDMF -----------------------------------------------------------------------------------

const std::vector<std::string> xdmf_fields{"theta_prime", "u", "w"};

/// Writes snapshots of three output times and, after each, the series' XDMF index.
fs::path write_series(const fs::path& dir, Snapshot snapshot) {
  std::vector<XdmfEntry> entries;
  for (long step : {0L, 100L, 200L}) {
    snapshot.step = step;
    snapshot.time = 0.5 * static_cast<double>(step);
    const std::string name = "thermal_" + std::to_string(step) + ".h5";
    write_snapshot(dir / name, snapshot, xdmf_fields, 1);
    entries.push_back({name, snapshot.time});
    write_xdmf(dir / "thermal.xmf", XdmfMesh{snapshot.nx, snapshot.nz, snapshot.dx, snapshot.dz}, xdmf_fields, entries);
  }
  return dir / "thermal.xmf";
}

std::vector<hsize_t> parse_dims(const std::string& text) {
  std::istringstream in(text);
  return {std::istream_iterator<hsize_t>(in), std::istream_iterator<hsize_t>()};
}

TEST_F(SnapshotFiles, XdmfReferencesDatasetsOfMatchingShape) {
  const fs::path xmf = write_series(dir_, snapshot_of(model_2d));
  const std::string xml = testing::read_text(xmf);
  EXPECT_EQ(xml.rfind("<?xml", 0), 0u);
  EXPECT_FALSE(fs::exists(xmf.string() + ".tmp"));
  const std::regex topology(R"(<Topology TopologyType="3DCoRectMesh" Dimensions="2 71 301"/>)");
  EXPECT_EQ(std::distance(std::sregex_iterator(xml.begin(), xml.end(), topology), std::sregex_iterator()), 3);
  const std::regex item(R"re(<DataItem Dimensions="([0-9 ]+)"[^>]*>([^<:]+):/([^<]+)</DataItem>)re");
  int items = 0;
  for (auto match = std::sregex_iterator(xml.begin(), xml.end(), item); match != std::sregex_iterator(); ++match) {
    ++items;
    const fs::path file = dir_ / (*match)[2].str();
    ASSERT_TRUE(fs::exists(file)) << file;
    const FileHandle snapshot_file = open_file(file);
    EXPECT_GT(H5Lexists(snapshot_file.get(), (*match)[3].str().c_str(), H5P_DEFAULT), 0) << (*match)[0];
    EXPECT_EQ(dims_of(snapshot_file.get(), (*match)[3].str()), parse_dims((*match)[1].str())) << (*match)[0];
  }
  EXPECT_EQ(items, 3 * static_cast<int>(xdmf_fields.size()));  // the mesh is given inline
}

TEST_F(SnapshotFiles, TheXdmfIndexGivesTheFieldsBytesAndTheMeshsAsDoubles) {
  for (const int bytes : {8, 4}) {
    XdmfMesh mesh{300, 70, 62.5, 125.0};
    mesh.value_bytes = bytes;
    write_xdmf(dir_ / "index.xmf", mesh, {"u", "w"}, {{"fields_000000.nc", 0.0}});
    const std::string xml = testing::read_text(dir_ / "index.xmf");
    for (const std::string field : {"u", "w"})
      EXPECT_NE(xml.find(fmt::format(R"(NumberType="Float" Precision="{}" Format="HDF">fields_000000.nc:/{}<)", bytes,
                                     field)),
                std::string::npos)
          << xml;
    EXPECT_NE(xml.find(R"(NumberType="Float" Precision="8" Format="XML">0 0 0<)"), std::string::npos) << xml;
  }
}

TEST_F(SnapshotFiles, XdmfIsWellFormedXml) {
  const char* python = "/usr/bin/python3";
  if (::access(python, X_OK) != 0) GTEST_SKIP() << python << " not found";
  const fs::path xmf = dir_ / "odd.xmf";
  write_xdmf(xmf, XdmfMesh{300, 70, 62.5, 125.0}, {"u", "w"}, {{"a&b<1>.h5", 0.0}, {"c\"d'.h5", 1e-3}});
  std::ofstream(dir_ / "check.py") << R"(import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
series = root.find("Domain/Grid")
grids = series.findall("Grid")
assert root.tag == "Xdmf" and series.get("CollectionType") == "Temporal" and len(grids) == 2
assert all(g.find("Topology").get("TopologyType") == "3DCoRectMesh" for g in grids)
assert all(g.find("Topology").get("Dimensions") == "2 71 301" for g in grids)
assert all(g.find("Geometry").get("GeometryType") == "ORIGIN_DXDYDZ" for g in grids)
assert all([d.text for d in g.findall("Geometry/DataItem")] == ["0 0 0", "0 125 62.5"] for g in grids)
assert [g.find("Time").get("Value") for g in grids] == ["0", "0.001"]
assert grids[0].find("Attribute/DataItem").text == "a&b<1>.h5:/u"
assert grids[1].find("Attribute/DataItem").text == "c\"d'.h5:/u"
assert all(g.find("Attribute/DataItem").get("Dimensions") == "1 70 300" for g in grids)
)";
  const std::string command = std::string(python) + " " + (dir_ / "check.py").string() + " " + xmf.string();
  EXPECT_EQ(std::system(command.c_str()), 0) << testing::read_text(xmf);
}

/// The numbers of a whitespace-separated list.
std::vector<double> numbers_in(const std::string& text) {
  std::istringstream in(text);
  return {std::istream_iterator<double>(in), std::istream_iterator<double>()};
}

TEST_F(SnapshotFiles, TheXdmfIndexIsA3dMeshOfTheCellsWithTheirTrueBounds) {
  const Snapshot snapshot = snapshot_of(model_3d);
  const int nx = snapshot.nx, ny = snapshot.ny, nz = snapshot.nz;
  const double dx = snapshot.dx, dy = snapshot.dy, dz = snapshot.dz;
  const std::vector<std::string> fields{"u", "v"};
  write_snapshot(dir_ / "fields_000007.nc", snapshot, fields, 0);
  const fs::path path = dir_ / "fields.xmf";
  write_xdmf(path, {nx, nz, dx, dz, ny, dy}, fields, {{"fields_000007.nc", snapshot.time}});
  std::ifstream in(path);
  const std::string xml{std::istreambuf_iterator<char>(in), {}};

  const std::regex mesh_nodes(R"re(<Topology TopologyType="3DCoRectMesh" Dimensions="([^"]+)"/>)re");
  std::smatch topology;
  ASSERT_TRUE(std::regex_search(xml, topology, mesh_nodes)) << xml;
  const std::vector<double> nodes = numbers_in(topology[1].str());  // z, y, x: slowest first
  EXPECT_EQ(nodes, (std::vector<double>{nz + 1.0, ny + 1.0, nx + 1.0}));
  const std::regex origin_and_spacing(
      R"re(<Geometry GeometryType="ORIGIN_DXDYDZ">\s*<DataItem[^>]*>([^<]*)</DataItem>\s*)re"
      R"re(<DataItem[^>]*>([^<]*)</DataItem>)re");
  std::smatch geometry;
  ASSERT_TRUE(std::regex_search(xml, geometry, origin_and_spacing)) << xml;
  const std::vector<double> origin = numbers_in(geometry[1].str()), spacing = numbers_in(geometry[2].str());
  EXPECT_EQ(origin, (std::vector<double>{0.0, 0.0, 0.0}));
  EXPECT_EQ(spacing, (std::vector<double>{dz, dy, dx}));

  // The mesh spans the snapshot's cells: from 0 to the last cell edge along z, y and x.
  const FileHandle file = open_file(dir_ / "fields_000007.nc");
  ASSERT_EQ(nodes.size(), 3u);
  ASSERT_EQ(spacing.size(), 3u);
  const std::array<const char*, 3> axis_bounds{"z_bnds", "y_bnds", "x_bnds"};
  for (std::size_t axis = 0; axis < 3; ++axis)
    EXPECT_EQ((nodes[axis] - 1) * spacing[axis], read_values(file.get(), axis_bounds[axis]).back())
        << axis_bounds[axis];

  // Each field's cells: the snapshot's dataset of the same shape, read as it is.
  const std::regex item(R"re(<Attribute Name="([^"]+)"[^>]*>\s*<DataItem Dimensions="([0-9 ]+)"[^>]*Format="HDF">)re"
                        R"re(([^<:]+):/([^<]+)</DataItem>)re");
  std::vector<std::string> attributes;
  for (auto match = std::sregex_iterator(xml.begin(), xml.end(), item); match != std::sregex_iterator(); ++match) {
    attributes.push_back((*match)[1].str());
    EXPECT_EQ((*match)[3].str(), "fields_000007.nc");
    EXPECT_EQ((*match)[4].str(), (*match)[1].str());
    std::vector<hsize_t> dims;
    for (const double n : numbers_in((*match)[2].str())) dims.push_back(static_cast<hsize_t>(n));
    EXPECT_EQ(dims, dims_of(file.get(), (*match)[4].str())) << (*match)[0];
    EXPECT_EQ(dims, field_shape(snapshot)) << (*match)[0];
  }
  EXPECT_EQ(attributes, fields);
}

}  // namespace
}  // namespace simapp::io
