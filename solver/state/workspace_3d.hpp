#pragma once
/// The device arrays of the 3-D model's step (grid.ny > 1): qⁿ, q*, q** of every granularity,
/// and the fluxes at faces (fused, fine) and the fine granularity's face values, third
/// differences and tendencies (kernels/flux/fluxes_3d.hpp, kernels/update/tendency_update_3d.hpp).
#include <cstddef>

#include "kernels/backend/device_buffer.hpp"
#include "kernels/backend/field_view.hpp"
#include "solver/grid/grid.hpp"
#include "solver/spec/execution_mode.hpp"

namespace simapp {

/// A granularity's arrays; those it does not use are empty (null, with a zero shape).
struct StepFields3d {
  FieldView<double, 3> state;       ///< qⁿ, then qⁿ⁺¹
  FieldView<double, 3> stage1;      ///< q*
  FieldView<double, 3> stage2;      ///< q**
  FieldView<double, 3> flux;        ///< fused, fine: face fluxes
  FieldView<double, 3> face_value;  ///< fine: reconstructed face values
  FieldView<double, 3> face_d3;     ///< fine: third differences at faces
  FieldView<double, 3> tendency;    ///< fine: R(q) of the stage
};

/// The shapes of the arrays of `granularity` on the rank's grid (data pointers null).
StepFields3d step_field_shapes_3d(const Grid& grid, Granularity granularity);

/// Bytes the arrays of `granularity` take on the rank's grid.
std::size_t step_fields_3d_bytes(const Grid& grid, Granularity granularity);

class Workspace3d {
 public:
  Workspace3d(Backend backend, const Grid& grid, Granularity granularity);

  const StepFields3d& fields() const { return fields_; }
  const DeviceBuffer<double>& state_buffer() const { return state_; }

 private:
  DeviceBuffer<double> state_, stage1_, stage2_, flux_, face_value_, face_d3_, tendency_;
  StepFields3d fields_;
};

}  // namespace simapp
