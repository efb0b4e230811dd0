#pragma once
/// A variable at a cell of the global grid, and its code ((v·NZ + k)·NY + j)·NX + i (NY = 1,
/// j = 0 in the 2-D model: v·NX·NZ + k·NX + i): of several findings (on one rank or over
/// ranks), the first by variable, then row, then column, is the one with the smallest code. The
/// health check's kernels write the same code.
#include <cstdint>
#include <string>

namespace simapp {

struct GlobalCell {
  int variable = 0;
  std::int64_t i = 0;  ///< global column
  std::int64_t k = 0;  ///< global row (height)
  std::int64_t j = 0;  ///< global y index (the 3-D model)

  std::int64_t code(std::int64_t nx, std::int64_t nz, std::int64_t ny = 1) const {
    return ((variable * nz + k) * ny + j) * nx + i;
  }
  static GlobalCell of_code(std::int64_t code, std::int64_t nx, std::int64_t nz, std::int64_t ny = 1) {
    return {static_cast<int>(code / (nx * ny * nz)), code % nx, (code / (nx * ny)) % nz, (code / nx) % ny};
  }
};

/// "(i, k) = (3, 7)", or in the 3-D model (global_ny > 1) "(i, j, k) = (3, 5, 7)".
std::string describe_cell(const GlobalCell& cell, int global_ny = 1);
/// The name of variable `variable` of the model of `global_ny` cells in y ("umom", "vmom").
std::string variable_name(int variable, int global_ny = 1);

}  // namespace simapp
