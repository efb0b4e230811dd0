/// Both ways of writing a snapshot from several ranks give the same datasets and attributes:
/// each rank writing its block into the file rank 0 laid out, and the gathered grid written by
/// rank 0. Run under mpiexec (1, 2 and 4 ranks).
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <span>
#include <vector>

#include "io/files/new_file.hpp"
#include "io/hdf5/hdf5_reader.hpp"
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

/// This rank's part of a snapshot: a smooth, non-trivial state and background, the same
/// whichever rank holds a cell.
struct RankSnapshot {
  explicit RankSnapshot(const RankBox& rank_box)
      : box(rank_box), interior(rank_interior(box, [](int v, int z, int x) {
          return 0.001 * (v + 1) * std::sin(0.3 * x + 0.2 * z) + (v == var::umom ? 5.0 : 0.0);
        })) {
    for (int k = 0; k < nz; ++k) {
      global.density_cell.push_back(1.2 * std::exp(-k / 20.0));
      global.rho_theta_cell.push_back(300.0 * global.density_cell.back());
    }
  }

  io::SnapshotBlock block() const {
    const auto rows = [&](const std::vector<double>& column) {
      return std::span<const double>(column).subspan(static_cast<std::size_t>(box.k_offset),
                                                     static_cast<std::size_t>(box.nz));
    };
    return {
        box.nx, box.nz, box.i_offset, box.k_offset, interior, rows(global.density_cell), rows(global.rho_theta_cell)};
  }

  RankBox box;
  std::vector<double> interior;
  io::Snapshot global{12, 34.5, nx, nz, 100.0, 100.0, "thermal", "case: thermal\n", "0.1.0", "abc", {}, {}, {}};
};

TEST(SnapshotPathsMpiTest, BlockAndGatheredWritesGiveTheSameDatasets) {
  const Decomposition decomposition(MPI_COMM_WORLD, GridSpec{nx, nz, 3700.0, 1400.0}, ParallelSpec{});
  const RankSnapshot mine(decomposition.box());
  const io::Snapshot& global = mine.global;
  const io::SnapshotBlock block = mine.block();
  const std::vector<double>& interior = mine.interior;

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
    datasets.insert(datasets.end(), {"time", "x", "z", "x_bnds", "z_bnds"});
    for (const std::string& name : datasets) {
      const std::vector<double> a = io::read_dataset(blocks, name), b = io::read_dataset(gathered, name);
      ASSERT_EQ(a.size(), b.size()) << name;
      EXPECT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(double)), 0) << name;
    }
    EXPECT_FALSE(fs::exists(directory / ".simapp_tmp")) << "no unfinished file is left";
    fs::remove_all(directory);
  }
}

/// A snapshot written on a thread reads its block only until release_block() returns: what
/// the caller writes into the block afterwards is not in the file, which equals one written at
/// once. Destroyed unfinished, it leaves no file.
TEST(SnapshotPathsMpiTest, AThreadedWriteReadsItsBlockOnlyUntilReleased) {
  const Decomposition decomposition(MPI_COMM_WORLD, GridSpec{nx, nz, 3700.0, 1400.0}, ParallelSpec{});
  RankSnapshot mine(decomposition.box());
  const fs::path directory = testing::job_scratch_directory("simapp_snapshot_thread_mpi_test");
  if (decomposition.rank() == 0) {
    fs::remove_all(directory);
    fs::create_directories(directory);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  const std::vector<std::string> fields{"rho_prime", "u", "w", "theta_prime"};
  io::write_snapshot_blocks(directory / "at_once.h5", mine.global, mine.block(), fields, decomposition.comm());
  {
    io::SnapshotWrite threaded(directory / "threaded.h5", mine.global, mine.block(), fields, decomposition.comm());
    EXPECT_GE(threaded.release_block(), 0.0);
    std::ranges::fill(mine.interior, std::nan(""));  // the next state copy lands here
    threaded.finish();
    EXPECT_GE(threaded.thread_seconds(), 0.0);
  }
  {
    const io::SnapshotWrite abandoned(directory / "abandoned.h5", mine.global, mine.block(), fields,
                                      decomposition.comm());
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (decomposition.rank() == 0) {
    for (const std::string& name : fields) {
      const std::vector<double> a = io::read_dataset(directory / "at_once.h5", name);
      const std::vector<double> b = io::read_dataset(directory / "threaded.h5", name);
      ASSERT_EQ(a.size(), b.size()) << name;
      EXPECT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(double)), 0) << name;
    }
    EXPECT_FALSE(fs::exists(directory / "abandoned.h5"));
    EXPECT_FALSE(fs::exists(io::unfinished_path(directory / "abandoned.h5")));
    fs::remove_all(directory);
  }
}

}  // namespace
}  // namespace simapp
