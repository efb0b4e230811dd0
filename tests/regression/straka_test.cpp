/// The density current of Straka et al. (1993), case straka: the cold bubble is a temperature
/// perturbation at the background pressure (ρθ unchanged, θ′ = ΔT/π̄), and the flow it drives
/// stays mirror-symmetric about the bubble's centre line and conserves mass.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "kernels/cases/case_list.hpp"
#include "kernels/physics/variables.hpp"
#include "solver/simulation/run_loop.hpp"
#include "tests/support/small_case.hpp"

namespace simapp {
namespace {

RunSpec straka(int nx, int nz, double sim_time) {
  RunSpec spec = testing::small_case(CaseName::straka, nx, nz, sim_time);
  spec.grid.xlen = 51200.0;
  spec.grid.zlen = 6400.0;
  spec.physics.viscosity = spec.physics.diffusivity = 75.0;  // the benchmark's ν, on u, w and θ
  return spec;
}

/// Interior value of variable v at (i, k) of an [var][k][i] state.
double at(const std::vector<double>& state, const RunSpec& spec, int v, int k, int i) {
  return state[(static_cast<std::size_t>(v) * spec.grid.nz + k) * spec.grid.nx + i];
}

TEST(StrakaTest, TheBubbleIsATemperatureDropAtTheBackgroundPressure) {
  const RunSpec spec = straka(512, 64, 1.0);  // 100 m cells
  testing::SerialSimulation simulation(spec, Backend::host, ExecutionMode::eager);
  const std::vector<double> state = simulation->gathered_state();
  // The cell whose centre is nearest the bubble's centre (x = 25.6 km, z = 3 km): i = 255 or
  // 256 (centres 25.55 and 25.65 km), k = 29 or 30 (2.95 and 3.05 km): 50 m off in each.
  const HydrostaticPoint background = case_background(CaseName::straka).at(2950.0);
  const double exner = std::pow(background.pressure / physics::p0, physics::rd / physics::cp);
  const double r = std::hypot(50.0 / 4000.0, 50.0 / 2000.0);
  const double delta_t = -15.0 * (1.0 + std::cos(3.14159265358979323846 * r)) / 2.0;
  const double theta_prime = delta_t / exner;  // about −16.6 K
  const double density_prime = -background.density * theta_prime / (background.theta + theta_prime);
  EXPECT_NEAR(at(state, spec, var::dens, 29, 255), density_prime, 1e-3 * std::abs(density_prime));
  for (int k = 0; k < spec.grid.nz; ++k)
    for (int i = 0; i < spec.grid.nx; ++i) {
      ASSERT_EQ(at(state, spec, var::rhot, k, i), 0.0) << "rho theta (so the pressure) is unchanged";
      ASSERT_GE(at(state, spec, var::dens, k, i), 0.0) << "the cold bubble is denser than the air around it";
    }
}

TEST(StrakaTest, FlowStaysMirrorSymmetricAndConservesMass) {
  const RunSpec spec = straka(128, 16, 300.0);  // 400 m cells, 300 s: the bubble has hit the ground
  testing::SerialSimulation simulation(spec, Backend::host, ExecutionMode::graph);
  const RunResult result = run_to_end(*simulation, 0, [](const ProgressReport&) {});
  EXPECT_EQ(result.change.mass, 0.0);
  const std::vector<double> state = simulation->gathered_state();
  double scale[var::count] = {};
  for (int v = 0; v < var::count; ++v)
    for (int k = 0; k < spec.grid.nz; ++k)
      for (int i = 0; i < spec.grid.nx; ++i) scale[v] = std::max(scale[v], std::abs(at(state, spec, v, k, i)));
  const int nx = spec.grid.nx;
  for (int v = 0; v < var::count; ++v) {
    ASSERT_GT(scale[v], 0.0) << "variable " << v << " is never zero after 300 s";
    const double sign = v == var::umom ? -1.0 : 1.0;  // u is odd about the centre line, the rest even
    double worst = 0.0;
    for (int k = 0; k < spec.grid.nz; ++k)
      for (int i = 0; i < nx / 2; ++i)
        worst = std::max(worst, std::abs(at(state, spec, v, k, i) - sign * at(state, spec, v, k, nx - 1 - i)));
    EXPECT_LT(worst, 1e-10 * scale[v]) << "variable " << v;
  }
}

}  // namespace
}  // namespace simapp
