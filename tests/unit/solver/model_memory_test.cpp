/// model_memory_needed counts the microphysics' own arrays: with water, a rank's model needs
/// MicrophysicsScratch::count more values a cell (the scratch between rain sub-steps) and the
/// three surface fields a column more than the same run with three passive tracers instead (the
/// same state arrays).
#include <gtest/gtest.h>

#include "kernels/microphysics/microphysics.hpp"
#include "solver/model/model.hpp"

namespace simapp {
namespace {

RunSpec thermal_spec(int ny, Microphysics microphysics) {
  RunSpec spec;
  spec.case_name = CaseName::moist_thermal;
  spec.grid.nx = 12;
  spec.grid.ny = ny;
  spec.grid.nz = 8;
  spec.grid.microphysics = microphysics;
  spec.execution.granularity = Granularity::stage;
  return spec;
}

TEST(ModelMemoryTest, WaterAddsTheMicrophysicsScratchAndSurfaceFields) {
  for (const int ny : {1, 6}) {
    RunSpec dry = thermal_spec(ny, Microphysics::none);
    dry.grid.tracers = {"a", "b", "c"};
    const RunSpec moist = thermal_spec(ny, Microphysics::kessler);
    const std::size_t columns = 12 * static_cast<std::size_t>(ny), cells = columns * 8;
    const std::size_t water_values =
        static_cast<std::size_t>(MicrophysicsScratch::count) * cells + surface_water_fields * columns;
    EXPECT_EQ(model_memory_needed(moist, Grid(moist.grid)) - model_memory_needed(dry, Grid(dry.grid)),
              water_values * sizeof(double))
        << "ny " << ny;
  }
}

}  // namespace
}  // namespace simapp
