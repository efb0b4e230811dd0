#pragma once
/// The warm-rain microphysics element (physics.microphysics: kessler; docs/model.md,
/// "Moisture"): after every N-th step, on every interior column, the water tracers' holes are
/// filled and the Kessler column routine (kernels/physics/kessler.hpp) runs over the time since
/// its last call; what it changes goes back to the state as increments. A thread a
/// column on the host, a thread a column or a block's levels at once on CUDA (microphysics_block_warps), the same bits
/// but for the math library's last bits: the rain's sub-steps are counted and run by each column, never through a
/// reduction over columns.
#include "kernels/backend/field_view.hpp"
#include "kernels/backend/stream.hpp"
#include "kernels/hydrostatic/hydrostatic_view.hpp"
#include "kernels/hydrostatic/tracer_background.hpp"
#include "kernels/physics/cell_geometry.hpp"
#include "kernels/time/step_params.hpp"

namespace simapp {

/// The water tracers, vapour, cloud and rain, in this order after the model's dry variables (the
/// run's first tracers).
inline constexpr int water_tracers = 3;

/// Fields over the surface, [j][i] over the rank's nx × ny columns (2-D: ny = 1), one after the
/// other in this order.
struct SurfaceWater {
  double* precipitation = nullptr;  ///< precipitation_amount, kg m⁻² (mm of water), accumulated
  double* rain_rate = nullptr;      ///< at the ground at the last call, m s⁻¹ of liquid water
  double* clipped = nullptr;        ///< water the hole filling and the clips added, kg m⁻², accumulated
};

/// The fields of SurfaceWater.
inline constexpr int surface_water_fields = 3;

/// A column's values between the rain's sub-steps, a value each a level: θ_d, q_v, q_c, q_r
/// (kessler_column's KesslerLevel, what it updates). Only a call of several sub-steps uses them.
enum class MicrophysicsScratch { theta, qv, qc, qr, count };

/// What the element reads and writes. The water tracers are the state's variables
/// [first_water, first_water + 3), their backgrounds the tracer background's profiles 0, 1, 2.
/// The state is of type Real (double or float); the microphysics computes in double, and its
/// scratch field is double.
template <int Dims, class Real = double>
struct MicrophysicsArguments {
  FieldView<Real, Dims> state;
  HydrostaticView background;
  TracerBackground water_background;
  CellGeometry<Dims> geometry;
  /// MicrophysicsScratch::count variables over the interior cells, no halo
  FieldView<double, Dims> scratch;
  SurfaceWater surface;
  int first_water = 0;
  /// physics.microphysics_every: runs after each multiple of `every` steps and the run's last; 0: never.
  int every = 0;
  bool rain = true;  ///< physics.rain: off runs the saturation adjustment alone
};

/// The columns a CUDA block takes at once where their levels run at once (microphysics_levels.cuh),
/// neighbouring along x, a lane each; a rank's `columns` make level_groups(columns) such groups.
inline constexpr int level_group_columns = 32;
SIMAPP_HOST_DEVICE constexpr int level_groups(int columns) {
  return (columns + level_group_columns - 1) / level_group_columns;
}

/// How the CUDA kernel takes a rank's `columns` of nz levels on a GPU of `multiprocessors`: the
/// warps of a block of 32 columns whose levels run at once (microphysics_levels.cuh), the largest
/// power of two up to 16 (and nz at most) with every block's warps in the GPU's warp slots at the
/// kernel's 128 registers (16 a multiprocessor); 0, a thread a column (microphysics_column.hpp),
/// where not even 2 would fit. Few columns leave most of a GPU idle a thread a column and wait on
/// one thread's nz levels in a row (docs/performance.md, "Water"). Every way gives the same bits.
int microphysics_block_warps(int columns, int nz, int multiprocessors);

/// The microphysics after the step whose values are *params, over params->dt_physics, on every
/// interior column of the rank (docs/model.md, "Moisture", steps 1–5):
///  1. per cell ρ = ρ̄ + ρ′, ρθ = ρ̄θ̄ + (ρθ)′, ρ_x = ρ̄_x + ρ_x′, p = C₀(ρθ)^γ, ρ_d = ρ − ρ_v − ρ_c − ρ_r,
///     T = p/(ρ_d R_d + ρ_v R_v), Π = (p/p₀)^(R_d/c_p), θ_d = T/Π;
///  2. the hole filling of each water tracer (HoleFill), q_x = filled ρ_x/ρ_d;
///  3. kessler_column over dt_phys;
///  4. increments: Δρ_x = ρ_d(q_x⁺ − q_x) + (filled ρ_x − ρ_x), ρ_x′ += Δρ_x, ρ_v⁺ = ρ_v + Δρ_v,
///     T⁺ = T + (θ_d⁺ − θ_d)Π, Δρ = ΣΔρ_x, ρ′ += Δρ, p̃ = ρ_d R_d T + ρ_v R_v T,
///     p⁺ = ρ_d R_d T⁺ + ρ_v⁺ R_v T⁺, (ρθ)′ += ρθ(p⁺/p̃ − 1), f = (ρ + Δρ)/ρ, each momentum ×= f
///     (ρθ = ρ_d θ_d (1 + q_v R_v/R_d) exactly, so ρθ⁺ = ρ_d θ_d⁺ (1 + q_v⁺ R_v/R_d): the routine's θ_d⁺);
///  5. precipitation_amount += ρ_w · rate · dt_phys; the rain rate; the clipped water.
/// Where nothing changes, the state stays bit for bit what it was.
template <int Dims, class Real>
void apply_microphysics(const Stream& stream, const MicrophysicsArguments<Dims, Real>& microphysics,
                        const StepParams<Dims>* params);

}  // namespace simapp
