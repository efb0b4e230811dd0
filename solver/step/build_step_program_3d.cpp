#include "solver/step/build_step_program_3d.hpp"

#include <array>
#include <string>

#include "kernels/boundary/halo_fill.hpp"
#include "kernels/diagnostics/health_check.hpp"
#include "kernels/flux/fluxes.hpp"
#include "kernels/stage/pass_kernel.hpp"
#include "kernels/stage/pass_tile_sides.hpp"
#include "kernels/stage/stage_kernel.hpp"
#include "kernels/update/tendency_update.hpp"
#include "solver/step/granularity_choice.hpp"
#include "solver/step/halo_ops.hpp"
#include "solver/step/kernel_traffic.hpp"
#include "solver/step/pass_placement.hpp"
#include "solver/step/tracer_ops.hpp"

namespace simapp {

namespace {

std::string pass_name(Direction direction) {
  return direction == Direction::x ? "x" : direction == Direction::y ? "y" : "z";
}

constexpr int variables_3d = ModelVariables<3>::count;
constexpr VarRange all_vars_3d{0, variables_3d};

/// One RK3 stage of one pass: q_out = q_init + dt/divisor · R(q_forcing).
struct Stage3d {
  Direction direction = Direction::x;
  FieldView<double, 3> init;
  FieldView<double, 3> forcing;  ///< the stage's input, whose ghosts along the pass are made or received
  FieldView<double, 3> out;
  StepFields<3> fields;  ///< flux and the fine granularity's scratch arrays
  FluxContext<3> context;
  Bump<3> wave_source;
  const StepResources3d* resources = nullptr;

