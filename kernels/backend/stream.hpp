#pragma once
/// Where kernels run: the backend and, for CUDA, the stream. Plain C++ so that host-only
/// sources can hold one; the CUDA type is named through its opaque struct.

#include "kernels/backend/backend_kind.hpp"

struct CUstream_st;
struct CUevent_st;

namespace simapp {

class LaunchRecorder;

struct Stream {
  Backend backend = Backend::host;
  CUstream_st* cuda_stream = nullptr;  ///< the CUDA stream (nullptr: legacy default stream)
  LaunchRecorder* recorder = nullptr;  ///< host backend: record work instead of running it
};

}  // namespace simapp
