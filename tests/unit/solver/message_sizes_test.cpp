/// The sizes of the messages a gather sends (solver/decomposition/gather_state.hpp): MPI counts
/// are ints, so a block of more than 2³¹ values must travel as several messages; the split is
/// pure arithmetic, checked here at sizes no test could allocate.
#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>

#include "solver/decomposition/gather_state.hpp"

namespace simapp {
namespace {

std::size_t total(const std::vector<int>& sizes) {
  return std::accumulate(sizes.begin(), sizes.end(), std::size_t{0},
                         [](std::size_t sum, int size) { return sum + static_cast<std::size_t>(size); });
}

TEST(MessageSizesTest, ABlockBeyondTwoToTheThirtyOneTravelsInIntSizedMessages) {
  // A 65536 × 32769 grid on one rank: 4 variables × 2 147 549 184 cells, 8 589 934 592 + 262 144
  // values, beyond any int.
  const std::size_t values = std::size_t{4} * 65536 * 32769;
  ASSERT_GT(values, static_cast<std::size_t>(INT32_MAX));
  const std::vector<int> sizes = message_sizes(values);
  EXPECT_EQ(total(sizes), values);
  EXPECT_EQ(sizes.size(), values / max_message_values + 1);
  for (const int size : sizes) {
    EXPECT_GT(size, 0);
    EXPECT_LE(static_cast<std::size_t>(size), max_message_values);
  }
  EXPECT_EQ(static_cast<std::size_t>(sizes.back()), values % max_message_values);
}

TEST(MessageSizesTest, WholeMultiplesHaveNoShortMessageAndNothingHasNoMessage) {
  EXPECT_EQ(message_sizes(3 * max_message_values), std::vector<int>(3, static_cast<int>(max_message_values)));
  EXPECT_TRUE(message_sizes(0).empty());
  EXPECT_EQ(message_sizes(10, 4), (std::vector<int>{4, 4, 2}));
  EXPECT_EQ(message_sizes(3, 4), (std::vector<int>{3}));
}

}  // namespace
}  // namespace simapp
