#include "solver/step/step_params_block.hpp"

#include <algorithm>

namespace simapp {

StepParamsBlock::StepParamsBlock(const Stream& stream, int slots)
    : stream_(stream),
      device_(stream.backend, static_cast<std::size_t>(slots)),
      pinned_(static_cast<StepParams*>(device::allocate_pinned(stream.backend, sizeof(StepParams) * slots))) {
  std::fill_n(pinned_, slots, StepParams{});
}

StepParamsBlock::~StepParamsBlock() { device::deallocate_pinned(stream_.backend, pinned_); }

void StepParamsBlock::stage(std::span<const StepParams> values) {
  const bool unchanged = std::equal(values.begin(), values.end(), pinned_,
                                    [](const StepParams& a, const StepParams& b) { return a.dt == b.dt; });
  if (unchanged) return;
  device::synchronize(stream_);
  std::copy(values.begin(), values.end(), pinned_);
}

void StepParamsBlock::enqueue_refresh(const Stream& stream, int count) const {
  device::copy_async(stream, device_.data(), pinned_, sizeof(StepParams) * count,
                     device::CopyDirection::host_to_device);
}

}  // namespace simapp
