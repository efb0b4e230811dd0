#pragma once
/// A background integrated from a sounding (docs/model.md, "Moist backgrounds"), on the host,
/// laid out as the analytic backgrounds are: 3-point Gauss–Legendre averages over the rows
/// k ∈ [−halo, nz + halo) and values at the interfaces k ∈ [0, nz], of ρ̄, ρ̄θ̄ and of the water
/// ρ̄_v, ρ̄_c (ρ̄_r = 0), with each row's points kept for the initial state.
#include <array>
#include <vector>

#include "kernels/physics/cell_geometry.hpp"
#include "kernels/quadrature/gauss_legendre.hpp"
#include "solver/column/column_air.hpp"
#include "solver/state/hydrostatic_profile.hpp"
#include "solver/state/tracer_profiles.hpp"

namespace simapp {

/// A sounding and the pressure at its ground, z = 0.
struct ColumnSource {
  Sounding sounding;
  double surface_pressure = 0.0;  ///< Pa
};

struct ColumnBackground {
  HydrostaticColumns dry;  ///< ρ̄ and ρ̄θ̄ (ρ̄ the dry air's and the water's); pressure_face empty
  WaterProfiles water;     ///< ρ̄_v and ρ̄_c
  /// The air and its point at the Gauss–Legendre points of each row, [row + halo][point].
  std::vector<std::array<ColumnAir, gauss_legendre::num_points>> air;
  std::vector<std::array<ColumnPoint, gauss_legendre::num_points>> points;
};

/// The background of the `nz` rows from global row geometry.k_offset of the column `source`.
ColumnBackground column_background(const ColumnSource& source, const CellGeometry<2>& geometry, int nz);

}  // namespace simapp
