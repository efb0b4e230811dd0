#pragma once
/// The health check's rule evaluated on the host, cell by cell over a state copied out of a
/// simulation (a second code path beside the check kernel), a fault written into one cell of
/// a running simulation's state, and the two checks every backend and mode must pass.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "foundation/error.hpp"
#include "kernels/cases/case_list.hpp"
#include "kernels/diagnostics/health_check.hpp"
#include "kernels/physics/constants.hpp"
#include "kernels/physics/equation_of_state.hpp"
#include "kernels/physics/variables.hpp"
#include "solver/decomposition/gather_state.hpp"
#include "solver/simulation/run_loop.hpp"
#include "solver/simulation/simulation.hpp"
#include "solver/state/hydrostatic_profile.hpp"
#include "tests/support/small_case.hpp"

namespace simapp::testing {

/// What the host finds first in a state, ordered as the check orders its findings: by
/// finding (a variable that is not finite, else a speed), then row, then column.
struct HostFinding {
  int finding = 0;
  int i = 0;
  int k = 0;
  bool operator==(const HostFinding&) const = default;
};

/// The first unhealthy cell of the serial simulation's current state, if any.
inline std::optional<HostFinding> first_unhealthy_cell(const Simulation& simulation) {
  const Stream host{Backend::host, nullptr, nullptr};
  const FieldShape<2> shape = simulation.grid().cell_shape<2>();
  const HydrostaticColumns columns =
      HydrostaticProfile(host, case_background(simulation.spec().case_name), simulation.grid().geometry<2>(), shape.nz)
          .to_host(host);
  const std::vector<double> state = interior_of(interior_layout(shape), simulation.state_on_host());
  const auto at = [&](int v, int k, int i) {
    return state[(static_cast<std::size_t>(v) * shape.nz + k) * shape.nx + i];
  };
  std::optional<HostFinding> first;
  for (int k = 0; k < shape.nz; ++k)
    for (int i = 0; i < shape.nx; ++i) {
      int finding = -1;
      for (int v = 0; v < var::count && finding < 0; ++v)
        if (!std::isfinite(at(v, k, i))) finding = v;
      if (finding < 0) {
        const double density = at(var::dens, k, i) + columns.density_cell[k + numerics::halo_width];
        const double rho_theta = at(var::rhot, k, i) + columns.rho_theta_cell[k + numerics::halo_width];
        const double sound = std::sqrt(physics::gamma * physics::pressure(rho_theta) / density);
        const double fastest = std::max(std::abs(at(var::umom, k, i)), std::abs(at(var::wmom, k, i))) / density + sound;
        if (!(fastest <= numerics::max_speed)) finding = speed_finding<2>;
      }
      if (finding < 0) continue;
      const HostFinding here{finding, i, k};
      if (!first || std::tie(here.finding, here.k, here.i) < std::tie(first->finding, first->k, first->i)) first = here;
    }
  return first;
}

/// Makes variable `v` of interior cell (i, k) NaN in the serial simulation's current state.
inline void write_nan(Simulation& simulation, int v, int i, int k) {
  const FieldShape<2> shape = simulation.grid().cell_shape<2>();
  std::vector<double> state = interior_of(interior_layout(shape), simulation.state_on_host());
  state[(static_cast<std::size_t>(v) * shape.nz + k) * shape.nx + i] = std::nan("");
  simulation.restore(simulation.step(), state);
}

/// The text the run's error gives for a finding after `step`.
inline std::string failure_text(const Simulation& simulation, long step, const HostFinding& finding) {
  return fmt::format("step {} (t = {:.6g} s): the health check failed: {} at cell (i, k) = ({}, {})", step,
                     simulation.time_stepping().time_after(step), describe_finding(finding.finding), finding.i,
                     finding.k);
}

/// The state of `simulation` after `step` steps, run chunk by chunk.
inline void advance_to(Simulation& simulation, long step) {
  while (simulation.step() < step) simulation.advance_chunk(step - simulation.step());
}

/// The error run_to_end ends with, as printed after "simapp: error: "; "" when it ends well.
inline std::string run_error(Simulation& simulation, const std::vector<ScheduledOutput>& outputs,
                             const FailedStateWriter& failed) {
  try {
    run_to_end(
        simulation, 0, [](const ProgressReport&) {}, outputs, std::nullopt, {}, failed);
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::numerical);
    return error.where() + ": " + error.what();
  }
  return "";
}

/// A NaN written into one cell after step 6 is found by the check after step 7, at the first
/// cell the host finds in the state after that step (within one step's domain of dependence
/// of the cell: 3 stages of a ±2-cell stencil in each pass).
inline void expect_nan_caught_at_next_check(Backend backend, ExecutionMode mode) {
  RunSpec spec = small_case(CaseName::thermal, 40, 20, 1.0);
  spec.time.sim_time = 30 * TimeStepping(1.0, 500.0, 500.0, spec.time.cfl).dt();
  spec.execution.check_every = 1;
  spec.execution.steps_per_graph = 4;
  const long fault_step = 6;
  const int i = 23, k = 9;

  SerialSimulation reference(spec, backend, ExecutionMode::eager_sync);
  advance_to(*reference, fault_step);
  write_nan(*reference, var::rhot, i, k);
  ASSERT_EQ(first_unhealthy_cell(*reference), (HostFinding{var::rhot, i, k}));
  reference->advance_chunk(1);
  const std::optional<HostFinding> expected = first_unhealthy_cell(*reference);
  ASSERT_TRUE(expected);
  EXPECT_LE(std::abs(expected->i - i), 6);
  EXPECT_LE(std::abs(expected->k - k), 6);

  SerialSimulation simulation(spec, backend, mode);
  advance_to(*simulation, fault_step);
  write_nan(*simulation, var::rhot, i, k);
  long saved = -1;
  const std::string error = run_error(*simulation, {}, [&saved](long step, double, std::span<const double> state) {
    EXPECT_FALSE(std::ranges::all_of(state, [](double value) { return std::isfinite(value); }));
    saved = step;
    return std::string("saved.h5");
  });
  EXPECT_TRUE(error.starts_with(failure_text(*simulation, fault_step + 1, *expected))) << error;
  EXPECT_TRUE(error.ends_with(fmt::format("the state at step {} is in saved.h5", saved))) << error;
  EXPECT_GE(saved, fault_step + 1);
}

