/// Snapshots of the 3-D model (ny > 1): fields [1][nz][ny][nx] on (time, z, y, x), the y
/// coordinate and its bounds, ny and dy, v = vmom / ρ; a rank's block written where its cells
/// are; the XDMF index of a 3-D mesh; a 2-D snapshot holds none of the y axis.
#include <gtest/gtest.h>
#include <hdf5.h>
#include <mpi.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "io/hdf5/hdf5_handle.hpp"
#include "io/hdf5/hdf5_reader.hpp"
#include "io/hdf5/snapshot_writer.hpp"
#include "io/xdmf/xdmf_writer.hpp"
#include "tests/support/bitwise_equal.hpp"
#include "tests/support/hdf5_reading.hpp"

namespace simapp::io {
namespace {

namespace fs = std::filesystem;
using testing::bitwise_equal;
using testing::dims_of;
using testing::read_values;

constexpr int nx = 6, ny = 4, nz = 3;
constexpr double dx = 500.0, dy = 250.0, dz = 400.0;

/// The value of variable v (dens, umom, vmom, wmom, rhot) at cell (k, j, i): distinct everywhere.
double value_of(int v, int k, int j, int i) {
  return (v == 0 ? -1e-3 : 1.0) * (1.0 + v + 0.1 * k + 0.01 * j + 0.001 * i);
}

std::size_t cell(int k, int j, int i) { return (static_cast<std::size_t>(k) * ny + j) * nx + i; }

Snapshot snapshot_3d() {
  Snapshot snapshot;
  snapshot.step = 7;
  snapshot.time = 12.5;
  snapshot.nx = nx;
  snapshot.ny = ny;
  snapshot.nz = nz;
  snapshot.dx = dx;
  snapshot.dy = dy;
  snapshot.dz = dz;
  snapshot.case_name = "thermal";
  snapshot.input_yaml = "grid:\n  ny: 4\n";
  snapshot.version = "0.1.0";
  snapshot.git_hash = "0123456789abcdef";
  for (int v = 0; v < 5; ++v)
    for (int k = 0; k < nz; ++k)
      for (int j = 0; j < ny; ++j)
        for (int i = 0; i < nx; ++i) snapshot.state.push_back(value_of(v, k, j, i));
  for (int k = 0; k < nz; ++k) {
    snapshot.density_cell.push_back(1.2 - 0.1 * k);
    snapshot.rho_theta_cell.push_back(300.0 * (1.2 - 0.1 * k));
  }
  return snapshot;
}

/// The field's values computed here from the documented formulas, [k][j][i].
std::vector<double> expected(const Snapshot& snapshot, const std::string& field) {
  std::vector<double> values;
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        const double rho = snapshot.density_cell[k] + value_of(0, k, j, i);
        if (field == "u") values.push_back(value_of(1, k, j, i) / rho);
        if (field == "v") values.push_back(value_of(2, k, j, i) / rho);
        if (field == "w") values.push_back(value_of(3, k, j, i) / rho);
        if (field == "vmom") values.push_back(value_of(2, k, j, i));
        if (field == "rhot") values.push_back(value_of(4, k, j, i));
      }
  return values;
}

class Snapshot3dTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("simapp_snapshot_3d_test_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path dir_;
  const Snapshot snapshot_ = snapshot_3d();
};

TEST_F(Snapshot3dTest, FieldsAreOnTimeZYXWithTheirCoordinates) {
  const std::vector<std::string> fields{"u", "v", "w", "vmom", "rhot"};
  const fs::path path = dir_ / "fields.h5";
  write_snapshot(path, snapshot_, fields, 0);
  const Hdf5Reader reader(path, ExitCode::bad_input);
  EXPECT_EQ(reader.read_attribute<int>("ny"), ny);
  EXPECT_EQ(reader.read_attribute<double>("dy"), dy);
  const FileHandle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  for (const std::string& field : fields) {
    EXPECT_EQ(dims_of(file.get(), field), (std::vector<hsize_t>{1, nz, ny, nx})) << field;
    EXPECT_TRUE(bitwise_equal(read_values(file.get(), field), expected(snapshot_, field))) << field;
  }
  EXPECT_TRUE(bitwise_equal(read_values(file.get(), "y"), std::vector<double>{125.0, 375.0, 625.0, 875.0}));
  EXPECT_TRUE(bitwise_equal(read_values(file.get(), "y_bnds"),
                            std::vector<double>{0.0, 250.0, 250.0, 500.0, 500.0, 750.0, 750.0, 1000.0}));
}

TEST_F(Snapshot3dTest, CompressedFieldsHoldTheSameValues) {
  const fs::path path = dir_ / "deflated.h5";
  write_snapshot(path, snapshot_, {"v", "rhot"}, 4);
  const FileHandle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  EXPECT_TRUE(bitwise_equal(read_values(file.get(), "v"), expected(snapshot_, "v")));
  EXPECT_TRUE(bitwise_equal(read_values(file.get(), "rhot"), expected(snapshot_, "rhot")));
}

TEST_F(Snapshot3dTest, ARanksBlockIsWrittenWhereItsCellsAre) {
  // One rank's block of cells i 2..5, j 1..2, k 1..2 (MPI_COMM_SELF: the rank is the writer).
  constexpr int bx = 4, by = 2, bz = 2, i0 = 2, j0 = 1, k0 = 1;
  std::vector<double> state;
  for (int v = 0; v < 5; ++v)
    for (int k = 0; k < bz; ++k)
      for (int j = 0; j < by; ++j)
        for (int i = 0; i < bx; ++i) state.push_back(value_of(v, k0 + k, j0 + j, i0 + i));
  const SnapshotBlock block{bx,
                            bz,
                            i0,
                            k0,
                            state,
                            std::span<const double>(snapshot_.density_cell).subspan(k0, bz),
                            std::span<const double>(snapshot_.rho_theta_cell).subspan(k0, bz),
                            by,
                            j0};
  const fs::path path = dir_ / "block.h5";
  write_snapshot_blocks(path, snapshot_, block, {"v", "rhot"}, MPI_COMM_SELF);
  const FileHandle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  for (const std::string field : {"v", "rhot"}) {
    const std::vector<double> values = read_values(file.get(), field), whole = expected(snapshot_, field);
    for (int k = 0; k < nz; ++k)
      for (int j = 0; j < ny; ++j)
        for (int i = 0; i < nx; ++i) {
          const bool in_block = k >= k0 && k < k0 + bz && j >= j0 && j < j0 + by && i >= i0 && i < i0 + bx;
          EXPECT_EQ(values[cell(k, j, i)], in_block ? whole[cell(k, j, i)] : 0.0)
              << field << " k " << k << " j " << j << " i " << i;
        }
  }
}

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
    std::vector<double> both = expected(snapshot_, "v");
    const std::vector<double> second = expected(later, "v");
    both.insert(both.end(), second.begin(), second.end());
    EXPECT_TRUE(bitwise_equal(read_values(file.get(), "v"), both));
  }

  Snapshot other_grid = snapshot_;
  other_grid.ny = 2;
  other_grid.state.resize(other_grid.state.size() / 2);
  const std::string message = [&] {
    try {
      series.append(other_grid);
    } catch (const Error& error) {
      return std::string(error.what());
    }
    return std::string("no error");
  }();
  EXPECT_NE(message.find("the series is of a grid of 6 x 4 x 3 cells, the run's 6 x 2 x 3"), std::string::npos)
      << message;
}

