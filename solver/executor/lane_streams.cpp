#define SIMAPP_CUDA_RUNTIME 1
#include "solver/executor/lane_streams.hpp"

#include "kernels/backend/cuda_check.hpp"

namespace simapp {

LaneStreams::LaneStreams(cudaStream_t origin) : origin_(origin) {
  int lowest = 0, highest = 0;
  SIMAPP_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&lowest, &highest));
  for (int lane = 0; lane < max_lanes; ++lane) {
    SIMAPP_CUDA_CHECK(
        cudaStreamCreateWithPriority(&streams_[lane], cudaStreamNonBlocking, lane == 0 ? highest : lowest));
    SIMAPP_CUDA_CHECK(cudaEventCreateWithFlags(&events_[lane], cudaEventDisableTiming));
  }
  SIMAPP_CUDA_CHECK(cudaEventCreateWithFlags(&origin_event_, cudaEventDisableTiming));
}

LaneStreams::~LaneStreams() {
  for (int lane = 0; lane < max_lanes; ++lane) {
    if (streams_[lane] != nullptr) cudaStreamDestroy(streams_[lane]);
    if (events_[lane] != nullptr) cudaEventDestroy(events_[lane]);
  }
  if (origin_event_ != nullptr) cudaEventDestroy(origin_event_);
}

void LaneStreams::begin(int lanes) {
  active_ = lanes;
  SIMAPP_CUDA_CHECK(cudaEventRecord(origin_event_, origin_));
  for (int lane = 0; lane < active_; ++lane) SIMAPP_CUDA_CHECK(cudaStreamWaitEvent(streams_[lane], origin_event_, 0));
}

void LaneStreams::join() {
  for (int lane = 1; lane < active_; ++lane) {
    SIMAPP_CUDA_CHECK(cudaEventRecord(events_[lane], streams_[lane]));
    SIMAPP_CUDA_CHECK(cudaStreamWaitEvent(streams_[0], events_[lane], 0));
  }
  SIMAPP_CUDA_CHECK(cudaEventRecord(events_[0], streams_[0]));
  for (int lane = 1; lane < active_; ++lane) SIMAPP_CUDA_CHECK(cudaStreamWaitEvent(streams_[lane], events_[0], 0));
}

void LaneStreams::end() {
  for (int lane = 0; lane < active_; ++lane) {
    SIMAPP_CUDA_CHECK(cudaEventRecord(events_[lane], streams_[lane]));
    SIMAPP_CUDA_CHECK(cudaStreamWaitEvent(origin_, events_[lane], 0));
  }
}

}  // namespace simapp
