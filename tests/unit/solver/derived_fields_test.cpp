/// The table of the fields a model's snapshots can hold (solver/model/derived_fields.hpp): the
/// physical field each variable is written as, in the variables' order, then p′, the variables
/// as stored (described as their table describes them) and the profiles of the background.
#include "solver/model/derived_fields.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kernels/physics/variables.hpp"

namespace simapp {
namespace {

class DerivedFieldsTest : public ::testing::TestWithParam<int> {};

TEST_P(DerivedFieldsTest, ListTheVariablesOutputFieldsThenTheStoredVariablesThenTheProfiles) {
  const int dims = GetParam();
  const VariableTable variables = model_variables(dims);
  std::vector<std::string> expected;
  for (const VariableInfo& variable : variables) expected.emplace_back(variable.output_name);
  expected.emplace_back("p_prime");
  for (const VariableInfo& variable : variables) expected.emplace_back(variable.stored.name);
  for (const char* profile : {"rho_bar", "theta_bar", "p_bar"}) expected.emplace_back(profile);
  std::vector<std::string> names;
  for (const DerivedField& field : derived_fields(dims)) {
    names.emplace_back(field.description.name);
    EXPECT_NE(field.row == nullptr, field.layer == nullptr) << field.description.name << ": a row or a layer";
    EXPECT_EQ(field.is_profile(), names.back().ends_with("_bar")) << names.back();
  }
  EXPECT_EQ(names, expected);
  for (const VariableInfo& variable : variables) {
    const DerivedField* stored = find_derived_field(dims, variable.stored.name);
    ASSERT_NE(stored, nullptr) << variable.stored.name;
    EXPECT_EQ(std::string(stored->description.unit), variable.stored.unit);
    EXPECT_EQ(std::string(stored->description.long_name), variable.stored.long_name);
    EXPECT_EQ(std::string(stored->description.comment), variable.stored.comment);
  }
  EXPECT_EQ(find_derived_field(dims, "pressure"), nullptr);
  EXPECT_EQ(find_derived_field(dims, "v") != nullptr, dims == 3) << "v is the 3-D model's";
}

/// ρ = ρ̄_c + ρ′ = 1.25 + 0.05 in both cells of a row: u = ρu / ρ, θ′ = (ρ̄θ̄_c + (ρθ)′)/ρ − ρ̄θ̄_c/ρ̄_c.
TEST_P(DerivedFieldsTest, FieldsOfTheGridAreComputedWithTheBackgroundOfTheRow) {
  const int dims = GetParam();
  const VariableTable variables = model_variables(dims);
  std::vector<double> values;  // [var][cell], two cells
  for (const VariableInfo& variable : variables) {
    const double value = variable.kind == VariableKind::density_perturbation ? 0.05
                         : variable.kind == VariableKind::momentum           ? 2.6 * (variable.axis + 1)
                                                                             : 3.9;
    values.insert(values.end(), {value, value});
  }
  const StateRow row{values.data(), 2, 2, 1.25, 375.0};
  const auto field = [&](const char* name) {
    std::vector<double> out(2);
    find_derived_field(dims, name)->row(row, out.data());
    return out;
  };
  const double rho = 1.25 + 0.05;
  EXPECT_EQ(field("rho_prime"), (std::vector<double>{0.05, 0.05}));
  EXPECT_EQ(field("u"), (std::vector<double>{2.6 / rho, 2.6 / rho}));
  EXPECT_EQ(field("w"), (std::vector<double>{2.6 * dims / rho, 2.6 * dims / rho}));
  EXPECT_EQ(field("theta_prime")[1], (375.0 + 3.9) / rho - 375.0 / 1.25);
  EXPECT_EQ(field("rhot"), (std::vector<double>{3.9, 3.9}));
  EXPECT_EQ(find_derived_field(dims, "theta_bar")->layer(1.25, 375.0), 300.0);
}

INSTANTIATE_TEST_SUITE_P(Dimensions, DerivedFieldsTest, ::testing::Values(2, 3),
                         [](const ::testing::TestParamInfo<int>& dimension) {
                           return std::to_string(dimension.param) + "d";
                         });

}  // namespace
}  // namespace simapp
