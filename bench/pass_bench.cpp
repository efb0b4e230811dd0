/// simapp-bench-pass: the split passes' kernels alone (apply_pass, kernels/stage/pass_kernel.hpp:
/// a pass's three RK3 stages in one kernel, execution.granularity: pass) on one GPU: the 3-D
/// model's x, y and z passes in float64 and float32, each launched by itself on a state at rest
/// with small perturbations over a uniform background, so that the kernels take a run's paths (the
/// pressure series near the background, no diffusion). Prints µs a call, the bytes of qⁿ read and
/// qⁿ⁺¹ written against that time, and a hash of the output's bits (FNV-1a of every interior
/// value), so that two builds compare for their speed and for their bits (docs/performance.md,
/// "Instructions a cell"); writes JSON.
///   simapp-bench-pass [--size NXxNYxNZ ...] [--repeats N] [--json FILE]
#define SIMAPP_CUDA_RUNTIME 1  // the CUDA runtime API from a host source (kernels/backend/cuda_check.hpp)
#include <cuda_runtime.h>

#include <CLI/CLI.hpp>
#include <cstdint>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bench/event_timing.hpp"
#include "bench/json_file.hpp"
#include "foundation/fnv1a.hpp"
#include "kernels/backend/device_buffer.hpp"
#include "kernels/backend/device_runtime.hpp"
#include "kernels/stage/pass_kernel.hpp"

namespace simapp {
namespace {

using V3 = ModelVariables<3>;

struct Size {
  int nx, ny, nz;
};

/// "NXxNYxNZ" as a size; false where it is not three positive integers.
bool parse_size(const std::string& text, Size& size) {
  char tail = 0;
  return std::sscanf(text.c_str(), "%dx%dx%d%c", &size.nx, &size.ny, &size.nz, &tail) == 3 && size.nx > 0 &&
         size.ny > 0 && size.nz > 0;
}

template <class T>
DeviceBuffer<T> on_device(const Stream& stream, const std::vector<T>& values) {
  DeviceBuffer<T> buffer(Backend::cuda, values.size());
  device::copy_async(stream, buffer.data(), values.data(), values.size() * sizeof(T),
                     device::CopyDirection::host_to_device);
  return buffer;
}

/// The background's arrays of `nz` levels, uniform: ρ̄ 1.1 kg m⁻³, ρ̄θ̄ 330 kg K m⁻³ and its
/// reciprocal, p̄ 10⁵ Pa, at the rows (with ghost rows) and at the interfaces.
struct UniformBackground {
  DeviceBuffer<double> rows, interfaces;
  HydrostaticView view;

  UniformBackground(const Stream& stream, int nz) {
    const std::size_t n_rows = nz + 2 * numerics::halo_width, n_interfaces = nz + 1;
    std::vector<double> row_values, interface_values;
    for (const double value : {1.1, 330.0, 1.0 / 330.0, 1e5}) {
      row_values.insert(row_values.end(), n_rows, value);
      interface_values.insert(interface_values.end(), n_interfaces, value);
    }
    rows = on_device(stream, row_values);
    interfaces = on_device(stream, interface_values);
    view.density_cell = rows.data();
    view.rho_theta_cell = rows.data() + n_rows;
    view.inv_rho_theta_cell = rows.data() + 2 * n_rows;
    view.pressure_cell = rows.data() + 3 * n_rows;
    view.density_face = interfaces.data();
    view.rho_theta_face = interfaces.data() + n_interfaces;
    view.inv_rho_theta_face = interfaces.data() + 2 * n_interfaces;
    view.pressure_face = interfaces.data() + 3 * n_interfaces;
  }
};

/// FNV-1a of the bytes of every interior value of `values` (laid out as `shape`), in order.
template <class Real>
std::uint64_t interior_bits(const std::vector<Real>& values, const FieldShape<3>& shape) {
  std::vector<Real> interior;
  interior.reserve(static_cast<std::size_t>(shape.num_vars) * shape.nz * shape.ny * shape.nx);
  for (int v = 0; v < shape.num_vars; ++v)
    for (int k = 0; k < shape.nz; ++k)
      for (int j = 0; j < shape.ny; ++j)
        for (int i = 0; i < shape.nx; ++i) interior.push_back(values[shape.offset(v, k, j, i)]);
  return fnv1a({reinterpret_cast<const char*>(interior.data()), interior.size() * sizeof(Real)});
}

struct PassResult {
  double microseconds;
  std::uint64_t bits;
};

/// The pass along `direction` from a perturbed state of `size` in Real: µs a call (the best of
/// `repeats`) and the bits of its output.
template <class Real>
PassResult time_pass(const Stream& stream, const Size& size, Direction direction, int repeats) {
  const FieldShape<3> shape{size.nx, size.ny, size.nz, numerics::halo_width, V3::count};
  std::vector<Real> state(shape.size());
  for (std::size_t n = 0; n < state.size(); ++n)  // perturbations of up to 10⁻³ (of ρ′, the momenta, (ρθ)′)
    state[n] = static_cast<Real>(1e-3 * static_cast<double>((n * 2654435761u) % 1000) / 1000.0);
  const DeviceBuffer<Real> input = on_device(stream, state);
  DeviceBuffer<Real> output(Backend::cuda, state.size());
  const UniformBackground background(stream, size.nz);
  CellGeometry<3> geometry;
  geometry.dx = geometry.dy = geometry.dz = 100.0;
  geometry.global_nx = size.nx;
  geometry.global_ny = size.ny;
  geometry.global_nz = size.nz;
  geometry.xlen = 100.0 * size.nx;
  geometry.ylen = 100.0 * size.ny;
  geometry.zlen = 100.0 * size.nz;
  const DeviceBuffer<StepParams<3>> params = on_device(stream, std::vector{step_params(0.5, 100.0, 100.0, 100.0, {})});
  device::synchronize(stream);
  const FieldView<const Real, 3> in{input.data(), shape};
  const FieldView<Real, 3> out{output.data(), shape};
  const float best_ms = best_milliseconds(stream, repeats, [&] {
    apply_pass<Real, 3>(stream, direction, in, out, geometry, background.view, params.data(), SourceTerms<3>{},
                        TracerBackground{});
  });
  return {best_ms * 1e3, interior_bits(output.copy_to_host(stream), shape)};
}

}  // namespace
}  // namespace simapp

