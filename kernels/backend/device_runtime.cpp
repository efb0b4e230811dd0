#include "kernels/backend/device_runtime.hpp"

#include <cstdlib>
#include <cstring>
#include <new>
#include <thread>

#include <omp.h>

#include "foundation/error.hpp"
#include "kernels/backend/host_memory.hpp"
#include "kernels/backend/launch_recorder.hpp"

#if SIMAPP_USE_CUDA
#define SIMAPP_CUDA_RUNTIME 1
#include "kernels/backend/cuda_check.hpp"
#endif

namespace simapp::device {

namespace {
constexpr std::size_t host_alignment = 64;

void* allocate_host(std::size_t bytes) {
  const std::size_t rounded = (bytes + host_alignment - 1) / host_alignment * host_alignment;
  void* pointer = std::aligned_alloc(host_alignment, rounded == 0 ? host_alignment : rounded);
  if (pointer == nullptr) throw std::bad_alloc();
  return pointer;
}
}  // namespace

bool cuda_compiled() { return SIMAPP_USE_CUDA != 0; }

#if SIMAPP_USE_CUDA
namespace {
/// A CUDA version code, 1000·major + 10·minor, as "major.minor".
std::string cuda_version_text(int code) { return std::to_string(code / 1000) + "." + std::to_string(code % 1000 / 10); }
}  // namespace
#endif

std::string cuda_runtime_version() {
#if SIMAPP_USE_CUDA
  int code = 0;
  if (cudaRuntimeGetVersion(&code) == cudaSuccess) return cuda_version_text(code);
  return "unknown";
#else
  return "";
#endif
}

std::string cuda_driver_version() {
#if SIMAPP_USE_CUDA
  int code = 0;
  if (cudaDriverGetVersion(&code) != cudaSuccess) return "unknown";
  return code == 0 ? "none" : cuda_version_text(code);
#else
  return "";
#endif
}

void select_device([[maybe_unused]] int index) {
#if SIMAPP_USE_CUDA
  SIMAPP_CUDA_CHECK(cudaSetDevice(index));
#endif
}

int current_device() {
  int device = 0;
#if SIMAPP_USE_CUDA
  SIMAPP_CUDA_CHECK(cudaGetDevice(&device));
#endif
  return device;
}

int device_count() {
#if SIMAPP_USE_CUDA
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    (void)cudaGetLastError();  // no driver or no device: clear the sticky error
    return 0;
  }
  return count;
#else
  return 0;
#endif
}

int multiprocessor_count() {
  int multiprocessors = 0;
#if SIMAPP_USE_CUDA
  SIMAPP_CUDA_CHECK(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, current_device()));
#endif
  return multiprocessors;
}

std::size_t l2_cache_bytes() {
  int bytes = 0;
#if SIMAPP_USE_CUDA
  if (device_count() > 0) SIMAPP_CUDA_CHECK(cudaDeviceGetAttribute(&bytes, cudaDevAttrL2CacheSize, current_device()));
#endif
  return static_cast<std::size_t>(bytes);
}

bool has_thread_block_clusters() {
  int clusters = 0;
#if SIMAPP_USE_CUDA
  if (device_count() > 0)
    SIMAPP_CUDA_CHECK(cudaDeviceGetAttribute(&clusters, cudaDevAttrClusterLaunch, current_device()));
#endif
  return clusters != 0;
}

Backend resolve_backend(BackendChoice choice) {
  switch (choice) {
    case BackendChoice::host: return Backend::host;
    case BackendChoice::automatic: return device_count() > 0 ? Backend::cuda : Backend::host;
    case BackendChoice::cuda:
      if (!cuda_compiled())
        throw Error(ExitCode::bad_input, "execution.backend", "cuda requested but this simapp was built without CUDA");
      if (device_count() == 0)
        throw Error(ExitCode::bad_input, "execution.backend", "cuda requested but no GPU is visible");
      return Backend::cuda;
  }
  return Backend::host;
}

std::string processor_name([[maybe_unused]] Backend backend) {
#if SIMAPP_USE_CUDA
  if (backend == Backend::cuda) {
    int device = 0;
    SIMAPP_CUDA_CHECK(cudaGetDevice(&device));
    cudaDeviceProp properties{};
    SIMAPP_CUDA_CHECK(cudaGetDeviceProperties(&properties, device));
    return std::string(properties.name) + " (device " + std::to_string(device) + ", " +
           std::to_string(properties.multiProcessorCount) + " SMs)";
  }
#endif
  return "CPU, " + std::to_string(omp_get_max_threads()) + " OpenMP threads";
}

std::size_t available_memory(Backend backend) {
#if SIMAPP_USE_CUDA
  if (backend == Backend::cuda) {
    std::size_t free = 0, total = 0;
    SIMAPP_CUDA_CHECK(cudaMemGetInfo(&free, &total));
    return free;
  }
#endif
  (void)backend;
  return host_memory_room().node;
}

void* allocate(Backend backend, std::size_t bytes) {
#if SIMAPP_USE_CUDA
  if (backend == Backend::cuda) {
    void* pointer = nullptr;
    SIMAPP_CUDA_CHECK(cudaMalloc(&pointer, bytes));
    return pointer;
  }
#endif
  (void)backend;
  return allocate_host(bytes);
}

void deallocate(Backend backend, void* pointer) noexcept {
#if SIMAPP_USE_CUDA
  if (backend == Backend::cuda) {
    cudaFree(pointer);
    return;
  }
#endif
  (void)backend;
  std::free(pointer);
}

