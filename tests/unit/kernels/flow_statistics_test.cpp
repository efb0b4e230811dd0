/// The statistics of the state (reduce_statistics<Dims>), in 2-D and in 3-D, against the same
/// quantities worked out here cell by cell from the prognostic variables in plain double loops:
/// the extremes equal them bit for bit (they are values of single cells, computed as the
/// snapshots compute their fields), the sums agree to rounding; on grids that fill the
/// reduction's groups and lanes unevenly; a state at rest gives exact zeros; a non-finite value
/// shows as NaN. And the 3-D statistics against the 2-D ones: a state uniform in y sums to ny
/// times the 2-D sums exactly (the sums are exact fixed-point, and v = 0 adds nothing to
/// u² + w²) with the same extremes, and ρv counts in the energies as ρu does.
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
#include "tests/support/dimensions.hpp"

namespace simapp {
namespace {

/// The quantities of the statistics, worked out cell by cell.
struct Expected {
  double mass = 0.0, energy = 0.0, kinetic = 0.0;
  double max_abs_u = 0.0, max_abs_v = 0.0, max_abs_w = 0.0;
  double min_theta_prime = std::numeric_limits<double>::infinity();
  double max_theta_prime = -std::numeric_limits<double>::infinity();
  double max_signal_rate = 0.0;
};

/// The statistics of `cells` cells, both passes on the host and their records added.
template <int Dims>
StatisticsSums reduce_on_host(FieldView<const double, Dims> state, const HydrostaticView& background,
                              const CellGeometry<Dims>& geometry) {
  const std::int64_t cells = std::int64_t{state.shape.nx} * state.shape.ny * state.shape.nz;
  std::vector<StatisticsSums> partials(statistics_partial_count(cells)), records(statistics_record_count(cells));
  reduce_statistics<double, Dims>(Stream{}, state, background, geometry, partials.data(), records.data());
  StatisticsSums total;
  for (const StatisticsSums& record : records) total.add(record);
  return total;
}

/// A case's initial state on nx × (ny ×) nz cells, in the model of `Dims` dimensions: the 2-D
/// case's state, the same in every row of y (v = 0).
template <int Dims>
class CaseState {
 public:
  static constexpr int ny = Dims == 3 ? 3 : 1;  ///< rows of y in 3-D

  CaseState(CaseName name, int nx, int nz)
      : grid_(grid_spec(nx, nz)), background_(Stream{}, case_background(name), grid_.geometry<2>(), nz) {
    const FieldShape<2> shape_2d = grid_.cell_shape<2>();
    std::vector<double> two_d(shape_2d.size(), 0.0);
    const FieldView<double, 2> q2{two_d.data(), shape_2d};
    set_initial_state(Stream{}, q2, name, case_bump(name, grid_.spec().xlen), grid_.geometry<2>());
    state_.assign(grid_.cell_shape<Dims>().size(), 0.0);
    const FieldView<double, Dims> q = view();
    for (int k = 0; k < nz; ++k)
      for (int j = 0; j < ny; ++j)
        for (int i = 0; i < nx; ++i) {
          q(V::dens, k, j, i) = q2(var::dens, k, i);
          q(V::umom, k, j, i) = q2(var::umom, k, i);
          q(V::wmom, k, j, i) = q2(var::wmom, k, i);
          q(V::rhot, k, j, i) = q2(var::rhot, k, i);
        }
  }

  using V = ModelVariables<Dims>;
  FieldView<double, Dims> view() { return {state_.data(), grid_.cell_shape<Dims>()}; }
  const Grid& grid() const { return grid_; }
  HydrostaticView background() const { return background_.view(); }
  /// Cells as deep in y as they are wide, so that v = 0 is no faster across a cell than u is.
  CellGeometry<Dims> geometry() const { return grid_.geometry<Dims>(); }
  StatisticsSums reduced() { return reduce_on_host<Dims>(view(), background(), geometry()); }

 private:
  static GridSpec grid_spec(int nx, int nz) {
    GridSpec spec;
    spec.nx = nx;
    spec.nz = nz;
    spec.ny = ny;
    spec.ylen = spec.xlen / nx * ny;
    return spec;
  }

  Grid grid_;
  HydrostaticProfile background_;
  std::vector<double> state_;
};

template <class Dims>
class FlowStatisticsTest : public ::testing::Test {
 protected:
  static constexpr int dims = Dims::value;
  using V = ModelVariables<dims>;

