#pragma once
/// The step as data (ARCHITECTURE.md, "The step is data"): an ordered list of named ops,
/// built once per run and run by an executor. A Kernel op launches device work on the
/// stream it is given; a Host op needs the host mid-step and so ends a graph segment.
#include <functional>
#include <string>
#include <vector>

#include "kernels/backend/stream.hpp"

namespace simapp {

enum class OpKind { kernel, host };

struct StepOp {
  OpKind kind = OpKind::kernel;
  std::string name;                             ///< e.g. "x.stage1.fluxes"
  std::function<void(const Stream&)> run;       ///< launches (kernel) or performs (host) the op
};

/// A maximal run of Kernel ops between Host ops: [first, last) into the op list.
struct Segment {
  std::size_t first = 0;
  std::size_t last = 0;
  std::size_t size() const { return last - first; }
};

class StepProgram {
 public:
  void add_kernel(std::string name, std::function<void(const Stream&)> launch);
  void add_host(std::string name, std::function<void(const Stream&)> action);

  const std::vector<StepOp>& ops() const { return ops_; }
  std::size_t kernel_count() const;
  /// The kernel segments, in order (Host ops lie between them).
  std::vector<Segment> segments() const;

 private:
  std::vector<StepOp> ops_;
};

}  // namespace simapp
