#include "solver/simulation/simulation.hpp"

#include <algorithm>

#include "kernels/initial_conditions/case_profile.hpp"
#include "kernels/initial_conditions/initial_state.hpp"

namespace simapp {

Simulation::Simulation(const RunSpec& spec, Backend backend)
    : spec_(spec),
      grid_(spec.grid),
      time_plan_(spec.time.sim_time, grid_.dx(), grid_.dz()),
      stream_(backend),
      background_(stream_.get(), case_background(spec.case_name), grid_.geometry(), grid_.nz()),
      workspace_(backend, grid_),
      params_(stream_.get()),
      executor_(Synchronization::none),
      reducer_(backend, grid_.nz()) {
  const StepResources resources{&workspace_, grid_.geometry(), background_.view(), params_.device_params(),
                                spec.case_name};
  programs_ = {build_step_program(resources, StepParity::odd), build_step_program(resources, StepParity::even)};
  set_initial_state(stream_.get(), workspace_.state(), spec.case_name, grid_.geometry());
  device::synchronize(stream_.get());
}

void Simulation::advance(long steps) {
  const long last = std::min(time_plan_.num_steps(), step_ + steps);
  for (long step = step_ + 1; step <= last; ++step) {
    params_.set(StepParams{time_plan_.dt_of(step)});
    executor_.run(programs_[parity_of(step) == StepParity::odd ? 0 : 1], stream_.get());
  }
  step_ = std::max(step_, last);
}

Diagnostics Simulation::diagnostics() const {
  return reducer_.compute(stream_.get(), workspace_.state(), background_.view(), grid_.geometry());
}

std::vector<double> Simulation::state_on_host() const { return workspace_.state_buffer().copy_to_host(stream_.get()); }

}  // namespace simapp
