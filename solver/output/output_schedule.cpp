#include "solver/output/output_schedule.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace simapp {

OutputSchedule::OutputSchedule(const TimeStepping& stepping, double every, bool ends)
    : stepping_(stepping), every_(every), ends_(ends) {}

OutputSchedule::OutputSchedule(std::vector<long> steps) : listed_(std::move(steps)) {}

OutputSchedule OutputSchedule::after(long step) const {
  OutputSchedule later = *this;
  later.after_ = std::max(after_, step);
  return later;
}

double OutputSchedule::step_of_multiple(long m) const {
  return stepping_->first_step_reaching(static_cast<double>(m) * every_);
}

long OutputSchedule::first_multiple_after(double step) const {
  // m · every ≥ sim_time reaches the last step, beyond any step asked about; the multiples'
  // steps do not decrease with m, so the first one beyond `step` is found by bisection.
  long high = static_cast<long>(std::ceil(stepping_->sim_time() / every_)) + 1;
  while (!(step_of_multiple(high) > step)) high *= 2;
  long low = 1;
  while (low < high) {
    const long middle = low + (high - low) / 2;
    if (step_of_multiple(middle) > step)
      high = middle;
    else
      low = middle + 1;
  }
  return low;
}

long OutputSchedule::next_after(long step) const {
  step = std::max(step, after_);
  if (!stepping_) {
    const auto next = std::ranges::upper_bound(listed_, step);
    return next == listed_.end() ? -1 : *next;
  }
  if (ends_ && step < 0) return 0;
  const long last = stepping_->num_steps();
  if (!(ends_ || every_ > 0.0) || step >= last) return -1;
  // Shorter than a step: a multiple of the interval falls within every step.
  if (every_ > 0.0 && every_ < stepping_->dt()) return std::max(step + 1, 1L);
  if (every_ > 0.0) {
    const double due = step_of_multiple(first_multiple_after(static_cast<double>(step)));
    if (due < static_cast<double>(last)) return static_cast<long>(due);
  }
  return last;
}

long OutputSchedule::count_after(long step) const {
  step = std::max(step, after_);
  if (!stepping_) return std::ranges::end(listed_) - std::ranges::upper_bound(listed_, step);
  const long last = stepping_->num_steps();
  long count = ends_ && step < 0 ? 1 : 0;  // step 0
  if (!(ends_ || every_ > 0.0) || step >= last) return count;
  if (every_ > 0.0 && every_ < stepping_->dt()) return count + last - std::max(step, 0L);
  if (every_ > 0.0)  // the multiples due after `step`, before the last step
    count += first_multiple_after(static_cast<double>(last - 1)) - first_multiple_after(static_cast<double>(step));
  return count + 1;  // the last step
}

}  // namespace simapp
