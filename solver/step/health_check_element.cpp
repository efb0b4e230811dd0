#include "solver/step/health_check_element.hpp"

#include "kernels/diagnostics/health_check.hpp"
#include "solver/step/kernel_traffic.hpp"

namespace simapp {

namespace {

/// The check reads every variable of the state on lane 0: where the step has lanes (the fine
/// granularity's lane a variable) it waits for them first.
template <int Dims, class Real>
void add_health_check(StepProgram& program, const std::string& prefix, const StepResources<Dims, Real>& resources,
                      const StepProgram& step, int /*slot*/) {
  if (step.uses_lanes()) program.add_join(prefix + "join_before_check");
  const FieldView<Real, Dims> state = resources.fields.state;
  const HydrostaticView background = resources.background;
  const CellGeometry<Dims> geometry = resources.geometry;
  const HealthCheckOps health = resources.health;
  program
      .add(OpKind::kernel, prefix + "check_health",
           [state, background, geometry, health](const Stream& stream) {
             check_health<Real, Dims>(stream, state, background, geometry, health.record);
           })
      .bytes = health_check_bytes(state.shape) * sizeof(Real) / sizeof(double);
  program.add(OpKind::kernel, prefix + "count_health_check",
              [health](const Stream& stream) { count_health_check(stream, health.record, health.mirror); });
}

}  // namespace

template <int Dims, class Real>
StepElement<Dims, Real> health_check_element(const StepResources<Dims, Real>& resources) {
  return {resources.health.every, &add_health_check<Dims, Real>};
}

template StepElement<2, double> health_check_element(const StepResources<2, double>&);
template StepElement<3, double> health_check_element(const StepResources<3, double>&);
template StepElement<2, float> health_check_element(const StepResources<2, float>&);
template StepElement<3, float> health_check_element(const StepResources<3, float>&);

}  // namespace simapp
