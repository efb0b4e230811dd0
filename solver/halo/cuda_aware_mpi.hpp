#pragma once
/// Whether the MPI library can be handed device buffers (parallel.cuda_aware_mpi: auto).

namespace simapp {

/// True when the library reports CUDA support at run time (Open MPI's MPIX_Query_cuda_support).
bool mpi_reports_cuda_support();

}  // namespace simapp
