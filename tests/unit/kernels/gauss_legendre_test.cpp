#include "kernels/quadrature/gauss_legendre.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace simapp {
namespace {

TEST(GaussLegendreTest, IntegratesPolynomialsUpToDegreeFiveExactly) {
  for (int degree = 0; degree <= 5; ++degree) {
    double sum = 0.0;
    for (int q = 0; q < gauss_legendre::num_points; ++q)
      sum += gauss_legendre::weight(q) * std::pow(gauss_legendre::point(q), degree);
    EXPECT_NEAR(sum, 1.0 / (degree + 1), 1e-15) << "degree " << degree;
  }
}

TEST(GaussLegendreTest, PointsAreTheDocumentedOnes) {
  EXPECT_NEAR(gauss_legendre::point(0), 0.5 - std::sqrt(3.0 / 5.0) / 2.0, 1e-16);
  EXPECT_NEAR(gauss_legendre::point(2), 0.5 + std::sqrt(3.0 / 5.0) / 2.0, 1e-16);
}

}  // namespace
}  // namespace simapp
