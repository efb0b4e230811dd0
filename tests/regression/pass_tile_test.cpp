/// The persistent kernel's fused pass (kernels/stage/pass_tile.hpp: the three RK3 stages of a
/// split pass in one tile, with margins instead of barriers) equals three stage kernels bit for
/// bit, on the host (a second code path: the stage kernels' tiles, ghost cells by rule), in 2-D
/// and in 3-D: every case without inflow, each pass, grids smaller and larger than a tile and not
/// a multiple of it (3-D: dy ≠ dx, viscosity on and off), a state varying in every direction so
/// that every variable and every wall ghost matters; the pass kernel with tracers equals, on each
/// of its tile shapes, the stage kernels each followed by the tracers' halo fill and transport
/// kernel; and the tiles' checks of their output cells find what the health check of the whole
/// output finds.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "kernels/boundary/halo_fill.hpp"
#include "kernels/cases/case_list.hpp"
#include "kernels/diagnostics/cell_health.hpp"
#include "kernels/initial_conditions/initial_state.hpp"
#include "kernels/stage/pass_kernel.hpp"
#include "kernels/stage/pass_tile.hpp"
#include "kernels/stage/stage_kernel.hpp"
#include "kernels/update/tracer_transport.hpp"
#include "solver/grid/grid.hpp"
#include "solver/state/hydrostatic_profile.hpp"
#include "tests/support/dimensions.hpp"

namespace simapp {
namespace {

/// A field of the model of `Dims` dimensions with its storage in host memory.
template <int Dims>
struct Field {
  explicit Field(const FieldShape<Dims>& shape) : data(shape.size(), 0.0), view{data.data(), shape} {}
  std::vector<double> data;
  FieldView<double, Dims> view;
};

/// Adds a smooth pattern of a thousandth of each variable's scale, so that every variable,
/// velocities included, is nonzero and varies in every direction.
template <int Dims>
void perturb(Field<Dims>& q) {
  const FieldShape<Dims>& s = q.view.shape;
  for (int v = 0; v < s.num_vars; ++v)
    for (int k = 0; k < s.nz; ++k)
      for (int j = 0; j < s.ny; ++j)
        for (int i = 0; i < s.nx; ++i)
          q.view(v, k, j, i) +=
              (v == ModelVariables<Dims>::dens ? 1e-3 : 1e-1) * std::sin(0.7 * i - 0.9 * j + 1.3 * k + v);
}

/// "" when the interiors are equal bit for bit, else where they first differ.
template <int Dims>
std::string first_difference(const Field<Dims>& a, const Field<Dims>& b) {
  const FieldShape<Dims>& s = a.view.shape;
  for (int v = 0; v < s.num_vars; ++v)
    for (int k = 0; k < s.nz; ++k)
      for (int j = 0; j < s.ny; ++j)
        for (int i = 0; i < s.nx; ++i)
          if (std::memcmp(&a.view(v, k, j, i), &b.view(v, k, j, i), sizeof(double)) != 0)
            return "v=" + std::to_string(v) + " k=" + std::to_string(k) + " j=" + std::to_string(j) +
                   " i=" + std::to_string(i) + ": " + std::to_string(a.view(v, k, j, i)) + " vs " +
                   std::to_string(b.view(v, k, j, i));
  return "";
}

/// Cells of a grid (2-D: ny = 1).
struct Size {
  int nx, ny, nz;
};

/// A case's state on a grid of `size` (3-D: dy ≠ dx) with `tracers` tracers, perturbed, and the
/// three stages' contexts.
template <int Dims>
struct PassSetup {
  PassSetup(CaseName name, double viscosity, const Size& size, int tracers = 0)
      : spec(grid_spec(size, tracers)),
        grid(spec),
        background(Stream{}, case_background(name), grid.geometry<2>(), grid.nz()),
        shape(grid.cell_shape<Dims>()),
        q0(shape),
        sources{{gravity_wave_source(name, bump_of(name, spec))}} {
    if constexpr (Dims == 3) {
      params = step_params(1.5 * std::min({grid.dx(), grid.dy(), grid.dz()}) / 450.0, grid.dx(), grid.dy(), grid.dz(),
                           Dissipation{viscosity});
      sides = periodic_in_y(case_boundaries(name));
    } else {
      params = step_params(1.5 * std::min(grid.dx(), grid.dz()) / 450.0, grid.dx(), grid.dz(), Dissipation{viscosity});
      sides = case_boundaries(name);
    }
    set_initial_state(Stream{}, q0.view, name, bump_of(name, spec), grid.geometry<Dims>());
    perturb(q0);
    for (int s = 0; s < rk_stages; ++s) context[s] = {grid.geometry<Dims>(), background.view(), &params, s};
  }
  static GridSpec grid_spec(const Size& size, int tracers) {
    GridSpec spec;
    spec.nx = size.nx;
    spec.ny = size.ny;
    spec.nz = size.nz;
    spec.ylen = 0.8 * spec.xlen;
    for (int t = 0; t < tracers; ++t) spec.tracers.push_back("tracer" + std::to_string(t));
    return spec;
  }
  static Bump<Dims> bump_of(CaseName name, const GridSpec& spec) {
    return model_bump<Dims>(case_bump(name, spec.xlen), spec.ylen);
  }