/// A time step three times the stable one: the run stops at the first step after which the
/// host finds a cell too fast (or not finite), naming that cell; the outputs of the steps
/// before it were written and equal those of a run without the check.
inline void expect_unstable_step_caught(Backend backend, ExecutionMode mode) {
  RunSpec spec = small_case(CaseName::thermal, 40, 20, 300.0);
  spec.time.cfl = 2.0;
  spec.execution.check_every = 1;
  const std::vector<long> output_steps{10, 20, 30, 40, 50, 60, 70, 80};

  RunSpec unchecked = spec;
  unchecked.execution.check_every = 0;
  SerialSimulation reference(unchecked, backend, ExecutionMode::eager_sync);
  std::map<long, std::vector<double>> reference_outputs;
  std::optional<HostFinding> expected;
  while (!expected && !reference->finished()) {
    reference->advance_chunk(1);
    expected = first_unhealthy_cell(*reference);
    if (std::ranges::find(output_steps, reference->step()) != output_steps.end())
      reference_outputs[reference->step()] = reference->gathered_state();
  }
  ASSERT_TRUE(expected) << "the case should blow up";
  const long failed_step = reference->step();
  ASSERT_GT(failed_step, 20);

  SerialSimulation simulation(spec, backend, mode);
  std::map<long, std::vector<double>> outputs;
  const std::vector<ScheduledOutput> scheduled{{output_steps,
                                                [&outputs](long step, double, std::span<const double> state) {
                                                  outputs[step].assign(state.begin(), state.end());
                                                },
                                                nullptr, nullptr}};
  const std::string error = run_error(*simulation, scheduled, {});
  EXPECT_EQ(error,
            failure_text(*simulation, failed_step, *expected) + "; no snapshot written (the run writes no results)");
  for (long step : output_steps) {
    if (step >= failed_step) {
      EXPECT_FALSE(outputs.contains(step)) << step;
      continue;
    }
    ASSERT_TRUE(outputs.contains(step)) << step;
    EXPECT_TRUE(bitwise_equal(outputs[step], reference_outputs[step])) << step;
  }
}

/// How often the unstable case of expect_check_at_global_multiples is checked, in chunks of
/// how many steps, for how long.
struct CheckCadence {
  int check_every = 10;
  int steps_per_graph = 4;
  long num_steps = 70;  ///< the case blows up near step 56
};

/// A time step twice the stable one, checked and cut into chunks as `cadence` says, without
/// outputs and with outputs after steps that end chunks off either cadence: the failed check
/// names the first multiple of check_every (or the run's last step) at or after the step where
/// the host backend first finds a cell unhealthy, and the cell the host finds first after it,
/// whatever the backend, mode and granularity (a check that followed the chunks made the step
/// depend on them). Without outputs graph_loop's failing check is one inside its body.
inline void expect_check_at_global_multiples(Backend backend, ExecutionMode mode, Granularity granularity,
                                             const CheckCadence& cadence) {
  RunSpec spec = small_case(CaseName::thermal, 40, 20, 1.0);
  spec.time.cfl = 2.0;
  spec.time.sim_time = static_cast<double>(cadence.num_steps) * TimeStepping(1.0, 500.0, 500.0, spec.time.cfl).dt();
  spec.execution.granularity = granularity;
  spec.execution.steps_per_graph = cadence.steps_per_graph;
  spec.execution.check_every = cadence.check_every;
  const std::string what = fmt::format("{} {} check_every {} K {}", to_string(mode), to_string(granularity),
                                       cadence.check_every, cadence.steps_per_graph);

  RunSpec unchecked = spec;
  unchecked.execution.check_every = 0;
  SerialSimulation reference(unchecked, Backend::host, ExecutionMode::eager_sync);
  ASSERT_EQ(reference->time_stepping().num_steps(), cadence.num_steps);
  while (!reference->finished() && !first_unhealthy_cell(*reference)) reference->advance_chunk(1);
  ASSERT_TRUE(first_unhealthy_cell(*reference)) << "the case should blow up";
  const long unhealthy_step = reference->step();
  const long checked_step = std::min(
      cadence.num_steps, (unhealthy_step + cadence.check_every - 1) / cadence.check_every * cadence.check_every);
  advance_to(*reference, checked_step);
  const std::optional<HostFinding> expected = first_unhealthy_cell(*reference);
  ASSERT_TRUE(expected);

  // Outputs only while the state is still finite (a state that is not is refused, not written).
  for (const std::vector<long>& output_steps : {std::vector<long>{}, std::vector<long>{7, 23, 41, 53, 57, 59, 61}}) {
    SerialSimulation simulation(spec, backend, mode);
    const std::vector<ScheduledOutput> outputs{
        {output_steps, [](long, double, std::span<const double>) {}, nullptr, nullptr}};
    EXPECT_EQ(run_error(*simulation, outputs, {}),
              failure_text(*simulation, checked_step, *expected) + "; no snapshot written (the run writes no results)")
        << what << (output_steps.empty() ? ", no outputs" : ", outputs") << "; the host finds the first unhealthy "
        << "cell after step " << unhealthy_step;
  }
}

}  // namespace simapp::testing
