#include "solver/step/step_params_block.hpp"

namespace simapp {

StepParamsBlock::StepParamsBlock(const Stream& stream)
    : stream_(stream),
      device_(stream.backend, 1),
      pinned_(static_cast<StepParams*>(device::allocate_pinned(stream.backend, sizeof(StepParams)))) {}

StepParamsBlock::~StepParamsBlock() { device::deallocate_pinned(stream_.backend, pinned_); }

void StepParamsBlock::set(const StepParams& params) {
  if (initialized_ && params.dt == pinned_->dt) return;
  device::synchronize(stream_);
  *pinned_ = params;
  device::copy_async(stream_, device_.data(), pinned_, sizeof(StepParams), device::CopyDirection::host_to_device);
  initialized_ = true;
}

}  // namespace simapp
