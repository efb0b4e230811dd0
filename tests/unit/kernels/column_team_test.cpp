/// Checks a ColumnTeam (kernels/backend/column_team.hpp): its reduction is the fixed tree over the
/// levels (pairs of levels, then pairs of pairs, …), written here recursively, and so the same
/// bits for a team of one thread and for teams of several threads (std::thread and a
/// std::barrier, as a CUDA block's threads and __syncthreads), whatever their number.
#include "kernels/backend/column_team.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

#include "tests/support/thread_team.hpp"

namespace simapp {
namespace {

/// Σ of values [lo, lo + size) ∩ [0, n) for size a power of two: the left half plus the right
/// half where the right half holds a value.
double tree_sum(const std::vector<double>& values, int lo, int size) {
  const int n = static_cast<int>(values.size());
  if (size == 1) return values[lo];
  const int half = size / 2;
  if (lo + half >= n) return tree_sum(values, lo, half);
  return tree_sum(values, lo, half) + tree_sum(values, lo + half, half);
}

/// Values whose sum depends on the order of the additions.
std::vector<double> ragged_values(int n) {
  std::vector<double> values;
  for (int k = 0; k < n; ++k) values.push_back(std::sin(1.7 * k + 0.3) * std::pow(10.0, (k * 7) % 11 - 5));
  return values;
}

std::uint64_t bits(double value) { return std::bit_cast<std::uint64_t>(value); }

/// The sum of `values` reduced in place by a team of `threads` std::threads.
double team_sum(std::vector<double> values, int threads) {
  const int n = static_cast<int>(values.size());
  testing::run_thread_team(threads, [&](const testing::ThreadTeam& team) {
    team.reduce_levels(n, [&](int k, int above) { values[k] += values[above]; });
  });
  return values[0];
}

TEST(ColumnTeamTest, OneThreadsReductionIsTheTreeOverTheLevels) {
  for (int n = 1; n <= 70; ++n) {
    std::vector<double> values = ragged_values(n);
    const double expected = tree_sum(values, 0, static_cast<int>(std::bit_ceil(static_cast<unsigned>(n))));
    SerialTeam{}.reduce_levels(n, [&](int k, int above) { values[k] += values[above]; });
    EXPECT_EQ(bits(values[0]), bits(expected)) << n << " levels";
  }
}

TEST(ColumnTeamTest, EveryTeamSizeGivesTheSameBits) {
  for (const int n : {1, 2, 7, 24, 128, 150}) {
    std::vector<double> values = ragged_values(n);
    SerialTeam{}.reduce_levels(n, [&](int k, int above) { values[k] += values[above]; });
    for (const int threads : {2, 3, 8, 32})
      EXPECT_EQ(bits(team_sum(ragged_values(n), threads)), bits(values[0]))
          << n << " levels, " << threads << " threads";
  }
}

TEST(ColumnTeamTest, EachThreadTakesEveryStrideThLevelFromItsOwn) {
  std::vector<int> owner(10, -1);
  for (int t = 0; t < 3; ++t) ColumnTeam<NoBarrier>{t, 3, {}}.for_levels(10, [&](int k) { owner[k] = t; });
  EXPECT_EQ(owner, (std::vector<int>{0, 1, 2, 0, 1, 2, 0, 1, 2, 0}));
}

}  // namespace
}  // namespace simapp
