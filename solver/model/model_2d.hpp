#pragma once
/// The 2-D x–z model (grid.ny = 1): its workspace, StepParams<2>, halo exchanges between ranks,
/// step resources and chunk programs (solver/step/build_step_program.hpp).
#include <memory>

#include "solver/halo/halo_exchange.hpp"
#include "solver/halo/nccl_communicator.hpp"
#include "solver/model/model.hpp"
#include "solver/state/tracer_profiles.hpp"
#include "solver/state/workspace.hpp"
#include "solver/step/build_step_program.hpp"
#include "solver/step/step_params_block.hpp"

namespace simapp {

class Model2d final : public Model {
 public:
  /// Collective over the decomposition's ranks (the halo exchanges' communicators).
  explicit Model2d(const ModelContext& context);
  Model2d(const Model2d&) = delete;
  Model2d& operator=(const Model2d&) = delete;
  ~Model2d() override;

  ChunkPrograms& chunks() override { return chunks_; }
  const StepProgram& first_step() const override { return first_step_; }
  void set_initial_state(const Stream& stream) const override;
  const DeviceBuffer<double>& state() const override { return workspace_.state_buffer(); }
  const InteriorLayout& interior() const override { return interior_; }
  Diagnostics diagnostics(const Stream& stream) const override;
  void begin_statistics(const Stream& stream) const override;
  FlowStatistics finish_statistics() const override;

 private:
  const RunSpec& spec_;
  const Grid& grid_;
  HydrostaticView background_;
  Workspace<2> workspace_;
  StepParamsBlock params_;                  ///< as many slots as any K the run may choose (step_params_slots)
  std::unique_ptr<NcclCommunicator> nccl_;  ///< the nccl path's communicator (when halos are exchanged)
  std::unique_ptr<HaloExchange> halo_x_, halo_z_;
  TracerProfiles tracer_profiles_;
  StepResources resources_;
  StepProgram first_step_;
  ChunkPrograms chunks_;
  StatisticsReducer diagnostics_;  ///< for diagnostics(), at once
  StatisticsReducer statistics_;   ///< for begin_statistics() and finish_statistics()
  InteriorLayout interior_;
};

}  // namespace simapp