int main(int argc, char** argv) {
  using namespace simapp;
  CLI::App cli{"simapp-bench-pass: the 3-D split passes' kernels alone on one GPU, float64 and float32"};
  std::vector<std::string> size_texts{"48x24x10", "128x128x64", "256x256x128"};
  int repeats = 10;
  std::string json_path;
  cli.add_option("--size", size_texts, "grids as NXxNYxNZ (default: 48x24x10 128x128x64 256x256x128)");
  cli.add_option("--repeats", repeats, "timed calls of each kernel (the best is kept)")->check(CLI::PositiveNumber);
  cli.add_option("--json", json_path, "also write the results to this JSON file");
  CLI11_PARSE(cli, argc, argv);
  std::vector<Size> sizes;
  for (const std::string& text : size_texts) {
    Size size{};
    if (!parse_size(text, size)) {
      std::fprintf(stderr, "simapp-bench-pass: error: --size %s: expected NXxNYxNZ, three positive integers\n",
                   text.c_str());
      return 2;
    }
    sizes.push_back(size);
  }
  if (device::device_count() == 0) {
    std::fprintf(stderr, "simapp-bench-pass: error: no CUDA device visible\n");
    return 1;
  }
  const Stream stream = device::create_stream(Backend::cuda);
  std::printf("%-14s %4s %9s %12s %8s  %s\n", "grid", "pass", "precision", "µs a call", "GB/s", "bits of qⁿ⁺¹");
  nlohmann::json results = nlohmann::json::array();
  for (const Size& size : sizes) {
    const std::string grid = std::to_string(size.nx) + "x" + std::to_string(size.ny) + "x" + std::to_string(size.nz);
    const double cells = static_cast<double>(size.nx) * size.ny * size.nz;
    for (const Direction direction : {Direction::x, Direction::y, Direction::z}) {
      const char* pass = direction == Direction::x ? "x" : direction == Direction::y ? "y" : "z";
      for (const bool single : {false, true}) {
        const PassResult result = single ? time_pass<float>(stream, size, direction, repeats)
                                         : time_pass<double>(stream, size, direction, repeats);
        const double bytes = 2.0 * cells * V3::count * (single ? sizeof(float) : sizeof(double));
        const double gigabytes_a_second = bytes / (result.microseconds * 1e3);
        char bits[17];
        std::snprintf(bits, sizeof bits, "%016llx", static_cast<unsigned long long>(result.bits));
        const char* precision = single ? "float32" : "float64";
        std::printf("%-14s %4s %9s %12.2f %8.1f  %s\n", grid.c_str(), pass, precision, result.microseconds,
                    gigabytes_a_second, bits);
        results.push_back({{"grid", grid},
                           {"pass", pass},
                           {"precision", precision},
                           {"us_per_call", result.microseconds},
                           {"gb_per_s", gigabytes_a_second},
                           {"bits", bits}});
      }
    }
  }
  device::destroy_stream(stream);
  if (!json_path.empty() &&
      !write_json_file(json_path, {{"benchmark", "pass"}, {"results", results}}, "simapp-bench-pass"))
    return 1;
  return 0;
}
