#pragma once
/// execution.mode = compare: the same case run in each mode of execution.compare that can run
/// it (mode_support.hpp; the others are skipped with the reason) from the same initial state,
/// each after a warm-up and with every graph captured before the clock starts; the final
/// states must be bit-identical.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "solver/simulation/simulation.hpp"
#include "solver/spec/run_spec.hpp"

namespace simapp {

struct ModeTiming {
  ExecutionMode mode = ExecutionMode::eager;
  long steps = 0;
  double seconds = 0.0;  ///< the timed run (CUDA events on the GPU)
  double kernels_per_step = 0.0;
  double launches_per_step = 0.0;  ///< eager: kernels and copies; graph: graph launches
  ExecutorStats stats;             ///< captures, instantiation and graph sizes (whole lifetime)
  int grid_barriers_per_step = 0;  ///< persistent: 2 (a barrier a pass) or 6 (a barrier a stage); else 0
  DiagnosticsChange change;        ///< d_mass, d_te at the end
  double seconds_per_step() const { return steps > 0 ? seconds / static_cast<double>(steps) : 0.0; }
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
  bool identical = false;  ///< final states equal bit for bit, on every rank (to the first mode's)
  std::string difference;  ///< where they first differ, when not identical
};

/// Runs the comparison (collective over the decomposition's ranks; times are the slowest
/// rank's); `on_mode` is told when each mode starts.
ModeComparison compare_modes(const RunSpec& spec, Backend backend, const Decomposition& decomposition,
                             const std::function<void(ExecutionMode)>& on_mode);

}  // namespace simapp

namespace simapp {

/// The timing of `mode` in a comparison; null when it was not run.
const ModeTiming* timing_of(const ModeComparison& comparison, ExecutionMode mode);

/// Time per step of `baseline` over that of `mode`; none when either was not run.
std::optional<double> speedup(const ModeComparison& comparison, ExecutionMode mode, ExecutionMode baseline);

/// For a mode that captures graphs (graph, graph_loop): the steps after which its one-time
/// capture and instantiation cost is repaid by its saving per step over eager launching;
/// infinity when it saves nothing; none when the mode captures nothing or eager was not run.
std::optional<double> break_even_steps(const ModeComparison& comparison, ExecutionMode mode);

}  // namespace simapp
