/// The persistent kernel's fused pass (kernels/stage/pass_tile.hpp: the three RK3 stages of a
/// split pass in one tile, with margins instead of barriers) equals three stage kernels bit
/// for bit, on the host: every case without inflow, grids smaller and larger than a tile and
/// not a multiple of it, both passes, a state perturbed so that every variable and every wall
/// ghost matters; and the tiles' checks of their output cells find what the
/// health check of the whole output finds.
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

/// A field with its storage.
struct Field {
  explicit Field(const FieldShape<2>& shape) : data(shape.size(), 0.0), view{data.data(), shape} {}
  std::vector<double> data;
  FieldView<double, 2> view;
};

/// Adds a smooth pattern of a thousandth of each variable's scale, so that every variable,
/// velocities included, is nonzero and varies in both directions.
void perturb(Field& q) {
  const FieldShape<2>& s = q.view.shape;
  const double scale[var::count] = {1e-3, 1e-1, 1e-1, 1e-1};
  for (int v = 0; v < var::count; ++v)
    for (int k = 0; k < s.nz; ++k)
      for (int i = 0; i < s.nx; ++i) q.view(v, k, i) += scale[v] * std::sin(0.7 * i + 1.3 * k + v);
}

/// "" when the interiors are equal bit for bit, else where they first differ.
std::string first_difference(const Field& a, const Field& b) {
  const FieldShape<2>& s = a.view.shape;
  for (int v = 0; v < var::count; ++v)
    for (int k = 0; k < s.nz; ++k)
      for (int i = 0; i < s.nx; ++i)
        if (std::memcmp(&a.view(v, k, i), &b.view(v, k, i), sizeof(double)) != 0)
          return "v=" + std::to_string(v) + " k=" + std::to_string(k) + " i=" + std::to_string(i) + ": " +
                 std::to_string(a.view(v, k, i)) + " vs " + std::to_string(b.view(v, k, i));
  return "";
}

/// A case's state on an nx × nz grid, perturbed, and the three stages' contexts.
struct PassSetup {
  PassSetup(CaseName name, int nx, int nz)
      : spec(grid_spec(nx, nz)),
        grid(spec),
        background(Stream{}, case_background(name), grid.geometry<2>(), grid.nz()),
        q0(grid.cell_shape<2>()),
        params(step_params(1.5 * std::min(grid.dx(), grid.dz()) / 450.0, grid.dx(), grid.dz(), Dissipation{})),
        sources{{gravity_wave_source(name, case_bump(name, spec.xlen))}},
        sides(case_boundaries(name)) {
    set_initial_state(Stream{}, q0.view, name, case_bump(name, spec.xlen), grid.geometry<2>());
    perturb(q0);
    for (int s = 0; s < rk_stages; ++s) context[s] = {grid.geometry<2>(), background.view(), &params, s};
  }
  static GridSpec grid_spec(int nx, int nz) {
    GridSpec spec;
    spec.nx = nx;
    spec.nz = nz;
    return spec;
  }

  /// The pass along D from q0 into `output`, tile by tile, its cells checked into `record` if given.
  template <Direction D, int Threads>
  void run_pass(Field& output, HealthRecord* record = nullptr) const {
    const PassTile<D, 2, Threads> pass{{}, q0.view, output.view, {context[0], context[1], context[2]}, sources};
    const auto tile = std::make_unique<typename PassTile<D, 2, Threads>::Tile>();
    for (int t = 0; t < pass.tile_count(); ++t) {
      pass.run(*tile, t, 0, 1, [] {});
      if (record != nullptr) pass.check_output(t, 0, 1, record);
    }
  }

  GridSpec spec;
  Grid grid;
  HydrostaticProfile background;
  Field q0;
  StepParams<2> params;
  SourceTerms<2> sources;
  BoundaryConditions<2> sides;
  FluxContext<2> context[rk_stages];
};

