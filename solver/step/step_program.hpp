#pragma once
/// The step as data: an ordered list of named ops, built once per run and run by an
/// executor (eagerly, or captured and replayed). A Kernel op launches device work on the
/// stream it is given; a Transfer op queues a device copy (captured like a kernel); a Host
/// op needs the host mid-step and so ends a graph segment.
///
/// Ops also carry a lane. Ops on different lanes between two Join ops are independent, so a
/// graph capture puts each lane on its own stream (fork/join with events) and the graph runs
/// them concurrently; eager executors run everything in order on one stream and ignore lanes.
#include <functional>
#include <string>
#include <vector>

#include "kernels/backend/stream.hpp"

namespace simapp {

enum class OpKind { kernel, transfer, host, join };

/// Lanes an op may run on: 0 .. max_lanes − 1.
inline constexpr int max_lanes = 5;

struct StepOp {
  OpKind kind = OpKind::kernel;
  std::string name;                        ///< e.g. "x.stage1.fluxes"
  std::function<void(const Stream&)> run;  ///< queues (kernel, transfer) or performs (host) the op; empty for join
  int lane = 0;                            ///< ops on other lanes since the last join may run concurrently
  std::size_t bytes = 0;  ///< kernels: the bytes the op must move (each value it reads and writes once); 0: not counted
};

/// A maximal run of Kernel, Transfer and Join ops between Host ops: [first, last) into the op list.
struct Segment {
  std::size_t first = 0;
  std::size_t last = 0;
  std::size_t size() const { return last - first; }
};

class StepProgram {
 public:
  /// Appends an op; returns it, so that its byte count can be set.
  StepOp& add(OpKind kind, std::string name, std::function<void(const Stream&)> run, int lane = 0);
  /// Everything queued before on any lane completes before anything after, on any lane.
  void add_join(std::string name);
  /// Appends every op of `other`, prefixing their names with `prefix`.
  void append(const StepProgram& other, const std::string& prefix);

  const std::vector<StepOp>& ops() const { return ops_; }
  /// Each op's bytes × numerator / denominator (the traffic of values of another size).
  void scale_bytes(std::size_t numerator, std::size_t denominator);
  /// True when some op runs on a lane other than 0.
  bool uses_lanes() const;
  /// The lanes its ops run on: one more than the highest lane.
  int lanes() const;
  std::size_t count(OpKind kind) const;
  /// The capturable segments, in order (Host ops lie between them).
  std::vector<Segment> segments() const;

 private:
  std::vector<StepOp> ops_;
};

}  // namespace simapp
