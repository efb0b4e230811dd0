#include "app/timed_commands.hpp"

#include <cstdio>
#include <filesystem>
#include <functional>
#include <string>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "app/comparison_report.hpp"
#include "app/profile_report.hpp"
#include "io/output/output_directory.hpp"
#include "io/timing/timing_report.hpp"
#include "kernels/backend/device_runtime.hpp"
#include "simapp_version.hpp"
#include "solver/decomposition/error_agreement.hpp"
#include "solver/simulation/mode_comparison.hpp"
#include "solver/simulation/simulation.hpp"
#include "solver/simulation/step_profile.hpp"

namespace simapp::app {

namespace {

/// Where and on what a timed run ran, for its report.
io::TimingContext timing_context(const Setup& setup, const Decomposition& decomposition, const std::string& processor) {
  return {std::string(to_string(setup.backend)),
          processor,
          decomposition.size(),
          {decomposition.px(), decomposition.pz()},
          setup.granularity_reason};
}

/// Writes a report made by `make` on rank 0 (its failure known to every rank) and says so.
void write_report(const Decomposition& decomposition, const std::filesystem::path& path,
                  const std::function<nlohmann::json()>& make) {
  run_on_root_agreed(decomposition.comm(), [&] {
    io::write_result_file(path, make().dump(2) + "\n");
    fmt::print("wrote {}\n", path.string());
  });
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
        build_info::version, to_string(spec.case_name), cells_text(spec.grid), describe_granularity(setup),
        to_string(setup.backend), processor, decomposition.size(), decomposition.px(), decomposition.pz(),
        to_string(spec.parallel.halo));
  // A line a round: "round 2 of 5: graph_loop graph eager" as the runs start.
  const ModeComparison comparison =
      compare_modes(spec, setup.backend, decomposition, [&](const ComparisonProgress& progress) {
        if (!root) return;
        if (progress.position == 0)
          fmt::print("{}round {} of {}{}:", progress.round == 1 ? "" : "\n", progress.round, progress.rounds,
                     progress.round > spec.execution.repeats
                         ? fmt::format(" (until every median is known to {:g} %)", 100.0 * spec.execution.max_noise)
                         : "");
        fmt::print(" {}", to_string(progress.mode));
        std::fflush(stdout);
      });
  if (root && comparison.rounds > 0) fmt::print("\n");
  if (root) print_comparison(stdout, comparison);
  write_report(decomposition, timing_path,
               [&] { return io::timing_json(spec, comparison, timing_context(setup, decomposition, processor)); });
  return comparison.identical ? 0 : static_cast<int>(ExitCode::numerical);
}

int profile(const Setup& setup, const Decomposition& decomposition, io::Overwrite overwrite) {
  const RunSpec& spec = setup.config.spec;
  const std::filesystem::path path = std::filesystem::path(spec.output.dir) / "profile.json";
  const io::OwnedOutputDirectory owned(spec.output.dir, decomposition.comm());
  run_on_root_agreed(decomposition.comm(), [&] { io::check_result_path(path, overwrite); });
  Simulation simulation(spec, setup.backend, ExecutionMode::eager, decomposition);
  const StepProfile step = profile_steps(simulation, 2, 10);
  const std::string processor = device::processor_name(setup.backend);
  if (decomposition.rank() == 0) {
    fmt::print("simapp {} profile: case {}, {} cells ({} on rank 0), granularity {}, backend {} ({})\n",
               build_info::version, to_string(spec.case_name), cells_text(spec.grid), step.cells,
               describe_granularity(setup), to_string(setup.backend), processor);
    print_profile(stdout, step);
  }
  write_report(decomposition, path,
               [&] { return io::profile_json(spec, step, timing_context(setup, decomposition, processor)); });
  return 0;
}

}  // namespace simapp::app
