#include "solver/simulation/simulation.hpp"

#include <algorithm>
#include <limits>

#include "foundation/error.hpp"
#include "kernels/backend/stream_timer.hpp"
#include "kernels/backend/trace_range.hpp"
#include "kernels/initial_conditions/case_boundaries.hpp"
#include "kernels/initial_conditions/case_profile.hpp"
#include "kernels/initial_conditions/initial_state.hpp"
#include "solver/decomposition/gather_state.hpp"
#include "solver/simulation/mode_support.hpp"
#include "solver/step/step_outline.hpp"
#include "solver/step/steps_per_graph.hpp"

namespace simapp {

namespace {

StepResources resources_for(const RunSpec& spec, const Grid& grid, const StepFields& fields,
                            const HydrostaticView& background, const StepParamsBlock* params, const GhostFill& halo,
                            const HealthCheckOps& health) {
  return {fields, grid.geometry(), background, params, spec.case_name, spec.execution.granularity, halo, health};
}

/// How the rank fills its ghost cells, with the exchanges that carry it out.
GhostFill ghost_fill_with(const RunSpec& spec, const Decomposition& decomposition, HaloPath path, const HaloExchange* x,
                          const HaloExchange* z) {
  GhostFill fill = ghost_fill(spec, decomposition, path);
  fill.x = x;
  fill.z = z;
  return fill;
}

std::unique_ptr<NcclCommunicator> nccl_communicator_if(HaloPath path, const Decomposition& decomposition) {
  if (path != HaloPath::nccl || decomposition.size() == 1) return nullptr;
  require_one_gpu_per_rank(decomposition.comm());
  return std::make_unique<NcclCommunicator>(decomposition.comm());
}

/// StepParams slots for any K the run may choose, known before its step is built (the step's
/// kernels read their slots through pointers fixed when it is built). K is as configured, or at
/// most automatic_kernels_per_graph (a step has at least one kernel). A chunk needs one slot a
/// step; graph_loop's body and the chunks beside it one a step of the body (loop_body: K made
/// even, or a multiple of check_every of at most max_checked_loop_body_kernels kernels); the
/// persistent kernel alternates between two. 112 bytes a slot: some 560 KB at most.
int step_params_capacity(ExecutionMode mode, const ExecutionSpec& execution) {
  const int most =
      execution.steps_per_graph > 0 ? execution.steps_per_graph : static_cast<int>(automatic_kernels_per_graph);
  if (mode == ExecutionMode::graph_loop) return std::max(2 * most, static_cast<int>(max_checked_loop_body_kernels));
  if (mode == ExecutionMode::persistent) return std::max(2, most);
  return most;
}

std::unique_ptr<HaloExchange> exchange_if(bool needed, const Decomposition& decomposition, Direction direction,
                                          const Grid& grid, Backend backend, HaloPath path,
                                          const NcclCommunicator* nccl) {
  if (!needed) return nullptr;
  return std::make_unique<HaloExchange>(decomposition, direction, grid.cell_shape(), backend, path, nccl);
}

}  // namespace

std::size_t memory_needed(const RunSpec& spec, Backend backend, const Decomposition& decomposition) {
  const Grid grid(spec.grid, decomposition.box());
  const StepFields fields = step_field_shapes(grid, spec.execution.granularity);
  std::size_t values = 0;
  for (const FieldView<double>* view : {&fields.state, &fields.stage1, &fields.stage2, &fields.flux, &fields.face_value,
                                        &fields.face_d3, &fields.tendency})
    values += view->shape.size();
  return values * sizeof(double) + StateCopy::bytes_needed(backend, grid.cell_shape());
}

Simulation::Simulation(const RunSpec& spec, Backend backend, ExecutionMode mode, const Decomposition& decomposition,
                       TimeOrigin origin)
    : spec_(spec),
      mode_(mode),
      decomposition_(decomposition),
      grid_(spec.grid, decomposition.box()),
      time_stepping_(spec.time.sim_time, grid_.dx(), grid_.dz(), spec.time.cfl, spec.physics.viscosity, origin),
      stream_(backend),
      background_(stream_.get(), case_background(spec.case_name), grid_.geometry(), grid_.nz()),
      workspace_(backend, grid_, spec.execution.granularity),
      halo_path_(simapp::halo_path(backend, spec.parallel)),
      params_(stream_.get(), step_params_capacity(mode, spec.execution)),
      nccl_(nccl_communicator_if(halo_path_, decomposition)),
      halo_x_(
          exchange_if(decomposition.splits_x(), decomposition, Direction::x, grid_, backend, halo_path_, nccl_.get())),
      halo_z_(
          exchange_if(decomposition.splits_z(), decomposition, Direction::z, grid_, backend, halo_path_, nccl_.get())),
      health_(backend, spec.execution.check_every, time_stepping_.num_steps(), spec.grid.nx, spec.grid.nz),
      loop_clock_(backend, 1),
      resources_(resources_for(spec, grid_, workspace_.fields(), background_.view(), &params_,
                               ghost_fill_with(spec, decomposition, halo_path_, halo_x_.get(), halo_z_.get()),
                               health_.ops())),
      first_step_(build_step_program(resources_, StepParity::odd, 0)),
      steps_per_graph_(simapp::steps_per_graph(spec.execution, first_step_)),
      loop_body_(loop_body(steps_per_graph_, spec.execution.check_every, first_step_.count(OpKind::kernel))),
      pacing_(stream_.get(), decomposition.comm(), mode == ExecutionMode::graph_loop ? loop_body_.steps : 1),
      executor_(make_executor(mode, backend)),
      reducer_(backend, grid_.nz(), decomposition.comm()),
      state_copy_(backend, grid_.cell_shape()) {
  require_mode_can_run(mode, spec, backend, decomposition);
  const TimeSchedule schedule{time_stepping_.dt(),
                              time_stepping_.dt_of(time_stepping_.num_steps()),
                              time_stepping_.num_steps(),
                              grid_.dx(),
                              grid_.dz(),
                              spec.physics};
  for (LoopControl& control : loop_control_) control = {loop_clock_.data(), schedule, 0};
  if (mode == ExecutionMode::persistent) {
    const StepFields& fields = workspace_.fields();
    const HealthCheckOps health = health_.ops();
    persistent_ = {fields.state,
                   fields.stage1,
                   fields.stage2,
                   grid_.geometry(),
                   background_.view(),
                   gravity_wave_source(spec.case_name, grid_.geometry().xlen),
                   case_boundaries(spec.case_name),
                   schedule,
                   params_.writable_device_slots(),
                   loop_clock_.data(),
                   health.every,
                   health.record,
                   health.mirror};
    persistent_grid_ = persistent_grid(persistent_);
  }
  reset();
}

Simulation::~Simulation() = default;

void Simulation::restore(long step, const std::vector<double>& interior) {
  const FieldShape shape = grid_.cell_shape();
  std::vector<double> padded(shape.size(), 0.0);  // ghosts are filled before any use
  std::size_t n = 0;
  for (int v = 0; v < shape.num_vars; ++v)
    for (int k = 0; k < shape.nz; ++k)
      for (int i = 0; i < shape.nx; ++i) padded[shape.offset(v, k, i)] = interior.at(n++);
  device::copy_async(stream_.get(), workspace_.fields().state.data, padded.data(), padded.size() * sizeof(double),
                     device::CopyDirection::host_to_device);
  set_loop_clock(stream_.get(), loop_clock_.data(), step);
  device::synchronize(stream_.get());
  if (batch_left_ > 0) end_batch();
  step_ = step;
}

void Simulation::begin_state_copy() { state_copy_.begin(stream_.get(), workspace_.fields().state.data); }

std::span<const double> Simulation::finish_state_copy() { return state_copy_.collect(); }

void Simulation::reset() {
  if (batch_left_ > 0) end_batch();
  set_initial_state(stream_.get(), workspace_.fields().state, spec_.case_name, grid_.geometry());
  health_.reset(stream_.get());
  set_loop_clock(stream_.get(), loop_clock_.data(), 0);
  device::synchronize(stream_.get());
  step_ = 0;
}

int Simulation::chunk_steps(long completed) const {
  return static_cast<int>(std::min<long>(steps_per_graph_, time_stepping_.num_steps() - completed));
}

ChunkLayout Simulation::layout_after(long completed, int steps) const {
  return chunk_layout(completed, steps, time_stepping_.num_steps(), spec_.execution.check_every);
}

const StepProgram& Simulation::chunk_program(const ChunkLayout& layout) {
  auto found = chunks_.find(layout);
  if (found == chunks_.end()) found = chunks_.emplace(layout, build_chunk_program(resources_, layout)).first;
  return found->second;
}

const GraphLoop& Simulation::loop_graph(StepParity first) {
  auto found = loops_.find(first);
  if (found != loops_.end()) return *found->second;
  LoopControl& control = loop_control_[first == StepParity::odd ? 0 : 1];
  // A checked body starts on a multiple of check_every: its checks follow its steps j with
  // (j + 1) mod check_every = 0.
  ChunkLayout layout{first, loop_body_.steps, {}};
  for (int j = 0; loop_body_.checked && j < loop_body_.steps; ++j)
    if ((j + 1) % spec_.execution.check_every == 0) layout.checked.push_back(j);
  const StepProgram& body =
      loop_bodies_.try_emplace(first, build_loop_body_program(resources_, layout, &control)).first->second;
  CaptureTiming timing;
  auto loop = std::make_unique<GraphLoop>(body, control, stream_.get(), timing);
  ++loop_stats_.captures;
  ++loop_stats_.instantiations;
  loop_stats_.capture_seconds += timing.capture_seconds;
  loop_stats_.instantiate_seconds += timing.instantiate_seconds;
  loop_stats_.nodes_per_graph.push_back(loop->node_count());
  return *loops_.emplace(first, std::move(loop)).first->second;
}

void Simulation::advance_persistent(long steps) {
  for (long done = 0; done < steps;) {  // launches of at most INT_MAX steps
    const int launch = static_cast<int>(std::min<long>(steps - done, std::numeric_limits<int>::max()));
    run_persistent_steps(stream_.get(), persistent_, persistent_grid_, launch);
    ++loop_stats_.launches;
    health_.note_steps(step_, launch);
    step_ += launch;
    done += launch;
  }
}

void Simulation::advance_in_loop(const LoopLaunch& launch) {
  run_chunk_beside_loop(launch.lead_in);
  if (launch.passes > 0) {
    const long steps = launch.passes * loop_body_.steps;
    set_loop_target(stream_.get(), loop_clock_.data(), steps);
    loop_graph(parity_of(step_ + 1)).launch(stream_.get());
    loop_stats_.launches += 2;  // the target kernel and the loop graph
    health_.note_steps(step_, steps);
    step_ += steps;
  }
  run_chunk_beside_loop(launch.rest);
}

void Simulation::run_chunk_beside_loop(long steps) {
  if (steps == 0) return;
  const int chunk = static_cast<int>(steps);
  stage_step_params(chunk);
  executor_->run(chunk_program(layout_after(step_, chunk)), stream_.get());
  add_completed_steps(stream_.get(), loop_clock_.data(), chunk);
  ++loop_stats_.launches;  // the count kernel
  health_.note_steps(step_, chunk);
  step_ += chunk;
}

ExecutorStats Simulation::executor_stats() const {
  ExecutorStats stats = executor_->stats();
  stats.launches += loop_stats_.launches;
  stats.captures += loop_stats_.captures;
  stats.instantiations += loop_stats_.instantiations;
  stats.capture_seconds += loop_stats_.capture_seconds;
  stats.instantiate_seconds += loop_stats_.instantiate_seconds;
  stats.nodes_per_graph.insert(stats.nodes_per_graph.end(), loop_stats_.nodes_per_graph.begin(),
                               loop_stats_.nodes_per_graph.end());
  return stats;
}

long Simulation::prepare_chunk(long completed, long steps) {
  if (steps > 0) executor_->prepare(chunk_program(layout_after(completed, static_cast<int>(steps))), stream_.get());
  return completed + steps;
}

void Simulation::prepare(const std::vector<long>& chunk_ends) {
  if (mode_ != ExecutionMode::graph && mode_ != ExecutionMode::graph_loop) return;  // nothing to capture
  // The chunks advance_chunk will run, as the run loop cuts them: at most up to the next end.
  for (long at = step_; at < time_stepping_.num_steps();) {
    const auto next_end = std::ranges::upper_bound(chunk_ends, at);
    const long span =
        (next_end == chunk_ends.end() ? time_stepping_.num_steps() : std::min(*next_end, time_stepping_.num_steps())) -
        at;
    if (mode_ == ExecutionMode::graph_loop) {  // as one launch of the whole span: the same chunks
      const LoopLaunch launch =
          plan_loop_launch(loop_body_, at, span, span, time_stepping_.num_steps(), spec_.execution.check_every);
      at = prepare_chunk(at, launch.lead_in);
      if (launch.passes > 0) loop_graph(parity_of(at + 1));
      at = prepare_chunk(at + launch.passes * loop_body_.steps, launch.rest);
    } else {
      at = prepare_chunk(at, std::min<long>(span, steps_per_graph_));
    }
  }
}

void Simulation::stage_step_params(int steps) {
  std::vector<StepParams> params(static_cast<std::size_t>(steps));
  for (int j = 0; j < steps; ++j)
    params[j] = step_params(time_stepping_.dt_of(step_ + 1 + j), grid_.dx(), grid_.dz(), spec_.physics);
  params_.stage(params);
}

long Simulation::advance_chunk(long max_steps) {
  const long left = std::min(time_stepping_.num_steps() - step_, max_steps);
  if (left <= 0) return 0;
  if (batch_left_ == 0) {
    batch_left_ = pacing_.next_batch(loops_on_device() ? left : time_stepping_.num_steps() - step_);
    pacing_.batch_starts();
  }
  const long first = step_;
  if (mode_ == ExecutionMode::graph_loop) {
    advance_in_loop(plan_loop_launch(loop_body_, step_, batch_left_, left, time_stepping_.num_steps(),
                                     spec_.execution.check_every));
  } else if (mode_ == ExecutionMode::persistent) {
    advance_persistent(batch_left_);
  } else {
    const int steps = static_cast<int>(std::min<long>(chunk_steps(step_), left));
    stage_step_params(steps);
    executor_->run(chunk_program(layout_after(step_, steps)), stream_.get());
    health_.note_steps(step_, steps);
    step_ += steps;
  }
  const long steps = step_ - first;
  batch_steps_ += steps;
  // In graph_loop and persistent a batch is one launch; graph_loop's, short of the span's end,
  // ends after its last whole pass, at times a few steps short of the pace.
  batch_left_ = loops_on_device() ? 0 : std::max(0L, batch_left_ - steps);
  if (batch_left_ == 0 || finished()) end_batch();
  return steps;
}

void Simulation::end_batch() {
  pacing_.batch_ends(batch_steps_);
  batch_left_ = 0;
  batch_steps_ = 0;
}

std::vector<std::pair<const StepOp*, double>> Simulation::time_next_step() {
  stage_step_params(1);
  std::vector<std::pair<const StepOp*, double>> timings;
  StreamTimer timer(stream_.get());
  for (const StepOp& op : chunk_program(ChunkLayout{parity_of(step_ + 1), 1, {}}).ops()) {
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
  if (loops_on_device()) step_ = loop_clock_.copy_to_host(stream_.get()).front().completed;
  return health_.failure();
}

Diagnostics Simulation::diagnostics() const {
  return reducer_.compute(stream_.get(), workspace_.fields().state, background_.view(), grid_.geometry());
}

std::vector<double> Simulation::state_on_host() const { return workspace_.state_buffer().copy_to_host(stream_.get()); }

std::vector<double> Simulation::gathered_state() const {
  return gather_interior(decomposition_, interior_of(grid_.cell_shape(), state_on_host()));
}

}  // namespace simapp
