#include "solver/diagnostics/global_cell.hpp"

#include <fmt/format.h>

#include "kernels/physics/variables.hpp"

namespace simapp {

std::string describe_cell(const GlobalCell& cell, int global_ny) {
  if (global_ny > 1) return fmt::format("(i, j, k) = ({}, {}, {})", cell.i, cell.j, cell.k);
  return fmt::format("(i, k) = ({}, {})", cell.i, cell.k);
}

std::string variable_name(int variable, int global_ny) {
  return model_variables_of_grid(global_ny)[variable].stored.name;
}

}  // namespace simapp
