/// Checks the face fluxes of both models (F, (G,) H of docs/model.md, "Spatial scheme" and "3-D")
/// against values worked out by hand for one face state (the same in 3-D, with ρv = 6 beside it:
/// the fluxes of ρ′, ρu, ρw and (ρθ)′ do not depend on v), the z wall faces (no mass flux,
/// pressure perturbation from the interface background), and how flux_at_face picks backgrounds,
/// K and the walls; in 3-D also the 2-D fluxes of the same state with ρv dropped, the x face with
/// u and v exchanged for the y face, the momentum ρv carries, and the diffusive fluxes.
#include "kernels/flux/face_flux.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "kernels/flux/diffusive_flux.hpp"
#include "tests/support/dimensions.hpp"

namespace simapp {
namespace {

/// The face state of every test: ρ′ = 0.2 over ρ̄ = 1.0 gives ρ = 1.2; ρu = 12 → u = 10;
/// (3-D: ρv = 6 → v = 5;) ρw = −3 → w = −2.5; (ρθ)′ = 3 over ρ̄θ̄ = 345 gives ρθ = 348 → θ = 290.
template <int Dims>
struct FaceState;
template <>
struct FaceState<2> {
  static constexpr double q[var::count] = {0.2, 12.0, -3.0, 3.0};
  /// Third differences and K = −0.5, so −K d3 = (0.2, −1.0, 0.5, 4.0).
  static constexpr double d3[var::count] = {0.4, -2.0, 1.0, 8.0};
};
template <>
struct FaceState<3> {
  static constexpr double q[ModelVariables<3>::count] = {0.2, 12.0, 6.0, -3.0, 3.0};
  /// −K d3 = (0.2, −1.0, 0.35, 0.5, 4.0).
  static constexpr double d3[ModelVariables<3>::count] = {0.4, -2.0, 0.7, 1.0, 8.0};
};
constexpr const double (&face_q)[var::count] = FaceState<2>::q;
constexpr const double (&face_d3)[var::count] = FaceState<2>::d3;
constexpr double k_hyper = -0.5;
constexpr double background_density = 1.0;
constexpr double background_rho_theta = 345.0;

/// p = C₀ (ρθ)^γ with the library pow (the code uses a series near the background, or exp and log).
double reference_pressure(double rho_theta) { return physics::c0 * std::pow(rho_theta, physics::gamma); }

/// The background at ρ̄θ̄ as the code reads it: ρ̄θ̄, 1/ρ̄θ̄, C₀(ρ̄θ̄)^γ.
physics::PressureReference reference_at(double rho_theta) {
  return {rho_theta, 1.0 / rho_theta, reference_pressure(rho_theta)};
}

/// A tolerance relative to the size of the terms that make up an expected value.
double tolerance(double scale) { return 1e-13 * std::abs(scale); }

template <class Dims>
class FaceFluxByDimensionTest : public ::testing::Test {
 protected:
  static constexpr int dims = Dims::value;
  using V = ModelVariables<dims>;
  static constexpr const double (&face)[V::count] = FaceState<dims>::q;
  static constexpr const double (&face_differences)[V::count] = FaceState<dims>::d3;
};
TYPED_TEST_SUITE(FaceFluxByDimensionTest, testing::Dimensions, testing::DimensionName);

TYPED_TEST(FaceFluxByDimensionTest, XFaceFluxMatchesHandComputedValues) {
  using Vars = typename TestFixture::V;
  const double p = reference_pressure(348.0);
  const double row_pressure = reference_pressure(background_rho_theta);
  double flux[Vars::count];
  horizontal_face_flux<Vars, Vars::umom>(TestFixture::face, TestFixture::face_differences, background_density,
                                         reference_at(background_rho_theta), k_hyper, flux);
  // F = (m, m u + p − p̄_c, (m v,) m w, m θ) − K d3 with m = 12, u = 10, (v = 5,) w = −2.5, θ = 290
  // (the row's p̄_c cancels from the divergence, so the flux leaves it out):
  EXPECT_NEAR(flux[Vars::dens], 12.0 + 0.2, tolerance(12.2));
  EXPECT_NEAR(flux[Vars::umom], 120.0 + (p - row_pressure) - 1.0, tolerance(p));
  EXPECT_NEAR(flux[Vars::wmom], -30.0 + 0.5, tolerance(30.0));
  EXPECT_NEAR(flux[Vars::rhot], 3480.0 + 4.0, tolerance(3484.0));
  if constexpr (TestFixture::dims == 3) {
    EXPECT_NEAR(flux[Vars::vmom], 60.0 + 0.35, 1e-13 * 60.0);  // 12 · 5 + 0.5 · 0.7
  }
}

TYPED_TEST(FaceFluxByDimensionTest, InteriorZFaceFluxMatchesHandComputedValues) {
  using Vars = typename TestFixture::V;
  const double p = reference_pressure(348.0);
  const double background_pressure = reference_pressure(background_rho_theta);
  double flux[Vars::count];
  vertical_face_flux<Vars>(TestFixture::face, TestFixture::face_differences, background_density,
                           reference_at(background_rho_theta), false, k_hyper, flux);
  // H = (n, n u, (n v,) n w + p − p̄_i, n θ) − K d3 with n = −3, u = 10, (v = 5,) w = −2.5, θ = 290:
  EXPECT_NEAR(flux[Vars::dens], -3.0 + 0.2, tolerance(3.0));
  EXPECT_NEAR(flux[Vars::umom], -30.0 - 1.0, tolerance(31.0));
  EXPECT_NEAR(flux[Vars::wmom], 7.5 + (p - background_pressure) + 0.5, tolerance(p));
  EXPECT_NEAR(flux[Vars::rhot], -870.0 + 4.0, tolerance(870.0));
  if constexpr (TestFixture::dims == 3) {
    EXPECT_NEAR(flux[Vars::vmom], -15.0 + 0.35, 1e-13 * 15.0);
  }
}

TYPED_TEST(FaceFluxByDimensionTest, ZWallFaceCarriesNoMassAndOnlyThePressurePerturbation) {
  using Vars = typename TestFixture::V;
  const double p = reference_pressure(348.0);
  const double background_pressure = reference_pressure(background_rho_theta);
  double flux[Vars::count];
  vertical_face_flux<Vars>(TestFixture::face, TestFixture::face_differences, background_density,
                           reference_at(background_rho_theta), true, k_hyper, flux);
  // n = 0 and the density's K d3 is dropped: nothing crosses the wall. The other variables
  // keep their hyperviscosity, and ρw's flux is the pressure perturbation p − p̄_i.
  EXPECT_EQ(flux[Vars::dens], 0.0);
  EXPECT_NEAR(flux[Vars::umom], -1.0, tolerance(1.0));
  EXPECT_NEAR(flux[Vars::wmom], (p - background_pressure) + 0.5, tolerance(p));
  EXPECT_NEAR(flux[Vars::rhot], 4.0, tolerance(4.0));
  if constexpr (TestFixture::dims == 3) {
    EXPECT_NEAR(flux[Vars::vmom], 0.35, 1e-13 * 15.0);
  }
}

TYPED_TEST(FaceFluxByDimensionTest, ZWallPressurePerturbationVanishesOverItsOwnBackground) {
  using Vars = typename TestFixture::V;
  // At rest on the background (ρ′ = 0, (ρθ)′ = 0, p̄_i = C₀(ρ̄θ̄_i)^γ, no d3), a wall face has
  // no flux at all: exactly, the pressure perturbation coming from (ρθ)′ itself.
  const double q[Vars::count] = {};
  const double d3[Vars::count] = {};
  double flux[Vars::count];
  vertical_face_flux<Vars>(q, d3, background_density, reference_at(background_rho_theta), true, k_hyper, flux);
  for (int v = 0; v < Vars::count; ++v) EXPECT_EQ(flux[v], 0.0) << v;
}

/// F of x faces, written out from docs/model.md with ρ·u etc. rather than the code's reciprocal.
void reference_x_flux(const double q[var::count], const double d3[var::count], double rho_bar, double rho_theta_bar,
                      double k, double out[var::count]) {
  const double rho = q[var::dens] + rho_bar;
  const double rho_theta = q[var::rhot] + rho_theta_bar;
  const double m = q[var::umom];
  out[var::dens] = m - k * d3[var::dens];
  out[var::umom] =
      m * m / rho + (reference_pressure(rho_theta) - reference_pressure(rho_theta_bar)) - k * d3[var::umom];
  out[var::wmom] = m * q[var::wmom] / rho - k * d3[var::wmom];
  out[var::rhot] = m * rho_theta / rho - k * d3[var::rhot];
}

/// H of z faces, likewise; a wall face has n = 0 and no density hyperviscosity.
void reference_z_flux(const double q[var::count], const double d3[var::count], double rho_bar, double rho_theta_bar,
                      double p_bar, bool wall, double k, double out[var::count]) {
  const double rho = q[var::dens] + rho_bar;
  const double rho_theta = q[var::rhot] + rho_theta_bar;
  const double n = wall ? 0.0 : q[var::wmom];
  out[var::dens] = wall ? 0.0 : n - k * d3[var::dens];
  out[var::umom] = n * q[var::umom] / rho - k * d3[var::umom];
  out[var::wmom] = n * n / rho + reference_pressure(rho_theta) - p_bar - k * d3[var::wmom];
  out[var::rhot] = n * rho_theta / rho - k * d3[var::rhot];
}

/// A rank of 4 rows whose background differs on every row and face, so that a wrong index shows.
struct FluxFixture {
  static constexpr int nz = 4;
  std::vector<double> density_cell = {1.30, 1.25, 1.20, 1.15, 1.10, 1.05, 1.00, 0.95};  // rows −2 … 5
  std::vector<double> rho_theta_cell = {390.0, 380.0, 370.0, 360.0, 350.0, 340.0, 330.0, 320.0};
  std::vector<double> density_face = {1.22, 1.17, 1.12, 1.07, 1.02};  // faces 0 … 4
  std::vector<double> rho_theta_face = {366.0, 355.0, 344.0, 333.0, 322.0};
  std::vector<double> pressure_face, inv_rho_theta_cell, pressure_cell, inv_rho_theta_face;
  StepParams<2> params;

