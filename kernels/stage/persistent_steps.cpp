#include "kernels/stage/persistent_steps.hpp"

#include <algorithm>

#include "foundation/error.hpp"
#include "kernels/backend/launch_counter.hpp"

#if defined(__CUDACC__)
#include "kernels/backend/parallel_for_tiles_cuda.cuh"
#include "kernels/boundary/stage_input_by_rule.hpp"
#include "kernels/stage/pass_kernel.hpp"
#include "kernels/stage/pass_tile.hpp"
#include "kernels/stage/persistent_health_check.cuh"
#include "kernels/stage/persistent_loop.cuh"
#include "kernels/stage/persistent_microphysics.cuh"
#include "kernels/stage/stage_tile.hpp"
#include "kernels/time/step_scheme.hpp"
#include "kernels/update/tracer_transport_cell.hpp"
#endif

namespace simapp {

#if defined(__CUDACC__)

namespace {

using namespace persistent;

/// The step scheme of the model of `Dims` dimensions: a pass a direction.
template <int Dims>
using Scheme = StepSchemeOf<Dims>;

/// step_scheme() in 2-D, step_scheme_3d() in 3-D.
template <int Dims>
constexpr Scheme<Dims> scheme_of() {
  if constexpr (Dims == 3)
    return step_scheme_3d();
  else
    return step_scheme();
}

/// One `Of<D>` for each direction D of the model of `Dims` dimensions, the members x, (y,) z in
/// that order (the layout of the kernel's parameter); member_of<D> names one.
template <int Dims, template <Direction> class Of>
struct ByDirection {
  Of<Direction::x> x;
  Of<Direction::y> y;
  Of<Direction::z> z;
};

template <template <Direction> class Of>
struct ByDirection<2, Of> {
  Of<Direction::x> x;
  Of<Direction::z> z;
};

/// A block's shared memory: the tile `Of<D>` of one pass at a time.
template <int Dims, template <Direction> class Of>
union EitherDirection {
  Of<Direction::x> x;
  Of<Direction::y> y;
  Of<Direction::z> z;
};

template <template <Direction> class Of>
union EitherDirection<2, Of> {
  Of<Direction::x> x;
  Of<Direction::z> z;
};

/// The member of a ByDirection or EitherDirection that holds direction D.
template <Direction D, class Members>
__host__ __device__ auto& member_of(Members& members) {
  if constexpr (D == Direction::x)
    return members.x;
  else if constexpr (D == Direction::y)
    return members.y;
  else
    return members.z;
}

/// f(std::integral_constant<Direction, D>) for the direction of a pass in the kernel: in 2-D x,
/// else z (a two-way branch: with_direction_of's switch compiles to other code), in 3-D
/// with_direction_of.
template <int Dims, class F>
__device__ void with_pass_direction(Direction direction, const F& f) {
  if constexpr (Dims == 2) {
    if (direction == Direction::x)
      f(std::integral_constant<Direction, Direction::x>{});
    else
      f(std::integral_constant<Direction, Direction::z>{});
  } else {
    with_direction_of<Dims>(direction, f);
  }
}

/// The device elements a kernel has: the health check, after the microphysics in a kernel for a
/// state that may hold water (the microphysics' cadence, 0 without water, says whether it runs).
enum class DeviceElements { health_check, microphysics_and_health_check };

/// Where the cells of the health check are checked: by each tile of the step's last pass (a
/// barrier a pass), or in a sweep of their own after the step.
enum class CellsChecked { by_pass_tiles, by_sweep };

/// The loop over a launch's steps (run_steps) with the elements that follow a step, in
/// step_elements()'s order (solver/step/step_elements.cpp): the microphysics (`Elements`), then
/// the health check, each ending with a barrier of `grid` (the kernel's blocks: cg::grid_group,
/// or cg::cluster_group, of `BlockWarps` warps at most). `step_body(parity, check_cells)` runs a
/// step's passes; with `by_pass_tiles` each tile of its last pass checks its own cells
/// (`check_cells`) where the health check follows the step and no microphysics does (the
/// microphysics changes the cells after the pass), and the check only counts them. An element of
/// the persistent kernel is one more argument here.
template <int Dims, class Real, DeviceElements Elements, int BlockWarps, class Group, class Step>
__device__ void run_model_steps(const PersistentSteps<Dims, Real>& p, const StepValues<StepParams<Dims>>& values,
                                int steps, Group& grid, CellsChecked checked, const Step& step_body) {
  constexpr bool microphysics = Elements == DeviceElements::microphysics_and_health_check;
  bool cells_checked = false;  // by the tiles of this step's last pass
  const auto body = [&](StepParity parity, const auto& follows) {
    const bool health_check = follows[microphysics ? 1 : 0];
    cells_checked = checked == CellsChecked::by_pass_tiles && health_check && !(microphysics && follows[0]);
    step_body(parity, cells_checked);
  };
  const HealthCheckElement<Dims, Real, Group> health{p, grid, cells_checked};
  if constexpr (microphysics)
    run_steps(p, values, steps, grid, body, MicrophysicsElement<Dims, Real, Group, BlockWarps>{p, grid}, health);
  else
    run_steps(p, values, steps, grid, body, health);
}

/// The StepParams<Dims> of a step of each of the schedule's lengths.
template <int Dims>
StepValues<StepParams<Dims>> step_values(const TimeSchedule& s) {
  return StepValues<StepParams<Dims>>::of(s, [&](double dt) {
    if constexpr (Dims == 3)
      return step_params(dt, s.dx, s.dy, s.dz, s.dissipation);
    else
      return step_params(dt, s.dx, s.dz, s.dissipation);
  });
}

// ---- A barrier a stage: the stage kernel's tiles ----

/// The plane a stage of the pass along D tiles (2-D: (i, k); 3-D x, y: (i, j), z: (i, k)) and
/// its layers (2-D: one).
template <Direction D, int Dims>
__host__ __device__ IndexBox stage_plane(const FieldShape<Dims>& s) {
  return Dims == 2 || D == Direction::z ? IndexBox{0, s.nx, 0, s.nz} : IndexBox{0, s.nx, 0, s.ny};
}
template <Direction D, int Dims>
__host__ __device__ int stage_layers(const FieldShape<Dims>& s) {
  if constexpr (Dims == 2)
    return 1;
  else
    return D == Direction::z ? s.ny : s.nz;
}

template <Direction D, int Dims, int Threads>
__host__ __device__ int stage_tiles(const FieldShape<Dims>& s) {
  using Kernel = StageKernel<D, Dims, double, Threads>;  // its tile's shape: the same for either type
  const IndexBox plane = stage_plane<D>(s);
  return tile_count(plane.width(), Kernel::tile_x) * tile_count(plane.height(), Kernel::tile_z) * stage_layers<D>(s);
}

/// Slots<D>: the stage kernels along D, per StepParams slot and RK3 stage; Tile<D>: their tile.
template <int Dims, class Real, int Threads>
struct StagesOf {
  template <Direction D>
  using Slots = StageKernel<D, Dims, Real, Threads>[2][rk_stages];
  template <Direction D>
  using Tile = typename StageKernel<D, Dims, Real, Threads>::Tile;
};

/// What a kernel with a barrier a stage does for the variables after the dry ones: nothing (a state
/// without tracers), or the tracer transport's cells in every stage (and the microphysics).
enum class StageTracers { none, transported };

/// The kernel's parameter: the step scheme, the steps' arguments and every stage kernel, per
/// StepParams slot (parity_index of the step's parity) and RK3 stage.
template <int Dims, class Real, int Threads>
struct PersistentStages {
  Scheme<Dims> scheme;
  PersistentSteps<Dims, Real> steps;
  StepValues<StepParams<Dims>> step_values;
  ByDirection<Dims, StagesOf<Dims, Real, Threads>::template Slots> stages;
};

template <int Dims, class Real, int Threads>
using SharedStageTile = EitherDirection<Dims, StagesOf<Dims, Real, Threads>::template Tile>;

/// One stage over every tile of the grid, the blocks taking tiles in turn.
template <Direction D, int Dims, class Real, int Threads>
__device__ void stage_over_tiles(const StageKernel<D, Dims, Real, Threads>& kernel,
                                 SharedStageTile<Dims, Real, Threads>& shared) {
  using Kernel = StageKernel<D, Dims, Real, Threads>;
  const IndexBox plane = stage_plane<D>(kernel.arrays.shape);
  const int tiles_x = tile_count(plane.width(), Kernel::tile_x);
  const int tiles_plane = tiles_x * tile_count(plane.height(), Kernel::tile_z);
  const int tiles = tiles_plane * stage_layers<D>(kernel.arrays.shape);
  const int a0 = static_cast<int>(threadIdx.x) % tile_threads_x<Kernel>;
  const int b0 = static_cast<int>(threadIdx.x) / tile_threads_x<Kernel>;
  for (int t = static_cast<int>(blockIdx.x); t < tiles; t += static_cast<int>(gridDim.x)) {
    if constexpr (Dims == 3) {
      const int in_plane = t % tiles_plane;
      const LayerTileOrigin origin{
          tile_origin(plane, in_plane % tiles_x, in_plane / tiles_x, Kernel::tile_x, Kernel::tile_z), t / tiles_plane};
      run_tile_in_block(kernel, member_of<D>(shared), origin, a0, b0);
    } else {
      run_tile_in_block(kernel, member_of<D>(shared),
                        tile_origin(plane, t % tiles_x, t / tiles_x, Kernel::tile_x, Kernel::tile_z), a0, b0);
    }
  }
}

/// The tracer transport of `stage` (tracer_transport_cell.hpp) at every interior cell, the grid's
/// threads taking the cells in turn, the ghost cells of the stage's input made by rule (no fill
/// kernel runs). It reads the stage's input and qⁿ's tracers and writes the output's tracers; the
/// stage's tiles read the input and qⁿ's dry variables and write the output's: no barrier between
/// them (the output is never the input; where it is qⁿ, a cell's tracers are read and written by
/// one thread).
template <Direction D, int Dims, class Real, int Threads>
__device__ void tracers_over_cells(const StageKernel<D, Dims, Real, Threads>& stage,
                                   const TracerBackground& background) {
  const StageArrays<Real, Dims>& arrays = stage.arrays;
  const FieldShape<Dims>& shape = arrays.shape;
  const StageInputByRule<D, Dims, Real> forcing{
      {arrays.forcing, shape}, stage.sides, stage.context.background, stage.context.geometry};
  const FieldView<const Real, Dims> init{arrays.init, shape};
  const FieldView<Real, Dims> out{arrays.out, shape};
  const VarRange tracers{ModelVariables<Dims>::count, shape.num_vars};
  const long layer = static_cast<long>(shape.nx) * shape.ny;
  const long cells = layer * shape.nz;
  const long stride = static_cast<long>(gridDim.x) * blockDim.x;
  for (long c = static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x; c < cells; c += stride)
    transport_tracers_at<D>(forcing, init, out, tracers, stage.context, background, static_cast<int>(c % shape.nx),
                            static_cast<int>(c % layer / shape.nx), static_cast<int>(c / layer));
}

/// One stage over every tile, with `Tracers` also the tracers' transport over every cell.
template <StageTracers Tracers, Direction D, int Dims, class Real, int Threads>
__device__ void stage_over_grid(const StageKernel<D, Dims, Real, Threads>& stage, const TracerBackground& background,
                                SharedStageTile<Dims, Real, Threads>& shared) {
  stage_over_tiles(stage, shared);
  if constexpr (Tracers == StageTracers::transported) tracers_over_cells(stage, background);
}

/// The three RK3 stages of a pass along `direction`, each over the grid, then a grid barrier.
/// The 2-D kernel branches on the direction at each stage, the 3-D one once a pass: the code
/// each kernel has always had (either form compiles to other code for the other dimension).
template <StageTracers Tracers, int Dims, class Real, int Threads>
__device__ void stages_of_pass(const PersistentStages<Dims, Real, Threads>& k, Direction direction, int slot,
                               SharedStageTile<Dims, Real, Threads>& shared, cg::grid_group& grid) {
  const TracerBackground& background = k.steps.tracers;
  if constexpr (Dims == 2) {
#pragma unroll
    for (int s = 0; s < rk_stages; ++s) {
      with_pass_direction<Dims>(direction, [&](auto d) {
        stage_over_grid<Tracers>(member_of<decltype(d)::value>(k.stages)[slot][s], background, shared);
      });
      grid.sync();
    }
  } else {
    with_pass_direction<Dims>(direction, [&](auto d) {
#pragma unroll
      for (int s = 0; s < rk_stages; ++s) {
        stage_over_grid<Tracers>(member_of<decltype(d)::value>(k.stages)[slot][s], background, shared);
        grid.sync();
      }
    });
  }
}

/// The device elements of a kernel with a barrier a stage: the microphysics where it transports tracers.
template <StageTracers Tracers>
inline constexpr DeviceElements stage_kernel_elements =
    Tracers == StageTracers::transported ? DeviceElements::microphysics_and_health_check : DeviceElements::health_check;

/// One barrier a stage: for each pass of the step's order, for each RK3 stage, the stage over
/// every tile (and the tracers over every cell), then a grid barrier.
template <int Dims, class Real, int Threads, StageTracers Tracers>
__global__ void __launch_bounds__(Threads, min_blocks_per_sm<Threads>)
    persistent_stages_kernel(const __grid_constant__ PersistentStages<Dims, Real, Threads> k, int steps) {
  __shared__ SharedStageTile<Dims, Real, Threads> shared;
  cg::grid_group grid = cg::this_grid();
  run_model_steps<Dims, Real, stage_kernel_elements<Tracers>, Threads / warp_threads>(
      k.steps, k.step_values, steps, grid, CellsChecked::by_sweep, [&](StepParity parity, bool) {
        const int slot = parity_index(parity);
        for (int p = 0; p < Scheme<Dims>::passes; ++p)
          stages_of_pass<Tracers>(k, k.scheme.pass(parity, p), slot, shared, grid);
      });
}

/// The stage kernels of slot `slot`, each reading and writing the arrays the scheme's stage
/// names (qⁿ → q* → q** → qⁿ⁺¹) and the slot's StepParams<Dims>.
template <Direction D, int Dims, class Real, int Threads>
void make_stages(const Scheme<Dims>& scheme, const PersistentSteps<Dims, Real>& p, int slot,
                 StageKernel<D, Dims, Real, Threads> (&stages)[rk_stages]) {
  const auto array = [&](StageArray which) { return stage_array(which, p.state, p.stage1, p.stage2); };
  for (int s = 0; s < rk_stages; ++s)
    stages[s] = {{},
                 stage_arrays(p.state, array(scheme.stages[s].input), array(scheme.stages[s].output)),
                 FluxContext<Dims>{p.geometry, p.background, p.params + slot, s},
                 p.sources,
                 p.boundaries};
}

// ---- A barrier a pass: the pass tiles ----

/// The persistent kernel's pass tile along D: the default shape of `Threads` threads
/// (PassTileShape), carrying `Tracers` tracers after the dry variables.
template <Direction D, int Dims, class Real, int Threads, int Tracers>
using PersistentPassTile = PassTile<D, Dims, Real, Threads, PassTileShape<D == Direction::x, Threads>::lines,
                                    PassTileShape<D == Direction::x, Threads>::cells, Tracers>;

/// Slots<D>: the pass tiles along D, per StepParams slot; Tile<D>: their tile.
template <int Dims, class Real, int Threads, int Tracers>
struct PassesOf {
  template <Direction D>
  using Slots = PersistentPassTile<D, Dims, Real, Threads, Tracers>[2];
  template <Direction D>
  using Tile = typename PersistentPassTile<D, Dims, Real, Threads, Tracers>::Tile;
};

/// The kernel's parameter with a barrier a pass: the step scheme, and per StepParams slot a pass
/// of each direction; pass p of a step reads the array pass p − 1 wrote (state → stage1 (→
/// stage2) → state).
template <int Dims, class Real, int Threads, int Tracers>
struct PersistentPasses {
  Scheme<Dims> scheme;
  PersistentSteps<Dims, Real> steps;
  StepValues<StepParams<Dims>> step_values;
  ByDirection<Dims, PassesOf<Dims, Real, Threads, Tracers>::template Slots> passes;
};

/// A block's shared memory with a barrier a pass: with 4 tracers up to 42048 B (the 3-D z pass's
/// 8 lines × 19 positions, 3 stages and 16 faces, of 9 variables), within the 48 KB of static
/// shared memory.
template <int Dims, class Real, int Threads, int Tracers>
using SharedPassTile = EitherDirection<Dims, PassesOf<Dims, Real, Threads, Tracers>::template Tile>;

/// A team of threads that computes pass tiles together: team `index` of `count` takes tiles
/// index, index + count, …; `thread` is its thread's place in it, and `sync()` its barrier (the
/// grid kernel's teams are its blocks; the cluster kernel's blocks hold cluster_teams teams each).
template <class Sync>
struct TileTeam {
  int index, count, thread;
  Sync sync;
};

/// A split pass, its three stages tile by tile in shared memory (with `check_into`, each tile's
/// output cells checked after), the team's tiles in turn, then a barrier of the kernel's blocks.
template <class Pass, class Shared, class Team, class Group>
__device__ void fused_pass(const Pass& pass, HealthRecord* check_into, Shared& shared, const Team& team, Group& grid) {
  typename Pass::Tile& tile = member_of<Pass::direction>(shared);
  const int tiles = pass.tile_count();
  for (int t = team.index; t < tiles; t += team.count) {
    pass.run(tile, t, team.thread, Pass::threads, team.sync);
    if (check_into != nullptr) pass.check_output(t, team.thread, Pass::threads, check_into);
  }
  grid.sync();
}

/// Blocks of the pass kernel a multiprocessor holds at least. 3-D: up to 168 registers a thread:
/// left to itself the compiler gives the tiles' paired loads 173 registers, two blocks a
/// multiprocessor, too few for the 288 tiles of 48 × 24 × 10 on 132 multiprocessors.
template <int Dims>
inline constexpr int pass_blocks_per_sm = Dims == 3 ? 3 : min_blocks_per_sm<pass_threads>;

/// The device elements of a kernel with a barrier a pass: the microphysics where the tiles carry
/// the water's tracers.
template <int Tracers>
inline constexpr DeviceElements pass_kernel_elements =
    Tracers >= water_tracers ? DeviceElements::microphysics_and_health_check : DeviceElements::health_check;

/// The steps of a kernel with a barrier a pass, `team` computing its tiles in `shared`, `grid` the
/// kernel's blocks (of `BlockWarps` warps).
template <int BlockWarps, int Dims, class Real, int Threads, int Tracers, class Group, class Team>
__device__ void run_pass_steps(const PersistentPasses<Dims, Real, Threads, Tracers>& k, int steps, Group& grid,
                               SharedPassTile<Dims, Real, Threads, Tracers>& shared, const Team& team) {
  run_model_steps<Dims, Real, pass_kernel_elements<Tracers>, BlockWarps>(
      k.steps, k.step_values, steps, grid, CellsChecked::by_pass_tiles, [&](StepParity parity, bool check_cells) {
        const int slot = parity_index(parity);
        for (int p = 0; p < Scheme<Dims>::passes; ++p)
          with_pass_direction<Dims>(k.scheme.pass(parity, p), [&](auto d) {
            HealthRecord* check_into = check_cells && p == Scheme<Dims>::passes - 1 ? k.steps.record : nullptr;
            fused_pass(member_of<decltype(d)::value>(k.passes)[slot], check_into, shared, team, grid);
          });
      });
}

/// One barrier a pass over the whole GPU: the pass tiles, with `Tracers` tracers, a block a tile
/// at a time, grid barriers.
template <int Dims, class Real, int Threads, int Tracers>
__global__ void __launch_bounds__(Threads, pass_blocks_per_sm<Dims>)
    persistent_passes_kernel(const __grid_constant__ PersistentPasses<Dims, Real, Threads, Tracers> k, int steps) {
  __shared__ SharedPassTile<Dims, Real, Threads, Tracers> shared;
  cg::grid_group grid = cg::this_grid();
  const auto block_barrier = [] { __syncthreads(); };
  const int block = static_cast<int>(blockIdx.x);
  run_pass_steps<Threads / warp_threads>(
      k, steps, grid, shared,
      TileTeam<decltype(block_barrier)>{block, static_cast<int>(gridDim.x), static_cast<int>(threadIdx.x),
                                        block_barrier});
}

/// One barrier a pass on one thread-block cluster (execution.mode persistent_cluster): each block
/// holds cluster_teams teams of `Threads` threads, each computing a tile at a time in its own
/// shared memory (dynamic: cluster_teams tiles) and meeting at a named barrier of its own (1, 2,
/// …; 0 is the block's); the teams take tiles across the blocks first (team w of block b is team
/// w × blocks + b), so that a pass of fewer tiles than teams spreads over the multiprocessors; the
/// passes are separated by cluster barriers.
template <int Dims, class Real, int Threads, int Tracers>
__global__ void __launch_bounds__(Threads* cluster_teams, 1)
    cluster_passes_kernel(const __grid_constant__ PersistentPasses<Dims, Real, Threads, Tracers> k, int steps) {
  extern __shared__ __align__(16) unsigned char team_tiles[];
  using Shared = SharedPassTile<Dims, Real, Threads, Tracers>;
  const int team = static_cast<int>(threadIdx.x) / Threads;
  cg::cluster_group cluster = cg::this_cluster();
  const auto team_barrier = [team] { asm volatile("bar.sync %0, %1;" ::"r"(team + 1), "n"(Threads) : "memory"); };
  run_pass_steps<cluster_teams * Threads / warp_threads>(
      k, steps, cluster, reinterpret_cast<Shared*>(team_tiles)[team],
      TileTeam<decltype(team_barrier)>{team * static_cast<int>(gridDim.x) + static_cast<int>(blockIdx.x),
                                       cluster_teams * static_cast<int>(gridDim.x),
                                       static_cast<int>(threadIdx.x) % Threads, team_barrier});
}

/// The passes of a step of parity `parity`, in its StepParams slot: pass p reads the array
/// pass p − 1 wrote (state → stage1 (→ stage2) → state); a pass tile holds its stages itself.
template <int Dims, class Real, int Threads, int Tracers>
void make_passes(const Scheme<Dims>& scheme, const PersistentSteps<Dims, Real>& p, StepParity parity,
                 PersistentPasses<Dims, Real, Threads, Tracers>& kernels) {
  constexpr int passes = Scheme<Dims>::passes;
  const int slot = parity_index(parity);
  const FieldView<Real, Dims> arrays[] = {p.state, p.stage1, p.stage2};
  for (int n = 0; n < passes; ++n)
    with_direction_of<Dims>(scheme.pass(parity, n), [&](auto d) {
      constexpr Direction D = decltype(d)::value;
      auto& pass = member_of<D>(kernels.passes)[slot];
      set_pass(pass, arrays[n], arrays[(n + 1) % passes], p.geometry, p.background, p.params + slot, p.sources);
      if constexpr (Tracers > 0) pass.tracer_background = p.tracers;
    });
}

/// The largest of `tiles(d)` over the model's directions, d an std::integral_constant<Direction, D>.
template <int Dims, class Tiles>
int most_tiles(const Tiles& tiles) {
  constexpr std::integral_constant<Direction, Direction::x> x;
  constexpr std::integral_constant<Direction, Direction::y> y;
  constexpr std::integral_constant<Direction, Direction::z> z;
  if constexpr (Dims == 3)
    return std::max({tiles(x), tiles(y), tiles(z)});
  else
    return std::max(tiles(x), tiles(z));
}

template <int Dims, int Threads>
int pass_tiles(const FieldShape<Dims>& shape) {
  return most_tiles<Dims>([&](auto d) {
    PassTile<decltype(d)::value, Dims, double, Threads> pass{};  // the tiles' count: the same for either type
    pass.input.shape = shape;
    return pass.tile_count();
  });
}

template <int Dims, int Threads>
int tiles_of_largest_stage(const FieldShape<Dims>& shape) {
  return most_tiles<Dims>([&](auto d) { return stage_tiles<decltype(d)::value, Dims, Threads>(shape); });
}

/// Tracers after the dry variables of the kernel's state.
template <int Dims, class Real>
int tracers_of(const PersistentSteps<Dims, Real>& steps) {
  return steps.state.shape.num_vars - ModelVariables<Dims>::count;
}

/// The kernel with a barrier a stage of `threads` (an std::integral_constant) for the steps' state.
template <int Dims, class Real, class Threads>
const void* stages_kernel(const PersistentSteps<Dims, Real>& steps, Threads) {
  if (tracers_of(steps) > 0)
    return reinterpret_cast<const void*>(
        persistent_stages_kernel<Dims, Real, Threads::value, StageTracers::transported>);
  return reinterpret_cast<const void*>(persistent_stages_kernel<Dims, Real, Threads::value, StageTracers::none>);
}

/// The cluster kernel's dynamic shared memory: cluster_teams tiles.
template <int Dims, class Real, int Tracers>
constexpr std::size_t cluster_shared_bytes = cluster_teams * sizeof(SharedPassTile<Dims, Real, pass_threads, Tracers>);

}  // namespace

template <int Dims, class Real>
PersistentGrid persistent_grid(const PersistentSteps<Dims, Real>& steps, Residency residency) {
  const FieldShape<Dims>& shape = steps.state.shape;
  const int tracers = tracers_of(steps);
  const bool pass_tiles_serve = pass_tile_makes(steps.boundaries) && pass_kernel_carries(tracers);
  if (residency == Residency::cluster) {
    if (!pass_tiles_serve)
      refuse("persistent_cluster",
             "it runs the pass tiles, which make periodic and wall ghost cells only and carry up to " +
                 std::to_string(pass_kernel_max_tracers) + " tracers");
    return with_tracer_count(tracers, [&](auto t) {
      constexpr int T = decltype(t)::value;
      return cluster_grid(Scheme<Dims>::passes, pass_tiles<Dims, pass_threads>(shape),
                          reinterpret_cast<const void*>(cluster_passes_kernel<Dims, Real, pass_threads, T>),
                          cluster_shared_bytes<Dims, Real, T>);
    });
  }
  const auto stage_tiles = [&](auto threads) { return tiles_of_largest_stage<Dims, decltype(threads)::value>(shape); };
  const auto stage_kernel = [&](auto threads) { return stages_kernel(steps, threads); };
  // The pass tiles carry up to pass_kernel_max_tracers; a state with more has a barrier a stage.
  if (!pass_tiles_serve) return choose_grid(Scheme<Dims>::passes, false, 0, nullptr, stage_tiles, stage_kernel);
  return with_tracer_count(tracers, [&](auto t) {
    return choose_grid(
        Scheme<Dims>::passes, true, pass_tiles<Dims, pass_threads>(shape),
        reinterpret_cast<const void*>(persistent_passes_kernel<Dims, Real, pass_threads, decltype(t)::value>),
        stage_tiles, stage_kernel);
  });
}

template <int Dims, class Real>
void run_persistent_steps(const Stream& stream, const PersistentSteps<Dims, Real>& steps_args,
                          const PersistentGrid& grid, int steps) {
  if (steps <= 0) return;
  count_kernel_launch();
  if (grid.barrier_a_pass) {
    with_tracer_count(tracers_of(steps_args), [&](auto t) {
      constexpr int tracers = decltype(t)::value;
      PersistentPasses<Dims, Real, pass_threads, tracers> kernels{
          scheme_of<Dims>(), steps_args, step_values<Dims>(steps_args.schedule), {}};
      for (const StepParity parity : {StepParity::odd, StepParity::even})
        make_passes(kernels.scheme, steps_args, parity, kernels);
      if (grid.residency == Residency::cluster)
        launch_cluster(reinterpret_cast<const void*>(cluster_passes_kernel<Dims, Real, pass_threads, tracers>),
                       grid.blocks, cluster_shared_bytes<Dims, Real, tracers>, kernels, steps, stream.cuda_stream);
      else
        launch(reinterpret_cast<const void*>(persistent_passes_kernel<Dims, Real, pass_threads, tracers>), grid.blocks,
               pass_threads, kernels, steps, stream.cuda_stream);
    });
    return;
  }
  with_block_threads(grid.block_threads, [&](auto t) {
    constexpr int threads = decltype(t)::value;
    PersistentStages<Dims, Real, threads> kernels{
        scheme_of<Dims>(), steps_args, step_values<Dims>(steps_args.schedule), {}};
    for (int slot = 0; slot < 2; ++slot) {
      make_stages(kernels.scheme, steps_args, slot, kernels.stages.x[slot]);
      if constexpr (Dims == 3) make_stages(kernels.scheme, steps_args, slot, kernels.stages.y[slot]);
      make_stages(kernels.scheme, steps_args, slot, kernels.stages.z[slot]);
    }
    launch(stages_kernel(steps_args, t), grid.blocks, threads, kernels, steps, stream.cuda_stream);
  });
}

#else

template <int Dims, class Real>
PersistentGrid persistent_grid(const PersistentSteps<Dims, Real>&, Residency) {
  throw Error(ExitCode::internal, "persistent", "this simapp was built without CUDA");
}

template <int Dims, class Real>
void run_persistent_steps(const Stream&, const PersistentSteps<Dims, Real>&, const PersistentGrid&, int) {
  throw Error(ExitCode::internal, "persistent", "this simapp was built without CUDA");
}

#endif

#define SIMAPP_PERSISTENT_STEPS_OF(Dims, Real)                                            \
  template PersistentGrid persistent_grid(const PersistentSteps<Dims, Real>&, Residency); \
  template void run_persistent_steps(const Stream&, const PersistentSteps<Dims, Real>&, const PersistentGrid&, int);
SIMAPP_PERSISTENT_STEPS_OF(2, double)
SIMAPP_PERSISTENT_STEPS_OF(3, double)
SIMAPP_PERSISTENT_STEPS_OF(2, float)
SIMAPP_PERSISTENT_STEPS_OF(3, float)
#undef SIMAPP_PERSISTENT_STEPS_OF

}  // namespace simapp
