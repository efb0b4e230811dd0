#pragma once
/// Non-owning, trivially copyable view of `num_vars` 3-D arrays laid out q[var][k][j][i]
/// (i fastest) over nx × ny × nz interior cells surrounded by `halo` ghost cells on every side:
/// the 3-D model's fields (grid.ny > 1). Indices are interior-relative, as in FieldShape.
#include <cstddef>
#include <type_traits>

#include "kernels/backend/host_device.hpp"

namespace simapp {

struct FieldShape3d {
  int nx = 0;
  int ny = 0;
  int nz = 0;
  int halo = 0;
  int num_vars = 0;

  SIMAPP_HOST_DEVICE int padded_nx() const { return nx + 2 * halo; }
  SIMAPP_HOST_DEVICE int padded_ny() const { return ny + 2 * halo; }
  SIMAPP_HOST_DEVICE int padded_nz() const { return nz + 2 * halo; }
  /// The distance between rows j and j + 1, and between layers k and k + 1.
  SIMAPP_HOST_DEVICE std::size_t row_stride() const { return static_cast<std::size_t>(padded_nx()); }
  SIMAPP_HOST_DEVICE std::size_t layer_stride() const { return row_stride() * padded_ny(); }
  SIMAPP_HOST_DEVICE std::size_t var_stride() const { return layer_stride() * padded_nz(); }
  SIMAPP_HOST_DEVICE std::size_t size() const { return var_stride() * num_vars; }
  SIMAPP_HOST_DEVICE std::size_t offset(int var, int k, int j, int i) const {
    return var * var_stride() + static_cast<std::size_t>(k + halo) * layer_stride() +
           static_cast<std::size_t>(j + halo) * row_stride() + (i + halo);
  }
};

template <class T>
struct FieldView3d {
  T* data = nullptr;
  FieldShape3d shape;

  SIMAPP_HOST_DEVICE T& operator()(int var, int k, int j, int i) const { return data[shape.offset(var, k, j, i)]; }

  /// A read-only view of the same data.
  template <class U = T, std::enable_if_t<!std::is_const_v<U>, int> = 0>
  SIMAPP_HOST_DEVICE operator FieldView3d<const U>() const {
    return {data, shape};
  }
};

/// A box of cell indices [i_lo, i_hi) × [j_lo, j_hi) × [k_lo, k_hi).
struct CellBox3d {
  int i_lo = 0, i_hi = 0;
  int j_lo = 0, j_hi = 0;
  int k_lo = 0, k_hi = 0;
};

/// The interior cells of `shape`.
SIMAPP_HOST_DEVICE inline CellBox3d interior_cells(const FieldShape3d& shape) {
  return {0, shape.nx, 0, shape.ny, 0, shape.nz};
}

}  // namespace simapp
