#pragma once
/// A named range on the profiler's timeline (NVTX, so Nsight Systems shows each op of a step
/// by its name); nothing in a build without CUDA.
#if SIMAPP_USE_CUDA
#include <nvtx3/nvToolsExt.h>
#endif

namespace simapp {

class TraceRange {
 public:
  explicit TraceRange([[maybe_unused]] const char* name) {
#if SIMAPP_USE_CUDA
    nvtxRangePushA(name);
#endif
  }
  TraceRange(const TraceRange&) = delete;
  TraceRange& operator=(const TraceRange&) = delete;
  ~TraceRange() {
#if SIMAPP_USE_CUDA
    nvtxRangePop();
#endif
  }
};

}  // namespace simapp
