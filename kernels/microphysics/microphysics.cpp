#include "kernels/microphysics/microphysics.hpp"

#include <algorithm>

#include "kernels/backend/device_runtime.hpp"
#include "kernels/backend/parallel_for.hpp"
#include "kernels/microphysics/microphysics_column.hpp"

#if defined(__CUDACC__)
#include "kernels/backend/cuda_check.hpp"
#include "kernels/microphysics/microphysics_levels.cuh"
#endif

namespace simapp {

namespace {

/// The most warps of a block whose levels run at once (level_group_columns lanes each).
inline constexpr int most_level_warps = 16;
/// Warps a multiprocessor holds of a kernel of 128 registers a thread.
inline constexpr int warp_slots_a_multiprocessor = 16;

#if defined(__CUDACC__)
inline constexpr int microphysics_threads = 128;
/// Four blocks a multiprocessor: ptxas keeps the kernel in 128 registers (144 unbounded, three
/// blocks), and a column's long chain of dependent FP64 operations needs the warps to hide it
/// (docs/performance.md, "Water").
inline constexpr int microphysics_blocks_per_sm = 4;

/// A thread a column, neighbouring threads on neighbouring columns along x.
template <int Dims, class Real>
__global__ void __launch_bounds__(microphysics_threads, microphysics_blocks_per_sm)
    microphysics_kernel(const __grid_constant__ MicrophysicsArguments<Dims, Real> m, const StepParams<Dims>* params) {
  const int nx = m.state.shape.nx;
  const int c = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (c < nx * m.state.shape.ny) microphysics_column(m, params->dt_physics, c % nx, c / nx);
}

/// A block of 32 neighbouring columns, the levels at once (microphysics_levels.cuh), a warp a
/// level of a chunk: blockDim = (32, microphysics_block_warps).
template <int Dims, class Real>
__global__ void __launch_bounds__(level_group_columns* most_level_warps)
    microphysics_levels_kernel(const __grid_constant__ MicrophysicsArguments<Dims, Real> m,
                               const StepParams<Dims>* params) {
  __shared__ LevelGroupShared<most_level_warps> shared;
  const LevelGroupThread t{static_cast<int>(threadIdx.x), static_cast<int>(threadIdx.y), static_cast<int>(blockDim.y)};
  microphysics_levels(m, params->dt_physics, static_cast<int>(blockIdx.x) * level_group_columns, t, shared);
}
#endif

}  // namespace

int microphysics_block_warps(int columns, int nz, int multiprocessors) {
  const long groups = level_groups(columns);
  int warps = most_level_warps;
  while (warps >= 2 && groups * warps > static_cast<long>(warp_slots_a_multiprocessor) * multiprocessors) warps /= 2;
  return warps < 2 ? 0 : std::min(warps, nz);
}

template <int Dims, class Real>
void apply_microphysics(const Stream& stream, const MicrophysicsArguments<Dims, Real>& microphysics,
                        const StepParams<Dims>* params) {
  const MicrophysicsArguments<Dims, Real> m = microphysics;
  const int columns = m.state.shape.nx * m.state.shape.ny;
  if (columns == 0) return;
  count_kernel_launch();
#if defined(__CUDACC__)
  if (stream.backend == Backend::cuda) {
    const int warps = microphysics_block_warps(columns, m.state.shape.nz, device::multiprocessor_count());
    if (warps > 0) {
      const dim3 threads(level_group_columns, static_cast<unsigned>(warps));
      microphysics_levels_kernel<Dims, Real>
          <<<static_cast<unsigned>(level_groups(columns)), threads, 0, stream.cuda_stream>>>(m, params);
    } else {
      const auto blocks = static_cast<unsigned>((columns + microphysics_threads - 1) / microphysics_threads);
      microphysics_kernel<Dims, Real><<<blocks, microphysics_threads, 0, stream.cuda_stream>>>(m, params);
    }
    check_cuda(cudaGetLastError(), "microphysics");
    return;
  }
#endif
  const auto on_host = [m, params] {
    parallel_for_host(IndexBox{0, m.state.shape.nx, 0, m.state.shape.ny},
                      [&](int i, int j) { microphysics_column(m, params->dt_physics, i, j); });
  };
  if (stream.recorder != nullptr) {
    stream.recorder->record(on_host);
    return;
  }
  on_host();
}

template void apply_microphysics(const Stream&, const MicrophysicsArguments<2, double>&, const StepParams<2>*);
template void apply_microphysics(const Stream&, const MicrophysicsArguments<3, double>&, const StepParams<3>*);
template void apply_microphysics(const Stream&, const MicrophysicsArguments<2, float>&, const StepParams<2>*);
template void apply_microphysics(const Stream&, const MicrophysicsArguments<3, float>&, const StepParams<3>*);

}  // namespace simapp
