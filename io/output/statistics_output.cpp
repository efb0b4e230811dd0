#include "io/output/statistics_output.hpp"

#include <fmt/format.h>

#include "solver/decomposition/error_agreement.hpp"
#include "solver/output/output_schedule.hpp"

namespace simapp::io {

StatisticsOutput::StatisticsOutput(const LoadedConfig& config, const Simulation& simulation,
                                   const Diagnostics& reference, WrittenNote written)
    : reference_(reference), written_(std::move(written)), comm_(simulation.decomposition().comm()) {
  const long now = simulation.step();
  // The steps after this one (and step 0 from the start).
  steps_ =
      OutputSchedule(simulation.time_stepping(), config.spec.output.stats_every, true).after(now - (now == 0 ? 1 : 0));
  const std::optional<long> kept_step = now > 0 ? std::optional(now) : std::nullopt;
  run_on_root_agreed(comm_, [&] {
    file_.emplace(std::filesystem::path(config.spec.output.dir) / statistics_file_name, whole_grid_snapshot(config),
                  config.spec.time.start, kept_step);
  });
}

ScheduledStatistics StatisticsOutput::schedule() {
  return {steps_, [this](long step, double time, const FlowStatistics& statistics) {
            bool wrote = false;
            run_on_root_agreed(comm_, [&] {
              wrote = file_->append({step, time, statistics, relative_change(reference_, statistics.totals)});
            });
            if (wrote) note_written();
          }};
}

void StatisticsOutput::flush() {
  bool wrote = false;
  run_on_root_agreed(comm_, [&] { wrote = file_->flush(); });
  if (wrote) note_written();
}

void StatisticsOutput::flush_after_error() noexcept {
  if (!file_) return;
  try {
    if (file_->flush()) note_written();
  } catch (...) {  // the error that ended the run is the one to report
  }
}

void StatisticsOutput::note_written() const {
  if (!written_ || !file_) return;
  const std::vector<StatisticsRow>& rows = file_->rows();
  written_(fmt::format("wrote {} ({} time{}, t = {:.6g} to {:.6g} s)", file_->path().string(), rows.size(),
                       rows.size() == 1 ? "" : "s", rows.empty() ? 0.0 : rows.front().time,
                       rows.empty() ? 0.0 : rows.back().time));
}

}  // namespace simapp::io
