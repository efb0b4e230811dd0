#include "kernels/stage/persistent_steps.hpp"

#include <algorithm>

#include "foundation/error.hpp"
#include "kernels/backend/launch_counter.hpp"

#if defined(__CUDACC__)
#include "kernels/backend/parallel_for_tiles_cuda.cuh"
#include "kernels/stage/pass_tile.hpp"
#include "kernels/stage/persistent_health_check.cuh"
#include "kernels/stage/persistent_loop.cuh"
#include "kernels/stage/stage_tile.hpp"
#include "kernels/time/step_scheme.hpp"
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

/// The loop over a launch's steps (run_steps) with the elements that follow a step, in
/// step_elements()'s order (solver/step/step_elements.cpp): the health check, whose cells each
/// tile of the body's last pass checks itself where `cells_checked`. An element of the persistent
/// kernel is one more argument here.
template <int Dims, class Step>
__device__ void run_model_steps(const PersistentSteps<Dims>& p, const StepValues<StepParams<Dims>>& values, int steps,
                                cg::grid_group& grid, bool cells_checked, const Step& step_body) {
  run_steps(p, values, steps, grid, step_body, HealthCheckElement<Dims>{p, grid, cells_checked});
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
  using Kernel = StageKernel<D, Dims, Threads>;
  const IndexBox plane = stage_plane<D>(s);
  return tile_count(plane.width(), Kernel::tile_x) * tile_count(plane.height(), Kernel::tile_z) * stage_layers<D>(s);
}

/// Slots<D>: the stage kernels along D, per StepParams slot and RK3 stage; Tile<D>: their tile.
template <int Dims, int Threads>
struct StagesOf {
  template <Direction D>
  using Slots = StageKernel<D, Dims, Threads>[2][rk_stages];
  template <Direction D>
  using Tile = typename StageKernel<D, Dims, Threads>::Tile;
};

/// The kernel's parameter: the step scheme, the steps' arguments and every stage kernel, per
/// StepParams slot (parity_index of the step's parity) and RK3 stage.
template <int Dims, int Threads>
struct PersistentStages {
  Scheme<Dims> scheme;
  PersistentSteps<Dims> steps;
  StepValues<StepParams<Dims>> step_values;
  ByDirection<Dims, StagesOf<Dims, Threads>::template Slots> stages;
};

template <int Dims, int Threads>
using SharedStageTile = EitherDirection<Dims, StagesOf<Dims, Threads>::template Tile>;

