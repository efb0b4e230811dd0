#pragma once
/// Row sums of the diagnostics over interior cells (docs/model.md, "Diagnostics"):
///   mass = Σ ρ dx dz,   te = Σ (ρ(u² + w²) + ρ c_v T) dx dz,
/// with ρ = ρ̄_c + ρ′, u = ρu/ρ, w = ρw/ρ, θ = (ρ̄θ̄_c + (ρθ)′)/ρ, p = C₀(ρθ)^γ, T = θ (p/p₀)^(R_d/c_p).
/// Each row is summed in i order by one thread, so the result does not depend on the backend's
/// thread count; the host adds the rows in k order.
#include "kernels/backend/field_view.hpp"
#include "kernels/backend/stream.hpp"
#include "kernels/hydrostatic/hydrostatic_view.hpp"
#include "kernels/physics/cell_geometry.hpp"

namespace simapp {

/// row_sums[k] = mass of row k, row_sums[nz + k] = total energy of row k.
void sum_mass_energy_rows(const Stream& stream, FieldView<const double> state, HydrostaticView background,
                          const CellGeometry& geometry, double* row_sums);

}  // namespace simapp
