#pragma once
/// parallel_for(label, stream, box, body): runs body(i, k) for every index of `box`, as a
/// CUDA kernel on the stream when the run's backend is CUDA, else as OpenMP host loops;
/// parallel_for_cells<Dims>(label, stream, cells, body) runs body(i, j, k) over a box of cells likewise.
/// Include this only from kernel sources (compiled as CUDA in a CUDA build).
#include "kernels/backend/field_view.hpp"
#include "kernels/backend/index_box.hpp"
#include "kernels/backend/launch_counter.hpp"
#include "kernels/backend/launch_recorder.hpp"
#include "kernels/backend/stream.hpp"

#if defined(SIMAPP_USE_CUDA) && SIMAPP_USE_CUDA && !defined(__CUDACC__)
#error "parallel_for.hpp must be included from a source compiled as CUDA (simapp_use_cuda_language)"
#endif

#if defined(__CUDACC__)
#include "kernels/backend/parallel_for_cuda.cuh"
#endif

namespace simapp {

template <class Body>
void parallel_for_host(const IndexBox& box, const Body& body) {
#pragma omp parallel for schedule(static)
  for (int k = box.k_lo; k < box.k_hi; ++k)
    for (int i = box.i_lo; i < box.i_hi; ++i) body(i, k);
}

template <class Body>
void parallel_for([[maybe_unused]] const char* label, [[maybe_unused]] const Stream& stream, const IndexBox& box,
                  const Body& body) {
  if (box.size() == 0) return;
  count_kernel_launch();
#if defined(__CUDACC__)
  if (stream.backend == Backend::cuda) {
    parallel_for_cuda(label, stream.cuda_stream, box, body);
    return;
  }
#endif
  if (stream.recorder != nullptr) {
    stream.recorder->record([box, body] { parallel_for_host(box, body); });
    return;
  }
  parallel_for_host(box, body);
}

/// parallel_for's body(i, k) as body(i, 0, k): a 2-D cell of a body written for (i, j, k). A
/// struct, not a lambda: nvcc's wrapper of a host-device lambda adds 8 bytes to the kernel's
/// parameters, and the 2-D kernels keep theirs as they were.
template <class Body>
struct XzCells {
  Body body;
  SIMAPP_HOST_DEVICE void operator()(int i, int k) const { body(i, 0, k); }
};

/// body(i, j, k) for every cell of `cells` in the model of `Dims` dimensions: one index along x by
/// one over its (k, j) rows; in 2-D (j = 0) the rows are k, as parallel_for's, with no division
/// of a row index into (k, j).
template <int Dims, class Body>
void parallel_for_cells(const char* label, const Stream& stream, const CellBox& cells, const Body& body) {
  if constexpr (Dims == 2) {
    parallel_for(label, stream, IndexBox{cells.i_lo, cells.i_hi, cells.k_lo, cells.k_hi}, XzCells<Body>{body});
  } else {
    const int j_lo = cells.j_lo, k_lo = cells.k_lo, rows_j = cells.j_hi - cells.j_lo;
    if (rows_j <= 0 || cells.k_hi <= k_lo) return;
    parallel_for(
        label, stream, IndexBox{cells.i_lo, cells.i_hi, 0, rows_j * (cells.k_hi - k_lo)},
        SIMAPP_LAMBDA(int i, int row) { body(i, j_lo + row % rows_j, k_lo + row / rows_j); });
  }
}

}  // namespace simapp
