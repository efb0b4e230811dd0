#pragma once
/// Builds the StepPrograms of the dry-atmosphere step (docs/model.md, "Time stepping") of the
/// model in `Dims` dimensions from its StepScheme (kernels/time/step_scheme.hpp): for each split
/// pass of the step's parity in the scheme's order (2-D: x, z | z, x; 3-D: x, y, z | z, y, x),
/// for each of its RK3 stages
///   q* = qⁿ + dt/3 R(qⁿ),  q** = qⁿ + dt/2 R(q*),  qⁿ⁺¹ = qⁿ + dt R(q**),
/// fill halos of the stage's input, face fluxes, tendency and update. Granularity decides how
/// the stage is cut into kernels:
///   fused: fill_halos, fluxes, update                                   (3 kernels a stage)
///   fine:  per variable fill_halos, reconstruct, flux, tendency, update (variable v on lane v)
///   stage: one kernel, ghost cells made inside it                       (1 kernel a stage)
///   pass:  one kernel a pass where its tile can make its ghost cells, else as stage.
/// On the sides between ranks, the stage's input is exchanged along the pass's direction before
/// the stage (a pass reads ghosts along its own direction only); with parallel.overlap, the
/// stage and fused granularities update the cells (or fluxes) that read no ghost while halos
/// travel. Op names say the pass, the stage and the kernel ("y.stage2.fluxes",
/// "x.stage1.flux.vmom"), the same in either dimension.
#include <compare>
#include <functional>
#include <string>
#include <vector>

#include "kernels/boundary/boundary_conditions.hpp"
#include "kernels/diagnostics/health_check.hpp"
#include "kernels/flux/tracer_flux.hpp"
#include "kernels/hydrostatic/hydrostatic_view.hpp"
#include "kernels/microphysics/microphysics.hpp"
#include "kernels/physics/cell_geometry.hpp"
#include "kernels/time/loop_clock.hpp"
#include "kernels/time/step_scheme.hpp"
#include "kernels/update/source_terms.hpp"
#include "solver/halo/halo_path.hpp"
#include "solver/spec/execution_mode.hpp"
#include "solver/state/workspace.hpp"
#include "solver/step/cadence.hpp"
#include "solver/step/step_params_block.hpp"
#include "solver/step/step_program.hpp"

namespace simapp {

class HaloExchange;

/// The `side` side of `sides` along `direction` (BoundaryConditions<3> adds the y sides to the
/// x–z ones, whose side() knows x and z alone).
template <int Dims>
const BoundaryCondition& side_of(const BoundaryConditions<Dims>& sides, Direction direction, Side side) {
  if constexpr (Dims == 3)
    if (direction == Direction::y) return side == Side::low ? sides.y_low : sides.y_high;
  return sides.side(direction, side);
}

/// How this rank gets its ghost cells: each side's condition (the domain's, or exchanged with
/// a neighbour rank), and for the exchanged sides how the messages travel.
template <int Dims>
struct GhostFill {
  /// The domain's sides: every rank's steps hold the same ops (an inflow op on a rank away
  /// from the inflow side leaves its ghosts alone), so they chunk their steps alike.
  BoundaryConditions<Dims> domain;
  BoundaryConditions<Dims> sides;   ///< this rank's sides (rank_boundaries)
  HaloPath path = HaloPath::mpi;    ///< how halo messages travel
  bool overlap = false;             ///< work that reads no ghost runs while halos travel
  const HaloExchange* x = nullptr;  ///< null where the direction is not split, and in programs only described
  const HaloExchange* y = nullptr;  ///< (3-D)
  const HaloExchange* z = nullptr;

