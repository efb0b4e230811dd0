#pragma once
/// How many steps each launch runs in the modes where one launch runs many (graph_loop,
/// persistent). Between two outputs such a mode could run every step in one launch, and the
/// host would see nothing of the run until its end: no progress line, no stop request (SIGTERM
/// before a batch job's walltime), no failed health check. Launches are paced instead to about
/// `launch_seconds` of device time each: the first runs a few steps, each later one as many as
/// the one before last took that long for (device time from CUDA events), at most eight times
/// as many as the launch before. The host waits for the launch before last before it queues the
/// next, so at most two are queued and the device never waits for the host. Rank 0's pace is
/// every rank's (collective): the ranks run the same launches. Splitting a run into launches
/// changes no result (steps are bit-identical however they are grouped).
#include <mpi.h>

#include "kernels/backend/stream.hpp"
#include "kernels/backend/stream_timer.hpp"

namespace simapp {

/// Device time a paced launch aims at, s.
inline constexpr double launch_seconds = 0.5;

/// Steps of the first launch (rounded up to whole granules).
inline constexpr long first_launch_steps = 16;

/// The pace after a launch of `steps` steps took `seconds`: steps for `launch_seconds`, at
/// most 8 × steps, at least one granule, in whole granules (graph_loop: passes of its body).
long next_pace(long steps, double seconds, long granule);

class LaunchPacing {
 public:
  LaunchPacing(const Stream& stream, MPI_Comm comm, long granule);

  /// Steps for the next launch: the pace, or `steps_left` when that is fewer. Waits for the
  /// launch before last to end, and takes its time into the pace.
  long next_launch(long steps_left);
  /// Around the launch of the steps next_launch() returned: its device time.
  void launch_starts();
  void launch_ends();

 private:
  MPI_Comm comm_;
  long granule_;
  long pace_;
  StreamTimer timers_[2];
  long timed_steps_[2] = {0, 0};  ///< steps of the launch each timer measures (0: none)
  int current_ = 0;               ///< the timer of the launch being queued
};

}  // namespace simapp
