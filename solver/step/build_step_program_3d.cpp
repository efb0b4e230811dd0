#include "solver/step/build_step_program_3d.hpp"

#include <string>

#include "kernels/stage/stage_kernel_3d.hpp"
#include "solver/step/kernel_traffic.hpp"

namespace simapp {

namespace {

std::string pass_name(Direction direction) {
  return direction == Direction::x ? "x" : direction == Direction::y ? "y" : "z";
}

/// The RK3 stages of one split pass, each reading and writing the arrays the scheme names.
void add_split_pass_3d(StepProgram& program, const StepResources3d& resources, const StepSchemeOf<3>& scheme,
                       Direction direction, int slot) {
  const StepFields3d& f = resources.fields;
  const FieldShape3d& shape = f.state.shape;
  const CellBox3d cells{0, shape.nx, 0, shape.ny, 0, shape.nz};
  for (int s = 0; s < rk_stages; ++s) {
    const RkStage& rk = scheme.stages[s];
    const StageArrays3d arrays = stage_arrays(f.state, stage_array(rk.input, f.state, f.stage1, f.stage2),
                                              stage_array(rk.output, f.state, f.stage1, f.stage2));
    const FluxContext3d context{resources.geometry, resources.background,
                                resources.params != nullptr ? resources.params + slot : nullptr, s};
    const Bump3d wave_source = resources.wave_source;
    const BoundaryConditions3d sides = resources.sides;
    program
        .add(OpKind::kernel, pass_name(direction) + ".stage" + std::to_string(s + 1) + ".stage",
             [direction, arrays, context, wave_source, sides, cells](const Stream& stream) {
               apply_stage_3d(stream, direction, arrays, context, wave_source, sides, cells);
             })
        .bytes = stage_kernel_3d_bytes(cells, arrays.init == arrays.forcing);
  }
}

}  // namespace

StepProgram build_step_program_3d(const StepResources3d& resources, StepParity parity, int slot) {
  constexpr StepSchemeOf<3> scheme = step_scheme_3d();
  StepProgram program;
  for (int p = 0; p < scheme.passes; ++p) add_split_pass_3d(program, resources, scheme, scheme.pass(parity, p), slot);
  return program;
}

}  // namespace simapp
