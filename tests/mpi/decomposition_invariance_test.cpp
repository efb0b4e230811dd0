/// Fields and diagnostics do not depend on the decomposition: a run on every rank of the
/// job, gathered on rank 0, equals bit for bit the same case run by rank 0 alone; eager,
/// graph, graph_loop (CUDA, NCCL halos or one rank) and persistent (CUDA, one rank) execution,
/// overlapped and sequential halo exchanges, and every granularity with the fused one, agree
/// bit for bit too. Run
/// under mpiexec with 1, 2, 4 and 6 ranks; the CUDA variants run where a GPU is visible, the
/// NCCL ones where every rank has a GPU of its own (label gpu).
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstring>
#include <vector>

#include "foundation/error.hpp"
#include "kernels/backend/device_runtime.hpp"
#include "solver/halo/halo_path.hpp"
#include "solver/simulation/run_loop.hpp"
#include "tests/support/mpi_world.hpp"
#include "tests/support/small_case.hpp"

namespace simapp {
namespace {

using testing::world_rank;
using testing::world_size;

struct Outcome {
  std::vector<double> state;  ///< global interior state on rank 0
  RunResult result;
};

/// The run reports progress every `progress_every` steps (0: never), which cuts it into spans.
Outcome run(const RunSpec& spec, Backend backend, ExecutionMode mode, MPI_Comm comm, int progress_every = 7) {
  const Decomposition decomposition(comm, spec.grid, spec.parallel);
  Simulation simulation(spec, backend, mode, decomposition);
  const RunResult result = run_to_end(simulation, progress_every, [](const ProgressReport&) {});
  return {simulation.gathered_state(), result};
}

using testing::bitwise_equal;

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

/// A case with a shortened last step, on an odd-sized grid so splits are uneven.
RunSpec spec_for(CaseName name, Granularity granularity, std::array<int, 2> ranks) {
  RunSpec spec = testing::small_case(name, 61, 30, 1.0);
  spec.time.sim_time = 20.5 * TimeStepping(1.0, spec.grid.xlen / 61, spec.grid.zlen / 30, spec.time.cfl).dt();
  spec.execution.granularity = granularity;
  spec.parallel.ranks = {ranks[0], 1, ranks[1]};
  if (name == CaseName::straka) spec.physics.viscosity = 2000.0;  // diffusion across rank boundaries too
  return spec;
}

struct Variant {
  CaseName name;
  Granularity granularity;
  Backend backend;
  HaloTransport halo = HaloTransport::mpi;
};

std::string where_of(int ranks, const std::array<int, 2>& layout) {
  return std::to_string(ranks) + " ranks as [" + std::to_string(layout[0]) + ", " + std::to_string(layout[1]) + "]";
}

class DecompositionInvarianceTest : public ::testing::TestWithParam<Variant> {
 protected:
  void SetUp() override {
    if (GetParam().backend == Backend::cuda && device::device_count() == 0) GTEST_SKIP() << "no CUDA device visible";
    if (GetParam().halo == HaloTransport::nccl) {
      if (!nccl_compiled()) GTEST_SKIP() << "built without NCCL";
      if (device::device_count() < world_size())
        GTEST_SKIP() << "NCCL needs a GPU per rank: " << world_size() << " ranks, " << device::device_count()
                     << " GPU(s)";
    }
    if (GetParam().backend == Backend::cuda) device::select_device(world_rank() % device::device_count());
  }
};

TEST_P(DecompositionInvarianceTest, DistributedRunEqualsSerialRunBitForBit) {
  const Variant variant = GetParam();
  int rank = 0, ranks = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  // The automatic layout and, when it differs, the transposed explicit one.
  std::vector<std::array<int, 2>> layouts{{0, 0}};
  int dims[2] = {0, 0};
  MPI_Dims_create(ranks, 2, dims);
  if (dims[0] != dims[1]) layouts.push_back({dims[1], dims[0]});

  for (const auto& layout : layouts) {
    RunSpec spec = spec_for(variant.name, variant.granularity, layout);
    spec.parallel.halo = variant.halo;
    const Outcome graph = run(spec, variant.backend, ExecutionMode::graph, MPI_COMM_WORLD);
    const Outcome eager = run(spec, variant.backend, ExecutionMode::eager, MPI_COMM_WORLD);
    const Outcome streams = variant.backend == Backend::cuda
                                ? run(spec, variant.backend, ExecutionMode::eager_streams, MPI_COMM_WORLD)
                                : eager;  // the host has one stream
    RunSpec without_overlap = spec;
    without_overlap.parallel.overlap = HaloOverlap::off;
    const Outcome sequential = run(without_overlap, variant.backend, ExecutionMode::graph, MPI_COMM_WORLD);
    RunSpec by_mpi = spec;
    by_mpi.parallel.halo = HaloTransport::mpi;
    const Outcome mpi_halos =
        variant.halo == HaloTransport::mpi ? graph : run(by_mpi, variant.backend, ExecutionMode::graph, MPI_COMM_WORLD);
    // graph_loop where steps need no host op (NCCL halos, or one rank), in one span, so that
    // its loop graph (a body of a multiple of check_every, 10, steps) runs: spans of 7 steps
    // would be run by chunks alone.
    const bool loop_possible = variant.backend == Backend::cuda && (variant.halo == HaloTransport::nccl || ranks == 1);
    const Outcome loop =
        loop_possible ? run(spec, variant.backend, ExecutionMode::graph_loop, MPI_COMM_WORLD, 0) : graph;
    if (rank != 0) continue;
    const Outcome serial =
        run(spec_for(variant.name, variant.granularity, {1, 1}), variant.backend, ExecutionMode::graph, MPI_COMM_SELF);
    EXPECT_TRUE(bitwise_equal(loop.state, graph.state)) << where_of(ranks, layout) << ": graph_loop vs graph";
    if (variant.backend == Backend::cuda && variant.granularity == Granularity::stage) {  // one rank only
      const Outcome persistent = run(spec_for(variant.name, variant.granularity, {1, 1}), variant.backend,
                                     ExecutionMode::persistent, MPI_COMM_SELF);
      EXPECT_TRUE(bitwise_equal(persistent.state, serial.state)) << "persistent vs graph on one rank";
    }
    const std::string where = where_of(ranks, layout);
    EXPECT_TRUE(bitwise_equal(graph.state, serial.state)) << where;
    EXPECT_TRUE(bitwise_equal(eager.state, graph.state)) << where << ": eager vs graph";
    EXPECT_TRUE(bitwise_equal(streams.state, graph.state)) << where << ": eager_streams vs graph";
    EXPECT_TRUE(bitwise_equal(sequential.state, graph.state)) << where << ": overlap off vs on";
    EXPECT_TRUE(bitwise_equal(mpi_halos.state, graph.state)) << where << ": halos by MPI vs by NCCL";
    if (variant.granularity != Granularity::fused) {
      const Outcome fused =
          run(spec_for(variant.name, Granularity::fused, {1, 1}), variant.backend, ExecutionMode::graph, MPI_COMM_SELF);
      EXPECT_TRUE(bitwise_equal(graph.state, fused.state))
          << where << ": " << to_string(variant.granularity) << " vs fused";
    }
    EXPECT_TRUE(same_bits(graph.result.change.mass, serial.result.change.mass)) << where;
    EXPECT_TRUE(same_bits(graph.result.change.total_energy, serial.result.change.total_energy)) << where;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Cases, DecompositionInvarianceTest,
    ::testing::Values(Variant{CaseName::thermal, Granularity::fused, Backend::host},
                      Variant{CaseName::injection, Granularity::fused, Backend::host},
                      Variant{CaseName::injection, Granularity::fine, Backend::host},
                      Variant{CaseName::injection, Granularity::stage, Backend::host},
                      Variant{CaseName::gravity_waves, Granularity::stage, Backend::host},
                      Variant{CaseName::straka, Granularity::fine, Backend::host},
                      Variant{CaseName::straka, Granularity::stage, Backend::host},
                      Variant{CaseName::thermal, Granularity::pass, Backend::host},
                      Variant{CaseName::thermal, Granularity::fused, Backend::cuda},
                      Variant{CaseName::injection, Granularity::fine, Backend::cuda},
                      Variant{CaseName::injection, Granularity::stage, Backend::cuda},
                      Variant{CaseName::thermal, Granularity::pass, Backend::cuda},
                      Variant{CaseName::thermal, Granularity::fused, Backend::cuda, HaloTransport::nccl},
                      Variant{CaseName::injection, Granularity::fused, Backend::cuda, HaloTransport::nccl},
                      Variant{CaseName::injection, Granularity::fine, Backend::cuda, HaloTransport::nccl},
                      Variant{CaseName::injection, Granularity::stage, Backend::cuda, HaloTransport::nccl}),
    [](const auto& test_info) {
      const Variant& variant = test_info.param;
      return std::string(to_string(variant.name)) + "_" + std::string(to_string(variant.granularity)) + "_" +
             std::string(to_string(variant.backend)) +
             (variant.halo == HaloTransport::nccl ? std::string("_nccl") : std::string());
    });

/// NCCL runs one rank per GPU: a job whose ranks share a GPU is refused with a bad-input
/// error naming the ranks, before any NCCL call.
TEST(NcclPlacementTest, RanksSharingAGpuAreRefused) {
  if (!nccl_compiled()) GTEST_SKIP() << "built without NCCL";
  if (device::device_count() == 0) GTEST_SKIP() << "no CUDA device visible";
  if (world_size() <= device::device_count()) GTEST_SKIP() << "every rank has a GPU of its own";
  device::select_device(world_rank() % device::device_count());
  RunSpec spec = spec_for(CaseName::thermal, Granularity::fused, {0, 0});
  spec.parallel.halo = HaloTransport::nccl;
  const Decomposition decomposition(MPI_COMM_WORLD, spec.grid, spec.parallel);
  try {
    Simulation simulation(spec, Backend::cuda, ExecutionMode::graph, decomposition);
    FAIL() << "a simulation with ranks sharing a GPU was built";
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::bad_input);
    EXPECT_EQ(error.where(), "parallel.halo");
    EXPECT_NE(std::string(error.what()).find("ranks 0 and "), std::string::npos) << error.what();
  }
}

}  // namespace
}  // namespace simapp
