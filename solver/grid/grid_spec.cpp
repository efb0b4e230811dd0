#include "solver/grid/grid_spec.hpp"

#include <fmt/format.h>

namespace simapp {

std::string cells_text(const GridSpec& grid) {
  return grid.ny > 1 ? fmt::format("{} x {} x {}", grid.nx, grid.ny, grid.nz)
                     : fmt::format("{} x {}", grid.nx, grid.nz);
}

std::vector<std::string> state_tracers(const GridSpec& grid) {
  std::vector<std::string> names;
  if (grid.microphysics != Microphysics::none) names.assign(water_tracer_names.begin(), water_tracer_names.end());
  names.insert(names.end(), grid.tracers.begin(), grid.tracers.end());
  return names;
}

}  // namespace simapp
