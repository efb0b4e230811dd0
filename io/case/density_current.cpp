#include "io/case/density_current.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace simapp::io {

DensityCurrentMeasures density_current_measures(const Snapshot& snapshot) {
  const std::vector<double> theta = snapshot_field(snapshot, "theta_prime");
  const std::vector<double> u = snapshot_field(snapshot, "u");
  const std::vector<double> w = snapshot_field(snapshot, "w");
  DensityCurrentMeasures measures;
  measures.time = snapshot.time;
  const auto [theta_lo, theta_hi] = std::minmax_element(theta.begin(), theta.end());
  measures.theta_min = *theta_lo;
  measures.theta_max = *theta_hi;
  const auto [u_lo, u_hi] = std::minmax_element(u.begin(), u.end());
  const auto [w_lo, w_hi] = std::minmax_element(w.begin(), w.end());
  measures.u_min = *u_lo;
  measures.u_max = *u_hi;
  measures.w_min = *w_lo;
  measures.w_max = *w_hi;

  // The lowest row (row 0), from the right edge toward the centre.
  const double centre = 0.5 * snapshot.nx * snapshot.dx;
  const auto x_of = [&](int i) { return (i + 0.5) * snapshot.dx; };
  measures.front = std::numeric_limits<double>::quiet_NaN();
  for (int i = snapshot.nx - 2; i >= 0 && x_of(i) >= centre; --i) {
    const double here = theta[static_cast<std::size_t>(i)], right = theta[static_cast<std::size_t>(i) + 1];
    if (here <= front_isotherm && right > front_isotherm) {
      measures.front = x_of(i) + (front_isotherm - here) / (right - here) * snapshot.dx - centre;
      break;
    }
  }
  return measures;
}

nlohmann::json density_current_json(const DensityCurrentMeasures& measures) {
  const auto number = [](double value) {
    return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json(nullptr);
  };
  return {{"time_s", measures.time},
          {"front_m", number(measures.front)},
          {"front_isotherm_K", front_isotherm},
          {"theta_prime_min_K", measures.theta_min},
          {"theta_prime_max_K", measures.theta_max},
          {"u_min_m_per_s", measures.u_min},
          {"u_max_m_per_s", measures.u_max},
          {"w_min_m_per_s", measures.w_min},
          {"w_max_m_per_s", measures.w_max}};
}

}  // namespace simapp::io
