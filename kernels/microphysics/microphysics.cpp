#include "kernels/microphysics/microphysics.hpp"

#include "kernels/backend/column_team.hpp"
#include "kernels/backend/parallel_for.hpp"
#include "kernels/microphysics/microphysics_column.hpp"

#if defined(__CUDACC__)
#include <algorithm>

#include "kernels/backend/cuda_check.hpp"
#include "kernels/microphysics/microphysics_block.cuh"
#endif

namespace simapp {

namespace {

#if defined(__CUDACC__)
/// At most 128 threads a block (a level each up to nz = 128), at least a warp.
inline constexpr int microphysics_block_threads = 128;

int block_threads(int nz) { return std::min(microphysics_block_threads, std::max(32, (nz + 31) / 32 * 32)); }

/// The shared memory a block has without asking for more: columns whose values fit (nz ≤ 682)
/// hold them there, taller ones in the scratch field.
inline constexpr std::size_t shared_doubles_limit = 48 * 1024 / sizeof(double);

template <int Dims>
__global__ void __launch_bounds__(microphysics_block_threads)
    microphysics_block_kernel(const __grid_constant__ MicrophysicsArguments<Dims> m, const StepParams<Dims>* params,
                              bool in_shared) {
  extern __shared__ double shared_column[];
  const int nx = m.state.shape.nx;
  const int c = static_cast<int>(blockIdx.x);
  run_microphysics_of_column(m, params->dt_physics, c % nx, c / nx, in_shared ? shared_column : nullptr);
}

/// A block a column.
template <int Dims>
void launch_microphysics_blocks(cudaStream_t stream, const MicrophysicsArguments<Dims>& m,
                                const StepParams<Dims>* params) {
  const int nz = m.state.shape.nz;
  const std::size_t doubles = microphysics_shared_doubles(nz);
  const bool in_shared = doubles <= shared_doubles_limit;
  const auto columns = static_cast<unsigned>(m.state.shape.nx * m.state.shape.ny);
  microphysics_block_kernel<Dims>
      <<<columns, block_threads(nz), in_shared ? doubles * sizeof(double) : 0, stream>>>(m, params, in_shared);
  check_cuda(cudaGetLastError(), "microphysics");
}
#endif

/// A thread a column, its values in the scratch field.
template <int Dims>
void apply_microphysics_on_host(const MicrophysicsArguments<Dims>& m, const StepParams<Dims>* params) {
  parallel_for_host(IndexBox{0, m.state.shape.nx, 0, m.state.shape.ny}, [m, params](int i, int j) {
    microphysics_column(SerialTeam{}, m, params->dt_physics, i, j, scratch_storage(m, i, j));
  });
}

}  // namespace

template <int Dims>
void apply_microphysics(const Stream& stream, const MicrophysicsArguments<Dims>& microphysics,
                        const StepParams<Dims>* params) {
  const MicrophysicsArguments<Dims> m = microphysics;
  if (m.state.shape.nx * m.state.shape.ny == 0) return;
  count_kernel_launch();
#if defined(__CUDACC__)
  if (stream.backend == Backend::cuda) {
    launch_microphysics_blocks(stream.cuda_stream, m, params);
    return;
  }
#endif
  if (stream.recorder != nullptr) {
    stream.recorder->record([m, params] { apply_microphysics_on_host(m, params); });
    return;
  }
  apply_microphysics_on_host(m, params);
}

template void apply_microphysics<2>(const Stream&, const MicrophysicsArguments<2>&, const StepParams<2>*);
template void apply_microphysics<3>(const Stream&, const MicrophysicsArguments<3>&, const StepParams<3>*);

}  // namespace simapp
