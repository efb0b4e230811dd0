#pragma once
/// The time step as one value (docs/model.md, "Time stepping"): dimensionally split passes
/// whose order alternates with the step's parity, each pass the RK3 stages (Wicker & Skamarock 2002)
///   q* = qⁿ + dt/3 R(qⁿ),  q** = qⁿ + dt/2 R(q*),  qⁿ⁺¹ = qⁿ + dt R(q**),
/// the ghost cells of each stage's input filled (made, or exchanged with neighbour ranks)
/// before the stage; the step's elements (the health check first) follow it with their cadences
/// (cadence.hpp). The StepProgram builder (solver/step/build_step_program.cpp), the
/// StepParams<2> (step_params.hpp) and the persistent kernel (kernels/stage/persistent_steps.cpp)
/// all iterate this value; the kernels hold the work of one stage (or one pass), not the order.
/// Adding a pass or changing the splitting order is a change of step_scheme() alone.
#include "kernels/backend/host_device.hpp"
#include "kernels/physics/variables.hpp"

namespace simapp {

enum class StepParity { odd, even };

/// The parity of 1-based step `step`.
SIMAPP_HOST_DEVICE constexpr StepParity parity_of(long step) {
  return step % 2 == 1 ? StepParity::odd : StepParity::even;
}

/// Index of a parity in the scheme's tables (and of its StepParams<2> slot in the persistent kernel).
SIMAPP_HOST_DEVICE constexpr int parity_index(StepParity parity) { return parity == StepParity::odd ? 0 : 1; }

/// The arrays a step's stages read and write: the state qⁿ (and qⁿ⁺¹) and two stage arrays.
enum class StageArray { state, stage1, stage2 };

/// One RK stage of a pass: q_out = qⁿ + dt / dt_divisor · R(q_in). The ghost cells of `input`
/// are filled before the stage. dt / dt_divisor is a division, never a product with 1/divisor,
/// so that every form of the step computes the same bits.
struct RkStage {
  StageArray input = StageArray::state;
  StageArray output = StageArray::state;
  double dt_divisor = 1.0;
};

/// Split passes a step of the 2-D model (one for each direction) and RK stages a pass.
inline constexpr int split_passes = 2;
inline constexpr int rk_stages = 3;

/// The step of a model with `Passes` split passes (2-D: 2, 3-D: 3): the order of its passes for
/// each parity, and the RK stages of a pass.
template <int Passes>
struct StepSchemeOf {
  static constexpr int passes = Passes;
  Direction pass_order[2][Passes];  ///< [parity_index]: the passes of a step in order
  RkStage stages[rk_stages];        ///< qⁿ → q* → q** → qⁿ⁺¹, three distinct arrays

  /// Pass p of a step of parity `parity`.
  SIMAPP_HOST_DEVICE constexpr Direction pass(StepParity parity, int p) const {
    return pass_order[parity_index(parity)][p];
  }
};

/// The 2-D model's step.
using StepScheme = StepSchemeOf<split_passes>;

/// The RK3 stages of every pass: dt/3, dt/2, dt.
SIMAPP_HOST_DEVICE constexpr void set_rk3_stages(RkStage (&stages)[rk_stages]) {
  stages[0] = {StageArray::state, StageArray::stage1, 3.0};
  stages[1] = {StageArray::stage1, StageArray::stage2, 2.0};
  stages[2] = {StageArray::stage2, StageArray::state, 1.0};
}

/// The step: odd steps x then z, even steps z then x; stages dt/3, dt/2, dt. A function, so
/// that device code may read it (a namespace-scope object is host memory there).
SIMAPP_HOST_DEVICE constexpr StepScheme step_scheme() {
  StepScheme scheme{{{Direction::x, Direction::z}, {Direction::z, Direction::x}}, {}};
  set_rk3_stages(scheme.stages);
  return scheme;
}

/// The 3-D model's step (grid.ny > 1): odd steps x, y, z, even steps z, y, x (each pass
/// undone in the reverse order the next step), the same stages.
SIMAPP_HOST_DEVICE constexpr StepSchemeOf<3> step_scheme_3d() {
  StepSchemeOf<3> scheme{{{Direction::x, Direction::y, Direction::z}, {Direction::z, Direction::y, Direction::x}}, {}};
  set_rk3_stages(scheme.stages);
  return scheme;
}

/// The array `which` of a step's three (FieldViews, or anything else kept per array).
template <class Array>
SIMAPP_HOST_DEVICE constexpr const Array& stage_array(StageArray which, const Array& state, const Array& stage1,
                                                      const Array& stage2) {
  return which == StageArray::state ? state : which == StageArray::stage1 ? stage1 : stage2;
}

}  // namespace simapp
