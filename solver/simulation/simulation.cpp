#include "solver/simulation/simulation.hpp"

#include <algorithm>

#include "foundation/error.hpp"
#include "kernels/backend/stream_timer.hpp"
#include "kernels/backend/trace_range.hpp"
#include "kernels/initial_conditions/case_profile.hpp"
#include "kernels/initial_conditions/initial_state.hpp"
#include "solver/decomposition/gather_state.hpp"
#include "solver/executor/executor_factory.hpp"
#include "solver/step/step_outline.hpp"
#include "solver/step/steps_per_graph.hpp"

namespace simapp {

namespace {

StepResources resources_for(const RunSpec& spec, const Grid& grid, const StepFields& fields,
                            const HydrostaticView& background, const StepParamsBlock* params, const GhostFill& halo,
                            const HealthCheckOps& health) {
  return {fields,
          grid.geometry(),
          background,
          params,
          gravity_wave_source(spec.case_name, configured_bump(spec)),
          spec.execution.granularity,
          halo,
          health};
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

/// dt of every step, for StepParams made on the device.
TimeSchedule time_schedule(const TimeStepping& time_stepping, const Grid& grid, const Dissipation& physics) {
  return {time_stepping.dt(),
          time_stepping.dt_of(time_stepping.num_steps()),
          time_stepping.num_steps(),
          grid.dx(),
          grid.dz(),
          physics};
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
      params_(stream_.get(), step_params_slots(mode, spec.execution)),
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
      chunks_(resources_, params_, time_stepping_, grid_.dx(), grid_.dz(), spec.physics, spec.execution.check_every),
      executor_(
          make_executor(mode, spec, decomposition,
                        {stream_.get(), chunks_, loop_clock_.data(), time_schedule(time_stepping_, grid_, spec.physics),
                         steps_per_graph_, first_step_.count(OpKind::kernel)})),
      pacing_(stream_.get(), decomposition.comm(), executor_->batch_granule()),
      reducer_(backend, grid_.nz(), decomposition.comm()),
      state_copy_(backend, grid_.cell_shape()) {
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
  pacing_.close_batch();
  step_ = step;
}

void Simulation::begin_state_copy() { state_copy_.begin(stream_.get(), workspace_.fields().state.data); }

std::span<const double> Simulation::finish_state_copy() { return state_copy_.collect(); }

void Simulation::reset() {
  pacing_.close_batch();
  set_initial_state(stream_.get(), workspace_.fields().state, spec_.case_name, configured_bump(spec_),
                    grid_.geometry());
  health_.reset(stream_.get());
  set_loop_clock(stream_.get(), loop_clock_.data(), 0);
  device::synchronize(stream_.get());
  step_ = 0;
}

void Simulation::prepare(const std::vector<long>& chunk_ends) { executor_->prepare(step_, chunk_ends); }

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
  chunks_.stage_params(step_, 1);
  std::vector<std::pair<const StepOp*, double>> timings;
  StreamTimer timer(stream_.get());
  for (const StepOp& op : chunks_.program(ChunkLayout{parity_of(step_ + 1), 1, {}}).ops()) {
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

Diagnostics Simulation::diagnostics() const {
  return reducer_.compute(stream_.get(), workspace_.fields().state, background_.view(), grid_.geometry());
}

std::vector<double> Simulation::state_on_host() const { return workspace_.state_buffer().copy_to_host(stream_.get()); }

std::vector<double> Simulation::gathered_state() const {
  return gather_interior(decomposition_, interior_of(grid_.cell_shape(), state_on_host()));
}

}  // namespace simapp