TEST_F(Snapshot3dTest, A2DSnapshotHoldsNoYAxis) {
  Snapshot flat;
  flat.nx = nx;
  flat.nz = nz;
  flat.dx = dx;
  flat.dz = dz;
  flat.state.assign(4 * nx * nz, 0.0);
  flat.density_cell.assign(nz, 1.0);
  flat.rho_theta_cell.assign(nz, 300.0);
  const fs::path path = dir_ / "flat.h5";
  write_snapshot(path, flat, {"u"}, 0);
  const Hdf5Reader reader(path, ExitCode::bad_input);
  EXPECT_FALSE(reader.has_attribute("ny"));
  EXPECT_FALSE(reader.has_attribute("dy"));
  EXPECT_FALSE(reader.has_dataset("y"));
  EXPECT_FALSE(reader.has_dataset("y_bnds"));
  const FileHandle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  EXPECT_EQ(dims_of(file.get(), "u"), (std::vector<hsize_t>{1, nz, nx}));
}

TEST_F(Snapshot3dTest, TheXdmfIndexIsA3dMeshOfTheCells) {
  const fs::path path = dir_ / "fields.xmf";
  write_xdmf(path, {nx, nz, dx, dz, ny, dy}, {"v"}, {{"fields_000007.h5", 12.5}});
  std::ifstream in(path);
  const std::string xml{std::istreambuf_iterator<char>(in), {}};
  EXPECT_NE(xml.find(R"(<Topology TopologyType="3DCoRectMesh" Dimensions="4 5 7"/>)"), std::string::npos) << xml;
  EXPECT_NE(xml.find(">400 250 500</DataItem>"), std::string::npos) << "spacing dz, dy, dx:\n" << xml;
  EXPECT_NE(xml.find(R"(<DataItem Dimensions="1 3 4 6" NumberType="Float" Precision="8" Format="HDF">)"
                     "fields_000007.h5:/v</DataItem>"),
            std::string::npos)
      << xml;
}

}  // namespace
}  // namespace simapp::io
