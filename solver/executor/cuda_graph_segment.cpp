/// CUDA graphs for captured segments: stream capture (thread-local mode), one instantiation
/// with upload, replay by cudaGraphLaunch. In a program with lanes every lane is captured
/// from a stream of its own, forked from and joined back to the capturing stream with
/// events, so the graph holds the lanes as parallel branches. Lane 0 carries the critical
/// path (halo exchanges, then the work that waits for them): its stream has the device's
/// highest priority, which capture copies into its kernel nodes and the graph keeps
/// (cudaGraphInstantiateFlagUseNodePriority), so an exchange kernel is scheduled ahead of
/// queued blocks of the overlapping interior work instead of after them.
#include <chrono>
#include <string>

#include "kernels/backend/error.hpp"
#include "solver/executor/captured_segment.hpp"

#if SIMAPP_USE_CUDA
#define SIMAPP_CUDA_RUNTIME 1
#include "kernels/backend/cuda_check.hpp"
#endif

namespace simapp {

#if SIMAPP_USE_CUDA

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

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

/// The streams of a capture's lanes (lane 0 at the highest priority) and one event per
/// lane, plus the capturing stream they fork from and join back to.
class CaptureLanes {
 public:
  explicit CaptureLanes(cudaStream_t origin) : origin_(origin) {
    int lowest = 0, highest = 0;
    SIMAPP_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&lowest, &highest));
    for (int lane = 0; lane < max_lanes; ++lane) {
      SIMAPP_CUDA_CHECK(
          cudaStreamCreateWithPriority(&streams_[lane], cudaStreamNonBlocking, lane == 0 ? highest : lowest));
      SIMAPP_CUDA_CHECK(cudaEventCreateWithFlags(&events_[lane], cudaEventDisableTiming));
    }
    SIMAPP_CUDA_CHECK(cudaEventCreateWithFlags(&origin_event_, cudaEventDisableTiming));
  }
  CaptureLanes(const CaptureLanes&) = delete;
  CaptureLanes& operator=(const CaptureLanes&) = delete;
  ~CaptureLanes() {
    for (int lane = 0; lane < max_lanes; ++lane) {
      if (streams_[lane] != nullptr) cudaStreamDestroy(streams_[lane]);
      if (events_[lane] != nullptr) cudaEventDestroy(events_[lane]);
    }
    if (origin_event_ != nullptr) cudaEventDestroy(origin_event_);
  }

  Stream stream(int lane) const { return Stream{Backend::cuda, streams_[lane], nullptr}; }

  /// Every lane continues after what the capturing stream has queued.
  void begin() {
    SIMAPP_CUDA_CHECK(cudaEventRecord(origin_event_, origin_));
    for (int lane = 0; lane < max_lanes; ++lane) SIMAPP_CUDA_CHECK(cudaStreamWaitEvent(streams_[lane], origin_event_, 0));
  }

  /// Every lane continues after what every lane has queued (a Join op).
  void join() {
    for (int lane = 1; lane < max_lanes; ++lane) {
      SIMAPP_CUDA_CHECK(cudaEventRecord(events_[lane], streams_[lane]));
      SIMAPP_CUDA_CHECK(cudaStreamWaitEvent(streams_[0], events_[lane], 0));
    }
    SIMAPP_CUDA_CHECK(cudaEventRecord(events_[0], streams_[0]));
    for (int lane = 1; lane < max_lanes; ++lane) SIMAPP_CUDA_CHECK(cudaStreamWaitEvent(streams_[lane], events_[0], 0));
  }

  /// The capturing stream continues after what every lane has queued.
  void end() {
    for (int lane = 0; lane < max_lanes; ++lane) {
      SIMAPP_CUDA_CHECK(cudaEventRecord(events_[lane], streams_[lane]));
      SIMAPP_CUDA_CHECK(cudaStreamWaitEvent(origin_, events_[lane], 0));
    }
  }

 private:
  cudaStream_t origin_;
  cudaEvent_t origin_event_ = nullptr;
  cudaStream_t streams_[max_lanes] = {};
  cudaEvent_t events_[max_lanes] = {};
};

/// Queues ops [first, last): with lanes, each on its lane's stream, joined at every Join op
/// and at the end; without, all on the capturing stream.
void queue_segment(const StepProgram& program, const Segment& segment, CaptureLanes& lanes, bool use_lanes,
                   cudaStream_t origin) {
  if (use_lanes) lanes.begin();
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
  CaptureLanes lanes(cuda_stream);
  SIMAPP_CUDA_CHECK(cudaStreamBeginCapture(cuda_stream, cudaStreamCaptureModeThreadLocal));
  queue_segment(program, segment, lanes, program.uses_lanes(), cuda_stream);
  cudaGraph_t graph = nullptr;
  const cudaError_t ended = cudaStreamEndCapture(cuda_stream, &graph);
  if (ended != cudaSuccess)
    throw capture_error(program.ops()[segment.last - 1].name, std::string("ending the capture: ") + cudaGetErrorString(ended));
  return graph;
}

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
    cudaGraphDestroy(graph);
    if (instantiated != cudaSuccess || params.result_out != cudaGraphInstantiateSuccess)
      throw capture_error(program.ops()[segment.first].name,
                          std::string("instantiating the graph: ") + cudaGetErrorString(instantiated));
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

#endif

}  // namespace simapp