  FluxFixture() {
    for (double rho_theta : rho_theta_cell) {
      inv_rho_theta_cell.push_back(1.0 / rho_theta);
      pressure_cell.push_back(reference_pressure(rho_theta));
    }
    for (double rho_theta : rho_theta_face) {
      inv_rho_theta_face.push_back(1.0 / rho_theta);
      pressure_face.push_back(reference_pressure(rho_theta));
    }
    // Stage 1 is the one used; the others have K that would show if picked instead.
    params.stage[0] = {1.0, -100.0, -200.0};
    params.stage[1] = {2.0, -0.5, -0.25};
    params.stage[2] = {3.0, -300.0, -400.0};
  }

  FluxContext<2> context(int k_offset, int global_nz) const {
    FluxContext<2> c;
    c.geometry.dx = 100.0;
    c.geometry.dz = 50.0;
    c.geometry.global_nx = 8;
    c.geometry.global_nz = global_nz;
    c.geometry.k_offset = k_offset;
    c.background.density_cell = density_cell.data();
    c.background.rho_theta_cell = rho_theta_cell.data();
    c.background.density_face = density_face.data();
    c.background.rho_theta_face = rho_theta_face.data();
    c.background.pressure_face = pressure_face.data();
    c.background.inv_rho_theta_cell = inv_rho_theta_cell.data();
    c.background.pressure_cell = pressure_cell.data();
    c.background.inv_rho_theta_face = inv_rho_theta_face.data();
    c.params = &params;
    c.stage = 1;
    return c;
  }
};

void expect_fluxes_near(const double actual[var::count], const double expected[var::count], double scale) {
  for (int v = 0; v < var::count; ++v) EXPECT_NEAR(actual[v], expected[v], tolerance(scale)) << variable_names<2>[v];
}

TEST(FaceFluxTest, FluxAtXFaceUsesTheRowsCellBackgroundAndTheStagesXHyperviscosity) {
  const FluxFixture fixture;
  const FluxContext<2> context = fixture.context(0, FluxFixture::nz);
  for (int k = 0; k < FluxFixture::nz; ++k) {
    double flux[var::count], expected[var::count];
    flux_at_face<Direction::x>(face_q, face_d3, k, context, flux);
    // Row k's background sits at index k + halo (2) of the cell arrays; K_x of stage 1 is −0.5.
    reference_x_flux(face_q, face_d3, fixture.density_cell[k + 2], fixture.rho_theta_cell[k + 2], -0.5, expected);
    SCOPED_TRACE(k);
    expect_fluxes_near(flux, expected, 1.0e5);
  }
}

TEST(FaceFluxTest, FluxAtZFaceIsAWallAtBothEndsOfASingleRankColumn) {
  const FluxFixture fixture;
  const FluxContext<2> context = fixture.context(0, FluxFixture::nz);
  for (int k = 0; k <= FluxFixture::nz; ++k) {
    const bool wall = k == 0 || k == FluxFixture::nz;
    double flux[var::count], expected[var::count];
    flux_at_face<Direction::z>(face_q, face_d3, k, context, flux);
    // Face k's background is at index k of the face arrays; K_z of stage 1 is −0.25.
    reference_z_flux(face_q, face_d3, fixture.density_face[k], fixture.rho_theta_face[k], fixture.pressure_face[k],
                     wall, -0.25, expected);
    SCOPED_TRACE(k);
    expect_fluxes_near(flux, expected, 1.0e5);
    if (wall) {
      EXPECT_EQ(flux[var::dens], 0.0);
    } else {
      EXPECT_NE(flux[var::dens], 0.0);
    }
  }
}

TEST(FaceFluxTest, FluxAtZFaceFindsTheWallsFromTheGlobalFaceIndex) {
  const FluxFixture fixture;
  double flux[var::count];
  // The lower of two ranks (global faces 0 … 4 of 8): its bottom face is a wall, its top is not.
  const FluxContext<2> lower = fixture.context(0, 2 * FluxFixture::nz);
  flux_at_face<Direction::z>(face_q, face_d3, 0, lower, flux);
  EXPECT_EQ(flux[var::dens], 0.0);
  flux_at_face<Direction::z>(face_q, face_d3, FluxFixture::nz, lower, flux);
  EXPECT_NEAR(flux[var::dens], -3.0 + 0.25 * 0.4, tolerance(3.0));  // n − K_z d3
  // The upper rank (global faces 4 … 8): its bottom face is interior, its top is the wall.
  const FluxContext<2> upper = fixture.context(FluxFixture::nz, 2 * FluxFixture::nz);
  flux_at_face<Direction::z>(face_q, face_d3, 0, upper, flux);
  EXPECT_NEAR(flux[var::dens], -3.0 + 0.25 * 0.4, tolerance(3.0));
  flux_at_face<Direction::z>(face_q, face_d3, FluxFixture::nz, upper, flux);
  EXPECT_EQ(flux[var::dens], 0.0);
  double expected[var::count];
  reference_z_flux(face_q, face_d3, fixture.density_face[4], fixture.rho_theta_face[4], fixture.pressure_face[4], true,
                   -0.25, expected);
  expect_fluxes_near(flux, expected, 1.0e5);
}

TEST(FaceFluxTest, DiffusionTakesTheViscosityForTheVelocitiesAndTheDiffusivityForTheta) {
  FluxFixture fixture;
  // ν / dx = 2, κ / dx = 5; ν / dz = 4, κ / dz = 10 (m s⁻¹).
  fixture.params.viscosity_x = 2.0;
  fixture.params.diffusivity_x = 5.0;
  fixture.params.viscosity_z = 4.0;
  fixture.params.diffusivity_z = 10.0;
  const FluxContext<2> context = fixture.context(0, FluxFixture::nz);
  const double low[var::count] = {0.1, 11.0, -2.0, 1.0};
  const double high[var::count] = {0.3, 13.0, -4.0, 5.0};
  const double start[var::count] = {1.0, 2.0, 3.0, 4.0};

  // x face of row 1: both cells have row 1's background ρ̄ = 1.15, ρ̄θ̄ = 360; ρ_f = 0.2 + 1.15.
  double x_flux[var::count] = {1.0, 2.0, 3.0, 4.0};
  add_diffusive_flux<Direction::x>(low, high, 0.2, 1, ColumnIndex{}, context, x_flux);
  EXPECT_EQ(x_flux[var::dens], start[var::dens]) << "no mass diffuses";
  EXPECT_NEAR(x_flux[var::umom], 2.0 - 2.0 * 1.35 * (13.0 / 1.45 - 11.0 / 1.25), 1e-13);
  EXPECT_NEAR(x_flux[var::wmom], 3.0 - 2.0 * 1.35 * (-4.0 / 1.45 + 2.0 / 1.25), 1e-13);
  EXPECT_NEAR(x_flux[var::rhot], 4.0 - 5.0 * 1.35 * (365.0 / 1.45 - 361.0 / 1.25), 1e-12);

  // z face 2: the cells of rows 1 (ρ̄ = 1.15, ρ̄θ̄ = 360) and 2 (1.10, 350); ρ_f = 0.2 + ρ̄_i(2) = 0.2 + 1.12.
  double z_flux[var::count] = {1.0, 2.0, 3.0, 4.0};
  add_diffusive_flux<Direction::z>(low, high, 0.2, 2, ColumnIndex{}, context, z_flux);
  EXPECT_EQ(z_flux[var::dens], start[var::dens]) << "no mass diffuses";
  EXPECT_NEAR(z_flux[var::umom], 2.0 - 4.0 * 1.32 * (13.0 / 1.40 - 11.0 / 1.25), 1e-13);
  EXPECT_NEAR(z_flux[var::wmom], 3.0 - 4.0 * 1.32 * (-4.0 / 1.40 + 2.0 / 1.25), 1e-13);
  // θ diffuses as its departure from the background's θ̄ = ρ̄θ̄/ρ̄ of each row: the background's own
  // gradient 350 / 1.10 − 360 / 1.15 does not.
  EXPECT_NEAR(z_flux[var::rhot], 4.0 - 10.0 * 1.32 * ((355.0 / 1.40 - 361.0 / 1.25) - (350.0 / 1.10 - 360.0 / 1.15)),
              1e-12);

  // With the viscosity alone θ does not diffuse; with the diffusivity alone the velocities do not.
  fixture.params.diffusivity_x = 0.0;
  double viscous[var::count] = {1.0, 2.0, 3.0, 4.0};
  add_diffusive_flux<Direction::x>(low, high, 0.2, 1, ColumnIndex{}, fixture.context(0, FluxFixture::nz), viscous);
  EXPECT_EQ(viscous[var::umom], x_flux[var::umom]);
  EXPECT_EQ(viscous[var::rhot], start[var::rhot]);
  fixture.params.viscosity_x = 0.0;
  fixture.params.diffusivity_x = 5.0;
  double diffusive[var::count] = {1.0, 2.0, 3.0, 4.0};
  add_diffusive_flux<Direction::x>(low, high, 0.2, 1, ColumnIndex{}, fixture.context(0, FluxFixture::nz), diffusive);
  EXPECT_EQ(diffusive[var::umom], start[var::umom]);
  EXPECT_EQ(diffusive[var::wmom], start[var::wmom]);
  EXPECT_EQ(diffusive[var::rhot], x_flux[var::rhot]);
}

TEST(FaceFluxTest, WithTheInitialStateAsReferenceThetaDiffusesAlongZAsItsDepartureFromIt) {
  FluxFixture fixture;
  fixture.params.diffusivity_x = 5.0;
  fixture.params.diffusivity_z = 10.0;
  FluxContext<2> context = fixture.context(0, FluxFixture::nz);
  const double low[var::count] = {0.1, 11.0, -2.0, 1.0};   // a cell of row 1: θ = 361 / 1.25
  const double high[var::count] = {0.3, 13.0, -4.0, 5.0};  // a cell of row 2: θ = 355 / 1.40
  // θ₀ − θ̄ of three columns and the rows 0 … 3; column 2's rows 1 and 2 are these cells' θ − θ̄ (the
  // initial state itself), the other columns' are not.
  constexpr int columns = 3;
  double initial[FluxFixture::nz * columns] = {};
  for (double& departure : initial) departure = 7.0;
  initial[1 * columns + 2] = 361.0 / 1.25 - 360.0 / 1.15;
  initial[2 * columns + 2] = 355.0 / 1.40 - 350.0 / 1.10;
  context.background.initial_theta_departure = initial;
  context.background.columns_x = columns;
  context.background.columns_y = 1;

  // Along z in column 2 the cells are the initial state: θ does not diffuse.
  double at_rest[var::count] = {1.0, 2.0, 3.0, 4.0};
  add_diffusive_flux<Direction::z>(low, high, 0.2, 2, ColumnIndex{2, 0}, context, at_rest);
  EXPECT_NEAR(at_rest[var::rhot], 4.0, 1e-12);
  // In column 0 the reference is θ̄ + 7 in both rows: the departure from θ̄ diffuses.
  double departed[var::count] = {1.0, 2.0, 3.0, 4.0};
  add_diffusive_flux<Direction::z>(low, high, 0.2, 2, ColumnIndex{0, 0}, context, departed);
  EXPECT_NEAR(departed[var::rhot], 4.0 - 10.0 * 1.32 * ((355.0 / 1.40 - 361.0 / 1.25) - (350.0 / 1.10 - 360.0 / 1.15)),
              1e-12);
  // Along x the reference is the background (a row's θ̄ on both sides): the initial state diffuses.
  double along_x[var::count] = {1.0, 2.0, 3.0, 4.0};
  add_diffusive_flux<Direction::x>(low, high, 0.2, 1, ColumnIndex{2, 0}, context, along_x);
  EXPECT_NEAR(along_x[var::rhot], 4.0 - 5.0 * 1.35 * (365.0 / 1.45 - 361.0 / 1.25), 1e-12);
}

TEST(FaceFluxTest, StepValuesGiveTheDiffusivityOverTheSpacingWhichIsTheViscosityUnlessGiven) {
  const StepParams<3> given = step_params(1.0, 100.0, 40.0, 50.0, Dissipation{500.0, 0.05, 1500.0});
  EXPECT_EQ(given.viscosity_x, 5.0);
  EXPECT_EQ(given.diffusivity_x, 15.0);
  EXPECT_EQ(given.viscosity_y, 12.5);
  EXPECT_EQ(given.diffusivity_y, 37.5);
  EXPECT_EQ(given.viscosity_z, 10.0);
  EXPECT_EQ(given.diffusivity_z, 30.0);
  const StepParams<2> same = step_params(1.0, 100.0, 50.0, Dissipation{75.0});
  EXPECT_EQ(same.diffusivity_x, same.viscosity_x);
  EXPECT_EQ(same.diffusivity_z, same.viscosity_z);
}

// ---- 3-D: the 2-D fluxes of the same face, the y face, ρv ----

using V3 = ModelVariables<3>;
constexpr const double (&face_q3)[V3::count] = FaceState<3>::q;
constexpr const double (&face_d3_3)[V3::count] = FaceState<3>::d3;

/// The 2-D state of the same face: ρv dropped.
void without_v(const double q3[V3::count], double q2[var::count]) {
  q2[var::dens] = q3[V3::dens];
  q2[var::umom] = q3[V3::umom];
  q2[var::wmom] = q3[V3::wmom];
  q2[var::rhot] = q3[V3::rhot];
}

/// The state with ρu and ρv exchanged.
void exchange_u_and_v(const double q[V3::count], double out[V3::count]) {
  for (int v = 0; v < V3::count; ++v) out[v] = q[v];
  out[V3::umom] = q[V3::vmom];
  out[V3::vmom] = q[V3::umom];
}

TEST(FaceFlux3dTest, VariablesAreNumberedAsTheModelSays) {
  EXPECT_EQ(V3::count, 5);
  EXPECT_EQ(V3::momentum(0), V3::umom);
  EXPECT_EQ(V3::momentum(1), V3::vmom);
  EXPECT_EQ(V3::momentum(2), V3::wmom);
  int visited[V3::count] = {};
  for_each_momentum<V3>([&](auto j) { ++visited[decltype(j)::value]; });
  EXPECT_EQ(visited[V3::dens] + visited[V3::rhot], 0);
  EXPECT_EQ(visited[V3::umom] + visited[V3::vmom] + visited[V3::wmom], 3);
}

TEST(FaceFlux3dTest, XFaceCarriesTheTwoDFluxesAndRhoVAsMTimesV) {
  double flux3[V3::count], flux2[var::count], q2[var::count], d2[var::count];
  horizontal_face_flux<V3, V3::umom>(face_q3, face_d3_3, background_density, reference_at(background_rho_theta),
                                     k_hyper, flux3);
  without_v(face_q3, q2);
  without_v(face_d3_3, d2);
  horizontal_face_flux<ModelVariables<2>, var::umom>(q2, d2, background_density, reference_at(background_rho_theta),
                                                     k_hyper, flux2);
  EXPECT_EQ(flux3[V3::dens], flux2[var::dens]);
  EXPECT_EQ(flux3[V3::umom], flux2[var::umom]);
  EXPECT_EQ(flux3[V3::wmom], flux2[var::wmom]);
  EXPECT_EQ(flux3[V3::rhot], flux2[var::rhot]);
  // F(ρv) = m v − K d3 = 12 · 5 + 0.5 · 0.7.
  EXPECT_NEAR(flux3[V3::vmom], 60.0 + 0.35, 1e-13 * 60.0);
}

TEST(FaceFlux3dTest, YFaceIsTheXFaceWithUAndVExchanged) {
  double y_flux[V3::count], x_flux[V3::count], q[V3::count], d3[V3::count];
  horizontal_face_flux<V3, V3::vmom>(face_q3, face_d3_3, background_density, reference_at(background_rho_theta),
                                     k_hyper, y_flux);
  exchange_u_and_v(face_q3, q);
  exchange_u_and_v(face_d3_3, d3);
  horizontal_face_flux<V3, V3::umom>(q, d3, background_density, reference_at(background_rho_theta), k_hyper, x_flux);
  double expected[V3::count];
  exchange_u_and_v(x_flux, expected);
  for (int v = 0; v < V3::count; ++v) EXPECT_EQ(y_flux[v], expected[v]) << "variable " << v;
  // G(ρ′) = ρv − K d3: 6 + 0.2; G(ρu) = m u with m = ρv = 6: 60 + 1.0 · −1.
  EXPECT_NEAR(y_flux[V3::dens], 6.2, 1e-13 * 6.2);
  EXPECT_NEAR(y_flux[V3::umom], 60.0 - 1.0, 1e-13 * 60.0);
}

TEST(FaceFlux3dTest, ZFaceCarriesTheTwoDFluxesAndRhoVAsNTimesV) {
  for (const bool at_wall : {false, true}) {
    double flux3[V3::count], flux2[var::count], q2[var::count], d2[var::count];
    vertical_face_flux<V3>(face_q3, face_d3_3, background_density, reference_at(background_rho_theta), at_wall, k_hyper,
                           flux3);
    without_v(face_q3, q2);
    without_v(face_d3_3, d2);
    vertical_face_flux<ModelVariables<2>>(q2, d2, background_density, reference_at(background_rho_theta), at_wall,
                                          k_hyper, flux2);
    EXPECT_EQ(flux3[V3::dens], flux2[var::dens]) << at_wall;
    EXPECT_EQ(flux3[V3::umom], flux2[var::umom]) << at_wall;
    EXPECT_EQ(flux3[V3::wmom], flux2[var::wmom]) << at_wall;
    EXPECT_EQ(flux3[V3::rhot], flux2[var::rhot]) << at_wall;
    // H(ρv) = n v − K d3 with n = −3, v = 5 inside; n = 0 at a wall: only the hyperviscosity.
    const double expected = (at_wall ? 0.0 : -15.0) + 0.35;
    EXPECT_NEAR(flux3[V3::vmom], expected, 1e-13 * 15.0) << at_wall;
  }
  double wall[V3::count];
  vertical_face_flux<V3>(face_q3, face_d3_3, background_density, reference_at(background_rho_theta), true, k_hyper,
                         wall);
  EXPECT_EQ(wall[V3::dens], 0.0);  // no mass through a wall
}

TEST(FaceFlux3dTest, DiffusionOfVIsThatOfUAndLeavesTheOtherVariablesAsInTwoD) {
  // Cells either side of a face: u, v, w and θ all differ, so every term is exercised.
  const double low[V3::count] = {0.1, 11.0, 4.0, -2.0, 1.0};
  const double high[V3::count] = {0.3, 13.0, 7.0, -4.0, 5.0};
  const FaceNeighbourBackground background{1.1, 1.0, 350.0, 340.0};
  const double c = 0.25;
  double flux3[V3::count] = {1.0, 2.0, 3.0, 4.0, 5.0};
  add_face_diffusion<V3>(low, high, background, c, c, flux3);

  double low2[var::count], high2[var::count];
  without_v(low, low2);
  without_v(high, high2);
  double flux2[var::count] = {1.0, 2.0, 4.0, 5.0};
  add_face_diffusion<ModelVariables<2>>(low2, high2, background, c, c, flux2);
  EXPECT_EQ(flux3[V3::dens], 1.0);  // no mass diffuses
  EXPECT_EQ(flux3[V3::umom], flux2[var::umom]);
  EXPECT_EQ(flux3[V3::wmom], flux2[var::wmom]);
  EXPECT_EQ(flux3[V3::rhot], flux2[var::rhot]);
  // F(ρv) −= c (v_R − v_L): v_L = 4 / 1.2, v_R = 7 / 1.3.
  EXPECT_NEAR(flux3[V3::vmom], 3.0 - c * (7.0 / 1.3 - 4.0 / 1.2), 1e-14);
}

/// The velocities diffuse as their departure from the background wind (a sounding's ū, v̄ of the
/// face's two rows; w̄ = 0): a sheared wind at rest on its background has no diffusive flux.
TEST(FaceFlux3dTest, VelocitiesDiffuseAsTheirDepartureFromTheBackgroundWind) {
  FaceNeighbourBackground background{1.2, 1.0, 350.0, 300.0};
  background.u_low = 5.0, background.u_high = 8.0, background.v_low = -1.0, background.v_high = 2.0;
  // Cells carrying the background wind exactly (ρ′ = 0, ρ = ρ̄): ρu = ρ̄ū, ρv = ρ̄v̄; and θ̄ itself.
  const double low[V3::count] = {0.0, 1.2 * 5.0, 1.2 * -1.0, 0.0, 0.0};
  const double high[V3::count] = {0.0, 1.0 * 8.0, 1.0 * 2.0, 0.0, 0.0};
  double flux[V3::count] = {1.0, 2.0, 3.0, 4.0, 5.0};
  add_face_diffusion<V3>(low, high, background, 0.25, 0.5, flux);
  EXPECT_NEAR(flux[V3::umom], 2.0, 1e-15);
  EXPECT_NEAR(flux[V3::vmom], 3.0, 1e-15);
  EXPECT_EQ(flux[V3::wmom], 4.0);
  EXPECT_NEAR(flux[V3::rhot], 5.0, 1e-13);
  // A departure of 1 m/s in the upper cell's u diffuses: F(ρu) −= c · 1.
  const double faster[V3::count] = {0.0, 1.0 * 9.0, 1.0 * 2.0, 0.0, 0.0};
  double departing[V3::count] = {1.0, 2.0, 3.0, 4.0, 5.0};
  add_face_diffusion<V3>(low, faster, background, 0.25, 0.5, departing);
  EXPECT_NEAR(departing[V3::umom], 2.0 - 0.25, 1e-14);
}

}  // namespace
}  // namespace simapp
