#pragma once
/// Runs of the 3-D model's stage kernels beside the 2-D model's on a state that does not depend
/// on y (or on x), for tests that hold one to the other (tests/regression/stage_kernel_3d_test.cpp
/// on the host, tests/gpu/stage_kernel_3d_gpu_test.cpp on a GPU): whole steps of each model's
/// step scheme, stage by stage, from the case's initial state plus a pattern.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "kernels/backend/device_buffer.hpp"
#include "kernels/cases/case_list.hpp"
#include "kernels/initial_conditions/initial_state.hpp"
#include "kernels/stage/stage_kernel.hpp"
#include "solver/grid/grid.hpp"
#include "solver/state/hydrostatic_profile.hpp"

namespace simapp::testing {

using V3 = ModelVariables<3>;

/// A field in the memory of a backend, with copies in and out.
template <class Shape, class View>
struct Storage {
  Storage(Backend backend, const Shape& shape) : buffer(backend, shape.size()), view{buffer.data(), shape} {}
  DeviceBuffer<double> buffer;
  View view;

  /// The field's values on the host, in a view of the same shape over `values`.
  View on_host(const Stream& stream, std::vector<double>& values) const {
    values = buffer.copy_to_host(stream);
    return {values.data(), view.shape};
  }
  void copy_in(const Stream& stream, const std::vector<double>& values) {
    device::copy_async(stream, buffer.data(), values.data(), values.size() * sizeof(double),
                       device::CopyDirection::host_to_device);
    device::synchronize(stream);
  }
};
using Field2d = Storage<FieldShape<2>, FieldView<double, 2>>;
using Field3d = Storage<FieldShape<3>, FieldView<double, 3>>;

/// The step's three arrays of either model.
template <class Field>
struct StepArrays {
  StepArrays(Backend backend, const decltype(Field::view.shape)& shape)
      : state(backend, shape), stage1(backend, shape), stage2(backend, shape) {}
  Field state, stage1, stage2;
  const Field& operator[](StageArray which) const { return stage_array(which, state, stage1, stage2); }
  Field& operator[](StageArray which) { return const_cast<Field&>(stage_array(which, state, stage1, stage2)); }
};

/// The 2-D variable a 3-D one equals in a run uniform in y (x_role: umom) or in x (x_role: vmom,
/// the 2-D x axis being y); -1 for the momentum along the uniform axis, which stays 0.
inline int two_d_variable(int v3, int x_role) {
  if (v3 == V3::dens) return var::dens;
  if (v3 == V3::wmom) return var::wmom;
  if (v3 == V3::rhot) return var::rhot;
  return v3 == x_role ? var::umom : -1;
}

/// A smooth pattern of a thousandth of each variable's scale along the 2-D model's x and z.
inline double pattern(int v2, int a, int k) {
  const double scale[var::count] = {1e-3, 1e-1, 1e-1, 1e-1};
  return scale[v2] * std::sin(0.7 * a + 1.3 * k + v2);
}

struct CaseSetup {
  CaseName name = CaseName::thermal;
  double viscosity = 0.0;
};

inline std::string label(const CaseSetup& setup) {
  return std::string(to_string(setup.name)) + (setup.viscosity != 0.0 ? " with viscosity" : "");
}

/// Both models on a 2-D grid nx × nz (the 3-D one with ny cells along its uniform axis, y or x)
/// for `steps` steps from the case's initial state plus the pattern, one dt for both.
struct TwoModels {
  TwoModels(const Stream& run_stream, const CaseSetup& case_setup, int nx, int ny, int nz, bool uniform_along_y)
      : setup(case_setup),
        y_uniform(uniform_along_y),
        stream(run_stream),
        grid(grid_spec(nx, nz)),
        background(stream, case_background(setup.name), grid.geometry<2>(), grid.nz()),
        two_d(stream.backend, grid.cell_shape<2>()),
        three_d(stream.backend, y_uniform ? FieldShape<3>{nx, ny, nz, numerics::halo_width, V3::count}
                                          : FieldShape<3>{ny, nx, nz, numerics::halo_width, V3::count}) {
    const double dx = grid.dx(), dz = grid.dz();
    const double spacing_3d = y_uniform ? 1.3 * dx : 0.7 * dx;  // the uniform axis's: any
    const double dt = 1.5 * std::min(dx, dz) / 450.0;
    const Dissipation dissipation{setup.viscosity};
    params_2d = step_params(dt, dx, dz, dissipation);
    params_3d =
        y_uniform ? step_params(dt, dx, spacing_3d, dz, dissipation) : step_params(dt, spacing_3d, dx, dz, dissipation);
    device::copy_async(stream, params_2d_in_memory.data(), &params_2d, sizeof params_2d,
                       device::CopyDirection::host_to_device);
    device::copy_async(stream, params_3d_in_memory.data(), &params_3d, sizeof params_3d,
                       device::CopyDirection::host_to_device);
    device::synchronize(stream);
    CellGeometry<2> xz = grid.geometry<2>();
    geometry_3d = {xz, spacing_3d * ny, spacing_3d * ny, ny, 0};
    if (!y_uniform) {  // the 2-D model's x is the 3-D model's y
      geometry_3d.dx = spacing_3d;
      geometry_3d.xlen = spacing_3d * ny;
      geometry_3d.global_nx = ny;
      geometry_3d.dy = dx;
      geometry_3d.ylen = grid.spec().xlen;
      geometry_3d.global_ny = nx;
    }
    set_initial_state(stream, two_d.state.view, setup.name, case_bump(setup.name, grid.spec().xlen),
                      grid.geometry<2>());
    std::vector<double> values_2d, values_3d(three_d.state.view.shape.size(), 0.0);
    const FieldView<double, 2> q2 = two_d.state.on_host(stream, values_2d);
    for (int v = 0; v < var::count; ++v)
      for (int k = 0; k < nz; ++k)
        for (int a = 0; a < nx; ++a) q2(v, k, a) += pattern(v, a, k);
    two_d.state.copy_in(stream, values_2d);
    const FieldView<double, 3> q3{values_3d.data(), three_d.state.view.shape};
    for (int v = 0; v < V3::count; ++v)
      for (int k = 0; k < nz; ++k)
        for (int j = 0; j < q3.shape.ny; ++j)
          for (int i = 0; i < q3.shape.nx; ++i) {
            const int v2 = two_d_variable(v, x_role());
            q3(v, k, j, i) = v2 < 0 ? 0.0 : q2(v2, k, y_uniform ? i : j);
          }
    three_d.state.copy_in(stream, values_3d);
  }

