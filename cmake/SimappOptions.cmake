# Build options. Every option is prefixed SIMAPP_ and printed in the summary.
set(SIMAPP_ENABLE_CUDA AUTO CACHE STRING "Build the CUDA backend: AUTO (when nvcc is found), ON or OFF")
set_property(CACHE SIMAPP_ENABLE_CUDA PROPERTY STRINGS AUTO ON OFF)
set(SIMAPP_ENABLE_NCCL AUTO CACHE STRING
    "Build NCCL halo exchanges (parallel.halo: nccl) with the CUDA backend: AUTO (when NCCL is found), ON or OFF")
set_property(CACHE SIMAPP_ENABLE_NCCL PROPERTY STRINGS AUTO ON OFF)
option(SIMAPP_ENABLE_TESTS "Build the GoogleTest suite" ON)
option(SIMAPP_WARNINGS_AS_ERRORS "Treat compiler warnings as errors" OFF)
option(SIMAPP_NATIVE "Tune host code for the build machine's processor (-march=native); OFF for portable binaries" ON)
option(SIMAPP_SANITIZE "Build host code with AddressSanitizer and UndefinedBehaviorSanitizer (with SIMAPP_ENABLE_CUDA OFF)"
       OFF)
