#pragma once
/// execution.wall_limit: when a run must stop so that it ends, with a checkpoint, before a
/// wall-clock limit counted from the start of the process. What stopping costs is measured as
/// the run goes, never assumed: the longest time between two chunk ends (the work still queued
/// when the run decides to stop, and the chunk it would otherwise run before deciding again),
/// the longest checkpoint write, and the longest wait for outputs being written on threads. The
/// run stops once the time left is less than twice their sum.
#include <chrono>

namespace simapp {

class WallClockLimit {
 public:
  using Clock = std::chrono::steady_clock;

  /// No limit.
  WallClockLimit() = default;
  /// A limit of `seconds` (0: none) after `start`.
  WallClockLimit(Clock::time_point start, double seconds);

  bool active() const { return seconds_ > 0.0; }
  double seconds() const { return seconds_; }

  /// The first chunk starts at `now`.
  void note_chunks_start(Clock::time_point now) { last_chunk_end_ = now; }
  /// A chunk ended at `now`.
  void note_chunk_end(Clock::time_point now);
  /// A checkpoint took `seconds` to write.
  void note_checkpoint(double seconds);
  /// Outputs being written on threads took `seconds` to finish.
  void note_output_wait(double seconds);
  /// Whether a checkpoint write has been measured.
  bool checkpoint_measured() const { return checkpoint_seconds_ >= 0.0; }

  /// Seconds to leave before the limit: twice the measured cost of stopping.
  double reserve_seconds() const;
  /// Whether the run must stop now to end before the limit.
  bool due(Clock::time_point now) const;

 private:
  Clock::time_point start_{};
  /// The limit in seconds, never converted to the clock's ticks: 64-bit nanoseconds end at about
  /// 292 years (9.2e9 s), and any limit, however long, must stay a limit.
  double seconds_ = 0.0;
  Clock::time_point last_chunk_end_{};
  double longest_chunk_seconds_ = 0.0;
  double checkpoint_seconds_ = -1.0;  ///< the longest checkpoint write; -1: none measured
  double output_wait_seconds_ = 0.0;
};

}  // namespace simapp
