#include "io/output/output_session.hpp"

#include "foundation/error.hpp"

namespace simapp::io {

namespace {

/// The lock of output.dir, where the run writes results, taken before anything there is read.
std::optional<OwnedOutputDirectory> owned_if_written(const RunSpec& spec, MPI_Comm comm) {
  if (!writes_results(spec)) return std::nullopt;
  return std::optional<OwnedOutputDirectory>(std::in_place, spec.output.dir, comm);
}

}  // namespace

OutputSession::OutputSession(const LoadedConfig& config, MPI_Comm comm, WrittenNote written)
    : config_(config), comm_(comm), written_(std::move(written)), owned_(owned_if_written(config.spec, comm)) {}

const OutputStart& OutputSession::plan(ExistingResults policy, const std::string& restart) {
  if (start_) throw Error(ExitCode::internal, "output", "the output session planned twice");
  return start_.emplace(plan_output(config_.spec, policy, restart, comm_));
}

const Diagnostics& OutputSession::begin(Simulation& simulation) {
  if (!start_ || simulation_ != nullptr)
    throw Error(ExitCode::internal, "output", "the output session begins once, after its plan");
  reference_ = start_->checkpoint ? restore_checkpoint(simulation, *start_) : simulation.diagnostics();
  take_over_output(config_.spec, *start_, comm_);
  simulation_ = &simulation;
  if (config_.spec.output.stats_every > 0.0)
    statistics_ = std::make_shared<StatisticsOutput>(config_, simulation, reference_, written_);
  return reference_;
}

const Simulation& OutputSession::simulation() const {
  if (simulation_ == nullptr) throw Error(ExitCode::internal, "output", "the output session has not begun");
  return *simulation_;
}

OutputHooks OutputSession::hooks() const {
  OutputHooks hooks{written_, nullptr};
  if (statistics_) hooks.before_checkpoint = [statistics = statistics_] { statistics->flush(); };
  return hooks;
}

std::vector<ScheduledOutput> OutputSession::outputs() const {
  return make_outputs(config_, simulation(), reference_, hooks());
}

std::function<void(long, double, std::span<const double>)> OutputSession::stop_saver() const {
  if (!writes_results()) return nullptr;
  return checkpoint_saver(config_, simulation(), reference_, hooks());
}

ScheduledStatistics OutputSession::statistics() const {
  simulation();  // after begin
  return statistics_ ? statistics_->schedule() : ScheduledStatistics{};
}

void OutputSession::finish_statistics() const {
  if (statistics_) statistics_->flush();
}

void OutputSession::finish_statistics_after_error() const noexcept {
  if (statistics_) statistics_->flush_after_error();
}

FailedStateWriter OutputSession::failed_state_writer() const { return io::failed_state_writer(config_, simulation()); }

}  // namespace simapp::io
