#pragma once
/// The health check as a step element: the check of the state after a step, then its count and
/// the copy to the host mirror (kernels/diagnostics/health_check.hpp), every
/// execution.check_every steps.
#include "solver/step/step_elements.hpp"

namespace simapp {

template <int Dims, class Real>
StepElement<Dims, Real> health_check_element(const StepResources<Dims, Real>& resources);

}  // namespace simapp
