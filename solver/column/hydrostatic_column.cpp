#include "solver/column/hydrostatic_column.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "kernels/physics/constants.hpp"

namespace simapp {

namespace {

constexpr double largest_step = 5.0;  // m

/// dp/dz = −ρ g at (z, p).
double pressure_gradient(const Sounding& sounding, double z, double p) {
  return -column_point(sounding(z, p), p).density * physics::gravity;
}

/// p at z + h from p at z: ⌈|h| / 5 m⌉ classical Runge–Kutta steps.
double integrate(const Sounding& sounding, double z, double p, double h) {
  const int steps = std::max(1, static_cast<int>(std::ceil(std::abs(h) / largest_step)));
  const double dz = h / steps;
  for (int s = 0; s < steps; ++s) {
    const double k1 = pressure_gradient(sounding, z, p);
    const double k2 = pressure_gradient(sounding, z + dz / 2, p + dz / 2 * k1);
    const double k3 = pressure_gradient(sounding, z + dz / 2, p + dz / 2 * k2);
    const double k4 = pressure_gradient(sounding, z + dz, p + dz * k3);
    p += dz / 6 * (k1 + 2 * k2 + 2 * k3 + k4);
    z = z + dz;
  }
  return p;
}

}  // namespace

std::vector<ColumnPoint> integrate_hydrostatic(const Sounding& sounding, double z_known, double p_known,
                                               std::span<const double> heights) {
  std::vector<std::size_t> order(heights.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::ranges::sort(order, [&](std::size_t a, std::size_t b) { return heights[a] < heights[b]; });
  std::vector<ColumnPoint> points(heights.size());
  // Upwards from the known point through the heights above it, then downwards through those below.
  const auto first_above = std::ranges::find_if(order, [&](std::size_t n) { return heights[n] >= z_known; });
  double z = z_known, p = p_known;
  for (auto n = first_above; n != order.end(); ++n) {
    p = integrate(sounding, z, p, heights[*n] - z);
    z = heights[*n];
    points[*n] = column_point(sounding(z, p), p);
  }
  z = z_known, p = p_known;
  for (auto n = std::make_reverse_iterator(first_above); n != order.rend(); ++n) {
    p = integrate(sounding, z, p, heights[*n] - z);
    z = heights[*n];
    points[*n] = column_point(sounding(z, p), p);
  }
  return points;
}

}  // namespace simapp
