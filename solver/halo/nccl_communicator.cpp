#include "solver/halo/nccl_communicator.hpp"

#include <cstdint>

#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include "foundation/error.hpp"

#if SIMAPP_USE_NCCL
#include <nccl.h>

#define SIMAPP_CUDA_RUNTIME 1
#include "kernels/backend/cuda_check.hpp"
#endif

namespace simapp {

#if SIMAPP_USE_NCCL

namespace {

void check_nccl(ncclResult_t result, const char* call) {
  if (result == ncclSuccess) return;
  throw Error(ExitCode::internal, "nccl",
              std::string(call) + ": " + ncclGetErrorString(result) + " (" + ncclGetLastError(nullptr) + ")");
}

/// Where a rank runs: its host and its GPU's PCI bus id.
struct GpuPlace {
  char host[64];
  char bus_id[32];
  bool operator==(const GpuPlace& other) const {
    return std::strcmp(host, other.host) == 0 && std::strcmp(bus_id, other.bus_id) == 0;
  }
};

}  // namespace

void require_one_gpu_per_rank(MPI_Comm comm) {
  GpuPlace mine{};
  gethostname(mine.host, sizeof mine.host - 1);
  int device = 0;
  SIMAPP_CUDA_CHECK(cudaGetDevice(&device));
  SIMAPP_CUDA_CHECK(cudaDeviceGetPCIBusId(mine.bus_id, sizeof mine.bus_id, device));
  int ranks = 0;
  MPI_Comm_size(comm, &ranks);
  std::vector<GpuPlace> places(static_cast<std::size_t>(ranks));
  MPI_Allgather(&mine, sizeof mine, MPI_BYTE, places.data(), sizeof mine, MPI_BYTE, comm);
  for (int a = 0; a < ranks; ++a)
    for (int b = a + 1; b < ranks; ++b)
      if (places[a] == places[b])
        throw Error(ExitCode::bad_input, "parallel.halo",
                    "nccl needs one GPU per rank, but ranks " + std::to_string(a) + " and " + std::to_string(b) +
                        " share GPU " + places[a].bus_id + " on " + places[a].host +
                        " (start at most as many ranks per node as it has GPUs, or use parallel.halo: mpi)");
}

NcclCommunicator::NcclCommunicator(MPI_Comm comm) {
  // By default NCCL joins each captured call to its other work through event record and wait
  // nodes, which a conditional graph body may not hold: graph_loop's loop graph would not
  // instantiate ("invalid argument"). simapp never runs NCCL calls of a graph beside calls
  // outside it or of another graph (one stream queues them in turn), so it turns that support
  // off, unless the job's environment sets NCCL_GRAPH_MIXING_SUPPORT itself.
  setenv("NCCL_GRAPH_MIXING_SUPPORT", "0", 0);
  int rank = 0, ranks = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);
  ncclUniqueId id{};
  if (rank == 0) check_nccl(ncclGetUniqueId(&id), "ncclGetUniqueId");
  MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, comm);
  check_nccl(ncclCommInitRank(&comm_, ranks, id, rank), "ncclCommInitRank");
}

NcclCommunicator::~NcclCommunicator() {
  // Leaving on an error, peers may never post their matching calls: abort instead of
  // flushing, which could wait for them.
  if (std::uncaught_exceptions() > 0) {
    ncclCommAbort(comm_);
    return;
  }
  ncclCommFinalize(comm_);
  ncclCommDestroy(comm_);
}

void NcclCommunicator::exchange(const Stream& stream, const void* send_values, void* receive_values, std::size_t count,
                                int low_neighbour, int high_neighbour) const {
  const auto* send = static_cast<const std::uint8_t*>(send_values);
  auto* receive = static_cast<std::uint8_t*>(receive_values);
  // Calls to one peer within a group are matched in order. With a single neighbour on both
  // sides (two ranks, periodic), the first send (towards low) must meet the peer's first
  // receive, which is therefore the one from high: receives high then low, sends low then high.
  cudaStream_t s = stream.cuda_stream;
  const bool low = low_neighbour != MPI_PROC_NULL, high = high_neighbour != MPI_PROC_NULL;
  check_nccl(ncclGroupStart(), "ncclGroupStart");
  if (high) check_nccl(ncclRecv(receive + count, count, ncclUint8, high_neighbour, comm_, s), "ncclRecv");
  if (low) check_nccl(ncclRecv(receive, count, ncclUint8, low_neighbour, comm_, s), "ncclRecv");
  if (low) check_nccl(ncclSend(send, count, ncclUint8, low_neighbour, comm_, s), "ncclSend");
  if (high) check_nccl(ncclSend(send + count, count, ncclUint8, high_neighbour, comm_, s), "ncclSend");
  check_nccl(ncclGroupEnd(), "ncclGroupEnd");
}

std::string nccl_version() {
  int code = 0;
  if (ncclGetVersion(&code) != ncclSuccess) return "unknown";
  // major·10000 + minor·100 + patch since NCCL 2.9, major·1000 + minor·100 + patch before.
  const int major = code >= 10000 ? code / 10000 : code / 1000;
  const int minor = code >= 10000 ? code % 10000 / 100 : code % 1000 / 100;
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(code % 100);
}

#else  // a build without NCCL: halo_path() refuses parallel.halo: nccl before anything here is reached

namespace {
Error not_built() { return Error(ExitCode::bad_input, "parallel.halo", "this simapp was built without NCCL"); }
}  // namespace

void require_one_gpu_per_rank(MPI_Comm) { throw not_built(); }
NcclCommunicator::NcclCommunicator(MPI_Comm) { throw not_built(); }
NcclCommunicator::~NcclCommunicator() = default;
void NcclCommunicator::exchange(const Stream&, const void*, void*, std::size_t, int, int) const { throw not_built(); }
std::string nccl_version() { return ""; }

#endif

}  // namespace simapp
