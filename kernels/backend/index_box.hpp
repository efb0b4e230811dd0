#pragma once
/// A half-open rectangle of cell (or face) indices [i_lo, i_hi) × [k_lo, k_hi).
#include <cstdint>

#include "kernels/backend/host_device.hpp"

namespace simapp {

struct IndexBox {
  int i_lo = 0, i_hi = 0;  ///< x indices
  int k_lo = 0, k_hi = 0;  ///< z indices

  SIMAPP_HOST_DEVICE int width() const { return i_hi - i_lo; }
  SIMAPP_HOST_DEVICE int height() const { return k_hi - k_lo; }
  SIMAPP_HOST_DEVICE std::int64_t size() const {
    return width() > 0 && height() > 0 ? std::int64_t{width()} * height() : 0;
  }
};

}  // namespace simapp
