#pragma once
/// The statistics simapp-bench reports of every number: the median of the repeated runs with
/// their spread (min, max, quartiles, the samples), and the bounds of numbers derived from
/// measured ones (a slope, a ratio, a difference), which follow from the measurements' ranges.
/// Host code only; included by the .cu files too, so C++17.
#include <cstddef>
#include <limits>
#include <utility>
#include <vector>

#include "foundation/sample_summary.hpp"

namespace simapp::bench {

/// One reported number: its median with the smallest and largest value it could take.
/// Measured: the median, min, max and quartiles of `samples` (count = samples.size()).
/// Derived from measured numbers: the value from their medians, and min/max the bounds from
/// their ranges (count 0, no samples, quartiles NaN).
struct Stats {
  double median = 0;
  double min = 0;
  double max = 0;
  double q1 = std::numeric_limits<double>::quiet_NaN();
  double q3 = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> samples;  ///< in the order taken; empty when derived

  int count() const { return static_cast<int>(samples.size()); }
  bool derived() const { return samples.empty(); }
};

/// Median, min, max and quartiles of `samples` (foundation/sample_summary.hpp), which it
/// keeps (at least one sample).
inline Stats stats_of(std::vector<double> samples) {
  const SampleSummary summary = summarize(samples);
  Stats s;
  s.median = summary.median;
  s.min = summary.min;
  s.max = summary.max;
  s.q1 = summary.q1;
  s.q3 = summary.q3;
  s.samples = std::move(samples);
  return s;
}

/// A derived number: `median` from the medians, [min, max] from the ranges (NaN: unbounded).
inline Stats derived_stats(double median, double min, double max) {
  Stats s;
  s.median = median;
  s.min = min;
  s.max = max;
  return s;
}

/// `s` times `factor` (> 0): samples scaled alike, so it stays a measured number.
inline Stats scaled(Stats s, double factor) {
  s.median *= factor;
  s.min *= factor;
  s.max *= factor;
  s.q1 *= factor;
  s.q3 *= factor;
  for (double& v : s.samples) v *= factor;
  return s;
}

/// (a − b) / divisor (divisor > 0), bounds [(a.min − b.max), (a.max − b.min)] / divisor: a slope
/// between two graph sizes, a kernel less the same kernel doing nothing.
inline Stats difference_over(const Stats& a, const Stats& b, double divisor) {
  return derived_stats((a.median - b.median) / divisor, (a.min - b.max) / divisor, (a.max - b.min) / divisor);
}

/// a / b of positive `a`, bounds [a.min / b.max, a.max / b.min]: unbounded above (infinity,
/// written null) when b's range reaches 0, NaN (null) where b's median or max is not positive.
inline Stats ratio(const Stats& a, const Stats& b) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  return derived_stats(b.median > 0 ? a.median / b.median : nan, b.max > 0 ? a.min / b.max : nan,
                       b.min > 0 ? a.max / b.min : inf);
}

/// numerator / s (numerator > 0): a bandwidth from a duration; bounds [numerator / s.max, numerator / s.min].
inline Stats reciprocal(double numerator, const Stats& s) {
  Stats one;
  one.median = one.min = one.max = 1.0;
  return scaled(ratio(one, s), numerator);
}

}  // namespace simapp::bench
