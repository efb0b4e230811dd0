/// The 3-D persistent kernel's fused pass (kernels/stage/pass_tile_3d.hpp: the three RK3 stages
/// of a split pass in one tile, with margins instead of barriers) equals three 3-D stage kernels
/// bit for bit, on the host (a second code path: the stage kernels' tiles, ghost cells by rule):
/// every case without inflow, viscosity on and off, each of the three passes, grids smaller and
/// larger than a tile and not a multiple of it, a state varying in every direction so that every
/// variable and every wall ghost matters.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "kernels/initial_conditions/case_boundaries.hpp"
#include "kernels/initial_conditions/case_profile.hpp"
#include "kernels/initial_conditions/initial_state.hpp"
#include "kernels/stage/pass_tile_3d.hpp"
#include "kernels/stage/stage_kernel_3d.hpp"
#include "solver/grid/grid.hpp"
#include "solver/state/hydrostatic_profile.hpp"

namespace simapp {
namespace {

using V = ModelVariables<3>;

/// A 3-D field with its storage in host memory.
struct Field {
  explicit Field(const FieldShape3d& shape) : data(shape.size(), 0.0), view{data.data(), shape} {}
  std::vector<double> data;
  FieldView3d<double> view;
};

/// Adds a smooth pattern of a thousandth of each variable's scale, varying along x, y and z.
void perturb(Field& q) {
  const FieldShape3d& s = q.view.shape;
  const double scale[V::count] = {1e-3, 1e-1, 1e-1, 1e-1, 1e-1};
  for (int v = 0; v < V::count; ++v)
    for (int k = 0; k < s.nz; ++k)
      for (int j = 0; j < s.ny; ++j)
        for (int i = 0; i < s.nx; ++i) q.view(v, k, j, i) += scale[v] * std::sin(0.7 * i - 0.9 * j + 1.3 * k + v);
}

/// "" when the interiors are equal bit for bit, else where they first differ.
std::string first_difference(const Field& a, const Field& b) {
  const FieldShape3d& s = a.view.shape;
  for (int v = 0; v < V::count; ++v)
    for (int k = 0; k < s.nz; ++k)
      for (int j = 0; j < s.ny; ++j)
        for (int i = 0; i < s.nx; ++i)
          if (std::memcmp(&a.view(v, k, j, i), &b.view(v, k, j, i), sizeof(double)) != 0)
            return "v=" + std::to_string(v) + " k=" + std::to_string(k) + " j=" + std::to_string(j) +
                   " i=" + std::to_string(i) + ": " + std::to_string(a.view(v, k, j, i)) + " vs " +
                   std::to_string(b.view(v, k, j, i));
  return "";
}

struct Size {
  int nx, ny, nz;
};

template <Direction D, int Threads>
void expect_fused_pass_equals_three_stages(CaseName name, double viscosity, const Size& size) {
  GridSpec spec;
  spec.nx = size.nx;
  spec.ny = size.ny;
  spec.nz = size.nz;
  spec.ylen = 0.8 * spec.xlen;  // dy differs from dx
  const Grid grid(spec);
  const Stream host{};
  const HydrostaticProfile background(host, case_background(name), grid.geometry(), grid.nz());
  const FieldShape3d shape = grid.cell_shape_3d();
  Field q0(shape), q1(shape), q2(shape), q3(shape), fused(shape);
  const Bump3d bump = case_bump_3d(case_bump(name, spec.xlen), spec.ylen);
  set_initial_state_3d(host, q0.view, name, bump, grid.geometry_3d());
  perturb(q0);
  const double spacing = std::min({grid.dx(), grid.dy(), grid.dz()});
  const StepParams3d params =
      step_params_3d(1.5 * spacing / 450.0, grid.dx(), grid.dy(), grid.dz(), Dissipation{viscosity});
  const Bump3d wave_source = gravity_wave_source(name, bump);
  const BoundaryConditions3d sides = periodic_in_y(case_boundaries(name));
  ASSERT_TRUE(pass_tile_makes(sides)) << to_string(name);
  FluxContext3d context[rk_stages];
  for (int s = 0; s < rk_stages; ++s) context[s] = {grid.geometry_3d(), background.view(), &params, s};

  const Field* input[rk_stages] = {&q0, &q1, &q2};
  Field* output[rk_stages] = {&q1, &q2, &q3};
  for (int s = 0; s < rk_stages; ++s)
    apply_stage_3d(host, D, stage_arrays(q0.view, input[s]->view, output[s]->view), context[s], wave_source, sides,
                   interior_cells(shape));

  const PassTile3d<D, Threads> pass{{}, q0.view, fused.view, {context[0], context[1], context[2]}, wave_source};
  const auto tile = std::make_unique<typename PassTile3d<D, Threads>::Tile>();
  for (int t = 0; t < pass.tile_count(); ++t) pass.run(*tile, t, 0, 1, [] {});

  EXPECT_EQ(first_difference(fused, q3), "") << to_string(name) << (viscosity != 0.0 ? " with viscosity, " : ", ")
                                             << size.nx << " x " << size.ny << " x " << size.nz << ", "
                                             << "xzy"[static_cast<int>(D)] << " pass, " << Threads << " threads";
}

template <int Threads>
void expect_every_pass(CaseName name, double viscosity, const Size& size) {
  expect_fused_pass_equals_three_stages<Direction::x, Threads>(name, viscosity, size);
  expect_fused_pass_equals_three_stages<Direction::y, Threads>(name, viscosity, size);
  expect_fused_pass_equals_three_stages<Direction::z, Threads>(name, viscosity, size);
}

class PassTile3dTest : public ::testing::TestWithParam<CaseName> {};

TEST_P(PassTile3dTest, FusedPassEqualsThreeStageKernelsBitForBit) {
  // Tiles (128 threads): 23 cells along x, 7 along y and z; 4 rows or 8 columns a tile.
  for (const Size& size : {Size{30, 17, 9}, Size{7, 5, 4}, Size{48, 24, 10}})
    expect_every_pass<128>(GetParam(), 0.0, size);
  expect_every_pass<128>(GetParam(), 75.0, Size{26, 11, 8});
  expect_every_pass<256>(GetParam(), 0.0, Size{61, 9, 15});
}

TEST(PassTile3dBoundaryTest, AnInflowKeepsABarrierAStage) {
  EXPECT_FALSE(pass_tile_makes(periodic_in_y(case_boundaries(CaseName::injection))));
  EXPECT_TRUE(pass_tile_makes(periodic_in_y(case_boundaries(CaseName::thermal))));
}

INSTANTIATE_TEST_SUITE_P(CasesWithoutInflow, PassTile3dTest,
                         ::testing::Values(CaseName::thermal, CaseName::collision, CaseName::gravity_waves,
                                           CaseName::density_current, CaseName::rest, CaseName::straka),
                         [](const auto& test) { return std::string(to_string(test.param)); });

}  // namespace
}  // namespace simapp
