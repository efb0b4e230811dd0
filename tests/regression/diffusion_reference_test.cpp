/// physics.diffusion_reference: initial_state (kernels/flux/diffusive_flux.hpp): θ's vertical
/// diffusion acts on the departure from the initial state, so an initial warm layer does not
/// diffuse along z, while with the background as the reference it does. Against the same run
/// without any diffusion of θ (κ = 0), the second code path: a layer uniform along x, so that
/// nothing diffuses along x either. And a run whose initial state is the background gives the
/// bits of the background's reference, in every granularity.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "tests/support/recorded_value.hpp"
#include "tests/support/small_case.hpp"

namespace simapp::testing {
namespace {

constexpr int nx = 8, nz = 20;

/// thermal's bump made a layer (uniform along x) on nx × nz, for `steps` steps, κ = 1500 m²/s.
RunSpec warm_layer(DiffusionReference reference, double steps, double diffusivity = 1500.0) {
  RunSpec spec = small_case(CaseName::thermal, nx, nz, 1.0);
  spec.perturbation.radii = {std::numeric_limits<double>::infinity(), 1500.0};
  spec.physics.diffusivity = diffusivity;
  spec.physics.reference = reference;
  spec.time.sim_time = steps * TimeStepping(1.0, spec.grid.xlen / nx, spec.grid.zlen / nz, spec.time.cfl,
                                            spec.physics.largest_coefficient())
                                   .dt();
  return spec;
}

/// The largest |a − b| of variable v of two final states [var][k][i].
double largest_difference(const std::vector<double>& a, const std::vector<double>& b, int v) {
  const std::size_t cells = std::size_t{nx} * nz;
  double largest = 0.0;
  for (std::size_t c = 0; c < cells; ++c) largest = std::max(largest, std::abs(a[v * cells + c] - b[v * cells + c]));
  return largest;
}

TEST(DiffusionReferenceTest, AnInitialLayerDoesNotDiffuseAlongZFromTheInitialStateButDoesFromTheBackground) {
  // One step: the background's reference diffuses the layer for dt; the initial state's only the
  // departures the flow made within the step (the layer starts at the background's density, out
  // of balance: about 1 % of the other's change). A reference read a row or a column off would
  // diffuse the layer's own profile, as the background's does.
  const std::vector<double> undiffused =
      final_state(warm_layer(DiffusionReference::background, 1.0, 0.0), Backend::host, ExecutionMode::graph);
  const double from_initial = largest_difference(
      final_state(warm_layer(DiffusionReference::initial_state, 1.0), Backend::host, ExecutionMode::graph), undiffused,
      var::rhot);
  const double from_background = largest_difference(
      final_state(warm_layer(DiffusionReference::background, 1.0), Backend::host, ExecutionMode::graph), undiffused,
      var::rhot);
  RecordProperty("initial_state_vs_none", scientific(from_initial));
  RecordProperty("background_vs_none", scientific(from_background));
  EXPECT_GT(from_background, 1e-4);
  EXPECT_LT(from_initial, 0.03 * from_background);
}

TEST(DiffusionReferenceTest, AStateThatStartsAsTheBackgroundGivesTheBitsOfTheBackgroundsReference) {
  for (const Granularity granularity : {Granularity::stage, Granularity::pass, Granularity::fused, Granularity::fine}) {
    RunSpec background = small_case(CaseName::gravity_waves, nx, nz, 60.0);  // θ₀ = θ̄, a forced flow
    background.physics.viscosity = background.physics.diffusivity = 75.0;
    background.execution.granularity = granularity;
    RunSpec initial = background;
    initial.physics.reference = DiffusionReference::initial_state;
    EXPECT_TRUE(bitwise_equal(final_state(initial, Backend::host, ExecutionMode::graph),
                              final_state(background, Backend::host, ExecutionMode::graph)))
        << to_string(granularity);
  }
}

}  // namespace
}  // namespace simapp::testing
