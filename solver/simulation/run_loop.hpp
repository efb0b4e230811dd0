#pragma once
/// The run loop: advances a Simulation to its end, reporting progress on a schedule
/// (every N steps, or about every 2 s of wall time) and checking the solution stays finite.
#include <functional>

#include "solver/simulation/simulation.hpp"

namespace simapp {

struct ProgressReport {
  long step = 0;
  long num_steps = 0;
  double time = 0.0;          ///< simulated, s
  DiagnosticsChange change;   ///< since the start
  double wall_seconds = 0.0;  ///< since the loop started
  double eta_seconds = 0.0;   ///< estimated wall time to the end
};

struct RunResult {
  Diagnostics initial;
  Diagnostics final;
  DiagnosticsChange change;
  long steps = 0;
  double wall_seconds = 0.0;  ///< stepping only, from the first step to the final synchronization
};

using ProgressCallback = std::function<void(const ProgressReport&)>;

/// Prepares (captures) and runs every remaining step. Progress is reported at chunk ends:
/// progress_every > 0: when a multiple of that many steps is passed; 0: about every 2 s of
/// wall time. Throws Error(ExitCode::numerical) when mass or energy stops being finite.
RunResult run_to_end(Simulation& simulation, int progress_every, const ProgressCallback& on_progress);

}  // namespace simapp
