#pragma once
/// How a run's halo messages travel between ranks (parallel.halo, parallel.cuda_aware_mpi).
#include <string>
#include <string_view>

#include "kernels/backend/backend_kind.hpp"
#include "solver/spec/run_spec.hpp"

namespace simapp {

enum class HaloPath {
  mpi,         ///< MPI from the host with the packing buffers (host backend, or CUDA-aware MPI): a Host op
  mpi_staged,  ///< MPI from the host through pinned copies of the packing buffers: a Host op
  nccl,        ///< ncclSend/ncclRecv queued on the stream: device work, captured in graphs
};

/// True when this binary was built with NCCL halo exchanges.
bool nccl_compiled();

/// What carries a run's halos, and why.
struct HaloTransportChoice {
  HaloTransport transport = HaloTransport::mpi;
  std::string reason;  ///< for the header: "as configured", or what decided parallel.halo: auto
};

/// parallel.halo `asked` made concrete for a run of `ranks` ranks on `backend`; for auto, NCCL
/// where this build has it, the backend is CUDA and every rank has a GPU of its own
/// (`one_gpu_per_rank`), MPI otherwise.
HaloTransportChoice choose_halo_transport(HaloTransport asked, Backend backend, int ranks, bool one_gpu_per_rank);

/// The path a run on `backend` takes (parallel.halo made concrete first). Throws a bad-input Error (alike on every
/// rank) when parallel.halo asks for NCCL and this build or backend cannot give it.
HaloPath halo_path(Backend backend, const ParallelSpec& parallel);

/// A Host op carries the exchange (so each exchange ends a graph).
inline bool exchanges_on_host(HaloPath path) { return path != HaloPath::nccl; }

/// How halos travel on `backend` by `path`, for reports: "halos by …".
std::string_view describe(HaloPath path, Backend backend);

}  // namespace simapp
