#include "solver/step/step_program.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "solver/step/build_step_program.hpp"
#include "solver/step/step_outline.hpp"
#include "solver/step/steps_per_graph.hpp"

namespace simapp {
namespace {

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

RunSpec plan_spec(Granularity granularity, CaseName name = CaseName::thermal) {
  RunSpec spec;
  spec.case_name = name;
  spec.execution.granularity = granularity;
  return spec;
}

TEST(StepProgramTest, OddStepsRunXThenZAndEvenStepsZThenX) {
  const Grid grid(GridSpec{8, 8, 800.0, 800.0});
  const StepResources resources{step_field_shapes(grid, Granularity::fused),
                                grid.geometry(),
                                {},
                                nullptr,
                                CaseName::thermal,
                                Granularity::fused,
                                GhostFill{},
                                HealthCheckOps{}};
  const StepProgram odd = build_step_program(resources, StepParity::odd, 0);
  const StepProgram even = build_step_program(resources, StepParity::even, 0);
  EXPECT_EQ(odd.ops().front().name, "x.stage1.fill_halos");
  EXPECT_EQ(odd.ops().back().name, "z.stage3.update");
  EXPECT_EQ(even.ops().front().name, "z.stage1.fill_halos");
  EXPECT_EQ(even.ops().back().name, "x.stage3.update");
  EXPECT_EQ(parity_of(1), StepParity::odd);
  EXPECT_EQ(parity_of(2), StepParity::even);
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
  // The refresh, 3 steps, and the health check after the chunk's last step (every 10 steps).
  ASSERT_EQ(plan.chunk.ops().size(), 1u + 3u * 18u + 2u);
  EXPECT_EQ(plan.chunk.ops()[0].kind, OpKind::transfer);
  EXPECT_EQ(plan.chunk.ops()[1 + 54].name, "step3/check_health");
  EXPECT_EQ(plan.chunk.ops()[1 + 55].name, "step3/count_health_check");
  EXPECT_EQ(plan.chunk.ops()[1].name, "step1/x.stage1.fill_halos");
  EXPECT_EQ(plan.chunk.ops()[1 + 18].name, "step2/z.stage1.fill_halos");
  EXPECT_EQ(plan.chunk.ops()[1 + 36].name, "step3/x.stage1.fill_halos");
  EXPECT_EQ(plan.chunk.segments().size(), 1u);
  // 6000 steps = 2000 chunks of 3, odd K: chunks start on both parities.
  EXPECT_EQ(plan.full_chunks, 2000);
  EXPECT_EQ(plan.remainder_steps, 0);
  EXPECT_EQ(plan.distinct_chunks, 2);
}

TEST(StepProgramTest, ChunkChecksHealthEveryNStepsAndAfterItsLastStep) {
  RunSpec spec = plan_spec(Granularity::stage);
  spec.execution.steps_per_graph = 5;
  spec.execution.check_every = 2;
  const StepOutline checked = outline_steps(spec);
  std::vector<std::string> checks;
  for (const StepOp& op : checked.chunk.ops())
    if (op.name.ends_with("check_health")) checks.push_back(op.name);
  EXPECT_EQ(checks, (std::vector<std::string>{"step2/check_health", "step4/check_health", "step5/check_health"}));
  spec.execution.check_every = 0;
  const StepOutline unchecked = outline_steps(spec);
  for (const StepOp& op : unchecked.chunk.ops()) EXPECT_EQ(op.name.find("health"), std::string::npos) << op.name;
}

TEST(StepProgramTest, ChecksFollowEveryLaneOfTheStep) {
  RunSpec spec = plan_spec(Granularity::fine);
  spec.execution.steps_per_graph = 1;
  const StepOutline plan = outline_steps(spec);
  const std::vector<StepOp>& ops = plan.chunk.ops();
  ASSERT_GE(ops.size(), 3u);
  EXPECT_EQ(ops[ops.size() - 3].kind, OpKind::join);  // the fine step ends on four lanes
  EXPECT_EQ(ops[ops.size() - 2].name, "step1/check_health");
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
StepResources described_resources(Granularity granularity, const GhostFill& fill) {
  const Grid grid(GridSpec{16, 16, 1600.0, 1600.0});
  return {step_field_shapes(grid, granularity),
          grid.geometry(),
          {},
          nullptr,
          CaseName::thermal,
          granularity,
          fill,
          HealthCheckOps{}};
}

/// A rank inside a 3 x 3 layout: neighbours on all four sides, no wall.
StepProgram interior_rank_step(HaloPath path, Granularity granularity) {
  const GhostFill fill{true, true, {false, false}, path, /*overlap=*/true, nullptr, nullptr};
  return build_step_program(described_resources(granularity, fill), StepParity::odd, 0);
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
        GhostFill fill;
        fill.exchange_x = x;
        fill.exchange_z = z;
        fill.z_walls = {!z, !z};
        fill.path = path;
        const bool expected = path != HaloPath::nccl && (x || z);
        EXPECT_EQ(exchanges_halos_on_host(fill), expected);
        for (Granularity granularity : {Granularity::fine, Granularity::fused, Granularity::stage}) {
          const StepProgram step = build_step_program(described_resources(granularity, fill), StepParity::odd, 0);
          EXPECT_EQ(step.count(OpKind::host) > 0, expected)
              << "path " << static_cast<int>(path) << ", x " << x << ", z " << z << ", " << to_string(granularity);
        }
      }
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
    // So automatic K may put several steps in a graph, where host exchanges force one.
    const ExecutionSpec automatic{};
    EXPECT_EQ(steps_per_graph(automatic, by_mpi.count(OpKind::kernel), by_mpi.count(OpKind::host)), 1);
    EXPECT_GT(steps_per_graph(automatic, by_nccl.count(OpKind::kernel), by_nccl.count(OpKind::host)), 1);
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

}  // namespace
}  // namespace simapp
