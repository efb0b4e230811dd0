#pragma once
/// The run-time side of the backend: device discovery, memory, streams and copies, as
/// plain functions so that host-only sources can use them. In a build without CUDA every
/// call works on host memory and no device is ever visible.
#include <cstddef>
#include <string>

#include "kernels/backend/backend_kind.hpp"
#include "kernels/backend/stream.hpp"

namespace simapp::device {

/// Number of visible CUDA devices (0 in a build without CUDA or on a machine without one).
int device_count();

/// Makes device `index` current for this process (before any other CUDA call).
void select_device(int index);

/// The current device's index (0 without CUDA).
int current_device();

/// The current device's multiprocessors (0 without CUDA).
int multiprocessor_count();

/// The current device's L2 cache, bytes (0 without CUDA or a device).
std::size_t l2_cache_bytes();

/// Whether the current device launches thread-block clusters (compute capability 9.0 or newer); false without CUDA
/// or a device.
bool has_thread_block_clusters();

/// True when this binary was built with the CUDA backend.
bool cuda_compiled();

/// The CUDA runtime's version ("12.4"); empty in a build without CUDA.
std::string cuda_runtime_version();
/// The newest CUDA version the installed driver supports ("12.6"); "none" where no driver is
/// installed; empty in a build without CUDA.
std::string cuda_driver_version();

/// The backend a choice resolves to; throws a bad-input Error when CUDA is asked for but
/// unavailable.
Backend resolve_backend(BackendChoice choice);

/// A human-readable name of the processor that runs `backend` (GPU model or CPU threads).
std::string processor_name(Backend backend);

/// Bytes of memory `backend` can still allocate: the current GPU's free memory, or what the
/// node's memory and the process's control group leave (host_memory_room().node).
std::size_t available_memory(Backend backend);

/// Memory that kernels of `backend` can read and write.
void* allocate(Backend backend, std::size_t bytes);
void deallocate(Backend backend, void* pointer) noexcept;

/// Host memory the GPU can copy from asynchronously (plain memory on the host backend).
void* allocate_pinned(Backend backend, std::size_t bytes);
void deallocate_pinned(Backend backend, void* pointer) noexcept;

enum class CopyDirection { host_to_device, device_to_host, device_to_device };

/// Copies `bytes` in stream order; returns before the copy completes on the CUDA backend.
void copy_async(const Stream& stream, void* destination, const void* source, std::size_t bytes,
                CopyDirection direction);

/// Copies `rows` rows of `row_bytes` each, `source_pitch` bytes apart, to rows
/// `destination_pitch` bytes apart, in stream order (cudaMemcpy2DAsync on the CUDA backend).
void copy_rows_async(const Stream& stream, void* destination, std::size_t destination_pitch, const void* source,
                     std::size_t source_pitch, std::size_t row_bytes, std::size_t rows, CopyDirection direction);

/// An event the host can wait on (nullptr on the host backend, where work is done when queued).
CUevent_st* create_event(Backend backend);
void destroy_event(CUevent_st* event) noexcept;
/// Records `event` on `stream`; inside a stream capture it becomes a graph node that records
/// the event each time the graph runs.
void record_event(const Stream& stream, CUevent_st* event);
/// Waits until the work queued before the event's latest recording has finished.
void wait_for_event(CUevent_st* event);
/// Makes the work queued on `stream` from now on wait until the work queued before the event's
/// latest recording has finished (at once when it was never recorded; no-op on the host).
void stream_wait_event(const Stream& stream, CUevent_st* event);

/// A new stream for `backend` (on CUDA: a non-blocking stream on the current device, so that
/// nothing on the legacy default stream can join a capture).
Stream create_stream(Backend backend);
void destroy_stream(const Stream& stream) noexcept;

/// Waits until every piece of work queued on `stream` has finished.
void synchronize(const Stream& stream);

}  // namespace simapp::device
