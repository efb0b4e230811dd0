/// The 3-D model as a run (grid.ny > 1): whole runs of the Simulation held to the 2-D model's
/// runs (a state uniform in y equals the 2-D run at every j; one uniform in x the 2-D run of the
/// y–z plane with v as u), to the model's symmetries, conservation and rest, and every mode and
/// granularity to the others bit for bit (host backend; the gpu suite repeats them on CUDA).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "kernels/cases/case_list.hpp"
#include "tests/support/small_case.hpp"

namespace simapp {
namespace {

using testing::bitwise_equal;

constexpr int nx = 24, ny = 4, nz = 12;
using V3 = ModelVariables<3>;

/// `name` on a 24 km × 4 km × 10 km domain of 1 km × 1 km × 833 m cells (dx = dy exactly, so the
/// 3-D run's dt is the 2-D run's) for 20.5 dt: the last step shortened.
RunSpec case_3d(CaseName name, int cells_x = nx, int cells_y = ny) {
  RunSpec spec = testing::small_case(name, cells_x, nz, 1.0);
  spec.grid.xlen = 1000.0 * cells_x;
  spec.grid.ny = cells_y;
  spec.grid.ylen = 1000.0 * cells_y;
  if (name == CaseName::straka) spec.physics.viscosity = spec.physics.diffusivity = 75.0;
  spec.time.sim_time =
      20.5 *
      TimeStepping(1.0, horizontal_spacing(spec.grid), spec.grid.zlen / nz, spec.time.cfl, spec.physics.viscosity).dt();
  return spec;
}

/// The same run in the 2-D model (ny = 1).
RunSpec case_2d_of(const RunSpec& spec_3d) {
  RunSpec spec = spec_3d;
  spec.grid.ny = 1;
  spec.grid.ylen = spec.grid.xlen;
  return spec;
}

/// A view of a gathered 3-D state [var][k][j][i].
struct State3d {
  const std::vector<double>& values;
  int nx, ny, nz;
  double operator()(int v, int k, int j, int i) const {
    return values[((static_cast<std::size_t>(v) * nz + k) * ny + j) * nx + i];
  }
};

/// The largest |value| of a 2-D state's variable v ([var][k][i], nx × nz).
double largest(const std::vector<double>& state, int v, int cells) {
  double most = 0.0;
  for (int n = 0; n < cells; ++n) most = std::max(most, std::abs(state[static_cast<std::size_t>(v) * cells + n]));
  return most;
}

/// The 3-D variable that plays the 2-D variable v's part when the 2-D x is the 3-D axis `along`
/// (x: u is u; y: v is u).
int variable_3d_of(int v, bool along_y) {
  switch (v) {
    case var::dens: return V3::dens;
    case var::umom: return along_y ? V3::vmom : V3::umom;
    case var::wmom: return V3::wmom;
    default: return V3::rhot;
  }
}

class UniformRunsTest : public ::testing::TestWithParam<CaseName> {};

TEST_P(UniformRunsTest, AStateUniformInYEqualsThe2dRunAtEveryJ) {
  const CaseName name = GetParam();
  RunSpec spec = case_3d(name);
  if (has_bump(name)) {
    const Bump<2> bump = case_bump(name, spec.grid.xlen);
    spec.perturbation.radii = {bump.xr, INFINITY, bump.zr};
  }
  const std::vector<double> run_3d = testing::final_state(spec, Backend::host, ExecutionMode::graph);
  const std::vector<double> run_2d = testing::final_state(case_2d_of(spec), Backend::host, ExecutionMode::graph);
  ASSERT_EQ(run_3d.size(), std::size_t{V3::count} * nx * ny * nz);
  const State3d state{run_3d, nx, ny, nz};
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        ASSERT_EQ(state(V3::vmom, k, j, i), 0.0) << "no wind along y: k " << k << " j " << j << " i " << i;
        for (int v = 0; v < var::count; ++v) {
          const int v3 = variable_3d_of(v, false);
          ASSERT_EQ(state(v3, k, j, i), state(v3, k, 0, i)) << "uniform in y: var " << v3 << " k " << k << " j " << j;
          ASSERT_NEAR(state(v3, k, j, i), run_2d[(static_cast<std::size_t>(v) * nz + k) * nx + i],
                      1e-12 * largest(run_2d, v, nx * nz))
              << to_string(name) << " var " << v << " k " << k << " i " << i;
        }
      }
}

TEST_P(UniformRunsTest, AStateUniformInXEqualsThe2dRunOfTheYZPlaneWithVAsU) {
  const CaseName name = GetParam();
  if (name == CaseName::injection || name == CaseName::gravity_waves)
    GTEST_SKIP() << to_string(name) << "'s wind is along x (an inflow, a mean wind): the y–z plane has no such run";
  constexpr int plane = 24;                                   // cells along y, the 2-D run's x
  RunSpec spec = case_3d(name, 4, plane);                     // 4 cells along x, uniform
  RunSpec spec_2d = case_2d_of(case_3d(name, plane, plane));  // its x is the 3-D y
  if (has_bump(name)) {
    const Bump<2> bump = case_bump(name, spec_2d.grid.xlen);
    spec.perturbation.center = {0.0, bump.x0, bump.z0};
    spec.perturbation.radii = {INFINITY, bump.xr, bump.zr};
  }
  const std::vector<double> run_3d = testing::final_state(spec, Backend::host, ExecutionMode::eager);
  const std::vector<double> run_2d = testing::final_state(spec_2d, Backend::host, ExecutionMode::eager);
  const State3d state{run_3d, 4, plane, nz};
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < plane; ++j)
      for (int i = 0; i < 4; ++i) {
        ASSERT_EQ(state(V3::umom, k, j, i), 0.0) << "no wind along x";
        for (int v = 0; v < var::count; ++v) {
          const int v3 = variable_3d_of(v, true);
          ASSERT_EQ(state(v3, k, j, i), state(v3, k, j, 0)) << "uniform in x: var " << v3 << " k " << k << " j " << j;
          ASSERT_NEAR(state(v3, k, j, i), run_2d[(static_cast<std::size_t>(v) * nz + k) * plane + j],
                      1e-12 * largest(run_2d, v, plane * nz))
              << to_string(name) << " var " << v << " k " << k << " j " << j;
        }
      }
}

