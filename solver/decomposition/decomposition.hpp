#pragma once
/// The Cartesian decomposition of the global grid over MPI ranks: px × pz ranks for the 2-D
/// model, periodic in x, walls in z; px × py × pz for the 3-D model (grid.ny > 1), periodic in
/// x and y. Cells are split as evenly as possible (the first `cells mod parts` ranks of a
/// direction get one more).
#include <mpi.h>

#include <array>
#include <utility>

#include "kernels/physics/variables.hpp"
#include "solver/grid/grid_spec.hpp"
#include "solver/grid/rank_box.hpp"
#include "solver/spec/run_spec.hpp"

namespace simapp {

/// Cells of part `index` when `cells` are split into `parts` as evenly as possible.
constexpr int part_size(int cells, int parts, int index) { return cells / parts + (index < cells % parts ? 1 : 0); }
/// Global index of the first cell of part `index`.
constexpr int part_offset(int cells, int parts, int index) {
  return index * (cells / parts) + (index < cells % parts ? index : cells % parts);
}

class Decomposition {
 public:
  /// Collective over `comm`. Throws a bad-input Error (on every rank alike) when the layout
  /// does not match the rank count or leaves a rank fewer cells than the halo width.
  Decomposition(MPI_Comm comm, const GridSpec& grid, const ParallelSpec& parallel);
  Decomposition(const Decomposition&) = delete;
  Decomposition& operator=(const Decomposition&) = delete;
  ~Decomposition();

  MPI_Comm comm() const { return cart_; }  ///< the Cartesian communicator
  int rank() const { return rank_; }
  int size() const { return dims_[0] * dims_[1] * dims_[2]; }
  int px() const { return dims_[0]; }
  int py() const { return dims_[1]; }  ///< 1 in the 2-D model
  int pz() const { return dims_[2]; }
  const GridSpec& global() const { return global_; }
  const RankBox& box() const { return box_; }
  RankBox box_of(int rank) const;

  /// Neighbour ranks (MPI_PROC_NULL beyond a wall).
  int left() const { return left_; }
  int right() const { return right_; }
  int below() const { return below_; }
  int above() const { return above_; }
  int front() const { return front_; }  ///< the neighbour at lower y (the 3-D model; periodic)
  int back() const { return back_; }    ///< at higher y
  bool splits_x() const { return px() > 1; }
  bool splits_y() const { return py() > 1; }
  bool splits_z() const { return pz() > 1; }
  /// The neighbours on the low and high side along `direction`.
  std::pair<int, int> neighbours(Direction direction) const;

 private:
  GridSpec global_;
  std::array<int, 3> dims_{1, 1, 1};  ///< px, py, pz
  MPI_Comm cart_ = MPI_COMM_NULL;
  int rank_ = 0;
  int left_ = MPI_PROC_NULL, right_ = MPI_PROC_NULL, below_ = MPI_PROC_NULL, above_ = MPI_PROC_NULL;
  int front_ = MPI_PROC_NULL, back_ = MPI_PROC_NULL;
  RankBox box_;
};

}  // namespace simapp
