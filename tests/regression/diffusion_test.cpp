/// Physical diffusion (physics.viscosity, physics.diffusivity): the face fluxes of
/// kernels/flux/diffusive_flux.hpp give the tendency ∂/∂x(ν ρ ∂φ/∂x) of ρφ, which for a uniform
/// density is ρ ν φ''. Against the analytic second derivative of a sine mode φ = A sin(2π x / L)
/// (the mode decays as exp(−ν (2π/L)² t)), on a periodic row and a column between walls, at two
/// resolutions: second order. And none at a wall. The velocities take ν and θ takes κ. The
/// tracers' transport kernel (kernels/update/tracer_transport.hpp) adds the diffusive fluxes of
/// their mixing ratios: one stage on a resting, non-uniform state against the update worked out
/// from docs/model.md's formula, along x and along z between walls.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "kernels/backend/stream.hpp"
#include "kernels/flux/diffusive_flux.hpp"
#include "kernels/time/step_params.hpp"
#include "kernels/update/tracer_transport.hpp"

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
    add_diffusive_flux<Direction::x>(a, b, 0.0, 0, ColumnIndex{}, context, flux_low);
    add_diffusive_flux<Direction::x>(b, c, 0.0, 0, ColumnIndex{}, context, flux_high);
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
    add_diffusive_flux<Direction::z>(a, b, 0.0, k, ColumnIndex{}, context, flux_low);       // face k
    add_diffusive_flux<Direction::z>(b, c, 0.0, k + 1, ColumnIndex{}, context, flux_high);  // face k + 1
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

TEST(DiffusionTest, TheVelocitiesDiffuseWithTheViscosityAndThetaWithTheDiffusivity) {
  constexpr double diffusivity = 4 * viscosity;
  const int n = 64;
  const double length = 20000.0, dx = length / n;
  const UniformBackground background(1);
  const StepParams<2> params = step_params(1.0, dx, dx, Dissipation{viscosity, 0.0, diffusivity});
  const FluxContext<2> context{CellGeometry<2>{dx, dx, length, dx, n, 1, 0, 0}, background.view(), &params, 0};
  const auto phi = [&](int i) { return amplitude * std::sin(2 * pi * (i + 0.5) * dx / length); };
  const double curvature = std::pow(2 * pi / length, 2);
  for (int i = 0; i < n; ++i) {
    double flux_low[var::count] = {}, flux_high[var::count] = {}, a[var::count], b[var::count], c[var::count];
    cell_values(phi(i - 1), a);
    cell_values(phi(i), b);
    cell_values(phi(i + 1), c);
    add_diffusive_flux<Direction::x>(a, b, 0.0, 0, ColumnIndex{}, context, flux_low);
    add_diffusive_flux<Direction::x>(b, c, 0.0, 0, ColumnIndex{}, context, flux_high);
    const auto tendency = [&](int v) { return -(flux_high[v] - flux_low[v]) / dx / density; };
    const double tolerance = 0.01 * diffusivity * curvature * amplitude;  // 1 %, as above
    EXPECT_NEAR(tendency(var::umom), -viscosity * curvature * phi(i), tolerance) << i;
    EXPECT_NEAR(tendency(var::wmom), -viscosity * curvature * phi(i), tolerance) << i;
    EXPECT_NEAR(tendency(var::rhot), -diffusivity * curvature * phi(i), tolerance) << i;
  }
}

/// One stage of the tracers' transport on a resting state of nx × nz cells (2-D, one tracer):
/// every cell, ghosts included, has its own ρ′, the background its own ρ̄ and ρ̄_x on every
/// row and interface, so that a wrong row or face shows.
class TracerDiffusionStage {
 public:
  static constexpr int nx = 6, nz = 4, tracer = var::count;
  static constexpr double dx = 100.0, dz = 50.0, dt = 2.0;
  static constexpr double diffusivity = 300.0;

  TracerDiffusionStage()
      : shape_{nx, 1, nz, numerics::halo_width, var::count + 1}, state_(shape_.size()), out_(shape_.size()) {
    for (int k = -2; k < nz + 2; ++k) {
      density_cell_.push_back(1.2 - 0.03 * k);
      tracer_cell_.push_back(0.010 - 0.001 * k);
    }
    for (int k = 0; k <= nz; ++k) {
      density_face_.push_back(1.215 - 0.03 * k);
      tracer_face_.push_back(0.0105 - 0.001 * k);
    }
    for (int k = -2; k < nz + 2; ++k)
      for (int i = -2; i < nx + 2; ++i) {
        at(state_, var::dens, k, i) = 0.001 * std::sin(0.7 * i + 1.3 * k);
        at(state_, tracer, k, i) = 0.002 * std::cos(0.9 * i - 0.4 * k) + 0.0005 * i * k;
      }
    // The momenta are 0 (at rest: no advection) and β = 0 (no hyperviscosity): only diffusion.
    params_ = step_params(dt, dx, dz, Dissipation{700.0, 0.0, diffusivity});
  }

  /// out = state after the last RK stage (dt_stage = dt) of the pass along `direction`.
  void run(Direction direction) {
    const FieldView<double, 2> state{state_.data(), shape_}, out{out_.data(), shape_};
    HydrostaticView background;
    background.density_cell = density_cell_.data();
    background.density_face = density_face_.data();
    const FluxContext<2> context{CellGeometry<2>{dx, dz, nx * dx, nz * dz, nx, nz, 0, 0}, background, &params_, 2};
    apply_tracer_transport<double, 2>(Stream{}, direction, {state, state, out}, VarRange{tracer, tracer + 1}, context,
                                      TracerBackground{tracer_cell_.data(), tracer_face_.data(), 0, 0});
  }

