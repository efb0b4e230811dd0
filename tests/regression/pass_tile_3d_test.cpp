/// The 3-D persistent kernel's fused pass (kernels/stage/pass_tile_3d.hpp: the three RK3 stages
/// of a split pass in one tile, with margins instead of barriers) equals three 3-D stage kernels
/// bit for bit, on the host (a second code path: the stage kernels' tiles, ghost cells by rule):
/// every case without inflow, viscosity on and off, each of the three passes, grids smaller and
/// larger than a tile and not a multiple of it, a state varying in every direction so that every
/// variable and every wall ghost matters; and the tiles' checks of their output cells find what
/// the health check of the whole output finds.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "kernels/diagnostics/cell_health.hpp"
#include "kernels/initial_conditions/case_boundaries.hpp"
#include "kernels/initial_conditions/case_profile.hpp"
#include "kernels/initial_conditions/initial_state.hpp"
#include "kernels/stage/pass_tile.hpp"
#include "kernels/stage/stage_kernel.hpp"
#include "solver/grid/grid.hpp"
#include "solver/state/hydrostatic_profile.hpp"

namespace simapp {
namespace {

using V = ModelVariables<3>;

/// A 3-D field with its storage in host memory.
struct Field {
  explicit Field(const FieldShape<3>& shape) : data(shape.size(), 0.0), view{data.data(), shape} {}
  std::vector<double> data;
  FieldView<double, 3> view;
};

/// Adds a smooth pattern of a thousandth of each variable's scale, varying along x, y and z.
void perturb(Field& q) {
  const FieldShape<3>& s = q.view.shape;
  const double scale[V::count] = {1e-3, 1e-1, 1e-1, 1e-1, 1e-1};
  for (int v = 0; v < V::count; ++v)
    for (int k = 0; k < s.nz; ++k)
      for (int j = 0; j < s.ny; ++j)
        for (int i = 0; i < s.nx; ++i) q.view(v, k, j, i) += scale[v] * std::sin(0.7 * i - 0.9 * j + 1.3 * k + v);
}

/// "" when the interiors are equal bit for bit, else where they first differ.
std::string first_difference(const Field& a, const Field& b) {
  const FieldShape<3>& s = a.view.shape;
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

/// A case's state on a grid of `size` (dy ≠ dx), perturbed, and the three stages' contexts.
struct PassSetup {
  PassSetup(CaseName name, double viscosity, const Size& size)
      : spec(grid_spec(size)),
        grid(spec),
        background(Stream{}, case_background(name), grid.geometry<2>(), grid.nz()),
        shape(grid.cell_shape<3>()),
        q0(shape),
        bump(model_bump<3>(case_bump(name, spec.xlen), spec.ylen)),
        params(step_params(1.5 * std::min({grid.dx(), grid.dy(), grid.dz()}) / 450.0, grid.dx(), grid.dy(), grid.dz(),
                           Dissipation{viscosity})),
        sources{{gravity_wave_source(name, bump)}},
        sides(periodic_in_y(case_boundaries(name))) {
    set_initial_state(Stream{}, q0.view, name, bump, grid.geometry<3>());
    perturb(q0);
    for (int s = 0; s < rk_stages; ++s) context[s] = {grid.geometry<3>(), background.view(), &params, s};
  }
  static GridSpec grid_spec(const Size& size) {
    GridSpec spec;
    spec.nx = size.nx;
    spec.ny = size.ny;
    spec.nz = size.nz;
    spec.ylen = 0.8 * spec.xlen;
    return spec;
  }

  /// The pass along D from q0 into `output`, tile by tile, its cells checked into `record` if given.
  template <Direction D, int Threads>
  void run_pass(Field& output, HealthRecord* record = nullptr) const {
    const PassTile<D, 3, Threads> pass{{}, q0.view, output.view, {context[0], context[1], context[2]}, sources};
    const auto tile = std::make_unique<typename PassTile<D, 3, Threads>::Tile>();
    for (int t = 0; t < pass.tile_count(); ++t) {
      pass.run(*tile, t, 0, 1, [] {});
      if (record != nullptr) pass.check_output(t, 0, 1, record);
    }
  }

  GridSpec spec;
  Grid grid;
  HydrostaticProfile background;
  FieldShape<3> shape;
  Field q0;
  Bump<3> bump;
  StepParams<3> params;
  SourceTerms<3> sources;
  BoundaryConditions<3> sides;
  FluxContext<3> context[rk_stages];
};

template <Direction D, int Threads>
void expect_fused_pass_equals_three_stages(CaseName name, double viscosity, const Size& size) {
  const PassSetup setup(name, viscosity, size);
  ASSERT_TRUE(pass_tile_makes(setup.sides)) << to_string(name);
  Field q1(setup.shape), q2(setup.shape), q3(setup.shape), fused(setup.shape);
  const Field* input[rk_stages] = {&setup.q0, &q1, &q2};
  Field* output[rk_stages] = {&q1, &q2, &q3};
  for (int s = 0; s < rk_stages; ++s)
    apply_stage(Stream{}, D, stage_arrays(setup.q0.view, input[s]->view, output[s]->view), setup.context[s],
                setup.sources, setup.sides, interior_cells(setup.shape));
  setup.run_pass<D, Threads>(fused);

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

/// The tiles' checks of their own output cells latch into their record, as check number
/// checks_run, what the health check of every cell of the output finds (check_cell_health, the other code path);
/// `spoil` makes the input unhealthy at a few cells, or leaves it.
template <Direction D>
void expect_checked_pass_finds_what_the_check_finds(const std::function<void(Field&)>& spoil,
                                                    std::int64_t expected_failed_check) {
  PassSetup setup(CaseName::thermal, 0.0, Size{30, 17, 9});
  spoil(setup.q0);
  Field fused(setup.shape);
  HealthRecord checked{};
  checked.checks_run = 3;
  setup.run_pass<D, 128>(fused, &checked);

  HealthRecord swept{};
  swept.checks_run = 3;
  for (int k = 0; k < setup.shape.nz; ++k)
    for (int j = 0; j < setup.shape.ny; ++j)
      for (int i = 0; i < setup.shape.nx; ++i)
        check_cell_health(fused.view, setup.background.view(), setup.grid.geometry<3>(), &swept, k, j, i);
  const char* pass = D == Direction::x ? "x pass" : D == Direction::y ? "y pass" : "z pass";
  EXPECT_EQ(swept.failed_check, expected_failed_check) << pass;
  EXPECT_EQ(checked.failed_check, swept.failed_check) << pass;
  EXPECT_EQ(checked.first_cell, swept.first_cell) << pass;
}

template <Direction D>
void expect_checked_pass_findings() {
  expect_checked_pass_finds_what_the_check_finds<D>([](Field&) {}, -1);
  expect_checked_pass_finds_what_the_check_finds<D>(
      [](Field& q) { q.view(V::rhot, 4, 11, 19) = std::numeric_limits<double>::quiet_NaN(); }, 3);
  expect_checked_pass_finds_what_the_check_finds<D>(
      [](Field& q) {  // about 1000 m/s along x at two cells, the far one first in the record's order
        q.view(V::umom, 7, 2, 3) = 1000.0;
        q.view(V::vmom, 1, 15, 28) = -1000.0;
      },
      3);
}

TEST(PassTile3dHealthTest, TheTilesChecksOfTheirCellsFindWhatTheCheckOfTheOutputFinds) {
  expect_checked_pass_findings<Direction::x>();
  expect_checked_pass_findings<Direction::y>();
  expect_checked_pass_findings<Direction::z>();
}

/// The tiles' checks look at every output cell, each under its own index: a NaN put into any one
/// cell of a healthy output is the cell the record names (v = 0, the cell's k·NX·NY + j·NX + i).
template <Direction D>
void expect_every_output_cell_checked(const Size& size) {
  const PassSetup setup(CaseName::thermal, 0.0, size);
  Field output(setup.shape);
  setup.run_pass<D, 128>(output);
  const PassTile<D, 3, 128> pass{
      {}, setup.q0.view, output.view, {setup.context[0], setup.context[1], setup.context[2]}, setup.sources};
  const FieldShape<3>& s = setup.shape;
  int missed = 0;
  for (int k = 0; k < s.nz; ++k)
    for (int j = 0; j < s.ny; ++j)
      for (int i = 0; i < s.nx; ++i) {
        const double kept = output.view(V::dens, k, j, i);
        output.view(V::dens, k, j, i) = std::numeric_limits<double>::quiet_NaN();
        HealthRecord record{};
        for (int t = 0; t < pass.tile_count(); ++t) pass.check_output(t, 0, 1, &record);
        const auto cell = static_cast<std::uint64_t>((k * s.ny + j) * s.nx + i);
        if (record.failed_check != 0 || record.first_cell != cell) ++missed;
        output.view(V::dens, k, j, i) = kept;
      }
  EXPECT_EQ(missed, 0) << "xzy"[static_cast<int>(D)] << " pass, " << size.nx << " x " << size.ny << " x " << size.nz;
}

TEST(PassTile3dHealthTest, TheTilesCheckEveryOutputCellUnderItsOwnIndex) {
  // Two tiles along every pass and lines not a multiple of a tile's (4 rows, 8 columns).
  const Size size{26, 9, 9};
  expect_every_output_cell_checked<Direction::x>(size);
  expect_every_output_cell_checked<Direction::y>(size);
  expect_every_output_cell_checked<Direction::z>(size);
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
