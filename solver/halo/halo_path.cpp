#include "solver/halo/halo_path.hpp"

#include "foundation/error.hpp"
#include "solver/halo/cuda_aware_mpi.hpp"

namespace simapp {

bool nccl_compiled() { return SIMAPP_USE_NCCL != 0; }

HaloTransportChoice choose_halo_transport(HaloTransport asked, Backend backend, int ranks, bool one_gpu_per_rank) {
  if (asked != HaloTransport::automatic) return {asked, "as configured"};
  if (ranks == 1) return {HaloTransport::mpi, "auto: one rank, no halos between ranks"};
  if (backend != Backend::cuda) return {HaloTransport::mpi, "auto: the host backend"};
  if (!nccl_compiled()) return {HaloTransport::mpi, "auto: this simapp was built without NCCL"};
  if (!one_gpu_per_rank) return {HaloTransport::mpi, "auto: ranks share a GPU, and NCCL needs one each"};
  return {HaloTransport::nccl, "auto: a build with NCCL, the CUDA backend and a GPU for every rank"};
}

HaloPath halo_path(Backend backend, const ParallelSpec& parallel) {
  if (parallel.halo == HaloTransport::nccl) {
    if (!nccl_compiled())
      throw Error(ExitCode::bad_input, "parallel.halo",
                  "nccl requested but this simapp was built without NCCL (configure with -DSIMAPP_ENABLE_NCCL=ON)");
    if (backend != Backend::cuda)
      throw Error(ExitCode::bad_input, "parallel.halo", "nccl needs the CUDA backend, but this run uses host");
    return HaloPath::nccl;
  }
  if (backend == Backend::host) return HaloPath::mpi;
  switch (parallel.cuda_aware_mpi) {
    case CudaAwareMpi::on: return HaloPath::mpi;
    case CudaAwareMpi::off: return HaloPath::mpi_staged;
    case CudaAwareMpi::automatic: return mpi_reports_cuda_support() ? HaloPath::mpi : HaloPath::mpi_staged;
  }
  return HaloPath::mpi_staged;
}

std::string_view describe(HaloPath path, Backend backend) {
  switch (path) {
    case HaloPath::nccl: return "halos by NCCL on the stream (inside graphs)";
    case HaloPath::mpi_staged: return "halos by MPI, staged through pinned host memory";
    case HaloPath::mpi: break;
  }
  return backend == Backend::cuda ? "halos by MPI from device memory (CUDA-aware)" : "halos by MPI from host memory";
}

}  // namespace simapp
