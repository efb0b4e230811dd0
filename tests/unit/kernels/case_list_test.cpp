/// The case list (kernels/cases/case_list.hpp): each enumerator names its own case, and what each
/// case declares (background, boundaries, bump, forcing, measures) reaches the functions that read
/// the list, as docs/model.md, "Initial state", gives it.
#include "kernels/cases/case_list.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>

namespace simapp {
namespace {

TEST(CaseListTest, EachEnumeratorHasItsCasesNameInDocumentationOrder) {
  struct Expected {
    CaseName name;
    std::string_view text;
  };
  const Expected table[] = {{CaseName::thermal, "thermal"},
                            {CaseName::collision, "collision"},
                            {CaseName::gravity_waves, "gravity_waves"},
                            {CaseName::density_current, "density_current"},
                            {CaseName::injection, "injection"},
                            {CaseName::rest, "rest"},
                            {CaseName::straka, "straka"},
                            {CaseName::moist_thermal, "moist_thermal"},
                            {CaseName::dry_bubble, "dry_bubble"},
                            {CaseName::moist_bubble, "moist_bubble"},
                            {CaseName::supercell, "supercell"}};
  ASSERT_EQ(case_names.size(), std::size(table));
  for (std::size_t i = 0; i < std::size(table); ++i) {
    SCOPED_TRACE(std::string(table[i].text));
    EXPECT_EQ(case_names[i].first, table[i].name);
    EXPECT_EQ(case_names[i].second, table[i].text);
    EXPECT_EQ(to_string(table[i].name), table[i].text);
    EXPECT_EQ(parse_case_name(table[i].text), table[i].name);
  }
  EXPECT_EQ(parse_case_name("Thermal"), std::nullopt);
  EXPECT_EQ(parse_case_name(""), std::nullopt);
}

TEST(CaseListTest, EachCaseDeclaresItsBackgroundBoundariesForcingAndMeasures) {
  for (const auto& [name, text] : case_names) {
    SCOPED_TRACE(std::string(text));
    const bool waves = name == CaseName::gravity_waves;
    // Stratified (N = 0.02 s⁻¹) for gravity_waves, else neutral.
    EXPECT_EQ(case_background(name).brunt_vaisala, waves ? 0.02 : 0.0);
    // x periodic and z walls; injection's x low an inflow of its profile.
    const BoundaryConditions<2> sides = case_boundaries(name);
    const bool injection = name == CaseName::injection;
    EXPECT_EQ(sides.x_low.kind, injection ? BoundaryKind::inflow : BoundaryKind::periodic);
    EXPECT_EQ(sides.x_high.kind, BoundaryKind::periodic);
    EXPECT_EQ(sides.z_low.kind, BoundaryKind::wall);
    EXPECT_EQ(sides.z_high.kind, BoundaryKind::wall);
    EXPECT_EQ(sides.inflow.u, injection ? 50.0 : InflowProfile{}.u);
    // gravity_waves alone is forced, by its bump, in either model.
    const Bump<3> bump{0.5, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0};
    EXPECT_EQ(gravity_wave_source(name, bump).amplitude, waves ? 0.5 : 0.0);
    EXPECT_EQ(gravity_wave_source(name, bump).yr, waves ? 5.0 : Bump<3>{}.yr);
    // straka alone is measured as a density current.
    EXPECT_EQ(case_measures(name), name == CaseName::straka ? CaseMeasures::density_current : CaseMeasures::none);
  }
}

TEST(CaseListTest, EachCasesPerturbationIsMadeOfItsBumpAsDocsModelMdGivesIt) {
  const Bump<2> bump{2.0, 100.0, 200.0, 50.0, 50.0};
  const double x = 110.0, z = 190.0, b = bump(x, z), cold = collision_cold_bubble(bump)(x, z + 6000.0);
  ASSERT_GT(b, 0.0);
  ASSERT_LT(cold, 0.0);
  const auto at = [&](CaseName name, double height) { return case_perturbation(name, bump, x, height); };
  EXPECT_EQ(at(CaseName::thermal, z).theta, b);
  EXPECT_EQ(at(CaseName::density_current, z).theta, b);
  EXPECT_EQ(at(CaseName::collision, z).theta, b);
  EXPECT_EQ(at(CaseName::collision, z + 6000.0).theta, cold);  // the cold bubble 6000 m above
  EXPECT_EQ(at(CaseName::straka, z).temperature, b);
  EXPECT_EQ(at(CaseName::straka, z).theta, 0.0);
  EXPECT_EQ(at(CaseName::gravity_waves, z).u, 15.0);
  EXPECT_EQ(at(CaseName::gravity_waves, z).theta, 0.0);
  // moist_thermal: the thermal, with vapour 0.015 cos²(πL/2) within 3000 m of the bump's centre.
  EXPECT_EQ(at(CaseName::moist_thermal, z).theta, b);
  const double vapour_distance = std::sqrt(10.0 * 10.0 + 10.0 * 10.0) / 3000.0;
  EXPECT_NEAR(at(CaseName::moist_thermal, z).vapour,
              0.015 * std::pow(std::cos(3.14159265358979323846 * vapour_distance / 2), 2), 1e-17);
  EXPECT_EQ(case_perturbation(CaseName::moist_thermal, bump, x + 3001.0, 200.0).vapour, 0.0);
  EXPECT_EQ(at(CaseName::thermal, z).vapour, 0.0);
  // Bryan & Fritsch's bubbles: dry_bubble's T′ = θ′ Π̄(z) at p̄, moist_bubble's saturated warming;
  // the supercell's θ′ (its wind is its sounding's).
  const double exner = std::pow(HydrostaticBackground{0.0}.at(z).pressure / 1.0e5, 287.0 / 1004.0);
  EXPECT_NEAR(at(CaseName::dry_bubble, z).temperature, b * exner, 1e-15);
  EXPECT_EQ(at(CaseName::moist_bubble, z).saturated_warming, b);
  EXPECT_EQ(at(CaseName::moist_bubble, z).theta, 0.0);
  EXPECT_EQ(at(CaseName::supercell, z).theta, b);
  EXPECT_EQ(at(CaseName::supercell, z).u, 0.0);
  for (const CaseName name : {CaseName::injection, CaseName::rest}) {
    const PointPerturbation none = at(name, z);
    EXPECT_EQ(none.theta, 0.0);
    EXPECT_EQ(none.u, 0.0);
    EXPECT_EQ(none.w, 0.0);
    EXPECT_EQ(none.temperature, 0.0);
  }
}

}  // namespace
}  // namespace simapp
