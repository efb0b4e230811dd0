#pragma once
/// The CUDA side of parallel_for: one thread per index, i fastest for coalescing.
#include <cuda_runtime.h>

#include "kernels/backend/cuda_check.hpp"
#include "kernels/backend/index_box.hpp"

namespace simapp {

template <class Body>
__global__ void parallel_for_kernel(IndexBox box, Body body) {
  const std::int64_t index = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (index >= box.size()) return;
  const int width = box.width();
  body(box.i_lo + static_cast<int>(index % width), box.k_lo + static_cast<int>(index / width));
}

template <class Body>
void parallel_for_cuda(const char* label, cudaStream_t stream, const IndexBox& box, const Body& body) {
  constexpr int threads_per_block = 256;
  const auto blocks = static_cast<unsigned>((box.size() + threads_per_block - 1) / threads_per_block);
  parallel_for_kernel<<<blocks, threads_per_block, 0, stream>>>(box, body);
  check_cuda(cudaGetLastError(), label);
}

}  // namespace simapp
