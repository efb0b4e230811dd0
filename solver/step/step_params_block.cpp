#include "solver/step/step_params_block.hpp"

#include <algorithm>

namespace simapp {

template <int Dims>
StepParamsBlock<Dims>::StepParamsBlock(const Stream& stream, int slots)
    : stream_(stream),
      device_(stream.backend, static_cast<std::size_t>(slots)),
      pinned_(static_cast<Params*>(device::allocate_pinned(stream.backend, sizeof(Params) * slots))) {
  std::fill_n(pinned_, slots, Params{});
}

template <int Dims>
StepParamsBlock<Dims>::~StepParamsBlock() {
  device::deallocate_pinned(stream_.backend, pinned_);
}

template <int Dims>
void StepParamsBlock<Dims>::write_slots(std::span<const Params> values) {
  // A slot's dt decides every other value of it but the microphysics' time.
  const bool unchanged = std::equal(values.begin(), values.end(), pinned_, [](const Params& a, const Params& b) {
    return a.dt == b.dt && a.dt_physics == b.dt_physics;
  });
  if (unchanged) return;
  device::synchronize(stream_);
  std::copy(values.begin(), values.end(), pinned_);
}

template <int Dims>
void StepParamsBlock<Dims>::enqueue_refresh(const Stream& stream, int count) const {
  device::copy_async(stream, device_.data(), pinned_, sizeof(Params) * count, device::CopyDirection::host_to_device);
}

template class StepParamsBlock<2>;
template class StepParamsBlock<3>;

}  // namespace simapp
