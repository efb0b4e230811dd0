#pragma once
/// Turns a failed CUDA runtime call into a simapp::Error naming the call and its place.
#if defined(__CUDACC__) || defined(SIMAPP_CUDA_RUNTIME)
#include <cuda_runtime.h>

#include <string>

#include "foundation/error.hpp"

namespace simapp {

/// Throws when `status` is an error; `what` names the call or kernel that returned it.
inline void check_cuda(cudaError_t status, const std::string& what) {
  if (status != cudaSuccess) throw Error(ExitCode::internal, "cuda", what + ": " + cudaGetErrorString(status));
}

}  // namespace simapp

#define SIMAPP_CUDA_STRINGIFY_(x) #x
#define SIMAPP_CUDA_STRINGIFY(x) SIMAPP_CUDA_STRINGIFY_(x)
#define SIMAPP_CUDA_CHECK(expr) ::simapp::check_cuda((expr), #expr " at " __FILE__ ":" SIMAPP_CUDA_STRINGIFY(__LINE__))
#endif
