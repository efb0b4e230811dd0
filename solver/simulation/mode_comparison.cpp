#include "solver/simulation/mode_comparison.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "kernels/backend/stream_timer.hpp"
#include "kernels/physics/variables.hpp"
#include "solver/halo/halo_path.hpp"
#include "solver/step/step_plan.hpp"

namespace simapp {

namespace {

constexpr ExecutionMode compared_modes[] = {ExecutionMode::eager_sync, ExecutionMode::eager, ExecutionMode::eager_streams,
                                           ExecutionMode::graph, ExecutionMode::graph_loop};

/// Describes the first cell where two host states differ bit-wise, or "" when they are equal.
std::string first_difference(const std::vector<double>& a, const std::vector<double>& b, const FieldShape& shape) {
  for (std::size_t n = 0; n < a.size(); ++n) {
    if (std::memcmp(&a[n], &b[n], sizeof(double)) == 0) continue;
    const std::size_t v = n / shape.var_stride();
    const std::size_t rest = n % shape.var_stride();
    const long k = static_cast<long>(rest / shape.padded_nx()) - shape.halo;
    const long i = static_cast<long>(rest % shape.padded_nx()) - shape.halo;
    return std::string(variable_names[v]) + " at k=" + std::to_string(k) + " i=" + std::to_string(i);
  }
  return a.size() == b.size() ? "" : "state sizes differ";
}

/// Runs the whole case once with the simulation's executor, timed on its stream.
double timed_run(Simulation& simulation) {
  StreamTimer timer(simulation.stream());
  timer.start();
  while (!simulation.finished()) simulation.advance_chunk();
  timer.stop();
  return timer.seconds();
}

}  // namespace

ModeComparison compare_modes(const RunSpec& spec, Backend backend, const Decomposition& decomposition,
                             const std::function<void(ExecutionMode)>& on_mode) {
  ModeComparison comparison;
  std::vector<double> reference;
  comparison.identical = true;
  for (const ExecutionMode mode : compared_modes) {
    if (!mode_runs_on(mode, backend)) continue;
    if (mode == ExecutionMode::graph_loop &&
        !graph_loop_possible(plan_steps(spec, decomposition, halo_path(backend, spec.parallel))))
      continue;  // the host exchanges halos within the step: no loop on the device
    on_mode(mode);
    Simulation simulation(spec, backend, mode, decomposition);
    comparison.steps_per_graph = simulation.steps_per_graph();
    simulation.prepare();
    const Diagnostics initial = simulation.diagnostics();

    // Warm-up: a few chunks (clocks, caches, lazy module loading), then back to the start.
    comparison.warmup_steps = std::min<long>(simulation.time_plan().num_steps(), 4L * simulation.steps_per_graph());
    while (simulation.step() < comparison.warmup_steps) simulation.advance_chunk();
    simulation.synchronize();
    simulation.reset();
    simulation.prepare();

    const ExecutorStats before = simulation.executor_stats();
    ModeTiming timing;
    timing.mode = mode;
    timing.seconds = timed_run(simulation);
    MPI_Allreduce(MPI_IN_PLACE, &timing.seconds, 1, MPI_DOUBLE, MPI_MAX, decomposition.comm());
    timing.steps = simulation.step();
    timing.stats = simulation.executor_stats();
    timing.kernels_per_step = static_cast<double>(simulation.kernels_per_step());
    timing.launches_per_step =
        static_cast<double>(timing.stats.launches - before.launches) / static_cast<double>(timing.steps);
    timing.change = relative_change(initial, simulation.diagnostics());
    comparison.modes.push_back(timing);

    std::vector<double> state = simulation.state_on_host();
    if (reference.empty()) {
      reference = std::move(state);
    } else if (const std::string difference = first_difference(state, reference, simulation.grid().cell_shape());
               !difference.empty() && comparison.identical) {
      comparison.identical = false;
      comparison.difference = std::string(to_string(mode)) + " vs eager_sync on rank " +
                              std::to_string(decomposition.rank()) + ": " + difference;
    }
  }
  int identical_everywhere = comparison.identical ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &identical_everywhere, 1, MPI_INT, MPI_MIN, decomposition.comm());
  if (comparison.identical && identical_everywhere == 0) comparison.difference = "on another rank";
  comparison.identical = identical_everywhere == 1;
  return comparison;
}

}  // namespace simapp

namespace simapp {

const ModeTiming& timing_of(const ModeComparison& comparison, ExecutionMode mode) {
  for (const ModeTiming& timing : comparison.modes)
    if (timing.mode == mode) return timing;
  throw std::out_of_range("timing_of: mode not compared");
}

double speedup(const ModeComparison& comparison, ExecutionMode mode, ExecutionMode baseline) {
  return timing_of(comparison, baseline).seconds_per_step() / timing_of(comparison, mode).seconds_per_step();
}

double break_even_replays(const ModeComparison& comparison) {
  const ModeTiming& graph = timing_of(comparison, ExecutionMode::graph);
  const double saving_per_step =
      timing_of(comparison, ExecutionMode::eager).seconds_per_step() - graph.seconds_per_step();
  if (saving_per_step <= 0.0) return std::numeric_limits<double>::infinity();
  const double one_time = graph.stats.capture_seconds + graph.stats.instantiate_seconds;
  return one_time / (saving_per_step * comparison.steps_per_graph);
}

}  // namespace simapp