template <Direction D, int Threads>
void expect_fused_pass_equals_three_stages(CaseName name, int nx, int nz) {
  const PassSetup setup(name, nx, nz);
  ASSERT_TRUE(pass_tile_makes(setup.sides)) << to_string(name);
  const FieldShape<2> shape = setup.grid.cell_shape<2>();
  Field q1(shape), q2(shape), q3(shape), fused(shape);
  const Field* input[rk_stages] = {&setup.q0, &q1, &q2};
  Field* output[rk_stages] = {&q1, &q2, &q3};
  for (int s = 0; s < rk_stages; ++s)
    apply_stage(Stream{}, D, stage_arrays(setup.q0.view, input[s]->view, output[s]->view), setup.context[s],
                setup.sources, setup.sides, CellBox{0, nx, 0, 1, 0, nz});
  setup.run_pass<D, Threads>(fused);

  EXPECT_EQ(first_difference(fused, q3), "")
      << to_string(name) << " " << nx << " x " << nz << (D == Direction::x ? " x pass" : " z pass") << ", " << Threads
      << " threads";
}

/// The tiles' checks of their own output cells latch into their record, as check number
/// checks_run, what the health check of every cell of the output finds (check_cell_health, the other code path);
/// `spoil` makes the input unhealthy at a few cells, or leaves it.
template <Direction D>
void expect_checked_pass_finds_what_the_check_finds(const std::function<void(Field&)>& spoil,
                                                    std::int64_t expected_failed_check) {
  PassSetup setup(CaseName::thermal, 61, 30);
  spoil(setup.q0);
  Field fused(setup.grid.cell_shape<2>());
  HealthRecord checked{};
  checked.checks_run = 3;
  setup.run_pass<D, 128>(fused, &checked);

  HealthRecord swept{};
  swept.checks_run = 3;
  for (int k = 0; k < setup.grid.nz(); ++k)
    for (int i = 0; i < setup.grid.nx(); ++i)
      check_cell_health(fused.view, setup.background.view(), setup.grid.geometry<2>(), &swept, k, 0, i);
  const char* pass = D == Direction::x ? "x pass" : "z pass";
  EXPECT_EQ(swept.failed_check, expected_failed_check) << pass;
  EXPECT_EQ(checked.failed_check, swept.failed_check) << pass;
  EXPECT_EQ(checked.first_cell, swept.first_cell) << pass;
}

template <Direction D>
void expect_checked_pass_findings() {
  expect_checked_pass_finds_what_the_check_finds<D>([](Field&) {}, -1);
  expect_checked_pass_finds_what_the_check_finds<D>(
      [](Field& q) { q.view(var::rhot, 17, 40) = std::numeric_limits<double>::quiet_NaN(); }, 3);
  expect_checked_pass_finds_what_the_check_finds<D>(
      [](Field& q) {  // about 1000 m/s at two cells
        q.view(var::umom, 20, 3) = 1000.0;
        q.view(var::wmom, 2, 57) = -1000.0;
      },
      3);
}

TEST(PassTileHealthTest, TheTilesChecksOfTheirCellsFindWhatTheCheckOfTheOutputFinds) {
  expect_checked_pass_findings<Direction::x>();
  expect_checked_pass_findings<Direction::z>();
}

/// The tiles' checks look at every output cell, each under its own index: a NaN put into any one
/// cell of a healthy output is the cell the record names (v = 0, the cell's k·NX + i).
template <Direction D>
void expect_every_output_cell_checked(int nx, int nz) {
  const PassSetup setup(CaseName::thermal, nx, nz);
  Field output(setup.grid.cell_shape<2>());
  setup.run_pass<D, 128>(output);
  const PassTile<D, 2, 128> pass{
      {}, setup.q0.view, output.view, {setup.context[0], setup.context[1], setup.context[2]}, setup.sources};
  int missed = 0;
  for (int k = 0; k < nz; ++k)
    for (int i = 0; i < nx; ++i) {
      const double kept = output.view(var::dens, k, i);
      output.view(var::dens, k, i) = std::numeric_limits<double>::quiet_NaN();
      HealthRecord record{};
      for (int t = 0; t < pass.tile_count(); ++t) pass.check_output(t, 0, 1, &record);
      if (record.failed_check != 0 || record.first_cell != static_cast<std::uint64_t>(k * nx + i)) ++missed;
      output.view(var::dens, k, i) = kept;
    }
  EXPECT_EQ(missed, 0) << (D == Direction::x ? "x pass, " : "z pass, ") << nx << " x " << nz;
}

TEST(PassTileHealthTest, TheTilesCheckEveryOutputCellUnderItsOwnIndex) {
  // Two tiles along each pass and lines not a multiple of a tile's (4 rows, 8 columns).
  expect_every_output_cell_checked<Direction::x>(30, 9);
  expect_every_output_cell_checked<Direction::z>(30, 9);
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
