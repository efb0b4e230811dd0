#include "solver/step/step_elements.hpp"

#include "solver/step/health_check_element.hpp"
#include "solver/step/microphysics_element.hpp"

namespace simapp {

template <int Dims, class Real>
std::vector<StepElement<Dims, Real>> step_elements(const StepResources<Dims, Real>& resources) {
  std::vector<StepElement<Dims, Real>> elements;
  if (resources.microphysics.every > 0) elements.push_back(microphysics_element(resources));
  elements.push_back(health_check_element(resources));
  return elements;
}

template std::vector<StepElement<2, double>> step_elements(const StepResources<2, double>&);
template std::vector<StepElement<3, double>> step_elements(const StepResources<3, double>&);
template std::vector<StepElement<2, float>> step_elements(const StepResources<2, float>&);
template std::vector<StepElement<3, float>> step_elements(const StepResources<3, float>&);

}  // namespace simapp
