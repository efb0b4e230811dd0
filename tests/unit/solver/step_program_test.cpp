#include "solver/step/step_program.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <set>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "kernels/cases/case_list.hpp"
#include "kernels/flux/fluxes.hpp"
#include "kernels/stage/pass_kernel.hpp"
#include "solver/executor/graph_loop.hpp"
#include "solver/step/build_step_program.hpp"
#include "solver/step/step_outline.hpp"
#include "solver/step/steps_per_graph.hpp"
#include "tests/support/uniform_runs_3d.hpp"

namespace simapp {
namespace {

using testing::CaseSetup;
using testing::TwoModels;

TEST(StepProgramTest, HostOpsSplitKernelsAndTransfersIntoSegments) {
  StepProgram program;
  auto nothing = [](const Stream&) {};
  program.add(OpKind::transfer, "refresh", nothing);
  program.add(OpKind::kernel, "a", nothing);
  program.add(OpKind::host, "exchange", nothing);
  program.add(OpKind::kernel, "c", nothing);
  program.add(OpKind::host, "exchange2", nothing);
  const std::vector<Segment> segments = program.segments();
  ASSERT_EQ(segments.size(), 2u);
  EXPECT_EQ(segments[0].first, 0u);
  EXPECT_EQ(segments[0].size(), 2u);
  EXPECT_EQ(segments[1].first, 3u);
  EXPECT_EQ(segments[1].size(), 1u);
  EXPECT_EQ(program.count(OpKind::kernel), 2u);
  EXPECT_EQ(program.count(OpKind::host), 2u);
}

TEST(StepProgramTest, OpsRunInOrderAndAppendPrefixesNames) {
  StepProgram first, second;
  std::vector<std::string> trace;
  first.add(OpKind::kernel, "a", [&](const Stream&) { trace.push_back("a"); });
  second.add(OpKind::host, "b", [&](const Stream&) { trace.push_back("b"); });
  first.append(second, "step2/");
  for (const StepOp& op : first.ops()) op.run(Stream{});
  EXPECT_EQ(trace, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(first.ops()[1].name, "step2/b");
}

std::vector<std::string> names_of(const StepProgram& program) {
  std::vector<std::string> names;
  for (const StepOp& op : program.ops()) names.push_back(op.name);
  return names;
}

RunSpec plan_spec(Granularity granularity, CaseName name = CaseName::thermal) {
  RunSpec spec;
  spec.case_name = name;
  spec.execution.granularity = granularity;
  return spec;
}

/// What the programs of an 8 x 8 thermal case are built from (shapes only: nothing is run).
StepResources<2> resources_of_8x8(Granularity granularity, HealthCheckOps health = {}) {
  const Grid grid(GridSpec{8, 8, 800.0, 800.0});
  return {step_field_shapes<2>(grid, granularity),
          grid.geometry<2>(),
          {},
          nullptr,
          Bump<2>{},
          granularity,
          GhostFill<2>{case_boundaries(CaseName::thermal), case_boundaries(CaseName::thermal)},
          health};
}

/// The model in 2 or 3 dimensions.
template <class Dimensions>
class StepProgramOfEitherModelTest : public ::testing::Test {};
using BothModels = ::testing::Types<std::integral_constant<int, 2>, std::integral_constant<int, 3>>;
TYPED_TEST_SUITE(StepProgramOfEitherModelTest, BothModels);

/// Programs only described (no arrays) of a rank that makes every ghost cell of the thermal case.
template <int Dims>
StepResources<Dims> thermal_resources(Granularity granularity) {
  StepResources<Dims> resources{};
  resources.granularity = granularity;
  resources.halo.domain = resources.halo.sides = domain_sides<Dims>(CaseName::thermal);
  return resources;
}

TYPED_TEST(StepProgramOfEitherModelTest, OddStepsRunThePassesInOrderAndEvenStepsInReverseThreeStagesEach) {
  constexpr int Dims = TypeParam::value;
  const StepResources<Dims> fused = thermal_resources<Dims>(Granularity::fused);
  const StepProgram odd = build_step_program(fused, StepParity::odd, 0);
  const StepProgram even = build_step_program(fused, StepParity::even, 0);
  EXPECT_EQ(odd.ops().front().name, "x.stage1.fill_halos");
  EXPECT_EQ(odd.ops().back().name, "z.stage3.update");
  EXPECT_EQ(even.ops().front().name, "z.stage1.fill_halos");
  EXPECT_EQ(even.ops().back().name, "x.stage3.update");
  EXPECT_EQ(parity_of(1), StepParity::odd);
  EXPECT_EQ(parity_of(2), StepParity::even);

  const StepResources<Dims> stage = thermal_resources<Dims>(Granularity::stage);
  const std::vector<std::string> expected_odd =
      Dims == 3 ? std::vector<std::string>{"x.stage1.stage", "x.stage2.stage", "x.stage3.stage",
                                           "y.stage1.stage", "y.stage2.stage", "y.stage3.stage",
                                           "z.stage1.stage", "z.stage2.stage", "z.stage3.stage"}
                : std::vector<std::string>{"x.stage1.stage", "x.stage2.stage", "x.stage3.stage",
                                           "z.stage1.stage", "z.stage2.stage", "z.stage3.stage"};
  const std::vector<std::string> expected_even =
      Dims == 3 ? std::vector<std::string>{"z.stage1.stage", "z.stage2.stage", "z.stage3.stage",
                                           "y.stage1.stage", "y.stage2.stage", "y.stage3.stage",
                                           "x.stage1.stage", "x.stage2.stage", "x.stage3.stage"}
                : std::vector<std::string>{"z.stage1.stage", "z.stage2.stage", "z.stage3.stage",
                                           "x.stage1.stage", "x.stage2.stage", "x.stage3.stage"};
  EXPECT_EQ(names_of(build_step_program(stage, StepParity::odd, 0)), expected_odd);
  EXPECT_EQ(names_of(build_step_program(stage, StepParity::even, 0)), expected_even);
}

TEST(StepProgramTest, GranularityDecidesKernelsPerStep) {
  // fused: 2 passes × 3 stages × (halo fill, fluxes, update);
  // fine: 2 × 3 × 4 variables × (halo fill, reconstruct, flux, tendency, update).
  EXPECT_EQ(outline_steps(plan_spec(Granularity::fused)).step.count(OpKind::kernel), 18u);
  EXPECT_EQ(outline_steps(plan_spec(Granularity::fine)).step.count(OpKind::kernel), 120u);
  // injection adds its inflow kernel to each of the 3 stages of the x pass.
  EXPECT_EQ(outline_steps(plan_spec(Granularity::fine, CaseName::injection)).step.count(OpKind::kernel), 123u);
}

TEST(StepProgramTest, ChunkHoldsKStepsOfAlternatingParityBehindOneRefresh) {
  RunSpec spec = plan_spec(Granularity::fused);
  spec.execution.steps_per_graph = 3;
  const StepOutline plan = outline_steps(spec);
  // The refresh and 3 steps: the run's first chunk, before the first check (after step 10).
  ASSERT_EQ(plan.chunk.ops().size(), 1u + 3u * 18u);
  EXPECT_EQ(plan.chunk.ops()[0].kind, OpKind::transfer);
  EXPECT_EQ(plan.chunk.ops()[1].name, "step1/x.stage1.fill_halos");
  EXPECT_EQ(plan.chunk.ops()[1 + 18].name, "step2/z.stage1.fill_halos");
  EXPECT_EQ(plan.chunk.ops()[1 + 36].name, "step3/x.stage1.fill_halos");
  EXPECT_EQ(plan.chunk.segments().size(), 1u);
  // 6000 steps = 2000 chunks of 3, odd K: chunks start on both parities. Those that start on
  // an odd step hold a check after their step 2 (steps 9 to 11, say) or none; those that start
  // on an even step a check after their step 1 (10 to 12) or 3 (8 to 10), or none: 5 programs,
  // the run's last chunk (5998 to 6000) among them.
  EXPECT_EQ(plan.full_chunks, 2000);
  EXPECT_EQ(plan.remainder_steps, 0);
  EXPECT_EQ(plan.distinct_chunks, 5);
}

TEST(StepProgramTest, ChunkChecksHealthAfterTheMultiplesOfNOnly) {
  RunSpec spec = plan_spec(Granularity::stage);
  spec.execution.steps_per_graph = 5;
  spec.execution.check_every = 2;
  const StepOutline checked = outline_steps(spec);
  std::vector<std::string> checks;
  for (const StepOp& op : checked.chunk.ops())
    if (op.name.ends_with("check_health")) checks.push_back(op.name);
  // The run's first chunk, steps 1 to 5: its last step is no multiple of 2 nor the run's last.
  EXPECT_EQ(checks, (std::vector<std::string>{"step2/check_health", "step4/check_health"}));
  spec.execution.check_every = 0;
  const StepOutline unchecked = outline_steps(spec);
  for (const StepOp& op : unchecked.chunk.ops()) EXPECT_EQ(op.name.find("health"), std::string::npos) << op.name;
}

/// The global steps (1-based) the health check follows in the chunk program of the `steps`
/// steps after step `completed`, read off its op names.
std::vector<long> checked_steps_of_chunk(long completed, int steps, long num_steps, int check_every) {
  const StepResources<2> resources =
      resources_of_8x8(Granularity::stage, HealthCheckOps{check_every, nullptr, nullptr});
  const ChunkLayout layout = chunk_layout(completed, steps, num_steps, {check_every});
  EXPECT_EQ(layout.first, parity_of(completed + 1));
  const StepProgram chunk = build_chunk_program(resources, layout);
  std::vector<long> checked;
  for (const StepOp& op : chunk.ops())
    if (op.name.ends_with("/check_health")) checked.push_back(completed + std::stol(op.name.substr(4)));
  return checked;
}

/// The steps after which a run of `num_steps` steps is checked: the multiples of check_every
/// and the last.
std::vector<long> multiples_and_last(long num_steps, int check_every) {
  std::vector<long> steps;
  for (long step = check_every; step < num_steps; step += check_every) steps.push_back(step);
  steps.push_back(num_steps);
  return steps;
}

TEST(StepProgramTest, ChunksCheckAfterTheGlobalMultiplesOfCheckEveryAndTheLastStepWhereverTheyStart) {
  for (const int check_every : {1, 2, 3, 10})
    for (const int k : {1, 2, 4, 5, 7})
      for (const long num_steps : {24L, 30L, 31L}) {
        // Chunks of K, also cut where outputs would be (steps 7, 13 and 20).
        std::vector<long> checked;
        for (long at = 0; at < num_steps;) {
          const long cut = at < 7 ? 7 : at < 13 ? 13 : at < 20 ? 20 : num_steps;
          const int steps = static_cast<int>(std::min<long>({k, cut - at, num_steps - at}));
          const std::vector<long> in_chunk = checked_steps_of_chunk(at, steps, num_steps, check_every);
          checked.insert(checked.end(), in_chunk.begin(), in_chunk.end());
          at += steps;
        }
        EXPECT_EQ(checked, multiples_and_last(num_steps, check_every))
            << "check_every " << check_every << ", steps per graph " << k << ", " << num_steps << " steps";
      }
  EXPECT_TRUE(checked_steps_of_chunk(0, 24, 24, 0).empty());
  EXPECT_EQ(checked_steps_of_chunk(5, 7, 100, 10), (std::vector<long>{10}));
  EXPECT_EQ(checked_steps_of_chunk(5, 7, 12, 10), (std::vector<long>{10, 12}));
}

TEST(StepProgramTest, DistinctChunkLayoutsAreTheLayoutsOfEveryChunk) {
  for (const int check_every : {0, 1, 2, 3, 7, 10, 25, 1000})
    for (const int k : {1, 2, 3, 4, 5, 6, 14, 42})
      for (const long num_steps : {1L, 5L, 41L, 42L, 100L, 997L}) {
        std::set<ChunkLayout> layouts;
        for (long at = 0; at < num_steps; at += k)
          layouts.insert(
              chunk_layout(at, static_cast<int>(std::min<long>(k, num_steps - at)), num_steps, {check_every}));
        EXPECT_EQ(distinct_chunk_layouts(num_steps, k, {check_every}), static_cast<int>(layouts.size()))
            << "check_every " << check_every << ", steps per graph " << k << ", " << num_steps << " steps";
      }
  // Large counts are found without visiting each chunk: a check every 10 steps of one-step chunks
  // gives both parities unchecked, and checked after odd steps (multiples of 10 are even) but
  // for the last.
  EXPECT_EQ(distinct_chunk_layouts(2147483647L, 1, {10}), 4);
  EXPECT_EQ(distinct_chunk_layouts(2147483647L, 1, {2147483647}), 3);
}

TEST(StepProgramTest, LoopBodyCarriesTheChecksWhenItStaysAboutAsLargeAsAGraph) {
  const auto body = [](int k, int check_every, std::size_t kernels) {
    const LoopBody found = loop_body(k, {check_every}, kernels);
    return std::pair{found.steps, found.checked};
  };
  // Automatic steps per graph at stage, fused and fine granularity (6, 18, 120 kernels a step), check_every 10.
  EXPECT_EQ(body(42, 10, 6), std::pair(40, true));
  EXPECT_EQ(body(14, 10, 18), std::pair(10, true));
  EXPECT_EQ(body(2, 10, 120), std::pair(10, true));
  // Odd check_every: whole intervals of both parities.
  EXPECT_EQ(body(4, 3, 6), std::pair(6, true));
  EXPECT_EQ(body(13, 3, 6), std::pair(12, true));
  // A configured steps per graph that is already a multiple, however large.
  EXPECT_EQ(body(100, 10, 120), std::pair(100, true));
  // Without checks, the steps per graph made even; with checks too far apart for a graph, the same and no checks.
  EXPECT_EQ(body(3, 0, 6), std::pair(6, false));
  EXPECT_EQ(body(3, 1000, 6), std::pair(6, false));
  EXPECT_EQ(body(2, 50, 120), std::pair(2, false));
  EXPECT_EQ(body(2, 40, 120), std::pair(40, true));  // 4800 kernels: within the bound
}

/// How a graph_loop run of `num_steps` steps with a state needed after each step of `ends`
/// runs, queued `pace` steps at a time: the chunks beside the loop as (first step, steps) and
/// the steps each iteration of the body starts after.
struct LoopSchedule {
  std::vector<std::pair<long, long>> chunks;
  std::vector<long> iteration_starts;
};

LoopSchedule schedule_loop(const LoopBody& body, long num_steps, const Cadences& cadences,
                           const std::vector<long>& ends, long pace) {
  LoopSchedule schedule;
  for (long at = 0; at < num_steps;) {
    const auto next_end = std::ranges::upper_bound(ends, at);
    const long span = (next_end == ends.end() ? num_steps : std::min(*next_end, num_steps)) - at;
    const long batch = std::min(pace, span);
    const LoopLaunch launch = plan_loop_launch(body, at, batch, span, num_steps, cadences);
    const long steps = launch.lead_in + launch.iterations * body.steps + launch.rest;
    EXPECT_GT(steps, 0) << "at " << at;
    EXPECT_LE(steps, span) << "at " << at;
    EXPECT_LE(launch.lead_in, body.steps) << "at " << at;  // one chunk, in the body's StepParams<2> slots
    EXPECT_LE(launch.rest, body.steps) << "at " << at;
    if (launch.lead_in > 0) schedule.chunks.emplace_back(at, launch.lead_in);
    for (long p = 0; p < launch.iterations; ++p)
      schedule.iteration_starts.push_back(at + launch.lead_in + p * body.steps);
    if (launch.rest > 0) schedule.chunks.emplace_back(at + steps - launch.rest, launch.rest);
    at += steps;
  }
  return schedule;
}

/// The lcm of the positive cadences (an independent count: the first step all of them divide).
long period_of(const Cadences& cadences) {
  if (std::ranges::none_of(cadences, [](int every) { return every > 0; })) return 0;
  for (long step = 1;; ++step)
    if (std::ranges::all_of(cadences, [&](int every) { return every <= 0 || step % every == 0; })) return step;
}

// With one element (the health check, `{check_every}`) and with two of different cadences.
TEST(StepProgramTest, LoopLaunchesKeepTheElementsOnTheGlobalMultiplesAndTheirChunksFixed) {
  const std::vector<long> ends{7, 23, 100, 101, 163, 250};
  for (const Cadences& cadences :
       {Cadences{0}, Cadences{3}, Cadences{10}, Cadences{1000}, Cadences{4, 6}, Cadences{3, 10}, Cadences{0, 5}})
    for (const int k : {1, 2, 3, 4, 5, 42})
      for (const std::size_t kernels : {6u, 120u}) {
        const LoopBody body = loop_body(k, cadences, kernels);
        const long num_steps = 301;
        std::string what = "cadences";
        for (const int every : cadences) what += " " + std::to_string(every);
        what += ", steps per graph " + std::to_string(k) + ", " + std::to_string(kernels) + " kernels";
        // The chunks of a span as prepare() sees them (the whole span in one launch) ...
        const LoopSchedule prepared = schedule_loop(body, num_steps, cadences, ends, num_steps);
        for (const long pace : {1L, 2L, 3L, 8L}) {
          const LoopSchedule run = schedule_loop(body, num_steps, cadences, ends, pace * body.steps);
          // ... are the chunks of the run, however the queue's pace cuts it into launches.
          EXPECT_EQ(run.chunks, prepared.chunks) << what << ", pace " << pace;
          for (const long start : run.iteration_starts) {
            if (body.checked) {
              EXPECT_EQ(start % period_of(cadences), 0) << what << ": a pass after step " << start;
              EXPECT_EQ(body.steps % period_of(cadences), 0) << what;
              continue;
            }
            for (long step = start + 1; step <= start + body.steps; ++step)
              for (const int every : cadences)
                EXPECT_FALSE(element_follows(every, step, num_steps)) << what << ": step " << step;
          }
        }
      }
}

TEST(StepProgramTest, ChunkLayoutsNameEachElementAfterTheStepsOfItsCadence) {
  // Steps 1 to 6 of 100, elements every 2 and every 3 steps.
  EXPECT_EQ(chunk_layout(0, 6, 100, {2, 3}).runs, (std::vector<ElementRun>{{1, 0}, {2, 1}, {3, 0}, {5, 0}, {5, 1}}));
  // Steps 7 to 9 of 9: the last step is followed by both.
  EXPECT_EQ(chunk_layout(6, 3, 9, {2, 3}).runs, (std::vector<ElementRun>{{1, 0}, {2, 0}, {2, 1}}));
  EXPECT_TRUE(chunk_layout(0, 5, 9, {0, 0}).runs.empty());
  for (const Cadences& cadences : {Cadences{2, 3}, Cadences{4, 6}, Cadences{0, 7}, Cadences{5, 5}})
    for (const int k : {1, 2, 3, 5, 6, 12})
      for (const long num_steps : {1L, 13L, 60L, 97L}) {
        std::set<ChunkLayout> layouts;
        for (long at = 0; at < num_steps; at += k)
          layouts.insert(chunk_layout(at, static_cast<int>(std::min<long>(k, num_steps - at)), num_steps, cadences));
        EXPECT_EQ(distinct_chunk_layouts(num_steps, k, cadences), static_cast<int>(layouts.size()))
            << "cadences " << cadences[0] << " " << cadences[1] << ", steps per graph " << k << ", " << num_steps
            << " steps";
      }
}

TEST(StepsPerGraphTest, AutomaticKLinesUpWithThePeriodOfEveryCadence) {
  ExecutionSpec execution;
  EXPECT_EQ(steps_per_graph(execution, 18, 0, {2, 3}), 12);  // 14 steps: the nearest multiple of 6
  EXPECT_EQ(steps_per_graph(execution, 120, 0, {2, 3}), 2);  // 2 steps: a divisor of 6
  EXPECT_EQ(steps_per_graph(execution, 6, 0, {4, 6}), 48);   // 42 steps: 36 or 48, a tie rounds up
  EXPECT_EQ(steps_per_graph(execution, 6, 0, {0, 0}), 42);   // no element: as the kernels say
  EXPECT_EQ(aligned_to_cadences(5, {10}), 5);                // one element: a divisor of its cadence
  EXPECT_EQ(aligned_to_cadences(14, {10}), 10);
}

/// The health check and the microphysics read (and the microphysics writes) every variable of the
/// state on lane 0: in a chunk of fine steps, which run a variable a lane, each waits for every
/// lane's ops before it, and no lane's op after the microphysics runs before a join, in either
/// model, dry (the check alone) and with water (whose tracer transport joins the lanes too).
TYPED_TEST(StepProgramOfEitherModelTest, ElementsThatReadTheWholeStateWaitForEveryLane) {
  for (CaseName name : {CaseName::thermal, CaseName::moist_thermal}) {
    RunSpec spec = plan_spec(Granularity::fine, name);
    if (name == CaseName::moist_thermal) spec.grid.microphysics = Microphysics::kessler;
    if (TypeParam::value == 3) spec.grid.ny = 8;
    spec.execution.steps_per_graph = 2;
    spec.execution.check_every = 1;
    const StepOutline plan = outline_steps(spec);
    ASSERT_TRUE(plan.step.uses_lanes());
    bool lanes_running = false, state_written = false;
    int elements = 0;
    for (const StepOp& op : plan.chunk.ops()) {
      if (op.kind == OpKind::join) {
        lanes_running = state_written = false;
        continue;
      }
      if (op.lane != 0) {
        EXPECT_FALSE(state_written) << op.name << " runs beside the microphysics before it";
        lanes_running = true;
      }
      if (op.name.ends_with("/check_health") || op.name.ends_with("/microphysics")) {
        ++elements;
        EXPECT_FALSE(lanes_running) << op.name << " reads the state while other lanes still write it";
        state_written = op.name.ends_with("/microphysics");
      }
    }
    EXPECT_EQ(elements, name == CaseName::thermal ? 2 : 4) << to_string(name);  // two steps
  }
}

TEST(StepProgramTest, FineStepRunsVariablesOnParallelLanes) {
  const StepOutline fine = outline_steps(plan_spec(Granularity::fine));
  EXPECT_TRUE(fine.step.uses_lanes());
  // Per stage: fill + reconstruct | join | flux | join | tendency + update, on each of 4 lanes.
  EXPECT_EQ(critical_path_kernels(fine.step), 6u * 5u);
  EXPECT_EQ(fine.step.count(OpKind::join), 6u * 2u);
  const StepOutline fused = outline_steps(plan_spec(Granularity::fused));
  EXPECT_FALSE(fused.step.uses_lanes());
  EXPECT_EQ(critical_path_kernels(fused.step), 18u);
}

TEST(StepProgramTest, AutomaticStepsPerGraphAimsAtAFewHundredKernels) {
  for (Granularity granularity : {Granularity::fine, Granularity::fused}) {
    const StepOutline plan = outline_steps(plan_spec(granularity));
    const std::size_t kernels = plan.chunk.count(OpKind::kernel);
    EXPECT_GE(kernels, 150u) << to_string(granularity);
    EXPECT_LE(kernels, 400u) << to_string(granularity);
  }
}

/// The resources of a 16 x 16 rank that fills its ghosts as `fill` says, with no buffers (a
/// program that is only described).
StepResources<2> rank_16x16_resources(Granularity granularity, const GhostFill<2>& fill) {
  const Grid grid(GridSpec{16, 16, 1600.0, 1600.0});
  return {step_field_shapes<2>(grid, granularity),
          grid.geometry<2>(),
          {},
          nullptr,
          Bump<2>{},
          granularity,
          fill,
          HealthCheckOps{}};
}

/// A rank inside a 3 x 3 layout: neighbours on all four sides, no wall.
StepProgram interior_rank_step(HaloPath path, Granularity granularity) {
  const BoundaryCondition neighbour{BoundaryKind::exchanged};
  const GhostFill<2> fill{case_boundaries(CaseName::thermal),
                          {neighbour, neighbour, neighbour, neighbour, {}},
                          path,
                          /*overlap=*/true};
  return build_step_program(rank_16x16_resources(granularity, fill), StepParity::odd, 0);
}

std::size_t ops_named(const StepProgram& program, OpKind kind, const std::string& suffix) {
  std::size_t count = 0;
  for (const StepOp& op : program.ops())
    if (op.kind == kind && op.name.ends_with(suffix)) ++count;
  return count;
}

TEST(StepProgramTest, HostOpsAreExactlyTheHostExchangedHalos) {
  for (HaloPath path : {HaloPath::mpi, HaloPath::mpi_staged, HaloPath::nccl})
    for (bool x : {false, true})
      for (bool z : {false, true}) {
        const BoundaryConditions<2> domain = case_boundaries(CaseName::thermal);
        const BoundaryCondition neighbour{BoundaryKind::exchanged};
        GhostFill<2> fill{domain, domain};
        if (x) fill.sides.x_low = fill.sides.x_high = neighbour;
        if (z) fill.sides.z_low = fill.sides.z_high = neighbour;
        fill.path = path;
        const bool expected = path != HaloPath::nccl && (x || z);
        EXPECT_EQ(exchanges_halos_on_host(fill), expected);
        for (Granularity granularity : {Granularity::fine, Granularity::fused, Granularity::stage}) {
          const StepProgram step = build_step_program(rank_16x16_resources(granularity, fill), StepParity::odd, 0);
          EXPECT_EQ(step.count(OpKind::host) > 0, expected)
              << "path " << static_cast<int>(path) << ", x " << x << ", z " << z << ", " << to_string(granularity);
        }
      }
}

TEST(StepsPerGraphTest, AutomaticKLinesUpWithTheHealthCheck) {
  // The steps per graph are a multiple of check_every, or a divisor of it, near the ~250 kernels a graph aims at, so
  // that chunks of that many steps from a multiple of check_every on check the same steps.
  for (const int every : {1, 2, 3, 7, 10, 16, 60, 1000}) {
    for (const std::size_t kernels :
         {std::size_t{1}, std::size_t{6}, std::size_t{18}, std::size_t{120}, std::size_t{123}, std::size_t{400}}) {
      ExecutionSpec execution;
      execution.check_every = every;
      const int k = steps_per_graph(execution, kernels, 0, {every});
      const int unaligned = std::max(1, static_cast<int>(std::round(250.0 / static_cast<double>(kernels))));
      EXPECT_TRUE(k % every == 0 || every % k == 0) << "check_every " << every << ", steps per graph " << k;
      if (unaligned >= every) {
        EXPECT_LE(std::abs(k - unaligned), every / 2) << "check_every " << every << ", kernels " << kernels;
      }
    }
  }
  ExecutionSpec unchecked;
  unchecked.check_every = 0;
  EXPECT_EQ(steps_per_graph(unchecked, 6, 0, {0}), 42);          // without checks, as the kernels say
  EXPECT_EQ(steps_per_graph(ExecutionSpec{}, 6, 0, {10}), 40);   // stage granularity, check_every 10
  EXPECT_EQ(steps_per_graph(ExecutionSpec{}, 18, 0, {10}), 10);  // fused: 14 steps, aligned down
  EXPECT_EQ(steps_per_graph(ExecutionSpec{}, 120, 0, {10}), 2);  // fine: a divisor of 10
  ExecutionSpec configured;
  configured.steps_per_graph = 7;
  EXPECT_EQ(steps_per_graph(configured, 6, 0, {10}), 7);  // as configured, whatever the checks
}

TEST(StepProgramTest, NcclHalosKeepTheWholeStepInOneSegment) {
  for (Granularity granularity : {Granularity::fine, Granularity::fused}) {
    const StepProgram by_mpi = interior_rank_step(HaloPath::mpi_staged, granularity);
    const StepProgram by_nccl = interior_rank_step(HaloPath::nccl, granularity);
    // One exchange per stage: 3 RK stages in each of 2 passes.
    EXPECT_EQ(by_mpi.count(OpKind::host), 6u) << to_string(granularity);
    EXPECT_EQ(by_mpi.segments().size(), 7u) << to_string(granularity);
    EXPECT_EQ(by_nccl.count(OpKind::host), 0u) << to_string(granularity);
    EXPECT_EQ(by_nccl.segments().size(), 1u) << to_string(granularity);
    EXPECT_EQ(ops_named(by_nccl, OpKind::transfer, ".exchange_halos"), 6u) << to_string(granularity);
    // The same kernels, but for the flux split of the overlapped MPI stages (interior +
    // boundary instead of one launch): only the way the messages travel differs.
    EXPECT_EQ(by_nccl.count(OpKind::kernel) + (granularity == Granularity::fused ? 6u : 0u),
              by_mpi.count(OpKind::kernel))
        << to_string(granularity);
    EXPECT_EQ(ops_named(by_nccl, OpKind::kernel, ".pack_halos"), 6u) << to_string(granularity);
    EXPECT_EQ(ops_named(by_nccl, OpKind::kernel, ".unpack_halos"), 6u) << to_string(granularity);
    // NCCL exchanges run in stream order: no interior fluxes beside them, even with overlap on.
    if (granularity == Granularity::fused) {
      EXPECT_FALSE(by_nccl.uses_lanes());
      EXPECT_TRUE(by_mpi.uses_lanes());
    }
    // So the automatic steps per graph may put several steps in a graph, where host exchanges force one.
    const ExecutionSpec automatic{};
    EXPECT_EQ(steps_per_graph(automatic, by_mpi.count(OpKind::kernel), by_mpi.count(OpKind::host), {10}), 1);
    EXPECT_GT(steps_per_graph(automatic, by_nccl.count(OpKind::kernel), by_nccl.count(OpKind::host), {10}), 1);
  }
}

/// With overlap, interior fluxes run on lane 1 while lane 0 exchanges halos; a join must order
/// them before the update reads them (a Host op ends the segment in between, but the program
/// does not rely on it).
TEST(StepProgramTest, OverlappedInteriorFluxesAreJoinedBeforeTheUpdate) {
  const StepProgram step = interior_rank_step(HaloPath::mpi_staged, Granularity::fused);
  int interior_flux_stages = 0;
  bool lane1_pending = false;
  for (const StepOp& op : step.ops()) {
    if (op.kind == OpKind::kernel && op.lane == 1) {
      EXPECT_TRUE(op.name.ends_with(".fluxes_interior")) << op.name;
      lane1_pending = true;
      ++interior_flux_stages;
    }
    if (op.kind == OpKind::join) lane1_pending = false;
    if (op.name.ends_with(".update")) {
      EXPECT_FALSE(lane1_pending) << op.name << " may run before the interior fluxes";
    }
  }
  EXPECT_EQ(interior_flux_stages, 6);
}

/// The 3-D model's step: the stage kernels' bytes, pass kernels, the fused and fine kernels,
/// and, run op by op, the same state bit for bit as the stage kernels called one after another
/// (tests/support/uniform_runs_3d.hpp).
TEST(StepProgram3dTest, AStepMoves960BytesACell) {
  StepResources<3> resources{};
  std::vector<double> a(1), b(1), c(1);  // distinct arrays: only their addresses count here
  const FieldShape<3> shape{12, 7, 5, 2, 5};
  resources.fields = {{a.data(), shape}, {b.data(), shape}, {c.data(), shape}, {}, {}, {}, {}};
  const StepProgram step = build_step_program(resources, StepParity::odd, 0);
  const std::size_t bytes = std::accumulate(step.ops().begin(), step.ops().end(), std::size_t{0},
                                            [](std::size_t sum, const StepOp& op) { return sum + op.bytes; });
  EXPECT_EQ(bytes, 960u * 12 * 7 * 5);
}

TEST(StepProgram3dTest, PassGranularityRunsAPassKernelWhereTheRankMakesTheSidesAlongIt) {
  StepResources<3> resources{};
  resources.granularity = Granularity::pass;
  resources.halo.domain = resources.halo.sides = periodic_in_y(case_boundaries(CaseName::thermal));
  EXPECT_EQ(names_of(build_step_program(resources, StepParity::odd, 0)),
            (std::vector<std::string>{"x.pass", "y.pass", "z.pass"}));
  EXPECT_EQ(names_of(build_step_program(resources, StepParity::even, 0)),
            (std::vector<std::string>{"z.pass", "y.pass", "x.pass"}));

  const auto kernels = [&] {  // the pass and stage kernels, without the halo exchanges' ops
    std::vector<std::string> names = names_of(build_step_program(resources, StepParity::odd, 0));
    std::erase_if(names, [](const std::string& name) { return !name.ends_with(".pass") && !name.ends_with(".stage"); });
    return names;
  };
  resources.halo.sides.z_high.kind = BoundaryKind::exchanged;  // a rank below another
  EXPECT_EQ(kernels(),
            (std::vector<std::string>{"x.pass", "y.pass", "z.stage1.stage", "z.stage2.stage", "z.stage3.stage"}));

  resources.halo.sides.y_low.kind = resources.halo.sides.y_high.kind =
      BoundaryKind::exchanged;  // x alone: stage kernels
  EXPECT_EQ(kernels().size(), 9u);
  EXPECT_EQ(kernels().front(), "x.stage1.stage");

  resources.halo.sides = resources.halo.domain =
      periodic_in_y(case_boundaries(CaseName::injection));  // an inflow along x
  EXPECT_EQ(names_of(build_step_program(resources, StepParity::odd, 0)).back(), "z.pass");
}

TEST(StepProgram3dTest, APassKernelMoves80BytesACell) {
  StepResources<3> resources{};
  resources.granularity = Granularity::pass;
  resources.halo.domain = resources.halo.sides = periodic_in_y(case_boundaries(CaseName::thermal));
  std::vector<double> a(1), b(1), c(1);
  const FieldShape<3> shape{12, 7, 5, 2, 5};
  resources.fields = {{a.data(), shape}, {b.data(), shape}, {c.data(), shape}, {}, {}, {}, {}};
  const StepProgram step = build_step_program(resources, StepParity::odd, 0);
  for (const StepOp& op : step.ops()) EXPECT_EQ(op.bytes, 80u * 12 * 7 * 5) << op.name;
}

/// With tracers a pass is still one pass kernel, which moves every variable's qⁿ and qⁿ⁺¹ (the
/// water's three tracers: 128 B a cell), and no tracer op runs; beyond the tracers a pass kernel
/// carries, the passes are stage kernels each followed by the tracers' ops.
TEST(StepProgram3dTest, APassKernelCarriesTheTracers) {
  StepResources<3> resources{};
  resources.granularity = Granularity::pass;
  resources.halo.domain = resources.halo.sides = periodic_in_y(case_boundaries(CaseName::thermal));
  std::vector<double> a(1), b(1), c(1);
  const auto with_tracers = [&](int tracers) {
    const FieldShape<3> shape{12, 7, 5, 2, ModelVariables<3>::count + tracers};
    resources.fields = {{a.data(), shape}, {b.data(), shape}, {c.data(), shape}, {}, {}, {}, {}};
    return build_step_program(resources, StepParity::odd, 0);
  };
  const StepProgram water = with_tracers(3);
  EXPECT_EQ(names_of(water), (std::vector<std::string>{"x.pass", "y.pass", "z.pass"}));
  for (const StepOp& op : water.ops()) EXPECT_EQ(op.bytes, 128u * 12 * 7 * 5) << op.name;
  for (int tracers = 1; tracers <= pass_kernel_max_tracers; ++tracers)
    EXPECT_EQ(with_tracers(tracers).count(OpKind::kernel), 3u) << tracers << " tracers";

  const std::vector<std::string> beyond = names_of(with_tracers(pass_kernel_max_tracers + 1));
  EXPECT_EQ(std::ranges::count_if(beyond, [](const std::string& name) { return name.ends_with(".pass"); }), 0);
  EXPECT_EQ(std::ranges::count_if(beyond, [](const std::string& name) { return name.ends_with(".stage"); }), 9);
  EXPECT_EQ(std::ranges::count_if(beyond, [](const std::string& name) { return name.ends_with(".tracers"); }), 9);
}

TEST(StepProgramTest, APassKernelCarriesTheTracersOfThe2dModel) {
  StepResources<2> resources{};
  resources.granularity = Granularity::pass;
  resources.halo.domain = resources.halo.sides = case_boundaries(CaseName::thermal);
  std::vector<double> a(1), b(1), c(1);
  const FieldShape<2> shape{12, 1, 5, 2, ModelVariables<2>::count + 2};
  resources.fields = {{a.data(), shape}, {b.data(), shape}, {c.data(), shape}, {}, {}, {}, {}};
  EXPECT_EQ(names_of(build_step_program(resources, StepParity::even, 0)),
            (std::vector<std::string>{"z.pass", "x.pass"}));
}

TEST(StepProgram3dTest, FusedAndFineStagesAreTheKernelsOfThe2dModelWithAYPass) {
  StepResources<3> resources{};
  resources.halo.domain = resources.halo.sides = periodic_in_y(case_boundaries(CaseName::injection));
  resources.granularity = Granularity::fused;
  const std::vector<std::string> fused = names_of(build_step_program(resources, StepParity::odd, 0));
  const std::vector<std::string> x_stage{"x.stage1.fill_halos", "x.stage1.inflow", "x.stage1.fluxes",
                                         "x.stage1.update"};
  EXPECT_EQ(std::vector<std::string>(fused.begin(), fused.begin() + 4), x_stage) << "x: outflow high, inflow low";
  EXPECT_EQ(fused.size(), 3u * (4 + 3 + 3)) << "x: fill, inflow, fluxes, update; y and z: fill, fluxes, update";
  EXPECT_EQ(fused[12], "y.stage1.fill_halos");
  EXPECT_EQ(fused[21], "z.stage1.fill_halos");

  resources.granularity = Granularity::fine;
  const StepProgram fine = build_step_program(resources, StepParity::odd, 0);
  const auto named = [&](const std::string& name) { return std::ranges::find(fine.ops(), name, &StepOp::name); };
  ASSERT_NE(named("y.stage2.flux.vmom"), fine.ops().end());
  EXPECT_EQ(named("y.stage2.flux.vmom")->lane, 2) << "variable v on lane v";
  EXPECT_EQ(named("z.stage3.update.rhot")->lane, 4);
  EXPECT_EQ(fine.lanes(), ModelVariables<3>::count);
  EXPECT_EQ(fine.count(OpKind::kernel), 3u * (5 + 1 + 4 * 5) + 3u * (5 + 4 * 5) + 3u * (5 + 4 * 5))
      << "each stage: fill, reconstruct, flux, tendency and update of each variable; x's inflow once";
}

/// Two copies of a 3-D state that varies along y: one stepped by the stage kernels in turn, one by
/// programs, with the step values in a StepParamsBlock<3> of two slots, and the face arrays of the
/// fused and fine granularities.
struct TwoCopies {
  TwoCopies() {
    FieldView<double, 3>& q = direct.three_d.state.view;
    for (std::size_t n = 0; n < q.shape.size(); ++n) q.data[n] += 1e-3 * std::sin(0.37 * static_cast<double>(n));
    std::memcpy(programmed.three_d.state.view.data, q.data, q.shape.size() * sizeof(double));
    const StepParams<3> slots[2] = {programmed.params_3d, programmed.params_3d};
    params.write_slots(slots);
    params.enqueue_refresh(Stream{}, 2);
  }
  StepResources<3> resources(HealthCheckOps health = {}, Granularity granularity = Granularity::stage) {
    const BoundaryConditions<3> sides = periodic_in_y(case_boundaries(CaseName::straka));
    return {{programmed.three_d.state.view, programmed.three_d.stage1.view, programmed.three_d.stage2.view,
             view(flux, faces), view(face_value, faces), view(face_d3, faces), view(tendency, cells)},
            programmed.geometry_3d,
            programmed.background.view(),
            &params,
            Bump<3>{},
            granularity,
            GhostFill<3>{sides, sides},
            health};
  }
  /// The interior cells bit for bit (the fused and fine granularities also fill ghost cells in memory).
  bool equal() const {
    const FieldView<double, 3>& p = programmed.three_d.state.view;
    const FieldView<double, 3>& d = direct.three_d.state.view;
    for (int v = 0; v < p.shape.num_vars; ++v)
      for (int k = 0; k < p.shape.nz; ++k)
        for (int j = 0; j < p.shape.ny; ++j)
          if (std::memcmp(&p(v, k, j, 0), &d(v, k, j, 0), p.shape.nx * sizeof(double)) != 0) return false;
    return true;
  }
  static FieldView<double, 3> view(std::vector<double>& values, const FieldShape<3>& shape) {
    values.assign(shape.size(), 0.0);
    return {values.data(), shape};
  }
  TwoModels direct{Stream{}, CaseSetup{CaseName::straka, 75.0}, 40, 9, 16, true};
  TwoModels programmed{Stream{}, CaseSetup{CaseName::straka, 75.0}, 40, 9, 16, true};
  StepParamsBlock<3> params{Stream{}, 2};
  FieldShape<3> faces = face_shape(programmed.three_d.state.view.shape);
  FieldShape<3> cells{40, 9, 16, 0, ModelVariables<3>::count};
  std::vector<double> flux, face_value, face_d3, tendency;
};

TEST(StepProgram3dTest, RunOpByOpEveryGranularityEqualsTheStageKernelsCalledInTurnBitForBit) {
  for (const Granularity granularity : {Granularity::stage, Granularity::fused, Granularity::fine, Granularity::pass}) {
    TwoCopies copies;
    const StepResources<3> resources = copies.resources({}, granularity);
    for (long step = 1; step <= 2; ++step) {
      copies.direct.step_3d(step);
      const StepProgram program = build_step_program(resources, parity_of(step), 0);
      for (const StepOp& op : program.ops())
        if (op.kind != OpKind::join) op.run(Stream{});
    }
    EXPECT_TRUE(copies.equal()) << to_string(granularity);
  }
}

TEST(StepProgram3dTest, AChunkRunsItsStepsFromItsSlotsAndChecksWhereItsLayoutSays) {
  TwoCopies copies;
  HealthRecord record, mirror;
  const ChunkLayout layout{StepParity::odd, 2, {{1, 0}}};
  const StepProgram chunk = build_chunk_program(copies.resources({1, &record, &mirror}), layout);
  std::vector<std::string> names = names_of(chunk);
  EXPECT_EQ(names.front(), "refresh_step_params");
  EXPECT_EQ(names[1], "step1/x.stage1.stage");
  EXPECT_EQ(names[10], "step2/z.stage1.stage");
  EXPECT_EQ(names[names.size() - 2], "step2/check_health");
  EXPECT_EQ(names.back(), "step2/count_health_check");
  EXPECT_EQ(names.size(), 1u + 18u + 2u);
  for (const StepOp& op : chunk.ops()) op.run(Stream{});
  copies.direct.step_3d(1);
  copies.direct.step_3d(2);
  EXPECT_TRUE(copies.equal());
  EXPECT_EQ(mirror.checks_run, 1);
  EXPECT_EQ(mirror.failed_check, -1);
}

}  // namespace
}  // namespace simapp
