#pragma once
/// The CUDA side of parallel_for: a 2-D grid of 128-thread blocks, i fastest for coalescing,
/// so a thread finds its (i, k) without division; rows beyond the grid's reach are strided.
#include <cuda_runtime.h>

#include <algorithm>

#include "kernels/backend/cuda_check.hpp"
#include "kernels/backend/index_box.hpp"

namespace simapp {

inline constexpr int parallel_for_threads = 128;

template <class Body>
__global__ void __launch_bounds__(parallel_for_threads) parallel_for_kernel(IndexBox box, Body body) {
  const int i = box.i_lo + static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i >= box.i_hi) return;
  const int stride = static_cast<int>(gridDim.y * blockDim.y);
  for (int k = box.k_lo + static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y); k < box.k_hi; k += stride)
    body(i, k);
}

template <class Body>
void parallel_for_cuda(const char* label, cudaStream_t stream, const IndexBox& box, const Body& body) {
  // Narrow boxes (ghost columns) take several rows a block instead of idle threads.
  const int threads_x = std::min(parallel_for_threads, (box.width() + 31) / 32 * 32);
  const int threads_z = parallel_for_threads / threads_x;
  const dim3 threads(static_cast<unsigned>(threads_x), static_cast<unsigned>(threads_z));
  const dim3 blocks(static_cast<unsigned>((box.width() + threads_x - 1) / threads_x),
                    static_cast<unsigned>(std::min((box.height() + threads_z - 1) / threads_z, 65535)));
  parallel_for_kernel<<<blocks, threads, 0, stream>>>(box, body);
  check_cuda(cudaGetLastError(), label);
}

}  // namespace simapp
