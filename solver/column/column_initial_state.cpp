#include "solver/column/column_initial_state.hpp"

#include <cmath>

#include "kernels/physics/constants.hpp"
#include "kernels/physics/equation_of_state.hpp"
#include "kernels/physics/variables.hpp"
#include "solver/column/soundings.hpp"

namespace simapp {

namespace {

constexpr double vapour_gas_ratio = physics::rv / physics::rd;

/// θ_ρ = θ_d (1 + q_v R_v/R_d) / (1 + q_t).
double density_theta(const ColumnAir& air) {
  return air.theta * (1.0 + air.vapour * vapour_gas_ratio) / (1.0 + air.vapour + air.cloud);
}

/// The saturated air of total water q_t at pressure p whose θ_ρ is `target`: θ_ρ grows with T, so
/// temperature_where.
ColumnAir saturated_air(double target, double total_water, double pressure) {
  const double exner = std::pow(pressure / physics::p0, physics::rd / physics::cp);
  const auto air_at = [&](double t) {
    const double vapour = std::min(saturation_vapour(pressure, t), total_water);
    return ColumnAir{t / exner, vapour, total_water - vapour};
  };
  return air_at(temperature_where([&](double t) { return density_theta(air_at(t)); }, target));
}

/// Σ w · (perturbed − background) over a cell's points, and its momenta.
struct CellChange {
  double density = 0.0, rho_theta = 0.0, vapour = 0.0, cloud = 0.0;
  double umom = 0.0, vmom = 0.0, wmom = 0.0;
};

void add_point(const ColumnAir& air, const ColumnPoint& point, const PointPerturbation& perturbation, double w,
               CellChange& change) {
  const ColumnPoint moved = perturbed_point(air, point, perturbation);
  change.density += (moved.density - point.density) * w;
  change.rho_theta += (moved.rho_theta - point.rho_theta) * w;
  change.vapour += (moved.vapour_density - point.vapour_density) * w;
  change.cloud += (moved.cloud_density - point.cloud_density) * w;
  change.umom += moved.density * (air.u + perturbation.u) * w;
  change.vmom += moved.density * air.v * w;
  change.wmom += moved.density * perturbation.w * w;
}

}  // namespace

ColumnPoint perturbed_point(const ColumnAir& air, const ColumnPoint& point, const PointPerturbation& perturbation) {
  ColumnAir moved = air;
  ColumnPoint result = point;
  double pressure = point.pressure;
  bool changed = false;
  if (perturbation.saturated_warming != 0.0) {
    const double target = density_theta(air) * (1.0 + perturbation.saturated_warming / physics::theta0);
    moved = saturated_air(target, air.vapour + air.cloud, pressure);
    changed = true;
  }
  if (perturbation.temperature != 0.0) {
    moved.theta += perturbation.temperature / std::pow(pressure / physics::p0, physics::rd / physics::cp);
    changed = true;
  }
  if (perturbation.vapour != 0.0) {
    // The same T and ρ_d: p = ρ_d T (R_d + q_v R_v) grows, and θ_d = T/Π with it.
    const double t = physics::temperature(moved.theta, pressure);
    const double dry_density = pressure / (t * (physics::rd + moved.vapour * physics::rv));
    moved.vapour += perturbation.vapour;
    pressure = dry_density * t * (physics::rd + moved.vapour * physics::rv);
    moved.theta = t / std::pow(pressure / physics::p0, physics::rd / physics::cp);
    changed = true;
  }
  if (changed) result = column_point(moved, pressure);
  if (perturbation.theta != 0.0) result.rho_theta *= (moved.theta + perturbation.theta) / moved.theta;
  return result;
}

template <int Dims>
std::vector<double> column_initial_state(const ColumnBackground& background, CaseName name, const Bump<Dims>& bump,
                                         const CellGeometry<Dims>& geometry, const FieldShape<Dims>& cells,
                                         int variables, int first_water) {
  using V = ModelVariables<Dims>;
  constexpr int points = gauss_legendre::num_points, points_along_y = Dims == 3 ? points : 1;
  const int ny = Dims == 3 ? cells.ny : 1;
  const std::size_t count = static_cast<std::size_t>(cells.nx) * ny * cells.nz;
  std::vector<double> state(count * static_cast<std::size_t>(variables), 0.0);
  for (int k = 0; k < cells.nz; ++k) {
    const std::size_t row = static_cast<std::size_t>(k + numerics::halo_width);
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < cells.nx; ++i) {
        CellChange change;
        for (int qk = 0; qk < points; ++qk)
          for (int qj = 0; qj < points_along_y; ++qj)
            for (int qi = 0; qi < points; ++qi) {
              const double x = geometry.x_center(i) + (gauss_legendre::point(qi) - 0.5) * geometry.dx;
              const double z = geometry.z_center(k) + (gauss_legendre::point(qk) - 0.5) * geometry.dz;
              const ColumnAir& air = background.air[row][qk];
              const ColumnPoint& point = background.points[row][qk];
              if constexpr (Dims == 3) {
                const double y = geometry.y_center(j) + (gauss_legendre::point(qj) - 0.5) * geometry.dy;
                const double w = gauss_legendre::weight(qi) * gauss_legendre::weight(qj) * gauss_legendre::weight(qk);
                add_point(air, point, case_perturbation(name, bump, x, y, z), w, change);
              } else {
                const double w = gauss_legendre::weight(qi) * gauss_legendre::weight(qk);
                add_point(air, point, case_perturbation(name, bump, x, z), w, change);
              }
            }
        const std::size_t cell = (static_cast<std::size_t>(k) * ny + j) * cells.nx + i;
        const auto at = [&](int v) -> double& { return state[static_cast<std::size_t>(v) * count + cell]; };
        at(V::dens) = change.density;
        at(V::umom) = change.umom;
        if constexpr (Dims == 3) at(V::vmom) = change.vmom;
        at(V::wmom) = change.wmom;
        at(V::rhot) = change.rho_theta;
        if (first_water >= 0) {
          at(first_water) = change.vapour;
          at(first_water + 1) = change.cloud;
        }
      }
  }
  return state;
}

template std::vector<double> column_initial_state<2>(const ColumnBackground&, CaseName, const Bump<2>&,
                                                     const CellGeometry<2>&, const FieldShape<2>&, int, int);
template std::vector<double> column_initial_state<3>(const ColumnBackground&, CaseName, const Bump<3>&,
                                                     const CellGeometry<3>&, const FieldShape<3>&, int, int);

}  // namespace simapp
