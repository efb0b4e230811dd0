#pragma once
/// The chunk programs of a run, each built on first use and kept for the run (runners know
/// programs by address, so a captured chunk is captured once), and the step values their steps
/// read. Every executor runs its steps as these programs, or (graph_loop, persistent) derives
/// its own from the same step resources.
#include <functional>
#include <map>
#include <variant>
#include <vector>

#include "kernels/stage/persistent_steps.hpp"
#include "solver/step/build_step_program.hpp"
#include "solver/step/step_params_block.hpp"
#include "solver/time/time_stepping.hpp"

namespace simapp {

/// The persistent kernel's arguments for either model's step.
using PersistentArguments = std::variant<PersistentSteps<2, double>, PersistentSteps<3, double>,
                                         PersistentSteps<2, float>, PersistentSteps<3, float>>;

class ChunkPrograms {
 public:
  /// The chunks of the model in `Dims` dimensions, their StepParams<Dims> for the cells of
  /// `resources.geometry`. `resources`, `params` (the slots `resources` points at) and `time`
  /// must outlive this.
  template <int Dims, class Real>
  ChunkPrograms(const StepResources<Dims, Real>& resources, StepParamsBlock<Dims>& params, const TimeStepping& time,
                const Dissipation& physics);
  ChunkPrograms(const ChunkPrograms&) = delete;
  ChunkPrograms& operator=(const ChunkPrograms&) = delete;

  /// The arguments of the persistent kernel of the model's step: its arrays, step values (two
  /// slots) and health check, with the device's step count `clock` and the dt of every step.
  PersistentArguments persistent_arguments(const TimeSchedule& schedule, LoopClock* clock) const {
    return persistent_(schedule, clock);
  }
  long num_steps() const { return time_.num_steps(); }
  /// The cadences of the step's elements (step_elements()).
  const Cadences& cadences() const { return cadences_; }

  /// The layout of the `steps` steps after step `completed`, its elements where the run has them.
  ChunkLayout layout_after(long completed, int steps) const;
  /// The program of `layout` (built on first use).
  const StepProgram& program(const ChunkLayout& layout);
  /// The program of the `steps` steps after step `completed`.
  const StepProgram& program_after(long completed, int steps) { return program(layout_after(completed, steps)); }
  /// Makes the step-value slots [0, steps) hold the values of the `steps` steps after `completed`.
  void write_step_values(long completed, int steps) { write_values_(completed, steps); }
  /// The program of the `steps` steps after `completed`, its step values written: ready to run.
  const StepProgram& ready_program(long completed, int steps);
  /// The body of a graph_loop WHILE node of `layout`'s steps (build_loop_body_program), reading
  /// `loop`.
  StepProgram loop_body(const ChunkLayout& layout, const LoopControl* loop) const { return loop_body_(layout, loop); }

 private:
  std::function<StepProgram(const ChunkLayout&)> build_;
  std::function<void(long completed, int steps)> write_values_;
  std::function<StepProgram(const ChunkLayout&, const LoopControl*)> loop_body_;
  std::function<PersistentArguments(const TimeSchedule&, LoopClock*)> persistent_;
  const TimeStepping& time_;
  Cadences cadences_;
  std::map<ChunkLayout, StepProgram> programs_;  ///< stable addresses
};

/// Where the run needs the state after a step (an output, a progress line): the first such step
/// after the one it is given, or -1 (none but the run's last). Empty: none.
using ChunkEnds = std::function<long(long step)>;

/// Steps from step `completed` up to the next of `chunk_ends` after it, or to `num_steps`: the
/// most one launch may run when the run needs the state after each of them.
long steps_to_next_end(long completed, const ChunkEnds& chunk_ends, long num_steps);

}  // namespace simapp
