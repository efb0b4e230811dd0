#include "solver/decomposition/decomposition.hpp"

#include <string>

#include "foundation/error.hpp"
#include "kernels/physics/constants.hpp"

namespace simapp {

namespace {

/// px × pz from parallel.ranks {px, py, pz}: the 2-D model has one rank along y (py 0 or 1;
/// load_config refuses more), the 3-D model one rank.
std::array<int, 2> layout(int ranks, const GridSpec& grid, const ParallelSpec& parallel) {
  if (grid.ny > 1 && ranks > 1)
    throw Error(ExitCode::bad_input, "parallel",
                "the job has " + std::to_string(ranks) +
                    " ranks, but the 3-D model (grid.ny > 1) runs on one rank in this build");
  if (parallel.ranks[1] > 1)
    throw Error(ExitCode::bad_input, "parallel.ranks",
                std::to_string(parallel.ranks[1]) + " ranks along y, but the 2-D model has one (py = 1)");
  std::array<int, 2> dims{parallel.ranks[0], parallel.ranks[2]};
  const auto describe = [&] { return std::to_string(dims[0]) + " x " + std::to_string(dims[1]); };
  if (dims[0] > 0 && dims[1] > 0 && dims[0] * dims[1] != ranks)
    throw Error(ExitCode::bad_input, "parallel.ranks",
                describe() + " ranks requested but the job has " + std::to_string(ranks));
  if ((dims[0] > 0 && ranks % dims[0] != 0) || (dims[1] > 0 && ranks % dims[1] != 0))
    throw Error(ExitCode::bad_input, "parallel.ranks",
                describe() + " does not divide the job's " + std::to_string(ranks) + " ranks");
  MPI_Dims_create(ranks, 2, dims.data());
  return dims;
}

}  // namespace

Decomposition::Decomposition(MPI_Comm comm, const GridSpec& grid, const ParallelSpec& parallel) : global_(grid) {
  int ranks = 0;
  MPI_Comm_size(comm, &ranks);
  dims_ = layout(ranks, grid, parallel);
  constexpr int halo = numerics::halo_width;
  // The smallest part of a direction is its last one.
  const int smallest_x = part_size(grid.nx, dims_[0], dims_[0] - 1);
  const int smallest_z = part_size(grid.nz, dims_[1], dims_[1] - 1);
  if (smallest_x < halo || smallest_z < halo)
    throw Error(ExitCode::bad_input, "parallel",
                std::to_string(ranks) + " ranks as " + std::to_string(dims_[0]) + " x " + std::to_string(dims_[1]) +
                    " leave a rank " + std::to_string(smallest_x) + " x " + std::to_string(smallest_z) +
                    " cells of the " + std::to_string(grid.nx) + " x " + std::to_string(grid.nz) +
                    " grid; every rank needs at least " + std::to_string(halo) +
                    " (the halo width) in each direction: use fewer ranks or a finer grid");

  const int periodic[2] = {1, 0};
  MPI_Cart_create(comm, 2, dims_.data(), periodic, 0, &cart_);
  MPI_Comm_rank(cart_, &rank_);
  MPI_Cart_coords(cart_, rank_, 2, coords_.data());
  MPI_Cart_shift(cart_, 0, 1, &left_, &right_);
  MPI_Cart_shift(cart_, 1, 1, &below_, &above_);
  box_ = box_of(rank_);
}

Decomposition::~Decomposition() {
  if (cart_ != MPI_COMM_NULL) MPI_Comm_free(&cart_);
}

RankBox Decomposition::box_of(int rank) const {
  int coords[2] = {0, 0};
  MPI_Cart_coords(cart_, rank, 2, coords);
  return {part_size(global_.nx, dims_[0], coords[0]),
          part_size(global_.nz, dims_[1], coords[1]),
          part_offset(global_.nx, dims_[0], coords[0]),
          part_offset(global_.nz, dims_[1], coords[1]),
          global_.ny,
          0};
}

}  // namespace simapp
