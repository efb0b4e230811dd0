#pragma once
/// Non-owning, trivially copyable view of `num_vars` arrays laid out q[var][k][j][i] (i fastest)
/// over nx × ny × nz interior cells surrounded by `halo` ghost cells on every side of the model's
/// axes. `Dims` is the model's number of dimensions: 3, the x–y–z model; 2, the x–z slice, which
/// has no y axis (ny = 1, no ghost rows along y), so its layout is q[var][k][i]. Indices are
/// interior-relative: i ∈ [−halo, nx + halo), likewise j (3-D) and k; a 2-D index has j = 0.
#include <cstddef>
#include <type_traits>

#include "kernels/backend/host_device.hpp"

namespace simapp {

/// The most rows (variable, k, j) an array may have: FieldShape::offset counts them in an int.
inline constexpr long max_field_rows = 2147483647L;

template <int Dims>
struct FieldShape {
  static_assert(Dims == 2 || Dims == 3, "a model has two or three dimensions");
  static constexpr int dims = Dims;

  int nx = 0;
  int ny = 1;  ///< 1 in the 2-D model
  int nz = 0;
  int halo = 0;
  int num_vars = 0;

  /// The ghost cells a side along y: none in the 2-D model.
  SIMAPP_HOST_DEVICE int halo_y() const { return Dims == 3 ? halo : 0; }
  SIMAPP_HOST_DEVICE int padded_nx() const { return nx + 2 * halo; }
  SIMAPP_HOST_DEVICE int padded_ny() const { return Dims == 3 ? ny + 2 * halo : 1; }
  SIMAPP_HOST_DEVICE int padded_nz() const { return nz + 2 * halo; }
  /// The distance between rows j and j + 1, and between layers k and k + 1.
  SIMAPP_HOST_DEVICE std::size_t row_stride() const { return static_cast<std::size_t>(padded_nx()); }
  SIMAPP_HOST_DEVICE std::size_t layer_stride() const { return row_stride() * padded_ny(); }
  SIMAPP_HOST_DEVICE std::size_t var_stride() const { return layer_stride() * padded_nz(); }
  SIMAPP_HOST_DEVICE std::size_t size() const { return var_stride() * num_vars; }
  /// Rows (var, k, j) of the arrays: at most max_field_rows (a configuration with more is refused),
  /// so that offset counts them in an int.
  SIMAPP_HOST_DEVICE long rows() const { return static_cast<long>(num_vars) * padded_nz() * padded_ny(); }
  /// Where value (var, k, j, i) lies: its row (var, k, j) as an int, times the row's length, plus i:
  /// one 32 × 32 → 64-bit product (a kernel's loads and stores work it out for every cell).
  SIMAPP_HOST_DEVICE std::size_t offset(int var, int k, int j, int i) const {
    const int row = (var * padded_nz() + (k + halo)) * padded_ny() + (j + halo_y());
    return static_cast<std::size_t>(static_cast<unsigned>(row)) * static_cast<unsigned>(padded_nx()) +
           static_cast<unsigned>(i + halo);
  }
  /// The 2-D model's cell (i, k).
  template <int D = Dims, std::enable_if_t<D == 2, int> = 0>
  SIMAPP_HOST_DEVICE std::size_t offset(int var, int k, int i) const {
    return offset(var, k, 0, i);
  }
};

template <class T, int Dims>
struct FieldView {
  T* data = nullptr;
  FieldShape<Dims> shape;

  SIMAPP_HOST_DEVICE T& operator()(int var, int k, int j, int i) const { return data[shape.offset(var, k, j, i)]; }
  /// The 2-D model's cell (i, k).
  template <int D = Dims, std::enable_if_t<D == 2, int> = 0>
  SIMAPP_HOST_DEVICE T& operator()(int var, int k, int i) const {
    return data[shape.offset(var, k, i)];
  }

  /// A read-only view of the same data.
  template <class U = T, std::enable_if_t<!std::is_const_v<U>, int> = 0>
  SIMAPP_HOST_DEVICE operator FieldView<const U, Dims>() const {
    return {data, shape};
  }
};

/// A field of the model of `Dims` dimensions as a function parameter from which Dims is not
/// deduced (another parameter gives it), so that a writable view passes where a read-only one is
/// asked for.
template <class T, int Dims>
struct FieldOfDims {
  using type = FieldView<T, Dims>;
};
template <class T, int Dims>
using FieldOf = typename FieldOfDims<T, Dims>::type;

/// A box of cell indices [i_lo, i_hi) × [j_lo, j_hi) × [k_lo, k_hi) (2-D: j ∈ [0, 1)).
struct CellBox {
  int i_lo = 0, i_hi = 0;
  int j_lo = 0, j_hi = 0;
  int k_lo = 0, k_hi = 0;
};

/// The interior cells of `shape`.
template <int Dims>
SIMAPP_HOST_DEVICE inline CellBox interior_cells(const FieldShape<Dims>& shape) {
  return {0, shape.nx, 0, shape.ny, 0, shape.nz};
}

}  // namespace simapp
