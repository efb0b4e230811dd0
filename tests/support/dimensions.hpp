#pragma once
/// The model's dimensions as gtest types, for tests whose assertions hold in 2-D and in 3-D:
/// TYPED_TEST_SUITE(Suite, testing::Dimensions, testing::DimensionName) names the tests
/// Suite/2d.Name and Suite/3d.Name.
#include <gtest/gtest.h>

#include <string>
#include <type_traits>

namespace simapp::testing {

/// The model in 2 or 3 dimensions (`Dims::value`).
using Dimensions = ::testing::Types<std::integral_constant<int, 2>, std::integral_constant<int, 3>>;

/// The names of the test's dimension: "2d", "3d".
class DimensionName {
 public:
  template <class Dims>
  static std::string GetName(int) {
    return std::to_string(Dims::value) + "d";
  }
};

}  // namespace simapp::testing