INSTANTIATE_TEST_SUITE_P(Cases, UniformRunsTest,
                         ::testing::Values(CaseName::thermal, CaseName::collision, CaseName::gravity_waves,
                                           CaseName::density_current, CaseName::injection, CaseName::rest,
                                           CaseName::straka),
                         [](const auto& param_info) { return std::string(to_string(param_info.param)); });

/// thermal with its bubble off the centre in x and y, so that every direction carries flow.
RunSpec off_centre_thermal() {
  RunSpec spec = case_3d(CaseName::thermal, nx, 10);
  spec.perturbation.center = {9000.0, 3500.0, 2500.0};
  spec.perturbation.radii = {3000.0, 2500.0, 2000.0};
  return spec;
}

TEST(Simulation3dTest, EveryModeAndStepsPerGraphComputeTheSameStateBitForBit) {
  RunSpec spec = off_centre_thermal();
  spec.execution.steps_per_graph = 1;
  const std::vector<double> reference = testing::final_state(spec, Backend::host, ExecutionMode::eager_sync);
  for (const int k : {1, 3, 8})
    for (const ExecutionMode mode : {ExecutionMode::eager, ExecutionMode::graph}) {
      spec.execution.steps_per_graph = k;
      EXPECT_TRUE(bitwise_equal(testing::final_state(spec, Backend::host, mode), reference))
          << to_string(mode) << " K=" << k;
    }
}

/// The fused, fine and pass granularities against the stage granularity, in the cases whose stages
/// differ: walls and periodic sides (thermal), the inflow's ghost columns (injection), the wave
/// source (gravity_waves), viscosity in every direction (straka).
class GranularityRunsTest : public ::testing::TestWithParam<CaseName> {};
INSTANTIATE_TEST_SUITE_P(Cases, GranularityRunsTest,
                         ::testing::Values(CaseName::thermal, CaseName::injection, CaseName::gravity_waves,
                                           CaseName::straka),
                         [](const auto& param_info) { return std::string(to_string(param_info.param)); });

TEST_P(GranularityRunsTest, FusedFineAndPassComputeTheStageGranularitysStateBitForBit) {
  RunSpec spec = GetParam() == CaseName::thermal ? off_centre_thermal() : case_3d(GetParam(), nx, 6);
  const std::vector<double> reference = testing::final_state(spec, Backend::host, ExecutionMode::eager_sync);
  for (const Granularity granularity : {Granularity::fused, Granularity::fine, Granularity::pass})
    for (const ExecutionMode mode : {ExecutionMode::eager_sync, ExecutionMode::graph}) {
      spec.execution.granularity = granularity;
      spec.execution.steps_per_graph = 3;
      EXPECT_TRUE(bitwise_equal(testing::final_state(spec, Backend::host, mode), reference))
          << to_string(granularity) << " in " << to_string(mode);
    }
}

