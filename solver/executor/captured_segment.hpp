#pragma once
/// A segment of a StepProgram captured once and replayable: a CUDA graph on the CUDA
/// backend, a recorded launch list on the host backend.
#include <memory>

#include "solver/step/step_program.hpp"

namespace simapp {

class CapturedSegment {
 public:
  virtual ~CapturedSegment() = default;
  /// Queues the whole segment on `stream`.
  virtual void replay(const Stream& stream) const = 0;
  /// Graph nodes (kernels and copies) in the segment.
  virtual std::size_t node_count() const = 0;
};

struct CaptureTiming {
  double capture_seconds = 0.0;
  double instantiate_seconds = 0.0;
};

/// Captures ops [segment.first, segment.last) of `program` as queued on `stream`. A failure is
/// an Error naming the op that broke the capture; it never falls back to running eagerly.
std::unique_ptr<CapturedSegment> capture_segment(const StepProgram& program, const Segment& segment,
                                                 const Stream& stream, CaptureTiming& timing);

/// Captures ops [segment.first, segment.last) of `program` into `graph`, an existing empty
/// CUDA graph (a cudaGraph_t: the body of a conditional node); CUDA only.
void capture_into_cuda_graph(const StepProgram& program, const Segment& segment, const Stream& stream, void* graph);

/// The CUDA implementation (cuda_graph_segment.cpp); only called on the CUDA backend.
std::unique_ptr<CapturedSegment> capture_cuda_segment(const StepProgram& program, const Segment& segment,
                                                      const Stream& stream, CaptureTiming& timing);

}  // namespace simapp
