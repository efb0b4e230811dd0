#pragma once
/// Whether the MPI library can be handed device buffers (parallel.cuda_aware_mpi).
#include "kernels/backend/backend_kind.hpp"
#include "solver/simulation/run_spec.hpp"

namespace simapp {

/// True when the library reports CUDA support at run time (Open MPI's MPIX_Query_cuda_support).
bool mpi_reports_cuda_support();

/// Whether halo exchanges of `backend` go through pinned host buffers: never on the host
/// backend; on CUDA unless the choice (or, for auto, the library) says MPI takes device buffers.
bool halo_exchange_staged(Backend backend, CudaAwareMpi choice);

}  // namespace simapp
