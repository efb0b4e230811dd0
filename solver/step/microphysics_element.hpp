#pragma once
/// The warm-rain microphysics as a step element (kernels/microphysics/microphysics.hpp): its
/// column kernel after every physics.microphysics_every steps and the run's last, reading the
/// number of the step it follows from that step's StepParams.
#include "solver/step/step_elements.hpp"

namespace simapp {

template <int Dims, class Real>
StepElement<Dims, Real> microphysics_element(const StepResources<Dims, Real>& resources);

}  // namespace simapp
