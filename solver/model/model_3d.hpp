#pragma once
/// The 3-D model (grid.ny > 1): the arrays of its granularity (solver/state/workspace_3d.hpp),
/// StepParams<3>, step resources and chunk programs
/// (solver/step/build_step_program_3d.hpp), and the halo exchanges of the directions split
/// between ranks (px × py × pz): x and y periodic (or the case's inflow in x), walls in z.
#include <memory>

#include "solver/halo/halo_exchange.hpp"
#include "solver/halo/nccl_communicator.hpp"
#include "solver/model/model.hpp"
#include "solver/state/tracer_profiles.hpp"
#include "solver/state/workspace.hpp"
#include "solver/step/build_step_program_3d.hpp"
#include "solver/step/step_params_block.hpp"

namespace simapp {

class Model3d final : public Model {
 public:
  /// Collective over the decomposition's ranks (the halo exchanges' communicators).
  explicit Model3d(const ModelContext& context);
  Model3d(const Model3d&) = delete;
  Model3d& operator=(const Model3d&) = delete;
  ~Model3d() override;

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
  CellGeometry<3> geometry_;
  HydrostaticView background_;
  Workspace<3> workspace_;
  StepParamsBlock3d params_;
  std::unique_ptr<NcclCommunicator> nccl_;  ///< the nccl path's communicator (when halos are exchanged)
  std::unique_ptr<HaloExchange> halo_x_, halo_y_, halo_z_;
  TracerProfiles tracer_profiles_;
  StepResources3d resources_;
  StepProgram first_step_;
  ChunkPrograms chunks_;
  StatisticsReducer diagnostics_;  ///< for diagnostics(), at once
  StatisticsReducer statistics_;   ///< for begin_statistics() and finish_statistics()
  InteriorLayout interior_;
};

}  // namespace simapp
