# Decides whether NCCL halo exchanges are built (SIMAPP_ENABLE_NCCL = AUTO | ON | OFF) and,
# when they are, provides the imported target NCCL::nccl. NCCL ships without a CMake package:
# it is looked for beside the CUDA toolkit, under $NCCL_HOME, and in the system's paths.
set(SIMAPP_USE_NCCL OFF)
if(SIMAPP_USE_CUDA AND NOT SIMAPP_ENABLE_NCCL STREQUAL "OFF")
  find_path(NCCL_INCLUDE_DIR nccl.h HINTS ${CUDAToolkit_INCLUDE_DIRS} ENV NCCL_HOME PATH_SUFFIXES include)
  find_library(NCCL_LIBRARY nccl HINTS ${CUDAToolkit_LIBRARY_DIR} ENV NCCL_HOME PATH_SUFFIXES lib lib64)
  if(NCCL_INCLUDE_DIR AND NCCL_LIBRARY)
    add_library(NCCL::nccl UNKNOWN IMPORTED)
    set_target_properties(NCCL::nccl PROPERTIES IMPORTED_LOCATION ${NCCL_LIBRARY}
                                                INTERFACE_INCLUDE_DIRECTORIES ${NCCL_INCLUDE_DIR})
    set(SIMAPP_USE_NCCL ON)
  endif()
endif()
if(SIMAPP_ENABLE_NCCL STREQUAL "ON" AND NOT SIMAPP_USE_NCCL)
  message(FATAL_ERROR "SIMAPP_ENABLE_NCCL=ON but NCCL (nccl.h, libnccl) was not found with the CUDA backend; "
                      "set NCCL_HOME or NCCL_INCLUDE_DIR and NCCL_LIBRARY")
endif()
