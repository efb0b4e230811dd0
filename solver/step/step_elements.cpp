#include "solver/step/step_elements.hpp"

#include "solver/step/health_check_element.hpp"

namespace simapp {

template <int Dims>
std::vector<StepElement<Dims>> step_elements(const StepResources<Dims>& resources) {
  return {health_check_element(resources)};
}

template std::vector<StepElement<2>> step_elements<2>(const StepResources<2>&);
template std::vector<StepElement<3>> step_elements<3>(const StepResources<3>&);

}  // namespace simapp
