#pragma once
/// The hydrostatic integration of a sounding (docs/model.md, "Moist backgrounds"):
///   dp/dz = −ρ(z, p) g,   ρ = ρ_d (1 + q_v + q_c)   (column_point),
/// from a known pressure at one height, up and down to the heights asked for, by the classical
/// fourth-order Runge–Kutta scheme in steps of at most 5 m, in double precision.
#include <span>
#include <vector>

#include "solver/column/column_air.hpp"

namespace simapp {

/// The point at each of `heights` (m, in any order) of the column of `sounding` whose pressure
/// at height `z_known` is `p_known` (Pa).
std::vector<ColumnPoint> integrate_hydrostatic(const Sounding& sounding, double z_known, double p_known,
                                               std::span<const double> heights);

}  // namespace simapp
