#pragma once
/// The run's statistics over time (output.stats_every): stats.nc in output.dir
/// (io/hdf5/statistics_file.hpp), its rows taken by the run loop (ScheduledStatistics) at the
/// steps of the interval, and written by rank 0. A restarted run continues the file, keeping the
/// rows up to its checkpoint's step, so that it ends as the file of the run without the restart.
#include <mpi.h>

#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "io/config/load_config.hpp"
#include "io/hdf5/statistics_file.hpp"
#include "io/output/run_outputs.hpp"
#include "solver/simulation/run_loop.hpp"
#include "solver/simulation/simulation.hpp"

namespace simapp::io {

class StatisticsOutput {
 public:
  /// Collective (errors agreed): the statistics of the steps after the simulation's current one
  /// (and of step 0 from the start), their changes relative to `reference` (the run's t = 0
  /// diagnostics); a restarted run (step > 0) continues the file. `written`: told of each write.
  StatisticsOutput(const LoadedConfig& config, const Simulation& simulation, const Diagnostics& reference,
                   WrittenNote written);
  StatisticsOutput(const StatisticsOutput&) = delete;
  StatisticsOutput& operator=(const StatisticsOutput&) = delete;

  /// What the run loop takes; its writer is collective (errors agreed) and must not outlive this.
  ScheduledStatistics schedule();
  /// Writes the rows that wait (collective; errors agreed): before a checkpoint, at the end.
  void flush();
  /// After an error: rank 0 writes the rows that wait, as far as it can; never throws.
  void flush_after_error() noexcept;

 private:
  void note_written() const;

  OutputSchedule steps_;
  Diagnostics reference_;
  WrittenNote written_;
  MPI_Comm comm_;
  std::optional<StatisticsFile> file_;  ///< rank 0's
};

}  // namespace simapp::io
