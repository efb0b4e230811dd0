/// CUDA graphs replay exactly what eager launching computes (label gpu; skipped without a GPU).
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "foundation/error.hpp"
#include "kernels/backend/device_runtime.hpp"
#include "solver/executor/graph_runner.hpp"
#include "solver/simulation/mode_comparison.hpp"
#include "solver/simulation/run_loop.hpp"
#include "tests/support/small_case.hpp"

namespace simapp {
namespace {

class CudaGraphTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (device::device_count() == 0) GTEST_SKIP() << "no CUDA device visible";
  }
};

using testing::bitwise_equal;

RunSpec shortened_case(Granularity granularity, int steps_per_graph) {
  return testing::shortened_case(CaseName::injection, 96, 48, granularity, steps_per_graph);
}

std::vector<double> final_state(const RunSpec& spec, ExecutionMode mode) {
  return testing::final_state(spec, Backend::cuda, mode);
}

TEST_F(CudaGraphTest, GraphReplayAndLaneStreamsEqualEagerBitForBitForAnyStepsPerGraph) {
  for (Granularity granularity : {Granularity::fused, Granularity::fine, Granularity::stage, Granularity::pass}) {
    const std::vector<double> eager = final_state(shortened_case(granularity, 1), ExecutionMode::eager);
    for (int k : {1, 2, 3, 8}) {
      const RunSpec spec = shortened_case(granularity, k);
      EXPECT_TRUE(bitwise_equal(final_state(spec, ExecutionMode::graph), eager))
          << to_string(granularity) << " steps per graph " << k;
      EXPECT_TRUE(bitwise_equal(final_state(spec, ExecutionMode::eager_sync), eager)) << to_string(granularity);
      EXPECT_TRUE(bitwise_equal(final_state(spec, ExecutionMode::eager_streams), eager)) << to_string(granularity);
    }
  }
}

/// The states at output steps 5, 11 and 17 and at the end (24 steps, the last shortened).
std::vector<std::vector<double>> states_at_outputs(const RunSpec& spec, ExecutionMode mode, ExecutorStats* stats) {
  testing::SerialSimulation simulation(spec, Backend::cuda, mode);
  std::vector<std::vector<double>> states;
  const std::vector<ScheduledOutput> outputs{
      {std::vector<long>{5, 11, 17},
       [&states](long, double, std::span<const double> state) { states.emplace_back(state.begin(), state.end()); },
       nullptr, nullptr}};
  run_to_end(
      *simulation, 0, [](const ProgressReport&) {}, outputs);
  states.push_back(simulation->gathered_state());
  if (stats != nullptr) *stats = simulation->executor_stats();
  return states;
}

TEST_F(CudaGraphTest, GraphLoopAndPersistentEqualEagerBitForBitBetweenOutputsOfAnyLength) {
  for (Granularity granularity : {Granularity::fine, Granularity::stage, Granularity::pass}) {
    const std::vector<std::vector<double>> eager =
        states_at_outputs(shortened_case(granularity, 1), ExecutionMode::eager, nullptr);
    for (int k : {1, 3, 8}) {
      ExecutorStats stats;
      // Without health checks the loop body is k steps (the steps per graph) made even: shorter than
      // the intervals, so each interval runs iterations of it (with checks every 10 steps a body holds 10).
      RunSpec looped = shortened_case(granularity, k);
      looped.execution.check_every = 0;
      const std::vector<std::vector<double>> loop = states_at_outputs(looped, ExecutionMode::graph_loop, &stats);
      ASSERT_EQ(loop.size(), eager.size());
      for (std::size_t n = 0; n < loop.size(); ++n)
        EXPECT_TRUE(bitwise_equal(loop[n], eager[n]))
            << to_string(granularity) << " steps per graph " << k << " output " << n;
      // Four intervals (5, 6, 6, 7 steps): each at most a target kernel, a loop launch, and two
      // chunks of at most k steps for what is left of whole iterations of the body (k, made even).
      EXPECT_LE(stats.launches, 4 * 2 + 4 * 2 * 2) << "steps per graph " << k;
      EXPECT_GE(stats.captures, 2);  // the two loop graphs, odd and even
    }
  }
  // persistent: a barrier a stage (injection's inflow), a barrier a pass (the others);
  // persistent_cluster: a cluster barrier a pass (not injection: the pass tiles make no inflow).
  for (const CaseName name : {CaseName::injection, CaseName::thermal, CaseName::gravity_waves}) {
    const RunSpec spec = testing::shortened_case(name, 96, 48, Granularity::stage, 4);
    const std::vector<std::vector<double>> eager = states_at_outputs(spec, ExecutionMode::eager, nullptr);
    for (const ExecutionMode mode : {ExecutionMode::persistent, ExecutionMode::persistent_cluster}) {
      if (!testing::mode_can_run(mode, spec, Backend::cuda)) {
        EXPECT_EQ(mode == ExecutionMode::persistent_cluster, name == CaseName::injection) << to_string(name);
        continue;
      }
      ExecutorStats stats;
      const std::vector<std::vector<double>> states = states_at_outputs(spec, mode, &stats);
      ASSERT_EQ(states.size(), eager.size());
      for (std::size_t n = 0; n < states.size(); ++n)
        EXPECT_TRUE(bitwise_equal(states[n], eager[n]))
            << to_string(mode) << ", " << to_string(name) << ", output " << n;
      EXPECT_EQ(stats.launches, 4);  // one kernel per interval between outputs
      EXPECT_EQ(stats.captures, 0);
      testing::SerialSimulation simulation(spec, Backend::cuda, mode);
      EXPECT_EQ(simulation->launch_description().grid_barriers_per_step == 2, name != CaseName::injection)
          << to_string(name);
    }
  }
}

