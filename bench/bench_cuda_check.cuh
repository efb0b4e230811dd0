#pragma once
/// BENCH_CUDA_CHECK: the check of every CUDA runtime call simapp-bench makes.
#include <cuda_runtime.h>

#include "kernels/backend/cuda_check.hpp"

/// Like SIMAPP_CUDA_CHECK, but builds the message only when the call failed: timed loops
/// check every call, and a std::string per call would show up in sub-microsecond numbers.
#define BENCH_CUDA_CHECK(expr)                                                                        \
  do {                                                                                                \
    const cudaError_t bench_status_ = (expr);                                                         \
    if (bench_status_ != cudaSuccess)                                                                 \
      ::simapp::check_cuda(bench_status_, #expr " at " __FILE__ ":" SIMAPP_CUDA_STRINGIFY(__LINE__)); \
  } while (0)
