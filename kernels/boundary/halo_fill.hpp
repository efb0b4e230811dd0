#pragma once
/// Ghost-cell fills before each split pass (docs/model.md, "Boundaries").
#include "kernels/backend/field_view.hpp"
#include "kernels/backend/stream.hpp"
#include "kernels/halo/halo_pack.hpp"
#include "kernels/hydrostatic/hydrostatic_view.hpp"
#include "kernels/physics/cell_geometry.hpp"
#include "kernels/physics/variables.hpp"

namespace simapp {

/// x periodic: q(i) = q(i + nx) for the left ghost columns, q(i) = q(i − nx) for the right,
/// on interior rows (the domain is not split in x).
void fill_periodic_x_halos(const Stream& stream, FieldView<double> state, VarRange vars);

/// z free-slip walls, ghost rows of every column (x ghosts included), from the adjacent
/// interior row a:  ρw = 0;  ρu = ρu(a) / ρ̄_c(a) · ρ̄_c(k);  ρ′, (ρθ)′ copied.
/// Only the sides in `walls` are filled (the others come from a neighbour rank).
void fill_wall_z_halos(const Stream& stream, FieldView<double> state, VarRange vars, HydrostaticView background,
                       SideFlags walls);

/// injection: left-boundary ghost columns of rows with |z − 3 zlen/4| ≤ zlen/16 carry the
/// inflow  ρu = (ρ′ + ρ̄_c) · 50 m/s,  (ρθ)′ = (ρ′ + ρ̄_c) · 298 K − ρ̄θ̄_c.
void apply_injection_inflow(const Stream& stream, FieldView<double> state, HydrostaticView background,
                            const CellGeometry& geometry);

}  // namespace simapp
