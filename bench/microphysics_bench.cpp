/// simapp-bench-microphysics: the warm-rain microphysics element (apply_microphysics,
/// kernels/microphysics/microphysics.hpp) on one GPU, one call at a time, on hand-made moist
/// columns: in a third of them (patches of 16 × 16 columns) a saturated cloud over the middle
/// third of the height and rain from the ground up to the cloud's top, elsewhere air at 70 %
/// relative humidity; at the sizes of docs/performance.md ("Water") and a physics time step of 1 s
/// (one rain sub-step) and of 60 s (several where the levels are thin). Prints µs a call and
/// columns a µs, and writes JSON.
///   simapp-bench-microphysics [--repeats N] [--json FILE]
#define SIMAPP_CUDA_RUNTIME 1  // the CUDA runtime API from a host source (kernels/backend/cuda_check.hpp)
#include <cuda_runtime.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bench/event_timing.hpp"
#include "bench/json_file.hpp"
#include "kernels/backend/device_buffer.hpp"
#include "kernels/backend/device_runtime.hpp"
#include "kernels/microphysics/microphysics.hpp"
#include "kernels/physics/equation_of_state.hpp"
#include "kernels/physics/kessler.hpp"
#include "kernels/physics/variables.hpp"

namespace simapp {
namespace {

using V3 = ModelVariables<3>;

struct Columns {
  int nx, ny, nz;
  double height;  ///< m
};

/// The moist state of the file's comment as totals (the backgrounds are 0): ρ_d = 1.2 e^(−z/8500),
/// T = max(300 − 0.0065 z, 210) K, q_c 1.5 g/kg in the cloud, q_r 2 g/kg under its top, no wind.
std::vector<double> moist_columns(const Columns& g, const FieldShape<3>& shape) {
  std::vector<double> state(shape.size(), 0.0);
  const double dz = g.height / g.nz;
  for (int k = 0; k < g.nz; ++k) {
    const double z = (k + 0.5) * dz;
    const double rho_d = 1.2 * std::exp(-z / 8500.0);
    const double temperature = std::max(300.0 - 0.0065 * z, 210.0);
    const double pressure_dry = rho_d * physics::rd * temperature;
    const double exner = std::pow(pressure_dry / physics::p0, physics::rd / physics::cp);
    const double saturation = kessler::saturation_mixing_ratio(kessler::saturation_factor(exner), temperature);
    const bool cloud_level = z >= g.height / 3.0 && z < 2.0 * g.height / 3.0;
    for (int j = 0; j < g.ny; ++j)
      for (int i = 0; i < g.nx; ++i) {
        const bool storm = (i / 16 + j / 16) % 3 == 0;
        const double qv = (storm && cloud_level ? 1.0 : 0.7) * saturation;
        const double qc = storm && cloud_level ? 1.5e-3 : 0.0;
        const double qr = storm && z < 2.0 * g.height / 3.0 ? 2e-3 : 0.0;
        const double p = (rho_d * physics::rd + rho_d * qv * physics::rv) * temperature;
        const auto at = [&](int v) -> double& { return state[shape.offset(v, k, j, i)]; };
        at(V3::dens) = rho_d * (1.0 + qv + qc + qr);
        at(V3::rhot) = physics::rho_theta_from_pressure(p);
        at(V3::count) = rho_d * qv;
        at(V3::count + 1) = rho_d * qc;
        at(V3::count + 2) = rho_d * qr;
      }
  }
  return state;
}

/// µs of one call of the element over dt on `g`, the best of `repeats`, each from the same state.
double microseconds_a_call(const Stream& stream, const Columns& g, double dt, int repeats) {
  const FieldShape<3> shape{g.nx, g.ny, g.nz, numerics::halo_width, V3::count + water_tracers};
  const FieldShape<3> scratch_shape{g.nx, g.ny, g.nz, 0, static_cast<int>(MicrophysicsScratch::count)};
  const std::size_t columns = static_cast<std::size_t>(g.nx) * g.ny;
  const std::vector<double> initial = moist_columns(g, shape);
  DeviceBuffer<double> pristine(Backend::cuda, initial.size()), state(Backend::cuda, initial.size());
  device::copy_async(stream, pristine.data(), initial.data(), initial.size() * sizeof(double),
                     device::CopyDirection::host_to_device);
  const std::vector<double> zeros(g.nz + 2 * numerics::halo_width, 0.0);
  DeviceBuffer<double> background(Backend::cuda, zeros.size());
  device::copy_async(stream, background.data(), zeros.data(), zeros.size() * sizeof(double),
                     device::CopyDirection::host_to_device);
  DeviceBuffer<double> scratch(Backend::cuda, scratch_shape.size());
  DeviceBuffer<double> surface(Backend::cuda, surface_water_fields * columns);
  StepParams<3> values;
  values.dt_physics = dt;
  DeviceBuffer<StepParams<3>> params(Backend::cuda, 1);
  device::copy_async(stream, params.data(), &values, sizeof(values), device::CopyDirection::host_to_device);
  device::synchronize(stream);

  MicrophysicsArguments<3> m;
  m.state = {state.data(), shape};
  m.background.density_cell = background.data();
  m.background.rho_theta_cell = background.data();
  m.water_background.cell = background.data();  // stride 0: every water tracer's background is 0
  m.geometry.dz = g.height / g.nz;
  m.scratch = {scratch.data(), scratch_shape};
  m.surface = {surface.data(), surface.data() + columns, surface.data() + 2 * columns};
  m.first_water = V3::count;
  m.every = 1;

  const float best_ms = best_milliseconds(
      stream, repeats, [&] { apply_microphysics(stream, m, params.data()); },
      [&] {
        device::copy_async(stream, state.data(), pristine.data(), initial.size() * sizeof(double),
                           device::CopyDirection::device_to_device);
      });
  return best_ms * 1e3;
}

}  // namespace
}  // namespace simapp

