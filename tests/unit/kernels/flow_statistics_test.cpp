/// The statistics of the state (reduce_statistics) against the same quantities worked out here
/// cell by cell from the prognostic variables in plain double loops: the extremes equal them
/// bit for bit (they are values of single cells, computed as the snapshots compute their fields),
/// the sums agree to rounding; on grids that fill the reduction's groups and lanes unevenly; a
/// state at rest gives exact zeros; a non-finite value shows as NaN.
#include "kernels/diagnostics/flow_statistics.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include "kernels/cases/case_list.hpp"
#include "kernels/initial_conditions/initial_state.hpp"
#include "kernels/physics/constants.hpp"
#include "kernels/physics/variables.hpp"
#include "solver/grid/grid.hpp"
#include "solver/state/hydrostatic_profile.hpp"

namespace simapp {
namespace {

/// The quantities of the statistics, worked out cell by cell.
struct Expected {
  double mass = 0.0, energy = 0.0, kinetic = 0.0;
  double max_abs_u = 0.0, max_abs_w = 0.0;
  double min_theta_prime = std::numeric_limits<double>::infinity();
  double max_theta_prime = -std::numeric_limits<double>::infinity();
  double max_signal_rate = 0.0;
};

class FlowStatisticsTest : public ::testing::Test {
 protected:
  /// The thermal case on nx × nz cells, with winds that vary from cell to cell.
  void make(CaseName name, int nx, int nz) {
    GridSpec spec;
    spec.nx = nx;
    spec.nz = nz;
    grid_.emplace(spec);
    background_.emplace(Stream{}, case_background(name), grid_->geometry<2>(), nz);
    state_.assign(grid_->cell_shape<2>().size(), 0.0);
    set_initial_state(Stream{}, view(), name, case_bump(name, spec.xlen), grid_->geometry<2>());
  }
  FieldView<double, 2> view() { return {state_.data(), grid_->cell_shape<2>()}; }
  void add_winds() {
    const FieldView<double, 2> q = view();
    for (int k = 0; k < grid_->nz(); ++k)
      for (int i = 0; i < grid_->nx(); ++i) {
        q(var::umom, k, i) += 3.0 * std::sin(0.37 * i + 0.11 * k);
        q(var::wmom, k, i) -= 2.0 * std::cos(0.23 * i - 0.29 * k);
      }
  }

  StatisticsSums reduced() {
    const std::int64_t cells = std::int64_t{grid_->nx()} * grid_->nz();
    std::vector<StatisticsSums> partials(statistics_partial_count(cells)), records(statistics_record_count(cells));
    reduce_statistics(Stream{}, FieldView<const double, 2>(view()), background_->view(), grid_->geometry<2>(),
                      partials.data(), records.data());
    StatisticsSums total;
    for (const StatisticsSums& record : records) total.add(record);
    return total;
  }

  Expected expected() {
    const FieldView<double, 2> q = view();
    const HydrostaticView background = background_->view();
    const CellGeometry<2> geometry = grid_->geometry<2>();
    Expected e;
    for (int k = 0; k < grid_->nz(); ++k)
      for (int i = 0; i < grid_->nx(); ++i) {
        const double rho_bar = background.cell_density(k), rho_theta_bar = background.cell_rho_theta(k);
        const double rho = rho_bar + q(var::dens, k, i);
        const double u = q(var::umom, k, i) / rho, w = q(var::wmom, k, i) / rho;
        // θ′ as the snapshots' theta_prime: (ρ̄θ̄ + (ρθ)′)/ρ − ρ̄θ̄/ρ̄.
        const double theta_prime = (rho_theta_bar + q(var::rhot, k, i)) / rho - rho_theta_bar / rho_bar;
        const double p = physics::c0 * std::pow(rho_theta_bar + q(var::rhot, k, i), physics::gamma);
        const double temperature = p / (rho * physics::rd);  // the ideal gas
        const double sound = std::sqrt(physics::gamma * p / rho);
        e.mass += rho;
        e.kinetic += 0.5 * rho * (u * u + w * w);
        e.energy += rho * (u * u + w * w) + rho * physics::cv * temperature;
        e.max_abs_u = std::max(e.max_abs_u, std::fabs(u));
        e.max_abs_w = std::max(e.max_abs_w, std::fabs(w));
        e.min_theta_prime = std::min(e.min_theta_prime, theta_prime);
        e.max_theta_prime = std::max(e.max_theta_prime, theta_prime);
        e.max_signal_rate =
            std::max({e.max_signal_rate, (std::fabs(u) + sound) / geometry.dx, (std::fabs(w) + sound) / geometry.dz});
      }
    return e;
  }

