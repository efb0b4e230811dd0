#include "io/provenance/build_description.hpp"

#include <hdf5.h>
#include <mpi.h>

#include <algorithm>
#include <string_view>

#include <fmt/format.h>

#include "kernels/backend/device_runtime.hpp"
#include "simapp_version.hpp"
#include "solver/halo/nccl_communicator.hpp"

namespace simapp::io {

namespace {

std::string hdf5_version() {
  unsigned major = 0, minor = 0, release = 0;
  if (H5get_libversion(&major, &minor, &release) < 0) return "unknown";
#ifdef H5_HAVE_PARALLEL
  return fmt::format("{}.{}.{} (parallel)", major, minor, release);
#else
  return fmt::format("{}.{}.{}", major, minor, release);
#endif
}

std::string mpi_library_version() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int length = 0;
  if (MPI_Get_library_version(text, &length) != MPI_SUCCESS) return "unknown";
  std::string version(text, static_cast<std::size_t>(std::max(length, 0)));
  version.erase(version.find_last_not_of(std::string_view(" \t\n\r\0", 5)) + 1);
  return version;
}

}  // namespace

BuildDescription this_build() {
  return {build_info::compiler,
          build_info::build_type,
          build_info::cxx_flags,
          build_info::cuda_flags,
          build_info::native,
          hdf5_version(),
          mpi_library_version(),
          device::cuda_runtime_version(),
          device::cuda_driver_version(),
          nccl_version()};
}

std::string describe_compilation(const BuildDescription& build) {
  std::string text = fmt::format("{}, {}, C++ {} (SIMAPP_NATIVE {})", build.compiler,
                                 build.build_type.empty() ? "no build type" : build.build_type, build.cxx_flags,
                                 build.native ? "on" : "off");
  if (!build.cuda_flags.empty()) text += ", CUDA " + build.cuda_flags;
  return text;
}

std::string describe_libraries(const BuildDescription& build) {
  const std::string mpi = build.mpi.substr(0, build.mpi.find_first_of(",\n"));
  std::string text = fmt::format("HDF5 {}, MPI {}", build.hdf5, mpi);
  text += build.cuda_runtime.empty()
              ? ", CUDA not built"
              : fmt::format(", CUDA runtime {} (driver {})", build.cuda_runtime, build.cuda_driver);
  text += build.nccl.empty() ? ", NCCL not built" : ", NCCL " + build.nccl;
  return text;
}

nlohmann::ordered_json build_json(const BuildDescription& build) {
  const auto or_null = [](const std::string& text) {
    return text.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(text);
  };
  return {
      {"compiler", build.compiler},
      {"build_type", build.build_type},
      {"cxx_flags", build.cxx_flags},
      {"cuda_flags", or_null(build.cuda_flags)},
      {"native", build.native},
      {"hdf5", build.hdf5},
      {"mpi", build.mpi},
      {"cuda_runtime", or_null(build.cuda_runtime)},
      {"cuda_driver", or_null(build.cuda_driver)},
      {"nccl", or_null(build.nccl)},
  };
}

}  // namespace simapp::io
