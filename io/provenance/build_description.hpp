#pragma once
/// What built this simapp and what it runs with: the compiler, the build type and the flags that
/// shape the code (from CMake at configure time), and the versions of the libraries it loaded
/// (asked of each at run time): HDF5, MPI, the CUDA runtime and driver, NCCL. For the run's
/// header and run.json, where a result's provenance is kept.
#include <string>

#include <nlohmann/json.hpp>

namespace simapp::io {

struct BuildDescription {
  std::string compiler;    ///< "GNU 12.2.0"
  std::string build_type;  ///< CMAKE_BUILD_TYPE
  std::string cxx_flags;
  std::string cuda_flags;    ///< empty without the CUDA backend
  bool native = false;       ///< SIMAPP_NATIVE: host code tuned for the build machine (-march=native)
  std::string hdf5;          ///< "1.10.8", and "(parallel)" for a parallel HDF5
  std::string mpi;           ///< MPI_Get_library_version's text
  std::string cuda_runtime;  ///< empty without the CUDA backend
  std::string cuda_driver;   ///< the CUDA version the driver supports; "none": no driver
  std::string nccl;          ///< empty without NCCL
};

/// This simapp's (after MPI_Init).
BuildDescription this_build();

/// The header's line on the build: "GNU 12.2.0, Release, C++ -O3 -DNDEBUG -ffp-contract=off
/// -march=native (SIMAPP_NATIVE on)" and the CUDA flags where CUDA is built.
std::string describe_compilation(const BuildDescription& build);
/// The header's line on the libraries: "HDF5 1.10.8, MPI Open MPI v4.1.4, CUDA not built, NCCL
/// not built" (MPI's text up to its first comma, on one line).
std::string describe_libraries(const BuildDescription& build);

/// run.json's "build": every field, the MPI library's text whole.
nlohmann::ordered_json build_json(const BuildDescription& build);

}  // namespace simapp::io
