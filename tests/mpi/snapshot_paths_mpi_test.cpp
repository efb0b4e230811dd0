/// Both ways of writing a snapshot from several ranks give the same datasets and attributes:
/// each rank writing its block into the file rank 0 laid out, and the gathered grid written by
/// rank 0. Run under mpiexec (1, 2 and 4 ranks).
#include <gtest/gtest.h>
#include <mpi.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <span>
#include <vector>

#include "io/hdf5/snapshot_writer.hpp"
#include "kernels/physics/variables.hpp"
#include "solver/decomposition/decomposition.hpp"
#include "solver/decomposition/gather_state.hpp"
#include "tests/support/mpi_scratch.hpp"

namespace simapp {
namespace {

namespace fs = std::filesystem;

constexpr int nx = 37, nz = 14;

/// This rank's interior state [var][k][i], value(v, global k, global i) in each cell.
template <class Value>
std::vector<double> rank_interior(const RankBox& box, Value value) {
  std::vector<double> interior;
  for (int v = 0; v < var::count; ++v)
    for (int k = 0; k < box.nz; ++k)
      for (int i = 0; i < box.nx; ++i) interior.push_back(value(v, box.k_offset + k, box.i_offset + i));
  return interior;
}

TEST(GatherMpiTest, EveryCellLandsInItsGlobalPlaceWhateverTheMessageSize) {
  const Decomposition decomposition(MPI_COMM_WORLD, GridSpec{nx, nz, 3700.0, 1400.0}, ParallelSpec{});
  // Each value names its own cell: v * 1000000 + global k * 1000 + global i.
  const std::vector<double> interior =
      rank_interior(decomposition.box(), [](int v, int k, int i) { return v * 1e6 + k * 1e3 + i; });
  for (const std::size_t largest : {std::size_t{1}, std::size_t{7}, max_message_values}) {
    const std::vector<double> global = gather_interior(decomposition, interior, largest);
    if (decomposition.rank() != 0) {
      EXPECT_TRUE(global.empty());
      continue;
    }
    ASSERT_EQ(global.size(), static_cast<std::size_t>(nx) * nz * var::count);
    for (int v = 0; v < var::count; ++v)
      for (int k = 0; k < nz; ++k)
        for (int i = 0; i < nx; ++i)
          ASSERT_EQ(global[(static_cast<std::size_t>(v) * nz + k) * nx + i], v * 1e6 + k * 1e3 + i)
              << "messages of " << largest;
  }
}

TEST(SnapshotPathsMpiTest, BlockAndGatheredWritesGiveTheSameDatasets) {
  const Decomposition decomposition(MPI_COMM_WORLD, GridSpec{nx, nz, 3700.0, 1400.0}, ParallelSpec{});
  const RankBox box = decomposition.box();

  // A smooth, non-trivial state and background, the same whichever rank holds a cell.
  const std::vector<double> interior = rank_interior(box, [](int v, int z, int x) {
    return 0.001 * (v + 1) * std::sin(0.3 * x + 0.2 * z) + (v == var::umom ? 5.0 : 0.0);
  });
  std::vector<double> density, rho_theta;
  for (int k = 0; k < nz; ++k) {
    density.push_back(1.2 * std::exp(-k / 20.0));
    rho_theta.push_back(300.0 * density.back());
  }
  io::Snapshot global{12, 34.5, nx, nz, 100.0, 100.0, "thermal", "case: thermal\n", "0.1.0", "abc", {}, density,
                      rho_theta};
  const auto rows = [&](const std::vector<double>& column) {
    return std::span<const double>(column).subspan(static_cast<std::size_t>(box.k_offset),
                                                  static_cast<std::size_t>(box.nz));
  };
  const io::SnapshotBlock block{box.nx, box.nz, box.i_offset, box.k_offset, interior, rows(density), rows(rho_theta)};

  const fs::path directory = testing::job_scratch_directory("simapp_snapshot_paths_mpi_test");
  if (decomposition.rank() == 0) {
    fs::remove_all(directory);
    fs::create_directories(directory);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  const std::vector<std::string> fields{"rho_prime", "u", "w", "theta_prime", "dens", "umom", "wmom", "rhot"};
  const fs::path blocks = directory / "blocks.h5";
  const fs::path gathered = directory / "gathered.h5";
  io::write_snapshot_blocks(blocks, global, block, fields, decomposition.comm());
  io::Snapshot whole = global;
  whole.state = gather_interior(decomposition, interior);
  if (decomposition.rank() == 0) io::write_snapshot(gathered, whole, fields, 0);
  MPI_Barrier(MPI_COMM_WORLD);
  if (decomposition.rank() == 0) {
    std::vector<std::string> datasets = fields;
    datasets.insert(datasets.end(), {"x", "z", "x_nodes", "z_nodes"});
    for (const std::string& name : datasets) {
      const std::vector<double> a = io::read_dataset(blocks, name), b = io::read_dataset(gathered, name);
      ASSERT_EQ(a.size(), b.size()) << name;
      EXPECT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(double)), 0) << name;
    }
    EXPECT_FALSE(fs::exists(directory / ".simapp_tmp")) << "no unfinished file is left";
    fs::remove_all(directory);
  }
}

}  // namespace
}  // namespace simapp
