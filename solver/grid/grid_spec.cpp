#include "solver/grid/grid_spec.hpp"

#include <fmt/format.h>

namespace simapp {

std::string cells_text(const GridSpec& grid) {
  return grid.ny > 1 ? fmt::format("{} x {} x {}", grid.nx, grid.ny, grid.nz)
                     : fmt::format("{} x {}", grid.nx, grid.nz);
}

}  // namespace simapp
