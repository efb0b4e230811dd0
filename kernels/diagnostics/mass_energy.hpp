#pragma once
/// Row sums of the diagnostic densities over interior cells (docs/model.md, "Diagnostics"):
///   ρ = ρ̄_c + ρ′                                  (mass = Σ ρ dx dz)
///   e = ρ(u² + w²) + ρ c_v T                        (te = Σ e dx dz)
/// with u = ρu/ρ, w = ρw/ρ, θ = (ρ̄θ̄_c + (ρθ)′)/ρ, p = C₀(ρθ)^γ, T = θ (p/p₀)^(R_d/c_p).
/// Sums are exact fixed-point (ExactSum), so they do not depend on how cells are split
/// among threads or ranks.
#include "kernels/backend/field_shape_3d.hpp"
#include "kernels/backend/field_view.hpp"
#include "kernels/backend/stream.hpp"
#include "kernels/diagnostics/exact_sum.hpp"
#include "kernels/hydrostatic/hydrostatic_view.hpp"

namespace simapp {

/// Fixed-point resolutions: density to 2^-60 kg m⁻³, energy density to 2^-42 J m⁻³.
inline constexpr int density_scale_bits = 60;
inline constexpr int energy_scale_bits = 42;

/// row_sums[k] = Σ_i ρ of row k, row_sums[nz + k] = Σ_i e of row k.
void sum_mass_energy_rows(const Stream& stream, FieldView<const double> state, HydrostaticView background,
                          ExactSum* row_sums);

/// The 3-D model's: row_sums[k] = Σ_{i,j} ρ of layer k, row_sums[nz + k] = Σ_{i,j} e with
/// e = ρ(u² + v² + w²) + ρ c_v T (the cell volume dx dy dz is the caller's factor).
void sum_mass_energy_rows_3d(const Stream& stream, FieldView3d<const double> state, HydrostaticView background,
                             ExactSum* row_sums);

}  // namespace simapp
