#pragma once
/// Helpers for tests that run the model on small grids.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "kernels/backend/field_view.hpp"
#include "kernels/physics/variables.hpp"
#include "solver/decomposition/decomposition.hpp"
#include "solver/executor/executor_factory.hpp"
#include "solver/simulation/run_loop.hpp"
#include "solver/simulation/simulation.hpp"
#include "solver/spec/run_spec.hpp"
#include "tests/support/bitwise_equal.hpp"

namespace simapp::testing {

/// A RunSpec of `name` on nx × nz cells of the default 20 km × 10 km domain, at the stage
/// granularity on every backend: the reference the tests compare the others with (auto would
/// take pass on CUDA).
inline RunSpec small_case(CaseName name, int nx, int nz, double sim_time) {
  RunSpec spec;
  spec.execution.granularity = Granularity::stage;
  spec.case_name = name;
  spec.grid.nx = nx;
  spec.grid.nz = nz;
  spec.time.sim_time = sim_time;
  return spec;
}

/// A simulation on this rank alone (MPI_COMM_SELF), owning the decomposition it needs.
class SerialSimulation {
 public:
  SerialSimulation(const RunSpec& spec, Backend backend, ExecutionMode mode)
      : decomposition_(MPI_COMM_SELF, spec.grid, ParallelSpec{}), simulation_(spec, backend, mode, decomposition_) {}
  Simulation& operator*() { return simulation_; }
  Simulation* operator->() { return &simulation_; }

 private:
  Decomposition decomposition_;
  Simulation simulation_;
};

/// Whether a run of `spec` on `backend` on this rank alone can use `mode` (why_mode_cannot_run: the
/// backend, the granularity; persistent_cluster: the pass tiles, the L2 cache).
inline bool mode_can_run(ExecutionMode mode, const RunSpec& spec, Backend backend) {
  const Decomposition decomposition(MPI_COMM_SELF, spec.grid, ParallelSpec{});
  return why_mode_cannot_run(mode, spec, backend, decomposition).empty();
}

/// `name` on nx × nz for 23.5 dt: 24 steps, the last one shortened to dt/2.
inline RunSpec shortened_case(CaseName name, int nx, int nz, Granularity granularity, int steps_per_graph) {
  RunSpec spec = small_case(name, nx, nz, 1.0);
  spec.time.sim_time = 23.5 * TimeStepping(1.0, spec.grid.xlen / nx, spec.grid.zlen / nz, spec.time.cfl).dt();
  spec.execution.granularity = granularity;
  spec.execution.steps_per_graph = steps_per_graph;
  return spec;
}

/// The state after running `spec` to its end on this rank alone (checking it lands on sim_time).
/// The interior state [var][k][i] at the end of a run of `spec` (ghost cells are scratch: the
/// stage granularity makes them inside its kernel and never stores them).
inline std::vector<double> final_state(const RunSpec& spec, Backend backend, ExecutionMode mode) {
  SerialSimulation simulation(spec, backend, mode);
  run_to_end(*simulation, 0, [](const ProgressReport&) {});
  EXPECT_EQ(simulation->time(), spec.time.sim_time);
  return simulation->gathered_state();
}

/// The interior cells of one variable of a host copy of the state, as [k][i].
struct HostState {
  std::vector<double> values;
  FieldShape<2> shape;

  double operator()(int v, int k, int i) const { return values[shape.offset(v, k, i)]; }
};

inline HostState state_of(const Simulation& simulation) {
  return {simulation.state_on_host(), simulation.grid().cell_shape<2>()};
}

/// Of variable v over the interior cells: the largest |value|, and the largest departure from
/// mirror symmetry about x = xlen/2, |value(i) − parity · value(nx − 1 − i)| (parity 1: symmetric,
/// −1: antisymmetric).
struct MirrorAsymmetry {
  double largest = 0.0;
  double asymmetry = 0.0;
};

inline MirrorAsymmetry mirror_asymmetry(const HostState& state, int v, double parity) {
  MirrorAsymmetry found;
  const int nx = state.shape.nx;
  for (int k = 0; k < state.shape.nz; ++k)
    for (int i = 0; i < nx; ++i) {
      found.largest = std::max(found.largest, std::abs(state(v, k, i)));
      found.asymmetry = std::max(found.asymmetry, std::abs(state(v, k, i) - parity * state(v, k, nx - 1 - i)));
    }
  return found;
}

/// ‖a − b‖₂ / ‖b‖₂ over the interior cells of variable v (‖a − b‖₂ when ‖b‖₂ = 0).
inline double relative_l2(const HostState& a, const HostState& b, int v) {
  double difference = 0.0, norm = 0.0;
  for (int k = 0; k < b.shape.nz; ++k)
    for (int i = 0; i < b.shape.nx; ++i) {
      const double d = a(v, k, i) - b(v, k, i);
      difference += d * d;
      norm += b(v, k, i) * b(v, k, i);
    }
  return norm > 0 ? std::sqrt(difference / norm) : std::sqrt(difference);
}

}  // namespace simapp::testing
