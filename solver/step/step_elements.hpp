#pragma once
/// The elements of a step: work that follows a step with a cadence (after each multiple of
/// `every` steps and after the run's last), added to a chunk's program after the steps it
/// follows. The microphysics, where the run has water, is the first; the health check checks the
/// state after it. A new element is a file of its own (its ops) and an
/// entry in step_elements(); chunk layouts, chunk programs, the graph_loop body and the steps a
/// graph holds follow every element's cadence from that list.
#include <string>
#include <vector>

#include "solver/step/build_step_program.hpp"
#include "solver/step/step_program.hpp"

namespace simapp {

template <int Dims, class Real = double>
struct StepElement {
  int every = 0;  ///< follows each multiple of `every` steps and the run's last; 0: never
  /// Adds the element's ops after a step, named `prefix` + their names; `step` is that step's
  /// program, which reads the StepParams<Dims> of slot `slot`.
  void (*add_ops)(StepProgram& program, const std::string& prefix, const StepResources<Dims, Real>& resources,
                  const StepProgram& step, int slot) = nullptr;
};

/// The elements of the steps `resources` describe, in the order they run after a step.
template <int Dims, class Real>
std::vector<StepElement<Dims, Real>> step_elements(const StepResources<Dims, Real>& resources);

/// The cadences of `resources`' elements, in step_elements()'s order.
template <int Dims, class Real>
Cadences element_cadences(const StepResources<Dims, Real>& resources) {
  Cadences cadences;
  for (const StepElement<Dims, Real>& element : step_elements(resources)) cadences.push_back(element.every);
  return cadences;
}

}  // namespace simapp
