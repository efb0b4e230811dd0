#pragma once
/// How many steps one captured graph holds (execution.steps_per_graph; 0 = automatic).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdlib>

#include "solver/spec/run_spec.hpp"
#include "solver/step/cadence.hpp"
#include "solver/step/step_program.hpp"

namespace simapp {

/// Kernels a graph should hold when the choice is automatic. The measured per-node replay
/// cost is flat from 50 to 5000 nodes, so larger graphs only amortize the per-graph launch
/// further; a few hundred keeps instantiation (µs per node) and memory small.
inline constexpr std::size_t automatic_kernels_per_graph = 250;

/// The most steps one graph may hold (execution.steps_per_graph): a graph's replay costs the
/// same per node from a few hundred nodes up, while each of its steps takes nodes, capture and
/// instantiation time, and a StepParams<2> slot.
inline constexpr int max_steps_per_graph = 1024;

/// `steps` made a multiple of the period of `cadences` (cadence_period: their lcm; the nearest
/// multiple), or where fewer, a divisor of it (the nearest), so that the chunks of that many steps from a
/// multiple of the period on put every element (the health check among them) after the same
/// steps and one graph serves them all; `steps` as it is where no element runs.
inline int aligned_to_cadences(int steps, const Cadences& cadences) {
  const long period = cadence_period(cadences);
  if (period <= 0) return steps;
  if (steps >= period) return static_cast<int>((steps + period / 2) / period * period);
  int nearest = 1;
  for (int divisor = 1; divisor <= period; ++divisor)
    if (period % divisor == 0 && std::abs(divisor - steps) < std::abs(nearest - steps)) nearest = divisor;
  return nearest;
}

/// K: as configured, else 1 when a step has Host ops (a graph cannot span them, so more
/// steps per chunk only add graphs), else about automatic_kernels_per_graph kernels, aligned to
/// the cadences of the step's elements.
inline int steps_per_graph(const ExecutionSpec& execution, std::size_t kernels_per_step, std::size_t host_ops_per_step,
                           const Cadences& cadences) {
  if (execution.steps_per_graph > 0) return execution.steps_per_graph;
  if (host_ops_per_step > 0) return 1;
  const double steps =
      std::round(static_cast<double>(automatic_kernels_per_graph) / static_cast<double>(kernels_per_step));
  return aligned_to_cadences(std::max(1, static_cast<int>(steps)), cadences);
}

/// The steps per graph of a run whose steps are like `step`, with elements of `cadences`.
inline int steps_per_graph(const ExecutionSpec& execution, const StepProgram& step, const Cadences& cadences) {
  return steps_per_graph(execution, step.count(OpKind::kernel), step.count(OpKind::host), cadences);
}

}  // namespace simapp
