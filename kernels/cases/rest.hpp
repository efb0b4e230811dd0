#pragma once
/// Case rest: the background alone, which must stay at rest (docs/model.md, "Initial state").
#include <string_view>

#include "kernels/cases/case_defaults.hpp"

namespace simapp {

struct Rest : CaseDefaults {
  static constexpr std::string_view name = "rest";
};

}  // namespace simapp
