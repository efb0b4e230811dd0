#pragma once
/// execution.mode = compare: the same case run in each mode of execution.compare that can run
/// it (executor_factory.hpp; the others are skipped with the reason) from the same initial state,
/// each after a warm-up and with every graph captured before the clock starts; the final
/// states must be bit-identical. The modes are timed in rounds, each mode once a round, in turn
/// (the order reversed every other round), so that drift and other work on the machine reach
/// every mode alike: execution.repeats rounds, and with execution.max_noise more, until every
/// mode's median is known to within it or execution.max_noise_time has passed. A stop request
/// (a signal) ends it before the next timed run, its timings incomplete.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "foundation/sample_summary.hpp"
#include "solver/simulation/simulation.hpp"
#include "solver/spec/run_spec.hpp"

namespace simapp {

struct ModeTiming {
  ExecutionMode mode = ExecutionMode::eager;
  long steps = 0;
  std::vector<double> seconds_per_step;  ///< of each timed run, one a round (CUDA events on the GPU), s
  SampleSummary per_step;                ///< their summary, s
  double kernels_per_step = 0.0;
  double launches_per_step = 0.0;  ///< eager: kernels and copies; graph: graph launches
  ExecutorStats stats;             ///< captures, instantiation and graph sizes (whole lifetime)
  int grid_barriers_per_step =
      0;  ///< the persistent kernels: one a pass, or one a stage (persistent_cluster: the cluster's); else 0
  DiagnosticsChange change;  ///< d_mass, d_te at the end
};

/// A mode asked for but not run, and why.
struct SkippedMode {
  ExecutionMode mode = ExecutionMode::eager;
  std::string reason;
};

struct ModeComparison {
  std::vector<ModeTiming> modes;  ///< in the order of execution.compare, those that can run the case
  std::vector<SkippedMode> skipped;
  int steps_per_graph = 0;
  long warmup_steps = 0;
  int rounds = 0;          ///< each timing every mode once (the last one begun, when stopped)
  bool identical = false;  ///< final states equal bit for bit, on every rank (to the first mode's)
  bool stopped = false;    ///< ended on request before its last run: timings incomplete, not summarized
  int timed_runs = 0;      ///< the timed runs done
  std::string difference;  ///< where they first differ, when not identical
};

/// What a comparison is doing: timing `mode`, the `position`-th mode (0-based) of round
/// `round` (1-based) of at least `rounds`.
struct ComparisonProgress {
  int round = 0;
  int rounds = 0;
  int position = 0;
  ExecutionMode mode = ExecutionMode::eager;
};

/// Runs the comparison (collective over the decomposition's ranks; times are the slowest
/// rank's); `on_mode` is told when each timed run starts. `stop_requested` (when given) is asked
/// before each timed run, outside the timed part; when it says so on any rank, the ranks stop
/// together there, with `stopped` set.
ModeComparison compare_modes(const RunSpec& spec, Backend backend, const Decomposition& decomposition,
                             const std::function<void(const ComparisonProgress&)>& on_mode,
                             const std::function<bool()>& stop_requested = {});

}  // namespace simapp

namespace simapp {

/// The timing of `mode` in a comparison; null when it was not run.
const ModeTiming* timing_of(const ModeComparison& comparison, ExecutionMode mode);

/// A figure from medians and the range the samples allow: low ≤ median ≤ high.
struct RangedValue {
  double median = 0.0;
  double low = 0.0, high = 0.0;
};

/// Time per step of `baseline` over that of `mode` (their medians), with the range of the
/// ratio over their samples; none when either was not run.
std::optional<RangedValue> speedup(const ModeComparison& comparison, ExecutionMode mode, ExecutionMode baseline);

/// For a mode that captures graphs (graph, graph_loop): the steps after which its one-time
/// capture and instantiation cost is repaid by its saving per step over eager launching (from
/// medians, with the range the samples allow; infinity where it saves nothing); none when the
/// mode captures nothing or eager was not run.
std::optional<RangedValue> break_even_steps(const ModeComparison& comparison, ExecutionMode mode);

/// The other modes whose time per step is within the noise of `mode`'s (ranges overlap).
std::vector<ExecutionMode> within_noise_of(const ModeComparison& comparison, ExecutionMode mode);

}  // namespace simapp
