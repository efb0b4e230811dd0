#pragma once
/// One run's output, from taking output.dir to its last file: the directory's lock, where the
/// run starts (fresh, or a checkpoint), taking the directory over once the run is known to start,
/// and what the run loop writes (snapshots, checkpoints, the statistics over time, the state
/// where a stop or a failed health check leaves it). The order that keeps results safe is held here: the lock before
/// anything in output.dir is read; nothing removed before the simulation exists and continues
/// from its checkpoint; the writers only after that.
#include <mpi.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "io/config/load_config.hpp"
#include "io/output/output_directory.hpp"
#include "io/output/run_outputs.hpp"
#include "io/output/statistics_output.hpp"
#include "solver/simulation/run_loop.hpp"
#include "solver/simulation/simulation.hpp"

namespace simapp::io {

class OutputSession {
 public:
  /// Collective over `comm` (errors are bad input, agreed): where the run writes results, takes
  /// output.dir for the session's lifetime (io::OwnedOutputDirectory), before anything there is
  /// read. `config` must outlive the session. `written`: told of each file the run writes.
  OutputSession(const LoadedConfig& config, MPI_Comm comm, WrittenNote written = {});
  OutputSession(const OutputSession&) = delete;
  OutputSession& operator=(const OutputSession&) = delete;

  /// Whether the run writes snapshots, checkpoints or statistics into output.dir.
  bool writes_results() const { return owned_.has_value(); }

  /// Collective, once: decides where the run starts (plan_output: `policy` for earlier results,
  /// `restart` "", a path or "latest"); `finished`: the checkpoint is the run's last step,
  /// nothing is left to do. Removes nothing.
  const OutputStart& plan(ExistingResults policy, const std::string& restart);

  /// Collective, once, after plan, with the run's simulation (which the session's writers then use:
  /// it must outlive them): continues it from the start's checkpoint where there is one, then removes the
  /// results the run replaces and what interrupted runs left. Returns the run's t = 0
  /// diagnostics (a checkpoint carries them).
  const Diagnostics& begin(Simulation& simulation);

  /// After begin: the snapshots and checkpoints due after the simulation's current step; the
  /// checkpoint a stop saves (null when the run writes no results); the writer of the state a
  /// failed health check leaves (null likewise).
  std::vector<ScheduledOutput> outputs() const;
  std::function<void(long step, double time, std::span<const double> interior)> stop_saver() const;
  FailedStateWriter failed_state_writer() const;
  /// After begin: the statistics over time (output.stats_every; none when 0), continued from a
  /// restart's checkpoint. finish_statistics() writes the rows still held back (collective), at
  /// the end of the run or where it stops; finish_statistics_after_error() as far as rank 0 can,
  /// when an error ends the run (never throws).
  ScheduledStatistics statistics() const;
  void finish_statistics() const;
  void finish_statistics_after_error() const noexcept;

 private:
  const Simulation& simulation() const;
  OutputHooks hooks() const;

  const LoadedConfig& config_;
  MPI_Comm comm_;
  WrittenNote written_;
  std::optional<OwnedOutputDirectory> owned_;
  std::optional<OutputStart> start_;
  Diagnostics reference_;
  const Simulation* simulation_ = nullptr;        ///< set by begin
  std::shared_ptr<StatisticsOutput> statistics_;  ///< set by begin when the run takes statistics
};

}  // namespace simapp::io
