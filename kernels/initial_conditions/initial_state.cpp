#include "kernels/initial_conditions/initial_state.hpp"

#include "kernels/backend/parallel_for.hpp"
#include "kernels/initial_conditions/case_profile.hpp"
#include "kernels/physics/variables.hpp"
#include "kernels/quadrature/gauss_legendre.hpp"

namespace simapp {

void set_initial_state(const Stream& stream, FieldView<double> state, CaseName name, const Bump& bump,
                       const CellGeometry& geometry) {
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
            const HydrostaticPoint point = background.at(z);
            const PointPerturbation p = case_perturbation(name, x, z, bump);
            const double w = gauss_legendre::weight(qi) * gauss_legendre::weight(qk);
            umom += point.density * p.u * w;
            wmom += point.density * p.w * w;
            rhot += point.density * p.theta * w;
            if (p.temperature != 0.0) {  // θ′ = T′/π̄ at p̄: ρθ unchanged, ρ′ = ρ̄θ̄/(θ̄ + θ′) − ρ̄
              const double theta_prime = p.temperature / pow(point.pressure / physics::p0, physics::rd / physics::cp);
              dens += -point.density * theta_prime / (point.theta + theta_prime) * w;
            }
          }
        }
        state(var::dens, k, i) = dens;
        state(var::umom, k, i) = umom;
        state(var::wmom, k, i) = wmom;
        state(var::rhot, k, i) = rhot;
      });
}

}  // namespace simapp