int main(int argc, char** argv) {
  using namespace simapp;
  CLI::App cli{"simapp-bench-microphysics: the microphysics element on one GPU, a call at a time"};
  int repeats = 10;
  std::string json_path;
  cli.add_option("--repeats", repeats, "timed calls at each size and time step (the best is kept)")
      ->check(CLI::PositiveNumber);
  cli.add_option("--json", json_path, "also write the results to this JSON file");
  CLI11_PARSE(cli, argc, argv);
  if (device::device_count() == 0) {
    std::fprintf(stderr, "simapp-bench-microphysics: error: no CUDA device visible\n");
    return 1;
  }
  const Stream stream = device::create_stream(Backend::cuda);
  std::printf("%-14s %8s %9s %12s %14s\n", "grid", "columns", "dt (s)", "µs a call", "columns a µs");
  nlohmann::json results = nlohmann::json::array();
  const Columns sizes[] = {
      {48, 24, 10, 10000.0}, {128, 128, 64, 10000.0}, {168, 168, 40, 20000.0}, {256, 256, 128, 20000.0}};
  for (const Columns& g : sizes) {
    const std::string grid = std::to_string(g.nx) + "x" + std::to_string(g.ny) + "x" + std::to_string(g.nz);
    const long columns = static_cast<long>(g.nx) * g.ny;
    for (const double dt : {1.0, 60.0}) {
      const double us = microseconds_a_call(stream, g, dt, repeats);
      std::printf("%-14s %8ld %9.0f %12.1f %14.1f\n", grid.c_str(), columns, dt, us, static_cast<double>(columns) / us);
      results.push_back({{"grid", grid}, {"columns", columns}, {"dt_s", dt}, {"us_per_call", us}});
    }
  }
  device::destroy_stream(stream);
  if (!json_path.empty() &&
      !write_json_file(json_path, {{"benchmark", "microphysics"}, {"results", results}}, "simapp-bench-microphysics"))
    return 1;
  return 0;
}
