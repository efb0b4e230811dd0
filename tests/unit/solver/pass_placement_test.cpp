/// Where the passes of a step read and write (solver/step/pass_placement.hpp), for every
/// combination of passes that can run as pass kernels: followed array by array, a step starts
/// and ends in the state, a pass kernel writes another array than it reads, and a pass of stage
/// kernels keeps its array and puts q* and q** in the other two.
#include <gtest/gtest.h>

#include <array>
#include <cstddef>
#include <set>

#include "solver/step/pass_placement.hpp"

namespace simapp {
namespace {

template <std::size_t Passes>
void expect_every_combination_ends_in_the_state() {
  for (unsigned mask = 0; mask < (1u << Passes); ++mask) {
    std::array<bool, Passes> can_fuse{};
    int fusable = 0;
    for (std::size_t p = 0; p < Passes; ++p) fusable += can_fuse[p] = (mask >> p & 1u) != 0;
    const auto placement = place_passes(can_fuse);
    int holding = 0;  // the array that holds the state as the step goes
    int kernels = 0;
    for (std::size_t p = 0; p < Passes; ++p) {
      const PassPlacement& pass = placement[p];
      EXPECT_EQ(pass.input, holding) << "mask " << mask << " pass " << p;
      EXPECT_TRUE(!pass.pass_kernel || can_fuse[p]) << "mask " << mask << " pass " << p;
      if (pass.pass_kernel) {
        ++kernels;
        EXPECT_NE(pass.output, pass.input) << "mask " << mask << " pass " << p;
      } else {
        EXPECT_EQ(pass.output, pass.input) << "mask " << mask << " pass " << p;
        EXPECT_EQ((std::set<int>{pass.input, pass.stage1(), pass.stage2()}), (std::set<int>{0, 1, 2}));
      }
      holding = pass.output;
    }
    EXPECT_EQ(holding, 0) << "mask " << mask << ": the step ends in the state";
    EXPECT_EQ(kernels, fusable >= 2 ? fusable : 0) << "mask " << mask;
  }
}

TEST(PassPlacementTest, EveryCombinationOfTwoPassesEndsInTheState) { expect_every_combination_ends_in_the_state<2>(); }

TEST(PassPlacementTest, EveryCombinationOfThreePassesEndsInTheState) {
  expect_every_combination_ends_in_the_state<3>();
}

TEST(PassPlacementTest, StageKernelsAloneKeepTheStateAndTheirStageArrays) {
  for (const PassPlacement& pass : place_passes(std::array<bool, 3>{}))
    EXPECT_TRUE(!pass.pass_kernel && pass.input == 0 && pass.stage1() == 1 && pass.stage2() == 2);
}

}  // namespace
}  // namespace simapp
