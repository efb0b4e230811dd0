#include "solver/step/microphysics_element.hpp"

#include "solver/step/kernel_traffic.hpp"

namespace simapp {

namespace {

/// The 2-D microphysics waits for the step's lanes, as the health check does; in either model it
/// writes every variable of the state, so where the step has lanes the next step's lanes wait for
/// it (without the join, a graph's lanes 1… of the next step read the state while it changes).
template <int Dims, class Real>
void add_microphysics(StepProgram& program, const std::string& prefix, const StepResources<Dims, Real>& resources,
                      const StepProgram& step, int slot) {
  if constexpr (Dims == 2)
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
