/// Water's facts (tests/regression/moist_facts.hpp) on the host backend; the GPU tests hold the
/// same facts on the CUDA backend. And the supercell's symmetry, on the host.
#include "tests/regression/moist_facts.hpp"
#include "tests/support/recorded_value.hpp"

namespace simapp::testing::moist {
namespace {

INSTANTIATE_TEST_SUITE_P(BothModels, MoistFactsTest, MoistFactsTest::on(Backend::host), MoistFactsTest::name);

/// DCMIP2016's supercell shears the wind along x only, and its bubble sits at y = ylen/2: the state
/// stays mirror-symmetric about y = ylen/2 (v odd, every other variable even) while the storm
/// grows, here on a coarse 24 × 24 × 20 grid of its domain for 900 s with DCMIP's diffusion.
TEST(SupercellTest, StaysMirrorSymmetricAboutTheDomainsMiddleInY) {
  constexpr int cells_x = 24, cells_y = 24, cells_z = 20;
  RunSpec spec = small_case(CaseName::supercell, cells_x, cells_z, 900.0);
  spec.grid.ny = cells_y;
  spec.grid.xlen = spec.grid.ylen = 168000.0;
  spec.grid.zlen = 20000.0;
  spec.grid.microphysics = Microphysics::kessler;
  spec.physics.viscosity = 500.0;
  spec.physics.diffusivity = 1500.0;
  spec.physics.reference = DiffusionReference::initial_state;  // as inputs/supercell.yaml
  SerialSimulation simulation(spec, Backend::host, ExecutionMode::graph);
  run_to_end(*simulation, 0, [](const ProgressReport&) {});
  const std::vector<double> state = simulation->gathered_state();
  const std::size_t cells = std::size_t{cells_x} * cells_y * cells_z;
  const int variables = static_cast<int>(state.size() / cells);
  ASSERT_EQ(variables, ModelVariables<3>::count + water_tracers);
  double largest_w = 0.0;
  for (int v = 0; v < variables; ++v) {
    double largest = 0.0, asymmetry = 0.0;
    for (int k = 0; k < cells_z; ++k)
      for (int j = 0; j < cells_y; ++j)
        for (int i = 0; i < cells_x; ++i) {
          const auto at = [&](int jj) { return state[v * cells + (std::size_t(k) * cells_y + jj) * cells_x + i]; };
          const double a = at(j), b = at(cells_y - 1 - j);
          largest = std::max(largest, std::abs(a));
          asymmetry = std::max(asymmetry, std::abs(v == ModelVariables<3>::vmom ? a + b : a - b));
        }
    if (v == ModelVariables<3>::wmom) largest_w = largest;
    RecordProperty("asymmetry_" + std::to_string(v), testing::scientific(asymmetry / std::max(largest, 1e-300)));
    EXPECT_LE(asymmetry, 1e-10 * largest) << "variable " << v;
  }
  // Not a trivial symmetry: the bubble rises (a state at rest keeps |w| near 1e-12; this coarse
  // bubble, three 7 km cells wide, reaches ≈ 0.07 m/s in 900 s).
  EXPECT_GT(largest_w, 0.01) << "the bubble rises";
}

}  // namespace
}  // namespace simapp::testing::moist
