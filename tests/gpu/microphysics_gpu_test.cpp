/// The microphysics element on the CUDA backend against the host's (label gpu; skipped without a
/// CUDA device): hand-made columns with cloud, rain heavy enough for several sub-steps in the call
/// (through the scratch field), and water tracers with holes (a column scaled, one emptied), in
/// both models. Both run kessler.hpp's arithmetic level by level in the same order (the host a
/// thread a column, CUDA a block's levels at once where the columns are few), so only the math
/// libraries' last bits (pow, exp) differ: every value agrees with the host's to 1e-12 of its
/// variable's largest magnitude. On CUDA, the two ways give the same bits.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "kernels/backend/device_buffer.hpp"
#include "kernels/backend/device_runtime.hpp"
#include "kernels/microphysics/microphysics.hpp"
#include "kernels/physics/equation_of_state.hpp"
#include "kernels/physics/kessler.hpp"
#include "kernels/physics/variables.hpp"
#include "tests/support/recorded_value.hpp"

namespace simapp {
namespace {

/// A model's columns: nx × ny columns of nz levels dz apart, the first along x the model's
/// column `first_x` (a part of a wider box).
struct Columns {
  int nx, ny, nz;
  double dz;
  int first_x = 0;
};

/// The state (totals: the backgrounds are 0) of column c at level k: ρ_d = 1.2 e^(−z/8500),
/// T = 300 − 0.0065 z; relative humidity 0.85 in the lowest quarter, 1.02 in a cloud to
/// 60 % of the height (q_c 0.4–1.8 g/kg), 0.6 above; rain (1 + c mod 3)(1 + ½ sin k) g/kg below
/// 2/3 of the height and at the top; a wind ρ(5, −3, 0.5) m/s. Column 1's cloud dips below 0 at
/// its base (content > 0: scaled), column 2's rain is negative (content < 0: emptied), column 3's
/// vapour is negative at one level (scaled). (c counts the box's columns from its first_x.)
template <int Dims>
std::vector<double> hand_made_state(const Columns& g, const FieldShape<Dims>& shape) {
  using V = ModelVariables<Dims>;
  const int water = V::count;
  std::vector<double> state(shape.size(), 0.0);
  for (int j = 0; j < g.ny; ++j)
    for (int i = 0; i < g.nx; ++i) {
      const int c = j * g.nx + g.first_x + i;
      for (int k = 0; k < g.nz; ++k) {
        const double z = (k + 0.5) * g.dz, height = g.nz * g.dz;
        const double rho_d = 1.2 * std::exp(-z / 8500.0);
        const double temperature = std::max(300.0 - 0.0065 * z, 220.0);
        const bool cloud = z >= 0.25 * height && z < 0.6 * height;
        const double humidity = z < 0.25 * height ? 0.85 : cloud ? 1.02 : 0.6;
        double qv = 0.0;
        for (int n = 0; n < 4; ++n) {  // q_v = humidity · q_vs(p(q_v))
          const double p = (rho_d * physics::rd + qv * rho_d * physics::rv) * temperature;
          const double exner = std::pow(p / physics::p0, physics::rd / physics::cp);
          qv = humidity * kessler::saturation_mixing_ratio(kessler::saturation_factor(exner), temperature);
        }
        double qc = cloud ? 0.4e-3 + 1.4e-3 * (z - 0.25 * height) / (0.35 * height) : 0.0;
        double qr = z < 2.0 / 3.0 * height || k == g.nz - 1 ? (1 + c % 3) * 1e-3 * (1.0 + 0.5 * std::sin(k)) : 0.0;
        if (c == 1 && z < 0.25 * height && z >= 0.2 * height) qc = -1e-5;
        if (c == 2) qr = -1e-5 * (1.0 + 0.5 * std::sin(k));
        if (c == 3 && k == g.nz / 2) qv = -1e-6;
        const double p = (rho_d * physics::rd + qv * rho_d * physics::rv) * temperature;
        const double rho = rho_d * (1.0 + qv + qc + qr);
        const auto at = [&](int v) -> double& { return state[shape.offset(v, k, j, i)]; };
        at(V::dens) = rho;
        at(V::rhot) = physics::rho_theta_from_pressure(p);
        at(V::umom) = 5.0 * rho;
        if constexpr (Dims == 3) at(V::vmom) = -3.0 * rho;
        at(V::wmom) = 0.5 * rho;
        at(water) = rho_d * qv;
        at(water + 1) = rho_d * qc;
        at(water + 2) = rho_d * qr;
      }
    }
  return state;
}

template <class T>
DeviceBuffer<T> buffer_of(const Stream& stream, const std::vector<T>& values) {
  DeviceBuffer<T> buffer(stream.backend, values.size());
  device::copy_async(stream, buffer.data(), values.data(), values.size() * sizeof(T),
                     device::CopyDirection::host_to_device);
  device::synchronize(stream);
  return buffer;
}

/// The state and the surface water after one call of the element over dt on `backend`.
struct Outcome {
  std::vector<double> state, surface;
};

template <int Dims>
Outcome microphysics_on(Backend backend, const Columns& g, double dt) {
  const Stream stream = backend == Backend::cuda ? device::create_stream(backend) : Stream{};
  FieldShape<Dims> shape{g.nx, Dims == 3 ? g.ny : 1, g.nz, numerics::halo_width, ModelVariables<Dims>::count + 3};
  const FieldShape<Dims> scratch_shape{shape.nx, shape.ny, g.nz, 0, static_cast<int>(MicrophysicsScratch::count)};
  const std::size_t columns = static_cast<std::size_t>(shape.nx) * shape.ny;
  const DeviceBuffer<double> state = buffer_of(stream, hand_made_state(g, shape));
  const DeviceBuffer<double> zeros = buffer_of(stream, std::vector<double>(g.nz + 2 * numerics::halo_width, 0.0));
  const DeviceBuffer<double> scratch(backend, scratch_shape.size());
  const DeviceBuffer<double> surface = buffer_of(stream, std::vector<double>(3 * columns, 0.0));
  StepParams<Dims> values;
  values.dt_physics = dt;
  const DeviceBuffer<StepParams<Dims>> params = buffer_of(stream, std::vector<StepParams<Dims>>{values});
  MicrophysicsArguments<Dims> m;
  m.state = {state.data(), shape};
  m.background.density_cell = zeros.data();
  m.background.rho_theta_cell = zeros.data();
  m.water_background.cell = zeros.data();
  m.geometry.dz = g.dz;
  m.scratch = {scratch.data(), scratch_shape};
  m.surface = {surface.data(), surface.data() + columns, surface.data() + 2 * columns};
  m.first_water = ModelVariables<Dims>::count;
  m.every = 1;
  apply_microphysics(stream, m, params.data());
  device::synchronize(stream);
  Outcome outcome{state.copy_to_host(stream), surface.copy_to_host(stream)};
  if (backend == Backend::cuda) device::destroy_stream(stream);
  return outcome;
}

/// max |a − b| over a variable's values against its largest |b|: expects ≤ 1e-12 and records it.
void expect_agreement(const std::vector<double>& a, const std::vector<double>& b, std::size_t first, std::size_t count,
                      const std::string& name) {
  double largest = 0.0, difference = 0.0;
  for (std::size_t n = first; n < first + count; ++n) {
    largest = std::max(largest, std::abs(b[n]));
    difference = std::max(difference, std::abs(a[n] - b[n]));
  }
  ::testing::Test::RecordProperty(name, testing::scientific(difference / std::max(largest, 1e-300)));
  EXPECT_LE(difference, 1e-12 * largest) << name;
}

template <int Dims>
void expect_cuda_matches_host(const Columns& g, double dt, const std::string& label) {
  const Outcome host = microphysics_on<Dims>(Backend::host, g, dt);
  const Outcome cuda = microphysics_on<Dims>(Backend::cuda, g, dt);
  const FieldShape<Dims> shape{g.nx, Dims == 3 ? g.ny : 1, g.nz, numerics::halo_width, ModelVariables<Dims>::count + 3};
  for (int v = 0; v < shape.num_vars; ++v)
    expect_agreement(cuda.state, host.state, v * shape.var_stride(), shape.var_stride(),
                     label + "_variable_" + std::to_string(v));
  const std::size_t columns = host.surface.size() / 3;
  const char* fields[] = {"precipitation", "rain_rate", "clipped"};
  for (int f = 0; f < 3; ++f)
    expect_agreement(cuda.surface, host.surface, f * columns, columns, label + "_" + fields[f]);
  // Rain reaches the ground but in column 2, whose rain was emptied (clipped).
  for (std::size_t c = 0; c < columns; ++c) {
    if (c != 2) {
      EXPECT_GT(host.surface[c], 0.0) << "precipitation of column " << c;
    }
  }
  EXPECT_GT(host.surface[2 * columns + 2], 0.0);
}

class MicrophysicsGpuTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (device::device_count() == 0) GTEST_SKIP() << "no CUDA device visible";
  }
};