void* allocate_pinned(Backend backend, std::size_t bytes) {
#if SIMAPP_USE_CUDA
  if (backend == Backend::cuda) {
    void* pointer = nullptr;
    SIMAPP_CUDA_CHECK(cudaMallocHost(&pointer, bytes));
    return pointer;
  }
#endif
  (void)backend;
  return allocate_host(bytes);
}

void deallocate_pinned(Backend backend, void* pointer) noexcept {
#if SIMAPP_USE_CUDA
  if (backend == Backend::cuda) {
    cudaFreeHost(pointer);
    return;
  }
#endif
  (void)backend;
  std::free(pointer);
}

#if SIMAPP_USE_CUDA
namespace {

cudaMemcpyKind memcpy_kind(CopyDirection direction) {
  switch (direction) {
    case CopyDirection::host_to_device: return cudaMemcpyHostToDevice;
    case CopyDirection::device_to_host: return cudaMemcpyDeviceToHost;
    case CopyDirection::device_to_device: break;
  }
  return cudaMemcpyDeviceToDevice;
}

}  // namespace
#endif

void copy_async(const Stream& stream, void* destination, const void* source, std::size_t bytes,
                [[maybe_unused]] CopyDirection direction) {
#if SIMAPP_USE_CUDA
  if (stream.backend == Backend::cuda) {
    SIMAPP_CUDA_CHECK(cudaMemcpyAsync(destination, source, bytes, memcpy_kind(direction), stream.cuda_stream));
    return;
  }
#endif
  if (stream.recorder != nullptr) {
    stream.recorder->record([=] { std::memcpy(destination, source, bytes); });
    return;
  }
  std::memcpy(destination, source, bytes);
}

void copy_rows_async(const Stream& stream, void* destination, std::size_t destination_pitch, const void* source,
                     std::size_t source_pitch, std::size_t row_bytes, std::size_t rows,
                     [[maybe_unused]] CopyDirection direction) {
#if SIMAPP_USE_CUDA
  if (stream.backend == Backend::cuda) {
    SIMAPP_CUDA_CHECK(cudaMemcpy2DAsync(destination, destination_pitch, source, source_pitch, row_bytes, rows,
                                        memcpy_kind(direction), stream.cuda_stream));
    return;
  }
#endif
  const auto copy = [=] {
    for (std::size_t row = 0; row < rows; ++row)
      std::memcpy(static_cast<char*>(destination) + row * destination_pitch,
                  static_cast<const char*>(source) + row * source_pitch, row_bytes);
  };
  if (stream.recorder != nullptr) {
    stream.recorder->record(copy);
    return;
  }
  copy();
}

CUevent_st* create_event([[maybe_unused]] Backend backend) {
#if SIMAPP_USE_CUDA
  if (backend == Backend::cuda) {
    cudaEvent_t event = nullptr;
    SIMAPP_CUDA_CHECK(cudaEventCreateWithFlags(&event, cudaEventDisableTiming));
    return event;
  }
#endif
  return nullptr;
}

void destroy_event([[maybe_unused]] CUevent_st* event) noexcept {
#if SIMAPP_USE_CUDA
  if (event != nullptr) cudaEventDestroy(event);
#endif
}

void record_event([[maybe_unused]] const Stream& stream, [[maybe_unused]] CUevent_st* event) {
#if SIMAPP_USE_CUDA
  if (event == nullptr) return;
  cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
  SIMAPP_CUDA_CHECK(cudaStreamIsCapturing(stream.cuda_stream, &capture));
  // Captured: an external event-record node, so the host can wait on it when the graph runs.
  if (capture == cudaStreamCaptureStatusActive)
    SIMAPP_CUDA_CHECK(cudaEventRecordWithFlags(event, stream.cuda_stream, cudaEventRecordExternal));
  else
    SIMAPP_CUDA_CHECK(cudaEventRecord(event, stream.cuda_stream));
#endif
}

void wait_for_event([[maybe_unused]] CUevent_st* event) {
#if SIMAPP_USE_CUDA
  if (event != nullptr) SIMAPP_CUDA_CHECK(cudaEventSynchronize(event));
#endif
}

void stream_wait_event([[maybe_unused]] const Stream& stream, [[maybe_unused]] CUevent_st* event) {
#if SIMAPP_USE_CUDA
  if (event != nullptr) SIMAPP_CUDA_CHECK(cudaStreamWaitEvent(stream.cuda_stream, event, 0));
#endif
}

Stream create_stream(Backend backend) {
  Stream stream{backend, nullptr, nullptr};
#if SIMAPP_USE_CUDA
  if (backend == Backend::cuda)
    SIMAPP_CUDA_CHECK(cudaStreamCreateWithFlags(&stream.cuda_stream, cudaStreamNonBlocking));
#endif
  return stream;
}

void destroy_stream([[maybe_unused]] const Stream& stream) noexcept {
#if SIMAPP_USE_CUDA
  if (stream.backend == Backend::cuda && stream.cuda_stream != nullptr) cudaStreamDestroy(stream.cuda_stream);
#endif
}

void synchronize([[maybe_unused]] const Stream& stream) {
#if SIMAPP_USE_CUDA
  if (stream.backend == Backend::cuda) SIMAPP_CUDA_CHECK(cudaStreamSynchronize(stream.cuda_stream));
#endif
}

}  // namespace simapp::device
