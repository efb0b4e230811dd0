#include "solver/model/model_2d.hpp"

#include "kernels/initial_conditions/case_profile.hpp"
#include "kernels/initial_conditions/initial_state.hpp"
#include "kernels/initial_conditions/tracer_initial_state.hpp"
#include "solver/executor/executor_factory.hpp"
#include "solver/step/step_outline.hpp"

namespace simapp {

namespace {

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

std::unique_ptr<HaloExchange> exchange_if(bool needed, const Decomposition& decomposition, Direction direction,
                                          const Grid& grid, Backend backend, HaloPath path,
                                          const NcclCommunicator* nccl) {
  if (!needed) return nullptr;
  return std::make_unique<HaloExchange>(decomposition, direction, grid.cell_shape<2>(), backend, path, nccl);
}

StatisticsReducer statistics_reducer(const ModelContext& context) {
  const CellGeometry<2> geometry = context.grid.geometry<2>();
  return StatisticsReducer(context.stream.backend, std::int64_t{context.grid.nx()} * context.grid.nz(),
                           geometry.dx * geometry.dz, context.time.dt(), context.decomposition.comm());
}

}  // namespace

Model2d::Model2d(const ModelContext& context)
    : spec_(context.spec),
      grid_(context.grid),
      background_(context.background),
      workspace_(context.stream.backend, context.grid, context.spec.execution.granularity),
      params_(context.stream, step_params_slots(context.mode, context.spec.execution)),
      nccl_(nccl_communicator_if(context.halo_path, context.decomposition)),
      halo_x_(exchange_if(context.decomposition.splits_x(), context.decomposition, Direction::x, context.grid,
                          context.stream.backend, context.halo_path, nccl_.get())),
      halo_z_(exchange_if(context.decomposition.splits_z(), context.decomposition, Direction::z, context.grid,
                          context.stream.backend, context.halo_path, nccl_.get())),
      tracer_profiles_(context.stream, context.spec.grid, context.grid.nz(), context.background),
      resources_{workspace_.fields(),
                 context.grid.geometry<2>(),
                 context.background,
                 &params_,
                 gravity_wave_source(context.spec.case_name, configured_bump(context.spec)),
                 context.spec.execution.granularity,
                 ghost_fill_with(context.spec, context.decomposition, context.halo_path, halo_x_.get(), halo_z_.get()),
                 context.health,
                 tracer_profiles_.view()},
      first_step_(build_step_program(resources_, StepParity::odd, 0)),
      chunks_(resources_, params_, context.time, context.grid.dx(), context.grid.dz(), context.spec.physics,
              context.spec.execution.check_every),
      diagnostics_(statistics_reducer(context)),
      statistics_(statistics_reducer(context)),
      interior_(interior_layout(context.grid.cell_shape<2>())) {}

Model2d::~Model2d() = default;

void Model2d::set_initial_state(const Stream& stream) const {
  simapp::set_initial_state(stream, workspace_.fields().state, spec_.case_name, configured_bump(spec_),
                            grid_.geometry<2>());
  const FieldView<double, 2> state = workspace_.fields().state;
  set_tracer_initial_state(stream, state, tracers_of(state.shape), spec_.grid.tracer_init, spec_.case_name,
                           configured_bump(spec_), grid_.geometry<2>());
}

Diagnostics Model2d::diagnostics(const Stream& stream) const {
  diagnostics_.queue(stream, workspace_.fields().state, background_, grid_.geometry<2>());
  return diagnostics_.collect().totals;
}

void Model2d::begin_statistics(const Stream& stream) const {
  statistics_.queue(stream, workspace_.fields().state, background_, grid_.geometry<2>());
}

FlowStatistics Model2d::finish_statistics() const { return statistics_.collect(); }

}  // namespace simapp
