#include "kernels/initial_conditions/initial_state.hpp"

#include "kernels/backend/parallel_for.hpp"
#include "kernels/initial_conditions/case_profile.hpp"
#include "kernels/physics/variables.hpp"
#include "kernels/quadrature/gauss_legendre.hpp"

namespace simapp {

namespace {

/// Adds the point state of `perturbation` at height z, weighted by `w`, to the cell's sums:
///   ρu += ρ̄(z) u w,  ρw += ρ̄(z) w_wind w,  (ρθ)′ += ρ̄(z) θ′ w,  and for a temperature perturbation
///   ρ′ += −ρ̄ θ′_T/(θ̄ + θ′_T) w with θ′_T = T′/π̄ at p̄ (ρθ unchanged).
SIMAPP_HOST_DEVICE inline void add_point_state(const HydrostaticBackground& background, double z,
                                               const PointPerturbation& p, double w, double& dens, double& umom,
                                               double& wmom, double& rhot) {
  const HydrostaticPoint point = background.at(z);
  umom += point.density * p.u * w;
  wmom += point.density * p.w * w;
  rhot += point.density * p.theta * w;
  if (p.temperature != 0.0) {
    const double theta_prime = p.temperature / pow(point.pressure / physics::p0, physics::rd / physics::cp);
    dens += -point.density * theta_prime / (point.theta + theta_prime) * w;
  }
}

}  // namespace

void set_initial_state(const Stream& stream, FieldView<double, 2> state, CaseName name, const Bump<2>& bump,
                       const CellGeometry<2>& geometry) {
  const int halo = state.shape.halo;
  const IndexBox all_cells{-halo, state.shape.nx + halo, -halo, state.shape.nz + halo};
  const HydrostaticBackground background = case_background(name);
  parallel_for(
      "set_initial_state", stream, all_cells, SIMAPP_LAMBDA(int i, int k) {
        double dens = 0.0, umom = 0.0, wmom = 0.0, rhot = 0.0;
        for (int qk = 0; qk < gauss_legendre::num_points; ++qk) {
          for (int qi = 0; qi < gauss_legendre::num_points; ++qi) {
            const double x = geometry.x_center(i) + (gauss_legendre::point(qi) - 0.5) * geometry.dx;
            const double z = geometry.z_center(k) + (gauss_legendre::point(qk) - 0.5) * geometry.dz;
            const double w = gauss_legendre::weight(qi) * gauss_legendre::weight(qk);
            add_point_state(background, z, case_perturbation(name, x, z, bump), w, dens, umom, wmom, rhot);
          }
        }
        state(var::dens, k, i) = dens;
        state(var::umom, k, i) = umom;
        state(var::wmom, k, i) = wmom;
        state(var::rhot, k, i) = rhot;
      });
}

void set_initial_state_3d(const Stream& stream, FieldView<double, 3> state, CaseName name, const Bump<3>& bump,
                          const CellGeometry<3>& geometry) {
  using V = ModelVariables<3>;
  const int halo = state.shape.halo, ny = state.shape.ny;
  const IndexBox columns{-halo, state.shape.nx + halo, -halo, state.shape.nz + halo};
  const HydrostaticBackground background = case_background(name);
  parallel_for(
      "set_initial_state_3d", stream, columns, SIMAPP_LAMBDA(int i, int k) {
        for (int j = -halo; j < ny + halo; ++j) {
          double dens = 0.0, umom = 0.0, wmom = 0.0, rhot = 0.0;
          for (int qk = 0; qk < gauss_legendre::num_points; ++qk)
            for (int qj = 0; qj < gauss_legendre::num_points; ++qj)
              for (int qi = 0; qi < gauss_legendre::num_points; ++qi) {
                const double x = geometry.x_center(i) + (gauss_legendre::point(qi) - 0.5) * geometry.dx;
                const double y = geometry.y_center(j) + (gauss_legendre::point(qj) - 0.5) * geometry.dy;
                const double z = geometry.z_center(k) + (gauss_legendre::point(qk) - 0.5) * geometry.dz;
                const double w = gauss_legendre::weight(qi) * gauss_legendre::weight(qj) * gauss_legendre::weight(qk);
                const PointPerturbation p = case_perturbation_of(
                    name, [&] { return bump(x, y, z); }, [&] { return collision_cold_bubble(bump)(x, y, z); });
                add_point_state(background, z, p, w, dens, umom, wmom, rhot);
              }
          state(V::dens, k, j, i) = dens;
          state(V::umom, k, j, i) = umom;
          state(V::vmom, k, j, i) = 0.0;  // no case has a wind along y
          state(V::wmom, k, j, i) = wmom;
          state(V::rhot, k, j, i) = rhot;
        }
      });
}

}  // namespace simapp