/// One stage over every tile of the grid, the blocks taking tiles in turn.
template <Direction D, int Dims, int Threads>
__device__ void stage_over_tiles(const StageKernel<D, Dims, Threads>& kernel, SharedStageTile<Dims, Threads>& shared) {
  using Kernel = StageKernel<D, Dims, Threads>;
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

/// The three RK3 stages of a pass along `direction`, each over every tile, then a grid barrier.
/// The 2-D kernel branches on the direction at each stage, the 3-D one once a pass: the code
/// each kernel has always had (either form compiles to other code for the other dimension).
template <int Dims, int Threads>
__device__ void stages_of_pass(const PersistentStages<Dims, Threads>& k, Direction direction, int slot,
                               SharedStageTile<Dims, Threads>& shared, cg::grid_group& grid) {
  if constexpr (Dims == 2) {
#pragma unroll
    for (int s = 0; s < rk_stages; ++s) {
      with_pass_direction<Dims>(
          direction, [&](auto d) { stage_over_tiles(member_of<decltype(d)::value>(k.stages)[slot][s], shared); });
      grid.sync();
    }
  } else {
    with_pass_direction<Dims>(direction, [&](auto d) {
#pragma unroll
      for (int s = 0; s < rk_stages; ++s) {
        stage_over_tiles(member_of<decltype(d)::value>(k.stages)[slot][s], shared);
        grid.sync();
      }
    });
  }
}

/// One barrier a stage: for each pass of the step's order, for each RK3 stage, the stage over
/// every tile, then a grid barrier.
template <int Dims, int Threads>
__global__ void __launch_bounds__(Threads, min_blocks_per_sm<Threads>)
    persistent_stages_kernel(const __grid_constant__ PersistentStages<Dims, Threads> k, int steps) {
  __shared__ SharedStageTile<Dims, Threads> shared;
  cg::grid_group grid = cg::this_grid();
  run_model_steps(k.steps, k.step_values, steps, grid, false, [&](StepParity parity, const auto&) {
    const int slot = parity_index(parity);
    for (int p = 0; p < Scheme<Dims>::passes; ++p) stages_of_pass(k, k.scheme.pass(parity, p), slot, shared, grid);
  });
}

/// The stage kernels of slot `slot`, each reading and writing the arrays the scheme's stage
/// names (qⁿ → q* → q** → qⁿ⁺¹) and the slot's StepParams<Dims>.
template <Direction D, int Dims, int Threads>
void make_stages(const Scheme<Dims>& scheme, const PersistentSteps<Dims>& p, int slot,
                 StageKernel<D, Dims, Threads> (&stages)[rk_stages]) {
  const auto array = [&](StageArray which) { return stage_array(which, p.state, p.stage1, p.stage2); };
  for (int s = 0; s < rk_stages; ++s)
    stages[s] = {{},
                 stage_arrays(p.state, array(scheme.stages[s].input), array(scheme.stages[s].output)),
                 FluxContext<Dims>{p.geometry, p.background, p.params + slot, s},
                 p.sources,
                 p.boundaries};
}

// ---- A barrier a pass: the pass tiles ----

/// Slots<D>: the pass tiles along D, per StepParams slot; Tile<D>: their tile.
template <int Dims, int Threads>
struct PassesOf {
  template <Direction D>
  using Slots = PassTile<D, Dims, Threads>[2];
  template <Direction D>
  using Tile = typename PassTile<D, Dims, Threads>::Tile;
};

/// The kernel's parameter with a barrier a pass: the step scheme, and per StepParams slot a pass
/// of each direction; pass p of a step reads the array pass p − 1 wrote (state → stage1 (→
/// stage2) → state).
template <int Dims, int Threads>
struct PersistentPasses {
  Scheme<Dims> scheme;
  PersistentSteps<Dims> steps;
  StepValues<StepParams<Dims>> step_values;
  ByDirection<Dims, PassesOf<Dims, Threads>::template Slots> passes;
};

template <int Dims, int Threads>
using SharedPassTile = EitherDirection<Dims, PassesOf<Dims, Threads>::template Tile>;

/// A split pass, its three stages tile by tile in shared memory (with `check_into`, each tile's
/// output cells checked after), then a grid barrier.
template <Direction D, int Dims, int Threads>
__device__ void fused_pass(const PassTile<D, Dims, Threads>& pass, HealthRecord* check_into,
                           SharedPassTile<Dims, Threads>& shared, cg::grid_group& grid) {
  typename PassTile<D, Dims, Threads>::Tile& tile = member_of<D>(shared);
  const int tiles = pass.tile_count();
  for (int t = static_cast<int>(blockIdx.x); t < tiles; t += static_cast<int>(gridDim.x)) {
    pass.run(tile, t, static_cast<int>(threadIdx.x), Threads, [] { __syncthreads(); });
    if (check_into != nullptr) pass.check_output(t, static_cast<int>(threadIdx.x), Threads, check_into);
  }
  grid.sync();
}

/// Blocks of the pass kernel a multiprocessor holds at least. 3-D: up to 168 registers a thread:
/// left to itself the compiler gives the tiles' paired loads 173 registers, two blocks a
/// multiprocessor, too few for the 288 tiles of 48 × 24 × 10 on 132 multiprocessors.
template <int Dims>
inline constexpr int pass_blocks_per_sm = Dims == 3 ? 3 : min_blocks_per_sm<pass_threads>;

/// One barrier a pass: the pass tiles.
template <int Dims, int Threads>
__global__ void __launch_bounds__(Threads, pass_blocks_per_sm<Dims>)
    persistent_passes_kernel(const __grid_constant__ PersistentPasses<Dims, Threads> k, int steps) {
  __shared__ SharedPassTile<Dims, Threads> shared;
  cg::grid_group grid = cg::this_grid();
  run_model_steps(k.steps, k.step_values, steps, grid, true, [&](StepParity parity, const auto& follows) {
    const int slot = parity_index(parity);
    const bool check = follows[0];  // the health check: the last pass checks its cells
    for (int p = 0; p < Scheme<Dims>::passes; ++p)
      with_pass_direction<Dims>(k.scheme.pass(parity, p), [&](auto d) {
        HealthRecord* check_into = check && p == Scheme<Dims>::passes - 1 ? k.steps.record : nullptr;
        fused_pass(member_of<decltype(d)::value>(k.passes)[slot], check_into, shared, grid);
      });
  });
}

/// The passes of a step of parity `parity`, in its StepParams slot: pass p reads the array
/// pass p − 1 wrote (state → stage1 (→ stage2) → state); a pass tile holds its stages itself.
template <int Dims, int Threads>
void make_passes(const Scheme<Dims>& scheme, const PersistentSteps<Dims>& p, StepParity parity,
                 PersistentPasses<Dims, Threads>& kernels) {
  constexpr int passes = Scheme<Dims>::passes;
  const int slot = parity_index(parity);
  const FieldView<double, Dims> arrays[] = {p.state, p.stage1, p.stage2};
  for (int n = 0; n < passes; ++n)
    with_direction_of<Dims>(scheme.pass(parity, n), [&](auto d) {
      constexpr Direction D = decltype(d)::value;
      set_pass(member_of<D>(kernels.passes)[slot], arrays[n], arrays[(n + 1) % passes], p.geometry, p.background,
               p.params + slot, p.sources);
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
    PassTile<decltype(d)::value, Dims, Threads> pass{};
    pass.input.shape = shape;
    return pass.tile_count();
  });
}

template <int Dims, int Threads>
int tiles_of_largest_stage(const FieldShape<Dims>& shape) {
  return most_tiles<Dims>([&](auto d) { return stage_tiles<decltype(d)::value, Dims, Threads>(shape); });
}

}  // namespace