/// execution.precision float32 on CUDA: every mode, the persistent kernel with a barrier a stage
/// (injection's inflow) and a pass (thermal, moist_thermal: the microphysics inside it), on the
/// whole GPU and on one cluster, and every
/// granularity give the float32 state of the stage granularity's eager run bit for bit.
TEST_F(CudaGraphTest, Float32IsTheSameBitsInEveryModeAndGranularity) {
  for (const CaseName name : {CaseName::injection, CaseName::thermal, CaseName::moist_thermal}) {
    RunSpec spec = testing::shortened_case(name, 96, 48, Granularity::stage, 4);
    spec.execution.precision = Precision::float32;
    if (name == CaseName::moist_thermal) spec.grid.microphysics = Microphysics::kessler;
    const std::vector<double> reference = testing::final_state(spec, Backend::cuda, ExecutionMode::eager);
    for (const Granularity granularity : {Granularity::fine, Granularity::fused, Granularity::stage, Granularity::pass})
      for (const ExecutionMode mode : {ExecutionMode::eager, ExecutionMode::graph, ExecutionMode::graph_loop,
                                       ExecutionMode::persistent, ExecutionMode::persistent_cluster}) {
        RunSpec variant = spec;
        variant.execution.granularity = granularity;
        if (!testing::mode_can_run(mode, variant, Backend::cuda)) continue;
        EXPECT_TRUE(bitwise_equal(testing::final_state(variant, Backend::cuda, mode), reference))
            << to_string(name) << " " << to_string(granularity) << " " << to_string(mode);
      }
  }
}

/// Between outputs far apart the host queues steps in paced batches (QueuePacing): a stop
/// request is seen after the first ones rather than at the end, and the batched run equals
/// eager bit for bit. graph_loop and the persistent kernels make each batch one launch.
TEST_F(CudaGraphTest, BatchesArePacedSoAStopRequestIsSeenEarly) {
  for (const auto& [mode, k] : {std::pair{ExecutionMode::graph_loop, 1}, std::pair{ExecutionMode::graph_loop, 0},
                                std::pair{ExecutionMode::persistent, 0},
                                std::pair{ExecutionMode::persistent_cluster, 0}, std::pair{ExecutionMode::graph, 1}}) {
    // persistent_cluster: thermal (the pass tiles make no inflow).
    RunSpec spec = mode == ExecutionMode::persistent_cluster
                       ? testing::shortened_case(CaseName::thermal, 96, 48, Granularity::stage, k)
                       : shortened_case(Granularity::stage, k);
    spec.time.sim_time = 2000.5 * TimeStepping(1.0, spec.grid.xlen / 96, spec.grid.zlen / 48, spec.time.cfl).dt();
    const std::string what = std::string(to_string(mode)) + " K=" + std::to_string(k);

    ExecutorStats stats;
    {
      testing::SerialSimulation simulation(spec, Backend::cuda, mode);
      run_to_end(*simulation, 0, [](const ProgressReport&) {});
      stats = simulation->executor_stats();
      EXPECT_TRUE(bitwise_equal(simulation->gathered_state(), final_state(spec, ExecutionMode::eager))) << what;
    }
    // 2001 steps of some microseconds each: batches of 16 (or a pass of the loop body), the
    // same again, then eight times as many each time; never one launch for the whole run.
    EXPECT_GE(stats.launches, 4) << what;

    testing::SerialSimulation simulation(spec, Backend::cuda, mode);
    long saved_at = -1;
    const StopRequest stop{[] { return true; },
                           [&saved_at](long step, double, std::span<const double>) { saved_at = step; },
                           WallClockLimit(), false};
    const RunResult result = run_to_end(
        *simulation, 0, [](const ProgressReport&) {}, {}, std::nullopt, stop);
    EXPECT_TRUE(result.stopped) << what;
    EXPECT_EQ(saved_at, simulation->step()) << what;
    EXPECT_GT(saved_at, 0) << what;
    EXPECT_LE(saved_at, 100) << what << ": the stop waited for more than the first batch";
  }
}