  /// The case on nx × (ny ×) nz cells, with winds that vary from cell to cell (v too in 3-D).
  void make(CaseName name, int nx, int nz) { state_.emplace(name, nx, nz); }
  FieldView<double, dims> view() { return state_->view(); }
  void add_winds() {
    const FieldView<double, dims> q = view();
    for (int k = 0; k < q.shape.nz; ++k)
      for (int j = 0; j < q.shape.ny; ++j)
        for (int i = 0; i < q.shape.nx; ++i) {
          q(V::umom, k, j, i) += 3.0 * std::sin(0.37 * i + 0.11 * k);
          q(V::wmom, k, j, i) -= 2.0 * std::cos(0.23 * i - 0.29 * k);
          if constexpr (dims == 3) q(V::vmom, k, j, i) += 2.5 * std::sin(0.19 * i + 0.7 * j - 0.13 * k);
        }
  }

  StatisticsSums reduced() { return state_->reduced(); }

  Expected expected() {
    const FieldView<double, dims> q = view();
    const HydrostaticView background = state_->background();
    const CellGeometry<dims> geometry = state_->geometry();
    Expected e;
    long double mass = 0.0L, energy = 0.0L, kinetic = 0.0L;  // sums of up to 25200 cells to well below 1e-13
    for (int k = 0; k < q.shape.nz; ++k)
      for (int j = 0; j < q.shape.ny; ++j)
        for (int i = 0; i < q.shape.nx; ++i) {
          const double rho_bar = background.cell_density(k), rho_theta_bar = background.cell_rho_theta(k);
          const double rho = rho_bar + q(V::dens, k, j, i);
          const double u = q(V::umom, k, j, i) / rho, w = q(V::wmom, k, j, i) / rho;
          double v = 0.0;
          if constexpr (dims == 3) v = q(V::vmom, k, j, i) / rho;
          // θ′ as the snapshots' theta_prime: (ρ̄θ̄ + (ρθ)′)/ρ − ρ̄θ̄/ρ̄.
          const double theta_prime = (rho_theta_bar + q(V::rhot, k, j, i)) / rho - rho_theta_bar / rho_bar;
          const double p = physics::c0 * std::pow(rho_theta_bar + q(V::rhot, k, j, i), physics::gamma);
          const double temperature = p / (rho * physics::rd);  // the ideal gas
          const double sound = std::sqrt(physics::gamma * p / rho);
          const double speed_squared = u * u + v * v + w * w;
          mass += rho;
          kinetic += 0.5 * rho * speed_squared;
          energy += rho * speed_squared + rho * physics::cv * temperature;
          e.max_abs_u = std::max(e.max_abs_u, std::fabs(u));
          e.max_abs_v = std::max(e.max_abs_v, std::fabs(v));
          e.max_abs_w = std::max(e.max_abs_w, std::fabs(w));
          e.min_theta_prime = std::min(e.min_theta_prime, theta_prime);
          e.max_theta_prime = std::max(e.max_theta_prime, theta_prime);
          e.max_signal_rate =
              std::max({e.max_signal_rate, (std::fabs(u) + sound) / geometry.dx, (std::fabs(w) + sound) / geometry.dz});
          if constexpr (dims == 3)
            e.max_signal_rate = std::max(e.max_signal_rate, (std::fabs(v) + sound) / geometry.dy);
        }
    e.mass = static_cast<double>(mass);
    e.energy = static_cast<double>(energy);
    e.kinetic = static_cast<double>(kinetic);
    return e;
  }
  double dx() const { return state_->geometry().dx; }

