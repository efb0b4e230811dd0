#include "solver/step/step_outline.hpp"

#include <algorithm>
#include <array>
#include <numeric>
#include <set>

#include "kernels/boundary/boundary_conditions.hpp"
#include "kernels/cases/case_list.hpp"
#include "solver/grid/grid.hpp"
#include "solver/halo/rank_boundaries.hpp"
#include "solver/state/workspace.hpp"
#include "solver/step/build_step_program.hpp"
#include "solver/step/build_step_program_3d.hpp"
#include "solver/step/step_description.hpp"
#include "solver/step/steps_per_graph.hpp"
#include "solver/time/time_stepping.hpp"

namespace simapp {

namespace {

/// The outline's counts of a run whose one odd step is `plan.step`, its chunks made by
/// `chunk_of(layout)`.
template <class ChunkOf>
void count_chunks(const RunSpec& spec, const Grid& grid, StepOutline& plan, const ChunkOf& chunk_of) {
  plan.steps_per_graph = steps_per_graph(spec.execution, plan.step);
  plan.num_steps =
      TimeStepping(spec.time.sim_time, grid.horizontal_spacing(), grid.dz(), spec.time.cfl, spec.physics.viscosity)
          .num_steps();
  const int every = spec.execution.check_every;
  const int first_chunk = static_cast<int>(std::min<long>(plan.steps_per_graph, plan.num_steps));
  plan.chunk = chunk_of(chunk_layout(0, first_chunk, plan.num_steps, every));
  plan.full_chunks = plan.num_steps / plan.steps_per_graph;
  plan.remainder_steps = static_cast<int>(plan.num_steps % plan.steps_per_graph);
  plan.distinct_chunks = distinct_chunk_layouts(plan.num_steps, plan.steps_per_graph, every);
}

/// The 3-D model's outline on the rank of `grid`'s box, its halo messages taking `path`.
StepOutline plan_on_3d(const RunSpec& spec, const Grid& grid, HaloPath path) {
  const BoundaryConditions<3> domain = periodic_in_y(case_boundaries(spec.case_name));
  const StepResources3d resources{step_field_shapes<3>(grid, spec.execution.granularity),
                                  grid.geometry<3>(),
                                  {},
                                  nullptr,
                                  gravity_wave_source(spec.case_name, configured_bump<3>(spec)),
                                  spec.execution.granularity,
                                  domain,
                                  rank_boundaries(domain, grid.box(), grid.spec()),
                                  HealthCheckOps{spec.execution.check_every, nullptr, nullptr},
                                  {path, nullptr, nullptr, nullptr},
                                  spec.parallel.overlap == HaloOverlap::on};
  StepOutline plan;
  plan.description = describe_step(step_scheme_3d(), domain, spec.execution.check_every);
  plan.step = build_step_program_3d(resources, StepParity::odd, 0);
  count_chunks(spec, grid, plan, [&](const ChunkLayout& layout) { return build_chunk_program_3d(resources, layout); });
  return plan;
}

StepOutline plan_on(const RunSpec& spec, const Grid& grid, const GhostFill& halo) {
  if (grid.is_3d()) return plan_on_3d(spec, grid, halo.path);
  const StepResources resources{step_field_shapes<2>(grid, spec.execution.granularity),
                                grid.geometry<2>(),
                                {},
                                nullptr,
                                gravity_wave_source(spec.case_name, configured_bump<2>(spec)),
                                spec.execution.granularity,
                                halo,
                                HealthCheckOps{spec.execution.check_every, nullptr, nullptr}};
  StepOutline plan;
  plan.description = describe_step(step_scheme(), halo.domain, spec.execution.check_every);
  plan.step = build_step_program(resources, StepParity::odd, 0);
  count_chunks(spec, grid, plan, [&](const ChunkLayout& layout) { return build_chunk_program(resources, layout); });
  return plan;
}

}  // namespace

int distinct_chunk_layouts(long num_steps, int steps_per_graph, int check_every) {
  const long k = steps_per_graph;
  const long chunks = (num_steps + k - 1) / k;
  // The chunks before the last hold k steps and take their layout from their first step modulo
  // lcm(2, check_every) alone (the parity, the checks), so one period of them shows every layout.
  const long modulus = check_every > 0 ? std::lcm(2L, static_cast<long>(check_every)) : 2;
  const long before_last = std::min(chunks - 1, modulus / std::gcd(k, modulus));
  std::set<ChunkLayout> layouts;
  for (long n = 0; n < before_last;) {
    const ChunkLayout layout = chunk_layout(n * k, steps_per_graph, num_steps, check_every);
    layouts.insert(layout);
    if (!layout.checked.empty()) {
      ++n;
      continue;
    }
    // No check: nor in the chunks up to the one that holds the next multiple of check_every;
    // they alternate in parity (one parity when k is even).
    const long checked_chunk = check_every > 0 ? ((n * k / check_every + 1) * check_every - 1) / k : before_last;
    const long next = std::min(checked_chunk, before_last);
    if (next - n >= 2) layouts.insert(chunk_layout((n + 1) * k, steps_per_graph, num_steps, check_every));
    n = next;
  }
  const long last = (chunks - 1) * k;
  layouts.insert(chunk_layout(last, static_cast<int>(num_steps - last), num_steps, check_every));
  return static_cast<int>(layouts.size());
}

StepOutline outline_steps(const RunSpec& spec) {
  const BoundaryConditions<2> domain = case_boundaries(spec.case_name);
  return plan_on(spec, Grid(spec.grid), GhostFill{domain, domain});
}

GhostFill ghost_fill(const RunSpec& spec, const Decomposition& decomposition, HaloPath path) {
  const BoundaryConditions<2> domain = case_boundaries(spec.case_name);
  return {domain,  rank_boundaries(domain, decomposition.box(), decomposition.global()),
          path,    spec.parallel.overlap == HaloOverlap::on,
          nullptr, nullptr};
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