/// compare_modes over every mode on one rank: bit-identical final states (its own check) at
/// two grid sizes, the persistent kernel's blocks looping over several tiles at the larger
/// (a barrier a stage), a barrier a pass for thermal at the smaller, where persistent_cluster runs.
TEST_F(CudaGraphTest, EveryModeEqualsEagerSyncBitForBitAtTwoGridSizes) {
  for (const auto& [nx, nz] : {std::pair{96, 48}, std::pair{1200, 600}}) {
    for (const auto& [name, granularity] :
         {std::pair{CaseName::injection, Granularity::fine}, std::pair{CaseName::injection, Granularity::stage},
          std::pair{CaseName::thermal, Granularity::stage}, std::pair{CaseName::thermal, Granularity::pass}}) {
      RunSpec spec = testing::shortened_case(name, nx, nz, granularity, 3);
      spec.time.sim_time = 9.5 * TimeStepping(1.0, spec.grid.xlen / nx, spec.grid.zlen / nz, spec.time.cfl).dt();
      const Decomposition decomposition(MPI_COMM_SELF, spec.grid, spec.parallel);
      spec.execution.repeats = 2;  // every run of every mode checked against the first
      const ModeComparison comparison =
          compare_modes(spec, Backend::cuda, decomposition, [](const ComparisonProgress&) {});
      EXPECT_TRUE(comparison.identical) << to_string(name) << " " << nx << " x " << nz << " " << to_string(granularity)
                                        << ": " << comparison.difference;
      // The persistent kernels need stage or pass; persistent_cluster the pass tiles (not injection's
      // inflow) and a state within the L2 cache (not 1200 × 600's 70 MB).
      const bool cluster = granularity != Granularity::fine && name == CaseName::thermal && nx == 96;
      const std::size_t expected = granularity == Granularity::fine ? 5 : cluster ? 7 : 6;
      EXPECT_EQ(comparison.modes.size(), expected) << to_string(name) << " " << nx << " " << to_string(granularity);
      EXPECT_EQ(comparison.modes.size() + comparison.skipped.size(), 7u);
      EXPECT_EQ(comparison.rounds, 2);
      for (const ModeTiming& timing : comparison.modes)
        if (timing.mode == ExecutionMode::persistent) {  // a barrier a pass only for thermal's small grid
          const bool pass = name == CaseName::thermal && nx == 96;
          EXPECT_EQ(timing.grid_barriers_per_step, pass ? 2 : 6) << to_string(name) << " " << nx;
        }
    }
  }
}

TEST_F(CudaGraphTest, FineStageAndPassEqualFusedBitForBit) {
  for (CaseName name : {CaseName::thermal, CaseName::gravity_waves, CaseName::injection, CaseName::rest}) {
    const auto run = [name](Granularity granularity) {
      return final_state(testing::shortened_case(name, 96, 48, granularity, 4), ExecutionMode::graph);
    };
    const std::vector<double> fused = run(Granularity::fused);
    EXPECT_TRUE(bitwise_equal(run(Granularity::fine), fused)) << to_string(name);
    EXPECT_TRUE(bitwise_equal(run(Granularity::stage), fused)) << to_string(name);
    EXPECT_TRUE(bitwise_equal(run(Granularity::pass), fused)) << to_string(name);
  }
}

TEST_F(CudaGraphTest, GraphsAreCapturedOncePerDistinctChunk) {
  testing::SerialSimulation simulation(shortened_case(Granularity::fine, 5), Backend::cuda, ExecutionMode::graph);
  run_to_end(*simulation, 0, [](const ProgressReport&) {});
  const ExecutorStats& stats = simulation->executor_stats();
  // (odd, 5, unchecked), (even, 5, checked after steps 10 and 20), (odd, 4, checked after the run's last step)
  EXPECT_EQ(stats.captures, 3);
  EXPECT_EQ(stats.instantiations, 3);
  EXPECT_EQ(stats.launches, 5);
  // 123 kernels per step for injection (fine), the StepParams<2> copy node, and the health check
  // and its count after a step that is a multiple of check_every (10) or the run's last.
  EXPECT_EQ(stats.nodes_per_graph, (std::vector<std::size_t>{1 + 5 * 123, 1 + 5 * 123 + 2, 1 + 4 * 123 + 2}));
}

TEST_F(CudaGraphTest, CaptureFailureNamesTheOpAndNeverFallsBackToEager) {
  const Stream stream = device::create_stream(Backend::cuda);
  StepProgram program;
  bool ran = false;
  program.add(OpKind::kernel, "fine_op", [](const Stream&) {});
  program.add(OpKind::kernel, "illegal_sync", [&ran](const Stream& s) {
    ran = true;
    device::synchronize(s);  // not allowed while capturing
  });
  GraphRunner runner;
  try {
    runner.run(program, stream);
    ADD_FAILURE() << "capture should have failed";
  } catch (const Error& e) {
    EXPECT_EQ(e.where(), "graph capture");
    EXPECT_NE(std::string(e.what()).find("illegal_sync"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(ran);
  EXPECT_EQ(runner.stats().launches, 0);
  device::synchronize(stream);  // the stream is usable again
  device::destroy_stream(stream);
}

}  // namespace
}  // namespace simapp
