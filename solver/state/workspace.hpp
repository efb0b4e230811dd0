#pragma once
/// Every array a step touches, allocated once at set-up so that nothing is allocated inside
/// a step (and so a captured step is replayable).
#include "kernels/backend/device_buffer.hpp"
#include "kernels/backend/field_view.hpp"
#include "solver/grid/grid.hpp"

namespace simapp {

class Workspace {
 public:
  Workspace(Backend backend, const Grid& grid)
      : cell_shape_(grid.cell_shape()),
        face_shape_(grid.face_shape()),
        state_(backend, cell_shape_.size()),
        stage1_(backend, cell_shape_.size()),
        stage2_(backend, cell_shape_.size()),
        flux_(backend, face_shape_.size()) {}

  FieldView<double> state() const { return {state_.data(), cell_shape_}; }   ///< qⁿ, then qⁿ⁺¹
  FieldView<double> stage1() const { return {stage1_.data(), cell_shape_}; } ///< q*
  FieldView<double> stage2() const { return {stage2_.data(), cell_shape_}; } ///< q**
  FieldView<double> flux() const { return {flux_.data(), face_shape_}; }     ///< face fluxes
  const DeviceBuffer<double>& state_buffer() const { return state_; }

 private:
  FieldShape cell_shape_;
  FieldShape face_shape_;
  DeviceBuffer<double> state_, stage1_, stage2_, flux_;
};

}  // namespace simapp
