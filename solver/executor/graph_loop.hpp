#pragma once
/// execution.mode graph_loop: a CUDA graph whose one node is a conditional WHILE node (CUDA
/// ≥ 12.4). Its body is a program of whole steps (build_loop_body_program) that ends by
/// counting them on the device and setting the condition, so one launch runs every step up to
/// the loop clock's target, or until a health check fails. Every pass runs the same program,
/// so the step's elements (the health check among them), each following the multiples of its
/// cadence (solver/step/cadence.hpp), can sit in the body only when the body is a whole number
/// of their period (the lcm of the cadences) and every pass starts on a multiple of it;
/// loop_body and plan_loop_launch arrange one or the other.
#include <cstddef>

#include "solver/executor/captured_segment.hpp"
#include "solver/step/build_step_program.hpp"

struct CUgraphExec_st;

namespace simapp {

/// The most kernels a loop body that carries the health check may hold: the replay cost of a
/// graph node is flat from 50 to 5000 nodes (docs/performance.md, "Launch-overhead floors") and instantiating takes a
/// few µs a node, so up to here the longer body costs nothing per step.
inline constexpr std::size_t max_checked_loop_body_kernels = 5000;

/// The WHILE body: its steps, even so that every pass starts with the same parity.
struct LoopBody {
  int steps = 2;
  /// Whether the body carries the elements: its steps are a multiple of their period and every
  /// pass starts on a multiple of it, so element e follows its steps j with (j + 1) mod
  /// cadences[e] = 0. Otherwise no pass runs a step an element follows: a chunk runs it.
  bool checked = false;
};

/// The body for S = steps_per_graph: without elements (every cadence 0), S made even. With
/// them, the multiple of lcm(2, their period) nearest S (at least one), carrying them, so that a
/// body iteration holds about as many kernels as a graph of graph mode; unless that is longer than S made
/// even and holds more than max_checked_loop_body_kernels (a period far above S): then S made
/// even without them, the loop stopping before each step an element follows for a chunk to run
/// it (a few launches a period, which cost little when the period is that large).
LoopBody loop_body(int steps_per_graph, const Cadences& cadences, std::size_t kernels_per_step);

/// How one launch runs steps: a chunk, whole iterations of the body, a chunk. Either chunk holds
/// at most a pass's steps, so it takes the graph of one chunk program (of at most as many
/// kernels as the body), its StepParams<2> in the body's slots.
struct LoopLaunch {
  long lead_in = 0;     ///< steps run as a chunk first, up to a multiple of the elements' period
  long iterations = 0;  ///< iterations of the loop body
  long rest = 0;        ///< steps run as a chunk after the iterations
};

/// The launch for `batch` steps (the queue's pace, whole iterations, or `span`) of the `span` steps
/// up to the next step whose state the run needs (an output, a progress line, the end) after
/// step `completed` of `num_steps`: with a body that carries the elements, a chunk up to the
/// next multiple of their period, whole iterations, and the steps left over as a chunk only where
/// the launch reaches the span's end (short of it, the launch ends after its last whole pass, so
/// the next one starts on a multiple again); otherwise whole iterations that stop before the next
/// step an element follows (next_element_step), which a chunk then reaches, or at the span's
/// end. The chunks a span takes do not depend on how it is cut into batches, so prepare() knows
/// them.
LoopLaunch plan_loop_launch(const LoopBody& body, long completed, long batch, long span, long num_steps,
                            const Cadences& cadences);

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
