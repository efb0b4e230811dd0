#pragma once
/// Face fluxes of one split pass, for every face of the rank's interior:
/// x: faces i ∈ [0, nx] (face i between cells i−1 and i), rows k ∈ [0, nz);
/// z: faces k ∈ [0, nz], columns i ∈ [0, nx).
#include "kernels/backend/field_view.hpp"
#include "kernels/backend/stream.hpp"
#include "kernels/hydrostatic/hydrostatic_view.hpp"
#include "kernels/physics/cell_geometry.hpp"
#include "kernels/physics/variables.hpp"
#include "kernels/time/step_params.hpp"

namespace simapp {

/// What a flux kernel needs besides the arrays: geometry, the stage's dt (params->dt /
/// stage_divisor, read on the device at run time) and the background.
struct FluxContext {
  CellGeometry geometry;
  HydrostaticView background;
  const StepParams* params = nullptr;
  double stage_divisor = 1.0;  ///< dt_stage = dt / stage_divisor (3, 2, 1 for RK3)
};

/// Writes flux(v, k, i) for v ∈ vars from the state `forcing` (halos filled).
void compute_fluxes(const Stream& stream, Direction direction, FieldView<const double> forcing,
                    FieldView<double> flux, VarRange vars, const FluxContext& context);

}  // namespace simapp
