#include "solver/model/model_3d.hpp"

#include "kernels/boundary/boundary_conditions.hpp"
#include "kernels/initial_conditions/case_boundaries.hpp"
#include "kernels/initial_conditions/case_profile.hpp"
#include "kernels/initial_conditions/initial_state.hpp"
#include "kernels/initial_conditions/tracer_initial_state.hpp"
#include "solver/executor/executor_factory.hpp"
#include "solver/halo/rank_boundaries.hpp"

namespace simapp {

namespace {

std::unique_ptr<NcclCommunicator> nccl_communicator_if(HaloPath path, const Decomposition& decomposition) {
  if (path != HaloPath::nccl || decomposition.size() == 1) return nullptr;
  require_one_gpu_per_rank(decomposition.comm());
  return std::make_unique<NcclCommunicator>(decomposition.comm());
}

/// The exchange along `direction` where the decomposition splits it.
std::unique_ptr<HaloExchange> exchange_if(bool split, const ModelContext& context, Direction direction,
                                          const NcclCommunicator* nccl) {
  if (!split) return nullptr;
  return std::make_unique<HaloExchange>(context.decomposition, direction, context.grid.cell_shape<3>(),
                                        context.stream.backend, context.halo_path, nccl);
}

StatisticsReducer statistics_reducer(const ModelContext& context) {
  const CellGeometry<3> geometry = context.grid.geometry<3>();
  return StatisticsReducer(context.stream.backend,
                           std::int64_t{context.grid.nx()} * context.grid.ny() * context.grid.nz(),
                           geometry.dx * geometry.dy * geometry.dz, context.time.dt(), context.decomposition.comm());
}

}  // namespace

Model3d::Model3d(const ModelContext& context)
    : spec_(context.spec),
      geometry_(context.grid.geometry<3>()),
      background_(context.background),
      workspace_(context.stream.backend, context.grid, context.spec.execution.granularity),
      params_(context.stream, step_params_slots(context.mode, context.spec.execution)),
      nccl_(nccl_communicator_if(context.halo_path, context.decomposition)),
      halo_x_(exchange_if(context.decomposition.splits_x(), context, Direction::x, nccl_.get())),
      halo_y_(exchange_if(context.decomposition.splits_y(), context, Direction::y, nccl_.get())),
      halo_z_(exchange_if(context.decomposition.splits_z(), context, Direction::z, nccl_.get())),
      tracer_profiles_(context.stream, context.spec.grid, context.grid.nz(), context.background),
      resources_{workspace_.fields(),
                 geometry_,
                 context.background,
                 &params_,
                 gravity_wave_source(context.spec.case_name, configured_bump_3d(context.spec)),
                 context.spec.execution.granularity,
                 periodic_in_y(case_boundaries(context.spec.case_name)),
                 rank_boundaries(periodic_in_y(case_boundaries(context.spec.case_name)), context.grid.box(),
                                 context.grid.spec()),
                 context.health,
                 {context.halo_path, halo_x_.get(), halo_y_.get(), halo_z_.get()},
                 context.spec.parallel.overlap == HaloOverlap::on,
                 tracer_profiles_.view()},
      first_step_(build_step_program_3d(resources_, StepParity::odd, 0)),
      chunks_(resources_, params_, context.time, geometry_, context.spec.physics, context.spec.execution.check_every),
      diagnostics_(statistics_reducer(context)),
      statistics_(statistics_reducer(context)),
      interior_(interior_layout(context.grid.cell_shape<3>())) {}

Model3d::~Model3d() = default;

void Model3d::set_initial_state(const Stream& stream) const {
  set_initial_state_3d(stream, resources_.fields.state, spec_.case_name, configured_bump_3d(spec_), geometry_);
  const FieldView<double, 3> state = resources_.fields.state;
  set_tracer_initial_state(stream, state, tracers_of(state.shape), spec_.grid.tracer_init, spec_.case_name,
                           configured_bump_3d(spec_), geometry_);
}

Diagnostics Model3d::diagnostics(const Stream& stream) const {
  diagnostics_.queue(stream, resources_.fields.state, background_, geometry_);
  return diagnostics_.collect().totals;
}

void Model3d::begin_statistics(const Stream& stream) const {
  statistics_.queue(stream, resources_.fields.state, background_, geometry_);
}

FlowStatistics Model3d::finish_statistics() const { return statistics_.collect(); }

}  // namespace simapp