  /// The mixing ratio φ = (ρ_x′ + ρ̄_x) / (ρ′ + ρ̄) of cell (i, k).
  double mixing_ratio(int k, int i) const {
    return (at(state_, tracer, k, i) + tracer_cell_[k + 2]) / (at(state_, var::dens, k, i) + density_cell_[k + 2]);
  }
  /// φ − φ̄: the mixing ratio's departure from the background's, φ̄ = ρ̄_x/ρ̄ of row k.
  double departure(int k, int i) const { return mixing_ratio(k, i) - tracer_cell_[k + 2] / density_cell_[k + 2]; }
  /// q_f(ρ′) of the four cells around a face.
  static double face_value(double q0, double q1, double q2, double q3) { return (-q0 + 7 * q1 + 7 * q2 - q3) / 12; }

  /// F(ρ_x) at the x face between cells i − 1 and i of row k: −κ ρ_f (φ_i − φ_{i−1}) / dx.
  double x_flux(int k, int i) const {
    const double rho_f = face_value(at(state_, var::dens, k, i - 2), at(state_, var::dens, k, i - 1),
                                    at(state_, var::dens, k, i), at(state_, var::dens, k, i + 1)) +
                         density_cell_[k + 2];
    return -diffusivity * rho_f * (mixing_ratio(k, i) - mixing_ratio(k, i - 1)) / dx;
  }
  /// H(ρ_x) at interface k between rows k − 1 and k: −κ ρ_f ((φ − φ̄)_k − (φ − φ̄)_{k−1}) / dz (the
  /// background's own profile does not diffuse); 0 at the walls.
  double z_flux(int k, int i) const {
    if (k == 0 || k == nz) return 0.0;
    const double rho_f = face_value(at(state_, var::dens, k - 2, i), at(state_, var::dens, k - 1, i),
                                    at(state_, var::dens, k, i), at(state_, var::dens, k + 1, i)) +
                         density_face_[k];
    return -diffusivity * rho_f * (departure(k, i) - departure(k - 1, i)) / dz;
  }

  double stored(int k, int i) const { return at(state_, tracer, k, i); }
  double updated(int k, int i) const { return at(out_, tracer, k, i); }

 private:
  double& at(std::vector<double>& values, int v, int k, int i) { return values[shape_.offset(v, k, i)]; }
  double at(const std::vector<double>& values, int v, int k, int i) const { return values[shape_.offset(v, k, i)]; }

  FieldShape<2> shape_;
  std::vector<double> state_, out_;
  std::vector<double> density_cell_, tracer_cell_, density_face_, tracer_face_;
  StepParams<2> params_;
};

TEST(DiffusionTest, TracerStageAlongXAddsTheDiffusiveFluxesOfItsMixingRatio) {
  TracerDiffusionStage stage;
  stage.run(Direction::x);
  using S = TracerDiffusionStage;
  for (int k = 0; k < S::nz; ++k)
    for (int i = 0; i < S::nx; ++i) {
      const double expected = stage.stored(k, i) - S::dt * (stage.x_flux(k, i + 1) - stage.x_flux(k, i)) / S::dx;
      EXPECT_NE(stage.updated(k, i), stage.stored(k, i)) << "(" << i << ", " << k << ") changed";
      EXPECT_NEAR(stage.updated(k, i), expected, 1e-16) << "(" << i << ", " << k << ")";
    }
}

TEST(DiffusionTest, TracerStageAlongZAddsTheDiffusiveFluxesOfItsMixingRatioAndNoneThroughTheWalls) {
  TracerDiffusionStage stage;
  stage.run(Direction::z);
  using S = TracerDiffusionStage;
  for (int k = 0; k < S::nz; ++k)
    for (int i = 0; i < S::nx; ++i) {
      const double expected = stage.stored(k, i) - S::dt * (stage.z_flux(k + 1, i) - stage.z_flux(k, i)) / S::dz;
      EXPECT_NE(stage.updated(k, i), stage.stored(k, i)) << "(" << i << ", " << k << ") changed";
      EXPECT_NEAR(stage.updated(k, i), expected, 1e-16) << "(" << i << ", " << k << ")";
    }
}

TEST(DiffusionTest, NoViscosityAddsNothing) {
  const UniformBackground background(1);
  const StepParams<2> params = step_params(1.0, 100.0, 100.0, Dissipation{0.0, 0.05});
  const FluxContext<2> context{CellGeometry<2>{100.0, 100.0, 1000.0, 100.0, 10, 1, 0, 0}, background.view(), &params,
                               0};
  double a[var::count], b[var::count], flux[var::count] = {1.0, 2.0, 3.0, 4.0};
  cell_values(0.1, a);
  cell_values(0.7, b);
  add_diffusive_flux<Direction::x>(a, b, 0.0, 0, ColumnIndex{}, context, flux);
  EXPECT_EQ(flux[var::umom], 2.0);
  EXPECT_EQ(flux[var::rhot], 4.0);
}

}  // namespace
}  // namespace simapp
