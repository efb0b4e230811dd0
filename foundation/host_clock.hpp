#pragma once
/// Wall-clock time on the host, for what the host itself does (capture, instantiation, a run's
/// progress); device work is timed with StreamTimer.
#include <chrono>

namespace simapp {

/// Host seconds from `start` to now.
inline double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace simapp
