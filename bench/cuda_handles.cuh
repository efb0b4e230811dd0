#pragma once
/// RAII owners of the CUDA runtime objects simapp-bench creates: streams, events, graphs and
/// device memory.
#include <cstddef>
#include <utility>

#include <cuda_runtime.h>

#include "bench/bench_cuda_check.cuh"

namespace simapp::bench {

/// Owns one CUDA runtime handle; `destroy` releases it (its status is ignored: a destructor
/// cannot report it, and the process is then either done or already failing).
template <class Handle, cudaError_t (*destroy)(Handle)>
class Owned {
 public:
  Owned() = default;
  explicit Owned(Handle handle) : handle_(handle) {}
  Owned(const Owned&) = delete;
  Owned& operator=(const Owned&) = delete;
  Owned(Owned&& other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}
  Owned& operator=(Owned&& other) noexcept {
    if (this != &other) {
      reset();
      handle_ = std::exchange(other.handle_, nullptr);
    }
    return *this;
  }
  ~Owned() { reset(); }

  Handle get() const { return handle_; }
  void reset() {
    if (handle_ != nullptr) static_cast<void>(destroy(std::exchange(handle_, nullptr)));
  }

 private:
  Handle handle_ = nullptr;
};

using Stream = Owned<cudaStream_t, cudaStreamDestroy>;
using Event = Owned<cudaEvent_t, cudaEventDestroy>;
using Graph = Owned<cudaGraph_t, cudaGraphDestroy>;
using GraphExec = Owned<cudaGraphExec_t, cudaGraphExecDestroy>;
using DevicePointer = Owned<void*, cudaFree>;

/// A new non-blocking stream (no implicit sync with the legacy default stream).
inline Stream make_stream() {
  cudaStream_t stream = nullptr;
  BENCH_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  return Stream(stream);
}

/// A new timing event.
inline Event make_event() {
  cudaEvent_t event = nullptr;
  BENCH_CUDA_CHECK(cudaEventCreate(&event));
  return Event(event);
}

/// Device memory for `count` floats.
inline DevicePointer make_device_floats(int count) {
  void* data = nullptr;
  BENCH_CUDA_CHECK(cudaMalloc(&data, sizeof(float) * static_cast<std::size_t>(count)));
  return DevicePointer(data);
}

}  // namespace simapp::bench