  std::optional<Grid> grid_;
  std::optional<HydrostaticProfile> background_;
  std::vector<double> state_;
};

TEST_F(FlowStatisticsTest, AgreeWithTheCellsOnGridsThatFillGroupsAndLanesUnevenly) {
  // 5917 cells: a whole group of 4096 and a part of one; 40 cells: part of one lane's stride;
  // 12 × 700 = 8400 cells: more than two groups, rows longer than a lane's stride.
  for (const auto& [nx, nz] : {std::pair{97, 61}, std::pair{8, 5}, std::pair{700, 12}}) {
    SCOPED_TRACE(::testing::Message() << nx << " x " << nz);
    make(CaseName::thermal, nx, nz);
    add_winds();
    const StatisticsSums got = reduced();
    const Expected e = expected();
    EXPECT_EQ(got.max_abs_u, e.max_abs_u);
    EXPECT_EQ(got.max_abs_w, e.max_abs_w);
    EXPECT_EQ(got.max_abs_v, 0.0);
    EXPECT_EQ(got.min_theta_prime, e.min_theta_prime);
    EXPECT_EQ(got.max_theta_prime, e.max_theta_prime);
    EXPECT_GT(got.max_theta_prime, 0.1);  // the bubble
    EXPECT_NEAR(got.max_signal_rate, e.max_signal_rate, 1e-12 * e.max_signal_rate);
    EXPECT_NEAR(got.mass.value(density_scale_bits), e.mass, 1e-13 * e.mass);
    EXPECT_NEAR(got.kinetic.value(energy_scale_bits), e.kinetic, 1e-12 * e.kinetic);
    EXPECT_NEAR(got.energy.value(energy_scale_bits), e.energy, 1e-12 * e.energy);
  }
}

TEST_F(FlowStatisticsTest, AStateAtRestGivesExactZeros) {
  make(CaseName::rest, 37, 19);
  const StatisticsSums got = reduced();
  EXPECT_EQ(got.kinetic.value(energy_scale_bits), 0.0);
  EXPECT_EQ(got.max_abs_u, 0.0);
  EXPECT_EQ(got.max_abs_w, 0.0);
  EXPECT_EQ(got.min_theta_prime, 0.0);
  EXPECT_EQ(got.max_theta_prime, 0.0);
  const Expected e = expected();
  EXPECT_NEAR(got.max_signal_rate, e.max_signal_rate, 1e-12 * e.max_signal_rate);  // the sound speed alone
  EXPECT_GT(got.max_signal_rate * grid_->geometry<2>().dx, 300.0);
}

TEST_F(FlowStatisticsTest, ANonFiniteValueShowsAsNaN) {
  make(CaseName::thermal, 97, 61);
  view()(var::wmom, 30, 50) = std::numeric_limits<double>::quiet_NaN();
  const StatisticsSums got = reduced();
  EXPECT_TRUE(std::isnan(got.max_abs_w));
  EXPECT_TRUE(std::isnan(got.max_signal_rate));
  EXPECT_TRUE(std::isnan(got.energy.value(energy_scale_bits)));
  EXPECT_TRUE(std::isnan(got.kinetic.value(energy_scale_bits)));
  EXPECT_FALSE(std::isnan(got.mass.value(density_scale_bits)));  // ρ′ is finite
  EXPECT_FALSE(std::isnan(got.max_abs_u));
}

TEST(MaxOrNanTest, KeepsTheLargerValueOrNaNWhicheverComesFirst) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(max_or_nan(1.0, 2.0), 2.0);
  EXPECT_EQ(max_or_nan(2.0, 1.0), 2.0);
  EXPECT_TRUE(std::isnan(max_or_nan(nan, 2.0)));
  EXPECT_TRUE(std::isnan(max_or_nan(2.0, nan)));
  EXPECT_EQ(min_or_nan(1.0, 2.0), 1.0);
  EXPECT_EQ(min_or_nan(2.0, 1.0), 1.0);
  EXPECT_TRUE(std::isnan(min_or_nan(nan, 2.0)));
  EXPECT_TRUE(std::isnan(min_or_nan(2.0, nan)));
}

}  // namespace
}  // namespace simapp
