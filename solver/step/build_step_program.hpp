#pragma once
/// Builds the StepPrograms of the dry-atmosphere step (docs/model.md, "Time stepping") from
/// the StepScheme (kernels/time/step_scheme.hpp): for each split pass of the step's parity in
/// the scheme's order, for each of its RK3 stages
///   q* = qⁿ + dt/3 R(qⁿ),  q** = qⁿ + dt/2 R(q*),  qⁿ⁺¹ = qⁿ + dt R(q**),
/// fill halos of the stage's input, face fluxes, tendency and update. Granularity decides how
/// the stage is cut into kernels:
///   fused: fill_halos, fluxes, update                                   (3 kernels a stage)
///   fine:  per variable fill_halos, reconstruct, flux, tendency, update (20 kernels a stage)
///   stage: one kernel, ghost cells made inside it                       (1 kernel a stage)
#include <compare>
#include <functional>
#include <string>
#include <vector>

#include "kernels/boundary/boundary_conditions.hpp"
#include "kernels/diagnostics/health_check.hpp"
#include "kernels/flux/tracer_flux.hpp"
#include "kernels/hydrostatic/hydrostatic_view.hpp"
#include "kernels/physics/bump.hpp"
#include "kernels/physics/cell_geometry.hpp"
#include "kernels/time/loop_clock.hpp"
#include "kernels/time/step_scheme.hpp"
#include "solver/halo/halo_path.hpp"
#include "solver/spec/execution_mode.hpp"
#include "solver/state/workspace.hpp"
#include "solver/step/step_params_block.hpp"
#include "solver/step/step_program.hpp"

namespace simapp {

class HaloExchange;

/// How this rank gets its ghost cells: each side's condition (the domain's, or exchanged with
/// a neighbour rank), and for the exchanged sides how the messages travel.
struct GhostFill {
  /// The domain's sides: every rank's steps hold the same ops (an inflow op on a rank away
  /// from the inflow side leaves its ghosts alone), so they chunk their steps alike.
  BoundaryConditions<2> domain;
  BoundaryConditions<2> sides;      ///< this rank's sides (rank_boundaries)
  HaloPath path = HaloPath::mpi;    ///< how halo messages travel
  bool overlap = false;             ///< interior fluxes run while halos travel (fused)
  const HaloExchange* x = nullptr;  ///< null in programs that are only described
  const HaloExchange* z = nullptr;

  /// Some ghost cells of the passes along `direction` come from neighbour ranks.
  bool exchanges(Direction direction) const {
    return sides.side(direction, Side::low).from_neighbour() || sides.side(direction, Side::high).from_neighbour();
  }
};

/// Whether the steps of a rank that fills its ghosts so have Host ops: halo messages that the
/// host exchanges (MPI), in a direction split between ranks.
inline bool exchanges_halos_on_host(const GhostFill& fill) {
  return exchanges_on_host(fill.path) && (fill.exchanges(Direction::x) || fill.exchanges(Direction::z));
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
/// exchanges may be null for a program that is only described, never run.
struct StepResources {
  StepFields<2> fields;
  CellGeometry<2> geometry;
  HydrostaticView background;
  const StepParamsBlock* params = nullptr;
  Bump<2> wave_source;  ///< the gravity_waves forcing (gravity_wave_source); none in every other case
  Granularity granularity = Granularity::fused;
  GhostFill halo;
  HealthCheckOps health;
  TracerBackground tracers{};  ///< the tracers' background profiles (solver/step/tracer_ops.hpp); none without tracers
};

/// What tells chunk programs apart: the parity of the first step, the number of steps and
/// those of them (0-based, ascending) the health check follows. Chunks of one layout are one
/// program, so one set of graphs in graph mode, wherever in the run they start.
struct ChunkLayout {
  StepParity first = StepParity::odd;
  int steps = 0;
  std::vector<int> checked;

  auto operator<=>(const ChunkLayout&) const = default;
};

/// The layout of the `steps` steps after step `completed` of a run of `num_steps` steps checked
/// every `check_every` steps: checked where the step scheme's checks_after says.
ChunkLayout chunk_layout(long completed, int steps, long num_steps, int check_every);

/// Appends the steps of `layout` to `chunk` (either model's): step j, of the parity the layout
/// gives it, is `step_of(parity, j)` (reading slot j), named "step<j+1>/…", and followed by
/// `add_check(prefix, step)` where layout.checked holds j.
void add_chunk_steps(StepProgram& chunk, const ChunkLayout& layout,
                     const std::function<StepProgram(StepParity, int)>& step_of,
                     const std::function<void(const std::string&, const StepProgram&)>& add_check);

/// The body of a graph_loop WHILE node: the steps of `layout` like a chunk, its StepParams<2>
/// computed on the device from the step counter (no copy from the host), ending with the kernel
/// that counts the steps and sets the loop's condition (`loop` is read when the program runs,
/// so its condition may be set after the program is built).
StepProgram build_loop_body_program(const StepResources& resources, const ChunkLayout& layout, const LoopControl* loop);

/// One step of `scheme` whose kernels read StepParams<2> slot `slot`.
StepProgram build_step_program(const StepResources& resources, const StepScheme& scheme, StepParity parity, int slot);

/// One step of the model's scheme (step_scheme()) whose kernels read StepParams<2> slot `slot`.
StepProgram build_step_program(const StepResources& resources, StepParity parity, int slot);

/// A chunk of layout.steps consecutive steps starting with parity layout.first: a Transfer op
/// that refreshes StepParams<2> slots [0, steps), then step j reading slot j, followed by the
/// health check where layout.checked holds j. Op names are prefixed "stepJ/" (J = 1..steps).
StepProgram build_chunk_program(const StepResources& resources, const ChunkLayout& layout);

}  // namespace simapp
