#pragma once
/// execution.mode persistent for the 3-D model (grid.ny > 1): one cooperative kernel runs a run
/// of steps, as the 2-D model's does (persistent_steps.hpp), iterating the 3-D step scheme
/// (step_scheme_3d: x, y, z | z, y, x) which it receives as data:
///   StepParams<3> of the first step into the slot of its parity |
///   for each step n: one thread writes the StepParams<3> of step n + 1 into the other slot, then
///     for each pass of n's parity, in the scheme's order: the pass |   (a barrier a pass), or
///     for each pass, for each stage: the stage |                       (a barrier a stage)
///     the health check where the scheme's checks_after says: check every cell | count it
/// where | is a grid-wide barrier. With a barrier a pass, each block computes the pass's three
/// stages on its tiles in shared memory (pass_tile_3d.hpp), the passes taking the state through
/// stage1 and stage2 back into the state; with a barrier a stage, the 3-D stage kernel's tiles
/// (stage_tile_3d.hpp). The kernel serves one rank holding the whole grid.
#include "kernels/backend/field_view.hpp"
#include "kernels/backend/stream.hpp"
#include "kernels/boundary/boundary_conditions.hpp"
#include "kernels/diagnostics/health_check.hpp"
#include "kernels/hydrostatic/hydrostatic_view.hpp"
#include "kernels/physics/bump.hpp"
#include "kernels/physics/cell_geometry.hpp"
#include "kernels/stage/persistent_steps.hpp"
#include "kernels/time/loop_clock.hpp"
#include "kernels/time/step_params.hpp"

namespace simapp {

/// What the 3-D persistent kernel reads and writes; all of it device memory but `mirror`.
struct PersistentSteps3d {
  FieldView<double, 3> state, stage1, stage2;  ///< qⁿ, q*, q**
  CellGeometry<3> geometry;
  HydrostaticView background;
  Bump<3> wave_source;
  BoundaryConditions<3> boundaries;  ///< the domain's (one rank: no side is exchanged)
  TimeSchedule schedule;             ///< dt of every step, and dx, dy, dz
  StepParams<3>* params = nullptr;   ///< two slots: odd steps read the first, even steps the second
  LoopClock* clock = nullptr;        ///< steps completed: the kernel starts after them and adds its own
  int check_every = 0;               ///< execution.check_every; 0: no checks
  HealthRecord* record = nullptr;
  HealthRecord* mirror = nullptr;  ///< pinned host memory
};

/// The launch shape for the steps' grid on the current device (persistent_grid's rule for the
/// 2-D model: a barrier a pass where every pass tile has a resident block and the pass tiles
/// make the boundaries' ghost cells, else a barrier a stage).
PersistentGrid persistent_grid(const PersistentSteps3d& steps);

/// Runs the `steps` steps after clock->completed in one cooperative launch; the kernel advances
/// clock->completed by the steps it ran (fewer when a health check fails).
void run_persistent_steps(const Stream& stream, const PersistentSteps3d& steps_args, const PersistentGrid& grid,
                          int steps);

}  // namespace simapp