  static GridSpec grid_spec(int nx, int nz) {
    GridSpec spec;
    spec.nx = nx;
    spec.nz = nz;
    return spec;
  }
  int x_role() const { return y_uniform ? V3::umom : V3::vmom; }

  /// Step `number` (1-based) of both models.
  void step(long number) {
    step_2d(number);
    step_3d(number);
  }

  void step_2d(long number) {
    const StepParity parity = parity_of(number);
    const SourceTerms<2> sources_2d{{gravity_wave_source(setup.name, case_bump(setup.name, grid.spec().xlen))}};
    const BoundaryConditions<2> sides_2d = case_boundaries(setup.name);
    constexpr StepScheme scheme_2d = step_scheme();
    for (int p = 0; p < scheme_2d.passes; ++p)
      for (int s = 0; s < rk_stages; ++s) {
        const RkStage& rk = scheme_2d.stages[s];
        apply_stage(stream, scheme_2d.pass(parity, p),
                    stage_arrays(two_d.state.view, two_d[rk.input].view, two_d[rk.output].view),
                    FluxContext<2>{grid.geometry<2>(), background.view(), params_2d_in_memory.data(), s}, sources_2d,
                    sides_2d, CellBox{0, grid.nx(), 0, 1, 0, grid.nz()});
      }
  }

  void step_3d(long number) {
    const StepParity parity = parity_of(number);
    const SourceTerms<3> sources_3d{
        {uniform_in_y(gravity_wave_source(setup.name, case_bump(setup.name, grid.spec().xlen)))}};
    const BoundaryConditions<3> sides_3d = periodic_in_y(case_boundaries(setup.name));
    const FieldShape<3>& shape = three_d.state.view.shape;
    constexpr StepSchemeOf<3> scheme_3d = step_scheme_3d();
    for (int p = 0; p < scheme_3d.passes; ++p)
      for (int s = 0; s < rk_stages; ++s) {
        const RkStage& rk = scheme_3d.stages[s];
        apply_stage(stream, scheme_3d.pass(parity, p),
                    stage_arrays(three_d.state.view, three_d[rk.input].view, three_d[rk.output].view),
                    FluxContext<3>{geometry_3d, background.view(), params_3d_in_memory.data(), s}, sources_3d, sides_3d,
                    CellBox{0, shape.nx, 0, shape.ny, 0, shape.nz});
      }
  }

  /// "" when the 3-D state equals the 2-D one at every point of the uniform axis, else the first
  /// difference.
  std::string first_difference() const {
    std::vector<double> values_2d, values_3d;
    const FieldView<double, 2> q2 = two_d.state.on_host(stream, values_2d);
    const FieldView<double, 3> q3 = three_d.state.on_host(stream, values_3d);
    const FieldShape<3>& s = q3.shape;
    for (int v = 0; v < V3::count; ++v)
      for (int k = 0; k < s.nz; ++k)
        for (int j = 0; j < s.ny; ++j)
          for (int i = 0; i < s.nx; ++i) {
            const int v2 = two_d_variable(v, x_role());
            const double expected = v2 < 0 ? 0.0 : q2(v2, k, y_uniform ? i : j);
            const double got = q3(v, k, j, i);
            if (got != expected)
              return "v=" + std::to_string(v) + " k=" + std::to_string(k) + " j=" + std::to_string(j) +
                     " i=" + std::to_string(i) + ": " + std::to_string(got) + " vs " + std::to_string(expected);
          }
    return "";
  }

  CaseSetup setup;
  bool y_uniform;
  Stream stream;
  Grid grid;
  HydrostaticProfile background;
  StepParams<2> params_2d;
  StepParams<3> params_3d;
  DeviceBuffer<StepParams<2>> params_2d_in_memory{stream.backend, 1};  ///< where the kernels read them
  DeviceBuffer<StepParams<3>> params_3d_in_memory{stream.backend, 1};
  CellGeometry<3> geometry_3d;
  StepArrays<Field2d> two_d;
  StepArrays<Field3d> three_d;
};

/// The cases of a run uniform in y: all; of one uniform in x: those without an inflow or wave
/// source, which lie at an x.
inline std::vector<CaseSetup> cases_uniform_in_y() {
  return {{CaseName::thermal},   {CaseName::collision}, {CaseName::gravity_waves}, {CaseName::density_current},
          {CaseName::injection}, {CaseName::rest},      {CaseName::straka, 75.0}};
}
inline std::vector<CaseSetup> cases_uniform_in_x() {
  return {{CaseName::thermal},
          {CaseName::collision},
          {CaseName::density_current},
          {CaseName::rest},
          {CaseName::straka, 75.0}};
}

inline std::string case_label(const ::testing::TestParamInfo<CaseSetup>& param_info) {
  return std::string(to_string(param_info.param.name));
}

}  // namespace simapp::testing
