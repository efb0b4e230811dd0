#pragma once
/// NCCL over the ranks of an MPI communicator, with the same rank numbers, for halo messages
/// queued on CUDA streams (parallel.halo: nccl). MPI starts the job and carries NCCL's
/// bootstrap id; after that the messages are device work, so stream capture puts them in
/// the step's graph like any kernel.
#include <mpi.h>

#include <cstddef>
#include <string>

#include "kernels/backend/stream.hpp"

struct ncclComm;

namespace simapp {

/// The version of the NCCL library loaded ("2.21.5"); empty in a build without NCCL.
std::string nccl_version();

/// NCCL runs one rank per GPU. Collective over `comm`: throws a bad-input Error on every
/// rank alike when two ranks use the same GPU of one host.
void require_one_gpu_per_rank(MPI_Comm comm);

class NcclCommunicator {
 public:
  /// Collective over `comm`; each rank must have selected its own GPU.
  explicit NcclCommunicator(MPI_Comm comm);
  NcclCommunicator(const NcclCommunicator&) = delete;
  NcclCommunicator& operator=(const NcclCommunicator&) = delete;
  ~NcclCommunicator();

  /// Queues one NCCL group on `stream` that sends send[side] to that side's neighbour and
  /// receives receive[side] from it, for each side with a neighbour (a rank; MPI_PROC_NULL
  /// beyond a wall). Buffers hold both sides, [low | high], `bytes` bytes each (values of either
  /// precision).
  void exchange(const Stream& stream, const void* send, void* receive, std::size_t bytes, int low_neighbour,
                int high_neighbour) const;

 private:
  ncclComm* comm_ = nullptr;
};

}  // namespace simapp
