#include "solver/simulation/wall_clock_limit.hpp"

#include <algorithm>

namespace simapp {

WallClockLimit::WallClockLimit(Clock::time_point start, double seconds) : start_(start), seconds_(seconds) {}

void WallClockLimit::note_chunk_end(Clock::time_point now) {
  longest_chunk_seconds_ =
      std::max(longest_chunk_seconds_, std::chrono::duration<double>(now - last_chunk_end_).count());
  last_chunk_end_ = now;
}

void WallClockLimit::note_checkpoint(double seconds) { checkpoint_seconds_ = std::max(checkpoint_seconds_, seconds); }

void WallClockLimit::note_output_wait(double seconds) {
  output_wait_seconds_ = std::max(output_wait_seconds_, seconds);
}

double WallClockLimit::reserve_seconds() const {
  return 2.0 * (longest_chunk_seconds_ + std::max(checkpoint_seconds_, 0.0) + output_wait_seconds_);
}

bool WallClockLimit::due(Clock::time_point now) const {
  return active() && seconds_ - std::chrono::duration<double>(now - start_).count() <= reserve_seconds();
}

}  // namespace simapp
