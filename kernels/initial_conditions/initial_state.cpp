#include "kernels/initial_conditions/initial_state.hpp"

#include "kernels/backend/parallel_for.hpp"
#include "kernels/cases/case_list.hpp"
#include "kernels/physics/variables.hpp"
#include "kernels/quadrature/gauss_legendre.hpp"

namespace simapp {

namespace {

/// A cell's sums over its quadrature points.
struct CellSums {
  double dens = 0.0, umom = 0.0, wmom = 0.0, rhot = 0.0, vapour = 0.0;
};

/// Adds the point state of `perturbation` at height z, weighted by `w`, to the cell's sums:
///   ρu += ρ̄(z) u w,  ρw += ρ̄(z) w_wind w,  (ρθ)′ += ρ̄(z) θ′ w,  and for a temperature perturbation
///   ρ′ += −ρ̄ θ′_T/(θ̄ + θ′_T) w with θ′_T = T′/π̄ at p̄ (ρθ unchanged).
SIMAPP_HOST_DEVICE inline void add_point_state(const HydrostaticBackground& background, double z,
                                               const PointPerturbation& p, double w, CellSums& sums) {
  const HydrostaticPoint point = background.at(z);
  sums.umom += point.density * p.u * w;
  sums.wmom += point.density * p.w * w;
  if (p.vapour != 0.0) {
    const double vapour = p.vapour * point.density;
    const double rho_theta_dry = point.density * (point.theta + p.theta);
    const double moist =
        pow((point.density * physics::rd + vapour * physics::rv) / (point.density * physics::rd), 1.0 / physics::gamma);
    sums.rhot += (rho_theta_dry * moist - point.density * point.theta) * w;
    sums.dens += vapour * w;
    sums.vapour += vapour * w;
  } else {
    sums.rhot += point.density * p.theta * w;
  }
  if (p.temperature != 0.0) {
    const double theta_prime = p.temperature / pow(point.pressure / physics::p0, physics::rd / physics::cp);
    sums.dens += -point.density * theta_prime / (point.theta + theta_prime) * w;
  }
}

/// The sums of cell (i, j, k) over its Gauss–Legendre points, 3×3 in the x–z plane and, in the
/// 3-D model, 3 along y (j is unused in 2-D).
template <int Dims>
SIMAPP_HOST_DEVICE inline CellSums cell_sums(const CellGeometry<Dims>& geometry,
                                             const HydrostaticBackground& background, CaseName name,
                                             const Bump<Dims>& bump, int i, [[maybe_unused]] int j, int k) {
  constexpr int points_along_y = Dims == 3 ? gauss_legendre::num_points : 1;
  CellSums sums;
  for (int qk = 0; qk < gauss_legendre::num_points; ++qk)
    for (int qj = 0; qj < points_along_y; ++qj)
      for (int qi = 0; qi < gauss_legendre::num_points; ++qi) {
        const double x = geometry.x_center(i) + (gauss_legendre::point(qi) - 0.5) * geometry.dx;
        const double z = geometry.z_center(k) + (gauss_legendre::point(qk) - 0.5) * geometry.dz;
        if constexpr (Dims == 3) {
          const double y = geometry.y_center(j) + (gauss_legendre::point(qj) - 0.5) * geometry.dy;
          const double w = gauss_legendre::weight(qi) * gauss_legendre::weight(qj) * gauss_legendre::weight(qk);
          add_point_state(background, z, case_perturbation(name, bump, x, y, z), w, sums);
        } else {
          const double w = gauss_legendre::weight(qi) * gauss_legendre::weight(qk);
          add_point_state(background, z, case_perturbation(name, bump, x, z), w, sums);
        }
      }
  return sums;
}

/// Stores `sums` as cell (i, j, k) of `state` (ρv = 0 in 3-D: no case has a wind along y), and
/// where first_water ≥ 0 the water: ρ_v, no cloud, no rain. The sums (double) are rounded once
/// to the state's type Real.
template <class Real, int Dims>
SIMAPP_HOST_DEVICE inline void store_cell(const FieldView<Real, Dims>& state, const CellSums& sums, int first_water,
                                          int i, int j, int k) {
  using V = ModelVariables<Dims>;
  const auto at = [&](int v) -> Real& { return state(v, k, j, i); };  // j = 0 in 2-D
  at(V::dens) = Real(sums.dens);
  at(V::umom) = Real(sums.umom);
  if constexpr (Dims == 3) at(V::vmom) = 0;
  at(V::wmom) = Real(sums.wmom);
  at(V::rhot) = Real(sums.rhot);
  if (first_water >= 0) {
    at(first_water) = Real(sums.vapour);
    at(first_water + 1) = 0;
    at(first_water + 2) = 0;
  }
}

}  // namespace

template <class Real, int Dims>
void set_initial_state(const Stream& stream, FieldView<Real, Dims> state, CaseName name, const Bump<Dims>& bump,
                       const CellGeometry<Dims>& geometry, int first_water) {
  const int halo = state.shape.halo;
  const IndexBox columns{-halo, state.shape.nx + halo, -halo, state.shape.nz + halo};
  const HydrostaticBackground background = case_background(name);
  if constexpr (Dims == 3) {
    const int ny = state.shape.ny;
    parallel_for(
        "set_initial_state", stream, columns, SIMAPP_LAMBDA(int i, int k) {
          for (int j = -halo; j < ny + halo; ++j) {
            const CellSums sums = cell_sums(geometry, background, name, bump, i, j, k);
            store_cell(state, sums, first_water, i, j, k);
          }
        });
  } else {
    parallel_for(
        "set_initial_state", stream, columns, SIMAPP_LAMBDA(int i, int k) {
          const CellSums sums = cell_sums(geometry, background, name, bump, i, 0, k);
          store_cell(state, sums, first_water, i, 0, k);
        });
  }
}

#define SIMAPP_INITIAL_STATE_OF(Real, Dims)                                                          \
  template void set_initial_state(const Stream&, FieldView<Real, Dims>, CaseName, const Bump<Dims>&, \
                                  const CellGeometry<Dims>&, int);
SIMAPP_INITIAL_STATE_OF(double, 2)
SIMAPP_INITIAL_STATE_OF(double, 3)
SIMAPP_INITIAL_STATE_OF(float, 2)
SIMAPP_INITIAL_STATE_OF(float, 3)
#undef SIMAPP_INITIAL_STATE_OF

}  // namespace simapp
