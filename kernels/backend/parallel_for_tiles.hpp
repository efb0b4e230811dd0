#pragma once
/// parallel_for_tiles(label, stream, cells, kernel): a stencil kernel run tile by tile in
/// three phases, with each tile's data kept on chip between them (shared memory on CUDA; on
/// the host a buffer on the stack, small enough for the L1 cache):
///   kernel.load(tile, origin, a, b)  for every cell of the tile grown by the kernel's halo
///                                    (copy_into_tile for what it copies from memory as it is),
///   kernel.face(tile, origin, a, b)  for every face of the tile in the kernel's direction,
///   kernel.cell(tile, origin, a, b)  for every cell of the tile,
/// where (a, b) are indices along x and z from the tile's first point in that phase. A Kernel
/// names its tile (tile_x × tile_z cells), the cells it loads beyond them (halo_x, halo_z),
/// the extra faces (faces_x, faces_z: 1 in the pass's direction), its Tile type, and the
/// blocks a GPU multiprocessor should hold at least (min_blocks_per_sm, for the registers).
/// Include this only from kernel sources (compiled as CUDA in a CUDA build).

#include "kernels/backend/index_box.hpp"
#include "kernels/backend/launch_counter.hpp"
#include "kernels/backend/launch_recorder.hpp"
#include "kernels/backend/stream.hpp"
#include "kernels/backend/tile_origin.hpp"

#if defined(SIMAPP_USE_CUDA) && SIMAPP_USE_CUDA && !defined(__CUDACC__)
#error "parallel_for_tiles.hpp must be included from a source compiled as CUDA (simapp_use_cuda_language)"
#endif

#if defined(__CUDACC__)
#include "kernels/backend/parallel_for_tiles_cuda.cuh"
#endif

namespace simapp {

/// The three phases of one tile, one point after another (Origin: TileOrigin, or a
/// LayerTileOrigin of a layered box).
template <class Kernel, class Origin>
void run_tile(const Kernel& kernel, typename Kernel::Tile& tile, const Origin& origin) {
  for (int b = 0; b < origin.nk + 2 * Kernel::halo_z; ++b)
    for (int a = 0; a < origin.ni + 2 * Kernel::halo_x; ++a) kernel.load(tile, origin, a, b);
  for (int b = 0; b < origin.nk + Kernel::faces_z; ++b)
    for (int a = 0; a < origin.ni + Kernel::faces_x; ++a) kernel.face(tile, origin, a, b);
  for (int b = 0; b < origin.nk; ++b)
    for (int a = 0; a < origin.ni; ++a) kernel.cell(tile, origin, a, b);
}

template <class Kernel>
void parallel_for_tiles_host(const IndexBox& cells, const Kernel& kernel) {
  const int tiles_x = tile_count(cells.width(), Kernel::tile_x);
  const int tiles_z = tile_count(cells.height(), Kernel::tile_z);
#pragma omp parallel for collapse(2) schedule(static)
  for (int tz = 0; tz < tiles_z; ++tz)
    for (int tx = 0; tx < tiles_x; ++tx) {
      typename Kernel::Tile tile;
      run_tile(kernel, tile, tile_origin(cells, tx, tz, Kernel::tile_x, Kernel::tile_z));
    }
}

template <class Kernel>
void parallel_for_layered_tiles_host(const IndexBox& plane, const LayerRange& layers, const Kernel& kernel) {
  const int tiles_x = tile_count(plane.width(), Kernel::tile_x);
  const int tiles_z = tile_count(plane.height(), Kernel::tile_z);
#pragma omp parallel for collapse(3) schedule(static)
  for (int layer = layers.lo; layer < layers.hi; ++layer)
    for (int tz = 0; tz < tiles_z; ++tz)
      for (int tx = 0; tx < tiles_x; ++tx) {
        typename Kernel::Tile tile;
        run_tile(kernel, tile, LayerTileOrigin{tile_origin(plane, tx, tz, Kernel::tile_x, Kernel::tile_z), layer});
      }
}

template <class Kernel>
void parallel_for_tiles([[maybe_unused]] const char* label, [[maybe_unused]] const Stream& stream,
                        const IndexBox& cells, const Kernel& kernel) {
  if (cells.size() == 0) return;
  count_kernel_launch();
#if defined(__CUDACC__)
  if (stream.backend == Backend::cuda) {
    parallel_for_tiles_cuda(label, stream.cuda_stream, cells, kernel);
    return;
  }
#endif
  if (stream.recorder != nullptr) {
    stream.recorder->record([cells, kernel] { parallel_for_tiles_host(cells, kernel); });
    return;
  }
  parallel_for_tiles_host(cells, kernel);
}

/// parallel_for_layered_tiles(label, stream, plane, layers, kernel): parallel_for_tiles over the
/// cells `plane` of every layer in `layers` (a 3-D box, plane by plane: one launch), the kernel's
/// phases receiving a LayerTileOrigin.
template <class Kernel>
void parallel_for_layered_tiles([[maybe_unused]] const char* label, [[maybe_unused]] const Stream& stream,
                                const IndexBox& plane, const LayerRange& layers, const Kernel& kernel) {
  if (plane.size() == 0 || layers.size() == 0) return;
  count_kernel_launch();
#if defined(__CUDACC__)
  if (stream.backend == Backend::cuda) {
    parallel_for_layered_tiles_cuda(label, stream.cuda_stream, plane, layers, kernel);
    return;
  }
#endif
  if (stream.recorder != nullptr) {
    stream.recorder->record([plane, layers, kernel] { parallel_for_layered_tiles_host(plane, layers, kernel); });
    return;
  }
  parallel_for_layered_tiles_host(plane, layers, kernel);
}

}  // namespace simapp
