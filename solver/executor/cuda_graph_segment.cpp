/// CUDA graphs for captured segments: stream capture (thread-local mode), one instantiation
/// with upload, replay by cudaGraphLaunch. In a program with lanes every lane is captured
/// from a stream of its own (LaneStreams), forked from and joined back to the capturing
/// stream with events, so the graph holds the lanes as parallel branches. Lane 0's stream
/// has the device's highest priority, which capture copies into its kernel nodes and the
/// graph keeps (cudaGraphInstantiateFlagUseNodePriority), so an exchange kernel is scheduled
/// ahead of queued blocks of the overlapping interior work instead of after them.
#include <chrono>
#include <string>

#include "foundation/error.hpp"
#include "foundation/host_clock.hpp"
#include "solver/executor/captured_segment.hpp"

#if SIMAPP_USE_CUDA
#define SIMAPP_CUDA_RUNTIME 1
#include "kernels/backend/cuda_check.hpp"
#include "solver/executor/graph_instantiate_error.hpp"
#include "solver/executor/lane_streams.hpp"
#endif

namespace simapp {

#if SIMAPP_USE_CUDA

namespace {

Error capture_error(const std::string& op, const std::string& what) {
  return Error(ExitCode::internal, "graph capture", "op '" + op + "': " + what);
}

/// Ends a capture that failed and discards what it recorded.
void abandon_capture(cudaStream_t stream) {
  cudaGraph_t partial = nullptr;
  cudaStreamEndCapture(stream, &partial);
  if (partial != nullptr) cudaGraphDestroy(partial);
  (void)cudaGetLastError();
}

/// Queues ops [first, last): with lanes, each on its lane's stream, joined at every Join op
/// and at the end; without, all on the capturing stream.
void queue_segment(const StepProgram& program, const Segment& segment, LaneStreams& lanes, bool use_lanes,
                   cudaStream_t origin) {
  if (use_lanes) lanes.begin(program.lanes());
  const Stream capturing{Backend::cuda, origin, nullptr};
  for (std::size_t index = segment.first; index < segment.last; ++index) {
    const StepOp& op = program.ops()[index];
    try {
      if (op.kind == OpKind::join) {
        if (use_lanes) lanes.join();
      } else {
        op.run(use_lanes ? lanes.stream(op.lane) : capturing);
      }
    } catch (const std::exception& e) {
      abandon_capture(origin);
      throw capture_error(op.name, e.what());
    }
    cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
    const cudaError_t query = cudaStreamIsCapturing(origin, &status);
    if (query != cudaSuccess || status != cudaStreamCaptureStatusActive) {
      abandon_capture(origin);
      throw capture_error(op.name, query != cudaSuccess ? cudaGetErrorString(query) : "the capture was invalidated");
    }
  }
  if (use_lanes) lanes.end();
}

/// Records ops [first, last) into a graph; names the op that failed or broke the capture.
cudaGraph_t record_graph(const StepProgram& program, const Segment& segment, const Stream& stream) {
  cudaStream_t cuda_stream = stream.cuda_stream;
  LaneStreams lanes(cuda_stream);
  SIMAPP_CUDA_CHECK(cudaStreamBeginCapture(cuda_stream, cudaStreamCaptureModeThreadLocal));
  queue_segment(program, segment, lanes, program.uses_lanes(), cuda_stream);
  cudaGraph_t graph = nullptr;
  const cudaError_t ended = cudaStreamEndCapture(cuda_stream, &graph);
  if (ended != cudaSuccess)
    throw capture_error(program.ops()[segment.last - 1].name,
                        std::string("ending the capture: ") + cudaGetErrorString(ended));
  return graph;
}

}  // namespace

void capture_into_cuda_graph(const StepProgram& program, const Segment& segment, const Stream& stream, void* graph) {
  cudaStream_t cuda_stream = stream.cuda_stream;
  LaneStreams lanes(cuda_stream);
  SIMAPP_CUDA_CHECK(cudaStreamBeginCaptureToGraph(cuda_stream, static_cast<cudaGraph_t>(graph), nullptr, nullptr, 0,
                                                  cudaStreamCaptureModeThreadLocal));
  queue_segment(program, segment, lanes, program.uses_lanes(), cuda_stream);
  cudaGraph_t captured = nullptr;
  const cudaError_t ended = cudaStreamEndCapture(cuda_stream, &captured);
  if (ended != cudaSuccess)
    throw capture_error(program.ops()[segment.last - 1].name,
                        std::string("ending the capture: ") + cudaGetErrorString(ended));
}

namespace {

class CudaGraphSegment final : public CapturedSegment {
 public:
  CudaGraphSegment(const StepProgram& program, const Segment& segment, const Stream& stream, CaptureTiming& timing) {
    auto start = std::chrono::steady_clock::now();
    cudaGraph_t graph = record_graph(program, segment, stream);
    timing.capture_seconds = seconds_since(start);
    SIMAPP_CUDA_CHECK(cudaGraphGetNodes(graph, nullptr, &nodes_));

    start = std::chrono::steady_clock::now();
    cudaGraphInstantiateParams params{};
    params.flags = cudaGraphInstantiateFlagUpload | cudaGraphInstantiateFlagUseNodePriority;
    params.uploadStream = stream.cuda_stream;
    const cudaError_t instantiated = cudaGraphInstantiateWithParams(&exec_, graph, &params);
    const bool failed = instantiated != cudaSuccess || params.result_out != cudaGraphInstantiateSuccess;
    const std::string failure = failed ? graph_instantiate_error(instantiated, params) : std::string();
    cudaGraphDestroy(graph);
    if (failed) throw capture_error(program.ops()[segment.first].name, "instantiating the graph: " + failure);
    SIMAPP_CUDA_CHECK(cudaStreamSynchronize(stream.cuda_stream));  // the upload
    timing.instantiate_seconds = seconds_since(start);
  }
  CudaGraphSegment(const CudaGraphSegment&) = delete;
  CudaGraphSegment& operator=(const CudaGraphSegment&) = delete;
  ~CudaGraphSegment() override { cudaGraphExecDestroy(exec_); }

  void replay(const Stream& stream) const override { SIMAPP_CUDA_CHECK(cudaGraphLaunch(exec_, stream.cuda_stream)); }
  std::size_t node_count() const override { return nodes_; }

 private:
  cudaGraphExec_t exec_ = nullptr;
  std::size_t nodes_ = 0;
};

}  // namespace

std::unique_ptr<CapturedSegment> capture_cuda_segment(const StepProgram& program, const Segment& segment,
                                                      const Stream& stream, CaptureTiming& timing) {
  return std::make_unique<CudaGraphSegment>(program, segment, stream, timing);
}

#else

std::unique_ptr<CapturedSegment> capture_cuda_segment(const StepProgram&, const Segment&, const Stream&,
                                                      CaptureTiming&) {
  throw Error(ExitCode::internal, "graph capture", "this simapp was built without CUDA");
}

void capture_into_cuda_graph(const StepProgram&, const Segment&, const Stream&, void*) {
  throw Error(ExitCode::internal, "graph capture", "this simapp was built without CUDA");
}

#endif

}  // namespace simapp
