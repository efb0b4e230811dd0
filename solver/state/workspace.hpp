#pragma once
/// Every array a step touches, allocated once at set-up so that nothing is allocated inside a step
/// (and so a captured step is replayable): qⁿ, q*, q** of every granularity, and the fluxes at
/// faces (fused, fine) and the fine granularity's face values, third differences and tendencies
/// (kernels/flux/fluxes.hpp, kernels/update/tendency_update.hpp).
#include <cstddef>

#include "kernels/backend/device_buffer.hpp"
#include "kernels/backend/field_view.hpp"
#include "solver/grid/grid.hpp"
#include "solver/spec/execution_mode.hpp"
#include "solver/spec/precision.hpp"

namespace simapp {

/// Views of the step's arrays in the model of `Dims` dimensions. Those a granularity does not use
/// are empty (null, with a zero shape): the fine-granularity arrays (face values, d3, tendency) in
/// a fused or stage run, the flux array in a stage or pass run. Real: the state's type
/// (execution.precision).
template <int Dims, class Real = double>
struct StepFields {
  FieldView<Real, Dims> state;       ///< qⁿ, then qⁿ⁺¹
  FieldView<Real, Dims> stage1;      ///< q*
  FieldView<Real, Dims> stage2;      ///< q**
  FieldView<Real, Dims> flux;        ///< fused, fine: face fluxes
  FieldView<Real, Dims> face_value;  ///< fine: reconstructed face values
  FieldView<Real, Dims> face_d3;     ///< fine: third differences at faces
  FieldView<Real, Dims> tendency;    ///< fine: R(q) of the stage
};

/// The shapes of the arrays of `granularity` on the rank's grid (data pointers null).
template <int Dims, class Real = double>
StepFields<Dims, Real> step_field_shapes(const Grid& grid, Granularity granularity);

/// Bytes the arrays of `granularity` take on the rank's grid in `precision`.
template <int Dims>
std::size_t step_fields_bytes(const Grid& grid, Granularity granularity, Precision precision);

template <int Dims, class Real = double>
class Workspace {
 public:
  Workspace(Backend backend, const Grid& grid, Granularity granularity);

  const StepFields<Dims, Real>& fields() const { return fields_; }
  const DeviceBuffer<Real>& state_buffer() const { return state_; }

 private:
  DeviceBuffer<Real> state_, stage1_, stage2_, flux_, face_value_, face_d3_, tendency_;
  StepFields<Dims, Real> fields_;
};

}  // namespace simapp
