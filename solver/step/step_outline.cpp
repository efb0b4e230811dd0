#include "solver/step/step_outline.hpp"

#include <algorithm>
#include <array>

#include "solver/grid/grid.hpp"
#include "solver/state/workspace.hpp"
#include "solver/step/build_step_program.hpp"
#include "solver/step/steps_per_graph.hpp"
#include "solver/time/time_stepping.hpp"

namespace simapp {

namespace {

StepOutline plan_on(const RunSpec& spec, const Grid& grid, const GhostFill& halo) {
  const StepResources resources{step_field_shapes(grid, spec.execution.granularity),
                                grid.geometry(),
                                {},
                                nullptr,
                                spec.case_name,
                                spec.execution.granularity,
                                halo,
                                HealthCheckOps{spec.execution.check_every, nullptr, nullptr}};
  StepOutline plan;
  plan.step = build_step_program(resources, StepParity::odd, 0);
  plan.steps_per_graph = steps_per_graph(spec.execution, plan.step);
  plan.chunk = build_chunk_program(resources, StepParity::odd, plan.steps_per_graph);
  plan.num_steps =
      TimeStepping(spec.time.sim_time, grid.dx(), grid.dz(), spec.time.cfl, spec.physics.viscosity).num_steps();
  plan.full_chunks = plan.num_steps / plan.steps_per_graph;
  plan.remainder_steps = static_cast<int>(plan.num_steps % plan.steps_per_graph);
  const long full_variants =
      plan.steps_per_graph % 2 == 0 ? std::min(plan.full_chunks, 1L) : std::min(plan.full_chunks, 2L);
  plan.distinct_chunks = static_cast<int>(full_variants) + (plan.remainder_steps > 0 ? 1 : 0);
  return plan;
}

}  // namespace

StepOutline outline_steps(const RunSpec& spec) { return plan_on(spec, Grid(spec.grid), GhostFill{}); }

GhostFill ghost_fill(const RunSpec& spec, const Decomposition& decomposition, HaloPath path) {
  return {decomposition.splits_x(),
          decomposition.splits_z(),
          {decomposition.at_bottom(), decomposition.at_top()},
          path,
          spec.parallel.overlap == HaloOverlap::on,
          nullptr,
          nullptr};
}

StepOutline outline_steps(const RunSpec& spec, const Decomposition& decomposition, HaloPath path) {
  return plan_on(spec, Grid(spec.grid, decomposition.box()), ghost_fill(spec, decomposition, path));
}

std::size_t critical_path_kernels(const StepProgram& program) {
  std::size_t total = 0;
  std::array<std::size_t, max_lanes> per_lane{};
  for (const StepOp& op : program.ops()) {
    if (op.kind == OpKind::kernel) ++per_lane[op.lane];
    if (op.kind == OpKind::join || op.kind == OpKind::host) {
      total += *std::ranges::max_element(per_lane);
      per_lane.fill(0);
    }
  }
  return total + *std::ranges::max_element(per_lane);
}

std::size_t device_ops(const StepProgram& program, const Segment& segment) {
  return static_cast<std::size_t>(std::count_if(
      program.ops().begin() + static_cast<long>(segment.first), program.ops().begin() + static_cast<long>(segment.last),
      [](const StepOp& op) { return op.kind == OpKind::kernel || op.kind == OpKind::transfer; }));
}

}  // namespace simapp
