#pragma once
/// The global grid and this rank's part of it.
#include "kernels/backend/field_view.hpp"
#include "kernels/physics/cell_geometry.hpp"
#include "kernels/physics/constants.hpp"
#include "kernels/physics/variables.hpp"
#include "solver/grid/grid_spec.hpp"

namespace simapp {

class Grid {
 public:
  explicit Grid(const GridSpec& spec) : spec_(spec) {}

  const GridSpec& spec() const { return spec_; }
  double dx() const { return spec_.xlen / spec_.nx; }  ///< m
  double dz() const { return spec_.zlen / spec_.nz; }  ///< m
  int nx() const { return spec_.nx; }  ///< local interior cells in x
  int nz() const { return spec_.nz; }  ///< local interior cells in z

  CellGeometry geometry() const {
    return CellGeometry{dx(), dz(), spec_.xlen, spec_.zlen, spec_.nx, spec_.nz, 0, 0};
  }

  /// Shape of the prognostic arrays: 4 variables with halos.
  FieldShape cell_shape() const { return {nx(), nz(), numerics::halo_width, var::count}; }

  /// Shape of the face-flux arrays: (nx + 1) × (nz + 1) faces, 4 variables, no halo.
  FieldShape face_shape() const { return {nx() + 1, nz() + 1, 0, var::count}; }

 private:
  GridSpec spec_;
};

}  // namespace simapp
