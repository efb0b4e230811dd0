#pragma once
/// The variables a run's state holds (kernels/physics/variables.hpp): its model's dry ones, then
/// one tracer per name of state_tracers() (the water's, then physics.tracers), kind tracer, stored as "rho" + name
/// (ρ_x′) and written as its mixing ratio `name`. What names, counts or stores the state's variables outside the
/// kernels reads this table.
#include <memory>
#include <string>
#include <vector>

#include "kernels/physics/variables.hpp"
#include "solver/grid/grid_spec.hpp"

namespace simapp {

class StateVariables {
 public:
  /// The model of `dims` dimensions (2 or 3) with `tracers`.
  StateVariables(int dims, const std::vector<std::string>& tracers);

  VariableTable table() const { return {storage_->entries.data(), static_cast<int>(storage_->entries.size())}; }
  int size() const { return table().size(); }
  const VariableInfo& operator[](int v) const { return storage_->entries[static_cast<std::size_t>(v)]; }
  const VariableInfo* begin() const { return table().begin(); }
  const VariableInfo* end() const { return table().end(); }
  /// The tracers [first_tracer(), size()); the model's dry variables before them.
  int first_tracer() const { return table().first_tracer(); }
  /// The tracers' names as configured (physics.tracers).
  const std::vector<std::string>& tracers() const { return storage_->tracers; }

 private:
  struct Storage {
    std::vector<std::string> tracers, stored_names, comments;
    std::vector<VariableInfo> entries;  ///< pointing into the names above
  };
  std::shared_ptr<const Storage> storage_;  ///< shared by copies: the entries' names stay where they are
};

/// The stored name of tracer `name`: "rho" + name (its density, ρ_x′).
std::string tracer_stored_name(const std::string& name);

/// The variables of the state on `grid`: its model's (grid.ny) with its tracers.
StateVariables state_variables(const GridSpec& grid);

}  // namespace simapp
