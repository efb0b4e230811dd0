#include "solver/simulation/queue_pacing.hpp"

#include <algorithm>
#include <cmath>

namespace simapp {

long next_pace(long steps, double seconds, long granule) {
  const double per_step = seconds / static_cast<double>(std::max(steps, 1L));
  const double wanted = per_step > 0.0 ? batch_seconds / per_step : 8.0 * static_cast<double>(steps);
  const double capped = std::min(wanted, 8.0 * static_cast<double>(steps));
  const long granules = static_cast<long>(std::floor(capped / static_cast<double>(granule)));
  return std::max(granules, 1L) * granule;
}

QueuePacing::QueuePacing(const Stream& stream, MPI_Comm comm, long granule)
    : comm_(comm),
      granule_(granule),
      pace_((first_batch_steps + granule - 1) / granule * granule),
      timers_{StreamTimer(stream), StreamTimer(stream)} {}

long QueuePacing::next_batch(long steps_left) {
  // The timer to reuse measured the batch before last: wait for it, learn from it.
  if (timed_steps_[current_] > 0) {
    pace_ = next_pace(timed_steps_[current_], timers_[current_].seconds(), granule_);
    MPI_Bcast(&pace_, 1, MPI_LONG, 0, comm_);
    timed_steps_[current_] = 0;
  }
  return std::min(pace_, steps_left);
}

void QueuePacing::batch_starts() { timers_[current_].start(); }

void QueuePacing::batch_ends(long steps) {
  timers_[current_].stop();
  timed_steps_[current_] = steps;
  current_ = 1 - current_;
}

long QueuePacing::open_batch(long steps_left) {
  if (batch_left_ == 0) {
    batch_left_ = next_batch(steps_left);
    batch_starts();
  }
  return batch_left_;
}

void QueuePacing::queued(long steps, bool closing) {
  batch_steps_ += steps;
  batch_left_ = std::max(0L, batch_left_ - steps);
  if (batch_left_ == 0 || closing) end_open_batch();
}

void QueuePacing::close_batch() {
  if (batch_left_ > 0) end_open_batch();
}

void QueuePacing::end_open_batch() {
  batch_ends(batch_steps_);
  batch_left_ = 0;
  batch_steps_ = 0;
}

}  // namespace simapp
