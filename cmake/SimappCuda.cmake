# Decides whether the CUDA backend is built (SIMAPP_ENABLE_CUDA = AUTO | ON | OFF) and
# provides simapp_use_cuda_language(), which compiles single-source kernel files as CUDA.
include(CheckLanguage)

set(SIMAPP_USE_CUDA OFF)
if(NOT SIMAPP_ENABLE_CUDA STREQUAL "OFF")
  if(NOT CMAKE_CUDA_COMPILER AND EXISTS /usr/local/cuda/bin/nvcc AND NOT DEFINED ENV{CUDACXX})
    set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)
  endif()
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
      set(CMAKE_CUDA_ARCHITECTURES 90)
    endif()
    # One CUDA runtime in every binary: the shared one CUDA::cudart names, never also the
    # static one CMake links into CUDA targets by default.
    set(CMAKE_CUDA_RUNTIME_LIBRARY Shared)
    enable_language(CUDA)
    # C++17 for CUDA sources: CMake 3.25 knows no C++20 flags for nvcc 13; kernel code needs none.
    set(CMAKE_CUDA_STANDARD 17)
    set(CMAKE_CUDA_STANDARD_REQUIRED ON)
    set(CMAKE_CUDA_EXTENSIONS OFF)
    find_package(CUDAToolkit REQUIRED)
    set(SIMAPP_USE_CUDA ON)
  elseif(SIMAPP_ENABLE_CUDA STREQUAL "ON")
    message(FATAL_ERROR "SIMAPP_ENABLE_CUDA=ON but no CUDA compiler (nvcc) was found")
  endif()
endif()

# Single-source kernels: a .cpp that holds parallel_for bodies is compiled as CUDA when the
# CUDA backend is built, and as plain C++ (host loops) otherwise.
function(simapp_use_cuda_language)
  if(SIMAPP_USE_CUDA)
    set_source_files_properties(${ARGN} DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR} PROPERTIES LANGUAGE CUDA)
  endif()
endfunction()
