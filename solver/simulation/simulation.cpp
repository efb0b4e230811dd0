#include "solver/simulation/simulation.hpp"

#include <algorithm>

#include "foundation/error.hpp"
#include "kernels/backend/stream_timer.hpp"
#include "kernels/backend/trace_range.hpp"
#include "kernels/cases/case_list.hpp"
#include "solver/column/run_column.hpp"
#include "solver/decomposition/gather_state.hpp"
#include "solver/executor/executor_factory.hpp"
#include "solver/step/granularity_choice.hpp"
#include "solver/step/steps_per_graph.hpp"

namespace simapp {

namespace {

/// dt of every step, for StepParams<2> made on the device.
TimeSchedule time_schedule(const TimeStepping& time_stepping, const Grid& grid, const RunSpec& spec) {
  return {time_stepping.dt(),
          time_stepping.dt_of(time_stepping.num_steps()),
          time_stepping.num_steps(),
          grid.dx(),
          grid.dz(),
          spec.physics,
          grid.is_3d() ? grid.dy() : 0.0,
          spec.grid.microphysics != Microphysics::none ? spec.moisture.every : 0};
}

/// The background of `grid`'s rows integrated from the run's sounding; none where it has none.
std::optional<ColumnBackground> run_column_background(const RunSpec& spec, const Grid& grid) {
  const std::optional<ColumnSource> source = run_column(spec);
  if (!source) return std::nullopt;
  return column_background(*source, grid.geometry<2>(), grid.nz());
}

}  // namespace

std::size_t memory_needed(const RunSpec& spec, Backend backend, const Decomposition& decomposition) {
  const Grid grid(spec.grid, decomposition.box());
  const InteriorLayout interior =
      grid.is_3d() ? interior_layout(grid.cell_shape<3>()) : interior_layout(grid.cell_shape<2>());
  const std::size_t surface = spec.grid.microphysics != Microphysics::none
                                  ? surface_water_fields * static_cast<std::size_t>(grid.nx()) * grid.ny()
                                  : 0;
  return model_memory_needed(with_concrete_granularity(spec, backend, decomposition.box()), grid) +
         StateCopy::bytes_needed(backend, interior, surface);
}

Simulation::Simulation(const RunSpec& spec, Backend backend, ExecutionMode mode, const Decomposition& decomposition,
                       TimeOrigin origin)
    : spec_(with_concrete_granularity(spec, backend, decomposition.box())),
      mode_(mode),
      decomposition_(decomposition),
      grid_(spec.grid, decomposition.box()),
      time_stepping_(spec.time.sim_time, grid_.horizontal_spacing(), grid_.dz(), spec.time.cfl,
                     spec.physics.largest_coefficient(), origin),
      stream_(backend),
      column_(run_column_background(spec, grid_)),
      background_(column_ ? HydrostaticProfile(stream_.get(), column_->dry, grid_.nz())
                          : HydrostaticProfile(stream_.get(), case_background(spec.case_name), grid_.geometry<2>(),
                                               grid_.nz())),
      theta_reference_(backend, spec, grid_, decomposition),
      halo_path_(simapp::halo_path(backend, spec.parallel)),
      health_(backend, spec.execution.check_every, time_stepping_.num_steps(), spec.grid.nx, spec.grid.nz,
              spec.grid.ny),
      loop_clock_(backend, 1),
      model_(make_model({spec_, mode, decomposition, grid_, time_stepping_, stream_.get(),
                         theta_reference_.applied_to(background_.view()), column_ ? &*column_ : nullptr, halo_path_,
                         health_.ops()})),
      steps_per_graph_(simapp::steps_per_graph(spec.execution, model_->first_step(), model_->chunks().cadences())),
      executor_(make_executor(
          mode, spec_, decomposition,
          {stream_.get(), model_->chunks(), loop_clock_.data(), time_schedule(time_stepping_, grid_, spec),
           steps_per_graph_, model_->first_step().count(OpKind::kernel)})),
      pacing_(stream_.get(), decomposition.comm(), executor_->batch_granule()),
      state_copy_(backend, model_->interior(), model_->surface_water().size(), spec.execution.precision) {
  reset();
  if (theta_reference_.used()) {  // the initial state that reset() made is the reference
    begin_state_copy();
    theta_reference_.set(stream_.get(), finish_state_copy(), background_.to_host(stream_.get()));
  }
}

Simulation::~Simulation() = default;

void Simulation::restore(long step, const std::vector<double>& interior, std::span<const double> surface) {
  model_->set_state(stream_.get(), padded_from(model_->interior(), interior));  // ghosts are filled before any use
  if (!surface.empty()) model_->set_surface_water(stream_.get(), surface);
  set_loop_clock(stream_.get(), loop_clock_.data(), step);
  device::synchronize(stream_.get());
  pacing_.close_batch();
  step_ = step;
}

void Simulation::begin_state_copy() {
  state_copy_.begin(stream_.get(), model_->state_data(), model_->surface_water().data());
}

std::span<const double> Simulation::finish_state_copy() { return state_copy_.collect(); }

void Simulation::reset() {
  pacing_.close_batch();
  model_->set_initial_state(stream_.get());
  health_.reset(stream_.get());
  set_loop_clock(stream_.get(), loop_clock_.data(), 0);
  device::synchronize(stream_.get());
  step_ = 0;
}

void Simulation::prepare(const ChunkEnds& chunk_ends) { executor_->prepare(step_, chunk_ends); }

long Simulation::advance_chunk(long max_steps) {
  const long left = std::min(time_stepping_.num_steps() - step_, max_steps);
  if (left <= 0) return 0;
  // A launch that runs a whole batch runs at most what is left of this call's steps; a batch
  // of chunks may span several calls.
  const bool launch_a_batch = executor_->counts_steps_on_device();
  const long batch = pacing_.open_batch(launch_a_batch ? left : time_stepping_.num_steps() - step_);
  const long steps = executor_->advance(step_, batch, left);
  health_.note_steps(step_, steps);
  step_ += steps;
  // In graph_loop and persistent a batch is one launch; graph_loop's, short of the span's end,
  // ends after its last whole pass, at times a few steps short of the pace.
  pacing_.queued(steps, launch_a_batch || finished());
  return steps;
}

std::vector<std::pair<const StepOp*, double>> Simulation::time_next_step() {
  ChunkPrograms& chunks = model_->chunks();
  chunks.write_step_values(step_, 1);
  std::vector<std::pair<const StepOp*, double>> timings;
  StreamTimer timer(stream_.get());
  // The step with the elements that follow every step (the microphysics at its default cadence;
  // not the health check, which follows one step in execution.check_every).
  ChunkLayout next = chunk_layout(step_, 1, time_stepping_.num_steps(), chunks.cadences());
  std::erase_if(next.runs, [&](const ElementRun& run) { return chunks.cadences()[run.element] != 1; });
  for (const StepOp& op : chunks.program(next).ops()) {
    if (op.kind == OpKind::join) continue;
    const TraceRange range(op.name.c_str());
    timer.start();
    op.run(stream_.get());
    timer.stop();
    timings.emplace_back(&op, timer.seconds());
  }
  add_completed_steps(stream_.get(), loop_clock_.data(), 1);
  ++step_;
  return timings;
}

std::optional<HealthFinding> Simulation::health_failure() {
  synchronize();
  if (executor_->counts_steps_on_device()) step_ = loop_clock_.copy_to_host(stream_.get()).front().completed;
  return health_.failure();
}

Diagnostics Simulation::diagnostics() const { return model_->diagnostics(stream_.get()); }

std::vector<double> Simulation::state_on_host() const { return model_->state_on_host(stream_.get()); }

std::vector<double> Simulation::gathered_state() const {
  return gather_interior(decomposition_, interior_of(model_->interior(), state_on_host()));
}

}  // namespace simapp
