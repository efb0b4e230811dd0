/// Checks the diffusive flux of a tracer at a face (kernels/flux/tracer_flux.hpp, docs/model.md,
/// "Diffusion") against values worked out by hand: F(ρ_x) −= κ ρ_f (φ_R − φ_L) / Δ with
/// φ = (ρ_x′ + ρ̄_x) / (ρ′ + ρ̄) and ρ_f = q_f(ρ′) + ρ̄ at the face (x faces: the row's cell
/// background; z faces: the interface's), κ the diffusivity and not the viscosity, and none at
/// a wall or without a diffusivity.
#include "kernels/flux/tracer_flux.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace simapp {
namespace {

constexpr double viscosity = 700.0;    // m² s⁻¹: would show if it were taken instead of κ
constexpr double diffusivity = 300.0;  // m² s⁻¹
constexpr double dx = 100.0, dz = 50.0;

/// A rank of 4 rows whose background density differs on every row and face.
struct TracerFluxFixture {
  static constexpr int nz = 4;
  std::vector<double> density_cell = {1.30, 1.25, 1.20, 1.15, 1.10, 1.05, 1.00, 0.95};  // rows −2 … 5
  std::vector<double> density_face = {1.22, 1.17, 1.12, 1.07, 1.02};                    // faces 0 … 4
  StepParams<2> params = step_params(1.0, dx, dz, Dissipation{viscosity, 0.05, diffusivity});

  FluxContext<2> context() const {
    FluxContext<2> c;
    c.geometry = CellGeometry<2>{dx, dz, 8 * dx, nz * dz, 8, nz, 0, 0};
    c.background.density_cell = density_cell.data();
    c.background.density_face = density_face.data();
    c.params = &params;
    return c;
  }
};

TEST(TracerFluxTest, DiffusionFactorIsKappaTimesTheFaceDensityOverTheSpacing) {
  const TracerFluxFixture fixture;
  const FluxContext<2> context = fixture.context();
  // x face of row 1: ρ_f = 0.1 + ρ̄_c(1) = 0.1 + 1.15; κ / dx = 3.
  EXPECT_DOUBLE_EQ(tracer_diffusion_factor<Direction::x>(0.1, 1, context), 3.0 * 1.25);
  // z face 2: ρ_f = 0.1 + ρ̄_i(2) = 0.1 + 1.12; κ / dz = 6.
  EXPECT_DOUBLE_EQ(tracer_diffusion_factor<Direction::z>(0.1, 2, context), 6.0 * 1.22);
  // The walls: the bottom (face 0) and the top (face nz) of a single rank's column.
  EXPECT_EQ(tracer_diffusion_factor<Direction::z>(0.1, 0, context), 0.0);
  EXPECT_EQ(tracer_diffusion_factor<Direction::z>(0.1, TracerFluxFixture::nz, context), 0.0);
}

TEST(TracerFluxTest, DiffusiveFluxIsMinusTheFactorTimesTheMixingRatiosDifference) {
  // φ_L = (0.002 + 0.010) / 1.2 = 0.01, φ_R = (0.004 + 0.011) / 1.25 = 0.012: −3.75 · 0.002 (the
  // background's mixing ratio 0.010 / 1.0 = 0.011 / 1.1 alike in both).
  const TracerInCell low{0.002, 0.010, 1.0 / 1.2, 1.0};
  const TracerInCell high{0.004, 0.011, 1.0 / 1.25, 1.1};
  EXPECT_NEAR(tracer_diffusive_flux(3.75, low, high), -0.0075, 1e-17);
  EXPECT_NEAR(tracer_diffusive_flux(3.75, high, low), 0.0075, 1e-17) << "down the gradient either way";
  EXPECT_EQ(tracer_diffusive_flux(3.75, low, low), 0.0) << "a uniform mixing ratio does not diffuse";
  EXPECT_EQ(tracer_diffusive_flux(0.0, low, high), 0.0) << "a wall";
}

/// The background's own profile does not diffuse: cells at rest on a background whose mixing ratio
/// falls from 0.010 to 0.0075 have no flux, and a departure diffuses down its own gradient.
TEST(TracerFluxTest, TheBackgroundsProfileDoesNotDiffuse) {
  const TracerInCell low{0.0, 0.010, 1.0 / 1.0, 1.0};
  const TracerInCell high{0.0, 0.006, 1.0 / 0.8, 0.8};
  EXPECT_NEAR(tracer_diffusive_flux(3.75, low, high), 0.0, 1e-18);
  const TracerInCell moister{0.0008, 0.006, 1.0 / 0.8, 0.8};  // φ − φ̄ = 0.0008 / 0.8 = 0.001
  EXPECT_NEAR(tracer_diffusive_flux(3.75, low, moister), -3.75 * 0.001, 1e-17);
}

TEST(TracerFluxTest, NoDiffusivityGivesNoFactor) {
  TracerFluxFixture fixture;
  fixture.params = step_params(1.0, dx, dz, Dissipation{viscosity, 0.05, 0.0});
  const FluxContext<2> context = fixture.context();
  EXPECT_EQ(tracer_diffusion_factor<Direction::x>(0.1, 1, context), 0.0);
  EXPECT_EQ(tracer_diffusion_factor<Direction::z>(0.1, 2, context), 0.0);
}

}  // namespace
}  // namespace simapp
