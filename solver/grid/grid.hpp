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

  CellGeometry<2> geometry() const {
    return CellGeometry<2>{dx(), dz(), spec_.xlen, spec_.zlen, spec_.nx, spec_.nz, box_.i_offset, box_.k_offset};
  }

  /// Shape of the prognostic arrays: 4 variables with halos.
  FieldShape<2> cell_shape() const { return {nx(), 1, nz(), numerics::halo_width, var::count}; }

  /// The 3-D model's geometry and the shape of its prognostic arrays: 5 variables with halos.
  CellGeometry<3> geometry_3d() const { return {geometry(), dy(), spec_.ylen, spec_.ny, box_.j_offset}; }
  FieldShape<3> cell_shape_3d() const { return {nx(), ny(), nz(), numerics::halo_width, ModelVariables<3>::count}; }

  /// Shape of the face-flux arrays: (nx + 1) × (nz + 1) faces, 4 variables, no halo.
  FieldShape<2> face_shape() const { return {nx() + 1, 1, nz() + 1, 0, var::count}; }

 private:
  GridSpec spec_;
  RankBox box_;
};

}  // namespace simapp
