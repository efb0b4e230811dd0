/// Checks the face fluxes of the 3-D model (five variables: ρ′, ρu, ρv, ρw, (ρθ)′; F, G and H of
/// docs/model.md, "3-D") against independent expectations: the 2-D fluxes of the same state
/// (the x and z fluxes of ρ′, ρu, ρw, (ρθ)′ do not depend on v), the x face with u and v
/// exchanged for the y face, values worked out by hand for the momentum ρv carries, the walls,
/// and the diffusive fluxes.
#include <gtest/gtest.h>

#include <cmath>

#include "kernels/flux/diffusive_flux.hpp"
#include "kernels/flux/face_flux.hpp"

namespace simapp {
namespace {

using V3 = ModelVariables<3>;

/// ρ′ = 0.2 over ρ̄ = 1 (ρ = 1.2); ρu = 12 (u = 10), ρv = 6 (v = 5), ρw = −3 (w = −2.5),
/// (ρθ)′ = 3 over ρ̄θ̄ = 345 (θ = 290).
constexpr double face_q[V3::count] = {0.2, 12.0, 6.0, -3.0, 3.0};
constexpr double face_d3[V3::count] = {0.4, -2.0, 0.7, 1.0, 8.0};
constexpr double k_hyper = -0.5;
constexpr double background_density = 1.0;
constexpr double background_rho_theta = 345.0;

physics::PressureReference reference_at(double rho_theta) {
  return {rho_theta, 1.0 / rho_theta, physics::c0 * std::pow(rho_theta, physics::gamma)};
}

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
  horizontal_face_flux<V3, V3::umom>(face_q, face_d3, background_density, reference_at(background_rho_theta), k_hyper,
                                     flux3);
  without_v(face_q, q2);
  without_v(face_d3, d2);
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
  horizontal_face_flux<V3, V3::vmom>(face_q, face_d3, background_density, reference_at(background_rho_theta), k_hyper,
                                     y_flux);
  exchange_u_and_v(face_q, q);
  exchange_u_and_v(face_d3, d3);
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
    vertical_face_flux<V3>(face_q, face_d3, background_density, reference_at(background_rho_theta), at_wall, k_hyper,
                           flux3);
    without_v(face_q, q2);
    without_v(face_d3, d2);
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
  vertical_face_flux<V3>(face_q, face_d3, background_density, reference_at(background_rho_theta), true, k_hyper, wall);
  EXPECT_EQ(wall[V3::dens], 0.0);  // no mass through a wall
}

TEST(FaceFlux3dTest, DiffusionOfVIsThatOfUAndLeavesTheOtherVariablesAsInTwoD) {
  // Cells either side of a face: u, v, w and θ all differ, so every term is exercised.
  const double low[V3::count] = {0.1, 11.0, 4.0, -2.0, 1.0};
  const double high[V3::count] = {0.3, 13.0, 7.0, -4.0, 5.0};
  const FaceNeighbourBackground background{1.1, 1.0, 350.0, 340.0};
  const double c = 0.25;
  double flux3[V3::count] = {1.0, 2.0, 3.0, 4.0, 5.0};
  add_face_diffusion<V3>(low, high, background, c, flux3);

  double low2[var::count], high2[var::count];
  without_v(low, low2);
  without_v(high, high2);
  double flux2[var::count] = {1.0, 2.0, 4.0, 5.0};
  add_face_diffusion<ModelVariables<2>>(low2, high2, background, c, flux2);
  EXPECT_EQ(flux3[V3::dens], 1.0);  // no mass diffuses
  EXPECT_EQ(flux3[V3::umom], flux2[var::umom]);
  EXPECT_EQ(flux3[V3::wmom], flux2[var::wmom]);
  EXPECT_EQ(flux3[V3::rhot], flux2[var::rhot]);
  // F(ρv) −= c (v_R − v_L): v_L = 4 / 1.2, v_R = 7 / 1.3.
  EXPECT_NEAR(flux3[V3::vmom], 3.0 - c * (7.0 / 1.3 - 4.0 / 1.2), 1e-14);
}

}  // namespace
}  // namespace simapp