  /// The pass along D from q0 into `output`.
  template <Direction D, int Threads>
  PassTile<D, Dims, double, Threads> pass_into(Field<Dims>& output) const {
    PassTile<D, Dims, double, Threads> pass{};
    set_pass(pass, q0.view, output.view, context[0].geometry, context[0].background, context[0].params, sources);
    return pass;
  }

  /// The pass along D from q0 into `output`, tile by tile, its cells checked into `record` if given.
  template <Direction D, int Threads>
  void run_pass(Field<Dims>& output, HealthRecord* record = nullptr) const {
    const PassTile<D, Dims, double, Threads> pass = pass_into<D, Threads>(output);
    const auto tile = std::make_unique<typename PassTile<D, Dims, double, Threads>::Tile>();
    for (int t = 0; t < pass.tile_count(); ++t) {
      pass.run(*tile, t, 0, 1, [] {});
      if (record != nullptr) pass.check_output(t, 0, 1, record);
    }
  }

  GridSpec spec;
  Grid grid;
  HydrostaticProfile background;
  FieldShape<Dims> shape;
  Field<Dims> q0;
  StepParams<Dims> params;
  SourceTerms<Dims> sources;
  BoundaryConditions<Dims> sides;
  FluxContext<Dims> context[rk_stages];
};

const char* pass_name(Direction d) { return d == Direction::x ? "x pass" : d == Direction::y ? "y pass" : "z pass"; }

template <int Dims, Direction D, int Threads>
void expect_fused_pass_equals_three_stages(CaseName name, double viscosity, const Size& size) {
  const PassSetup<Dims> setup(name, viscosity, size);
  ASSERT_TRUE(pass_tile_makes(setup.sides)) << to_string(name);
  Field<Dims> q1(setup.shape), q2(setup.shape), q3(setup.shape), fused(setup.shape);
  const Field<Dims>* input[rk_stages] = {&setup.q0, &q1, &q2};
  Field<Dims>* output[rk_stages] = {&q1, &q2, &q3};
  for (int s = 0; s < rk_stages; ++s)
    apply_stage(Stream{}, D, stage_arrays(setup.q0.view, input[s]->view, output[s]->view), setup.context[s],
                setup.sources, setup.sides, interior_cells(setup.shape));
  setup.template run_pass<D, Threads>(fused);

  EXPECT_EQ(first_difference(fused, q3), "")
      << to_string(name) << (viscosity != 0.0 ? " with viscosity, " : ", ") << size.nx << " x " << size.ny << " x "
      << size.nz << ", " << pass_name(D) << ", " << Threads << " threads";
}

/// Every pass of the model of `Dims` dimensions.
template <int Dims, int Threads>
void expect_every_pass(CaseName name, double viscosity, const Size& size) {
  expect_fused_pass_equals_three_stages<Dims, Direction::x, Threads>(name, viscosity, size);
  if constexpr (Dims == 3) expect_fused_pass_equals_three_stages<Dims, Direction::y, Threads>(name, viscosity, size);
  expect_fused_pass_equals_three_stages<Dims, Direction::z, Threads>(name, viscosity, size);
}

/// A case without inflow in one of the models.
struct CaseOfDims {
  int dims;
  CaseName name;
};

class PassTileTest : public ::testing::TestWithParam<CaseOfDims> {};

TEST_P(PassTileTest, FusedPassEqualsThreeStageKernelsBitForBit) {
  const CaseName name = GetParam().name;
  if (GetParam().dims == 2) {
    for (const Size& size : {Size{61, 1, 30}, Size{7, 1, 5}, Size{128, 1, 64}, Size{130, 1, 4}})
      expect_every_pass<2, 128>(name, 0.0, size);
    expect_every_pass<2, 256>(name, 0.0, Size{130, 1, 21});
  } else {
    // Tiles (128 threads): 23 cells along x, 7 along y and z; 4 rows or 8 columns a tile.
    for (const Size& size : {Size{30, 17, 9}, Size{7, 5, 4}, Size{48, 24, 10}})
      expect_every_pass<3, 128>(name, 0.0, size);
    expect_every_pass<3, 128>(name, 75.0, Size{26, 11, 8});
    expect_every_pass<3, 256>(name, 0.0, Size{61, 9, 15});
  }
}

INSTANTIATE_TEST_SUITE_P(CasesWithoutInflow, PassTileTest,
                         ::testing::Values(CaseOfDims{2, CaseName::thermal}, CaseOfDims{2, CaseName::collision},
                                           CaseOfDims{2, CaseName::gravity_waves},
                                           CaseOfDims{2, CaseName::density_current}, CaseOfDims{2, CaseName::rest},
                                           CaseOfDims{3, CaseName::thermal}, CaseOfDims{3, CaseName::collision},
                                           CaseOfDims{3, CaseName::gravity_waves},
                                           CaseOfDims{3, CaseName::density_current}, CaseOfDims{3, CaseName::rest},
                                           CaseOfDims{3, CaseName::straka}),
                         [](const auto& test) {
                           return std::string(to_string(test.param.name)) + "_" + std::to_string(test.param.dims) + "d";
                         });

template <class Dims>
class PassTileHealthTest : public ::testing::Test {
 protected:
  static constexpr int dims = Dims::value;
  using V = ModelVariables<dims>;
  /// The grid of the checks' tests.
  static constexpr Size checked_size = dims == 3 ? Size{30, 17, 9} : Size{61, 1, 30};

