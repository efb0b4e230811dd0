#include "kernels/reconstruction/fourth_order.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>

namespace simapp {
namespace {

TEST(ReconstructionTest, FaceValueMatchesHandComputedStencil) {
  // (−1 + 7·2 + 7·4 − 8) / 12 = 33/12
  EXPECT_DOUBLE_EQ(face_value(1.0, 2.0, 4.0, 8.0), 33.0 / 12.0);
  EXPECT_DOUBLE_EQ(face_value(5.0, 5.0, 5.0, 5.0), 5.0);
}

TEST(ReconstructionTest, ThirdDifferenceMatchesHandComputedStencil) {
  // −1 + 3·2 − 3·4 + 8 = 1
  EXPECT_DOUBLE_EQ(third_difference(1.0, 2.0, 4.0, 8.0), 1.0);
  EXPECT_DOUBLE_EQ(third_difference(3.0, 3.0, 3.0, 3.0), 0.0);
}

/// Average of f over the unit cell [c, c + 1], from its antiderivative.
double cell_average(const std::function<double(double)>& antiderivative, double c) {
  return antiderivative(c + 1.0) - antiderivative(c);
}

TEST(ReconstructionTest, FaceValueIsExactForCubicsFromCellAverages) {
  // f(x) = 2 − x + 3x² − 0.5x³, face at x = 0 between cells [−1,0] and [0,1].
  auto antiderivative = [](double x) { return 2 * x - x * x / 2 + x * x * x - 0.125 * x * x * x * x; };
  const double q0 = cell_average(antiderivative, -2), q1 = cell_average(antiderivative, -1);
  const double q2 = cell_average(antiderivative, 0), q3 = cell_average(antiderivative, 1);
  EXPECT_NEAR(face_value(q0, q1, q2, q3), 2.0, 1e-14);
}

TEST(ReconstructionTest, ThirdDifferenceVanishesForQuadraticsAndIsConstantForCubics) {
  auto quadratic = [](double x) { return x * x * x / 3 + x; };  // f = x² + 1
  auto cubic = [](double x) { return x * x * x * x / 4; };      // f = x³ → d3 = Δ³ = 3! = 6
  for (double c : {-3.0, 0.0, 7.0}) {
    const double q[4] = {cell_average(quadratic, c), cell_average(quadratic, c + 1), cell_average(quadratic, c + 2),
                         cell_average(quadratic, c + 3)};
    EXPECT_NEAR(third_difference(q[0], q[1], q[2], q[3]), 0.0, 1e-12);
    const double r[4] = {cell_average(cubic, c), cell_average(cubic, c + 1), cell_average(cubic, c + 2),
                         cell_average(cubic, c + 3)};
    EXPECT_NEAR(third_difference(r[0], r[1], r[2], r[3]), 6.0, 1e-10);
  }
}

}  // namespace
}  // namespace simapp
