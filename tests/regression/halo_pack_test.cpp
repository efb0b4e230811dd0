/// Halo messages (kernels/halo/halo_pack.hpp) of the model in either dimension, one rank
/// exchanging with itself (the periodic image, as two ranks side by side would exchange): a stage
/// whose x (3-D: or y) ghost cells were unpacked from the message, the sides marked exchanged,
/// gives the numbers of the stage that makes them by the periodic rule, bit for bit; along z each
/// ghost row is the interior row the message names, and an unpack writes only the sides it is
/// given; a corner cell (ghost in z and in x) travels in the 2-D z message, which spans the
/// padded width, and in no 3-D message.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "kernels/cases/case_list.hpp"
#include "kernels/halo/halo_pack.hpp"
#include "kernels/initial_conditions/initial_state.hpp"
#include "kernels/stage/stage_kernel.hpp"
#include "solver/grid/grid.hpp"
#include "solver/state/hydrostatic_profile.hpp"

namespace simapp {
namespace {

/// What the test needs of the model in `Dims` dimensions: its grid, initial state, periodic sides
/// and stage kernel.
template <int Dims>
struct Model;

template <>
struct Model<2> {
  static constexpr int ny = 1;
  static std::vector<Direction> periodic_directions() { return {Direction::x}; }
  static CellGeometry<2> geometry(const Grid& grid) { return grid.geometry<2>(); }
  static StepParams<2> params(const CellGeometry<2>& geometry) {
    return step_params(0.5, geometry.dx, geometry.dz, Dissipation{75.0});
  }
  static BoundaryConditions<2> periodic() { return case_boundaries(CaseName::thermal); }
  static void initial_state(const Stream& stream, FieldView<double, 2> state, const CellGeometry<2>& geometry) {
    set_initial_state(stream, state, CaseName::thermal, case_bump(CaseName::thermal, geometry.xlen), geometry);
  }
  static void stage(const Stream& stream, Direction direction, FieldView<double, 2> input, FieldView<double, 2> out,
                    const FluxContext<2>& context, const BoundaryConditions<2>& sides) {
    apply_stage(stream, direction, stage_arrays(input, input, out), context, SourceTerms<2>{}, sides,
                interior_cells(input.shape));
  }
};

template <>
struct Model<3> {
  static constexpr int ny = 14;
  static std::vector<Direction> periodic_directions() { return {Direction::x, Direction::y}; }
  static CellGeometry<3> geometry(const Grid& grid) { return {grid.geometry<2>(), 1200.0, 1200.0 * ny, ny, 0}; }
  static StepParams<3> params(const CellGeometry<3>& geometry) {
    return step_params(0.5, geometry.dx, geometry.dy, geometry.dz, Dissipation{75.0});
  }
  static BoundaryConditions<3> periodic() { return periodic_in_y(case_boundaries(CaseName::thermal)); }
  static void initial_state(const Stream& stream, FieldView<double, 3> state, const CellGeometry<3>& geometry) {
    set_initial_state(stream, state, CaseName::thermal,
                      model_bump<3>(case_bump(CaseName::thermal, geometry.xlen), geometry.ylen), geometry);
  }
  static void stage(const Stream& stream, Direction direction, FieldView<double, 3> input, FieldView<double, 3> out,
                    const FluxContext<3>& context, const BoundaryConditions<3>& sides) {
    apply_stage(stream, direction, stage_arrays(input, input, out), context, SourceTerms<3>{}, sides,
                CellBox{0, input.shape.nx, 0, input.shape.ny, 0, input.shape.nz});
  }
};

/// `sides` with both sides along `direction` marked exchanged.
template <int Dims>
BoundaryConditions<Dims> exchanged_along(BoundaryConditions<Dims> sides, Direction direction) {
  if (direction == Direction::x) sides.x_low = sides.x_high = {BoundaryKind::exchanged};
  if constexpr (Dims == 3) {
    if (direction == Direction::y) sides.y_low = sides.y_high = {BoundaryKind::exchanged};
  }
  return sides;
}

template <class Dims>
class HaloPackTest : public ::testing::Test {
 protected:
  static constexpr int dims = Dims::value;
  using V = ModelVariables<dims>;
  using M = Model<dims>;
  static constexpr int nx = 20, ny = M::ny, nz = 12;
  HaloPackTest()
      : grid(grid_spec()),
        background(host, case_background(CaseName::thermal), grid.geometry<2>(), nz),
        shape{nx, ny, nz, numerics::halo_width, V::count},
        geometry(M::geometry(grid)),
        params(M::params(geometry)),
        state(shape.size(), std::numeric_limits<double>::quiet_NaN()) {
    M::initial_state(host, view(state), geometry);
    for_each_cell([&](int v, int k, int j, int i) {
      if (interior(k, j, i)) view(state)(v, k, j, i) += 1e-3 * std::cos(0.9 * j + 0.4 * i - 0.6 * k + v);
    });
    // Only interior cells are valid: a ghost cell no rule or message made reads NaN.
    for_each_cell([&](int v, int k, int j, int i) {
      if (!interior(k, j, i)) view(state)(v, k, j, i) = std::numeric_limits<double>::quiet_NaN();
    });
  }
  static GridSpec grid_spec() {
    GridSpec spec;
    spec.nx = nx;
    spec.nz = nz;
    return spec;
  }
  static bool interior(int k, int j, int i) { return i >= 0 && i < nx && j >= 0 && j < ny && k >= 0 && k < nz; }
  /// f(v, k, j, i) for every cell of the padded field (2-D: j = 0).
  template <class F>
  void for_each_cell(const F& f) const {
    const int halo = shape.halo, halo_y = shape.halo_y();
    for (int v = 0; v < V::count; ++v)
      for (int k = -halo; k < nz + halo; ++k)
        for (int j = -halo_y; j < ny + halo_y; ++j)
          for (int i = -halo; i < nx + halo; ++i) f(v, k, j, i);
  }
  FieldView<double, dims> view(std::vector<double>& values) const { return {values.data(), shape}; }

