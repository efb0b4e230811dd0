/// The persistent kernel's fused pass (kernels/stage/pass_tile.hpp: the three RK3 stages of a
/// split pass in one tile, with margins instead of barriers) equals three stage kernels bit
/// for bit, on the host: every case without inflow, grids smaller and larger than a tile and
/// not a multiple of it, both passes, a state perturbed so that every variable and every wall
/// ghost matters.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "kernels/initial_conditions/case_boundaries.hpp"
#include "kernels/initial_conditions/case_profile.hpp"
#include "kernels/initial_conditions/initial_state.hpp"
#include "kernels/stage/pass_tile.hpp"
#include "kernels/stage/stage_kernel.hpp"
#include "solver/grid/grid.hpp"
#include "solver/state/hydrostatic_profile.hpp"

namespace simapp {
namespace {

/// A field with its storage.
struct Field {
  explicit Field(const FieldShape& shape) : data(shape.size(), 0.0), view{data.data(), shape} {}
  std::vector<double> data;
  FieldView<double> view;
};

/// Adds a smooth pattern of a thousandth of each variable's scale, so that every variable,
/// velocities included, is nonzero and varies in both directions.
void perturb(Field& q) {
  const FieldShape& s = q.view.shape;
  const double scale[var::count] = {1e-3, 1e-1, 1e-1, 1e-1};
  for (int v = 0; v < var::count; ++v)
    for (int k = 0; k < s.nz; ++k)
      for (int i = 0; i < s.nx; ++i) q.view(v, k, i) += scale[v] * std::sin(0.7 * i + 1.3 * k + v);
}

/// "" when the interiors are equal bit for bit, else where they first differ.
std::string first_difference(const Field& a, const Field& b) {
  const FieldShape& s = a.view.shape;
  for (int v = 0; v < var::count; ++v)
    for (int k = 0; k < s.nz; ++k)
      for (int i = 0; i < s.nx; ++i)
        if (std::memcmp(&a.view(v, k, i), &b.view(v, k, i), sizeof(double)) != 0)
          return "v=" + std::to_string(v) + " k=" + std::to_string(k) + " i=" + std::to_string(i) + ": " +
                 std::to_string(a.view(v, k, i)) + " vs " + std::to_string(b.view(v, k, i));
  return "";
}

template <Direction D, int Threads>
void expect_fused_pass_equals_three_stages(CaseName name, int nx, int nz) {
  GridSpec spec;
  spec.nx = nx;
  spec.nz = nz;
  const Grid grid(spec);
  const Stream host{};
  const HydrostaticProfile background(host, case_background(name), grid.geometry(), grid.nz());
  Field q0(grid.cell_shape()), q1(grid.cell_shape()), q2(grid.cell_shape()), q3(grid.cell_shape()),
      fused(grid.cell_shape());
  set_initial_state(host, q0.view, name, case_bump(name, spec.xlen), grid.geometry());
  perturb(q0);
  const StepParams params =
      step_params(1.5 * std::min(grid.dx(), grid.dz()) / 450.0, grid.dx(), grid.dz(), Dissipation{});
  const Bump wave_source = gravity_wave_source(name, case_bump(name, spec.xlen));
  const BoundaryConditions sides = case_boundaries(name);
  ASSERT_TRUE(pass_tile_makes(sides)) << to_string(name);
  FluxContext context[rk_stages];
  for (int s = 0; s < rk_stages; ++s) context[s] = {grid.geometry(), background.view(), &params, s};

  const Field* input[rk_stages] = {&q0, &q1, &q2};
  Field* output[rk_stages] = {&q1, &q2, &q3};
  for (int s = 0; s < rk_stages; ++s)
    apply_stage(host, D, stage_arrays(q0.view, input[s]->view, output[s]->view), context[s], wave_source, sides,
                IndexBox{0, nx, 0, nz});

  const PassTile<D, Threads> pass{{}, q0.view, fused.view, {context[0], context[1], context[2]}, wave_source};
  const auto tile = std::make_unique<typename PassTile<D, Threads>::Tile>();
  for (int t = 0; t < pass.tile_count(); ++t) pass.run(*tile, t, 0, 1, [] {});

  EXPECT_EQ(first_difference(fused, q3), "")
      << to_string(name) << " " << nx << " x " << nz << (D == Direction::x ? " x pass" : " z pass") << ", " << Threads
      << " threads";
}

class PassTileTest : public ::testing::TestWithParam<CaseName> {};

TEST_P(PassTileTest, FusedPassEqualsThreeStageKernelsBitForBit) {
  for (const auto& [nx, nz] : {std::pair{61, 30}, std::pair{7, 5}, std::pair{128, 64}, std::pair{130, 4}}) {
    expect_fused_pass_equals_three_stages<Direction::x, 128>(GetParam(), nx, nz);
    expect_fused_pass_equals_three_stages<Direction::z, 128>(GetParam(), nx, nz);
  }
  expect_fused_pass_equals_three_stages<Direction::x, 256>(GetParam(), 130, 21);
  expect_fused_pass_equals_three_stages<Direction::z, 256>(GetParam(), 130, 21);
}

TEST(PassTileBoundaryTest, AnInflowKeepsABarrierAStage) {
  EXPECT_FALSE(pass_tile_makes(case_boundaries(CaseName::injection)));
}

INSTANTIATE_TEST_SUITE_P(CasesWithoutInflow, PassTileTest,
                         ::testing::Values(CaseName::thermal, CaseName::collision, CaseName::gravity_waves,
                                           CaseName::density_current, CaseName::rest),
                         [](const auto& test) { return std::string(to_string(test.param)); });

}  // namespace
}  // namespace simapp
