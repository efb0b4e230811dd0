/// FastDivisor against C++'s / and %: every divisor up to 2048 and a spread of large ones, each
/// on small numerators, numerators near multiples of the divisor and near 2³¹; wrapped against
/// ((n % d) + d) % d for negative n too.
#include "kernels/backend/fast_divisor.hpp"

#include <gtest/gtest.h>

#include <climits>
#include <vector>

namespace simapp {
namespace {

std::vector<int> numerators_for(int d) {
  std::vector<int> n;
  for (int v = 0; v < 300; ++v) n.push_back(v);
  for (const long m : {1L, 2L, 3L, 1000L, 65536L, 1000003L})
    for (int e = -2; e <= 2; ++e) {
      const long v = m * d + e;
      if (v >= 0 && v <= INT_MAX) n.push_back(static_cast<int>(v));
    }
  for (int e = 0; e < 64; ++e) n.push_back(INT_MAX - e);
  return n;
}

void expect_divides_as_cpp(int d) {
  const FastDivisor divisor(d);
  for (const int n : numerators_for(d)) {
    ASSERT_EQ(divisor.quotient(n), n / d) << n << " / " << d;
    ASSERT_EQ(divisor.remainder(n), n % d) << n << " % " << d;
  }
}

TEST(FastDivisorTest, QuotientAndRemainderAreCppsForSmallDivisors) {
  for (int d = 1; d <= 2048; ++d) expect_divides_as_cpp(d);
}

TEST(FastDivisorTest, QuotientAndRemainderAreCppsForLargeDivisors) {
  for (const int d :
       {4095, 4096, 4097, 65535, 65536, 65537, 1000003, 1 << 20, (1 << 30) - 1, 1 << 30, INT_MAX - 1, INT_MAX})
    expect_divides_as_cpp(d);
}

TEST(FastDivisorTest, WrappedIsThePeriodicIndexForNegativeNumeratorsToo) {
  for (const int d : {1, 2, 7, 48, 256, 4096}) {
    const FastDivisor divisor(d);
    for (int n = -3 * d - 5; n <= 3 * d + 5; ++n) ASSERT_EQ(divisor.wrapped(n), ((n % d) + d) % d) << n << " mod " << d;
  }
}

}  // namespace
}  // namespace simapp
