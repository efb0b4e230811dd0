#pragma once
/// This process's rank in MPI_COMM_WORLD and the world's size, for MPI tests.
#include <mpi.h>

namespace simapp::testing {

inline int world_rank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

inline int world_size() {
  int ranks = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  return ranks;
}

}  // namespace simapp::testing
