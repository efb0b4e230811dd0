#pragma once
/// How far the host queues steps ahead of the device: in batches of about `batch_seconds` of
/// device time, with at most two batches queued. Without a bound the host of a graph run
/// queued every chunk up to the next output (the launch queue took them all), and one launch of
/// graph_loop or persistent ran every step up to it; either way the host saw nothing of the run
/// until that output: no progress line, no stop request (SIGTERM before a batch job's walltime),
/// no failed health check. The first batch is a few steps; each later one as many as the batch
/// before last took `batch_seconds` for (device time from CUDA events), at most eight times as
/// many as that one. Before a batch starts, the host waits for the batch before last to end, so
/// the device always has the last batch queued and never waits for the host. In graph_loop and
/// persistent a batch is one launch (in whole passes of the loop body); in the other modes it
/// ends with the chunk that fills it. Rank 0's pace is every rank's (collective): the ranks run
/// the same chunks. Grouping steps into batches changes no result.
#include <mpi.h>

#include "kernels/backend/stream.hpp"
#include "kernels/backend/stream_timer.hpp"

namespace simapp {

/// Device time a batch aims at, s.
inline constexpr double batch_seconds = 0.5;

/// Steps of the first batch (rounded up to whole granules).
inline constexpr long first_batch_steps = 16;

/// The pace after a batch of `steps` steps took `seconds`: steps for `batch_seconds`, at most
/// 8 × steps, at least one granule, in whole granules (graph_loop: passes of its body).
long next_pace(long steps, double seconds, long granule);

class QueuePacing {
 public:
  QueuePacing(const Stream& stream, MPI_Comm comm, long granule);

  /// Steps of the next batch: the pace, or `steps_left` when that is fewer. Waits for the
  /// batch before last to end, and takes its time into the pace. Collective.
  long next_batch(long steps_left);
  /// Around the work of a batch (`steps` steps: those next_batch() gave, or a few more when
  /// the chunk that fills the batch goes past it): its device time.
  void batch_starts();
  void batch_ends(long steps);

  /// The batch the steps being queued belong to: the steps it still takes, opening the next
  /// batch (next_batch(steps_left), its timer started) when none is open. Collective then.
  long open_batch(long steps_left);
  /// Counts `steps` queued into the open batch; closes it when they fill it or `closing` (one
  /// launch is a whole batch, or the run is at its end).
  void queued(long steps, bool closing);
  /// Closes the open batch, if any (before the state is reset or restored).
  void close_batch();

 private:
  void end_open_batch();

  MPI_Comm comm_;
  long granule_;
  long pace_;
  StreamTimer timers_[2];
  long timed_steps_[2] = {0, 0};  ///< steps of the batch each timer measures (0: none)
  int current_ = 0;               ///< the timer of the batch being queued
  long batch_left_ = 0;           ///< steps the open batch still takes (0: none open)
  long batch_steps_ = 0;          ///< steps queued in it so far
};

}  // namespace simapp