  /// The tiles' checks of their own output cells latch into their record, as check number
  /// checks_run, what the health check of every cell of the output finds (check_cell_health, the
  /// other code path); `spoil` makes the input unhealthy at a few cells, or leaves it.
  template <Direction D>
  static void expect_checked_pass_finds_what_the_check_finds(const std::function<void(Field<dims>&)>& spoil,
                                                             std::int64_t expected_failed_check) {
    PassSetup<dims> setup(CaseName::thermal, 0.0, checked_size);
    spoil(setup.q0);
    Field<dims> fused(setup.shape);
    HealthRecord checked{};
    checked.checks_run = 3;
    setup.template run_pass<D, 128>(fused, &checked);

    HealthRecord swept{};
    swept.checks_run = 3;
    for (int k = 0; k < setup.shape.nz; ++k)
      for (int j = 0; j < setup.shape.ny; ++j)
        for (int i = 0; i < setup.shape.nx; ++i)
          check_cell_health(fused.view, setup.background.view(), setup.grid.template geometry<dims>(), &swept, k, j, i);
    EXPECT_EQ(swept.failed_check, expected_failed_check) << pass_name(D);
    EXPECT_EQ(checked.failed_check, swept.failed_check) << pass_name(D);
    EXPECT_EQ(checked.first_cell, swept.first_cell) << pass_name(D);
  }

