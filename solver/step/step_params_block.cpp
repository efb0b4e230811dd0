#include "solver/step/step_params_block.hpp"

#include <algorithm>

namespace simapp {

namespace {

/// The step's dt, which decides every other value of a slot.
double dt_of(const StepParams<2>& params) { return params.dt; }
double dt_of(const StepParams<3>& params) { return params.dt; }

}  // namespace

template <class Params>
StepParamsBlockOf<Params>::StepParamsBlockOf(const Stream& stream, int slots)
    : stream_(stream),
      device_(stream.backend, static_cast<std::size_t>(slots)),
      pinned_(static_cast<Params*>(device::allocate_pinned(stream.backend, sizeof(Params) * slots))) {
  std::fill_n(pinned_, slots, Params{});
}

template <class Params>
StepParamsBlockOf<Params>::~StepParamsBlockOf() {
  device::deallocate_pinned(stream_.backend, pinned_);
}

template <class Params>
void StepParamsBlockOf<Params>::stage(std::span<const Params> values) {
  const bool unchanged = std::equal(values.begin(), values.end(), pinned_,
                                    [](const Params& a, const Params& b) { return dt_of(a) == dt_of(b); });
  if (unchanged) return;
  device::synchronize(stream_);
  std::copy(values.begin(), values.end(), pinned_);
}

template <class Params>
void StepParamsBlockOf<Params>::enqueue_refresh(const Stream& stream, int count) const {
  device::copy_async(stream, device_.data(), pinned_, sizeof(Params) * count, device::CopyDirection::host_to_device);
}

template class StepParamsBlockOf<StepParams<2>>;
template class StepParamsBlockOf<StepParams<3>>;

}  // namespace simapp
