#pragma once
/// One run of the model: set-up (grid, background, initial state, step programs) and
/// advancing in whole steps. Reporting and output are the caller's (see run_loop.hpp).
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "solver/diagnostics/diagnostics.hpp"
#include "solver/executor/eager_executor.hpp"
#include "solver/grid/grid.hpp"
#include "solver/simulation/run_spec.hpp"
#include "solver/state/hydrostatic_profile.hpp"
#include "solver/state/workspace.hpp"
#include "solver/step/build_step_program.hpp"
#include "solver/step/step_params_block.hpp"
#include "solver/time/time_plan.hpp"

namespace simapp {

/// Owns a backend stream for its lifetime.
class OwnedStream {
 public:
  explicit OwnedStream(Backend backend) : stream_(device::create_stream(backend)) {}
  OwnedStream(const OwnedStream&) = delete;
  OwnedStream& operator=(const OwnedStream&) = delete;
  ~OwnedStream() { device::destroy_stream(stream_); }
  const Stream& get() const { return stream_; }

 private:
  Stream stream_;
};

class Simulation {
 public:
  Simulation(const RunSpec& spec, Backend backend);

  const RunSpec& spec() const { return spec_; }
  const Grid& grid() const { return grid_; }
  const TimePlan& time_plan() const { return time_plan_; }
  Backend backend() const { return stream_.get().backend; }
  long step() const { return step_; }                           ///< steps completed
  double time() const { return time_plan_.time_after(step_); }  ///< s
  bool finished() const { return step_ >= time_plan_.num_steps(); }
  std::size_t kernels_per_step() const { return programs_[0].kernel_count(); }

  /// Runs up to `steps` more steps (never past the end of the run).
  void advance(long steps);
  /// Diagnostics of the current state (waits for queued work).
  Diagnostics diagnostics() const;
  /// The prognostic state, all cells with halos, q[var][k][i] (waits for queued work).
  std::vector<double> state_on_host() const;
  /// Waits for queued work.
  void synchronize() const { device::synchronize(stream_.get()); }

 private:
  RunSpec spec_;
  Grid grid_;
  TimePlan time_plan_;
  OwnedStream stream_;
  HydrostaticProfile background_;
  Workspace workspace_;
  StepParamsBlock params_;
  std::array<StepProgram, 2> programs_;  ///< odd, even
  EagerExecutor executor_;
  DiagnosticsReducer reducer_;
  long step_ = 0;
};

}  // namespace simapp
