#include "solver/grid/state_variables.hpp"

namespace simapp {

std::string tracer_stored_name(const std::string& name) { return "rho" + name; }

StateVariables::StateVariables(int dims, const std::vector<std::string>& tracers) {
  auto storage = std::make_shared<Storage>();
  storage->tracers = tracers;
  for (const std::string& name : tracers) {
    storage->stored_names.push_back(tracer_stored_name(name));
    storage->comments.push_back("rho_x' of tracer " + name + ": (rho_bar_x + rho_x') / rho is its mixing ratio");
  }
  const VariableTable model = model_variables(dims);
  storage->entries.assign(model.begin(), model.end());
  for (std::size_t t = 0; t < tracers.size(); ++t)
    storage->entries.push_back(variable_entries::tracer(storage->stored_names[t].c_str(), storage->tracers[t].c_str(),
                                                        storage->comments[t].c_str()));
  storage_ = std::move(storage);
}

StateVariables state_variables(const GridSpec& grid) {
  return StateVariables(model_dimensions(grid.ny), state_tracers(grid));
}

}  // namespace simapp
