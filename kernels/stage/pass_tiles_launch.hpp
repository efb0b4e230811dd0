#pragma once
/// launch_pass_tiles(label, stream, pass): every tile of a pass (a PassTile: the
/// three RK3 stages of a split pass on a few lines of cells, pass_tile_shape.hpp) in one launch.
/// On the GPU a block a tile, of the pass's threads, with its Tile in dynamic shared memory and
/// a block barrier between phases; on the host the tiles shared among OpenMP threads, each
/// running its tiles' phases one item after another in a Tile of its own.
/// Include this only from kernel sources (compiled as CUDA in a CUDA build).
#include <memory>

#include "kernels/backend/launch_counter.hpp"
#include "kernels/backend/launch_recorder.hpp"
#include "kernels/backend/stream.hpp"

#if defined(SIMAPP_USE_CUDA) && SIMAPP_USE_CUDA && !defined(__CUDACC__)
#error "pass_tiles_launch.hpp must be included from a source compiled as CUDA (simapp_use_cuda_language)"
#endif

#if defined(__CUDACC__)
#include "kernels/backend/cuda_check.hpp"
#endif

namespace simapp {

#if defined(__CUDACC__)
template <class Pass>
__global__ void __launch_bounds__(Pass::threads) pass_tiles_kernel(const __grid_constant__ Pass pass) {
  extern __shared__ double shared_tile[];
  auto& tile = *reinterpret_cast<typename Pass::Tile*>(shared_tile);
  pass.run(tile, static_cast<int>(blockIdx.x), static_cast<int>(threadIdx.x), Pass::threads, [] { __syncthreads(); });
}

template <class Pass>
void launch_pass_tiles_cuda(const char* label, cudaStream_t stream, const Pass& pass) {
  constexpr int bytes = sizeof(typename Pass::Tile);
  static const cudaError_t allowed =  // once a kernel: more shared memory than the 48 KB a block may have unasked
      cudaFuncSetAttribute(pass_tiles_kernel<Pass>, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
  check_cuda(allowed, label);
  pass_tiles_kernel<Pass><<<pass.tile_count(), Pass::threads, bytes, stream>>>(pass);
  check_cuda(cudaGetLastError(), label);
}
#endif

template <class Pass>
void launch_pass_tiles_host(const Pass& pass) {
  const int tiles = pass.tile_count();
#pragma omp parallel
  {
    const auto tile = std::make_unique<typename Pass::Tile>();
#pragma omp for schedule(static)
    for (int t = 0; t < tiles; ++t) pass.run(*tile, t, 0, 1, [] {});
  }
}

template <class Pass>
void launch_pass_tiles([[maybe_unused]] const char* label, const Stream& stream, const Pass& pass) {
  count_kernel_launch();
#if defined(__CUDACC__)
  if (stream.backend == Backend::cuda) {
    launch_pass_tiles_cuda(label, stream.cuda_stream, pass);
    return;
  }
#endif
  if (stream.recorder != nullptr) {
    stream.recorder->record([pass] { launch_pass_tiles_host(pass); });
    return;
  }
  launch_pass_tiles_host(pass);
}

}  // namespace simapp
