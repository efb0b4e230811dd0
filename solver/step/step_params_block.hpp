#pragma once
/// The device-resident StepParams the kernels read through fixed pointers, one slot per step
/// of a chunk (a captured graph may hold several steps), with the pinned host copy they are
/// refreshed from by a copy at the head of each chunk. The host rewrites the pinned copy only
/// when values change, and waits for queued work first, so a chunk already queued (or a graph
/// replay that reads the pinned copy when it runs) never sees the next chunk's values.
#include <span>

#include "kernels/backend/device_buffer.hpp"
#include "kernels/time/step_params.hpp"

namespace simapp {

class StepParamsBlock {
 public:
  StepParamsBlock(const Stream& stream, int slots);
  StepParamsBlock(const StepParamsBlock&) = delete;
  StepParamsBlock& operator=(const StepParamsBlock&) = delete;
  ~StepParamsBlock();

  /// The pointer the kernels of step `slot` of a chunk read (device memory on CUDA).
  const StepParams* device_slot(int slot) const { return device_.data() + slot; }

  /// The slots themselves, for a kernel that computes them on the device (graph_loop).
  StepParams* writable_device_slots() const { return device_.data(); }

  /// Makes the pinned slots [0, values.size()) hold `values`.
  void stage(std::span<const StepParams> values);

  /// Queues the copy of slots [0, count) from pinned host memory to the device; capturable.
  void enqueue_refresh(const Stream& stream, int count) const;

 private:
  Stream stream_;
  DeviceBuffer<StepParams> device_;
  StepParams* pinned_ = nullptr;
};

}  // namespace simapp
