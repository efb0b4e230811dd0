/// Snapshots of the 3-D model (ny > 1): fields [1][nz][ny][nx] on (time, z, y, x), the y
/// coordinate and its bounds, ny and dy, v = vmom / ρ; rank blocks written where their cells
/// are; compressed chunks; series of 3-D times and the grids a series is continued with; the
/// XDMF index of a 3-D mesh; a 2-D file holds none of the y axis.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <hdf5.h>
#include <hdf5_hl.h>
#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <array>
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
#include "io/hdf5/snapshot_writer.hpp"
#include "io/xdmf/xdmf_writer.hpp"
#include "tests/support/bitwise_equal.hpp"
#include "tests/support/error_of.hpp"
#include "tests/support/hdf5_reading.hpp"

namespace simapp::io {
namespace {

namespace fs = std::filesystem;
using testing::bitwise_equal;
using testing::dims_of;
using testing::error_of;
using testing::read_values;

/// Cells of a 3-D grid.
struct Cells {
  int nx = 0, ny = 0, nz = 0;
};

constexpr Cells small_grid{6, 4, 3};
constexpr int nx = small_grid.nx, ny = small_grid.ny, nz = small_grid.nz;
constexpr double dx = 500.0, dy = 250.0, dz = 400.0;

const std::vector<std::string> fields_3d{"rho_prime", "u",    "v",    "w",    "theta_prime",
                                         "dens",      "umom", "vmom", "wmom", "rhot"};

/// The value of variable v (dens, umom, vmom, wmom, rhot) at cell (k, j, i): distinct over the
/// small grid, and varying along every axis.
double value_of(int v, int k, int j, int i) {
  return (v == 0 ? -1e-3 : 1.0) * (1.0 + v + 0.1 * k + 0.01 * j + 0.001 * i);
}

/// Where cell (k, j, i) of the small grid is in a field, [k][j][i].
std::size_t cell(int k, int j, int i) { return (static_cast<std::size_t>(k) * ny + j) * nx + i; }

Snapshot snapshot_3d(const Cells& grid = small_grid) {
  Snapshot snapshot;
  snapshot.step = 7;
  snapshot.time = 12.5;
  snapshot.nx = grid.nx;
  snapshot.ny = grid.ny;
  snapshot.nz = grid.nz;
  snapshot.dx = dx;
  snapshot.dy = dy;
  snapshot.dz = dz;
  snapshot.case_name = "thermal";
  snapshot.input_yaml = "grid:\n  ny: 4\n";
  snapshot.version = "0.1.0";
  snapshot.git_hash = "0123456789abcdef";
  for (int v = 0; v < 5; ++v)
    for (int k = 0; k < grid.nz; ++k)
      for (int j = 0; j < grid.ny; ++j)
        for (int i = 0; i < grid.nx; ++i) snapshot.state.push_back(value_of(v, k, j, i));
  for (int k = 0; k < grid.nz; ++k) {
    snapshot.density_cell.push_back(1.2 - 0.1 * k);
    snapshot.rho_theta_cell.push_back(300.0 * (1.2 - 0.1 * k) * (1.0 + 1e-3 * k));
  }
  return snapshot;
}

/// A snapshot of the 2-D model (ny = 1: no y axis) of nx × nz cells.
Snapshot snapshot_2d() {
  Snapshot flat;
  flat.step = 7;
  flat.time = 12.5;
  flat.nx = nx;
  flat.nz = nz;
  flat.dx = dx;
  flat.dz = dz;
  flat.state.assign(4 * nx * nz, 0.0);
  flat.density_cell.assign(nz, 1.0);
  flat.rho_theta_cell.assign(nz, 300.0);
  return flat;
}

/// The documented value of `field` at cell (k, j, i), computed here from the formulas with the
/// background of layer k: ρ = ρ̄_c(k) + dens, velocities momentum / ρ, θ′ = (ρ̄θ̄_c + rhot)/ρ − ρ̄θ̄_c/ρ̄_c.
double expected_value(const Snapshot& snapshot, const std::string& field, int k, int j, int i) {
  const double dens = value_of(0, k, j, i), umom = value_of(1, k, j, i), vmom = value_of(2, k, j, i),
               wmom = value_of(3, k, j, i), rhot = value_of(4, k, j, i);
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

/// Text attribute `name` of object `object` in `file`.
std::string string_attribute(hid_t file, const std::string& object, const std::string& name) {
  if (H5Aexists_by_name(file, object.c_str(), name.c_str(), H5P_DEFAULT) <= 0) return "<no attribute " + name + ">";
  return Hdf5Reader(file, "snapshot", ExitCode::io).read_attribute<std::string>(name, object);
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

/// A rank's box of the grid: cells [i0, i0 + nx) × [j0, j0 + ny) × [k0, k0 + nz).
struct Box {
  int i0 = 0, j0 = 0, k0 = 0;
  int nx = 0, ny = 0, nz = 0;
  bool contains(int k, int j, int i) const {
    return k >= k0 && k < k0 + nz && j >= j0 && j < j0 + ny && i >= i0 && i < i0 + nx;
  }
};

/// The state of the snapshot's cells in `box`, [var][k][j][i], as a rank holds its block.
std::vector<double> state_in(const Box& box) {
  std::vector<double> state;
  for (int v = 0; v < 5; ++v)
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

class Snapshot3dTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::replace(name.begin(), name.end(), '/', '_');  // a parameterized test's "Name/0"
    dir_ = fs::temp_directory_path() / ("simapp_snapshot_3d_test_" + std::to_string(::getpid()) + "_" + name);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path dir_;
  const Snapshot snapshot_ = snapshot_3d();
};

TEST_F(Snapshot3dTest, FieldsAreOnTimeZYXWithTheirCoordinates) {
  const fs::path path = dir_ / "fields.h5";
  write_snapshot(path, snapshot_, fields_3d, 0);
  const Hdf5Reader reader(path, ExitCode::bad_input);
  EXPECT_EQ(reader.read_attribute<int>("nx"), nx);
  EXPECT_EQ(reader.read_attribute<int>("ny"), ny);  // int32, as nx
  EXPECT_EQ(reader.read_attribute<int>("nz"), nz);
  EXPECT_EQ(reader.read_attribute<double>("dy"), dy);
  const FileHandle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  for (const std::string& field : fields_3d) {
    EXPECT_EQ(dims_of(file.get(), field), (std::vector<hsize_t>{1, nz, ny, nx})) << field;
    EXPECT_EQ(dimension_names(file.get(), field), (std::vector<std::string>{"time", "z", "y", "x"})) << field;
    EXPECT_TRUE(bitwise_equal(read_values(file.get(), field), expected(snapshot_, field))) << field;
  }
  EXPECT_EQ(string_attribute(file.get(), "v", "units"), "m s-1");
  EXPECT_EQ(string_attribute(file.get(), "v", "standard_name"), "y_wind");  // as u's x_wind
  EXPECT_EQ(string_attribute(file.get(), "vmom", "units"), "kg m-2 s-1");

  EXPECT_TRUE(bitwise_equal(read_values(file.get(), "y"), points(ny, dy, 0.5)));
  std::vector<double> y_bounds;
  for (int j = 0; j < ny; ++j) y_bounds.insert(y_bounds.end(), {j * dy, (j + 1) * dy});
  EXPECT_TRUE(bitwise_equal(read_values(file.get(), "y_bnds"), y_bounds));
  EXPECT_EQ(dims_of(file.get(), "y_bnds"), (std::vector<hsize_t>{ny, 2}));
  EXPECT_EQ(dimension_names(file.get(), "y_bnds"), (std::vector<std::string>{"y", "bnds"}));
  EXPECT_EQ(H5DSis_scale(DatasetHandle(H5Dopen2(file.get(), "y", H5P_DEFAULT)).get()), 1);
  const std::map<std::string, std::string> y_attributes{
      {"units", "m"}, {"standard_name", "projection_y_coordinate"}, {"bounds", "y_bnds"}};
  for (const auto& [name, value] : y_attributes) EXPECT_EQ(string_attribute(file.get(), "y", name), value) << name;
  for (const char* axis : {"x", "y"})  // ParaView's CF reader would take axis X and Y for longitude and latitude
    EXPECT_EQ(string_attribute(file.get(), axis, "axis"), "<no attribute axis>") << axis;
  EXPECT_EQ(string_attribute(file.get(), "x", "standard_name"), "projection_x_coordinate");  // the same style
  EXPECT_EQ(string_attribute(file.get(), "y_bnds", "units"), "m");
}

TEST_F(Snapshot3dTest, AFieldIsComputedWithTheBackgroundOfItsLayer) {
  for (const std::string& field : fields_3d)
    EXPECT_TRUE(bitwise_equal(snapshot_field(snapshot_, field), expected(snapshot_, field))) << field;
}

TEST_F(Snapshot3dTest, CompressedFieldsHoldTheSameValuesInChunksOfAtMost1MiB) {
  // More than one 8 × 64 × 256 chunk each way, with partial chunks at the ends.
  const Cells grid{257, 65, 9};
  const Snapshot large = snapshot_3d(grid);
  const fs::path path = dir_ / "deflated.h5";
  write_snapshot(path, large, {"v", "rhot"}, 4);
  const FileHandle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  for (const std::string field : {"v", "rhot"}) {
    EXPECT_EQ(chunk_of(file.get(), field), (std::vector<hsize_t>{1, 8, 64, 256})) << field;
    EXPECT_TRUE(bitwise_equal(read_values(file.get(), field), expected(large, field))) << field;
  }
  write_snapshot(dir_ / "small.h5", snapshot_, {"v"}, 4);
  const FileHandle small(H5Fopen((dir_ / "small.h5").c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  EXPECT_EQ(chunk_of(small.get(), "v"), (std::vector<hsize_t>{1, nz, ny, nx})) << "a small grid in one chunk";
  EXPECT_TRUE(bitwise_equal(read_values(small.get(), "v"), expected(snapshot_, "v")));
}

TEST_F(Snapshot3dTest, ARanksBlockIsWrittenWhereItsCellsAre) {
  const Box box{2, 1, 1, 4, 2, 2};  // cells i 2..5, j 1..2, k 1..2 (MPI_COMM_SELF: the rank writes)
  const std::vector<double> state = state_in(box);
  const fs::path path = dir_ / "block.h5";
  write_snapshot_blocks(path, snapshot_, block_of(snapshot_, box, state), {"v", "rhot"}, MPI_COMM_SELF);
  const FileHandle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  for (const std::string field : {"v", "rhot"}) {
    const std::vector<double> values = read_values(file.get(), field);
    for (int k = 0; k < nz; ++k)
      for (int j = 0; j < ny; ++j)
        for (int i = 0; i < nx; ++i)
          EXPECT_EQ(values[cell(k, j, i)], box.contains(k, j, i) ? expected_value(snapshot_, field, k, j, i) : 0.0)
              << field << " k " << k << " j " << j << " i " << i;
  }
}

TEST_F(Snapshot3dTest, AWholeGridBlockWritesWhatWriteSnapshotWrites) {
  const Box whole{0, 0, 0, nx, ny, nz};
  const std::vector<double> state = state_in(whole);
  write_snapshot(dir_ / "gathered.h5", snapshot_, fields_3d, 0);
  write_snapshot_blocks(dir_ / "blocks.h5", snapshot_, block_of(snapshot_, whole, state), fields_3d, MPI_COMM_SELF);
  const FileHandle gathered(H5Fopen((dir_ / "gathered.h5").c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  const FileHandle blocks(H5Fopen((dir_ / "blocks.h5").c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  std::vector<std::string> datasets{"time", "x", "y", "z", "bnds", "x_bnds", "y_bnds", "z_bnds"};
  datasets.insert(datasets.end(), fields_3d.begin(), fields_3d.end());
  for (const std::string& name : datasets) {
    EXPECT_EQ(dims_of(blocks.get(), name), dims_of(gathered.get(), name)) << name;
    EXPECT_EQ(dimension_names(blocks.get(), name), dimension_names(gathered.get(), name)) << name;
    EXPECT_TRUE(bitwise_equal(read_values(blocks.get(), name), read_values(gathered.get(), name))) << name;
  }
  const Hdf5Reader reader(dir_ / "blocks.h5", ExitCode::bad_input);
  EXPECT_EQ(reader.read_attribute<int>("ny"), ny);
  EXPECT_EQ(reader.read_attribute<double>("dy"), dy);
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

class Snapshot3dSplitTest : public Snapshot3dTest, public ::testing::WithParamInterface<Split> {};

TEST_P(Snapshot3dSplitTest, TheBlocksOfASplitWriteEveryCellOnceWhereItIs) {
  // Each box written by one rank (MPI_COMM_SELF) into a file of its own: its cells hold the
  // box's values and the others none; together the boxes give every cell once.
  const Split split = GetParam();
  const std::size_t cells = std::size_t{nx} * ny * nz;
  std::vector<int> writes(cells, 0);
  std::map<std::string, std::vector<double>> joined;
  for (const std::string& field : fields_3d) joined[field].assign(cells, 0.0);
  for (int pz = 0; pz < split.pz; ++pz)
    for (int py = 0; py < split.py; ++py)
      for (int px = 0; px < split.px; ++px) {
        const auto [i0, bx] = part_of(nx, split.px, px);
        const auto [j0, by] = part_of(ny, split.py, py);
        const auto [k0, bz] = part_of(nz, split.pz, pz);
        const Box box{i0, j0, k0, bx, by, bz};
        const std::vector<double> state = state_in(box);
        const fs::path path = dir_ / fmt::format("block_{}_{}_{}.h5", px, py, pz);
        write_snapshot_blocks(path, snapshot_, block_of(snapshot_, box, state), fields_3d, MPI_COMM_SELF);
        const FileHandle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
        std::map<std::string, std::vector<double>> values;
        for (const std::string& field : fields_3d) values[field] = read_values(file.get(), field);
        for (int k = 0; k < nz; ++k)
          for (int j = 0; j < ny; ++j)
            for (int i = 0; i < nx; ++i) {
              const std::size_t c = cell(k, j, i);
              if (box.contains(k, j, i)) ++writes[c];
              for (const std::string& field : fields_3d) {
                if (box.contains(k, j, i))
                  joined[field][c] = values[field][c];
                else
                  EXPECT_EQ(values[field][c], 0.0) << path.filename() << " " << field << " (k, j, i) = (" << k << ", "
                                                   << j << ", " << i << ") is outside its box";
              }
            }
      }
  EXPECT_EQ(std::count(writes.begin(), writes.end(), 1), static_cast<long>(cells)) << "every cell in one box";
  for (const std::string& field : fields_3d)
    EXPECT_TRUE(bitwise_equal(joined[field], expected(snapshot_, field))) << field;
}

// 2 × 2 and 1 × 3 cuts across x, y and z: boxes spanning the grid's rows, its y, or neither.
INSTANTIATE_TEST_SUITE_P(Splits, Snapshot3dSplitTest,
                         ::testing::Values(Split{2, 2, 1}, Split{1, 2, 2}, Split{1, 3, 1}, Split{1, 1, 3},
                                           Split{3, 1, 1}, Split{2, 3, 3}));

TEST_F(Snapshot3dTest, ASeriesOfTwoTimesHoldsBoth) {
  const fs::path path = dir_ / "fields.nc";
  SnapshotSeriesFile series(path, {"v"}, 0, std::nullopt);
  series.append(snapshot_);
  Snapshot later = snapshot_;
  later.step = 8;
  later.time = 13.0;
  for (double& value : later.density_cell) value += 0.05;  // another v, the same momentum
  series.append(later);
  {
    const FileHandle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
    EXPECT_EQ(dims_of(file.get(), "v"), (std::vector<hsize_t>{2, nz, ny, nx}));
    EXPECT_EQ(dimension_names(file.get(), "v"), (std::vector<std::string>{"time", "z", "y", "x"}));
    std::vector<double> both = expected(snapshot_, "v");
    const std::vector<double> second = expected(later, "v");
    both.insert(both.end(), second.begin(), second.end());
    EXPECT_TRUE(bitwise_equal(read_values(file.get(), "v"), both));
    EXPECT_TRUE(bitwise_equal(read_values(file.get(), "y"), points(ny, dy, 0.5)));
    EXPECT_TRUE(bitwise_equal(read_values(file.get(), "time"), std::vector<double>{12.5, 13.0}));
  }
  {
    const Hdf5Reader reader(path, ExitCode::bad_input);
    EXPECT_EQ(reader.read_attribute<int>("ny"), ny);
    EXPECT_EQ(reader.read_attribute<double>("dy"), dy);
  }

  Snapshot other_grid = snapshot_;
  other_grid.ny = 2;
  other_grid.state.resize(other_grid.state.size() / 2);
  const Error error = error_of([&] { series.append(other_grid); });
  EXPECT_EQ(error.code(), ExitCode::bad_input);
  EXPECT_NE(std::string(error.what()).find("the series is of a grid of 6 x 4 x 3 cells, the run's 6 x 2 x 3"),
            std::string::npos)
      << error.what();
}

TEST_F(Snapshot3dTest, ARestartContinuesA3dSeriesAfterItsCheckpoint) {
  const fs::path path = dir_ / "fields.nc";
  Snapshot later = snapshot_;
  later.step = 8;
  later.time = 13.0;
  {
    SnapshotSeriesFile series(path, {"u", "v"}, 3, std::nullopt);
    series.append(snapshot_);
    series.append(later);
  }
  SnapshotSeriesFile continued(path, {"u", "v"}, 3, snapshot_.step);
  EXPECT_EQ(continued.times(), 1);
  for (double& value : later.density_cell) value += 0.05;  // the restarted run's step 8, another v
  continued.append(later);
  const FileHandle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  EXPECT_EQ(dims_of(file.get(), "v"), (std::vector<hsize_t>{2, nz, ny, nx}));
  std::vector<double> both = expected(snapshot_, "v");
  const std::vector<double> second = expected(later, "v");
  both.insert(both.end(), second.begin(), second.end());
  EXPECT_TRUE(bitwise_equal(read_values(file.get(), "v"), both));
}

TEST_F(Snapshot3dTest, ASeriesIsContinuedOnlyOnItsOwnGrid) {
  // A 3-D series continued by a 2-D run of the same nx and nz, and the other way round: each
  // refused, naming both grids, and left holding its time.
  const Snapshot flat = snapshot_2d();
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
  refused("3d.nc", snapshot_, flat, "the series is of a grid of 6 x 4 x 3 cells, the run's 6 x 3");
  refused("2d.nc", flat, snapshot_, "the series is of a grid of 6 x 3 cells, the run's 6 x 4 x 3");
}

TEST_F(Snapshot3dTest, A2DFileHoldsNoYAxis) {
  const Snapshot flat = snapshot_2d();
  write_snapshot(dir_ / "flat.h5", flat, {"u"}, 0);
  write_snapshot(dir_ / "deflated.h5", flat, {"u"}, 4);
  const SnapshotBlock block{nx, nz, 0, 0, flat.state, flat.density_cell, flat.rho_theta_cell};
  write_snapshot_blocks(dir_ / "blocks.h5", flat, block, {"u"}, MPI_COMM_SELF);
  SnapshotSeriesFile(dir_ / "fields.nc", {"u"}, 0, std::nullopt).append(flat);
  for (const std::string name : {"flat.h5", "deflated.h5", "blocks.h5", "fields.nc"}) {
    const Hdf5Reader reader(dir_ / name, ExitCode::bad_input);
    EXPECT_FALSE(reader.has_attribute("ny")) << name;
    EXPECT_FALSE(reader.has_attribute("dy")) << name;
    EXPECT_FALSE(reader.has_dataset("y")) << name;
    EXPECT_FALSE(reader.has_dataset("y_bnds")) << name;
    const FileHandle file(H5Fopen((dir_ / name).c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
    EXPECT_EQ(dims_of(file.get(), "u"), (std::vector<hsize_t>{1, nz, nx})) << name;
    EXPECT_EQ(dimension_names(file.get(), "u"), (std::vector<std::string>{"time", "z", "x"})) << name;
  }
}

TEST_F(Snapshot3dTest, AFieldOfThe3DModelIsRefusedInA2DSeriesAndBlock) {
  const Snapshot flat = snapshot_2d();
  const SnapshotBlock block{nx, nz, 0, 0, flat.state, flat.density_cell, flat.rho_theta_cell};
  for (const std::string name : {"v", "vmom"}) {
    const Error blocks =
        error_of([&] { write_snapshot_blocks(dir_ / "blocks.h5", flat, block, {name}, MPI_COMM_SELF); });
    const Error series =
        error_of([&] { SnapshotSeriesFile(dir_ / "fields.nc", {name}, 0, std::nullopt).append(flat); });
    const Error values = error_of([&] { snapshot_field(flat, name); });
    for (const Error& error : {blocks, series, values}) {
      EXPECT_EQ(error.code(), ExitCode::bad_input) << name;
      EXPECT_NE(std::string(error.what()).find("field '" + name + "' is of the 3-D model"), std::string::npos)
          << error.what();
    }
  }
  EXPECT_TRUE(fs::is_empty(dir_));
}

/// The numbers of a whitespace-separated list.
std::vector<double> numbers_in(const std::string& text) {
  std::istringstream in(text);
  return {std::istream_iterator<double>(in), std::istream_iterator<double>()};
}

TEST_F(Snapshot3dTest, TheXdmfIndexIsA3dMeshOfTheCellsWithTheirTrueBounds) {
  const std::vector<std::string> fields{"u", "v"};
  write_snapshot(dir_ / "fields_000007.nc", snapshot_, fields, 0);
  const fs::path path = dir_ / "fields.xmf";
  write_xdmf(path, {nx, nz, dx, dz, ny, dy}, fields, {{"fields_000007.nc", snapshot_.time}});
  std::ifstream in(path);
  const std::string xml{std::istreambuf_iterator<char>(in), {}};

  const std::regex mesh_nodes(R"re(<Topology TopologyType="3DCoRectMesh" Dimensions="([^"]+)"/>)re");
  std::smatch topology;
  ASSERT_TRUE(std::regex_search(xml, topology, mesh_nodes)) << xml;
  const std::vector<double> nodes = numbers_in(topology[1].str());  // z, y, x: slowest first
  EXPECT_EQ(nodes, (std::vector<double>{nz + 1, ny + 1, nx + 1}));
  const std::regex origin_and_spacing(
      R"re(<Geometry GeometryType="ORIGIN_DXDYDZ">\s*<DataItem[^>]*>([^<]*)</DataItem>\s*)re"
      R"re(<DataItem[^>]*>([^<]*)</DataItem>)re");
  std::smatch geometry;
  ASSERT_TRUE(std::regex_search(xml, geometry, origin_and_spacing)) << xml;
  const std::vector<double> origin = numbers_in(geometry[1].str()), spacing = numbers_in(geometry[2].str());
  EXPECT_EQ(origin, (std::vector<double>{0.0, 0.0, 0.0}));
  EXPECT_EQ(spacing, (std::vector<double>{dz, dy, dx}));

  // The mesh spans the snapshot's cells: from 0 to the last cell edge along z, y and x.
  const FileHandle file(H5Fopen((dir_ / "fields_000007.nc").c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  ASSERT_EQ(nodes.size(), 3u);
  ASSERT_EQ(spacing.size(), 3u);
  const std::array<const char*, 3> bounds{"z_bnds", "y_bnds", "x_bnds"};
  for (std::size_t axis = 0; axis < 3; ++axis)
    EXPECT_EQ((nodes[axis] - 1) * spacing[axis], read_values(file.get(), bounds[axis]).back()) << bounds[axis];

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
    EXPECT_EQ(dims, (std::vector<hsize_t>{1, nz, ny, nx})) << (*match)[0];
  }
  EXPECT_EQ(attributes, fields);
}

}  // namespace
}  // namespace simapp::io
