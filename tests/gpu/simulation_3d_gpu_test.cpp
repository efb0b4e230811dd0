/// Whole runs of the 3-D model on the CUDA backend (label gpu; skipped without a GPU): every mode
/// (graph_loop with its StepParams<3> made on the device, persistent with a barrier a pass or a
/// stage), granularity and K computes the same state bit for bit, the persistent kernel's health
/// check names the step and cell the graphs' check names, a state uniform in y stays so bit for
/// bit and equals the CUDA 2-D run, and the CUDA state agrees with the host backend's.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "kernels/backend/device_runtime.hpp"
#include "solver/simulation/mode_comparison.hpp"
#include "tests/support/small_case.hpp"

namespace simapp {
namespace {

using testing::bitwise_equal;

class Cuda3dTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (device::device_count() == 0) GTEST_SKIP() << "no CUDA device visible";
  }
};

/// thermal on 32 × 24 × 16 cells of 625 m, its bubble off the centre in x and y, for 40.5 dt.
RunSpec off_centre_thermal() {
  RunSpec spec = testing::small_case(CaseName::thermal, 32, 16, 1.0);
  spec.grid.ny = 24;
  spec.grid.ylen = 15000.0;
  spec.perturbation.center = {9000.0, 6000.0, 2500.0};
  spec.perturbation.radii = {3000.0, 2500.0, 2000.0};
  spec.time.sim_time = 40.5 * TimeStepping(1.0, horizontal_spacing(spec.grid), 625.0, spec.time.cfl).dt();
  return spec;
}

TEST_F(Cuda3dTest, EveryModeAndStepsPerGraphComputeTheSameStateBitForBit) {
  RunSpec spec = off_centre_thermal();
  spec.execution.steps_per_graph = 1;
  const std::vector<double> reference = testing::final_state(spec, Backend::cuda, ExecutionMode::eager_sync);
  for (const int k : {1, 4, 16})
    for (const ExecutionMode mode :
         {ExecutionMode::eager, ExecutionMode::eager_streams, ExecutionMode::graph, ExecutionMode::graph_loop,
          ExecutionMode::persistent, ExecutionMode::persistent_cluster}) {
      spec.execution.steps_per_graph = k;
      EXPECT_TRUE(bitwise_equal(testing::final_state(spec, Backend::cuda, mode), reference))
          << to_string(mode) << " K=" << k;
    }
}

/// The persistent kernel with a barrier a pass (pass tiles: thermal on a grid whose tiles all have
/// a resident block) and with a barrier a stage (injection's inflow; thermal on a grid of more
/// tiles than resident blocks, each block looping over tiles), against eager_sync through
/// --mode compare's own check, every mode run twice.
TEST_F(Cuda3dTest, PersistentEqualsEagerWithABarrierAPassAndAStage) {
  struct Run {
    CaseName name;
    int nx, ny, nz;
    int barriers_per_step;
  };
  for (const Run& run : {Run{CaseName::thermal, 48, 24, 10, 3}, Run{CaseName::injection, 48, 24, 10, 9},
                         Run{CaseName::thermal, 128, 64, 32, 9}}) {
    RunSpec spec = testing::small_case(run.name, run.nx, run.nz, 1.0);
    spec.grid.ny = run.ny;
    const double spacing = std::min({spec.grid.xlen / run.nx, spec.grid.ylen / run.ny, spec.grid.zlen / run.nz});
    spec.time.sim_time = 9.5 * TimeStepping(1.0, spacing, spacing, spec.time.cfl).dt();
    spec.execution.steps_per_graph = 3;
    spec.execution.check_every = 4;
    spec.execution.repeats = 2;
    const Decomposition decomposition(MPI_COMM_SELF, spec.grid, spec.parallel);
    const ModeComparison comparison =
        compare_modes(spec, Backend::cuda, decomposition, [](const ComparisonProgress&) {});
    const std::string what = std::string(to_string(run.name)) + " " + std::to_string(run.nx) + " x " +
                             std::to_string(run.ny) + " x " + std::to_string(run.nz);
    EXPECT_TRUE(comparison.identical) << what << ": " << comparison.difference;
    // persistent_cluster: not injection (the pass tiles make no inflow).
    EXPECT_EQ(comparison.modes.size(), run.name == CaseName::injection ? 6u : 7u) << what;
    for (const ModeTiming& timing : comparison.modes)
      if (timing.mode == ExecutionMode::persistent) {
        EXPECT_EQ(timing.grid_barriers_per_step, run.barriers_per_step) << what;
      }
  }
}

