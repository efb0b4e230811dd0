#include "kernels/initial_conditions/tracer_initial_state.hpp"

#include "kernels/backend/parallel_for.hpp"
#include "kernels/cases/case_list.hpp"
#include "kernels/quadrature/gauss_legendre.hpp"

namespace simapp {

namespace {

/// ρ = ρ̄(z) + ρ′ at a point of perturbation `p`, ρ′ as set_initial_state forms it (nonzero
/// for a temperature perturbation alone).
SIMAPP_HOST_DEVICE inline double point_density(const HydrostaticBackground& background, double z,
                                               const PointPerturbation& p) {
  const HydrostaticPoint point = background.at(z);
  if (p.temperature == 0.0) return point.density;
  const double theta_prime = p.temperature / pow(point.pressure / physics::p0, physics::rd / physics::cp);
  return point.density - point.density * theta_prime / (point.theta + theta_prime);
}

/// The cell's average of ρ over the Gauss–Legendre points inside `unit` (the case's bump made of
/// amplitude 1), in the model of Dims dimensions.
template <int Dims>
SIMAPP_HOST_DEVICE double density_inside(int i, int j, int k, CaseName name, const Bump<Dims>& bump,
                                         const Bump<Dims>& unit, const HydrostaticBackground& background,
                                         const CellGeometry<Dims>& geometry) {
  constexpr int points = gauss_legendre::num_points, points_y = Dims == 3 ? points : 1;
  double sum = 0.0;
  for (int qk = 0; qk < points; ++qk)
    for (int qj = 0; qj < points_y; ++qj)
      for (int qi = 0; qi < points; ++qi) {
        const double x = geometry.x_center(i) + (gauss_legendre::point(qi) - 0.5) * geometry.dx;
        const double z = geometry.z_center(k) + (gauss_legendre::point(qk) - 0.5) * geometry.dz;
        double w = gauss_legendre::weight(qi) * gauss_legendre::weight(qk);
        if constexpr (Dims == 3) {
          const double y = geometry.y_center(j) + (gauss_legendre::point(qj) - 0.5) * geometry.dy;
          w *= gauss_legendre::weight(qj);
          if (unit(x, y, z) <= 0.0) continue;
          sum += point_density(background, z, case_perturbation(name, bump, x, y, z)) * w;
        } else {
          if (unit(x, z) <= 0.0) continue;
          sum += point_density(background, z, case_perturbation(name, bump, x, z)) * w;
        }
      }
  return sum;
}

}  // namespace

template <class Real, int Dims>
void set_tracer_initial_state(const Stream& stream, FieldView<Real, Dims> state, VarRange tracers, TracerInit init,
                              CaseName name, const Bump<Dims>& bump, const CellGeometry<Dims>& geometry) {
  using V = ModelVariables<Dims>;
  if (tracers.first == tracers.last) return;
  const int halo = state.shape.halo;
  CellBox cells = interior_cells(state.shape);
  cells.i_lo = cells.k_lo = -halo;
  cells.i_hi += halo;
  cells.k_hi += halo;
  if constexpr (Dims == 3) {
    cells.j_lo = -halo;
    cells.j_hi += halo;
  }
  if (init == TracerInit::uniform) {
    parallel_for_cells<Dims>(
        "set_tracer_initial_state", stream, cells, SIMAPP_LAMBDA(int i, int j, int k) {
          for (int t = tracers.first; t < tracers.last; ++t) state(t, k, j, i) = state(V::dens, k, j, i);
        });
    return;
  }
  Bump<Dims> unit = bump;
  unit.amplitude = 1.0;
  const HydrostaticBackground background = case_background(name);
  parallel_for_cells<Dims>(
      "set_tracer_initial_state", stream, cells, SIMAPP_LAMBDA(int i, int j, int k) {
        const double density = density_inside<Dims>(i, j, k, name, bump, unit, background, geometry);
        for (int t = tracers.first; t < tracers.last; ++t) state(t, k, j, i) = Real(density);
      });
}

#define SIMAPP_TRACER_INITIAL_STATE_OF(Real, Dims)                                                             \
  template void set_tracer_initial_state(const Stream&, FieldView<Real, Dims>, VarRange, TracerInit, CaseName, \
                                         const Bump<Dims>&, const CellGeometry<Dims>&);
SIMAPP_TRACER_INITIAL_STATE_OF(double, 2)
SIMAPP_TRACER_INITIAL_STATE_OF(double, 3)
SIMAPP_TRACER_INITIAL_STATE_OF(float, 2)
SIMAPP_TRACER_INITIAL_STATE_OF(float, 3)
#undef SIMAPP_TRACER_INITIAL_STATE_OF

}  // namespace simapp
