/// Checks the 128-bit fixed-point sum behind the diagnostics: carries from the low word into
/// the high word, negative terms and totals (two's complement), exact cancellation where double
/// summation loses digits, truncation of what lies below the resolution, results that do not
/// depend on the order of the terms or on how partial sums are merged, and invalid terms.
/// Every expected value is a double that holds the exact total, worked out by hand or with
/// 64-bit integers, so the comparisons are exact.
#include "kernels/diagnostics/exact_sum.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

namespace simapp {
namespace {

ExactSum sum_of(const std::vector<double>& values, int scale_bits) {
  ExactSum sum;
  for (double value : values) sum.add(value, scale_bits);
  return sum;
}

TEST(ExactSumTest, LowWordOverflowCarriesIntoTheHighWord) {
  // 8 · 3·2^60 = 3·2^63 > 2^64: the low word wraps twice on the way. 3·2^60 and 3·2^63 are
  // exact doubles (a 2-bit mantissa), so the total must come back exactly.
  const double three_two_60 = std::ldexp(3.0, 60);
  EXPECT_EQ(sum_of(std::vector<double>(8, three_two_60), 0).value(0), std::ldexp(3.0, 63));
  // 5 · 4e18 = 2e19 = 2^64 + 1553255926290448384: high word 1 and a non-zero low word.
  // 4e18 = 2^20 · 5^18 and 2e19 = 2^20 · 5^19 are exact doubles (5^19 < 2^53).
  EXPECT_EQ(sum_of(std::vector<double>(5, 4.0e18), 0).value(0), 2.0e19);
}

TEST(ExactSumTest, MergingPartialSumsCarriesIntoTheHighWord) {
  // Each partial is 4 · 3·2^60 = 3·2^62 (no carry yet); merged, 3·2^63 overflows the low word.
  const ExactSum part = sum_of(std::vector<double>(4, std::ldexp(3.0, 60)), 0);
  ExactSum total;
  total.add(part);
  total.add(part);
  EXPECT_EQ(total.value(0), std::ldexp(3.0, 63));
  // −1 is (low 2^64 − 1, high −1); adding 2 wraps the low word to 1 and the carry cancels the
  // high word's −1, leaving +1.
  ExactSum minus_one, two;
  minus_one.add(-1.0, 0);
  two.add(2.0, 0);
  minus_one.add(two);
  EXPECT_EQ(minus_one.value(0), 1.0);
}

TEST(ExactSumTest, PositiveAndNegativeTermsCancelExactly) {
  // In doubles 1e16 + 1 rounds back to 1e16 (the spacing there is 2), so the naive sum is 0.
  volatile double big = 1.0e16;  // volatile: keep the compiler from folding the naive sum
  EXPECT_EQ(big + 1.0 - big, 0.0);
  EXPECT_EQ(sum_of({1.0e16, 1.0, -1.0e16}, 0).value(0), 1.0);
  EXPECT_EQ(sum_of({1.0e16, -1.0e16, 1.0}, 0).value(0), 1.0);
  // 5 − 3: the low word wraps when −3 (2^64 − 3) is added, and the carry cancels the −1 that
  // the negative term puts in the high word.
  EXPECT_EQ(sum_of({5.0, -3.0}, 0).value(0), 2.0);
  // Equal and opposite terms leave exactly zero, at any scale.
  EXPECT_EQ(sum_of({0.1, 2.5e6, -0.1, -2.5e6}, 30).value(30), 0.0);
}

TEST(ExactSumTest, NegativeTotalsComeBackWithTheirSign) {
  EXPECT_EQ(sum_of({-1.0}, 0).value(0), -1.0);
  EXPECT_EQ(sum_of({2.0, -7.0}, 0).value(0), -5.0);
  // 3 · 2^61 − 7 · 2^61 = −2^63.
  std::vector<double> terms(3, std::ldexp(1.0, 61));
  terms.insert(terms.end(), 7, -std::ldexp(1.0, 61));
  EXPECT_EQ(sum_of(terms, 0).value(0), -std::ldexp(1.0, 63));
  // 8 · (−2^61) = −2^64: low word 0 and high word −1, so negating the low word gives 0 and
  // must borrow into the high word.
  EXPECT_EQ(sum_of(std::vector<double>(8, -std::ldexp(1.0, 61)), 0).value(0), -std::ldexp(1.0, 64));
  // 5 · (−4e18) = −2e19, below −2^64.
  EXPECT_EQ(sum_of(std::vector<double>(5, -4.0e18), 0).value(0), -2.0e19);
  // Fractions at scale 4 (1/16): 3 · (−0.1875) + 0.0625 = −0.5.
  EXPECT_EQ(sum_of({-0.1875, -0.1875, -0.1875, 0.0625}, 4).value(4), -0.5);
}

TEST(ExactSumTest, DigitsBelowTheResolutionAreTruncatedTowardZero) {
  // At scale 1 (resolution ½): 1.75 → 3.5 halves → 3 → 1.5, and −1.75 → −1.5 (not −2), so a
  // value and its negative still cancel.
  EXPECT_EQ(sum_of({1.75}, 1).value(1), 1.5);
  EXPECT_EQ(sum_of({-1.75}, 1).value(1), -1.5);
  EXPECT_EQ(sum_of({1.75, -1.75}, 1).value(1), 0.0);
  EXPECT_EQ(sum_of({0.25, 0.25, 0.25, 0.25}, 1).value(1), 0.0);  // each below ½
}

TEST(ExactSumTest, TheTotalDoesNotDependOnTheOrderOfTheTerms) {
  // Terms n · 2^−20 with integer n, so every term is exact at scale 20:
  //   2000 small ones, |n| ≤ 2^40, whose total Σn (int64) is the expected answer;
  //   200 pairs ±(2^51 − j) · 2^10 · 2^−20 that cancel, so that partial sums reach ~2^68
  //   and cross zero, and double summation loses the small terms' low bits.
  constexpr int scale = 20;
  std::mt19937_64 random(20240611);
  std::uniform_int_distribution<std::int64_t> small(-(std::int64_t{1} << 40), std::int64_t{1} << 40);
  std::vector<double> terms;
  std::int64_t total_units = 0;
  for (int j = 0; j < 2000; ++j) {
    const std::int64_t n = small(random);
    total_units += n;
    terms.push_back(std::ldexp(static_cast<double>(n), -scale));
  }
  for (std::int64_t j = 1; j <= 200; ++j) {
    const double big = std::ldexp(static_cast<double>((std::int64_t{1} << 51) - j), 10 - scale);
    terms.push_back(big);
    terms.push_back(-big);
  }
  // |Σn| < 2000 · 2^40 < 2^53, so this double is the exact total.
  const double expected = std::ldexp(static_cast<double>(total_units), -scale);

  const ExactSum reference = sum_of(terms, scale);
  EXPECT_EQ(reference.value(scale), expected);
  bool naive_sum_differed = false;
  for (int shuffle = 0; shuffle < 10; ++shuffle) {
    std::shuffle(terms.begin(), terms.end(), random);
    const ExactSum shuffled = sum_of(terms, scale);
    EXPECT_EQ(std::bit_cast<std::uint64_t>(shuffled.value(scale)), std::bit_cast<std::uint64_t>(expected))
        << "shuffle " << shuffle;
    // Split into uneven partial sums (as threads or ranks would) and merge them.
    ExactSum merged;
    for (std::size_t first = 0, size = 1; first < terms.size(); first += size, size = size * 3 + 1) {
      ExactSum part;
      for (std::size_t t = first; t < std::min(terms.size(), first + size); ++t) part.add(terms[t], scale);
      merged.add(part);
    }
    EXPECT_EQ(std::bit_cast<std::uint64_t>(merged.value(scale)), std::bit_cast<std::uint64_t>(expected))
        << "shuffle " << shuffle;
    double naive = 0.0;
    for (double term : terms) naive += term;
    naive_sum_differed = naive_sum_differed || naive != expected;
  }
  // The data set is one where order matters to double summation.
  EXPECT_TRUE(naive_sum_differed);
}

TEST(ExactSumTest, NonFiniteOrOutOfRangeTermsMakeTheSumInvalid) {
  ExactSum in_range;
  in_range.add(4.5e18, 0);
  in_range.add(-4.5e18, 0);
  EXPECT_TRUE(in_range.valid());
  EXPECT_EQ(in_range.value(0), 0.0);

  ExactSum too_big;
  too_big.add(4.7e18, 0);
  EXPECT_FALSE(too_big.valid());
  ExactSum too_big_after_scaling;
  too_big_after_scaling.add(5.0e12, 20);  // 5e12 · 2^20 ≈ 5.2e18
  EXPECT_FALSE(too_big_after_scaling.valid());
  ExactSum not_a_number;
  not_a_number.add(1.0, 0);
  not_a_number.add(std::numeric_limits<double>::quiet_NaN(), 0);
  EXPECT_FALSE(not_a_number.valid());
  EXPECT_TRUE(std::isnan(not_a_number.value(0)));
  ExactSum infinite;
  infinite.add(-std::numeric_limits<double>::infinity(), 0);
  EXPECT_FALSE(infinite.valid());

  // Merging an invalid partial sum invalidates the total.
  ExactSum total;
  total.add(1.0, 0);
  total.add(not_a_number);
  EXPECT_FALSE(total.valid());
  EXPECT_TRUE(std::isnan(total.value(0)));
}

}  // namespace
}  // namespace simapp
