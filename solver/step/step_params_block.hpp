#pragma once
/// The device-resident StepParams<Dims> the kernels read through fixed pointers, one slot per step
/// of a chunk (a captured graph may hold several steps), with the pinned host copy they are
/// refreshed from by a copy at the head of each chunk. The host rewrites the pinned copy only
/// when values change, and waits for queued work first, so a chunk already queued (or a graph
/// replay that reads the pinned copy when it runs) never sees the next chunk's values.
#include <span>

#include "kernels/backend/device_buffer.hpp"
#include "kernels/time/step_params.hpp"

namespace simapp {

/// The block of the step values of the model in `Dims` dimensions (StepParams<Dims>).
template <int Dims>
class StepParamsBlock {
 public:
  using Params = StepParams<Dims>;

  StepParamsBlock(const Stream& stream, int slots);
  StepParamsBlock(const StepParamsBlock&) = delete;
  StepParamsBlock& operator=(const StepParamsBlock&) = delete;
  ~StepParamsBlock();

  /// The pointer the kernels of step `slot` of a chunk read (device memory on CUDA).
  const Params* device_slot(int slot) const { return device_.data() + slot; }
  /// The slots themselves, for a kernel that computes them on the device (graph_loop).
  Params* writable_device_slots() const { return device_.data(); }
  /// Makes the pinned slots [0, values.size()) hold `values`.
  void write_slots(std::span<const Params> values);
  /// Queues the copy of slots [0, count) from pinned host memory to the device; capturable.
  void enqueue_refresh(const Stream& stream, int count) const;

 private:
  Stream stream_;
  DeviceBuffer<Params> device_;
  Params* pinned_ = nullptr;
};

extern template class StepParamsBlock<2>;
extern template class StepParamsBlock<3>;

}  // namespace simapp
