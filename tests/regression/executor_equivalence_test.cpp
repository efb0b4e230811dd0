/// Every executor and every granularity compute the same states bit for bit, and the plan
/// counts the launches the eager executor really makes (host backend; the gpu suite repeats
/// the equivalence on the CUDA backend).
#include <gtest/gtest.h>

#include "kernels/backend/launch_counter.hpp"
#include "solver/simulation/run_loop.hpp"
#include "solver/step/step_outline.hpp"
#include "tests/support/small_case.hpp"

namespace simapp {
namespace {

using testing::bitwise_equal;

RunSpec shortened_case(CaseName name, Granularity granularity, int steps_per_graph) {
  return testing::shortened_case(name, 48, 24, granularity, steps_per_graph);
}

std::vector<double> final_state(const RunSpec& spec, ExecutionMode mode) {
  return testing::final_state(spec, Backend::host, mode);
}

TEST(ShortenedCaseTest, LastStepIsShorter) {
  const RunSpec spec = shortened_case(CaseName::thermal, Granularity::fused, 1);
  const TimeStepping stepping(spec.time.sim_time, spec.grid.xlen / spec.grid.nx, spec.grid.zlen / spec.grid.nz,
                              spec.time.cfl);
  EXPECT_EQ(stepping.num_steps(), 24);
  EXPECT_NEAR(stepping.dt_last(), stepping.dt() / 2, 1e-12);
}

class GraphEquivalenceTest : public ::testing::TestWithParam<int> {};

TEST_P(GraphEquivalenceTest, GraphReplayEqualsEagerBitForBit) {
  const int k = GetParam();
  for (Granularity granularity : {Granularity::fused, Granularity::fine, Granularity::stage, Granularity::pass}) {
    const RunSpec spec = shortened_case(CaseName::injection, granularity, k);
    const std::vector<double> eager = final_state(spec, ExecutionMode::eager);
    EXPECT_TRUE(bitwise_equal(final_state(spec, ExecutionMode::graph), eager)) << to_string(granularity) << " K=" << k;
    EXPECT_TRUE(bitwise_equal(final_state(spec, ExecutionMode::eager_sync), eager)) << to_string(granularity);
  }
}

INSTANTIATE_TEST_SUITE_P(StepsPerGraph, GraphEquivalenceTest, ::testing::Values(1, 2, 3, 8));

class GranularityEquivalenceTest : public ::testing::TestWithParam<CaseName> {};

TEST_P(GranularityEquivalenceTest, FineStageAndPassEqualFusedBitForBit) {
  const CaseName name = GetParam();
  const std::vector<double> fused = final_state(shortened_case(name, Granularity::fused, 4), ExecutionMode::graph);
  const std::vector<double> fine = final_state(shortened_case(name, Granularity::fine, 4), ExecutionMode::graph);
  const std::vector<double> stage = final_state(shortened_case(name, Granularity::stage, 4), ExecutionMode::graph);
  const std::vector<double> pass = final_state(shortened_case(name, Granularity::pass, 4), ExecutionMode::graph);
  EXPECT_TRUE(bitwise_equal(fine, fused)) << to_string(name);
  EXPECT_TRUE(bitwise_equal(stage, fused)) << to_string(name);
  EXPECT_TRUE(bitwise_equal(pass, fused)) << to_string(name);
}

TEST_P(GranularityEquivalenceTest, WithViscosityFineStageAndPassEqualFusedBitForBit) {
  const CaseName name = GetParam();
  const auto viscous = [name](Granularity granularity) {
    RunSpec spec = shortened_case(name, granularity, 4);
    spec.physics.viscosity = 2000.0;    // ν dt / dx² ≈ 0.01 on these 417 m cells: a visible change
    spec.physics.diffusivity = 3000.0;  // κ of θ, another number than ν
    spec.physics.hyperviscosity = 0.02;
    return spec;
  };
  const std::vector<double> fused = final_state(viscous(Granularity::fused), ExecutionMode::graph);
  EXPECT_TRUE(bitwise_equal(final_state(viscous(Granularity::fine), ExecutionMode::graph), fused)) << to_string(name);
  EXPECT_TRUE(bitwise_equal(final_state(viscous(Granularity::stage), ExecutionMode::graph), fused)) << to_string(name);
  EXPECT_TRUE(bitwise_equal(final_state(viscous(Granularity::stage), ExecutionMode::eager), fused)) << to_string(name);
  EXPECT_TRUE(bitwise_equal(final_state(viscous(Granularity::pass), ExecutionMode::eager), fused)) << to_string(name);
  if (name != CaseName::rest) {  // diffusion changes the state
    EXPECT_FALSE(bitwise_equal(final_state(shortened_case(name, Granularity::fused, 4), ExecutionMode::graph), fused))
        << to_string(name);
  }
}

INSTANTIATE_TEST_SUITE_P(AllCases, GranularityEquivalenceTest,
                         ::testing::Values(CaseName::thermal, CaseName::collision, CaseName::gravity_waves,
                                           CaseName::density_current, CaseName::injection, CaseName::rest),
                         [](const ::testing::TestParamInfo<CaseName>& param) {
                           return std::string(to_string(param.param));
                         });

TEST(GraphExecutorTest, CapturesEachDistinctChunkOnceAndReplaysIt) {
  // 24 steps at K = 5: chunks of 5 starting odd, even, odd, even, then a remainder of 4.
  RunSpec spec = shortened_case(CaseName::thermal, Granularity::fused, 5);
  testing::SerialSimulation simulation(spec, Backend::host, ExecutionMode::graph);
  ASSERT_EQ(simulation->time_stepping().num_steps(), 24);
  run_to_end(*simulation, 0, [](const ProgressReport&) {});
  const ExecutorStats& stats = simulation->executor_stats();
  // (odd, 5, unchecked), (even, 5, checked after step 10 and 20), (odd, 4, checked after the run's last step)
  EXPECT_EQ(stats.captures, 3);
  EXPECT_EQ(stats.launches, 5);  // one replay per chunk
  // The refresh, K steps of 18 kernels, and the health check and its count after a step that is a
  // multiple of check_every (10) or the run's last.
  EXPECT_EQ(stats.nodes_per_graph, (std::vector<std::size_t>{1 + 5 * 18, 1 + 5 * 18 + 2, 1 + 4 * 18 + 2}));
  EXPECT_EQ(outline_steps(spec).distinct_chunks, 3);
}

TEST(PlanTest, PlanCountsTheKernelsTheEagerExecutorLaunches) {
  for (Granularity granularity : {Granularity::fused, Granularity::fine, Granularity::stage, Granularity::pass}) {
    for (CaseName name : {CaseName::thermal, CaseName::injection}) {
      RunSpec spec = shortened_case(name, granularity, 1);
      spec.execution.check_every = 1;
      const StepOutline plan = outline_steps(spec);
      testing::SerialSimulation simulation(spec, Backend::host, ExecutionMode::eager);
      const std::int64_t before = kernel_launches_so_far();
      simulation->advance_chunk();  // one step
      // The step's kernels, then the health check and its count (every step is checked).
      EXPECT_EQ(kernel_launches_so_far() - before, static_cast<std::int64_t>(plan.step.count(OpKind::kernel)) + 2)
          << to_string(name) << " " << to_string(granularity);
      EXPECT_EQ(plan.chunk.count(OpKind::kernel), plan.step.count(OpKind::kernel) + 2);
      EXPECT_EQ(simulation->executor_stats().launches,
                static_cast<std::int64_t>(plan.chunk.count(OpKind::kernel) + plan.chunk.count(OpKind::transfer)));
    }
  }
}

}  // namespace
}  // namespace simapp