  const BoundaryConditions<3>& sides() const { return resources->sides; }
  const HaloExchange* exchange() const { return resources->halos.along(direction); }
  HaloPath path() const { return resources->halos.path; }
  bool exchanges() const { return exchanges_along(sides(), direction); }
  /// The domain's low side along the pass is an inflow (the x pass in injection).
  bool has_inflow() const { return direction == Direction::x && resources->domain.x_low.has_inflow(); }
  StageArrays<3> arrays() const { return stage_arrays(init, forcing, out); }
  StageFields<3> stage_fields() const { return {init, forcing, fields.flux, out}; }
  PassShape3d pass() const { return {direction, forcing.shape}; }
  int cells_along() const {
    return direction == Direction::x   ? forcing.shape.nx
           : direction == Direction::y ? forcing.shape.ny
                                       : forcing.shape.nz;
  }
  /// Work can overlap an MPI exchange when asked and the rank has room for it (an NCCL exchange
  /// runs in stream order: see build_step_program.cpp).
  bool overlaps() const { return exchanges() && resources->overlap && path() != HaloPath::nccl && cells_along() >= 4; }
};

void add_halo_fill(StepProgram& program, const std::string& name, const Stage3d& stage, VarRange vars, int lane) {
  program
      .add(
          OpKind::kernel, name,
          [stage, vars](const Stream& stream) {
            fill_halos(stream, stage.direction, stage.forcing, vars, stage.context.background, stage.sides());
          },
          lane)
      .bytes = halo_fill_3d_bytes(stage.pass(), vars.last - vars.first, stage.sides());
}

/// The inflow of this rank's low x side: nothing on a rank away from the domain's inflow side.
void add_inflow(StepProgram& program, const std::string& name, const Stage3d& stage) {
  if (!stage.has_inflow()) return;
  program
      .add(OpKind::kernel, name,
           [stage](const Stream& stream) {
             apply_inflow_halos(stream, stage.forcing, stage.context.background, stage.context.geometry, stage.sides());
           })
      .bytes = inflow_3d_bytes(stage.pass());
}

void add_fluxes(StepProgram& program, const std::string& name, const Stage3d& stage, FaceRegion region, int lane) {
  program
      .add(
          OpKind::kernel, name,
          [stage, region](const Stream& stream) {
            compute_fluxes(stream, stage.direction, stage.forcing, stage.fields.flux, all_vars_3d, stage.context,
                           region);
          },
          lane)
      .bytes = flux_3d_bytes(stage.pass(), region);
}

/// fill (walls or periodic) → [send halos ‖ interior fluxes on lane 1] → receive halos →
/// inflow → boundary fluxes → join → update; without overlap, all fluxes after the exchange.
void add_fused_stage(StepProgram& program, const std::string& prefix, const Stage3d& stage) {
  if (fills_halos(stage.direction, stage.sides())) add_halo_fill(program, prefix + "fill_halos", stage, all_vars_3d, 0);
  if (stage.overlaps()) {
    program.add_join(prefix + "join_before_exchange");
    add_halo_send_ops(program, prefix, stage.forcing, stage.exchange(), stage.path());
    add_fluxes(program, prefix + "fluxes_interior", stage, FaceRegion::interior, 1);
    add_halo_receive_ops(program, prefix, stage.forcing, stage.exchange(), stage.path());
    add_inflow(program, prefix + "inflow", stage);
    add_fluxes(program, prefix + "fluxes_boundary", stage, FaceRegion::boundary, 0);
    program.add_join(prefix + "join_fluxes");  // the update reads the interior fluxes too
  } else {
    if (stage.exchanges()) add_halo_ops(program, prefix, stage.forcing, stage.exchange(), stage.path());
    add_inflow(program, prefix + "inflow", stage);
    add_fluxes(program, prefix + "fluxes", stage, FaceRegion::all, 0);
  }
  program
      .add(OpKind::kernel, prefix + "update",
           [stage](const Stream& stream) {
             apply_tendency_update(stream, stage.direction, stage.stage_fields(), all_vars_3d, stage.context,
                                   stage.wave_source);
           })
      .bytes = update_3d_bytes(stage.pass());
}

/// Adds one kernel per variable on the variable's own lane, named prefix + operation + "." + variable.
template <class Launch>
void add_per_variable(StepProgram& program, const std::string& prefix, const std::string& operation, FineOp op,
                      const PassShape3d& pass, Launch launch) {
  for (int v = 0; v < variables_3d; ++v) {
    const VarRange one{v, v + 1};
    program
        .add(
            OpKind::kernel, prefix + operation + "." + variable_names_3d[v],
            [launch, one](const Stream& stream) { launch(stream, one); }, v)
        .bytes = fine_3d_bytes(op, pass, v);
  }
}

/// Variable v's kernels run on lane v. Lanes meet where a kernel needs other variables:
///   fill_halos.v → [exchange, inflow, between joins] → reconstruct.v → join → flux.v (reads
///   every variable's face values) → join (before the next stage overwrites face values) →
///   tendency.v → update.v.
void add_fine_stage(StepProgram& program, const std::string& prefix, const Stage3d& stage) {
  if (fills_halos(stage.direction, stage.sides()))
    for (int v = 0; v < variables_3d; ++v)
      add_halo_fill(program, prefix + "fill_halos." + variable_names_3d[v], stage, VarRange{v, v + 1}, v);
  if (stage.exchanges()) {  // one exchange of every variable, between joins
    program.add_join(prefix + "join_before_exchange");
    add_halo_ops(program, prefix, stage.forcing, stage.exchange(), stage.path());
    program.add_join(prefix + "join_after_exchange");
  }
  if (stage.has_inflow()) {
    program.add_join(prefix + "join_halos");
    add_inflow(program, prefix + "inflow", stage);
    program.add_join(prefix + "join_inflow");
  }
  const StepFields<3>& f = stage.fields;
  add_per_variable(program, prefix, "reconstruct", FineOp::reconstruct, stage.pass(),
                   [stage, f](const Stream& stream, VarRange one) {
                     reconstruct_faces(stream, stage.direction, stage.forcing, f.face_value, f.face_d3, one);
                   });
  program.add_join(prefix + "join_faces");
  add_per_variable(program, prefix, "flux", FineOp::flux, stage.pass(), [stage, f](const Stream& stream, VarRange one) {
    compute_fluxes_from_faces(stream, stage.direction, stage.forcing, f.face_value, f.face_d3, f.flux, one,
                              stage.context);
  });
  program.add_join(prefix + "join_fluxes");
  add_per_variable(program, prefix, "tendency", FineOp::tendency, stage.pass(),
                   [stage, f](const Stream& stream, VarRange one) {
                     compute_tendencies(stream, stage.direction, stage.forcing, f.flux, f.tendency, one, stage.context,
                                        stage.wave_source);
                   });
  add_per_variable(program, prefix, "update", FineOp::update, stage.pass(),
                   [stage, f](const Stream& stream, VarRange one) {
                     apply_updates(stream, stage.init, f.tendency, stage.out, one, stage.context);
                   });
}

void add_stage_kernel(StepProgram& program, const std::string& name, const Stage3d& stage, const CellBox& cells,
                      int lane) {
  const StageArrays<3> arrays = stage.arrays();
  const FluxContext<3> context = stage.context;
  const Bump<3> wave_source = stage.wave_source;
  const BoundaryConditions<3> sides = stage.sides();
  const Direction direction = stage.direction;
  program
      .add(
          OpKind::kernel, name,
          [direction, arrays, context, wave_source, sides, cells](const Stream& stream) {
            apply_stage(stream, direction, arrays, context, wave_source, sides, cells);
          },
          lane)
      .bytes = stage_kernel_3d_bytes(cells, arrays.init == arrays.forcing);
}

/// One kernel a stage; ghost cells the rank makes itself are made inside it. With an exchange:
/// exchange → stage kernel, or, overlapped, [send ‖ interior cells on lane 1] → receive → the
/// cells next to the ghosts → join.
void add_single_kernel_stage(StepProgram& program, const std::string& prefix, const Stage3d& stage) {
  const FieldShape<3>& shape = stage.forcing.shape;
  if (!stage.overlaps()) {
    if (stage.exchanges()) add_halo_ops(program, prefix, stage.forcing, stage.exchange(), stage.path());
    add_stage_kernel(program, prefix + "stage", stage, interior_cells(shape), 0);
    return;
  }
  program.add_join(prefix + "join_before_exchange");
  add_halo_send_ops(program, prefix, stage.forcing, stage.exchange(), stage.path());
  add_stage_kernel(program, prefix + "stage_interior", stage, stage_interior_cells(stage.direction, shape), 1);
  add_halo_receive_ops(program, prefix, stage.forcing, stage.exchange(), stage.path());
  add_stage_kernel(program, prefix + "stage_low", stage, stage_low_cells(stage.direction, shape), 0);
  add_stage_kernel(program, prefix + "stage_high", stage, stage_high_cells(stage.direction, shape), 0);
  program.add_join(prefix + "join_stage");
}

const StepParams<3>* params_of_slot(const StepResources3d& resources, int slot) {
  return resources.params != nullptr ? resources.params->device_slot(slot) : nullptr;
}

/// The RK3 stages of one split pass, each reading and writing the arrays the scheme names, qⁿ in
/// `arrays[placement.input]` (updated in place) and q*, q** in the placement's other two.
void add_split_pass_3d(StepProgram& program, const StepResources3d& resources, const StepSchemeOf<3>& scheme,
                       Direction direction, int slot, const FieldView<double, 3> (&arrays)[3],
                       const PassPlacement& placement) {
  const FieldView<double, 3>& initial = arrays[placement.input];
  const FieldView<double, 3>& stage1 = arrays[placement.stage1()];
  const FieldView<double, 3>& stage2 = arrays[placement.stage2()];
  for (int s = 0; s < rk_stages; ++s) {
    const RkStage& rk = scheme.stages[s];
    const Stage3d stage{direction,
                        initial,
                        stage_array(rk.input, initial, stage1, stage2),
                        stage_array(rk.output, initial, stage1, stage2),
                        resources.fields,
                        FluxContext<3>{resources.geometry, resources.background, params_of_slot(resources, slot), s},
                        resources.wave_source,
                        &resources};
    const std::string prefix = pass_name(direction) + ".stage" + std::to_string(s + 1) + ".";
    switch (resources.granularity) {
      case Granularity::fine: add_fine_stage(program, prefix, stage); break;
      case Granularity::fused: add_fused_stage(program, prefix, stage); break;
      case Granularity::stage:
      case Granularity::pass: add_single_kernel_stage(program, prefix, stage); break;
      case Granularity::automatic: refuse_unresolved_granularity();
    }
    add_tracer_stage(program, prefix,
                     TracerStage<3>{direction, stage.init, stage.forcing, stage.out, stage.context, resources.tracers,
                                    resources.sides, stage.has_inflow()});
  }
}

/// One split pass as one pass kernel, qⁿ from `input` into `output`.
void add_pass_kernel_3d(StepProgram& program, const StepResources3d& resources, Direction direction, int slot,
                        const FieldView<double, 3>& input, const FieldView<double, 3>& output) {
  const CellGeometry<3> geometry = resources.geometry;
  const HydrostaticView background = resources.background;
  const StepParams<3>* params = params_of_slot(resources, slot);
  const Bump<3> wave_source = resources.wave_source;
  program
      .add(OpKind::kernel, pass_name(direction) + ".pass",
           [direction, input, output, geometry, background, params, wave_source](const Stream& stream) {
             apply_pass(stream, direction, input, output, geometry, background, params, wave_source);
           })
      .bytes = pass_kernel_3d_bytes(input.shape);
}

/// The check of the state after a step, then its count and the copy to the host mirror.
void add_health_check_3d(StepProgram& program, const std::string& prefix, const StepResources3d& resources) {
  const FieldView<double, 3> state = resources.fields.state;
  const HydrostaticView background = resources.background;
  const CellGeometry<3> geometry = resources.geometry;
  const HealthCheckOps health = resources.health;
  program
      .add(OpKind::kernel, prefix + "check_health",
           [state, background, geometry, health](const Stream& stream) {
             check_health_3d(stream, state, background, geometry, health.record);
           })
      .bytes = health_check_3d_bytes(state.shape);
  program.add(OpKind::kernel, prefix + "count_health_check",
              [health](const Stream& stream) { count_health_check(stream, health.record, health.mirror); });
}

}  // namespace

bool exchanges_along(const BoundaryConditions<3>& sides, Direction direction) {
  switch (direction) {
    case Direction::x: return sides.x_low.from_neighbour() || sides.x_high.from_neighbour();
    case Direction::y: return sides.y_low.from_neighbour() || sides.y_high.from_neighbour();
    case Direction::z: return sides.z_low.from_neighbour() || sides.z_high.from_neighbour();
  }
  return false;
}

StepProgram build_chunk_program_3d(const StepResources3d& resources, const ChunkLayout& layout) {
  StepProgram chunk;
  const StepParamsBlock3d* params = resources.params;
  const int steps = layout.steps;
  chunk.add(OpKind::transfer, "refresh_step_params",
            [params, steps](const Stream& stream) { params->enqueue_refresh(stream, steps); });
  add_chunk_steps(
      chunk, layout, [&](StepParity parity, int slot) { return build_step_program_3d(resources, parity, slot); },
      [&](const std::string& prefix, const StepProgram&) { add_health_check_3d(chunk, prefix, resources); });
  return chunk;
}

StepProgram build_loop_body_program_3d(const StepResources3d& resources, const ChunkLayout& layout,
                                       const LoopControl* loop) {
  StepProgram body;
  StepParams<3>* slots = resources.params != nullptr ? resources.params->writable_device_slots() : nullptr;
  const int steps = layout.steps;
  body.add(OpKind::kernel, "advance_step_params", [loop, slots, steps](const Stream& stream) {
    advance_step_params_3d(stream, loop->clock, slots, steps, loop->schedule);
  });
  add_chunk_steps(
      body, layout, [&](StepParity parity, int slot) { return build_step_program_3d(resources, parity, slot); },
      [&](const std::string& prefix, const StepProgram&) { add_health_check_3d(body, prefix, resources); });
  const HealthRecord* health = resources.health.every > 0 ? resources.health.record : nullptr;
  body.add(OpKind::kernel, "count_loop_steps", [loop, steps, health](const Stream& stream) {
    count_loop_steps(stream, loop->clock, steps, health, loop->condition);
  });
  return body;
}

std::array<PassPlacement, StepSchemeOf<3>::passes> place_passes_3d(const StepResources3d& resources,
                                                                   StepParity parity) {
  constexpr StepSchemeOf<3> scheme = step_scheme_3d();
  std::array<bool, scheme.passes> can_fuse{};
  for (int p = 0; p < scheme.passes; ++p)
    can_fuse[p] = resources.granularity == Granularity::pass && !has_tracers(resources.fields.state) &&
                  pass_tile_makes_along(resources.sides, scheme.pass(parity, p));
  return place_passes(can_fuse);
}

StepProgram build_step_program_3d(const StepResources3d& resources, StepParity parity, int slot) {
  constexpr StepSchemeOf<3> scheme = step_scheme_3d();
  const StepFields<3>& f = resources.fields;
  const FieldView<double, 3> arrays[3] = {f.state, f.stage1, f.stage2};
  const auto placement = place_passes_3d(resources, parity);
  StepProgram program;
  for (int p = 0; p < scheme.passes; ++p) {
    const Direction direction = scheme.pass(parity, p);
    if (placement[p].pass_kernel)
      add_pass_kernel_3d(program, resources, direction, slot, arrays[placement[p].input], arrays[placement[p].output]);
    else
      add_split_pass_3d(program, resources, scheme, direction, slot, arrays, placement[p]);
  }
  return program;
}

}  // namespace simapp
