#pragma once
/// Ghost-cell fills of the 3-D model before a split pass of the fused and fine granularities
/// (the stage kernel applies the same rules, ghost_rules.hpp, as it loads a tile): only the
/// ghost cells the pass reads, those along its own direction beside the interior cells.
#include "kernels/backend/field_view.hpp"
#include "kernels/backend/stream.hpp"
#include "kernels/boundary/boundary_conditions.hpp"
#include "kernels/hydrostatic/hydrostatic_view.hpp"
#include "kernels/physics/cell_geometry.hpp"
#include "kernels/physics/variables.hpp"

namespace simapp {

/// Whether this rank makes some ghost cells of the pass along `direction` itself: a periodic
/// image (x, y; an inflow side copies it too before its inflow) or a wall (z).
bool fills_halos_3d(Direction direction, const BoundaryConditions<3>& sides);

/// The ghost cells of the pass along `direction` that `sides` makes on this rank, for v ∈ vars:
///   x, y periodic: q(i) = q(i ± nx), q(j) = q(j ± ny);
///   z free-slip walls, from the adjacent interior layer a: ρw = 0; ρu, ρv = (ρu, ρv)(a) / ρ̄_c(a) · ρ̄_c(k);
///   ρ′, (ρθ)′ copied.
void fill_halos_3d(const Stream& stream, Direction direction, FieldView<double, 3> state, VarRange vars,
                   HydrostaticView background, const BoundaryConditions<3>& sides);

/// An inflow side sides.x_low: the low ghost columns of the rows (j, k) whose height is in
/// sides.inflow carry ρu = (ρ′ + ρ̄_c) · u, (ρθ)′ = (ρ′ + ρ̄_c) · θ − ρ̄θ̄_c; nothing for a side
/// without inflow.
void apply_inflow_halos_3d(const Stream& stream, FieldView<double, 3> state, HydrostaticView background,
                           const CellGeometry<3>& geometry, const BoundaryConditions<3>& sides);

}  // namespace simapp
