#pragma once
/// execution.mode persistent and persistent_cluster: one kernel runs a run of steps of the model
/// of `Dims` dimensions. Its blocks stay resident for the whole launch; each stage of each step is the
/// stage kernel's tile work (kernels/stage/stage_tile.hpp) spread over the blocks, every block
/// looping over tiles so that any grid size fits, and the stages are separated by grid-wide
/// barriers. The kernel iterates the step scheme (kernels/time/step_scheme.hpp: 2-D x, z | z, x;
/// 3-D x, y, z | z, y, x), which it receives as data:
///   StepParams<Dims> of the first step into the slot of its parity |
///   for each step n: one thread writes the StepParams<Dims> of step n + 1 into the other slot, then
///     for each pass of n's parity, in the scheme's order: the pass |   (a barrier a pass), or
///     for each pass, for each stage: the stage |                       (a barrier a stage)
///     each step element that follows step n (its cadence, kernels/time/cadence.hpp, global
///     against the schedule's num_steps), in step_elements()'s order: the microphysics (with
///     water): every column | ; the health check: check every cell | count it, stop if failed
///     (with a barrier a pass and no microphysics after the step, each tile of the last pass
///     checks its own cells after it, before that pass's barrier)
/// where | is a grid-wide barrier (on one cluster, the cluster's). With a barrier a pass, each block computes the
/// pass's three stages on its tiles in shared memory (pass_tile.hpp, the state's tracers in the tiles, up to
/// pass_kernel_max_tracers), the passes taking the state through stage1 (and, in 3-D, stage2)
/// back into the state; with a barrier a stage, the stage kernel's tiles (the dry variables),
/// then in the same stage the tracer transport's cells (tracer_transport_cell.hpp: they read the
/// stage's input and write only the output's tracers, which the tiles neither read nor write). The StepParams<Dims> of
/// step n are those of dt or of dt_last (its last step), both worked out for the launch, chosen by the device step
/// counter, never staged by the host a step at a time. The stage kernels' arguments reach the kernel as one constant
/// parameter, as they reach the stage kernels. The ghost cells are made by rule, as the domain's boundary conditions
/// say: the kernel serves one rank holding the whole grid. On one cluster (persistent_cluster) a
/// block holds three teams of 128 threads, each computing a pass tile at a time: a cluster
/// barrier (about 0.5 µs on an H100) in place of a grid barrier (1.1 µs), on 16 of the device's
/// multiprocessors, the state kept in the L2 cache.
#include <cstdint>

#include "kernels/backend/field_view.hpp"
#include "kernels/backend/stream.hpp"
#include "kernels/boundary/boundary_conditions.hpp"
#include "kernels/diagnostics/health_check.hpp"
#include "kernels/hydrostatic/hydrostatic_view.hpp"
#include "kernels/hydrostatic/tracer_background.hpp"
#include "kernels/microphysics/microphysics.hpp"
#include "kernels/physics/cell_geometry.hpp"
#include "kernels/time/loop_clock.hpp"
#include "kernels/time/step_params.hpp"
#include "kernels/update/source_terms.hpp"

namespace simapp {

/// What the persistent kernel reads and writes; all of it device memory but `mirror`. Real: the
/// state's type.
template <int Dims, class Real = double>
struct PersistentSteps {
  FieldView<Real, Dims> state, stage1, stage2;  ///< qⁿ, q*, q**
  CellGeometry<Dims> geometry;
  HydrostaticView background;
  SourceTerms<Dims> sources;
  BoundaryConditions<Dims> boundaries;  ///< the domain's (one rank: no side is exchanged)
  TimeSchedule schedule;                ///< dt of every step
  StepParams<Dims>* params = nullptr;   ///< two slots: odd steps read the first, even steps the second
  LoopClock* clock = nullptr;           ///< steps completed: the kernel starts after them and adds its own
  int check_every = 0;                  ///< execution.check_every; 0: no checks
  HealthRecord* record = nullptr;
  HealthRecord* mirror = nullptr;  ///< pinned host memory
  TracerBackground tracers{};      ///< the tracers' background profiles (the variables after the dry ones)
  /// The water's element (physics.microphysics): after the steps of its cadence (every), before
  /// the health check; every = 0: none.
  MicrophysicsArguments<Dims, Real> microphysics{};
};

/// Where the kernel's blocks are resident: over the whole GPU, every block resident at once and
/// the passes (or stages) separated by grid-wide barriers (execution.mode persistent), or on one
/// thread-block cluster of up to 16 multiprocessors, its passes separated by the cluster's
/// barriers (persistent_cluster: a barrier a pass only).
enum class Residency { grid, cluster };

/// How the kernel is launched on this device: a block per tile at most, no more than fit on
/// the device at once (a grid barrier needs every block resident); on one cluster, a block per
/// cluster_teams tiles, no more than the largest cluster the device runs.
struct PersistentGrid {
  Residency residency = Residency::grid;
  bool barrier_a_pass = false;  ///< the three stages of a pass in one tile (kernels/stage/pass_tile.hpp)
  int block_threads = 0;        ///< grid: 64, 128 or 256 (the tile size: small grids, small tiles); cluster: 384
  int blocks = 0;
  int tiles_at_once = 0;  ///< pass tiles the blocks compute at once (a barrier a pass)
  int multiprocessors = 0;
  int barriers_per_step = 0;  ///< barriers a step: one a pass, or one a stage
};

/// The launch shape for the steps' grid on the current device. `Residency::grid`: a barrier a
/// pass where every tile of a pass has a resident block and the pass tiles make the boundaries'
/// ghost cells (pass_tile_makes), else a barrier a stage. `Residency::cluster`: the pass tiles on
/// one cluster. Throws a bad_input Error naming execution.mode, with the reason, when the device
/// cannot run the kernel (no cooperative launches or clusters; no block fits on a
/// multiprocessor; no cluster), or, on one cluster, the case's ghost cells or tracers are not the
/// pass tiles'; internal without CUDA.
template <int Dims, class Real>
PersistentGrid persistent_grid(const PersistentSteps<Dims, Real>& steps, Residency residency);

/// Runs the `steps` steps after clock->completed in one launch (cooperative, or of one
/// cluster); the kernel
/// advances clock->completed by the steps it ran (fewer when a health check fails: it stops
/// after that check).
template <int Dims, class Real>
void run_persistent_steps(const Stream& stream, const PersistentSteps<Dims, Real>& steps_args,
                          const PersistentGrid& grid, int steps);

}  // namespace simapp
