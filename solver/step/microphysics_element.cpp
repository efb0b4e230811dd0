#include "solver/step/microphysics_element.hpp"

#include "solver/step/kernel_traffic.hpp"

namespace simapp {

namespace {

/// The microphysics reads and writes every variable of the state on lane 0: where the step has
/// lanes it waits for them, as the health check does, and the next step's lanes wait for it
/// (without the joins, a graph's lanes 1… write or read the state while it changes).
template <int Dims, class Real>
void add_microphysics(StepProgram& program, const std::string& prefix, const StepResources<Dims, Real>& resources,
                      const StepProgram& step, int slot) {
  if (step.uses_lanes()) program.add_join(prefix + "join_before_microphysics");
  const MicrophysicsArguments<Dims, Real> microphysics = resources.microphysics;
  const StepParams<Dims>* params = resources.params != nullptr ? resources.params->device_slot(slot) : nullptr;
  program
      .add(OpKind::kernel, prefix + "microphysics",
           [microphysics, params](const Stream& stream) { apply_microphysics(stream, microphysics, params); })
      .bytes = microphysics_bytes(microphysics.state.shape, sizeof(Real));
  if (step.uses_lanes()) program.add_join(prefix + "join_after_microphysics");
}

}  // namespace

template <int Dims, class Real>
StepElement<Dims, Real> microphysics_element(const StepResources<Dims, Real>& resources) {
  return {resources.microphysics.every, &add_microphysics<Dims, Real>};
}

template StepElement<2, double> microphysics_element(const StepResources<2, double>&);
template StepElement<3, double> microphysics_element(const StepResources<3, double>&);
template StepElement<2, float> microphysics_element(const StepResources<2, float>&);
template StepElement<3, float> microphysics_element(const StepResources<3, float>&);

}  // namespace simapp
