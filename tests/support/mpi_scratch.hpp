#pragma once
/// A scratch directory for an MPI test that every rank of the job names alike and no other
/// job shares: the name, the job's rank count and rank 0's process id.
#include <mpi.h>
#include <unistd.h>

#include <filesystem>
#include <string>

namespace simapp::testing {

inline std::filesystem::path job_scratch_directory(const std::string& name, MPI_Comm comm = MPI_COMM_WORLD) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  int id = static_cast<int>(::getpid());
  MPI_Bcast(&id, 1, MPI_INT, 0, comm);
  return std::filesystem::temp_directory_path() / (name + "_" + std::to_string(size) + "ranks_" + std::to_string(id));
}

}  // namespace simapp::testing
