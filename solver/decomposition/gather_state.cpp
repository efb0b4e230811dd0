#include "solver/decomposition/gather_state.hpp"

#include <algorithm>

#include "kernels/physics/variables.hpp"

namespace simapp {

std::vector<double> interior_of(const FieldShape& shape, std::span<const double> padded) {
  const auto row = static_cast<std::size_t>(shape.nx);
  std::vector<double> interior(row * static_cast<std::size_t>(shape.nz) * static_cast<std::size_t>(shape.num_vars));
  double* out = interior.data();
  for (int v = 0; v < shape.num_vars; ++v)
    for (int k = 0; k < shape.nz; ++k, out += row) std::copy_n(padded.data() + shape.offset(v, k, 0), row, out);
  return interior;
}

std::vector<int> message_sizes(std::size_t values, std::size_t largest) {
  std::vector<int> sizes(values / largest, static_cast<int>(largest));
  if (values % largest != 0) sizes.push_back(static_cast<int>(values % largest));
  return sizes;
}

namespace {

constexpr int gather_tag = 7;

std::size_t block_values(const RankBox& box) {
  return static_cast<std::size_t>(box.nx) * static_cast<std::size_t>(box.nz) * var::count;
}

/// Copies a rank's block [var][k][i] into its place in the global state.
void place_block(const RankBox& box, const double* block, int nx, int nz, std::vector<double>& global) {
  for (int v = 0; v < var::count; ++v)
    for (int k = 0; k < box.nz; ++k)
      for (int i = 0; i < box.nx; ++i)
        global[(static_cast<std::size_t>(v) * nz + box.k_offset + k) * nx + box.i_offset + i] =
            block[(static_cast<std::size_t>(v) * box.nz + k) * box.nx + i];
}

}  // namespace

std::vector<double> gather_interior(const Decomposition& decomposition, std::span<const double> interior,
                                    std::size_t largest_message) {
  const MPI_Comm comm = decomposition.comm();
  if (decomposition.rank() != 0) {
    std::size_t sent = 0;
    for (const int size : message_sizes(interior.size(), largest_message)) {
      MPI_Send(interior.data() + sent, size, MPI_DOUBLE, 0, gather_tag, comm);
      sent += static_cast<std::size_t>(size);
    }
    return {};
  }
  const int nx = decomposition.global().nx, nz = decomposition.global().nz;
  std::vector<double> global(static_cast<std::size_t>(nx) * static_cast<std::size_t>(nz) * var::count);
  place_block(decomposition.box_of(0), interior.data(), nx, nz, global);
  std::vector<double> block;
  for (int r = 1; r < decomposition.size(); ++r) {
    const RankBox box = decomposition.box_of(r);
    block.resize(block_values(box));
    std::size_t received = 0;
    for (const int size : message_sizes(block.size(), largest_message)) {
      MPI_Recv(block.data() + received, size, MPI_DOUBLE, r, gather_tag, comm, MPI_STATUS_IGNORE);
      received += static_cast<std::size_t>(size);
    }
    place_block(box, block.data(), nx, nz, global);
  }
  return global;
}

}  // namespace simapp
