/// The 3-D model's halo messages (kernels/halo/halo_pack_3d.hpp), one rank exchanging with
/// itself (the periodic image, as two ranks side by side would exchange): a stage whose x or y
/// ghost cells were unpacked from the message, the sides marked exchanged, gives the numbers of
/// the stage that makes them by the periodic rule, bit for bit; along z each ghost layer is the
/// interior layer the message names, and an unpack writes only the sides it is given.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "kernels/halo/halo_pack_3d.hpp"
#include "kernels/initial_conditions/case_boundaries.hpp"
#include "kernels/initial_conditions/case_profile.hpp"
#include "kernels/initial_conditions/initial_state.hpp"
#include "kernels/stage/stage_kernel.hpp"
#include "solver/grid/grid.hpp"
#include "solver/state/hydrostatic_profile.hpp"

namespace simapp {
namespace {

using V3 = ModelVariables<3>;

class HaloPack3dTest : public ::testing::Test {
 protected:
  static constexpr int nx = 20, ny = 14, nz = 12;
  HaloPack3dTest()
      : grid(grid_spec()),
        background(host, case_background(CaseName::thermal), grid.geometry<2>(), nz),
        shape{nx, ny, nz, numerics::halo_width, V3::count},
        geometry{grid.geometry<2>(), 1200.0, 1200.0 * ny, ny, 0},
        params(step_params(0.5, grid.dx(), geometry.dy, grid.dz(), Dissipation{75.0})),
        state(shape.size(), std::numeric_limits<double>::quiet_NaN()) {
    set_initial_state_3d(host, view(state), CaseName::thermal,
                         case_bump_3d(case_bump(CaseName::thermal, grid.spec().xlen), geometry.ylen), geometry);
    for (int v = 0; v < V3::count; ++v)
      for (int k = 0; k < nz; ++k)
        for (int j = 0; j < ny; ++j)
          for (int i = 0; i < nx; ++i) view(state)(v, k, j, i) += 1e-3 * std::cos(0.9 * j + 0.4 * i - 0.6 * k + v);
    // Only interior cells are valid: a ghost cell no rule or message made reads NaN.
    for (int v = 0; v < V3::count; ++v)
      for (int k = -2; k < nz + 2; ++k)
        for (int j = -2; j < ny + 2; ++j)
          for (int i = -2; i < nx + 2; ++i)
            if (i < 0 || i >= nx || j < 0 || j >= ny || k < 0 || k >= nz)
              view(state)(v, k, j, i) = std::numeric_limits<double>::quiet_NaN();
  }
  static GridSpec grid_spec() {
    GridSpec spec;
    spec.nx = nx;
    spec.nz = nz;
    return spec;
  }
  FieldView<double, 3> view(std::vector<double>& values) const { return {values.data(), shape}; }

  /// The first stage of the pass along `direction` from `input` with `sides`.
  std::vector<double> stage(Direction direction, std::vector<double>& input, const BoundaryConditions<3>& sides) {
    std::vector<double> out(shape.size(), 0.0);
    apply_stage(host, direction, stage_arrays(view(input), view(input), view(out)),
                FluxContext<3>{geometry, background.view(), &params, 0}, Bump<3>{}, sides,
                CellBox{0, nx, 0, ny, 0, nz});
    return out;
  }

  /// The message of `field` along `direction` as its periodic image receives it: each side's ghosts
  /// from the opposite side's interior.
  void exchange_with_itself(Direction direction, std::vector<double>& field, NeighbourSides sides = {}) {
    const std::size_t side = halo_side_size_3d(direction, shape);
    std::vector<double> sent(2 * side), received(2 * side);
    pack_halos_3d(host, direction, view(field), sent.data());
    std::memcpy(received.data(), sent.data() + side, side * sizeof(double));
    std::memcpy(received.data() + side, sent.data(), side * sizeof(double));
    unpack_halos_3d(host, direction, view(field), received.data(), sides);
  }

  Stream host{};
  Grid grid;
  HydrostaticProfile background;
  FieldShape<3> shape;
  CellGeometry<3> geometry;
  StepParams<3> params;
  std::vector<double> state;
};

TEST_F(HaloPack3dTest, ExchangedXAndYGhostsGiveThePeriodicRulesNumbersBitForBit) {
  const BoundaryConditions<3> periodic = periodic_in_y(case_boundaries(CaseName::thermal));
  for (const Direction direction : {Direction::x, Direction::y}) {
    const std::vector<double> by_rule = stage(direction, state, periodic);
    std::vector<double> received = state;
    exchange_with_itself(direction, received);
    BoundaryConditions<3> exchanged = periodic;
    if (direction == Direction::x)
      exchanged.x_low = exchanged.x_high = {BoundaryKind::exchanged};
    else
      exchanged.y_low = exchanged.y_high = {BoundaryKind::exchanged};
    const std::vector<double> by_message = stage(direction, received, exchanged);
    const FieldView<const double, 3> a{by_rule.data(), shape}, b{by_message.data(), shape};
    for (int v = 0; v < V3::count; ++v)
      for (int k = 0; k < nz; ++k)
        for (int j = 0; j < ny; ++j)
          for (int i = 0; i < nx; ++i)
            ASSERT_EQ(std::memcmp(&a(v, k, j, i), &b(v, k, j, i), sizeof(double)), 0)
                << (direction == Direction::x ? "x" : "y") << " v=" << v << " k=" << k << " j=" << j << " i=" << i
                << ": " << a(v, k, j, i) << " vs " << b(v, k, j, i);
  }
}

TEST_F(HaloPack3dTest, EachZGhostLayerIsTheInteriorLayerItsMessageNamesAndOnlyTheGivenSidesAreWritten) {
  std::vector<double> field = state;
  exchange_with_itself(Direction::z, field, NeighbourSides{true, false});
  const FieldView<double, 3> q = view(field);
  for (int v = 0; v < V3::count; ++v)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        EXPECT_EQ(q(v, -1, j, i), q(v, nz - 1, j, i));
        EXPECT_EQ(q(v, -2, j, i), q(v, nz - 2, j, i));
        EXPECT_TRUE(std::isnan(q(v, nz, j, i))) << "the high side was not to be written";
      }
  // Corner cells (ghost in z and in x) are in no message.
  EXPECT_TRUE(std::isnan(q(0, -1, 0, -1)));
}

}  // namespace
}  // namespace simapp