/// A bubble no time step can carry: the persistent kernel's check (every 3 steps, by the global
/// step count), on the whole GPU and on one cluster, stops at the step and names the cell (i, j, k)
/// that graph mode's check names.
TEST_F(Cuda3dTest, ThePersistentKernelsHealthCheckNamesTheGraphsStepAndCell) {
  RunSpec spec = off_centre_thermal();
  spec.perturbation.amplitude = 1e6;
  spec.execution.check_every = 3;
  spec.execution.steps_per_graph = 3;
  const auto failure_in = [&](ExecutionMode mode) {
    testing::SerialSimulation simulation(spec, Backend::cuda, mode);
    while (!simulation->finished() && !simulation->health_failure_seen()) simulation->advance_chunk(3);
    return simulation->health_failure();
  };
  const std::optional<HealthFinding> graph = failure_in(ExecutionMode::graph);
  ASSERT_TRUE(graph.has_value());
  for (const ExecutionMode mode : {ExecutionMode::persistent, ExecutionMode::persistent_cluster}) {
    const std::optional<HealthFinding> persistent = failure_in(mode);
    ASSERT_TRUE(persistent.has_value()) << to_string(mode);
    EXPECT_EQ(persistent->step, graph->step) << to_string(mode);
    EXPECT_EQ(persistent->step % 3, 0) << to_string(mode);
    EXPECT_EQ(describe_cell(persistent->where, spec.grid.ny), describe_cell(graph->where, spec.grid.ny))
        << to_string(mode);
  }
}

TEST_F(Cuda3dTest, EveryGranularityComputesTheSameStateBitForBit) {
  RunSpec spec = off_centre_thermal();
  spec.execution.steps_per_graph = 4;
  const std::vector<double> reference = testing::final_state(spec, Backend::cuda, ExecutionMode::eager_sync);
  for (const Granularity granularity : {Granularity::fused, Granularity::fine, Granularity::pass})
    for (const ExecutionMode mode :
         {ExecutionMode::eager_sync, ExecutionMode::eager_streams, ExecutionMode::graph, ExecutionMode::graph_loop}) {
      spec.execution.granularity = granularity;
      EXPECT_TRUE(bitwise_equal(testing::final_state(spec, Backend::cuda, mode), reference))
          << to_string(granularity) << " in " << to_string(mode);
    }
}

TEST_F(Cuda3dTest, TheCudaStateAgreesWithTheHostBackend) {
  const RunSpec spec = off_centre_thermal();
  const std::vector<double> cuda = testing::final_state(spec, Backend::cuda, ExecutionMode::graph);
  const std::vector<double> host = testing::final_state(spec, Backend::host, ExecutionMode::graph);
  ASSERT_EQ(cuda.size(), host.size());
  const std::size_t per_variable = cuda.size() / ModelVariables<3>::count;
  for (int v = 0; v < ModelVariables<3>::count; ++v) {
    double difference = 0.0, norm = 0.0;
    for (std::size_t n = v * per_variable; n < (v + 1) * per_variable; ++n) {
      difference += (cuda[n] - host[n]) * (cuda[n] - host[n]);
      norm += host[n] * host[n];
    }
    EXPECT_LE(std::sqrt(difference / norm), 1e-10) << variable_names<3>[v];
  }
}

TEST_F(Cuda3dTest, AStateUniformInYEqualsTheCuda2dRunAtEveryJ) {
  RunSpec spec = testing::small_case(CaseName::collision, 32, 16, 1.0);
  spec.grid.xlen = 32000.0;
  spec.grid.ny = 6;
  spec.grid.ylen = 6000.0;  // dy = dx: the 2-D run's dt
  spec.perturbation.radii = {2000.0, INFINITY, 2000.0};
  spec.time.sim_time = 20.5 * TimeStepping(1.0, 1000.0, 625.0, spec.time.cfl).dt();
  RunSpec spec_2d = spec;
  spec_2d.grid.ny = 1;
  spec_2d.grid.ylen = spec.grid.xlen;
  const std::vector<double> run_3d = testing::final_state(spec, Backend::cuda, ExecutionMode::graph);
  const std::vector<double> run_2d = testing::final_state(spec_2d, Backend::cuda, ExecutionMode::graph);
  constexpr int nx = 32, ny = 6, nz = 16;
  constexpr int variables_3d[var::count] = {0, 1, 3, 4};  // dens, umom, wmom, rhot
  for (int v = 0; v < var::count; ++v) {
    double largest = 0.0;
    for (int n = 0; n < nx * nz; ++n)
      largest = std::max(largest, std::abs(run_2d[static_cast<std::size_t>(v) * nx * nz + n]));
    for (int k = 0; k < nz; ++k)
      for (int j = 0; j < ny; ++j)
        for (int i = 0; i < nx; ++i) {
          const double value = run_3d[((static_cast<std::size_t>(variables_3d[v]) * nz + k) * ny + j) * nx + i];
          ASSERT_EQ(value, run_3d[((static_cast<std::size_t>(variables_3d[v]) * nz + k) * ny) * nx + i]);
          ASSERT_NEAR(value, run_2d[(static_cast<std::size_t>(v) * nz + k) * nx + i], 1e-12 * largest)
              << variable_names<2>[v] << " k " << k << " j " << j << " i " << i;
        }
  }
}

}  // namespace
}  // namespace simapp
