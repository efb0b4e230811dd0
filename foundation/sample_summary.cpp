#include "foundation/sample_summary.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace simapp {

namespace {

/// The p-quantile of sorted `x` by linear interpolation between order statistics (numpy's
/// default, type 7 of Hyndman and Fan).
double quantile(const std::vector<double>& x, double p) {
  const double at = p * static_cast<double>(x.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(at));
  const std::size_t above = std::min(below + 1, x.size() - 1);
  return x[below] + (at - static_cast<double>(below)) * (x[above] - x[below]);
}

/// P(X < j) for X ~ Binomial(n, 1/2): the chance that fewer than j of n samples fall below the
/// true median.
double binomial_below(std::size_t n, std::size_t j) {
  double sum = 0.0;
  for (std::size_t i = 0; i < j; ++i)
    sum += std::exp(std::lgamma(static_cast<double>(n) + 1.0) - std::lgamma(static_cast<double>(i) + 1.0) -
                    std::lgamma(static_cast<double>(n - i) + 1.0) - static_cast<double>(n) * std::log(2.0));
  return sum;
}

}  // namespace

SampleSummary summarize(std::vector<double> samples) {
  if (samples.empty()) throw std::invalid_argument("summarize: no samples");
  std::ranges::sort(samples);
  const std::size_t n = samples.size();
  SampleSummary summary;
  summary.count = n;
  summary.min = samples.front();
  summary.max = samples.back();
  summary.median = quantile(samples, 0.5);
  summary.q1 = quantile(samples, 0.25);
  summary.q3 = quantile(samples, 0.75);
  // The widest j with [x(j), x(n+1−j)] (1-based) still covering the median at 95 %.
  std::size_t j = 1;
  for (std::size_t candidate = 2; 2 * candidate <= n + 1; ++candidate)
    if (1.0 - 2.0 * binomial_below(n, candidate) >= 0.95) j = candidate;
  summary.median_low = samples[j - 1];
  summary.median_high = samples[n - j];
  return summary;
}

bool within_noise(const SampleSummary& a, const SampleSummary& b) { return a.min <= b.max && b.min <= a.max; }

std::pair<double, double> ratio_range(const SampleSummary& numerator, const SampleSummary& denominator) {
  return {numerator.min / denominator.max, numerator.max / denominator.min};
}

}  // namespace simapp
