#include "solver/step/step_description.hpp"

#include <fmt/core.h>

#include <string_view>
#include <utility>

namespace simapp {

namespace {

std::string_view direction_name(Direction direction) {
  switch (direction) {
    case Direction::x: return "x";
    case Direction::y: return "y";
    case Direction::z: return "z";
  }
  return "?";
}

/// The passes of a step of `parity` in order: "x then z".
template <int Passes>
std::string passes_of(const StepSchemeOf<Passes>& scheme, StepParity parity) {
  std::string passes;
  for (int p = 0; p < Passes; ++p) {
    if (p > 0) passes += " then ";
    passes += direction_name(scheme.pass(parity, p));
  }
  return passes;
}

/// The array a stage reads, or writes (`written`: the state written is qⁿ⁺¹).
std::string_view array_name(StageArray array, bool written) {
  switch (array) {
    case StageArray::state: return written ? "qⁿ⁺¹" : "qⁿ";
    case StageArray::stage1: return "q*";
    case StageArray::stage2: return "q**";
  }
  return "?";
}

/// One side: "x low inflow (u = 50 m/s, θ = 298 K where |z − 0.75 zlen| ≤ 0.0625 zlen)".
std::string side_text(std::string_view name, const BoundaryCondition& side, const InflowProfile& inflow) {
  switch (side.kind) {
    case BoundaryKind::periodic: return fmt::format("{} periodic", name);
    case BoundaryKind::wall: return fmt::format("{} free-slip wall", name);
    case BoundaryKind::exchanged: return fmt::format("{} exchanged", name);
    case BoundaryKind::inflow:
    case BoundaryKind::exchanged_inflow: break;
  }
  return fmt::format("{} {}inflow (u = {} m/s, θ = {} K where |z − {} zlen| ≤ {} zlen; periodic elsewhere)", name,
                     side.kind == BoundaryKind::exchanged_inflow ? "exchanged, then " : "", inflow.u, inflow.theta,
                     inflow.centre, inflow.half_width);
}

}  // namespace

template <int Passes>
std::string describe_passes(const StepSchemeOf<Passes>& scheme) {
  return fmt::format("passes: odd steps {}; even steps {}", passes_of(scheme, StepParity::odd),
                     passes_of(scheme, StepParity::even));
}
template std::string describe_passes(const StepSchemeOf<2>&);
template std::string describe_passes(const StepSchemeOf<3>&);

namespace {

/// The lines of describe_step, the boundaries' line given.
template <int Passes>
std::vector<std::string> step_lines(const StepSchemeOf<Passes>& scheme, std::string boundaries, int check_every) {
  std::vector<std::string> lines;
  lines.push_back(describe_passes(scheme));
  std::string stages = "stages of a pass:";
  for (int s = 0; s < rk_stages; ++s) {
    const RkStage& stage = scheme.stages[s];
    stages += fmt::format("{} {} = qⁿ + dt/{} R({})", s > 0 ? ";" : "", array_name(stage.output, true),
                          stage.dt_divisor, array_name(stage.input, false));
  }
  lines.push_back(stages);
  lines.push_back(
      "ghost cells: of each stage's input, before the stage (made by rule, or exchanged with a neighbour rank)");
  lines.push_back(check_every > 0
                      ? fmt::format("health check: after each multiple of {} steps and after the last", check_every)
                      : std::string("health check: none (execution.check_every: 0)"));
  lines.push_back(std::move(boundaries));
  return lines;
}

std::string x_sides_text(const BoundaryConditions<2>& domain) {
  return fmt::format("{}, {}", side_text("x low", domain.x_low, domain.inflow),
                     side_text("x high", domain.x_high, domain.inflow));
}

std::string z_sides_text(const BoundaryConditions<2>& domain) {
  return fmt::format("{}, {}", side_text("z low", domain.z_low, domain.inflow),
                     side_text("z high", domain.z_high, domain.inflow));
}

}  // namespace

std::vector<std::string> describe_step(const StepScheme& scheme, const BoundaryConditions<2>& domain, int check_every) {
  return step_lines(scheme, fmt::format("boundaries: {}, {}", x_sides_text(domain), z_sides_text(domain)), check_every);
}

std::vector<std::string> describe_step(const StepSchemeOf<3>& scheme, const BoundaryConditions<3>& domain,
                                       int check_every) {
  return step_lines(
      scheme,
      fmt::format("boundaries: {}, {}, {}, {}", x_sides_text(domain), side_text("y low", domain.y_low, domain.inflow),
                  side_text("y high", domain.y_high, domain.inflow), z_sides_text(domain)),
      check_every);
}

}  // namespace simapp
