#pragma once
/// Repeated timings of one quantity summarized by order statistics: the median, the quartiles,
/// the extremes, and a distribution-free interval of the median. Noise from other work on a
/// machine is one-sided and heavy-tailed (a run is slowed, never sped up), which moves a mean
/// and a standard deviation far more than a median (Google Benchmark and nvbench report the
/// same kind of figures).
#include <cstddef>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

namespace simapp {

struct SampleSummary {
  std::size_t count = 0;
  double median = 0.0;
  double min = 0.0, max = 0.0;
  double q1 = 0.0, q3 = 0.0;  ///< the quartiles, interpolated between order statistics
  /// The order statistics x(j) ≤ median ≤ x(n+1−j) that cover the median with probability at
  /// least 95 % whatever the distribution (binomial); [min, max] when the samples are too few
  /// for that (below 6).
  double median_low = 0.0, median_high = 0.0;

  /// (max − min) / median: how far apart the fastest and slowest samples are.
  double relative_spread() const { return median > 0.0 ? (max - min) / median : 0.0; }
  /// Half the median's interval over the median: how well the median is known (not at all from
  /// one sample: infinity).
  double median_noise() const {
    if (count < 2) return std::numeric_limits<double>::infinity();
    return median > 0.0 ? (median_high - median_low) / (2.0 * median) : 0.0;
  }
};

/// The summary of `samples` (at least one).
SampleSummary summarize(std::vector<double> samples);

/// Whether two quantities' ranges [min, max] overlap: a difference that the noise can make.
bool within_noise(const SampleSummary& a, const SampleSummary& b);

/// The range of `numerator` / `denominator` over their samples' ranges: [min / max, max / min].
std::pair<double, double> ratio_range(const SampleSummary& numerator, const SampleSummary& denominator);

}  // namespace simapp
