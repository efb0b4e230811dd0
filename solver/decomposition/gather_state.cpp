#include "solver/decomposition/gather_state.hpp"

#include "kernels/physics/variables.hpp"

namespace simapp {

std::vector<double> interior_of(const FieldShape& shape, const std::vector<double>& padded) {
  std::vector<double> interior;
  interior.reserve(static_cast<std::size_t>(shape.nx) * shape.nz * shape.num_vars);
  for (int v = 0; v < shape.num_vars; ++v)
    for (int k = 0; k < shape.nz; ++k)
      for (int i = 0; i < shape.nx; ++i) interior.push_back(padded[shape.offset(v, k, i)]);
  return interior;
}

std::vector<double> gather_interior(const Decomposition& decomposition, const std::vector<double>& interior) {
  constexpr int num_vars = var::count;
  const int ranks = decomposition.size();
  const bool root = decomposition.rank() == 0;
  std::vector<int> counts(root ? ranks : 0), displacements(root ? ranks : 0);
  int total = 0;
  for (int r = 0; root && r < ranks; ++r) {
    const RankBox box = decomposition.box_of(r);
    counts[r] = box.nx * box.nz * num_vars;
    displacements[r] = total;
    total += counts[r];
  }
  std::vector<double> received(root ? total : 0);
  MPI_Gatherv(interior.data(), static_cast<int>(interior.size()), MPI_DOUBLE, received.data(), counts.data(),
              displacements.data(), MPI_DOUBLE, 0, decomposition.comm());
  if (!root) return {};

  const int nx = decomposition.global().nx, nz = decomposition.global().nz;
  std::vector<double> global(static_cast<std::size_t>(nx) * nz * num_vars);
  for (int r = 0; r < ranks; ++r) {
    const RankBox box = decomposition.box_of(r);
    const double* part = received.data() + displacements[r];
    for (int v = 0; v < num_vars; ++v)
      for (int k = 0; k < box.nz; ++k)
        for (int i = 0; i < box.nx; ++i)
          global[(static_cast<std::size_t>(v) * nz + box.k_offset + k) * nx + box.i_offset + i] =
              part[(static_cast<std::size_t>(v) * box.nz + k) * box.nx + i];
  }
  return global;
}

}  // namespace simapp