  std::optional<CaseState<dims>> state_;
};
TYPED_TEST_SUITE(FlowStatisticsTest, testing::Dimensions, testing::DimensionName);

TYPED_TEST(FlowStatisticsTest, AgreeWithTheCellsOnGridsThatFillGroupsAndLanesUnevenly) {
  // 2-D: 5917 cells: a whole group of 4096 and a part of one; 40 cells: part of one lane's
  // stride; 12 × 700 = 8400 cells: more than two groups, rows longer than a lane's stride.
  // 3-D: three times as many, in rows of the same lengths.
  for (const auto& [nx, nz] : {std::pair{97, 61}, std::pair{8, 5}, std::pair{700, 12}}) {
    SCOPED_TRACE(::testing::Message() << nx << " x " << nz);
    this->make(CaseName::thermal, nx, nz);
    this->add_winds();
    const StatisticsSums got = this->reduced();
    const Expected e = this->expected();
    EXPECT_EQ(got.max_abs_u, e.max_abs_u);
    EXPECT_EQ(got.max_abs_w, e.max_abs_w);
    EXPECT_EQ(got.max_abs_v, e.max_abs_v);
    if constexpr (TestFixture::dims == 2)
      EXPECT_EQ(got.max_abs_v, 0.0);
    else
      EXPECT_GT(got.max_abs_v, 0.0);
    EXPECT_EQ(got.min_theta_prime, e.min_theta_prime);
    EXPECT_EQ(got.max_theta_prime, e.max_theta_prime);
    EXPECT_GT(got.max_theta_prime, 0.1);  // the bubble
    EXPECT_NEAR(got.max_signal_rate, e.max_signal_rate, 1e-12 * e.max_signal_rate);
    EXPECT_NEAR(got.mass.value(density_scale_bits), e.mass, 1e-13 * e.mass);
    EXPECT_NEAR(got.kinetic.value(energy_scale_bits), e.kinetic, 1e-12 * e.kinetic);
    EXPECT_NEAR(got.energy.value(energy_scale_bits), e.energy, 1e-12 * e.energy);
  }
}

TYPED_TEST(FlowStatisticsTest, AStateAtRestGivesExactZeros) {
  this->make(CaseName::rest, 37, 19);
  const StatisticsSums got = this->reduced();
  EXPECT_EQ(got.kinetic.value(energy_scale_bits), 0.0);
  EXPECT_EQ(got.max_abs_u, 0.0);
  EXPECT_EQ(got.max_abs_v, 0.0);
  EXPECT_EQ(got.max_abs_w, 0.0);
  EXPECT_EQ(got.min_theta_prime, 0.0);
  EXPECT_EQ(got.max_theta_prime, 0.0);
  const Expected e = this->expected();
  EXPECT_NEAR(got.max_signal_rate, e.max_signal_rate, 1e-12 * e.max_signal_rate);  // the sound speed alone
  EXPECT_GT(got.max_signal_rate * this->dx(), 300.0);
}

TYPED_TEST(FlowStatisticsTest, ANonFiniteValueShowsAsNaN) {
  using Vars = typename TestFixture::V;
  this->make(CaseName::thermal, 97, 61);
  this->view()(Vars::wmom, 30, 0, 50) = std::numeric_limits<double>::quiet_NaN();
  const StatisticsSums got = this->reduced();
  EXPECT_TRUE(std::isnan(got.max_abs_w));
  EXPECT_TRUE(std::isnan(got.max_signal_rate));
  EXPECT_TRUE(std::isnan(got.energy.value(energy_scale_bits)));
  EXPECT_TRUE(std::isnan(got.kinetic.value(energy_scale_bits)));
  EXPECT_FALSE(std::isnan(got.mass.value(density_scale_bits)));  // ρ′ is finite
  EXPECT_FALSE(std::isnan(got.max_abs_u));
  EXPECT_FALSE(std::isnan(got.max_abs_v));
}

/// The 2-D statistics of the thermal case with winds, and the 3-D statistics of the same state
/// in every row of y.
class FlowStatistics3dTest : public ::testing::Test {
 protected:
  static constexpr int nx = 24, nz = 12, ny = CaseState<3>::ny;
  using V3 = ModelVariables<3>;
  FlowStatistics3dTest() {
    const FieldView<double, 2> q2 = two_d.view();
    const FieldView<double, 3> q3 = three_d.view();
    for (int k = 0; k < nz; ++k)
      for (int i = 0; i < nx; ++i) {
        q2(var::umom, k, i) += 0.3 * std::sin(0.4 * i + k);
        q2(var::wmom, k, i) += 0.2 * std::cos(0.3 * i - k);
        for (int j = 0; j < ny; ++j) {
          q3(V3::umom, k, j, i) = q2(var::umom, k, i);
          q3(V3::wmom, k, j, i) = q2(var::wmom, k, i);
        }
      }
  }
  /// The 2-D statistics, their sums taken ny times (ny rows of x).
  StatisticsSums two_d_sums() {
    StatisticsSums sums = two_d.reduced();
    const StatisticsSums row = sums;
    for (int j = 1; j < ny; ++j) {
      sums.mass.add(row.mass);
      sums.energy.add(row.energy);
      sums.kinetic.add(row.kinetic);
    }
    return sums;
  }

  CaseState<2> two_d{CaseName::thermal, nx, nz};
  CaseState<3> three_d{CaseName::thermal, nx, nz};
};

TEST_F(FlowStatistics3dTest, AStateUniformInYSumsToNyTimesTheTwoDSumsExactly) {
  const StatisticsSums expected = two_d_sums(), got = three_d.reduced();
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
  const FieldView<double, 3> q3 = three_d.view();
  const StatisticsSums expected = two_d_sums();
  for (int k = 0; k < nz; ++k)  // ρu moved into ρv
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) std::swap(q3(V3::umom, k, j, i), q3(V3::vmom, k, j, i));
  const StatisticsSums got = three_d.reduced();
  EXPECT_EQ(got.mass.value(density_scale_bits), expected.mass.value(density_scale_bits));
  const double energy = expected.energy.value(energy_scale_bits), kinetic = expected.kinetic.value(energy_scale_bits);
  EXPECT_NEAR(got.energy.value(energy_scale_bits), energy, 1e-12 * energy);
  EXPECT_NEAR(got.kinetic.value(energy_scale_bits), kinetic, 1e-12 * kinetic);
  EXPECT_EQ(got.max_abs_v, expected.max_abs_u);
  EXPECT_EQ(got.max_abs_u, 0.0);
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
