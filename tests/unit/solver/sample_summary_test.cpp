/// The statistics timing comparisons report (foundation/sample_summary.hpp and the
/// figures of mode_comparison.hpp), on made-up samples against values worked out by hand and
/// from published tables.
#include "foundation/sample_summary.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "solver/simulation/mode_comparison.hpp"

namespace simapp {
namespace {

TEST(SampleSummaryTest, OrderStatisticsOfAFewSamples) {
  const SampleSummary five = summarize({5.0, 1.0, 4.0, 2.0, 3.0});
  EXPECT_EQ(five.count, 5u);
  EXPECT_EQ(five.median, 3.0);
  EXPECT_EQ(five.min, 1.0);
  EXPECT_EQ(five.max, 5.0);
  EXPECT_EQ(five.q1, 2.0);  // numpy.percentile([1, 2, 3, 4, 5], 25)
  EXPECT_EQ(five.q3, 4.0);
  // Five samples bound the median with 1 − 2/32 = 93.75 % at best: the interval is [min, max].
  EXPECT_EQ(five.median_low, 1.0);
  EXPECT_EQ(five.median_high, 5.0);
  EXPECT_DOUBLE_EQ(five.relative_spread(), 4.0 / 3.0);
  EXPECT_DOUBLE_EQ(five.median_noise(), 4.0 / 6.0);

  const SampleSummary six = summarize({6.0, 1.0, 5.0, 2.0, 4.0, 3.0});
  EXPECT_EQ(six.median, 3.5);
  EXPECT_EQ(six.q1, 2.25);  // numpy.percentile([1, ..., 6], 25)
  EXPECT_EQ(six.q3, 4.75);
  const SampleSummary one = summarize({7.0});
  EXPECT_EQ(one.median, 7.0);
  EXPECT_EQ(one.median_low, 7.0);
  EXPECT_EQ(one.median_high, 7.0);
  EXPECT_EQ(one.relative_spread(), 0.0);
  EXPECT_TRUE(std::isinf(one.median_noise())) << "one sample says nothing of the noise";
}

TEST(SampleSummaryTest, TheMedianIntervalIsTheBinomialOneOfTheTables) {
  // For n = 20 the distribution-free 95 % interval of the median is [x(6), x(15)] (coverage
  // 95.9 %; x(7)..x(14) covers only 88.5 %); for n = 9, [x(2), x(8)] (96.1 %); n = 8 allows no
  // narrower interval than [x(1), x(8)] at 95 %.
  std::vector<double> twenty;
  for (int n = 20; n >= 1; --n) twenty.push_back(n);
  const SampleSummary summary = summarize(twenty);
  EXPECT_EQ(summary.median_low, 6.0);
  EXPECT_EQ(summary.median_high, 15.0);
  EXPECT_EQ(summarize({1, 2, 3, 4, 5, 6, 7, 8, 9}).median_low, 2.0);
  EXPECT_EQ(summarize({1, 2, 3, 4, 5, 6, 7, 8, 9}).median_high, 8.0);
  EXPECT_EQ(summarize({1, 2, 3, 4, 5, 6, 7, 8}).median_low, 1.0);
  EXPECT_EQ(summarize({1, 2, 3, 4, 5, 6, 7, 8}).median_high, 8.0);
}

TEST(SampleSummaryTest, RangesThatOverlapAreWithinNoise) {
  const SampleSummary a = summarize({10.0, 11.0, 12.0});
  EXPECT_TRUE(within_noise(a, summarize({11.5, 13.0, 14.0})));
  EXPECT_TRUE(within_noise(a, summarize({12.0, 13.0})));  // touching ends
  EXPECT_FALSE(within_noise(a, summarize({12.5, 13.0, 14.0})));
  const auto [low, high] = ratio_range(summarize({20.0, 22.0}), a);
  EXPECT_DOUBLE_EQ(low, 20.0 / 12.0);
  EXPECT_DOUBLE_EQ(high, 22.0 / 10.0);
}

/// A comparison of made-up modes: µs a step of each run.
ModeComparison comparison_of(const std::vector<std::pair<ExecutionMode, std::vector<double>>>& modes) {
  ModeComparison comparison;
  for (const auto& [mode, microseconds] : modes) {
    ModeTiming& timing = comparison.modes.emplace_back();
    timing.mode = mode;
    for (const double us : microseconds) timing.seconds_per_step.push_back(us * 1e-6);
    timing.per_step = summarize(timing.seconds_per_step);
  }
  return comparison;
}

TEST(ModeComparisonTest, SpeedUpsAndBreakEvenComeFromMediansWithTheirRanges) {
  ModeComparison comparison = comparison_of({{ExecutionMode::eager, {100.0, 104.0, 110.0}},
                                             {ExecutionMode::graph, {50.0, 52.0, 60.0}},
                                             {ExecutionMode::graph_loop, {55.0, 58.0, 59.0}}});
  const auto vs_eager = speedup(comparison, ExecutionMode::graph, ExecutionMode::eager);
  ASSERT_TRUE(vs_eager);
  EXPECT_DOUBLE_EQ(vs_eager->median, 104.0 / 52.0);
  EXPECT_DOUBLE_EQ(vs_eager->low, 100.0 / 60.0);
  EXPECT_DOUBLE_EQ(vs_eager->high, 110.0 / 50.0);
  EXPECT_EQ(speedup(comparison, ExecutionMode::eager, ExecutionMode::eager)->low, 1.0);  // itself, exactly
  EXPECT_FALSE(speedup(comparison, ExecutionMode::graph, ExecutionMode::eager_sync));

  comparison.modes[1].stats.captures = 1;
  comparison.modes[1].stats.capture_seconds = 0.5e-3;
  comparison.modes[1].stats.instantiate_seconds = 1.5e-3;  // 2 ms in all
  const auto break_even = break_even_steps(comparison, ExecutionMode::graph);
  ASSERT_TRUE(break_even);
  EXPECT_NEAR(break_even->median, 2e-3 / 52e-6, 1e-9);
  EXPECT_NEAR(break_even->low, 2e-3 / 60e-6, 1e-9);   // the largest saving: 110 − 50 µs
  EXPECT_NEAR(break_even->high, 2e-3 / 40e-6, 1e-9);  // the smallest: 100 − 60 µs
  EXPECT_FALSE(break_even_steps(comparison, ExecutionMode::graph_loop)) << "it captured nothing";

  // graph's range [50, 60] overlaps graph_loop's [55, 59]; neither overlaps eager's.
  EXPECT_EQ(within_noise_of(comparison, ExecutionMode::graph), std::vector{ExecutionMode::graph_loop});
  EXPECT_EQ(within_noise_of(comparison, ExecutionMode::graph_loop), std::vector{ExecutionMode::graph});
  EXPECT_TRUE(within_noise_of(comparison, ExecutionMode::eager).empty());
}

TEST(ModeComparisonTest, AModeThatSavesNothingNeverBreaksEven) {
  ModeComparison comparison =
      comparison_of({{ExecutionMode::eager, {100.0, 101.0}}, {ExecutionMode::graph, {99.0, 120.0}}});
  comparison.modes[1].stats.captures = 1;
  comparison.modes[1].stats.capture_seconds = 1e-3;
  const auto break_even = break_even_steps(comparison, ExecutionMode::graph);
  ASSERT_TRUE(break_even);
  EXPECT_TRUE(std::isinf(break_even->median)) << "its median is slower";
  EXPECT_TRUE(std::isinf(break_even->high));
  EXPECT_NEAR(break_even->low, 1e-3 / 2e-6, 1e-6);  // 101 − 99 µs at best
}

}  // namespace
}  // namespace simapp
