#pragma once
/// What went wrong when CUDA refused to instantiate a graph, in words: the error, the
/// instantiation's result and, where CUDA names one, the kind of node it refused (a node that
/// a conditional body may not hold, say). CUDA builds only.
#include <cuda_runtime_api.h>

#include <string>

namespace simapp {

std::string graph_instantiate_error(cudaError_t error, const cudaGraphInstantiateParams& params);

}  // namespace simapp
