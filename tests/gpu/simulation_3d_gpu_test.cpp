/// Whole runs of the 3-D model on the CUDA backend (label gpu; skipped without a GPU): every mode
/// that runs it (graph_loop with its StepParams3d made on the device), granularity and K
/// computes the same state bit for bit, a state uniform in y stays so bit for
/// bit and equals the CUDA 2-D run, and the CUDA state agrees with the host backend's.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "kernels/backend/device_runtime.hpp"
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
         {ExecutionMode::eager, ExecutionMode::eager_streams, ExecutionMode::graph, ExecutionMode::graph_loop}) {
      spec.execution.steps_per_graph = k;
      EXPECT_TRUE(bitwise_equal(testing::final_state(spec, Backend::cuda, mode), reference))
          << to_string(mode) << " K=" << k;
    }
}

TEST_F(Cuda3dTest, EveryGranularityComputesTheSameStateBitForBit) {
  RunSpec spec = off_centre_thermal();
  spec.execution.steps_per_graph = 4;
  const std::vector<double> reference = testing::final_state(spec, Backend::cuda, ExecutionMode::eager_sync);
  for (const Granularity granularity : {Granularity::fused, Granularity::fine})
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
    EXPECT_LE(std::sqrt(difference / norm), 1e-10) << variable_names_3d[v];
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
              << variable_names[v] << " k " << k << " j " << j << " i " << i;
        }
  }
}

}  // namespace
}  // namespace simapp