TEST(Simulation3dTest, ACentredBubbleStaysMirrorSymmetricInXAndY) {
  RunSpec spec = case_3d(CaseName::thermal, nx, 10);
  spec.perturbation.radii = {3000.0, 2500.0, 2000.0};  // centred: x = xlen/2, y = ylen/2
  const std::vector<double> run = testing::final_state(spec, Backend::host, ExecutionMode::graph);
  const State3d state{run, nx, 10, nz};
  double largest_momentum = 0.0;
  for (const double value : run) largest_momentum = std::max(largest_momentum, std::abs(value));
  for (int v = 0; v < V3::count; ++v)
    for (int k = 0; k < nz; ++k)
      for (int j = 0; j < 10; ++j)
        for (int i = 0; i < nx; ++i) {
          const double x_sign = v == V3::umom ? -1.0 : 1.0, y_sign = v == V3::vmom ? -1.0 : 1.0;
          ASSERT_NEAR(state(v, k, j, nx - 1 - i), x_sign * state(v, k, j, i), 1e-11 * largest_momentum)
              << "x mirror: var " << v << " k " << k << " j " << j << " i " << i;
          ASSERT_NEAR(state(v, k, 10 - 1 - j, i), y_sign * state(v, k, j, i), 1e-11 * largest_momentum)
              << "y mirror: var " << v << " k " << k << " j " << j << " i " << i;
        }
}

TEST(Simulation3dTest, MassIsConservedToRoundOffAndItsTotalIsTheVolumeSum) {
  const RunSpec spec = off_centre_thermal();
  testing::SerialSimulation simulation(spec, Backend::host, ExecutionMode::graph);
  const Diagnostics start = simulation->diagnostics();
  run_to_end(*simulation, 0, [](const ProgressReport&) {});
  const Diagnostics end = simulation->diagnostics();
  EXPECT_NEAR(end.mass, start.mass, 1e-13 * std::abs(start.mass));
  EXPECT_LT(std::abs(end.total_energy - start.total_energy), 1e-4 * std::abs(start.total_energy));

  // Uniform in y, the 3-D mass is the 2-D mass per metre of y times the depth.
  RunSpec uniform = case_3d(CaseName::thermal);
  uniform.perturbation.radii = {2000.0, INFINITY, 2000.0};
  testing::SerialSimulation run_3d(uniform, Backend::host, ExecutionMode::eager);
  testing::SerialSimulation run_2d(case_2d_of(uniform), Backend::host, ExecutionMode::eager);
  EXPECT_NEAR(run_3d->diagnostics().mass, run_2d->diagnostics().mass * uniform.grid.ylen,
              1e-13 * std::abs(run_3d->diagnostics().mass));
  EXPECT_NEAR(run_3d->diagnostics().total_energy, run_2d->diagnostics().total_energy * uniform.grid.ylen,
              1e-13 * std::abs(run_3d->diagnostics().total_energy));
}

TEST(Simulation3dTest, RestStaysExactlyAtRest) {
  const std::vector<double> run =
      testing::final_state(case_3d(CaseName::rest, nx, 6), Backend::host, ExecutionMode::graph);
  for (std::size_t n = 0; n < run.size(); ++n) ASSERT_EQ(run[n], 0.0) << "value " << n;
}

TEST(Simulation3dTest, TheHealthCheckNamesTheCellByIJK) {
  RunSpec spec = off_centre_thermal();
  spec.perturbation.amplitude = 1e6;  // a bubble no time step can carry
  spec.execution.check_every = 1;
  testing::SerialSimulation simulation(spec, Backend::host, ExecutionMode::graph);
  while (!simulation->finished() && !simulation->health_failure_seen()) simulation->advance_chunk(1);
  const std::optional<HealthFinding> failure = simulation->health_failure();
  ASSERT_TRUE(failure.has_value());
  EXPECT_GE(failure->where.j, 0);
  EXPECT_LT(failure->where.j, 10);
  EXPECT_LT(failure->where.i, nx);
  EXPECT_LT(failure->where.k, nz);
  EXPECT_NE(describe_cell(failure->where, 10).find("(i, j, k) = ("), std::string::npos);
}

}  // namespace
}  // namespace simapp