  /// The exchange of the passes along `direction`.
  const HaloExchange* along(Direction direction) const {
    return direction == Direction::x ? x : direction == Direction::y ? y : z;
  }
  /// Some ghost cells of the passes along `direction` come from neighbour ranks.
  bool exchanges(Direction direction) const {
    return side_of(sides, direction, Side::low).from_neighbour() ||
           side_of(sides, direction, Side::high).from_neighbour();
  }
};

/// Whether the steps of a rank that fills its ghosts so have Host ops: halo messages that the
/// host exchanges (MPI), in a direction split between ranks.
template <int Dims>
bool exchanges_halos_on_host(const GhostFill<Dims>& fill) {
  bool split = fill.exchanges(Direction::x) || fill.exchanges(Direction::z);
  if constexpr (Dims == 3) split = split || fill.exchanges(Direction::y);
  return exchanges_on_host(fill.path) && split;
}

/// The health check the programs carry where their layouts say (execution.check_every).
struct HealthCheckOps {
  int every = 0;                   ///< checks after the multiples of `every` and the last step; 0: none
  HealthRecord* record = nullptr;  ///< device memory; null in a program that is only described
  HealthRecord* mirror = nullptr;  ///< pinned host memory the host reads without waiting
};

/// What the body of a graph_loop WHILE node refers to besides the step: the device step
/// counter, the dt schedule, and the node's condition handle (set before the body is captured).
struct LoopControl {
  LoopClock* clock = nullptr;
  TimeSchedule schedule;
  std::uint64_t condition = 0;
};

/// Everything the ops refer to; all of it must outlive the programs. `params` and the halo
/// exchanges may be null for a program that is only described, never run. Real: the state's type.
template <int Dims, class Real = double>
struct StepResources {
  StepFields<Dims, Real> fields;  ///< the arrays of `granularity` (step_field_shapes)
  CellGeometry<Dims> geometry;
  HydrostaticView background;
  const StepParamsBlock<Dims>* params = nullptr;  ///< the slots the steps of a chunk read
  SourceTerms<Dims> sources;                      ///< the stage tendency's source terms (the case's forcing)
  Granularity granularity = Granularity::stage;
  GhostFill<Dims> halo;
  HealthCheckOps health;
  TracerBackground tracers{};  ///< the tracers' background profiles (solver/step/tracer_ops.hpp); none without tracers
  MicrophysicsArguments<Dims, Real> microphysics{};  ///< the water's element (physics.microphysics); every = 0: none
};

/// A step element (step_elements(), by its index) after a step of a chunk (0-based).
struct ElementRun {
  int step = 0;
  int element = 0;

  auto operator<=>(const ElementRun&) const = default;
};

/// What tells chunk programs apart: the parity of the first step, the number of steps and the
/// elements that follow its steps (by step, then element). Chunks of one layout are one
/// program, so one set of graphs in graph mode, wherever in the run they start.
struct ChunkLayout {
  StepParity first = StepParity::odd;
  int steps = 0;
  std::vector<ElementRun> runs;

  auto operator<=>(const ChunkLayout&) const = default;
};

/// The layout of the `steps` steps after step `completed` of a run of `num_steps` steps whose
/// elements have `cadences`: element e after the steps element_follows(cadences[e], …) names.
ChunkLayout chunk_layout(long completed, int steps, long num_steps, const Cadences& cadences);

/// The body of a graph_loop WHILE node: the steps of `layout` like a chunk, its StepParams<Dims>
/// computed on the device from the step counter (no copy from the host), ending with the kernel
/// that counts the steps and sets the loop's condition (`loop` is read when the program runs,
/// so its condition may be set after the program is built).
template <int Dims, class Real>
StepProgram build_loop_body_program(const StepResources<Dims, Real>& resources, const ChunkLayout& layout,
                                    const LoopControl* loop);

/// The step of the model in `Dims` dimensions: its split passes (2-D: 2, 3-D: 3).
template <int Dims>
using ModelStepScheme = StepSchemeOf<Dims == 3 ? 3 : split_passes>;

/// The step scheme of the model in `Dims` dimensions: step_scheme() or step_scheme_3d().
template <int Dims>
constexpr ModelStepScheme<Dims> model_step_scheme() {
  if constexpr (Dims == 3)
    return step_scheme_3d();
  else
    return step_scheme();
}

/// One step of `scheme` whose kernels read StepParams<Dims> slot `slot`.
template <int Dims, class Real>
StepProgram build_step_program(const StepResources<Dims, Real>& resources, const ModelStepScheme<Dims>& scheme,
                               StepParity parity, int slot);

/// One step of the model's scheme (step_scheme(), step_scheme_3d()) whose kernels read
/// StepParams<Dims> slot `slot`.
template <int Dims, class Real>
StepProgram build_step_program(const StepResources<Dims, Real>& resources, StepParity parity, int slot);

/// A chunk of layout.steps consecutive steps starting with parity layout.first: a Transfer op
/// that refreshes StepParams<Dims> slots [0, steps), then step j reading slot j, followed by the
/// elements layout.runs names after step j. Op names are prefixed "stepJ/" (J = 1..steps).
template <int Dims, class Real>
StepProgram build_chunk_program(const StepResources<Dims, Real>& resources, const ChunkLayout& layout);

}  // namespace simapp
