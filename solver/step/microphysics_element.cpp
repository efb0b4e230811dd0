#include "solver/step/microphysics_element.hpp"

#include "solver/step/kernel_traffic.hpp"

namespace simapp {

namespace {

/// The 2-D microphysics waits for the step's lanes, as the health check does.
template <int Dims>
void add_microphysics(StepProgram& program, const std::string& prefix, const StepResources<Dims>& resources,
                      const StepProgram& step, int slot) {
  if constexpr (Dims == 2)
    if (step.uses_lanes()) program.add_join(prefix + "join_before_microphysics");
  const MicrophysicsArguments<Dims> microphysics = resources.microphysics;
  const StepParams<Dims>* params = resources.params != nullptr ? resources.params->device_slot(slot) : nullptr;
  program
      .add(OpKind::kernel, prefix + "microphysics",
           [microphysics, params](const Stream& stream) { apply_microphysics(stream, microphysics, params); })
      .bytes = microphysics_bytes(microphysics.state.shape);
}

}  // namespace

template <int Dims>
StepElement<Dims> microphysics_element(const StepResources<Dims>& resources) {
  return {resources.microphysics.every, &add_microphysics<Dims>};
}

template StepElement<2> microphysics_element<2>(const StepResources<2>&);
template StepElement<3> microphysics_element<3>(const StepResources<3>&);

}  // namespace simapp
