#pragma once
/// Ghost-cell fills before each split pass (docs/model.md, "Boundaries").
#include "kernels/backend/field_view.hpp"
#include "kernels/backend/stream.hpp"
#include "kernels/boundary/boundary_conditions.hpp"
#include "kernels/hydrostatic/hydrostatic_view.hpp"
#include "kernels/physics/cell_geometry.hpp"
#include "kernels/physics/variables.hpp"

namespace simapp {

/// x periodic: q(i) = q(i + nx) for the left ghost columns, q(i) = q(i − nx) for the right,
/// on interior rows; only the sides of `sides` that copy their periodic image on this rank.
void fill_periodic_x_halos(const Stream& stream, FieldView<double, 2> state, VarRange vars,
                           const BoundaryConditions<2>& sides);

/// z free-slip walls, ghost rows of every column (x ghosts included), from the adjacent
/// interior row a:  ρw = 0;  ρu = ρu(a) / ρ̄_c(a) · ρ̄_c(k);  ρ′, (ρθ)′ copied.
/// Only the sides of `sides` that are walls are filled (the others come from a neighbour rank).
void fill_wall_z_halos(const Stream& stream, FieldView<double, 2> state, VarRange vars, HydrostaticView background,
                       const BoundaryConditions<2>& sides);

/// An inflow side sides.x_low: the left ghost columns of the rows of sides.inflow carry
///   ρu = (ρ′ + ρ̄_c) · u,  (ρθ)′ = (ρ′ + ρ̄_c) · θ − ρ̄θ̄_c;  nothing for a side without inflow.
void apply_inflow_halos(const Stream& stream, FieldView<double, 2> state, HydrostaticView background,
                        const CellGeometry<2>& geometry, const BoundaryConditions<2>& sides);

}  // namespace simapp