  /// The first stage of the pass along `direction` from `input` with `sides`.
  std::vector<double> stage(Direction direction, std::vector<double>& input, const BoundaryConditions<dims>& sides) {
    std::vector<double> out(shape.size(), 0.0);
    M::stage(host, direction, view(input), view(out), FluxContext<dims>{geometry, background.view(), &params, 0},
             sides);
    return out;
  }

  /// The message of `field` along `direction` as its periodic image receives it: each side's ghosts
  /// from the opposite side's interior.
  void exchange_with_itself(Direction direction, std::vector<double>& field, NeighbourSides sides = {}) {
    const std::size_t side = halo_side_size(direction, shape);
    std::vector<double> sent(2 * side), received(2 * side);
    pack_halos<double, dims>(host, direction, view(field), sent.data());
    std::memcpy(received.data(), sent.data() + side, side * sizeof(double));
    std::memcpy(received.data() + side, sent.data(), side * sizeof(double));
    unpack_halos(host, direction, view(field), received.data(), sides);
  }

  Stream host{};
  Grid grid;
  HydrostaticProfile background;
  FieldShape<dims> shape;
  CellGeometry<dims> geometry;
  StepParams<dims> params;
  std::vector<double> state;
};

/// The names of the test's dimension: "2d", "3d".
class DimensionName {
 public:
  template <class Dims>
  static std::string GetName(int) {
    return std::to_string(Dims::value) + "d";
  }
};

using Dimensions = ::testing::Types<std::integral_constant<int, 2>, std::integral_constant<int, 3>>;
TYPED_TEST_SUITE(HaloPackTest, Dimensions, DimensionName);

TYPED_TEST(HaloPackTest, ExchangedGhostsAlongEachPeriodicDirectionGiveThePeriodicRulesNumbersBitForBit) {
  using T = TestFixture;
  const BoundaryConditions<T::dims> periodic = T::M::periodic();
  for (const Direction direction : T::M::periodic_directions()) {
    const std::vector<double> by_rule = this->stage(direction, this->state, periodic);
    std::vector<double> received = this->state;
    this->exchange_with_itself(direction, received);
    const std::vector<double> by_message = this->stage(direction, received, exchanged_along(periodic, direction));
    const FieldView<const double, T::dims> a{by_rule.data(), this->shape}, b{by_message.data(), this->shape};
    this->for_each_cell([&](int v, int k, int j, int i) {
      if (!T::interior(k, j, i)) return;
      ASSERT_EQ(std::memcmp(&a(v, k, j, i), &b(v, k, j, i), sizeof(double)), 0)
          << (direction == Direction::x ? "x" : "y") << " v=" << v << " k=" << k << " j=" << j << " i=" << i << ": "
          << a(v, k, j, i) << " vs " << b(v, k, j, i);
    });
  }
}

TYPED_TEST(HaloPackTest, EachZGhostLayerIsTheInteriorLayerItsMessageNamesAndOnlyTheGivenSidesAreWritten) {
  using T = TestFixture;
  std::vector<double> field = this->state;
  this->exchange_with_itself(Direction::z, field, NeighbourSides{true, false});
  const FieldView<double, T::dims> q = this->view(field);
  for (int v = 0; v < T::V::count; ++v)
    for (int j = 0; j < T::ny; ++j)
      for (int i = 0; i < T::nx; ++i) {
        EXPECT_EQ(q(v, -1, j, i), q(v, T::nz - 1, j, i));
        EXPECT_EQ(q(v, -2, j, i), q(v, T::nz - 2, j, i));
        EXPECT_TRUE(std::isnan(q(v, T::nz, j, i))) << "the high side was not to be written";
      }
  // A corner cell (ghost in z and in x) has nothing to receive before an x exchange.
  EXPECT_TRUE(std::isnan(q(0, -1, 0, -1)));
}

TYPED_TEST(HaloPackTest, ACornerCellTravelsInThe2dZMessageAndInNo3dMessage) {
  using T = TestFixture;
  std::vector<double> field = this->state;
  this->exchange_with_itself(Direction::x, field);
  this->exchange_with_itself(Direction::z, field);
  const FieldView<double, T::dims> q = this->view(field);
  for (int v = 0; v < T::V::count; ++v) {
    if constexpr (T::dims == 2) {
      // The z message spans the padded width: the x ghost it carries is the periodic image's.
      EXPECT_EQ(q(v, -1, 0, -1), q(v, T::nz - 1, 0, T::nx - 1));
      EXPECT_EQ(q(v, T::nz + 1, 0, T::nx), q(v, 1, 0, 0));
    } else {
      EXPECT_TRUE(std::isnan(q(v, -1, 0, -1)));
      EXPECT_TRUE(std::isnan(q(v, T::nz + 1, 0, T::nx)));
    }
  }
}

}  // namespace
}  // namespace simapp
