#pragma once
/// Non-owning, trivially copyable view of `num_vars` 2-D arrays laid out q[var][k][i]
/// (i fastest) over nx × nz interior cells surrounded by `halo` ghost cells on every side.
/// Indices are interior-relative: i ∈ [−halo, nx + halo), k ∈ [−halo, nz + halo).
#include <cstddef>
#include <type_traits>

#include "kernels/backend/host_device.hpp"

namespace simapp {

struct FieldShape {
  int nx = 0;
  int nz = 0;
  int halo = 0;
  int num_vars = 0;

  SIMAPP_HOST_DEVICE int padded_nx() const { return nx + 2 * halo; }
  SIMAPP_HOST_DEVICE int padded_nz() const { return nz + 2 * halo; }
  SIMAPP_HOST_DEVICE std::size_t var_stride() const { return static_cast<std::size_t>(padded_nx()) * padded_nz(); }
  SIMAPP_HOST_DEVICE std::size_t size() const { return var_stride() * num_vars; }
  SIMAPP_HOST_DEVICE std::size_t offset(int var, int k, int i) const {
    return var * var_stride() + static_cast<std::size_t>(k + halo) * padded_nx() + (i + halo);
  }
};

template <class T>
struct FieldView {
  T* data = nullptr;
  FieldShape shape;

  SIMAPP_HOST_DEVICE T& operator()(int var, int k, int i) const { return data[shape.offset(var, k, i)]; }

  /// A read-only view of the same data.
  template <class U = T, std::enable_if_t<!std::is_const_v<U>, int> = 0>
  SIMAPP_HOST_DEVICE operator FieldView<const U>() const {
    return {data, shape};
  }
};

}  // namespace simapp