  template <Direction D>
  static void expect_checked_pass_findings() {
    expect_checked_pass_finds_what_the_check_finds<D>([](Field<dims>&) {}, -1);
    if constexpr (dims == 3) {
      expect_checked_pass_finds_what_the_check_finds<D>(
          [](Field<dims>& q) { q.view(V::rhot, 4, 11, 19) = std::numeric_limits<double>::quiet_NaN(); }, 3);
      expect_checked_pass_finds_what_the_check_finds<D>(
          [](Field<dims>& q) {  // about 1000 m/s along x at two cells, the far one first in the record's order
            q.view(V::umom, 7, 2, 3) = 1000.0;
            q.view(V::vmom, 1, 15, 28) = -1000.0;
          },
          3);
    } else {
      expect_checked_pass_finds_what_the_check_finds<D>(
          [](Field<dims>& q) { q.view(V::rhot, 17, 40) = std::numeric_limits<double>::quiet_NaN(); }, 3);
      expect_checked_pass_finds_what_the_check_finds<D>(
          [](Field<dims>& q) {  // about 1000 m/s at two cells
            q.view(V::umom, 20, 3) = 1000.0;
            q.view(V::wmom, 2, 57) = -1000.0;
          },
          3);
    }
  }

  /// The tiles' checks look at every output cell, each under its own index: a NaN put into any
  /// one cell of a healthy output is the cell the record names (v = 0, the cell's k·NX·NY + j·NX + i;
  /// 2-D: k·NX + i).
  template <Direction D>
  static void expect_every_output_cell_checked(const Size& cells) {
    const PassSetup<dims> setup(CaseName::thermal, 0.0, cells);
    Field<dims> output(setup.shape);
    setup.template run_pass<D, 128>(output);
    const PassTile<D, dims, double, 128> pass = setup.template pass_into<D, 128>(output);
    const FieldShape<dims>& s = setup.shape;
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
    EXPECT_EQ(missed, 0) << pass_name(D) << ", " << cells.nx << " x " << cells.ny << " x " << cells.nz;
  }
};
TYPED_TEST_SUITE(PassTileHealthTest, testing::Dimensions, testing::DimensionName);

TYPED_TEST(PassTileHealthTest, TheTilesChecksOfTheirCellsFindWhatTheCheckOfTheOutputFinds) {
  TestFixture::template expect_checked_pass_findings<Direction::x>();
  if constexpr (TestFixture::dims == 3) TestFixture::template expect_checked_pass_findings<Direction::y>();
  TestFixture::template expect_checked_pass_findings<Direction::z>();
}

TYPED_TEST(PassTileHealthTest, TheTilesCheckEveryOutputCellUnderItsOwnIndex) {
  // Two tiles along every pass and lines not a multiple of a tile's (4 rows, 8 columns).
  const Size size = TestFixture::dims == 3 ? Size{26, 9, 9} : Size{30, 1, 9};
  TestFixture::template expect_every_output_cell_checked<Direction::x>(size);
  if constexpr (TestFixture::dims == 3) TestFixture::template expect_every_output_cell_checked<Direction::y>(size);
  TestFixture::template expect_every_output_cell_checked<Direction::z>(size);
}

/// Background profiles of `tracers` tracers on nz rows, each its own: ρ̄_x(z) of tracer b a
/// decreasing profile of scale 10⁻³ (b + 1), so that each tracer's index into them matters.
struct TracerProfilesOf {
  TracerProfilesOf(int tracers, int nz)
      : cell(static_cast<std::size_t>(tracers * (nz + 2 * numerics::halo_width))),
        face(static_cast<std::size_t>(tracers * (nz + 1))) {
    const int rows = nz + 2 * numerics::halo_width;
    for (int b = 0; b < tracers; ++b) {
      for (int r = 0; r < rows; ++r) cell[b * rows + r] = 1e-3 * (b + 1) * std::exp(-0.05 * (r - numerics::halo_width));
      for (int k = 0; k <= nz; ++k) face[b * (nz + 1) + k] = 1e-3 * (b + 1) * std::exp(-0.05 * (k - 0.5));
    }
    view = {cell.data(), face.data(), rows, nz + 1};
  }
  std::vector<double> cell, face;
  TracerBackground view;
};

/// The pass kernel along D with `tracers` tracers (apply_pass: the tile shape it takes for
/// `size`) equals the stage path's three stages: the stage kernel, the tracers' halo fill of the
/// stage input (every variable, as add_tracer_stage fills it) and the tracer transport kernel.
template <int Dims, Direction D>
void expect_pass_kernel_equals_stage_kernels_and_transport(CaseName name, double viscosity, const Size& size,
                                                           int tracers) {
  PassSetup<Dims> setup(name, viscosity, size, tracers);
  ASSERT_TRUE(pass_tile_makes(setup.sides)) << to_string(name);
  const TracerProfilesOf profiles(tracers, size.nz);
  const VarRange all{0, setup.shape.num_vars}, tracer_range{ModelVariables<Dims>::count, setup.shape.num_vars};
  Field<Dims> q1(setup.shape), q2(setup.shape), q3(setup.shape), fused(setup.shape);
  Field<Dims>* input[rk_stages] = {&setup.q0, &q1, &q2};
  Field<Dims>* output[rk_stages] = {&q1, &q2, &q3};
  for (int s = 0; s < rk_stages; ++s) {
    apply_stage(Stream{}, D, stage_arrays(setup.q0.view, input[s]->view, output[s]->view), setup.context[s],
                setup.sources, setup.sides, interior_cells(setup.shape));
    fill_halos(Stream{}, D, input[s]->view, all, setup.background.view(), setup.sides);
    apply_tracer_transport(Stream{}, D, TracerStageFields<double, Dims>{setup.q0.view, input[s]->view, output[s]->view},
                           tracer_range, setup.context[s], profiles.view);
  }
  apply_pass(Stream{}, D, setup.q0.view, fused.view, setup.grid.template geometry<Dims>(), setup.background.view(),
             &setup.params, setup.sources, profiles.view);

  EXPECT_EQ(first_difference(fused, q3), "")
      << to_string(name) << (viscosity != 0.0 ? " with viscosity, " : ", ") << size.nx << " x " << size.ny << " x "
      << size.nz << ", " << pass_name(D) << ", " << tracers << " tracers";
}

template <int Dims>
void expect_every_pass_carries_tracers(CaseName name, double viscosity, const Size& size, int tracers) {
  expect_pass_kernel_equals_stage_kernels_and_transport<Dims, Direction::x>(name, viscosity, size, tracers);
  if constexpr (Dims == 3)
    expect_pass_kernel_equals_stage_kernels_and_transport<Dims, Direction::y>(name, viscosity, size, tracers);
  expect_pass_kernel_equals_stage_kernels_and_transport<Dims, Direction::z>(name, viscosity, size, tracers);
}

TEST(PassKernelTracersTest, EveryTileShapeEqualsTheStageKernelsAndTheTracerTransportBitForBit) {
  // Rows of 4 × 23 (nx ≤ 23) or 2 × 55 (nx = 26, 50), columns of 8 × 7 (< 32 cells) or 4 × 23.
  for (int tracers = 1; tracers <= pass_kernel_max_tracers; ++tracers) {
    expect_every_pass_carries_tracers<2>(CaseName::thermal, 0.0, Size{23, 1, 40}, tracers);
    expect_every_pass_carries_tracers<2>(CaseName::gravity_waves, 0.0, Size{50, 1, 12}, tracers);
    expect_every_pass_carries_tracers<3>(CaseName::thermal, 0.0, Size{23, 33, 32}, tracers);
    expect_every_pass_carries_tracers<3>(CaseName::gravity_waves, 75.0, Size{26, 9, 12}, tracers);
  }
  EXPECT_FALSE(pass_kernel_carries(pass_kernel_max_tracers + 1));
}

TEST(PassTileBoundaryTest, AnInflowKeepsABarrierAStage) {
  EXPECT_FALSE(pass_tile_makes(case_boundaries(CaseName::injection)));
  EXPECT_FALSE(pass_tile_makes(periodic_in_y(case_boundaries(CaseName::injection))));
  EXPECT_TRUE(pass_tile_makes(periodic_in_y(case_boundaries(CaseName::thermal))));
}

}  // namespace
}  // namespace simapp
