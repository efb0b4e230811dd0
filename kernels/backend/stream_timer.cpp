#include "kernels/backend/stream_timer.hpp"

#if SIMAPP_USE_CUDA
#define SIMAPP_CUDA_RUNTIME 1
#include "kernels/backend/cuda_check.hpp"
#endif

namespace simapp {

StreamTimer::StreamTimer(const Stream& stream) : stream_(stream) {
#if SIMAPP_USE_CUDA
  if (stream_.backend == Backend::cuda) {
    SIMAPP_CUDA_CHECK(cudaEventCreate(&start_event_));
    SIMAPP_CUDA_CHECK(cudaEventCreate(&stop_event_));
  }
#endif
}

StreamTimer::~StreamTimer() {
#if SIMAPP_USE_CUDA
  if (start_event_ != nullptr) cudaEventDestroy(start_event_);
  if (stop_event_ != nullptr) cudaEventDestroy(stop_event_);
#endif
}

void StreamTimer::start() {
#if SIMAPP_USE_CUDA
  if (stream_.backend == Backend::cuda) {
    SIMAPP_CUDA_CHECK(cudaEventRecord(start_event_, stream_.cuda_stream));
    return;
  }
#endif
  host_start_ = std::chrono::steady_clock::now();
}

void StreamTimer::stop() {
#if SIMAPP_USE_CUDA
  if (stream_.backend == Backend::cuda) {
    SIMAPP_CUDA_CHECK(cudaEventRecord(stop_event_, stream_.cuda_stream));
    return;
  }
#endif
  host_stop_ = std::chrono::steady_clock::now();
}

double StreamTimer::seconds() const {
#if SIMAPP_USE_CUDA
  if (stream_.backend == Backend::cuda) {
    SIMAPP_CUDA_CHECK(cudaEventSynchronize(stop_event_));
    float milliseconds = 0.0f;
    SIMAPP_CUDA_CHECK(cudaEventElapsedTime(&milliseconds, start_event_, stop_event_));
    return milliseconds * 1e-3;
  }
#endif
  return std::chrono::duration<double>(host_stop_ - host_start_).count();
}

}  // namespace simapp
