#pragma once
/// Host-clock timing, and the repeated runs of which simapp-bench reports every measurement:
/// the median with its spread (bench/sample_stats.hpp).
#include <chrono>
#include <cstddef>
#include <utility>
#include <vector>

#include "bench/sample_stats.hpp"

namespace simapp::bench {

using Clock = std::chrono::steady_clock;

/// Microseconds since `start` on the host clock.
inline double elapsed_us(Clock::time_point start) {
  return std::chrono::duration<double, std::micro>(Clock::now() - start).count();
}

/// Host time of `body()` in microseconds.
template <class Body>
double host_us(Body&& body) {
  const Clock::time_point start = Clock::now();
  body();
  return elapsed_us(start);
}

/// The statistics of `count` results of `measure()`, after one discarded warm-up run.
template <class Measure>
Stats repeated(int count, Measure&& measure) {
  static_cast<void>(measure());
  std::vector<double> samples;
  samples.reserve(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) samples.push_back(measure());
  return stats_of(std::move(samples));
}

}  // namespace simapp::bench
