/// The 3-D model's mass and energy row sums (sum_mass_energy_rows_3d) against the 2-D model's:
/// a state uniform in y sums, layer by layer, to ny times the 2-D row sums exactly (the sums are
/// exact fixed-point, and v = 0 adds nothing to u² + w²), and ρv counts in the energy as ρu does.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "kernels/diagnostics/mass_energy.hpp"
#include "kernels/initial_conditions/case_profile.hpp"
#include "kernels/initial_conditions/initial_state.hpp"
#include "solver/grid/grid.hpp"
#include "solver/state/hydrostatic_profile.hpp"

namespace simapp {
namespace {

using V3 = ModelVariables<3>;

struct RowSums {
  std::vector<double> mass, energy;
};

RowSums values_of(const std::vector<ExactSum>& sums) {
  const std::size_t nz = sums.size() / 2;
  RowSums values;
  for (std::size_t k = 0; k < nz; ++k) {
    values.mass.push_back(sums[k].value(density_scale_bits));
    values.energy.push_back(sums[nz + k].value(energy_scale_bits));
  }
  return values;
}

class MassEnergy3dTest : public ::testing::Test {
 protected:
  static constexpr int nx = 24, ny = 5, nz = 12;
  MassEnergy3dTest()
      : grid(grid_spec()),
        background(Stream{}, case_background(CaseName::thermal), grid.geometry(), nz),
        two_d(grid.cell_shape().size()),
        shape{nx, ny, nz, numerics::halo_width, V3::count},
        three_d(shape.size()) {
    set_initial_state(Stream{}, {two_d.data(), grid.cell_shape()}, CaseName::thermal,
                      case_bump(CaseName::thermal, grid.spec().xlen), grid.geometry());
    const FieldView<double> q2{two_d.data(), grid.cell_shape()};
    const FieldView3d<double> q3{three_d.data(), shape};
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
  RowSums two_d_sums() {
    std::vector<ExactSum> sums(2 * nz);
    sum_mass_energy_rows(Stream{}, FieldView<const double>{two_d.data(), grid.cell_shape()}, background.view(),
                         sums.data());
    for (ExactSum& sum : sums) {  // ny rows of x
      const ExactSum row = sum;
      for (int j = 1; j < ny; ++j) sum.add(row);
    }
    return values_of(sums);
  }
  RowSums three_d_sums() {
    std::vector<ExactSum> sums(2 * nz);
    sum_mass_energy_rows_3d(Stream{}, FieldView3d<const double>{three_d.data(), shape}, background.view(), sums.data());
    return values_of(sums);
  }

  Grid grid;
  HydrostaticProfile background;
  std::vector<double> two_d;
  FieldShape3d shape;
  std::vector<double> three_d;
};

TEST_F(MassEnergy3dTest, AStateUniformInYSumsToNyTimesTheTwoDRowsExactly) {
  const RowSums expected = two_d_sums(), got = three_d_sums();
  for (int k = 0; k < nz; ++k) {
    EXPECT_EQ(got.mass[k], expected.mass[k]) << "k=" << k;
    EXPECT_EQ(got.energy[k], expected.energy[k]) << "k=" << k;
  }
}

TEST_F(MassEnergy3dTest, MomentumAlongYCountsInTheEnergyAsMomentumAlongX) {
  const FieldView3d<double> q3{three_d.data(), shape};
  const RowSums expected = two_d_sums();
  for (int k = 0; k < nz; ++k)  // ρu moved into ρv
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) std::swap(q3(V3::umom, k, j, i), q3(V3::vmom, k, j, i));
  const RowSums got = three_d_sums();
  for (int k = 0; k < nz; ++k) {
    EXPECT_EQ(got.mass[k], expected.mass[k]) << "k=" << k;
    EXPECT_NEAR(got.energy[k], expected.energy[k], 1e-12 * expected.energy[k]) << "k=" << k;
  }
}

}  // namespace
}  // namespace simapp
