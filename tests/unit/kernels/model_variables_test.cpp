/// The table of each model's variables (kernels/physics/variables.hpp): its names and kinds in
/// the order of ModelVariables' indices, an empty tracer range, and wall and inflow rules that
/// are what the ghost-cell rules (kernels/boundary/ghost_rules.hpp) do to each variable.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kernels/boundary/ghost_rules.hpp"
#include "kernels/cases/case_list.hpp"
#include "kernels/physics/variables.hpp"

namespace simapp {
namespace {

template <class Dims>
class ModelVariablesTest : public ::testing::Test {};

using Dimensions = ::testing::Types<std::integral_constant<int, 2>, std::integral_constant<int, 3>>;
TYPED_TEST_SUITE(ModelVariablesTest, Dimensions);

/// What the table lists of each model, from docs/model.md.
struct Expected {
  std::vector<std::string> stored, output, units, diffused;
};

Expected expected_of(int dims) {
  if (dims == 2)
    return {{"dens", "umom", "wmom", "rhot"},
            {"rho_prime", "u", "w", "theta_prime"},
            {"kg m-3", "kg m-2 s-1", "kg m-2 s-1", "kg m-3 K"},
            {"", "u", "w", "theta"}};
  return {{"dens", "umom", "vmom", "wmom", "rhot"},
          {"rho_prime", "u", "v", "w", "theta_prime"},
          {"kg m-3", "kg m-2 s-1", "kg m-2 s-1", "kg m-2 s-1", "kg m-3 K"},
          {"", "u", "v", "w", "theta"}};
}

TYPED_TEST(ModelVariablesTest, ListsTheModelsVariablesInTheOrderOfTheirIndices) {
  constexpr int dims = TypeParam::value;
  using V = ModelVariables<dims>;
  const VariableTable table = model_variables<dims>();
  const Expected expected = expected_of(dims);
  std::vector<std::string> stored, output, units, diffused;
  for (const VariableInfo& variable : table) {
    stored.emplace_back(variable.stored.name);
    output.emplace_back(variable.output_name);
    units.emplace_back(variable.stored.unit);
    diffused.emplace_back(variable.diffused_as);
    EXPECT_FALSE(std::string(variable.stored.long_name).empty()) << variable.stored.name;
  }
  EXPECT_EQ(stored, expected.stored);
  EXPECT_EQ(output, expected.output);
  EXPECT_EQ(units, expected.units);
  EXPECT_EQ(diffused, expected.diffused);
  EXPECT_EQ(table.size(), V::count);
  EXPECT_EQ(table.first_tracer(), table.size()) << "no tracers yet";
  EXPECT_EQ(table.index_of("rhot"), V::rhot);
  EXPECT_EQ(table.index_of("wmom"), V::wmom);
  EXPECT_EQ(table.index_of("qv"), -1);
  EXPECT_EQ(table[V::dens].kind, VariableKind::density_perturbation);
  EXPECT_EQ(table[V::rhot].kind, VariableKind::rho_theta_perturbation);
  for (int a = 0; a < V::momenta; ++a) {
    EXPECT_EQ(table[V::momentum(a)].kind, VariableKind::momentum) << a;
    EXPECT_EQ(table[V::momentum(a)].axis, a);
  }
  EXPECT_EQ(model_variables_of_grid(dims == 3 ? 4 : 1).begin(), table.begin()) << "the grid's model";
  for (int v = 0; v < V::count; ++v) EXPECT_EQ(std::string(variable_names<dims>[v]), expected.stored[v]);
}

/// Adjacent value 6 over ρ̄_c = 1.2 (u = 5 m/s), a ghost row of ρ̄_c = 1.5: each rule's ghost.
double ghost_by_rule(WallRule rule) {
  switch (rule) {
    case WallRule::copy: return 6.0;
    case WallRule::copy_velocity: return 6.0 / 1.2 * 1.5;
    case WallRule::zero: return 0.0;
  }
  return -1.0;
}

TYPED_TEST(ModelVariablesTest, AWallMakesEachVariablesGhostByItsRule) {
  constexpr int dims = TypeParam::value;
  const VariableTable table = model_variables<dims>();
  for (int v = 0; v < table.size(); ++v)
    EXPECT_EQ(wall_ghost<ModelVariables<dims>>(v, 6.0, 1.2, 1.5), ghost_by_rule(table[v].wall)) << table[v].stored.name;
  EXPECT_EQ(table[ModelVariables<dims>::wmom].wall, WallRule::zero) << "no flow through the wall";
}

TYPED_TEST(ModelVariablesTest, AnInflowMakesEachVariablesGhostByItsRule) {
  constexpr int dims = TypeParam::value;
  using V = ModelVariables<dims>;
  const VariableTable table = model_variables<dims>();
  const InflowProfile inflow = injection_inflow;
  // ρ′ = 0.1 over ρ̄_c = 1.1 is ρ = 1.2; ρ̄θ̄_c = 330.
  double q[V::count];
  for (int v = 0; v < V::count; ++v) q[v] = v == V::dens ? 0.1 : 7.0 + v;
  apply_inflow<V>(q, 1.1, 330.0, inflow);
  for (int v = 0; v < V::count; ++v) {
    switch (table[v].inflow) {
      case InflowRule::keep: EXPECT_EQ(q[v], v == V::dens ? 0.1 : 7.0 + v) << table[v].stored.name; break;
      case InflowRule::inflow_momentum: EXPECT_EQ(q[v], (0.1 + 1.1) * inflow.u) << table[v].stored.name; break;
      case InflowRule::inflow_rho_theta:
        EXPECT_EQ(q[v], (0.1 + 1.1) * inflow.theta - 330.0) << table[v].stored.name;
        break;
    }
  }
}

}  // namespace
}  // namespace simapp
