#pragma once
/// The step as data: an ordered list of named ops, built once per run and run by an
/// executor (eagerly, or captured and replayed). A Kernel op launches device work on the
/// stream it is given; a Transfer op queues a device copy (captured like a kernel); a Host
/// op needs the host mid-step and so ends a graph segment.
#include <functional>
#include <string>
#include <vector>

#include "kernels/backend/stream.hpp"

namespace simapp {

enum class OpKind { kernel, transfer, host };

struct StepOp {
  OpKind kind = OpKind::kernel;
  std::string name;                        ///< e.g. "x.stage1.fluxes"
  std::function<void(const Stream&)> run;  ///< queues (kernel, transfer) or performs (host) the op
};

/// A maximal run of Kernel and Transfer ops between Host ops: [first, last) into the op list.
struct Segment {
  std::size_t first = 0;
  std::size_t last = 0;
  std::size_t size() const { return last - first; }
};

class StepProgram {
 public:
  void add(OpKind kind, std::string name, std::function<void(const Stream&)> run);
  /// Appends every op of `other`, prefixing their names with `prefix`.
  void append(const StepProgram& other, const std::string& prefix);

  const std::vector<StepOp>& ops() const { return ops_; }
  std::size_t count(OpKind kind) const;
  /// The capturable segments, in order (Host ops lie between them).
  std::vector<Segment> segments() const;

 private:
  std::vector<StepOp> ops_;
};

}  // namespace simapp
