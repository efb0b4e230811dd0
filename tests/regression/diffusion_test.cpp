/// Physical diffusion (physics.viscosity): the face fluxes of kernels/flux/diffusive_flux.hpp
/// give the tendency ∂/∂x(ν ρ ∂φ/∂x) of ρφ, which for a uniform density is ρ ν φ''. Against
/// the analytic second derivative of a sine mode φ = A sin(2π x / L) (the mode decays as
/// exp(−ν (2π/L)² t)), on a periodic row and a column between walls, at two resolutions:
/// second order. And none at a wall.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "kernels/flux/diffusive_flux.hpp"
#include "kernels/time/step_params.hpp"

namespace simapp {
namespace {

constexpr double pi = 3.14159265358979323846;
constexpr double density = 1.1;      // kg m⁻³, uniform
constexpr double rho_theta = 330.0;  // background ρθ (θ = 300 K)
constexpr double viscosity = 75.0;   // m² s⁻¹, Straka's
constexpr double amplitude = 0.5;

/// A uniform background over n rows (with the two halo rows on each side).
struct UniformBackground {
  explicit UniformBackground(int n)
      : density_cell(n + 4, density),
        rho_theta_cell(n + 4, rho_theta),
        density_face(n + 1, density),
        rho_theta_face(n + 1, rho_theta),
        pressure_face(n + 1, physics::pressure(rho_theta)),
        inv_rho_theta_cell(n + 4, 1.0 / rho_theta),
        pressure_cell(n + 4, physics::pressure(rho_theta)),
        inv_rho_theta_face(n + 1, 1.0 / rho_theta) {}
  HydrostaticView view() const {
    return {density_cell.data(),  rho_theta_cell.data(),     density_face.data(),  rho_theta_face.data(),
            pressure_face.data(), inv_rho_theta_cell.data(), pressure_cell.data(), inv_rho_theta_face.data()};
  }
  std::vector<double> density_cell, rho_theta_cell, density_face, rho_theta_face, pressure_face;
  std::vector<double> inv_rho_theta_cell, pressure_cell, inv_rho_theta_face;
};

/// The stored values of a cell where u, w and θ′ are `phi` (ρ′ = 0).
void cell_values(double phi, double q[var::count]) {
  q[var::dens] = 0.0;
  q[var::umom] = density * phi;
  q[var::wmom] = density * phi;
  q[var::rhot] = density * phi;  // (ρθ)′ = ρ θ′ with θ = θ̄ + θ′ and ρθ̄ = ρ̄θ̄
}

/// Largest error of R(ρφ)/ρ against ν φ'' over n cells of a periodic x row (length L) for
/// each of u, w, θ.
double x_error(int n) {
  const double length = 20000.0, dx = length / n;
  const UniformBackground background(1);
  const StepParams<2> params = step_params(1.0, dx, dx, Dissipation{viscosity, 0.0});
  const FluxContext<2> context{CellGeometry<2>{dx, dx, length, dx, n, 1, 0, 0}, background.view(), &params, 0};
  const auto phi = [&](int i) { return amplitude * std::sin(2 * pi * (i + 0.5) * dx / length); };
  double worst = 0.0;
  for (int i = 0; i < n; ++i) {
    double flux_low[var::count] = {}, flux_high[var::count] = {}, a[var::count], b[var::count], c[var::count];
    cell_values(phi(i - 1), a);
    cell_values(phi(i), b);
    cell_values(phi(i + 1), c);
    add_diffusive_flux<Direction::x>(a, b, 0.0, 0, context, flux_low);
    add_diffusive_flux<Direction::x>(b, c, 0.0, 0, context, flux_high);
    const double exact = -viscosity * std::pow(2 * pi / length, 2) * phi(i);
    for (int v : {var::umom, var::wmom, var::rhot}) {
      EXPECT_EQ(flux_low[var::dens], 0.0) << "no mass diffuses";
      const double tendency = -(flux_high[v] - flux_low[v]) / dx / density;
      worst = std::max(worst, std::abs(tendency - exact));
    }
  }
  return worst;
}

/// The same along z over n rows between walls (height H), with φ = A cos(π z / H), whose
/// gradient vanishes at the walls.
double z_error(int n) {
  const double height = 10000.0, dz = height / n;
  const UniformBackground background(n);
  const StepParams<2> params = step_params(1.0, dz, dz, Dissipation{viscosity, 0.0});
  const FluxContext<2> context{CellGeometry<2>{dz, dz, dz, height, 1, n, 0, 0}, background.view(), &params, 0};
  const auto phi = [&](int k) { return amplitude * std::cos(pi * (k + 0.5) * dz / height); };
  double worst = 0.0;
  for (int k = 0; k < n; ++k) {
    double flux_low[var::count] = {}, flux_high[var::count] = {}, a[var::count], b[var::count], c[var::count];
    cell_values(phi(k - 1), a);
    cell_values(phi(k), b);
    cell_values(phi(k + 1), c);
    add_diffusive_flux<Direction::z>(a, b, 0.0, k, context, flux_low);       // face k
    add_diffusive_flux<Direction::z>(b, c, 0.0, k + 1, context, flux_high);  // face k + 1
    if (k == 0) {
      EXPECT_EQ(flux_low[var::umom], 0.0) << "no flux through the lower wall";
    }
    if (k == n - 1) {
      EXPECT_EQ(flux_high[var::rhot], 0.0) << "no flux through the upper wall";
    }
    const double exact = -viscosity * std::pow(pi / height, 2) * phi(k);
    for (int v : {var::umom, var::wmom, var::rhot})
      worst = std::max(worst, std::abs(-(flux_high[v] - flux_low[v]) / dz / density - exact));
  }
  return worst;
}

TEST(DiffusionTest, SineModeTendencyConvergesAtSecondOrderAlongX) {
  const double coarse = x_error(32), fine = x_error(64);
  const double order = std::log2(coarse / fine);
  EXPECT_GE(order, 1.9) << coarse << " -> " << fine;
  EXPECT_LT(fine, 0.01 * viscosity * std::pow(2 * pi / 20000.0, 2) * amplitude);  // within 1 %
}

TEST(DiffusionTest, CosineModeBetweenWallsConvergesAlongZ) {
  // At the walls the zero flux is exact for this mode; inside, second order.
  const double coarse = z_error(32), fine = z_error(64);
  EXPECT_GE(std::log2(coarse / fine), 1.9) << coarse << " -> " << fine;
}

TEST(DiffusionTest, NoViscosityAddsNothing) {
  const UniformBackground background(1);
  const StepParams<2> params = step_params(1.0, 100.0, 100.0, Dissipation{0.0, 0.05});
  const FluxContext<2> context{CellGeometry<2>{100.0, 100.0, 1000.0, 100.0, 10, 1, 0, 0}, background.view(), &params,
                               0};
  double a[var::count], b[var::count], flux[var::count] = {1.0, 2.0, 3.0, 4.0};
  cell_values(0.1, a);
  cell_values(0.7, b);
  add_diffusive_flux<Direction::x>(a, b, 0.0, 0, context, flux);
  EXPECT_EQ(flux[var::umom], 2.0);
  EXPECT_EQ(flux[var::rhot], 4.0);
}

}  // namespace
}  // namespace simapp