TEST_F(MicrophysicsGpuTest, ColumnsMatchTheHostWithSubStepsAndHoleFilling) {
  // 24 levels 400 m apart, rain up to 4.5 g/kg: over 600 s several sub-steps; 60 s, fewer.
  for (const double dt : {60.0, 600.0}) {
    const std::string label = "dt_" + std::to_string(static_cast<int>(dt));
    expect_cuda_matches_host<2>({5, 1, 24, 400.0}, dt, "2d_" + label);
    expect_cuda_matches_host<3>({4, 3, 24, 400.0}, dt, "3d_" + label);
  }
  // More columns than a block's threads, in a box wider than one along x, and tall columns.
  expect_cuda_matches_host<3>({37, 9, 40, 500.0}, 120.0, "3d_37x9x40");
  expect_cuda_matches_host<3>({2, 2, 700, 20.0}, 120.0, "3d_nz_700");
}

TEST_F(MicrophysicsGpuTest, ColumnsSplitIntoPartsGiveTheBitsOfTheWhole) {
  // The kernel takes a thread a column where the columns are many, a block's levels at once where
  // they are few (microphysics_block_warps), as a rank of a decomposed run may have: the same bits.
  const int multiprocessors = device::multiprocessor_count();
  const int whole = 32 * 16 * multiprocessors, parts = 8, nz = 12;
  ASSERT_EQ(microphysics_block_warps(whole, nz, multiprocessors), 0);
  ASSERT_GT(microphysics_block_warps(whole / parts, nz, multiprocessors), 0);
  const FieldShape<2> all_shape{whole, 1, nz, numerics::halo_width, ModelVariables<2>::count + 3};
  const FieldShape<2> part_shape{whole / parts, 1, nz, numerics::halo_width, ModelVariables<2>::count + 3};
  for (const double dt : {1.0, 600.0}) {
    const Outcome all = microphysics_on<2>(Backend::cuda, {whole, 1, nz, 400.0}, dt);
    for (int part = 0; part < parts; ++part) {
      const int first = part * (whole / parts);
      const Outcome piece = microphysics_on<2>(Backend::cuda, {whole / parts, 1, nz, 400.0, first}, dt);
      int differing = 0;
      for (int v = 0; v < all_shape.num_vars; ++v)
        for (int k = 0; k < nz; ++k)
          for (int i = 0; i < whole / parts; ++i)
            differing += all.state[all_shape.offset(v, k, 0, first + i)] != piece.state[part_shape.offset(v, k, 0, i)];
      for (int f = 0; f < 3; ++f)
        for (int i = 0; i < whole / parts; ++i)
          differing += all.surface[f * whole + first + i] != piece.surface[f * (whole / parts) + i];
      EXPECT_EQ(differing, 0) << "part " << part << ", dt " << dt << " s";
    }
  }
}

}  // namespace
}  // namespace simapp
