#include "solver/column/soundings.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "kernels/physics/constants.hpp"
#include "kernels/physics/equation_of_state.hpp"
#include "kernels/physics/kessler.hpp"

namespace simapp {

double temperature_where(const std::function<double(double)>& rises, double target) {
  double low = 150.0, high = 400.0;
  for (int i = 0; i < 200 && high - low > 1e-13 * high; ++i) {
    const double middle = 0.5 * (low + high);
    (rises(middle) > target ? high : low) = middle;
  }
  return 0.5 * (low + high);
}

double saturation_vapour(double pressure, double temperature) {
  return kessler::saturation_mixing_ratio(380.0 / pressure, temperature);
}

Sounding sounding_of(const InputSounding& input) {
  const SoundingLevel lowest = input.levels.empty() ? SoundingLevel{} : input.levels.front();
  std::vector<SoundingLevel> levels{{0.0, input.surface_theta, input.surface_vapour, lowest.u, lowest.v}};
  levels.insert(levels.end(), input.levels.begin(), input.levels.end());
  return [levels = std::move(levels)](double z, double /*pressure*/) {
    const auto air_of = [](const SoundingLevel& level) {
      return ColumnAir{level.theta, level.vapour, 0.0, level.u, level.v};
    };
    if (z <= levels.front().height) return air_of(levels.front());
    if (z >= levels.back().height) return air_of(levels.back());
    const auto above = std::ranges::upper_bound(levels, z, {}, &SoundingLevel::height);
    const SoundingLevel& low = *(above - 1);
    const SoundingLevel& high = *above;
    const double f = (z - low.height) / (high.height - low.height);
    const auto between = [f](double a, double b) { return a + f * (b - a); };
    return ColumnAir{between(low.theta, high.theta), between(low.vapour, high.vapour), 0.0, between(low.u, high.u),
                     between(low.v, high.v)};
  };
}

double supercell_wind(double z) {
  constexpr double shear_top = 5000.0, blend = 1000.0, u_shear = 30.0, u_translation = 15.0;
  if (z <= shear_top - blend) return u_shear * z / shear_top - u_translation;
  if (z <= shear_top + blend)
    return (-0.8 + 3.0 * z / shear_top - 1.25 * z * z / (shear_top * shear_top)) * u_shear - u_translation;
  return u_shear - u_translation;
}

Sounding supercell_sounding() {
  return [](double z, double pressure) {
    constexpr double theta_ground = 300.0, theta_tropopause = 343.0, t_tropopause = 213.0, z_tropopause = 12000.0;
    static constexpr double vapour_cap = 0.014;
    using namespace physics;
    const double shape = std::pow(std::max(z, 0.0) / z_tropopause, 1.25);
    const bool below = z <= z_tropopause;
    const double theta = below ? theta_ground + (theta_tropopause - theta_ground) * shape
                               : theta_tropopause * std::exp(gravity * (z - z_tropopause) / (cp * t_tropopause));
    const double humidity = below ? 1.0 - 0.75 * shape : 0.25;
    const double saturation = std::min(saturation_vapour(pressure, temperature(theta, pressure)), vapour_cap);
    return ColumnAir{theta, humidity * saturation, 0.0, supercell_wind(z), 0.0};
  };
}

namespace {

/// θ_d of a saturated parcel along the model's reversible moist adiabat at pressure p:
///   d ln θ_d / dp = −A q (b T κ − 1) / (p (1 + A q b T)),
/// with T = θ_d (p/p₀)^κ, κ = R_d/c_p, q = q_vs(p, T), A = l_v/(c_p T) and
/// b = ∂ln q_vs/∂T = 17.27 · 237 / (T − 36)² (so that dq_vs/q_vs = −dp/p + b dT).
double dlog_theta_dp(double pressure, double theta) {
  using namespace physics;
  constexpr double kappa = rd / cp;
  const double t = temperature(theta, pressure);
  const double q = saturation_vapour(pressure, t);
  const double a = lv / (cp * t);
  const double b = 17.27 * 237.0 / ((t - 36.0) * (t - 36.0));
  return -a * q * (b * t * kappa - 1.0) / (pressure * (1.0 + a * q * b * t));
}

/// θ_d at `pressure` where θ_d exp(l_v q_vs / (c_p T)) = θ_e: bisection on T, to round-off.
double theta_of_equivalent(double theta_e, double pressure) {
  using namespace physics;
  const double exner = std::pow(pressure / p0, rd / cp);
  const auto equivalent = [&](double t) {
    return t / exner * std::exp(lv * saturation_vapour(pressure, t) / (cp * t));
  };
  return temperature_where(equivalent, theta_e) / exner;
}

/// θ_d(p) tabulated every 10 Pa from 1000 Pa to 5000 Pa above the surface's, by the classical
/// Runge–Kutta scheme in p from the surface both ways, and read by linear interpolation.
class MoistAdiabat {
 public:
  MoistAdiabat(double theta_e, double surface_pressure)
      : first_(lowest_pressure), count_(static_cast<int>((surface_pressure + 5000.0 - lowest_pressure) / step) + 1) {
    log_theta_.resize(static_cast<std::size_t>(count_));
    const int surface = static_cast<int>(std::lround((surface_pressure - first_) / step));
    const double start = theta_of_equivalent(theta_e, first_ + surface * step);
    log_theta_[static_cast<std::size_t>(surface)] = std::log(start);
    for (const int direction : {-1, 1})
      for (int n = surface; n + direction >= 0 && n + direction < count_; n += direction) {
        const double p = first_ + n * step, h = direction * step, y = log_theta_[static_cast<std::size_t>(n)];
        const auto f = [](double pressure, double log_theta) { return dlog_theta_dp(pressure, std::exp(log_theta)); };
        const double k1 = f(p, y), k2 = f(p + h / 2, y + h / 2 * k1), k3 = f(p + h / 2, y + h / 2 * k2),
                     k4 = f(p + h, y + h * k3);
        log_theta_[static_cast<std::size_t>(n + direction)] = y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4);
      }
  }
  double theta(double pressure) const {
    const double position = std::clamp((pressure - first_) / step, 0.0, count_ - 1.000001);
    const auto n = static_cast<std::size_t>(position);
    const double f = position - static_cast<double>(n);
    return std::exp(log_theta_[n] + f * (log_theta_[n + 1] - log_theta_[n]));
  }

 private:
  static constexpr double lowest_pressure = 1000.0, step = 10.0;
  double first_;
  int count_;
  std::vector<double> log_theta_;
};

}  // namespace

Sounding moist_neutral_sounding(double theta_e, double total_water, double surface_pressure) {
  auto adiabat = std::make_shared<const MoistAdiabat>(theta_e, surface_pressure);
  return [adiabat, total_water](double /*z*/, double pressure) {
    const double theta = adiabat->theta(pressure);
    const double vapour = std::min(saturation_vapour(pressure, physics::temperature(theta, pressure)), total_water);
    return ColumnAir{theta, vapour, total_water - vapour, 0.0, 0.0};
  };
}

}  // namespace simapp
