#pragma once
/// The atmosphere model in `Dims` dimensions: the 2-D x–z slice (grid.ny = 1) or the 3-D
/// model (grid.ny > 1), its state of type Real (execution.precision). It owns its workspace (the arrays of the run's
/// granularity), StepParams<Dims>, the halo exchanges of the directions split between ranks, the step resources and
/// chunk programs (solver/step/build_step_program.hpp).
#include <memory>

#include "solver/halo/halo_exchange.hpp"
#include "solver/halo/nccl_communicator.hpp"
#include "solver/model/model.hpp"
#include "solver/state/tracer_profiles.hpp"
#include "solver/state/water_fields.hpp"
#include "solver/state/workspace.hpp"
#include "solver/step/build_step_program.hpp"
#include "solver/step/step_params_block.hpp"

namespace simapp {

template <int Dims, class Real = double>
class AtmosphereModel final : public Model {
 public:
  /// Collective over the decomposition's ranks (the halo exchanges' communicators).
  explicit AtmosphereModel(const ModelContext& context);
  AtmosphereModel(const AtmosphereModel&) = delete;
  AtmosphereModel& operator=(const AtmosphereModel&) = delete;
  ~AtmosphereModel() override;

  ChunkPrograms& chunks() override { return chunks_; }
  const StepProgram& first_step() const override { return first_step_; }
  void set_initial_state(const Stream& stream) const override;
  const void* state_data() const override { return workspace_.state_buffer().data(); }
  std::vector<double> state_on_host(const Stream& stream) const override;
  void set_state(const Stream& stream, std::span<const double> padded) const override;
  const InteriorLayout& interior() const override { return interior_; }
  std::vector<double> surface_water_on_host(const Stream& stream) const override {
    return water_.surface_on_host(stream);
  }
  std::span<double> surface_water() const override { return water_.surface_fields(); }
  void set_surface_water(const Stream& stream, std::span<const double> values) const override {
    water_.set_surface(stream, values);
  }
  Diagnostics diagnostics(const Stream& stream) const override;
  void begin_statistics(const Stream& stream) const override;
  FlowStatistics finish_statistics() const override;

 private:
  const RunSpec& spec_;
  CellGeometry<Dims> geometry_;
  HydrostaticView background_;
  const ColumnBackground* column_;  ///< the background's sounding integration (null: an analytic background)
  Workspace<Dims, Real> workspace_;
  StepParamsBlock<Dims> params_;  ///< as many slots as any steps per graph the run may choose (step_params_slots)
  std::unique_ptr<NcclCommunicator> nccl_;                  ///< the nccl path's communicator (when halos are exchanged)
  std::unique_ptr<HaloExchange> halo_x_, halo_y_, halo_z_;  ///< where the direction is split (y: 3-D)
  TracerProfiles tracer_profiles_;
  WaterFields<Dims> water_;  ///< the microphysics' scratch and surface fields (none in a dry run)
  StepResources<Dims, Real> resources_;
  StepProgram first_step_;
  ChunkPrograms chunks_;
  StatisticsReducer diagnostics_;  ///< for diagnostics(), at once
  StatisticsReducer statistics_;   ///< for begin_statistics() and finish_statistics()
  InteriorLayout interior_;
};

extern template class AtmosphereModel<2, double>;
extern template class AtmosphereModel<3, double>;
extern template class AtmosphereModel<2, float>;
extern template class AtmosphereModel<3, float>;

}  // namespace simapp
