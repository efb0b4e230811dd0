#include "solver/output/output_schedule.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <vector>

namespace simapp {
namespace {

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

TEST(OutputScheduleTest, NextOutputStep) {
  const std::vector<long> steps{0, 3, 6};
  EXPECT_EQ(next_output_step(steps, 0), 3);
  EXPECT_EQ(next_output_step(steps, 3), 6);
  EXPECT_EQ(next_output_step(steps, 6), -1);
}

}  // namespace
}  // namespace simapp
