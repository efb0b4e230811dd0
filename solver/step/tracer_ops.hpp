#pragma once
/// The tracers' part of a stage of a split pass (docs/model.md, "Tracers"), the same ops in
/// every granularity's passes of stage, fused or fine kernels (a pass kernel carries the tracers
/// in its tiles, kernels/stage/pass_kernel.hpp), after the stage's dry ops: the ghost cells of the
/// stage's input along the pass that the rank makes itself, filled in memory for every variable
/// (the stage kernels make the dry ones inside and store none; the fused and fine ones store the
/// same values again), the inflow's rows, then one tracer_transport kernel. A run without tracers
/// has none of them.
#include <algorithm>
#include <string>

#include "kernels/backend/field_view.hpp"
#include "kernels/boundary/boundary_conditions.hpp"
#include "kernels/flux/flux_context.hpp"
#include "kernels/flux/tracer_flux.hpp"
#include "kernels/physics/variables.hpp"
#include "solver/step/step_program.hpp"

namespace simapp {

/// What the tracers' ops of one stage read and write.
template <int Dims, class Real>
struct TracerStage {
  Direction direction = Direction::x;
  FieldView<Real, Dims> init;     ///< qⁿ of the pass
  FieldView<Real, Dims> forcing;  ///< the stage's input
  FieldView<Real, Dims> out;      ///< the stage's output (may be init, never forcing)
  FluxContext<Dims> context;
  TracerBackground background;
  BoundaryConditions<Dims> sides;  ///< this rank's
  bool inflow = false;             ///< the domain's low side along the pass is an inflow
  /// The dry variables' ghost cells of `forcing` are in memory already (fused and fine
  /// granularity fill them for the dry fluxes; a stage kernel makes its own on chip).
  bool dry_ghosts_filled = false;
};

/// The tracers `state` holds after its model's dry variables (none in a state of no variables:
/// the resources of a program built only to be inspected). A pass kernel keeps its stages'
/// values on chip, where no tracer kernel can read them, so it carries the tracers itself
/// (pass_kernel_carries); the passes of stage kernels end each stage with the ops below.
template <int Dims, class Real>
int tracer_count(const FieldView<Real, Dims>& state) {
  return std::max(state.shape.num_vars - ModelVariables<Dims>::count, 0);
}

/// Appends the tracers' ops of `stage`, named prefix + "tracers..." (nothing when the state holds
/// no tracer), after a join when the program's ops use lanes.
template <int Dims, class Real>
void add_tracer_stage(StepProgram& program, const std::string& prefix, const TracerStage<Dims, Real>& stage);

}  // namespace simapp
