/// Checks one Runge–Kutta stage's point functions (docs/model.md, "Spatial scheme" and "Time
/// stepping"): the factors a stage reads from StepParams<2>, the tendency −(F_high − F_low)/Δ with
/// the z pass's −ρ′g and the source S on ρw only, the wave source S = b ρ̄_c, and
/// q_out = q_init + dt_stage · R.
#include "kernels/update/stage_tendency.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace simapp {
namespace {

/// The 2-D model's R(v) at a cell (stage_tendency of its variables).
template <Direction D>
double tendency_2d(int v, double flux_low, double flux_high, double density_perturbation, double source,
                   const StageFactors<double>& factors) {
  return stage_tendency<D, ModelVariables<2>>(v, flux_low, flux_high, density_perturbation, source, factors);
}

/// dt = 6 s on cells of dx = 250 m, dz = 125 m, hyperviscosity β = 0.05: 1/dx = 0.004,
/// 1/dz = 0.008, stage dt = 2, 3, 6 s.
StepParams<2> six_second_step() {
  Dissipation dissipation;
  dissipation.hyperviscosity = 0.05;
  return step_params(6.0, 250.0, 125.0, dissipation);
}

TEST(StageTendencyTest, StepParamsGiveEachStageAThirdAHalfAndAllOfTheStep) {
  const StepParams<2> params = six_second_step();
  EXPECT_DOUBLE_EQ(params.dt, 6.0);
  EXPECT_DOUBLE_EQ(params.inv_dx, 0.004);
  EXPECT_DOUBLE_EQ(params.inv_dz, 0.008);
  EXPECT_EQ(params.stage[0].dt, 2.0);
  EXPECT_EQ(params.stage[1].dt, 3.0);
  EXPECT_EQ(params.stage[2].dt, 6.0);
  // K = −β Δ / (16 dt_stage) with β = 0.05: −12.5/32 = −0.390625 for x in stage 0, and so on.
  EXPECT_DOUBLE_EQ(params.stage[0].k_hyper_x, -0.05 * 250.0 / 32.0);
  EXPECT_DOUBLE_EQ(params.stage[0].k_hyper_z, -0.05 * 125.0 / 32.0);
  EXPECT_DOUBLE_EQ(params.stage[1].k_hyper_x, -0.05 * 250.0 / 48.0);
  EXPECT_DOUBLE_EQ(params.stage[2].k_hyper_z, -0.05 * 125.0 / 96.0);
}

TEST(StageTendencyTest, StageFactorsPickThePassSpacingAndTheStagesTimeStep) {
  const StepParams<2> params = six_second_step();
  FluxContext<2> context;
  context.params = &params;
  const double stage_dt[3] = {2.0, 3.0, 6.0};
  for (int stage = 0; stage < 3; ++stage) {
    context.stage = stage;
    const StageFactors<double> x = stage_factors<Direction::x, double>(context);
    const StageFactors<double> z = stage_factors<Direction::z, double>(context);
    EXPECT_DOUBLE_EQ(x.inv_spacing, 0.004) << "stage " << stage;
    EXPECT_DOUBLE_EQ(z.inv_spacing, 0.008) << "stage " << stage;
    EXPECT_EQ(x.dt, stage_dt[stage]) << "stage " << stage;
    EXPECT_EQ(z.dt, stage_dt[stage]) << "stage " << stage;
  }
}

// Every tendency below has F_low = 3, F_high = 5, 1/Δ = 0.5, so the flux part is
// −(5 − 3) · 0.5 = −1; ρ′ = 0.5 gives ρ′g = 4.9; S = 0.25.
constexpr StageFactors<double> factors{0.5, 2.0};
constexpr double flux_low = 3.0, flux_high = 5.0, density_perturbation = 0.5, source = 0.25;

TEST(StageTendencyTest, XPassTendencyIsMinusTheFluxDifferenceOverDx) {
  for (int v : {var::dens, var::umom, var::rhot})
    EXPECT_EQ(tendency_2d<Direction::x>(v, flux_low, flux_high, density_perturbation, source, factors), -1.0)
        << variable_names<2>[v];
  // ρw also gets S, but no gravity in the x pass.
  EXPECT_DOUBLE_EQ(tendency_2d<Direction::x>(var::wmom, flux_low, flux_high, density_perturbation, source, factors),
                   -1.0 + 0.25);
  // A flux that falls across the cell fills it.
  EXPECT_EQ(tendency_2d<Direction::x>(var::dens, flux_high, flux_low, density_perturbation, source, factors), 1.0);
}

TEST(StageTendencyTest, ZPassTendencyAddsBuoyancyAndSourceOnlyToVerticalMomentum) {
  for (int v : {var::dens, var::umom, var::rhot})
    EXPECT_EQ(tendency_2d<Direction::z>(v, flux_low, flux_high, density_perturbation, source, factors), -1.0)
        << variable_names<2>[v];
  // R(ρw) = −1 − ρ′g + S = −1 − 4.9 + 0.25.
  EXPECT_NEAR(tendency_2d<Direction::z>(var::wmom, flux_low, flux_high, density_perturbation, source, factors), -5.65,
              1e-14);
  // Denser than the background (ρ′ > 0) sinks; lighter rises.
  EXPECT_NEAR(tendency_2d<Direction::z>(var::wmom, 0.0, 0.0, -0.5, 0.0, factors), 4.9, 1e-14);
}

TEST(StageTendencyTest, InThreeDBuoyancyAndSourceGoToRhoWAndNotToRhoV) {
  using V3 = ModelVariables<3>;
  for (int v : {V3::dens, V3::umom, V3::vmom, V3::rhot})
    EXPECT_EQ((stage_tendency<Direction::z, V3>(v, flux_low, flux_high, density_perturbation, source, factors)), -1.0)
        << "variable " << v;
  // ρw is variable 3 in 3-D: R(ρw) = −1 − ρ′g + S, as ρw's of the 2-D model.
  EXPECT_EQ((stage_tendency<Direction::z, V3>(V3::wmom, flux_low, flux_high, density_perturbation, source, factors)),
            tendency_2d<Direction::z>(var::wmom, flux_low, flux_high, density_perturbation, source, factors));
  EXPECT_NEAR((stage_tendency<Direction::z, V3>(V3::wmom, flux_low, flux_high, density_perturbation, source, factors)),
              -5.65, 1e-14);
}

TEST(StageTendencyTest, StageUpdateAddsDtTimesTheTendency) {
  EXPECT_EQ(stage_update(2.0, -1.5, 4.0), -4.0);  // 2 + 4 · (−1.5)
  EXPECT_EQ(stage_update(2.0, 0.25, 2.0), 2.5);
  EXPECT_EQ(stage_update(-7.0, 0.0, 6.0), -7.0);
}

TEST(StageTendencyTest, GravityWaveForcingIsTheBumpAtTheCellCentreTimesItsBackgroundDensity) {
  std::vector<double> density_cell = {1.4, 1.3, 1.2, 1.1, 1.0, 0.9};  // rows −2 … 3
  FluxContext<2> context;
  context.geometry.dx = 100.0;
  context.geometry.dz = 50.0;
  context.geometry.i_offset = 2;
  context.geometry.k_offset = 3;
  context.background.density_cell = density_cell.data();
  // Cell (i = 1, k = 0) is centred at x = (2 + 1 + ½)·100 = 350 m, z = (3 + 0 + ½)·50 = 175 m,
  // and its background density is 1.2 (index k + halo = 2).
  const GravityWaveForcing<2> centred{{0.01, 350.0, 175.0, 500.0, 500.0}};
  EXPECT_NEAR(momentum_source<Direction::x>(1, 0, 0, context, centred), 0.01 * 1.2, 1e-15);
  // Half a radius away: cos²(π/4) = ½.
  const GravityWaveForcing<2> offset{{0.01, 600.0, 175.0, 500.0, 500.0}};
  EXPECT_NEAR(momentum_source<Direction::x>(1, 0, 0, context, offset), 0.005 * 1.2, 1e-15);
  // Row k = 1 (z = 225 m, ρ̄_c = 1.1), half a z radius from the centre of `offset_z`.
  const GravityWaveForcing<2> offset_z{{0.01, 350.0, 125.0, 500.0, 200.0}};
  EXPECT_NEAR(momentum_source<Direction::x>(1, 0, 1, context, offset_z), 0.005 * 1.1, 1e-15);
  // Beyond the radius, and without a source, S = 0.
  const GravityWaveForcing<2> far{{0.01, 5000.0, 175.0, 500.0, 500.0}};
  EXPECT_EQ(momentum_source<Direction::x>(1, 0, 0, context, far), 0.0);
  EXPECT_EQ(momentum_source<Direction::x>(1, 0, 0, context, GravityWaveForcing<2>{}), 0.0);
  // The y pass has none; the source terms' S is the forcing's.
  EXPECT_EQ(momentum_source<Direction::y>(1, 0, 0, context, centred), 0.0);
  EXPECT_NEAR(momentum_source<Direction::z>(1, 0, 0, context, SourceTerms<2>{centred}), 0.01 * 1.2, 1e-15);
  EXPECT_EQ(momentum_source<Direction::z>(1, 0, 0, context, SourceTerms<2>{}), 0.0);
}

}  // namespace
}  // namespace simapp
