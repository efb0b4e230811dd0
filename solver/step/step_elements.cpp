#include "solver/step/step_elements.hpp"

#include "solver/step/health_check_element.hpp"
#include "solver/step/microphysics_element.hpp"

namespace simapp {

template <int Dims>
std::vector<StepElement<Dims>> step_elements(const StepResources<Dims>& resources) {
  std::vector<StepElement<Dims>> elements;
  if (resources.microphysics.every > 0) elements.push_back(microphysics_element(resources));
  elements.push_back(health_check_element(resources));
  return elements;
}

template std::vector<StepElement<2>> step_elements<2>(const StepResources<2>&);
template std::vector<StepElement<3>> step_elements<3>(const StepResources<3>&);

}  // namespace simapp
