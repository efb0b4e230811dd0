#pragma once
/// When output happens, as step numbers decided once from the time stepping: the first step
/// whose end time reaches each multiple of the interval (and step 0 and the last step for
/// snapshots). Steps, not accumulated times, so every rank and restart agrees. A schedule is
/// worked out step by step as it is asked, never listed: a run of 2^31 steps with an output
/// at each takes no more memory than one with none.
#include <optional>
#include <vector>

#include "solver/time/time_stepping.hpp"

namespace simapp {

class OutputSchedule {
 public:
  /// No steps.
  OutputSchedule() = default;
  /// The steps at which an interval of `every` seconds falls due, in order; none when
  /// every ≤ 0. With `ends`, step 0 and the last step are included too. Any every > 0 works:
  /// shorter than dt gives every step, longer than the run only the last step (and step 0 with
  /// `ends`).
  OutputSchedule(const TimeStepping& stepping, double every, bool ends);
  /// The steps given (ascending), for callers that choose them one by one: a list of steps is
  /// a schedule, so it converts to one.
  OutputSchedule(std::vector<long> steps);

  /// The same schedule without its steps up to `step`.
  OutputSchedule after(long step) const;

  /// The first step of the schedule after `step`, or -1.
  long next_after(long step) const;
  /// Whether the schedule holds `step`.
  bool holds(long step) const { return step >= 0 && next_after(step - 1) == step; }
  /// How many of its steps come after `step`: exact, except that an interval within a millionth
  /// of dt can see two of its multiples fall due at one step, counted twice (so at most this many).
  long count_after(long step) const;

 private:
  /// The first step whose end reaches m · every, as a double (m = 1, 2, …; nondecreasing in m).
  double step_of_multiple(long m) const;
  /// The smallest m ≥ 1 whose step_of_multiple is beyond `step` (it may be num_steps).
  long first_multiple_after(double step) const;

  long after_ = -1;                       ///< no step up to this one
  std::vector<long> listed_;              ///< steps given one by one
  std::optional<TimeStepping> stepping_;  ///< an interval's steps: from this time stepping
  double every_ = 0.0;
  bool ends_ = false;
};

}  // namespace simapp