template <int Dims>
PersistentGrid persistent_grid(const PersistentSteps<Dims>& steps) {
  const FieldShape<Dims>& shape = steps.state.shape;
  return choose_grid(
      Scheme<Dims>::passes, pass_tile_makes(steps.boundaries), pass_tiles<Dims, pass_threads>(shape),
      reinterpret_cast<const void*>(persistent_passes_kernel<Dims, pass_threads>),
      [&](auto threads) { return tiles_of_largest_stage<Dims, decltype(threads)::value>(shape); },
      [](auto threads) {
        return reinterpret_cast<const void*>(persistent_stages_kernel<Dims, decltype(threads)::value>);
      });
}

template <int Dims>
void run_persistent_steps(const Stream& stream, const PersistentSteps<Dims>& steps_args, const PersistentGrid& grid,
                          int steps) {
  if (steps <= 0) return;
  count_kernel_launch();
  if (grid.barrier_a_pass) {
    PersistentPasses<Dims, pass_threads> kernels{
        scheme_of<Dims>(), steps_args, step_values<Dims>(steps_args.schedule), {}};
    for (const StepParity parity : {StepParity::odd, StepParity::even})
      make_passes(kernels.scheme, steps_args, parity, kernels);
    launch(reinterpret_cast<const void*>(persistent_passes_kernel<Dims, pass_threads>), grid.blocks, pass_threads,
           kernels, steps, stream.cuda_stream);
    return;
  }
  with_block_threads(grid.block_threads, [&](auto t) {
    constexpr int threads = decltype(t)::value;
    PersistentStages<Dims, threads> kernels{scheme_of<Dims>(), steps_args, step_values<Dims>(steps_args.schedule), {}};
    for (int slot = 0; slot < 2; ++slot) {
      make_stages(kernels.scheme, steps_args, slot, kernels.stages.x[slot]);
      if constexpr (Dims == 3) make_stages(kernels.scheme, steps_args, slot, kernels.stages.y[slot]);
      make_stages(kernels.scheme, steps_args, slot, kernels.stages.z[slot]);
    }
    launch(reinterpret_cast<const void*>(persistent_stages_kernel<Dims, threads>), grid.blocks, threads, kernels, steps,
           stream.cuda_stream);
  });
}

#else

template <int Dims>
PersistentGrid persistent_grid(const PersistentSteps<Dims>&) {
  throw Error(ExitCode::internal, "persistent", "this simapp was built without CUDA");
}

template <int Dims>
void run_persistent_steps(const Stream&, const PersistentSteps<Dims>&, const PersistentGrid&, int) {
  throw Error(ExitCode::internal, "persistent", "this simapp was built without CUDA");
}

#endif

template PersistentGrid persistent_grid(const PersistentSteps<2>&);
template PersistentGrid persistent_grid(const PersistentSteps<3>&);
template void run_persistent_steps(const Stream&, const PersistentSteps<2>&, const PersistentGrid&, int);
template void run_persistent_steps(const Stream&, const PersistentSteps<3>&, const PersistentGrid&, int);

}  // namespace simapp
