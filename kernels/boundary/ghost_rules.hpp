#pragma once
/// The rules that make ghost cells (docs/model.md, "Boundaries"), as point functions, so that
/// the fill kernels and the stage kernel (which applies them as it loads a tile) compute the
/// same numbers.
#include "kernels/backend/host_device.hpp"
#include "kernels/boundary/boundary_conditions.hpp"
#include "kernels/hydrostatic/hydrostatic_view.hpp"
#include "kernels/physics/variables.hpp"

namespace simapp {

/// x periodic: the interior cell a ghost column i ∈ [−halo, 0) ∪ [nx, nx + halo) copies.
SIMAPP_HOST_DEVICE inline int periodic_source(int i, int nx) { return i < 0 ? i + nx : i - nx; }

/// The point a pass reads for point i ∈ [−halo, n + halo) of a line of n cells: the periodic
/// image where the side beyond it copies one, else i itself (interior cells, and the ghost cells
/// a neighbour rank sent, which are in memory at i).
SIMAPP_HOST_DEVICE inline int point_read(int i, int n, const BoundaryCondition& low, const BoundaryCondition& high) {
  if (i < 0 && low.copies_periodic_image()) return periodic_source(i, n);
  if (i >= n && high.copies_periodic_image()) return periodic_source(i, n);
  return i;
}

/// z free-slip wall: ghost row k of variable v of the model whose variables are V, from the
/// adjacent interior row a:
///   ρw = 0;  ρu = ρu(a) / ρ̄_c(a) · ρ̄_c(k) (in 3-D ρv likewise);  ρ′ and (ρθ)′ copied.
template <class V, class Real>
SIMAPP_HOST_DEVICE inline Real wall_ghost(int v, Real adjacent_value, double adjacent_density, double ghost_density) {
  if (v == V::wmom) return 0;
  if (v == V::umom || (V::momenta == 3 && v == V::momentum(1)))
    return adjacent_value / Real(adjacent_density) * Real(ghost_density);
  return adjacent_value;
}

/// An inflow row's ghost cell (q holds V's variables) carries
///   ρu = (ρ′ + ρ̄_c) · u,  (ρθ)′ = (ρ′ + ρ̄_c) · θ − ρ̄θ̄_c  (injection: u = 50 m/s, θ = 298 K).
template <class V = ModelVariables<2>, class Real>
SIMAPP_HOST_DEVICE inline void apply_inflow(Real q[V::count], double background_density, double background_rho_theta,
                                            const InflowProfile& inflow) {
  const Real density = q[V::dens] + Real(background_density);
  q[V::umom] = density * Real(inflow.u);
  q[V::rhot] = density * Real(inflow.theta) - Real(background_rho_theta);
}

}  // namespace simapp
