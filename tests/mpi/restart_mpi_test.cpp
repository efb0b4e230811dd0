/// Restart: a run of 2N steps equals, bit for bit, N steps + checkpoint + restart + N steps,
/// also when the restart runs on another rank count (the checkpoint holds the global state),
/// and reports the same d_mass and d_te.
/// Run under mpiexec with 1 and 4 ranks.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstring>
#include <filesystem>
#include <vector>

#include "io/checkpoint/checkpoint.hpp"
#include "solver/simulation/run_loop.hpp"
#include "tests/support/mpi_scratch.hpp"
#include "tests/support/small_case.hpp"

namespace simapp {
namespace {

namespace fs = std::filesystem;

TEST(RestartMpiTest, InterruptedRunContinuesBitForBitOnAnyRankCount) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  RunSpec spec = testing::small_case(CaseName::injection, 41, 22, 1.0);
  spec.time.sim_time =
      17.5 * TimeStepping(1.0, spec.grid.xlen / 41, spec.grid.zlen / 22, spec.time.cfl).dt();  // 18 steps
  const fs::path directory = testing::job_scratch_directory("simapp_restart_mpi_test");

  // Rank 0 alone: the uninterrupted run, and the first half with its checkpoint.
  std::vector<double> uninterrupted;
  RunResult whole_result;
  if (rank == 0) {
    fs::remove_all(directory);
    fs::create_directories(directory);
    testing::SerialSimulation whole(spec, Backend::host, ExecutionMode::graph);
    whole_result = run_to_end(*whole, 0, [](const ProgressReport&) {});
    uninterrupted = whole->gathered_state();

    testing::SerialSimulation first(spec, Backend::host, ExecutionMode::graph);
    while (first->step() < 9) first->advance_chunk(9 - first->step());
    const Diagnostics initial = testing::SerialSimulation(spec, Backend::host, ExecutionMode::graph)->diagnostics();
    io::write_checkpoint(directory,
                         {first->step(), first->time(), io::physics_hash(spec), 41, 22, initial.mass,
                          initial.total_energy, "injection", spec.grid.xlen, spec.grid.zlen},
                         first->gathered_state(), "");
  }
  MPI_Barrier(MPI_COMM_WORLD);

  // Every rank: the second half from the checkpoint.
  const fs::path checkpoint = io::latest_checkpoint(directory).value();
  const io::CheckpointHeader header = io::read_checkpoint_header(checkpoint);
  EXPECT_EQ(header.step, 9);
  EXPECT_EQ(header.config_hash, io::physics_hash(spec));
  const Decomposition decomposition(MPI_COMM_WORLD, spec.grid, spec.parallel);
  Simulation second(spec, Backend::host, ExecutionMode::graph, decomposition);
  second.restore(header.step, io::read_checkpoint_block(checkpoint, decomposition.box()));
  EXPECT_EQ(second.time(), header.time);
  // The same checkpoint written again by every rank from its block: the same header and state,
  // bit for bit, and checksums that verify (HDF5 may leave unused metadata bytes unset, so the
  // files are compared by content, not byte for byte).
  const fs::path again = directory / "by_blocks";
  if (rank == 0) fs::create_directories(again);
  MPI_Barrier(MPI_COMM_WORLD);
  io::write_checkpoint(again, header, decomposition.box(), io::read_checkpoint_block(checkpoint, decomposition.box()),
                       "", MPI_COMM_WORLD);
  if (rank == 0) {
    const fs::path rewritten = io::checkpoint_path(again, header.step);
    const RankBox whole{41, 22, 0, 0};
    const std::vector<double> a = io::read_checkpoint_block(rewritten, whole),
                              b = io::read_checkpoint_block(checkpoint, whole);
    ASSERT_EQ(a.size(), b.size());
    EXPECT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(double)), 0)
        << decomposition.size() << " rank(s): the state written by blocks differs";
    const io::CheckpointHeader read_again = io::read_checkpoint_header(rewritten);
    EXPECT_EQ(read_again.step, header.step);
    EXPECT_EQ(read_again.time, header.time);
    EXPECT_EQ(read_again.config_hash, header.config_hash);
  }
  const RunResult second_result = run_to_end(
      second, 0, [](const ProgressReport&) {}, {},
      Diagnostics{header.initial_mass, header.initial_total_energy, header.initial_tracer_mass});
  const std::vector<double> restarted = second.gathered_state();

  if (rank == 0) {
    ASSERT_EQ(restarted.size(), uninterrupted.size());
    EXPECT_EQ(std::memcmp(restarted.data(), uninterrupted.data(), restarted.size() * sizeof(double)), 0)
        << decomposition.size() << " rank(s)";
    // The restarted run reports the changes the uninterrupted run reports.
    EXPECT_EQ(second_result.change.mass, whole_result.change.mass);
    EXPECT_EQ(second_result.change.total_energy, whole_result.change.total_energy);
    fs::remove_all(directory);
  }
}

}  // namespace
}  // namespace simapp
