#pragma once
/// The process's MPI lifetime (MPI_Init_thread … MPI_Finalize) and how errors leave it:
/// an error every rank meets alike (bad input found before any work) is printed by rank 0
/// and every rank exits with its code; any other error is printed by the rank that met it,
/// with its rank, and MPI_Abort ends the whole job with its code, so no rank is left waiting.
#include <mpi.h>

#include "kernels/backend/error.hpp"

namespace simapp::app {

class MpiSession {
 public:
  MpiSession(int& argc, char**& argv);
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
  ~MpiSession();

  int rank() const { return rank_; }
  int size() const { return size_; }
  bool root() const { return rank_ == 0; }

  /// For an error all ranks met alike: rank 0 prints it; returns its exit code.
  int uniform_error(const Error& error) const;
  /// For an error this rank alone may have met: prints it with the rank and aborts the job.
  [[noreturn]] void abort_job(const Error& error) const;

 private:
  int rank_ = 0;
  int size_ = 1;
};

/// The node-local rank (OMPI_COMM_WORLD_LOCAL_RANK, SLURM_LOCALID, or a shared-memory split).
int node_local_rank();

}  // namespace simapp::app
