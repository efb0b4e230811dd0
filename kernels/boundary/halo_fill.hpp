#pragma once
/// Ghost-cell fills before a split pass of the fused and fine granularities (docs/model.md,
/// "Boundaries"; the stage kernel applies the same rules, ghost_rules.hpp, as it loads a tile),
/// for the model in `Dims` dimensions (2 or 3): the ghost cells the pass reads, those along its
/// own direction beside the interior cells (the 2-D wall rows: of every column, x ghosts included).
#include "kernels/backend/field_view.hpp"
#include "kernels/backend/stream.hpp"
#include "kernels/boundary/boundary_conditions.hpp"
#include "kernels/hydrostatic/hydrostatic_view.hpp"
#include "kernels/physics/cell_geometry.hpp"
#include "kernels/physics/variables.hpp"

namespace simapp {

/// Whether this rank makes some ghost cells of the pass along `direction` itself: a periodic
/// image (x, and y in 3-D; an inflow side copies it too before its inflow) or a wall (z).
template <int Dims>
bool fills_halos(Direction direction, const BoundaryConditions<Dims>& sides);

/// The ghost cells of the pass along `direction` that `sides` makes on this rank, for v ∈ vars:
///   x, y periodic: q(i) = q(i ± nx), q(j) = q(j ± ny), on interior rows;
///   z free-slip walls, from the adjacent interior row a: ρw = 0;
///   ρu (3-D: ρv too) = ρu(a) / ρ̄_c(a) · ρ̄_c(k); ρ′, (ρθ)′ copied.
/// Only the sides of `sides` that copy their periodic image or are walls (the others come from
/// a neighbour rank).
template <class Real, int Dims>
void fill_halos(const Stream& stream, Direction direction, FieldView<Real, Dims> state, VarRange vars,
                HydrostaticView background, const BoundaryConditions<Dims>& sides);

/// An inflow side sides.x_low: the low ghost columns of the rows whose height is in
/// sides.inflow carry ρu = (ρ′ + ρ̄_c) · u, (ρθ)′ = (ρ′ + ρ̄_c) · θ − ρ̄θ̄_c; nothing for a side
/// without inflow.
template <class Real, int Dims>
void apply_inflow_halos(const Stream& stream, FieldView<Real, Dims> state, HydrostaticView background,
                        const CellGeometry<Dims>& geometry, const BoundaryConditions<Dims>& sides);

}  // namespace simapp
