#include "solver/time/time_stepping.hpp"

#include <gtest/gtest.h>

namespace simapp {
namespace {

TEST(TimeSteppingTest, WholeMultipleHasNoShortenedStep) {
  // dx = dz = 200 m: dt = 1.5 · 200 / 450 = 2/3 s; 400 s is 600 steps.
  const TimeStepping stepping(400.0, 200.0, 200.0, 1.5);
  EXPECT_DOUBLE_EQ(stepping.dt(), 2.0 / 3.0);
  EXPECT_EQ(stepping.num_steps(), 600);
  EXPECT_EQ(stepping.dt_last(), stepping.dt());
  EXPECT_EQ(stepping.time_after(600), 400.0);
}

TEST(TimeSteppingTest, LastStepIsShortenedToLandOnSimTime) {
  const TimeStepping stepping(10.1, 300.0, 300.0, 1.5);  // dt = 1 s
  EXPECT_EQ(stepping.num_steps(), 11);
  EXPECT_NEAR(stepping.dt_last(), 0.1, 1e-12);
  EXPECT_EQ(stepping.dt_of(10), 1.0);
  EXPECT_EQ(stepping.dt_of(11), stepping.dt_last());
  EXPECT_EQ(stepping.time_after(11), 10.1);
  EXPECT_EQ(stepping.time_after(5), 5.0);
}

TEST(TimeSteppingTest, RoundingNeverAddsAStep) {
  // 1000 s at dt = 1/6 s is 6000 steps even though 1000 / (1/6) rounds above 6000.
  const TimeStepping stepping(1000.0, 50.0, 50.0, 1.5);
  EXPECT_EQ(stepping.num_steps(), 6000);
  EXPECT_EQ(stepping.dt_last(), stepping.dt());
}

TEST(TimeSteppingTest, UsesTheSmallerSpacing) {
  EXPECT_DOUBLE_EQ(TimeStepping(1.0, 300.0, 90.0, 1.5).dt(), 1.5 * 90.0 / 450.0);
}

TEST(TimeSteppingTest, DtScalesWithTheCourantNumber) {
  // dx = dz = 300 m: dt = cfl · 300 / 450; a third of the Courant number is three times the steps.
  const TimeStepping standard(600.0, 300.0, 300.0, 1.5), small(600.0, 300.0, 300.0, 0.5);
  EXPECT_DOUBLE_EQ(small.dt(), 300.0 / 900.0);
  EXPECT_EQ(standard.num_steps(), 600);
  EXPECT_EQ(small.num_steps(), 1800);
  EXPECT_EQ(small.time_after(small.num_steps()), 600.0);
}

}  // namespace
}  // namespace simapp
