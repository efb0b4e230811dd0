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
#include "solver/step/step_description.hpp"
#include "solver/step/step_elements.hpp"
#include "solver/step/steps_per_graph.hpp"
#include "solver/time/time_stepping.hpp"

namespace simapp {

namespace {

/// The outline's counts of a run whose one odd step is `plan.step`, its chunks made by
/// `chunk_of(layout)`.
template <class ChunkOf>
void count_chunks(const RunSpec& spec, const Grid& grid, const Cadences& cadences, StepOutline& plan,
                  const ChunkOf& chunk_of) {
  plan.steps_per_graph = steps_per_graph(spec.execution, plan.step, cadences);
  plan.num_steps = TimeStepping(spec.time.sim_time, grid.horizontal_spacing(), grid.dz(), spec.time.cfl,
                                spec.physics.largest_coefficient())
                       .num_steps();
  const int first_chunk = static_cast<int>(std::min<long>(plan.steps_per_graph, plan.num_steps));
  plan.chunk = chunk_of(chunk_layout(0, first_chunk, plan.num_steps, cadences));
  plan.full_chunks = plan.num_steps / plan.steps_per_graph;
  plan.remainder_steps = static_cast<int>(plan.num_steps % plan.steps_per_graph);
  plan.distinct_chunks = distinct_chunk_layouts(plan.num_steps, plan.steps_per_graph, cadences);
}

template <int Dims>
StepOutline plan_on(const RunSpec& spec, const Grid& grid, const GhostFill<Dims>& halo) {
  const StepResources<Dims> resources = described_resources(spec, grid, halo);
  StepOutline plan;
  plan.description = describe_step(model_step_scheme<Dims>(), halo.domain, spec.execution.check_every);
  plan.step = build_step_program(resources, StepParity::odd, 0);
  count_chunks(spec, grid, element_cadences(resources), plan,
               [&](const ChunkLayout& layout) { return build_chunk_program(resources, layout); });
  return plan;
}

}  // namespace

int distinct_chunk_layouts(long num_steps, int steps_per_graph, const Cadences& cadences) {
  const long k = steps_per_graph;
  const long chunks = (num_steps + k - 1) / k;
  // The chunks before the last hold k steps and take their layout from their first step modulo
  // lcm(2, period of the cadences) alone (the parity, the elements), so one period of them
  // shows every layout.
  const long period = cadence_period(cadences);
  const long modulus = period > 0 ? std::lcm(2L, period) : 2;
  const long before_last = std::min(chunks - 1, modulus / std::gcd(k, modulus));
  std::set<ChunkLayout> layouts;
  for (long n = 0; n < before_last;) {
    const ChunkLayout layout = chunk_layout(n * k, steps_per_graph, num_steps, cadences);
    layouts.insert(layout);
    if (!layout.runs.empty()) {
      ++n;
      continue;
    }
    // No element: nor in the chunks up to the one that holds the next step an element follows;
    // they alternate in parity (one parity when k is even).
    const long next_step = next_element_step(n * k, num_steps, cadences);
    const long element_chunk = next_step > 0 ? (next_step - 1) / k : before_last;
    const long next = std::min(element_chunk, before_last);
    if (next - n >= 2) layouts.insert(chunk_layout((n + 1) * k, steps_per_graph, num_steps, cadences));
    n = next;
  }
  const long last = (chunks - 1) * k;
  layouts.insert(chunk_layout(last, static_cast<int>(num_steps - last), num_steps, cadences));
  return static_cast<int>(layouts.size());
}

template <int Dims>
BoundaryConditions<Dims> domain_sides(CaseName name) {
  if constexpr (Dims == 3)
    return periodic_in_y(case_boundaries(name));
  else
    return case_boundaries(name);
}

template <int Dims>
GhostFill<Dims> ghost_fill(const RunSpec& spec, const Decomposition& decomposition, HaloPath path) {
  const BoundaryConditions<Dims> domain = domain_sides<Dims>(spec.case_name);
  return {domain, rank_boundaries(domain, decomposition.box(), decomposition.global()), path,
          spec.parallel.overlap == HaloOverlap::on};
}

template <int Dims, class Real>
StepResources<Dims, Real> described_resources(const RunSpec& spec, const Grid& grid, const GhostFill<Dims>& halo) {
  const SourceTerms<Dims> sources{{gravity_wave_source(spec.case_name, configured_bump<Dims>(spec))}};
  StepResources<Dims, Real> resources{step_field_shapes<Dims, Real>(grid, spec.execution.granularity),
                                      grid.geometry<Dims>(),
                                      {},
                                      nullptr,
                                      sources,
                                      spec.execution.granularity,
                                      halo,
                                      HealthCheckOps{spec.execution.check_every, nullptr, nullptr}};
  if (spec.grid.microphysics != Microphysics::none) {
    MicrophysicsArguments<Dims, Real>& microphysics = resources.microphysics;
    microphysics.every = spec.moisture.every;
    microphysics.state = resources.fields.state;
    microphysics.geometry = resources.geometry;
    microphysics.first_water = ModelVariables<Dims>::count;
    microphysics.rain = spec.moisture.rain == Rain::on;
  }
  return resources;
}

StepOutline outline_steps(const RunSpec& spec) {
  const Grid grid(spec.grid);
  if (grid.is_3d()) {
    const BoundaryConditions<3> domain = domain_sides<3>(spec.case_name);
    return plan_on(spec, grid, GhostFill<3>{domain, domain});
  }
  const BoundaryConditions<2> domain = domain_sides<2>(spec.case_name);
  return plan_on(spec, grid, GhostFill<2>{domain, domain});
}

StepOutline outline_steps(const RunSpec& spec, const Decomposition& decomposition, HaloPath path) {
  const Grid grid(spec.grid, decomposition.box());
  if (grid.is_3d()) return plan_on(spec, grid, ghost_fill<3>(spec, decomposition, path));
  return plan_on(spec, grid, ghost_fill<2>(spec, decomposition, path));
}

template BoundaryConditions<2> domain_sides<2>(CaseName);
template BoundaryConditions<3> domain_sides<3>(CaseName);
template GhostFill<2> ghost_fill<2>(const RunSpec&, const Decomposition&, HaloPath);
template GhostFill<3> ghost_fill<3>(const RunSpec&, const Decomposition&, HaloPath);
template StepResources<2, double> described_resources<2, double>(const RunSpec&, const Grid&, const GhostFill<2>&);
template StepResources<3, double> described_resources<3, double>(const RunSpec&, const Grid&, const GhostFill<3>&);
template StepResources<2, float> described_resources<2, float>(const RunSpec&, const Grid&, const GhostFill<2>&);
template StepResources<3, float> described_resources<3, float>(const RunSpec&, const Grid&, const GhostFill<3>&);

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
