#include "solver/decomposition/decomposition.hpp"

#include <string>
#include <vector>

#include <fmt/format.h>

#include "foundation/error.hpp"
#include "kernels/physics/constants.hpp"

namespace simapp {

namespace {

/// px × py × pz from parallel.ranks {px, py, pz} (0: chosen by MPI_Dims_create): the 2-D model
/// has one rank along y (py 0 or 1; load_config refuses more); the microphysics works on whole
/// columns, so with water pz is 1.
std::array<int, 3> layout(int ranks, const GridSpec& grid, const ParallelSpec& parallel) {
  const bool three_d = grid.ny > 1;
  if (!three_d && parallel.ranks[1] > 1)
    throw Error(ExitCode::bad_input, "parallel.ranks",
                std::to_string(parallel.ranks[1]) + " ranks along y, but the 2-D model has one (py = 1)");
  int pz = parallel.ranks[2];
  if (grid.microphysics != Microphysics::none) {
    if (pz > 1)
      throw Error(
          ExitCode::bad_input, "parallel.ranks",
          std::to_string(pz) + " ranks along z, but physics.microphysics needs whole columns on a rank (pz = 1)");
    pz = 1;
  }
  std::vector<int> dims =
      three_d ? std::vector<int>{parallel.ranks[0], parallel.ranks[1], pz} : std::vector<int>{parallel.ranks[0], pz};
  const auto describe = [&] {
    std::string text;
    for (const int d : dims) text += (text.empty() ? "" : " x ") + std::to_string(d);
    return text;
  };
  int given = 1;
  bool all_given = true;
  for (const int d : dims) {
    if (d > 0) given *= d;
    all_given = all_given && d > 0;
  }
  if (all_given && given != ranks)
    throw Error(ExitCode::bad_input, "parallel.ranks",
                describe() + " ranks requested but the job has " + std::to_string(ranks));
  if (ranks % given != 0)
    throw Error(ExitCode::bad_input, "parallel.ranks",
                describe() + " does not divide the job's " + std::to_string(ranks) + " ranks");
  MPI_Dims_create(ranks, static_cast<int>(dims.size()), dims.data());
  return three_d ? std::array<int, 3>{dims[0], dims[1], dims[2]} : std::array<int, 3>{dims[0], 1, dims[1]};
}

/// The dims or coordinates of the communicator's axes: (x, z) in 2-D, (x, y, z) in 3-D.
std::vector<int> cart_axes(const std::array<int, 3>& xyz, bool three_d) {
  return three_d ? std::vector<int>{xyz[0], xyz[1], xyz[2]} : std::vector<int>{xyz[0], xyz[2]};
}

}  // namespace

Decomposition::Decomposition(MPI_Comm comm, const GridSpec& grid, const ParallelSpec& parallel) : global_(grid) {
  int ranks = 0;
  MPI_Comm_size(comm, &ranks);
  dims_ = layout(ranks, grid, parallel);
  constexpr int halo = numerics::halo_width;
  const bool three_d = grid.ny > 1;
  // The smallest part of a direction is its last one.
  const int smallest_x = part_size(grid.nx, dims_[0], dims_[0] - 1);
  const int smallest_y = part_size(grid.ny, dims_[1], dims_[1] - 1);
  const int smallest_z = part_size(grid.nz, dims_[2], dims_[2] - 1);
  if (smallest_x < halo || smallest_z < halo || (three_d && smallest_y < halo)) {
    const std::string layout_text = three_d ? fmt::format("{} x {} x {}", dims_[0], dims_[1], dims_[2])
                                            : fmt::format("{} x {}", dims_[0], dims_[2]);
    const std::string smallest = three_d ? fmt::format("{} x {} x {}", smallest_x, smallest_y, smallest_z)
                                         : fmt::format("{} x {}", smallest_x, smallest_z);
    throw Error(ExitCode::bad_input, "parallel",
                fmt::format("{} ranks as {} leave a rank {} cells of the {} grid; every rank needs at least {} (the "
                            "halo width) in each direction: use fewer ranks or a finer grid",
                            ranks, layout_text, smallest, cells_text(grid), halo));
  }

  const std::vector<int> dims = cart_axes(dims_, three_d);
  const std::vector<int> periodic = three_d ? std::vector<int>{1, 1, 0} : std::vector<int>{1, 0};
  MPI_Cart_create(comm, static_cast<int>(dims.size()), dims.data(), periodic.data(), 0, &cart_);
  MPI_Comm_rank(cart_, &rank_);
  MPI_Cart_shift(cart_, 0, 1, &left_, &right_);
  MPI_Cart_shift(cart_, three_d ? 2 : 1, 1, &below_, &above_);
  if (three_d) MPI_Cart_shift(cart_, 1, 1, &front_, &back_);
  box_ = box_of(rank_);
}

Decomposition::~Decomposition() {
  if (cart_ != MPI_COMM_NULL) MPI_Comm_free(&cart_);
}

RankBox Decomposition::box_of(int rank) const {
  const bool three_d = global_.ny > 1;
  std::vector<int> coords(three_d ? 3 : 2, 0);
  MPI_Cart_coords(cart_, rank, static_cast<int>(coords.size()), coords.data());
  const int cx = coords[0], cy = three_d ? coords[1] : 0, cz = coords.back();
  return {part_size(global_.nx, dims_[0], cx),   part_size(global_.nz, dims_[2], cz),
          part_offset(global_.nx, dims_[0], cx), part_offset(global_.nz, dims_[2], cz),
          part_size(global_.ny, dims_[1], cy),   part_offset(global_.ny, dims_[1], cy)};
}

std::pair<int, int> Decomposition::neighbours(Direction direction) const {
  switch (direction) {
    case Direction::x: return {left_, right_};
    case Direction::y: return {front_, back_};
    case Direction::z: return {below_, above_};
  }
  return {MPI_PROC_NULL, MPI_PROC_NULL};
}

}  // namespace simapp
