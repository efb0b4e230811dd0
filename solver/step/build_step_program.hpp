#pragma once
/// Builds the StepProgram of the dry-atmosphere step (PHYSICS.md, "Time stepping"):
/// two split passes, each three RK3 stages
///   q* = qⁿ + dt/3 R(qⁿ),  q** = qⁿ + dt/2 R(q*),  qⁿ⁺¹ = qⁿ + dt R(q**),
/// each stage = fill halos of its input, face fluxes, tendency + update.
/// Odd steps run x then z; even steps z then x.
#include "kernels/hydrostatic/hydrostatic_view.hpp"
#include "kernels/initial_conditions/case_name.hpp"
#include "kernels/physics/cell_geometry.hpp"
#include "kernels/time/step_params.hpp"
#include "solver/state/workspace.hpp"
#include "solver/step/step_program.hpp"

namespace simapp {

enum class StepParity { odd, even };

/// The parity of 1-based step `step`.
inline StepParity parity_of(long step) { return step % 2 == 1 ? StepParity::odd : StepParity::even; }

/// Everything the ops of a step refer to; all of it lives as long as the program.
struct StepResources {
  const Workspace* workspace = nullptr;
  CellGeometry geometry;
  HydrostaticView background;
  const StepParams* params = nullptr;
  CaseName case_name = CaseName::thermal;
};

StepProgram build_step_program(const StepResources& resources, StepParity parity);

}  // namespace simapp
