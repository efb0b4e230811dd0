/// The 3-D model's statistics (reduce_statistics_3d) against the 2-D model's: a state uniform in
/// y sums to ny times the 2-D sums exactly (the sums are exact fixed-point, and v = 0 adds nothing
/// to u² + w²) with the same extremes, and ρv counts in the energies as ρu does.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "kernels/cases/case_list.hpp"
#include "kernels/diagnostics/flow_statistics.hpp"
#include "kernels/initial_conditions/initial_state.hpp"
#include "solver/grid/grid.hpp"
#include "solver/state/hydrostatic_profile.hpp"

namespace simapp {
namespace {

using V3 = ModelVariables<3>;

/// The statistics of `cells` cells, both passes on the host and their records added.
template <class Reduce>
StatisticsSums statistics_of(std::int64_t cells, const Reduce& reduce) {
  std::vector<StatisticsSums> partials(statistics_partial_count(cells)), records(statistics_record_count(cells));
  reduce(partials.data(), records.data());
  StatisticsSums total;
  for (const StatisticsSums& record : records) total.add(record);
  return total;
}

class FlowStatistics3dTest : public ::testing::Test {
 protected:
  static constexpr int nx = 24, ny = 5, nz = 12;
  FlowStatistics3dTest()
      : grid(grid_spec()),
        background(Stream{}, case_background(CaseName::thermal), grid.geometry<2>(), nz),
        two_d(grid.cell_shape<2>().size()),
        shape{nx, ny, nz, numerics::halo_width, V3::count},
        three_d(shape.size()) {
    set_initial_state(Stream{}, {two_d.data(), grid.cell_shape<2>()}, CaseName::thermal,
                      case_bump(CaseName::thermal, grid.spec().xlen), grid.geometry<2>());
    const FieldView<double, 2> q2{two_d.data(), grid.cell_shape<2>()};
    const FieldView<double, 3> q3{three_d.data(), shape};
    for (int k = 0; k < nz; ++k)
      for (int i = 0; i < nx; ++i) {
        q2(var::umom, k, i) += 0.3 * std::sin(0.4 * i + k);
        q2(var::wmom, k, i) += 0.2 * std::cos(0.3 * i - k);
        for (int j = 0; j < ny; ++j) {
          q3(V3::dens, k, j, i) = q2(var::dens, k, i);
          q3(V3::umom, k, j, i) = q2(var::umom, k, i);
          q3(V3::vmom, k, j, i) = 0.0;
          q3(V3::wmom, k, j, i) = q2(var::wmom, k, i);
          q3(V3::rhot, k, j, i) = q2(var::rhot, k, i);
        }
      }
  }
  static GridSpec grid_spec() {
    GridSpec spec;
    spec.nx = nx;
    spec.nz = nz;
    return spec;
  }
  /// The 2-D statistics, their sums taken ny times (ny rows of x).
  StatisticsSums two_d_sums() {
    StatisticsSums sums = statistics_of(std::int64_t{nx} * nz, [&](StatisticsSums* partials, StatisticsSums* records) {
      reduce_statistics(Stream{}, FieldView<const double, 2>{two_d.data(), grid.cell_shape<2>()}, background.view(),
                        grid.geometry<2>(), partials, records);
    });
    const StatisticsSums row = sums;
    for (int j = 1; j < ny; ++j) {
      sums.mass.add(row.mass);
      sums.energy.add(row.energy);
      sums.kinetic.add(row.kinetic);
    }
    return sums;
  }
  /// The 3-D statistics, with cells as deep in y as they are wide, so that v = 0 is no faster
  /// across a cell than u is.
  StatisticsSums three_d_sums() {
    const CellGeometry<3> geometry{grid.geometry<2>(), grid.geometry<2>().dx, grid.geometry<2>().dx * ny, ny, 0};
    return statistics_of(std::int64_t{nx} * ny * nz, [&](StatisticsSums* partials, StatisticsSums* records) {
      reduce_statistics_3d(Stream{}, FieldView<const double, 3>{three_d.data(), shape}, background.view(), geometry,
                           partials, records);
    });
  }

  Grid grid;
  HydrostaticProfile background;
  std::vector<double> two_d;
  FieldShape<3> shape;
  std::vector<double> three_d;
};

TEST_F(FlowStatistics3dTest, AStateUniformInYSumsToNyTimesTheTwoDSumsExactly) {
  const StatisticsSums expected = two_d_sums(), got = three_d_sums();
  EXPECT_EQ(got.mass.value(density_scale_bits), expected.mass.value(density_scale_bits));
  EXPECT_EQ(got.energy.value(energy_scale_bits), expected.energy.value(energy_scale_bits));
  EXPECT_EQ(got.kinetic.value(energy_scale_bits), expected.kinetic.value(energy_scale_bits));
  EXPECT_GT(got.kinetic.value(energy_scale_bits), 0.0);
  EXPECT_EQ(got.max_abs_u, expected.max_abs_u);
  EXPECT_EQ(got.max_abs_v, 0.0);
  EXPECT_EQ(got.max_abs_w, expected.max_abs_w);
  EXPECT_EQ(got.min_theta_prime, expected.min_theta_prime);
  EXPECT_EQ(got.max_theta_prime, expected.max_theta_prime);
  EXPECT_EQ(got.max_signal_rate, expected.max_signal_rate);
}

TEST_F(FlowStatistics3dTest, MomentumAlongYCountsInTheEnergiesAsMomentumAlongX) {
  const FieldView<double, 3> q3{three_d.data(), shape};
  const StatisticsSums expected = two_d_sums();
  for (int k = 0; k < nz; ++k)  // ρu moved into ρv
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) std::swap(q3(V3::umom, k, j, i), q3(V3::vmom, k, j, i));
  const StatisticsSums got = three_d_sums();
  EXPECT_EQ(got.mass.value(density_scale_bits), expected.mass.value(density_scale_bits));
  const double energy = expected.energy.value(energy_scale_bits), kinetic = expected.kinetic.value(energy_scale_bits);
  EXPECT_NEAR(got.energy.value(energy_scale_bits), energy, 1e-12 * energy);
  EXPECT_NEAR(got.kinetic.value(energy_scale_bits), kinetic, 1e-12 * kinetic);
  EXPECT_EQ(got.max_abs_v, expected.max_abs_u);
  EXPECT_EQ(got.max_abs_u, 0.0);
}

}  // namespace
}  // namespace simapp
