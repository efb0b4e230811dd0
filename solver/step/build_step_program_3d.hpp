#pragma once
/// The 3-D model's step (grid.ny > 1) as a StepProgram: the passes of step_scheme_3d() for the
/// step's parity (x, y, z | z, y, x), each RK3 stage in the kernels of the run's granularity
/// (the 2-D model's three, built the same way and named as it names them: "y.stage2.stage",
/// "y.stage2.fluxes", "y.stage2.flux.vmom"), so executors and graphs take the program as they
/// take a 2-D one:
///   stage: one stage kernel (kernels/stage/stage_kernel_3d.hpp) that makes the ghost cells by
///          rule as it loads a tile (x and y periodic or an inflow, z walls);
///   fused: the ghost cells filled in memory, then fluxes, then tendency and update
///          (kernels/boundary/halo_fill.hpp, kernels/flux/fluxes_3d.hpp,
///          kernels/update/tendency_update_3d.hpp);
///   fine:  the fused kernels split per variable, variable v on lane v, joined where a kernel
///          reads other variables.
/// On the sides between ranks, the stage's input is exchanged along the pass's direction before
/// the stage (a pass reads ghosts along its own direction only); with parallel.overlap, the
/// stage and fused granularities update the cells (or fluxes) that read no ghost while halos
/// travel, as the 2-D model does.
#include "kernels/backend/field_view.hpp"
#include "kernels/boundary/boundary_conditions.hpp"
#include "kernels/flux/tracer_flux.hpp"
#include "kernels/hydrostatic/hydrostatic_view.hpp"
#include "kernels/physics/bump.hpp"
#include "kernels/physics/cell_geometry.hpp"
#include "kernels/time/step_params.hpp"
#include "kernels/time/step_scheme.hpp"
#include "solver/state/workspace.hpp"
#include "solver/step/build_step_program.hpp"
#include "solver/step/step_params_block.hpp"
#include "solver/step/step_program.hpp"

namespace simapp {

/// The halo exchanges of a rank's 3-D step: how messages travel, and the exchange of each
/// direction split between ranks (null where it is not, and in programs only described).
struct HaloExchanges3d {
  HaloPath path = HaloPath::mpi;
  const HaloExchange* x = nullptr;
  const HaloExchange* y = nullptr;
  const HaloExchange* z = nullptr;

  const HaloExchange* along(Direction direction) const {
    return direction == Direction::x ? x : direction == Direction::y ? y : z;
  }
};

/// Whether some ghost cells of the passes along `direction` come from neighbour ranks.
bool exchanges_along(const BoundaryConditions<3>& sides, Direction direction);

/// What the 3-D step's ops need; the arrays and params must outlive the programs built from it.
struct StepResources3d {
  StepFields<3> fields;  ///< the arrays of `granularity` (step_field_shapes_3d)
  CellGeometry<3> geometry;
  HydrostaticView background;
  const StepParamsBlock3d* params = nullptr;  ///< the slots the steps of a chunk read
  Bump<3> wave_source;                        ///< the gravity_waves forcing; none in every other case
  Granularity granularity = Granularity::stage;
  /// The domain's sides: every rank's steps hold the same ops (an inflow op on a rank away from
  /// the inflow side leaves its ghosts alone), so they chunk their steps alike.
  BoundaryConditions<3> domain;
  BoundaryConditions<3> sides;  ///< this rank's (rank_boundaries)
  HealthCheckOps health;
  HaloExchanges3d halos;       ///< where sides are exchanged
  bool overlap = false;        ///< parallel.overlap: work that reads no ghost runs while halos travel
  TracerBackground tracers{};  ///< the tracers' background profiles (solver/step/tracer_ops.hpp); none without tracers
};

/// The step of parity `parity` reading the StepParams<3> of slot `slot`.
StepProgram build_step_program_3d(const StepResources3d& resources, StepParity parity, int slot);

/// A chunk of the 3-D model's steps as `layout` lays them out (build_chunk_program's 2-D
/// counterpart): the copy of the staged StepParams<3> slots to the device, then the steps, step j
/// reading slot j, each step `layout.checked` names followed by the health check (check_health_3d)
/// and its count.
StepProgram build_chunk_program_3d(const StepResources3d& resources, const ChunkLayout& layout);

/// The body of a graph_loop WHILE node for the 3-D model (build_loop_body_program's
/// counterpart): StepParams<3> of its steps computed on the device from the loop clock, the steps
/// and checks of `layout`, then the count that sets the node's condition.
StepProgram build_loop_body_program_3d(const StepResources3d& resources, const ChunkLayout& layout,
                                       const LoopControl* loop);

}  // namespace simapp
