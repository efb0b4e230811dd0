#include "solver/simulation/mode_comparison.hpp"

#include <algorithm>
#include <cstring>
#include <limits>

#include "kernels/backend/stream_timer.hpp"
#include "kernels/physics/variables.hpp"
#include "solver/simulation/mode_support.hpp"

namespace simapp {

namespace {

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
  ExecutionMode reference_mode = ExecutionMode::eager_sync;
  comparison.identical = true;
  for (const ExecutionMode mode : spec.execution.compare) {
    if (std::string why = why_mode_cannot_run(mode, spec, backend, decomposition); !why.empty()) {
      comparison.skipped.push_back({mode, std::move(why)});
      continue;
    }
    on_mode(mode);
    Simulation simulation(spec, backend, mode, decomposition);
    comparison.steps_per_graph = simulation.steps_per_graph();
    simulation.prepare();
    const Diagnostics initial = simulation.diagnostics();

    // Warm-up: a few chunks (clocks, caches, lazy module loading), then back to the start.
    comparison.warmup_steps = std::min<long>(simulation.time_stepping().num_steps(), 4L * simulation.steps_per_graph());
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
    timing.launches_per_step =
        static_cast<double>(timing.stats.launches - before.launches) / static_cast<double>(timing.steps);
    // The persistent kernel is one kernel for all of its steps.
    timing.kernels_per_step = mode == ExecutionMode::persistent ? timing.launches_per_step
                                                                : static_cast<double>(simulation.kernels_per_step());
    timing.change = relative_change(initial, simulation.diagnostics());
    if (mode == ExecutionMode::persistent)
      timing.grid_barriers_per_step = simulation.persistent_launch().barrier_a_pass ? 2 : 2 * rk_stages;
    comparison.modes.push_back(timing);

    std::vector<double> state = simulation.state_on_host();
    if (reference.empty()) {
      reference = std::move(state);
      reference_mode = mode;
    } else if (const std::string difference = first_difference(state, reference, simulation.grid().cell_shape());
               !difference.empty() && comparison.identical) {
      comparison.identical = false;
      comparison.difference = std::string(to_string(mode)) + " vs " + std::string(to_string(reference_mode)) +
                              " on rank " + std::to_string(decomposition.rank()) + ": " + difference;
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

const ModeTiming* timing_of(const ModeComparison& comparison, ExecutionMode mode) {
  for (const ModeTiming& timing : comparison.modes)
    if (timing.mode == mode) return &timing;
  return nullptr;
}

std::optional<double> speedup(const ModeComparison& comparison, ExecutionMode mode, ExecutionMode baseline) {
  const ModeTiming* of_mode = timing_of(comparison, mode);
  const ModeTiming* of_baseline = timing_of(comparison, baseline);
  if (of_mode == nullptr || of_baseline == nullptr) return std::nullopt;
  return of_baseline->seconds_per_step() / of_mode->seconds_per_step();
}

std::optional<double> break_even_steps(const ModeComparison& comparison, ExecutionMode mode) {
  const ModeTiming* graph = timing_of(comparison, mode);
  const ModeTiming* eager = timing_of(comparison, ExecutionMode::eager);
  if (graph == nullptr || eager == nullptr || graph->stats.captures == 0) return std::nullopt;
  const double saving_per_step = eager->seconds_per_step() - graph->seconds_per_step();
  if (saving_per_step <= 0.0) return std::numeric_limits<double>::infinity();
  const double one_time = graph->stats.capture_seconds + graph->stats.instantiate_seconds;
  return one_time / saving_per_step;
}

}  // namespace simapp
