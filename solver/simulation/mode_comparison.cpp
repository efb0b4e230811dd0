#include "solver/simulation/mode_comparison.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <limits>

#include "foundation/host_clock.hpp"
#include "kernels/backend/stream_timer.hpp"
#include "kernels/physics/variables.hpp"
#include "solver/executor/executor_factory.hpp"

namespace simapp {

namespace {

/// Describes the first cell where two host states differ bit-wise, or "" when they are equal.
std::string first_difference(const std::vector<double>& a, const std::vector<double>& b, const FieldShape<2>& shape) {
  for (std::size_t n = 0; n < a.size(); ++n) {
    if (std::memcmp(&a[n], &b[n], sizeof(double)) == 0) continue;
    const std::size_t v = n / shape.var_stride();
    const std::size_t rest = n % shape.var_stride();
    const long k = static_cast<long>(rest / shape.padded_nx()) - shape.halo;
    const long i = static_cast<long>(rest % shape.padded_nx()) - shape.halo;
    return std::string(variable_names<2>[v]) + " at k=" + std::to_string(k) + " i=" + std::to_string(i);
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

namespace {

/// One timed run of `mode`: a simulation of its own from the initial state, a warm-up (clocks,
/// caches, lazy module loading), back to the start with every graph captured, then every step.
/// The first run of a mode keeps its figures and its final state as the reference of `mode`;
/// every later one adds its time and is checked against the reference of the first mode run.
class ModeRuns {
 public:
  ModeRuns(const RunSpec& spec, Backend backend, const Decomposition& decomposition, ModeComparison& comparison)
      : spec_(spec), backend_(backend), decomposition_(decomposition), comparison_(comparison) {}

  void run(ModeTiming& timing) {
    Simulation simulation(spec_, backend_, timing.mode, decomposition_);
    comparison_.steps_per_graph = simulation.steps_per_graph();
    simulation.prepare();
    const Diagnostics initial = simulation.diagnostics();
    comparison_.warmup_steps =
        std::min<long>(simulation.time_stepping().num_steps(), 4L * simulation.steps_per_graph());
    while (simulation.step() < comparison_.warmup_steps) simulation.advance_chunk();
    simulation.synchronize();
    simulation.reset();
    simulation.prepare();

    const ExecutorStats before = simulation.executor_stats();
    double seconds = timed_run(simulation);
    MPI_Allreduce(MPI_IN_PLACE, &seconds, 1, MPI_DOUBLE, MPI_MAX, decomposition_.comm());
    timing.steps = simulation.step();
    timing.seconds_per_step.push_back(seconds / static_cast<double>(timing.steps));
    if (timing.seconds_per_step.size() == 1) {
      timing.stats = simulation.executor_stats();
      timing.launches_per_step =
          static_cast<double>(timing.stats.launches - before.launches) / static_cast<double>(timing.steps);
      // A persistent kernel is one kernel for all of its steps.
      const LaunchDescription launch = simulation.launch_description();
      timing.kernels_per_step =
          launch.one_kernel_a_launch ? timing.launches_per_step : static_cast<double>(simulation.kernels_per_step());
      timing.change = relative_change(initial, simulation.diagnostics());
      timing.grid_barriers_per_step = launch.grid_barriers_per_step;
    }
    check_state(timing.mode, simulation);
  }

 private:
  void check_state(ExecutionMode mode, const Simulation& simulation) {
    std::vector<double> state = simulation.state_on_host();
    if (reference_.empty()) {
      reference_ = std::move(state);
      reference_mode_ = mode;
    } else if (const std::string difference = first_difference(state, reference_, simulation.grid().cell_shape<2>());
               !difference.empty() && comparison_.identical) {
      comparison_.identical = false;
      comparison_.difference = std::string(to_string(mode)) + " vs " + std::string(to_string(reference_mode_)) +
                               " on rank " + std::to_string(decomposition_.rank()) + ": " + difference;
    }
  }

  const RunSpec& spec_;
  Backend backend_;
  const Decomposition& decomposition_;
  ModeComparison& comparison_;
  std::vector<double> reference_;
  ExecutionMode reference_mode_ = ExecutionMode::eager_sync;
};

/// Whether another round is due after `done`: execution.repeats of them, then, with
/// execution.max_noise, until every median is known to it or execution.max_noise_time has
/// passed (rank 0's clock decides for every rank).
bool round_due(const ModeComparison& comparison, const ExecutionSpec& execution, int done, double seconds,
               MPI_Comm comm) {
  if (done < execution.repeats) return true;
  if (execution.max_noise <= 0.0) return false;
  int due = seconds < execution.max_noise_time && std::ranges::any_of(comparison.modes, [&](const ModeTiming& timing) {
              return summarize(timing.seconds_per_step).median_noise() > execution.max_noise;
            });
  MPI_Bcast(&due, 1, MPI_INT, 0, comm);
  return due != 0;
}

/// Whether any rank was asked to stop (collective).
bool stop_agreed(const std::function<bool()>& stop_requested, MPI_Comm comm) {
  int stop = stop_requested && stop_requested() ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &stop, 1, MPI_INT, MPI_MAX, comm);
  return stop != 0;
}

}  // namespace

ModeComparison compare_modes(const RunSpec& spec, Backend backend, const Decomposition& decomposition,
                             const std::function<void(const ComparisonProgress&)>& on_mode,
                             const std::function<bool()>& stop_requested) {
  ModeComparison comparison;
  comparison.identical = true;
  for (const ExecutionMode mode : spec.execution.compare) {
    if (std::string why = why_mode_cannot_run(mode, spec, backend, decomposition); !why.empty())
      comparison.skipped.push_back({mode, std::move(why)});
    else
      comparison.modes.emplace_back().mode = mode;
  }
  ModeRuns runs(spec, backend, decomposition, comparison);
  const auto started = std::chrono::steady_clock::now();
  while (!comparison.stopped && !comparison.modes.empty() &&
         round_due(comparison, spec.execution, comparison.rounds, seconds_since(started), decomposition.comm())) {
    const int round = ++comparison.rounds;
    const int count = static_cast<int>(comparison.modes.size());
    for (int position = 0; position < count; ++position) {
      comparison.stopped = stop_agreed(stop_requested, decomposition.comm());
      if (comparison.stopped) break;
      ModeTiming& timing = comparison.modes[static_cast<std::size_t>(round % 2 == 1 ? position : count - 1 - position)];
      on_mode({round, std::max(round, spec.execution.repeats), position, timing.mode});
      runs.run(timing);
      ++comparison.timed_runs;
    }
  }
  if (comparison.stopped) return comparison;  // the same on every rank; some modes may have no time yet
  for (ModeTiming& timing : comparison.modes) timing.per_step = summarize(timing.seconds_per_step);
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

std::optional<RangedValue> speedup(const ModeComparison& comparison, ExecutionMode mode, ExecutionMode baseline) {
  const ModeTiming* of_mode = timing_of(comparison, mode);
  const ModeTiming* of_baseline = timing_of(comparison, baseline);
  if (of_mode == nullptr || of_baseline == nullptr) return std::nullopt;
  if (mode == baseline) return RangedValue{1.0, 1.0, 1.0};
  const auto [low, high] = ratio_range(of_baseline->per_step, of_mode->per_step);
  return RangedValue{of_baseline->per_step.median / of_mode->per_step.median, low, high};
}

std::optional<RangedValue> break_even_steps(const ModeComparison& comparison, ExecutionMode mode) {
  const ModeTiming* graph = timing_of(comparison, mode);
  const ModeTiming* eager = timing_of(comparison, ExecutionMode::eager);
  if (graph == nullptr || eager == nullptr || graph->stats.captures == 0) return std::nullopt;
  const double one_time = graph->stats.capture_seconds + graph->stats.instantiate_seconds;
  // The steps that repay `one_time` at a saving of `saving` a step; never without a saving.
  const auto repaid_after = [one_time](double saving) {
    return saving > 0.0 ? one_time / saving : std::numeric_limits<double>::infinity();
  };
  return RangedValue{repaid_after(eager->per_step.median - graph->per_step.median),
                     repaid_after(eager->per_step.max - graph->per_step.min),
                     repaid_after(eager->per_step.min - graph->per_step.max)};
}

std::vector<ExecutionMode> within_noise_of(const ModeComparison& comparison, ExecutionMode mode) {
  std::vector<ExecutionMode> modes;
  const ModeTiming* of_mode = timing_of(comparison, mode);
  for (const ModeTiming& other : comparison.modes)
    if (of_mode != nullptr && other.mode != mode && within_noise(other.per_step, of_mode->per_step))
      modes.push_back(other.mode);
  return modes;
}

}  // namespace simapp
