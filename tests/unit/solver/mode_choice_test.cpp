/// execution.mode auto made concrete (choose_mode): graph on the host backend and with several
/// ranks; on CUDA with one rank persistent_cluster (float32, where the device has thread-block
/// clusters) or persistent on small grids whose passes the pass tiles serve, graph on larger ones,
/// where the pass tiles cannot serve every pass or with water; an explicit mode is kept. And persistent_cluster's
/// refusals where the pass tiles cannot serve the case or the state exceeds the L2 cache.
#include "solver/executor/mode_choice.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <string>

#include "kernels/backend/device_runtime.hpp"
#include "solver/executor/executor_factory.hpp"

namespace simapp {
namespace {

/// `name` on nx × nz cells (2-D) at execution.mode auto and granularity pass.
RunSpec automatic_case(CaseName name, int nx, int nz) {
  RunSpec spec;
  spec.case_name = name;
  spec.grid.nx = nx;
  spec.grid.nz = nz;
  spec.execution.mode = ExecutionMode::automatic;
  spec.execution.granularity = Granularity::pass;
  return spec;
}

ModeChoice choice_for(const RunSpec& spec, Backend backend) {
  const Decomposition decomposition(MPI_COMM_SELF, spec.grid, spec.parallel);
  return choose_mode(spec, backend, decomposition);
}

TEST(ModeChoiceTest, AnExplicitModeIsKept) {
  RunSpec spec = automatic_case(CaseName::thermal, 64, 32);
  spec.execution.mode = ExecutionMode::eager;
  const ModeChoice choice = choice_for(spec, Backend::cuda);
  EXPECT_EQ(choice.mode, ExecutionMode::eager);
  EXPECT_EQ(choice.reason, "");
  EXPECT_EQ(describe_mode(choice), "eager");
}

TEST(ModeChoiceTest, AutoTakesGraphOnTheHostBackend) {
  const ModeChoice choice = choice_for(automatic_case(CaseName::thermal, 64, 32), Backend::host);
  EXPECT_EQ(choice.mode, ExecutionMode::graph);
  EXPECT_EQ(describe_mode(choice),
            "graph (auto: the host backend, where every mode runs the kernels one after another)");
}

TEST(ModeChoiceTest, AutoTakesAPersistentKernelOnSmallGridsAndGraphOnLargerOnes) {
  // 64 × 32 = 2048 cells: in float32 the cluster where the device has clusters, else the whole GPU.
  RunSpec float32 = automatic_case(CaseName::thermal, 64, 32);
  float32.execution.precision = Precision::float32;
  const ModeChoice smallest = choice_for(float32, Backend::cuda);
  if (device::has_thread_block_clusters()) {
    EXPECT_EQ(smallest.mode, ExecutionMode::persistent_cluster);
    EXPECT_EQ(smallest.reason,
              "auto: CUDA, one rank, 2048 cells in float32 (up to 2048: the pass tiles on one cluster)");
  } else {
    EXPECT_EQ(smallest.mode, ExecutionMode::persistent);
  }
  EXPECT_EQ(choice_for(automatic_case(CaseName::thermal, 64, 32), Backend::cuda).mode, ExecutionMode::persistent);
  const ModeChoice small = choice_for(automatic_case(CaseName::thermal, 128, 64), Backend::cuda);
  EXPECT_EQ(small.mode, ExecutionMode::persistent);
  EXPECT_EQ(small.reason,
            "auto: CUDA, one rank, 8192 cells (up to 8192: a grid barrier a pass costs less than launches)");
  const ModeChoice larger = choice_for(automatic_case(CaseName::thermal, 130, 64), Backend::cuda);
  EXPECT_EQ(larger.mode, ExecutionMode::graph);
  EXPECT_EQ(larger.reason, "auto: CUDA, one rank, 8320 cells (more than 8192: graph replays the kernels)");
}

TEST(ModeChoiceTest, AutoTakesGraphWhereThePassTilesCannotServeEveryPassTheGranularityIsFineOrWithWater) {
  // injection's inflow side: its ghost cells differ from the cells they wrap to.
  const ModeChoice inflow = choice_for(automatic_case(CaseName::injection, 64, 32), Backend::cuda);
  EXPECT_EQ(inflow.mode, ExecutionMode::graph);
  EXPECT_EQ(inflow.reason,
            "auto: CUDA, one rank, but the pass tiles make the ghost cells of 1 of the 2 passes here (a line split "
            "between ranks, or an inflow side) (the persistent kernels were measured with the pass tiles)");
  RunSpec fine = automatic_case(CaseName::thermal, 64, 32);
  fine.execution.granularity = Granularity::fine;
  EXPECT_EQ(choice_for(fine, Backend::cuda).mode, ExecutionMode::graph);
  RunSpec water = automatic_case(CaseName::moist_thermal, 64, 32);
  water.grid.microphysics = Microphysics::kessler;
  const ModeChoice moist = choice_for(water, Backend::cuda);
  EXPECT_EQ(moist.mode, ExecutionMode::graph);
  EXPECT_EQ(moist.reason,
            "auto: CUDA, one rank, 2048 cells with water (the microphysics runs faster as kernels of its own than "
            "inside a persistent kernel)");
}

TEST(ModeChoiceTest, PersistentClusterIsRefusedWhereThePassTilesCannotServeTheCase) {
  const RunSpec spec = automatic_case(CaseName::injection, 64, 32);
  const Decomposition decomposition(MPI_COMM_SELF, spec.grid, spec.parallel);
  EXPECT_EQ(why_mode_cannot_run(ExecutionMode::persistent_cluster, spec, Backend::cuda, decomposition),
            "persistent_cluster runs the pass tiles on one cluster, but the pass tiles make the ghost cells of 1 of "
            "the 2 passes here (a line split between ranks, or an inflow side): use persistent or graph");
  // persistent runs it with a barrier a stage.
  EXPECT_EQ(why_mode_cannot_run(ExecutionMode::persistent, spec, Backend::cuda, decomposition), "");
}

TEST(ModeChoiceTest, PersistentClusterIsRefusedWhereTheStateExceedsTheL2Cache) {
  const auto why = [](int nx, int nz) {
    const RunSpec spec = automatic_case(CaseName::thermal, nx, nz);
    const Decomposition decomposition(MPI_COMM_SELF, spec.grid, spec.parallel);
    return why_mode_cannot_run(ExecutionMode::persistent_cluster, spec, Backend::cuda, decomposition);
  };
  // 2052 × 1028 cells with their ghosts, 4 variables, 3 arrays of float64: 202.5 MB, more than any GPU's L2 cache.
  const std::string large = why(2048, 1024);
  EXPECT_EQ(large.substr(0, large.find(" MB) exceed")),
            "persistent_cluster keeps the state on chip, but its arrays (qⁿ, q*, q**: 202.5");
  // 68 × 36 × 4 × 3 × 8 B: 0.2 MB, within any GPU's L2 cache (none without a GPU).
  if (device::l2_cache_bytes() > 0) {
    EXPECT_EQ(why(64, 32), "");
  }
}

}  // namespace
}  // namespace simapp
