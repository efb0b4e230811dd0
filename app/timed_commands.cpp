#include "app/timed_commands.hpp"

#include <cstdio>
#include <filesystem>
#include <functional>
#include <string>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "app/comparison_report.hpp"
#include "app/profile_report.hpp"
#include "app/stop_signals.hpp"
#include "foundation/printable_text.hpp"
#include "io/output/output_directory.hpp"
#include "io/timing/machine_report.hpp"
#include "io/timing/timing_report.hpp"
#include "kernels/backend/device_runtime.hpp"
#include "kernels/backend/machine_state.hpp"
#include "simapp_version.hpp"
#include "solver/decomposition/error_agreement.hpp"
#include "solver/simulation/mode_comparison.hpp"
#include "solver/simulation/simulation.hpp"
#include "solver/simulation/step_profile.hpp"

namespace simapp::app {

namespace {

/// Where and on what a timed run ran, for its report, with the machine's state before and after.
io::TimingContext timing_context(const Setup& setup, const Decomposition& decomposition, const std::string& processor,
                                 const device::MachineState& at_start, const device::MachineState& at_end) {
  return {std::string(to_string(setup.backend)),    processor, decomposition.size(),
          {decomposition.px(), decomposition.pz()}, at_start,  at_end};
}

/// Rank 0 reads the state of its node (and GPU) and prints it as `when` ("at the start").
device::MachineState read_and_print_machine(const Setup& setup, const Decomposition& decomposition, const char* when) {
  if (decomposition.rank() != 0) return {};
  const device::MachineState state = device::read_machine_state(setup.backend);
  fmt::print("machine {}: {}\n", when, io::describe_machine_state(state));
  return state;
}

/// Writes a report made by `make` on rank 0 (its failure known to every rank) and says so.
void write_report(const Decomposition& decomposition, const std::filesystem::path& path,
                  const std::function<nlohmann::json()>& make) {
  run_on_root_agreed(decomposition.comm(), [&] {
    io::write_result_file(path, make().dump(2) + "\n");
    fmt::print("wrote {}\n", printable(path.string()));
  });
}

/// Says where a comparison stopped on request and returns ExitCode::interrupted. No timing.json
/// is written: its rounds are incomplete (the modes timed a different number of times, in
/// alternating order), and the scripts that read the file take it for a whole measurement.
int stopped_comparison(const ModeComparison& comparison, bool root) {
  if (root) {
    const char* signal = stop_signal_name();
    fmt::print(
        "stopped by {} in round {} after {} timed run{}; no timing.json written (an interrupted comparison "
        "is incomplete): run it again to time the modes\n",
        *signal != '\0' ? signal : "a signal to another rank", comparison.rounds, comparison.timed_runs,
        comparison.timed_runs == 1 ? "" : "s");
    std::fflush(stdout);
  }
  return static_cast<int>(ExitCode::interrupted);
}

}  // namespace

int compare(const Setup& setup, const Decomposition& decomposition, io::Overwrite overwrite) {
  const RunSpec& spec = setup.config.spec;
  const bool root = decomposition.rank() == 0;
  const std::filesystem::path timing_path = std::filesystem::path(spec.output.dir) / "timing.json";
  const io::OwnedOutputDirectory owned(spec.output.dir, decomposition.comm());
  run_on_root_agreed(decomposition.comm(), [&] { io::check_result_path(timing_path, overwrite); });
  const std::string processor = device::processor_name(setup.backend);
  if (root)
    fmt::print(
        "simapp {} compare: case {}, {} cells, granularity {}, backend {} ({}), {} rank(s) as {} x {}, "
        "halos by {}\n",
        build_info::version, to_string(spec.case_name), cells_text(spec.grid), to_string(spec.execution.granularity),
        to_string(setup.backend), processor, decomposition.size(), decomposition.px(), decomposition.pz(),
        to_string(spec.parallel.halo));
  const device::MachineState at_start = read_and_print_machine(setup, decomposition, "at the start");
  // A line a round: "round 2 of 5: graph_loop graph eager" as the runs start.
  const ModeComparison comparison = compare_modes(
      spec, setup.backend, decomposition,
      [&](const ComparisonProgress& progress) {
        if (!root) return;
        if (progress.position == 0)
          fmt::print("{}round {} of {}{}:", progress.round == 1 ? "" : "\n", progress.round, progress.rounds,
                     progress.round > spec.execution.repeats
                         ? fmt::format(" (until every median is known to {:g} %)", 100.0 * spec.execution.max_noise)
                         : "");
        fmt::print(" {}", to_string(progress.mode));
        std::fflush(stdout);
      },
      stop_requested);
  if (root && comparison.timed_runs > 0) fmt::print("\n");
  if (comparison.stopped) return stopped_comparison(comparison, root);
  if (root) print_comparison(stdout, comparison);
  const device::MachineState at_end = read_and_print_machine(setup, decomposition, "at the end");
  write_report(decomposition, timing_path, [&] {
    return io::timing_json(spec, comparison, timing_context(setup, decomposition, processor, at_start, at_end));
  });
  return comparison.identical ? 0 : static_cast<int>(ExitCode::numerical);
}

int profile(const Setup& setup, const Decomposition& decomposition, io::Overwrite overwrite) {
  const RunSpec& spec = setup.config.spec;
  const std::filesystem::path path = std::filesystem::path(spec.output.dir) / "profile.json";
  const io::OwnedOutputDirectory owned(spec.output.dir, decomposition.comm());
  run_on_root_agreed(decomposition.comm(), [&] { io::check_result_path(path, overwrite); });
  Simulation simulation(spec, setup.backend, ExecutionMode::eager, decomposition);
  const device::MachineState at_start =
      decomposition.rank() == 0 ? device::read_machine_state(setup.backend) : device::MachineState{};
  const StepProfile step = profile_steps(simulation, 2, 10);
  const device::MachineState at_end =
      decomposition.rank() == 0 ? device::read_machine_state(setup.backend) : device::MachineState{};
  const std::string processor = device::processor_name(setup.backend);
  if (decomposition.rank() == 0) {
    fmt::print("simapp {} profile: case {}, {} cells ({} on rank 0), granularity {}, backend {} ({})\n",
               build_info::version, to_string(spec.case_name), cells_text(spec.grid), step.cells,
               to_string(spec.execution.granularity), to_string(setup.backend), processor);
    fmt::print("machine at the start: {}\nmachine at the end: {}\n", io::describe_machine_state(at_start),
               io::describe_machine_state(at_end));
    print_profile(stdout, step);
  }
  write_report(decomposition, path, [&] {
    return io::profile_json(spec, step, timing_context(setup, decomposition, processor, at_start, at_end));
  });
  return 0;
}

}  // namespace simapp::app
