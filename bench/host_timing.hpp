#pragma once
/// Host-clock timing, and the median that simapp-bench reports of every measurement.
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <utility>
#include <vector>

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

/// Median of `samples`.
inline double median(std::vector<double> samples) {
  const std::size_t mid = samples.size() / 2;
  std::nth_element(samples.begin(), samples.begin() + static_cast<std::ptrdiff_t>(mid), samples.end());
  const double upper = samples[mid];
  if (samples.size() % 2 == 1) return upper;
  return 0.5 * (upper + *std::max_element(samples.begin(), samples.begin() + static_cast<std::ptrdiff_t>(mid)));
}

/// Median of `count` results of `measure()`, after one discarded warm-up run.
template <class Measure>
double median_of(int count, Measure&& measure) {
  static_cast<void>(measure());
  std::vector<double> samples;
  samples.reserve(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) samples.push_back(measure());
  return median(std::move(samples));
}

}  // namespace simapp::bench
