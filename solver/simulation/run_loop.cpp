#include "solver/simulation/run_loop.hpp"

#include <chrono>
#include <cmath>
#include <string>

#include "kernels/backend/error.hpp"

namespace simapp {

namespace {

using Clock = std::chrono::steady_clock;
constexpr double progress_interval_seconds = 2.0;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

void check_finite(const Diagnostics& diagnostics, long step) {
  if (!std::isfinite(diagnostics.mass) || !std::isfinite(diagnostics.total_energy))
    throw Error(ExitCode::numerical, "step " + std::to_string(step),
                "the solution is no longer finite (mass or total energy is NaN/Inf)");
}

}  // namespace

RunResult run_to_end(Simulation& simulation, int progress_every, const ProgressCallback& on_progress) {
  RunResult result;
  simulation.prepare();
  result.initial = simulation.diagnostics();
  const long first_step = simulation.step();
  const long num_steps = simulation.time_plan().num_steps();
  const Clock::time_point start = Clock::now();
  double last_report = 0.0;

  while (!simulation.finished()) {
    const long previous = simulation.step();
    simulation.advance_chunk();
    const long step = simulation.step();
    // Reporting is collective: rank 0's clock decides for every rank.
    int due = progress_every > 0 ? step / progress_every > previous / progress_every
                                 : seconds_since(start) - last_report >= progress_interval_seconds;
    if (progress_every == 0) MPI_Bcast(&due, 1, MPI_INT, 0, simulation.decomposition().comm());
    if (due && !simulation.finished()) {
      const Diagnostics now = simulation.diagnostics();
      check_finite(now, step);
      const double wall = seconds_since(start);
      last_report = wall;
      const double rate = wall / static_cast<double>(step - first_step);
      on_progress({step, num_steps, simulation.time(), relative_change(result.initial, now), wall,
                   rate * static_cast<double>(num_steps - step)});
    }
  }
  simulation.synchronize();
  result.wall_seconds = seconds_since(start);
  result.steps = simulation.step() - first_step;
  result.final = simulation.diagnostics();
  check_finite(result.final, simulation.step());
  result.change = relative_change(result.initial, result.final);
  return result;
}

}  // namespace simapp
