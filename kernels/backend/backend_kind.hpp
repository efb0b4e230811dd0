#pragma once
/// Which processor runs the kernels; chosen at run time (execution.backend).
#include <string_view>

namespace simapp {

/// The backend a run uses.
enum class Backend { host, cuda };

/// The backend a user asks for: `automatic` is CUDA when a GPU is visible, else host.
enum class BackendChoice { automatic, cuda, host };

constexpr std::string_view to_string(Backend backend) { return backend == Backend::cuda ? "cuda" : "host"; }

constexpr std::string_view to_string(BackendChoice choice) {
  switch (choice) {
    case BackendChoice::automatic: return "auto";
    case BackendChoice::cuda: return "cuda";
    case BackendChoice::host: return "host";
  }
  return "auto";
}

}  // namespace simapp
