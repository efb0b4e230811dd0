#pragma once
/// The global grid and this rank's part of it.
#include "kernels/backend/field_view.hpp"
#include "kernels/physics/cell_geometry.hpp"
#include "kernels/physics/constants.hpp"
#include "kernels/physics/variables.hpp"
#include "solver/grid/grid_spec.hpp"
#include "solver/grid/rank_box.hpp"

namespace simapp {

class Grid {
 public:
  /// The whole grid on one rank.
  explicit Grid(const GridSpec& spec) : Grid(spec, RankBox{spec.nx, spec.nz, 0, 0, spec.ny, 0}) {}
  Grid(const GridSpec& spec, const RankBox& box) : spec_(spec), box_(box) {}

  const GridSpec& spec() const { return spec_; }  ///< the global grid
  const RankBox& box() const { return box_; }
  double dx() const { return spec_.xlen / spec_.nx; }  ///< m
  double dz() const { return spec_.zlen / spec_.nz; }  ///< m
  int nx() const { return box_.nx; }                   ///< this rank's interior cells in x
  int nz() const { return box_.nz; }                   ///< this rank's interior cells in z
  /// The 3-D model (grid.ny > 1) rather than the 2-D x–z slice.
  bool is_3d() const { return spec_.ny > 1; }
  double dy() const { return spec_.ylen / spec_.ny; }  ///< m (the 3-D model)
  int ny() const { return box_.ny; }                   ///< this rank's interior cells in y
  /// The spacing the horizontal passes' time-step limits see: dx, and in 3-D min(dx, dy).
  double horizontal_spacing() const { return simapp::horizontal_spacing(spec_); }

  /// Where this rank's cells are, in the model of `Dims` dimensions.
  template <int Dims>
  CellGeometry<Dims> geometry() const {
    const CellGeometry<2> xz{dx(), dz(), spec_.xlen, spec_.zlen, spec_.nx, spec_.nz, box_.i_offset, box_.k_offset};
    if constexpr (Dims == 3)
      return {xz, dy(), spec_.ylen, spec_.ny, box_.j_offset};
    else
      return xz;
  }

  /// Shape of the prognostic arrays of the model of `Dims` dimensions: its variables, then the
  /// tracers, with halos.
  template <int Dims>
  FieldShape<Dims> cell_shape() const {
    return {nx(), Dims == 3 ? ny() : 1, nz(), numerics::halo_width,
            ModelVariables<Dims>::count + static_cast<int>(state_tracers(spec_).size())};
  }

 private:
  GridSpec spec_;
  RankBox box_;
};

}  // namespace simapp
