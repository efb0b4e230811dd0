#pragma once
/// Macros that let one function body compile for the host and, in CUDA sources, the device.

#if defined(__CUDACC__)
#define SIMAPP_HOST_DEVICE __host__ __device__
#define SIMAPP_LAMBDA [=] __host__ __device__
#else
#define SIMAPP_HOST_DEVICE
#define SIMAPP_LAMBDA [=]
#endif
