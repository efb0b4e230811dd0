#pragma once
/// The CUDA side of parallel_for_tiles: one block per tile, of (tile_x + faces_x) ×
/// (tile_z + faces_z) threads so that every face of the tile has its thread (the face phase,
/// the costly one, takes one round), the Tile in shared memory, the phases separated by
/// barriers.
#include <cuda_runtime.h>

#include "kernels/backend/cuda_check.hpp"
#include "kernels/backend/index_box.hpp"
#include "kernels/backend/tile_copy.hpp"
#include "kernels/backend/tile_origin.hpp"

namespace simapp {

template <class Kernel>
inline constexpr int tile_threads_x = Kernel::tile_x + Kernel::faces_x;
template <class Kernel>
inline constexpr int tile_threads_z = Kernel::tile_z + Kernel::faces_z;

/// The three phases of one tile by one block, thread (a0, b0) of tile_threads_x × tile_threads_z;
/// returns after a barrier, so the block may reuse `tile` at once.
template <class Kernel, class Origin>
__device__ void run_tile_in_block(const Kernel& kernel, typename Kernel::Tile& tile, const Origin& origin, int a0,
                                  int b0) {
  for (int b = b0; b < origin.nk + 2 * Kernel::halo_z; b += tile_threads_z<Kernel>)
    for (int a = a0; a < origin.ni + 2 * Kernel::halo_x; a += tile_threads_x<Kernel>) kernel.load(tile, origin, a, b);
  wait_for_tile_copies();
  __syncthreads();
  if (a0 < origin.ni + Kernel::faces_x && b0 < origin.nk + Kernel::faces_z) kernel.face(tile, origin, a0, b0);
  __syncthreads();
  if (a0 < origin.ni && b0 < origin.nk) kernel.cell(tile, origin, a0, b0);
  __syncthreads();
}

template <class Kernel>
__global__ void __launch_bounds__(tile_threads_x<Kernel>* tile_threads_z<Kernel>, Kernel::min_blocks_per_sm)
    parallel_for_tiles_kernel(IndexBox cells, Kernel kernel) {
  __shared__ typename Kernel::Tile tile;
  const TileOrigin origin =
      tile_origin(cells, static_cast<int>(blockIdx.x), static_cast<int>(blockIdx.y), Kernel::tile_x, Kernel::tile_z);
  run_tile_in_block(kernel, tile, origin, static_cast<int>(threadIdx.x), static_cast<int>(threadIdx.y));
}

template <class Kernel>
void parallel_for_tiles_cuda(const char* label, cudaStream_t stream, const IndexBox& cells, const Kernel& kernel) {
  const dim3 blocks(static_cast<unsigned>(tile_count(cells.width(), Kernel::tile_x)),
                    static_cast<unsigned>(tile_count(cells.height(), Kernel::tile_z)));
  const dim3 threads(tile_threads_x<Kernel>, tile_threads_z<Kernel>);
  parallel_for_tiles_kernel<<<blocks, threads, 0, stream>>>(cells, kernel);
  check_cuda(cudaGetLastError(), label);
}

/// The layered form: blockIdx.z is the layer.
template <class Kernel>
__global__ void __launch_bounds__(tile_threads_x<Kernel>* tile_threads_z<Kernel>, Kernel::min_blocks_per_sm)
    parallel_for_layered_tiles_kernel(IndexBox plane, int first_layer, Kernel kernel) {
  __shared__ typename Kernel::Tile tile;
  const LayerTileOrigin origin{
      tile_origin(plane, static_cast<int>(blockIdx.x), static_cast<int>(blockIdx.y), Kernel::tile_x, Kernel::tile_z),
      first_layer + static_cast<int>(blockIdx.z)};
  run_tile_in_block(kernel, tile, origin, static_cast<int>(threadIdx.x), static_cast<int>(threadIdx.y));
}

template <class Kernel>
void parallel_for_layered_tiles_cuda(const char* label, cudaStream_t stream, const IndexBox& plane,
                                     const LayerRange& layers, const Kernel& kernel) {
  const dim3 blocks(static_cast<unsigned>(tile_count(plane.width(), Kernel::tile_x)),
                    static_cast<unsigned>(tile_count(plane.height(), Kernel::tile_z)),
                    static_cast<unsigned>(layers.size()));
  const dim3 threads(tile_threads_x<Kernel>, tile_threads_z<Kernel>);
  parallel_for_layered_tiles_kernel<<<blocks, threads, 0, stream>>>(plane, layers.lo, kernel);
  check_cuda(cudaGetLastError(), label);
}

}  // namespace simapp
