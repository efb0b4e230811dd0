#include "solver/executor/graph_instantiate_error.hpp"

namespace simapp {

namespace {

const char* result_text(cudaGraphInstantiateResult result) {
  switch (result) {
    case cudaGraphInstantiateSuccess: return "success";
    case cudaGraphInstantiateError: return "an error";
    case cudaGraphInstantiateInvalidStructure: return "the graph's structure is invalid";
    case cudaGraphInstantiateNodeOperationNotSupported: return "a node's operation is not supported there";
    case cudaGraphInstantiateMultipleDevicesNotSupported: return "nodes on several devices are not supported there";
#if CUDART_VERSION >= 12040
    case cudaGraphInstantiateConditionalHandleUnused: return "a conditional handle is never set";
#endif
  }
  return "unknown";
}

const char* node_type_text(cudaGraphNodeType type) {
  switch (type) {
    case cudaGraphNodeTypeKernel: return "kernel";
    case cudaGraphNodeTypeMemcpy: return "memcpy";
    case cudaGraphNodeTypeMemset: return "memset";
    case cudaGraphNodeTypeHost: return "host function";
    case cudaGraphNodeTypeGraph: return "child graph";
    case cudaGraphNodeTypeEmpty: return "empty";
    case cudaGraphNodeTypeWaitEvent: return "event wait";
    case cudaGraphNodeTypeEventRecord: return "event record";
    case cudaGraphNodeTypeExtSemaphoreSignal: return "external semaphore signal";
    case cudaGraphNodeTypeExtSemaphoreWait: return "external semaphore wait";
    case cudaGraphNodeTypeMemAlloc: return "memory allocation";
    case cudaGraphNodeTypeMemFree: return "memory free";
    default: return "other";
  }
}

}  // namespace

std::string graph_instantiate_error(cudaError_t error, const cudaGraphInstantiateParams& params) {
  std::string text = std::string(cudaGetErrorString(error)) + " (result: " + result_text(params.result_out);
  cudaGraphNodeType type{};
  if (params.errNode_out != nullptr && cudaGraphNodeGetType(params.errNode_out, &type) == cudaSuccess)
    text += std::string("; the node: ") + node_type_text(type);
  return text + ")";
}

}  // namespace simapp
