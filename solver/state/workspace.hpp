#pragma once
/// Every array a step touches, allocated once at set-up so that nothing is allocated inside
/// a step (and so a captured step is replayable).
#include "kernels/backend/device_buffer.hpp"
#include "kernels/backend/field_view.hpp"
#include "solver/grid/grid.hpp"
#include "solver/spec/execution_mode.hpp"

namespace simapp {

/// Views of the step's arrays. The fine-granularity arrays (face values, d3, tendency) are
/// empty views in a fused or stage run, the flux array in a stage run.
struct StepFields {
  FieldView<double, 2> state;       ///< qⁿ, then qⁿ⁺¹
  FieldView<double, 2> stage1;      ///< q*
  FieldView<double, 2> stage2;      ///< q**
  FieldView<double, 2> flux;        ///< face fluxes
  FieldView<double, 2> face_value;  ///< fine: reconstructed face values
  FieldView<double, 2> face_d3;     ///< fine: third differences at faces
  FieldView<double, 2> tendency;    ///< fine: R(q) of the stage
};

/// The shapes of StepFields' arrays on a grid (data pointers null).
StepFields step_field_shapes(const Grid& grid, Granularity granularity);

class Workspace {
 public:
  Workspace(Backend backend, const Grid& grid, Granularity granularity);

  const StepFields& fields() const { return fields_; }
  const DeviceBuffer<double>& state_buffer() const { return state_; }

 private:
  DeviceBuffer<double> state_, stage1_, stage2_, flux_, face_value_, face_d3_, tendency_;
  StepFields fields_;
};

}  // namespace simapp
