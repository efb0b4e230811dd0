/// execution.wall_limit (solver/simulation/wall_clock_limit.hpp): a run is due to stop once the
/// time left is no more than twice the measured cost of stopping, for any limit: one beyond what
/// the clock's 64-bit nanoseconds hold (about 292 years) is a limit like any other.
#include "solver/simulation/wall_clock_limit.hpp"

#include <gtest/gtest.h>

#include <chrono>

namespace simapp {
namespace {

using Clock = WallClockLimit::Clock;
using std::chrono::seconds;

TEST(WallClockLimitTest, ARunIsDueToStopWhenTheTimeLeftIsTwiceWhatStoppingCosts) {
  const Clock::time_point start = Clock::now();
  WallClockLimit limit(start, 100.0);
  EXPECT_TRUE(limit.active());
  EXPECT_FALSE(limit.due(start + seconds(99)));
  EXPECT_TRUE(limit.due(start + seconds(100)));
  limit.note_chunks_start(start);
  limit.note_chunk_end(start + seconds(10));  // a chunk of 10 s: stop 20 s before the limit
  EXPECT_FALSE(limit.due(start + seconds(79)));
  EXPECT_TRUE(limit.due(start + seconds(80)));
  EXPECT_FALSE(WallClockLimit(start, 0.0).active());
  EXPECT_FALSE(WallClockLimit(start, 0.0).due(start + seconds(1000)));
}

TEST(WallClockLimitTest, LimitsBeyondTheClocksRangeAreLimitsToo) {
  const Clock::time_point start = Clock::now();
  for (const double limit_seconds : {9.3e9, 1e10, 1e18, 1e300}) {
    SCOPED_TRACE(limit_seconds);
    const WallClockLimit limit(start, limit_seconds);
    EXPECT_TRUE(limit.active());
    EXPECT_FALSE(limit.due(start));
    EXPECT_FALSE(limit.due(start + seconds(3'000'000'000)));  // 95 years on
  }
  // Due after the limit, counted in seconds from the start: 1e10 s is not yet over after 9e9 s.
  const WallClockLimit long_limit(start - seconds(9'000'000'000), 1e10);
  EXPECT_FALSE(long_limit.due(start));
}

}  // namespace
}  // namespace simapp
