#pragma once
/// ColumnTeam: the threads that work on one column of nz levels together, thread `first` of
/// `stride` taking levels first, first + stride, …, with `sync()` a barrier among them: a CUDA
/// block ({threadIdx.x, blockDim.x, __syncthreads}), or one thread on the host ({0, 1, no-op}),
/// which runs the same code.
///
/// A reduction over the levels is a fixed tree on the level index, never on the threads:
///   v₀ ⊕= v₁, v₂ ⊕= v₃, …;  then v₀ ⊕= v₂, v₄ ⊕= v₆, …;  then v₀ ⊕= v₄, …  (h = 1, 2, 4, …: v_k ⊕= v_{k+h}
///   for k a multiple of 2h with k + h < nz),
/// so a sum is the same bits for every team size (the block's or the host's) and every run.
#include "kernels/backend/host_device.hpp"

namespace simapp {

template <class Sync>
struct ColumnTeam {
  int first = 0;   ///< this thread's first level
  int stride = 1;  ///< the team's threads
  Sync sync;       ///< a barrier among the team's threads

  /// body(k) for this thread's levels k < nz.
  template <class Body>
  SIMAPP_HOST_DEVICE void for_levels(int nz, const Body& body) const {
    for (int k = first; k < nz; k += stride) body(k);
  }

  /// The tree of the file's comment over levels [0, nz): combine(k, k + h) folds level k + h's
  /// values into level k's, so that level 0's hold the reduction. Barriers before the tree (the
  /// values are every thread's) and after each of its levels (level 0's are every thread's).
  template <class Combine>
  SIMAPP_HOST_DEVICE void reduce_levels(int nz, const Combine& combine) const {
    sync();
    for (int h = 1; h < nz; h *= 2) {
      for (int k = 2 * h * first; k + h < nz; k += 2 * h * stride) combine(k, k + h);
      sync();
    }
  }
};

/// The team of one host thread.
struct NoBarrier {
  SIMAPP_HOST_DEVICE void operator()() const {}
};

using SerialTeam = ColumnTeam<NoBarrier>;

}  // namespace simapp
