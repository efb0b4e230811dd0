#include "app/mpi_session.hpp"

#include <cstdlib>
#include <string>

#include <fmt/core.h>

#include "io/hdf5/snapshot_writer.hpp"

namespace simapp::app {

MpiSession::MpiSession(int& argc, char**& argv) {
  // Collective HDF5 writes go through MPI-IO. Open MPI's default component (ompio) was seen
  // to leave a just-closed file incomplete to a reader, and can hang on a full disk; ROMIO
  // does neither. Keep a user's own choice.
  if (io::parallel_hdf5_available()) setenv("OMPI_MCA_io", "romio321", /*overwrite=*/0);
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

MpiSession::~MpiSession() { MPI_Finalize(); }

int MpiSession::uniform_error(const Error& error) const {
  if (root()) fmt::print(stderr, "simapp: error: {}: {}\n", error.where(), error.what());
  return static_cast<int>(error.code());
}

void MpiSession::abort_job(const Error& error) const {
  if (size_ > 1)
    fmt::print(stderr, "simapp: error: rank {}: {}: {}\n", rank_, error.where(), error.what());
  else
    fmt::print(stderr, "simapp: error: {}: {}\n", error.where(), error.what());
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, static_cast<int>(error.code()));
  std::exit(static_cast<int>(error.code()));  // MPI_Abort does not return; keep the contract if it did
}

int node_local_rank() {
  for (const char* variable : {"OMPI_COMM_WORLD_LOCAL_RANK", "SLURM_LOCALID", "MPI_LOCALRANKID"})
    if (const char* value = std::getenv(variable)) return std::atoi(value);
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int local = 0;
  MPI_Comm_rank(node, &local);
  MPI_Comm_free(&node);
  return local;
}

}  // namespace simapp::app
