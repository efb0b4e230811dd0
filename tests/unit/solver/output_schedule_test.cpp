#include "solver/output/output_schedule.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <vector>

namespace simapp {
namespace {

/// Every step of `schedule`, in order.
std::vector<long> output_steps(const TimeStepping& stepping, double every, bool ends) {
  const OutputSchedule schedule(stepping, every, ends);
  std::vector<long> steps;
  for (long step = schedule.next_after(-1); step >= 0; step = schedule.next_after(step)) steps.push_back(step);
  EXPECT_EQ(schedule.count_after(-1), static_cast<long>(steps.size()));
  return steps;
}

TEST(OutputScheduleTest, SnapshotsAtStartEveryIntervalAndEnd) {
  const TimeStepping stepping(10.5, 300.0, 300.0, 1.5);  // dt = 1 s, 11 steps, the last one 0.5 s
  EXPECT_EQ(output_steps(stepping, 3.0, true), (std::vector<long>{0, 3, 6, 9, 11}));
  EXPECT_EQ(output_steps(stepping, 0.0, true), (std::vector<long>{0, 11}));
}

TEST(OutputScheduleTest, IntervalsThatAreNotWholeStepsRoundUp) {
  const TimeStepping stepping(10.0, 300.0, 300.0, 1.5);  // dt = 1 s
  EXPECT_EQ(output_steps(stepping, 2.5, false), (std::vector<long>{3, 5, 8, 10}));
  EXPECT_TRUE(output_steps(stepping, 0.0, false).empty());
}

TEST(OutputScheduleTest, IntervalsLongerThanTheRunGiveOnlyTheEnds) {
  const TimeStepping stepping(10.5, 300.0, 300.0, 1.5);  // dt = 1 s, 11 steps
  for (const double every : {11.0, 1e10, 1e19, 1e20, 1e300, std::numeric_limits<double>::max()}) {
    EXPECT_EQ(output_steps(stepping, every, true), (std::vector<long>{0, 11})) << every;
    EXPECT_EQ(output_steps(stepping, every, false), (std::vector<long>{11})) << every;
  }
}

TEST(OutputScheduleTest, IntervalsShorterThanAStepGiveEveryStep) {
  const TimeStepping stepping(5.0, 300.0, 300.0, 1.5);  // dt = 1 s, 5 steps
  for (const double every : {0.5, 1e-9, 1e-300, std::numeric_limits<double>::denorm_min()})
    EXPECT_EQ(output_steps(stepping, every, true), (std::vector<long>{0, 1, 2, 3, 4, 5})) << every;
}

TEST(OutputScheduleTest, StepsGivenOneByOne) {
  const OutputSchedule steps(std::vector<long>{0, 3, 6});
  EXPECT_EQ(steps.next_after(-1), 0);
  EXPECT_EQ(steps.next_after(0), 3);
  EXPECT_EQ(steps.next_after(3), 6);
  EXPECT_EQ(steps.next_after(6), -1);
  EXPECT_TRUE(steps.holds(3));
  EXPECT_FALSE(steps.holds(4));
  EXPECT_EQ(steps.count_after(0), 2);
  EXPECT_EQ(OutputSchedule().next_after(-1), -1);
}

/// Each step the schedule holds, and how many follow a step, are what listing the first step
/// reaching each multiple gives, for intervals on and off the step grid, from a restart off it.
TEST(OutputScheduleTest, StepsAreThoseOfEachMultipleOfTheInterval) {
  const TimeStepping from_start(1000.0, 300.0, 300.0, 1.5);                // dt = 1 s
  const TimeStepping restarted(1000.0, 300.0, 300.0, 1.5, 0.0, {7, 6.5});  // steps of 1 s from t = 6.5 s
  for (const TimeStepping& stepping : {from_start, restarted})
    for (const double every : {1.0, 1.0 + 1e-12, 1.5, 2.5, 3.0, 7.3, 999.0}) {
      std::vector<long> listed{0};
      for (long m = 1;
           stepping.first_step_reaching(static_cast<double>(m) * every) < static_cast<double>(stepping.num_steps());
           ++m) {
        const long step = static_cast<long>(stepping.first_step_reaching(static_cast<double>(m) * every));
        if (step > listed.back()) listed.push_back(step);
      }
      listed.push_back(stepping.num_steps());
      EXPECT_EQ(output_steps(stepping, every, true), listed) << every;
      const OutputSchedule schedule(stepping, every, true);
      for (const long step : {0L, 5L, 100L, 998L}) {
        const long after = std::ranges::end(listed) - std::ranges::upper_bound(listed, step);
        EXPECT_EQ(schedule.count_after(step), after) << every << " after " << step;
      }
    }
}

/// A schedule is worked out as it is asked, never listed: one of 2^31 − 1 steps, an output at
/// each, answers at once and takes no memory.
TEST(OutputScheduleTest, ALongScheduleIsNeverListed) {
  const TimeStepping stepping(2147483647.0, 300.0, 300.0, 1.5);  // dt = 1 s
  ASSERT_EQ(stepping.num_steps(), 2147483647);
  const OutputSchedule every_step(stepping, 1.0, true);
  EXPECT_EQ(every_step.count_after(-1), 2147483648);
  EXPECT_EQ(every_step.next_after(1000000000), 1000000001);
  EXPECT_TRUE(every_step.holds(2147483646));
  const OutputSchedule off_the_grid(stepping, 1.67, false);
  EXPECT_EQ(off_the_grid.next_after(0), 2);
  EXPECT_EQ(off_the_grid.next_after(2000000000), 2000000001);  // 1197604791 · 1.67 = 2000000000.97
  EXPECT_EQ(off_the_grid.count_after(-1), 1285918351);         // 1285918350 multiples before the end, and the end
}

}  // namespace
}  // namespace simapp
