#include "solver/model/atmosphere_model.hpp"

#include <algorithm>

#include "kernels/initial_conditions/initial_state.hpp"
#include "kernels/initial_conditions/tracer_initial_state.hpp"
#include "solver/column/column_initial_state.hpp"
#include "solver/executor/executor_factory.hpp"
#include "solver/step/step_outline.hpp"

namespace simapp {

namespace {

std::unique_ptr<NcclCommunicator> nccl_communicator_if(HaloPath path, const Decomposition& decomposition) {
  if (path != HaloPath::nccl || decomposition.size() == 1) return nullptr;
  require_one_gpu_per_rank(decomposition.comm());
  return std::make_unique<NcclCommunicator>(decomposition.comm());
}

/// The exchange along `direction` where the decomposition splits it.
template <int Dims>
std::unique_ptr<HaloExchange> exchange_if(bool split, const ModelContext& context, Direction direction,
                                          const NcclCommunicator* nccl) {
  if (!split) return nullptr;
  return std::make_unique<HaloExchange>(context.decomposition, direction, context.grid.cell_shape<Dims>(),
                                        context.stream.backend, context.halo_path, nccl,
                                        context.spec.execution.precision);
}

/// The step resources of the model's arrays, step values and exchanges.
template <int Dims, class Real>
StepResources<Dims, Real> resources_of(const ModelContext& context, const Workspace<Dims, Real>& workspace,
                                       const StepParamsBlock<Dims>& params, const TracerProfiles& tracers,
                                       const WaterFields<Dims>& water, const HaloExchange* x, const HaloExchange* y,
                                       const HaloExchange* z) {
  GhostFill<Dims> fill = ghost_fill<Dims>(context.spec, context.decomposition, context.halo_path);
  fill.x = x;
  fill.y = y;
  fill.z = z;
  StepResources<Dims, Real> resources = described_resources<Dims, Real>(context.spec, context.grid, fill);
  resources.fields = workspace.fields();
  resources.background = context.background;
  resources.params = &params;
  resources.health = context.health;
  resources.tracers = tracers.view();
  if (resources.microphysics.every > 0) {
    MicrophysicsArguments<Dims, Real>& microphysics = resources.microphysics;
    microphysics.state = resources.fields.state;
    microphysics.background = context.background;
    microphysics.water_background = resources.tracers;  // the water's profiles are the first
    microphysics.scratch = water.scratch();
    microphysics.surface = water.surface();
  }
  return resources;
}

template <int Dims>
StatisticsReducer statistics_reducer(const ModelContext& context) {
  const CellGeometry<Dims> geometry = context.grid.geometry<Dims>();
  const VarRange tracers = tracers_of(context.grid.cell_shape<Dims>());
  const int tracer_count = tracers.last - tracers.first;
  const int water = context.spec.grid.microphysics != Microphysics::none ? water_tracers : 0;
  const std::int64_t columns = std::int64_t{context.grid.nx()} * (Dims == 3 ? context.grid.ny() : 1);
  if constexpr (Dims == 3)
    return StatisticsReducer(context.stream.backend, columns * context.grid.nz(),
                             geometry.dx * geometry.dy * geometry.dz, context.time.dt(), tracer_count,
                             context.decomposition.comm(), water, columns, geometry.dx * geometry.dy);
  else
    return StatisticsReducer(context.stream.backend, columns * context.grid.nz(), geometry.dx * geometry.dz,
                             context.time.dt(), tracer_count, context.decomposition.comm(), water, columns,
                             geometry.dx);
}

}  // namespace

template <int Dims, class Real>
AtmosphereModel<Dims, Real>::AtmosphereModel(const ModelContext& context)
    : spec_(context.spec),
      geometry_(context.grid.geometry<Dims>()),
      background_(context.background),
      column_(context.column),
      workspace_(context.stream.backend, context.grid, context.spec.execution.granularity),
      params_(context.stream, step_params_slots(context.mode, context.spec.execution)),
      nccl_(nccl_communicator_if(context.halo_path, context.decomposition)),
      halo_x_(exchange_if<Dims>(context.decomposition.splits_x(), context, Direction::x, nccl_.get())),
      halo_y_(exchange_if<Dims>(context.decomposition.splits_y(), context, Direction::y, nccl_.get())),
      halo_z_(exchange_if<Dims>(context.decomposition.splits_z(), context, Direction::z, nccl_.get())),
      tracer_profiles_(context.stream, context.spec.grid, context.grid.nz(), context.background,
                       context.column ? &context.column->water : nullptr),
      water_(context.stream, context.grid.cell_shape<Dims>(), context.spec.grid.microphysics != Microphysics::none),
      resources_(resources_of(context, workspace_, params_, tracer_profiles_, water_, halo_x_.get(), halo_y_.get(),
                              halo_z_.get())),
      first_step_(build_step_program(resources_, StepParity::odd, 0)),
      chunks_(resources_, params_, context.time, context.spec.physics),
      diagnostics_(statistics_reducer<Dims>(context)),
      statistics_(statistics_reducer<Dims>(context)),
      interior_(interior_layout(context.grid.cell_shape<Dims>())) {}

template <int Dims, class Real>
AtmosphereModel<Dims, Real>::~AtmosphereModel() = default;

template <int Dims, class Real>
void AtmosphereModel<Dims, Real>::set_initial_state(const Stream& stream) const {
  const FieldView<Real, Dims> state = resources_.fields.state;
  const bool water = spec_.grid.microphysics != Microphysics::none;
  const VarRange tracers = tracers_of(state.shape);
  if (column_) {
    const std::vector<double> interior =
        column_initial_state(*column_, spec_.case_name, configured_bump<Dims>(spec_), geometry_, state.shape,
                             state.shape.num_vars, water ? tracers.first : -1);
    set_state(stream, padded_from(interior_, interior));  // ghosts are filled before any use
  } else {
    simapp::set_initial_state(stream, state, spec_.case_name, configured_bump<Dims>(spec_), geometry_,
                              water ? tracers.first : -1);
  }
  const VarRange passive{tracers.first + (water ? water_tracers : 0), tracers.last};
  set_tracer_initial_state(stream, state, passive, spec_.grid.tracer_init, spec_.case_name,
                           configured_bump<Dims>(spec_), geometry_);
  if (water) water_.set_surface(stream, std::vector<double>(water_.surface_fields().size(), 0.0));
}

template <int Dims, class Real>
std::vector<double> AtmosphereModel<Dims, Real>::state_on_host(const Stream& stream) const {
  const std::vector<Real> values = workspace_.state_buffer().copy_to_host(stream);
  return {values.begin(), values.end()};
}

template <int Dims, class Real>
void AtmosphereModel<Dims, Real>::set_state(const Stream& stream, std::span<const double> padded) const {
  std::vector<Real> values(padded.size());
  std::transform(padded.begin(), padded.end(), values.begin(), [](double value) { return static_cast<Real>(value); });
  device::copy_async(stream, resources_.fields.state.data, values.data(), values.size() * sizeof(Real),
                     device::CopyDirection::host_to_device);
  device::synchronize(stream);
}

template <int Dims, class Real>
Diagnostics AtmosphereModel<Dims, Real>::diagnostics(const Stream& stream) const {
  diagnostics_.queue<Real, Dims>(stream, resources_.fields.state, background_, resources_.tracers, geometry_,
                                 water_.surface());
  return diagnostics_.collect().totals;
}

template <int Dims, class Real>
void AtmosphereModel<Dims, Real>::begin_statistics(const Stream& stream) const {
  statistics_.queue<Real, Dims>(stream, resources_.fields.state, background_, resources_.tracers, geometry_,
                                water_.surface());
}

template <int Dims, class Real>
FlowStatistics AtmosphereModel<Dims, Real>::finish_statistics() const {
  return statistics_.collect();
}

template class AtmosphereModel<2, double>;
template class AtmosphereModel<3, double>;
template class AtmosphereModel<2, float>;
template class AtmosphereModel<3, float>;

}  // namespace simapp
