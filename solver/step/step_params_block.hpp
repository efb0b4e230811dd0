#pragma once
/// The device-resident StepParams the kernels read through a fixed pointer, with the pinned
/// host copy it is refreshed from. Changing a value waits for queued work first, so a step
/// already queued never sees the next step's value; unchanged values cost nothing.
#include "kernels/backend/device_buffer.hpp"
#include "kernels/time/step_params.hpp"

namespace simapp {

class StepParamsBlock {
 public:
  explicit StepParamsBlock(const Stream& stream);
  StepParamsBlock(const StepParamsBlock&) = delete;
  StepParamsBlock& operator=(const StepParamsBlock&) = delete;
  ~StepParamsBlock();

  /// The pointer kernels read (device memory on the CUDA backend).
  const StepParams* device_params() const { return device_.data(); }

  /// Makes the device hold `params` for the work queued after this call.
  void set(const StepParams& params);

 private:
  Stream stream_;
  DeviceBuffer<StepParams> device_;
  StepParams* pinned_ = nullptr;
  bool initialized_ = false;
};

}  // namespace simapp
