#pragma once
/// execution.mode graph_loop: a CUDA graph whose one node is a conditional WHILE node (CUDA
/// ≥ 12.4). Its body is a program of whole steps (build_loop_body_program) that ends by
/// counting them on the device and setting the condition, so one launch runs every step up to
/// the loop clock's target, or until a health check fails.
#include <cstddef>

#include "solver/executor/captured_segment.hpp"
#include "solver/step/build_step_program.hpp"

struct CUgraphExec_st;

namespace simapp {

class GraphLoop {
 public:
  /// Makes the graph and its condition (stored in control.condition before `body` is
  /// captured into the WHILE node's body), then instantiates it. CUDA only.
  GraphLoop(const StepProgram& body, LoopControl& control, const Stream& stream, CaptureTiming& timing);
  GraphLoop(const GraphLoop&) = delete;
  GraphLoop& operator=(const GraphLoop&) = delete;
  ~GraphLoop();

  /// Runs the loop: the body at least once, then while its condition holds.
  void launch(const Stream& stream) const;
  /// Nodes of the body graph (kernels and copies), plus the WHILE node.
  std::size_t node_count() const { return nodes_; }

 private:
  CUgraphExec_st* exec_ = nullptr;
  std::size_t nodes_ = 0;
};

}  // namespace simapp
