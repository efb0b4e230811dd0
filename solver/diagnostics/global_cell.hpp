#pragma once
/// A variable at a cell of the global grid, and its code v·NX·NZ + k·NX + i: of several
/// findings (on one rank or over ranks), the first by variable, then row, then column, is the
/// one with the smallest code. The health check's kernel writes the same code.
#include <cstdint>

namespace simapp {

struct GlobalCell {
  int variable = 0;
  std::int64_t i = 0;  ///< global column
  std::int64_t k = 0;  ///< global row

  std::int64_t code(std::int64_t nx, std::int64_t nz) const { return (variable * nz + k) * nx + i; }
  static GlobalCell of_code(std::int64_t code, std::int64_t nx, std::int64_t nz) {
    return {static_cast<int>(code / (nx * nz)), code % nx, (code / nx) % nz};
  }
};

}  // namespace simapp
