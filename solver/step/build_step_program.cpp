#include "solver/step/build_step_program.hpp"

#include <array>
#include <string>

#include "kernels/boundary/halo_fill.hpp"
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

constexpr VarRange all_vars{0, var::count};

/// One RK3 stage of one pass: q_out = q_init + dt/divisor · R(q_forcing).
struct Stage {
  Direction direction = Direction::x;
  FieldView<double, 2> init;
  FieldView<double, 2> forcing;  ///< the stage's input, whose halos are filled
  FieldView<double, 2> out;
  StepFields<2> fields;  ///< flux and the fine-granularity scratch arrays
  FluxContext<2> context;
  Bump<2> wave_source;
  GhostFill halo;

  StageFields<2> stage_fields() const { return {init, forcing, fields.flux, out}; }
  PassShape pass() const { return {direction, forcing.shape.nx, forcing.shape.nz, forcing.shape.halo}; }
};

void add_halo_fill(StepProgram& program, const std::string& name, const Stage& stage, VarRange vars, int lane) {
  program
      .add(
          OpKind::kernel, name,
          [stage, vars](const Stream& stream) {
            fill_halos(stream, stage.direction, stage.forcing, vars, stage.context.background, stage.halo.sides);
          },
          lane)
      .bytes = halo_fill_bytes(stage.pass(), vars.last - vars.first, stage.halo.sides);
}

/// True when the domain's low side along the pass is an inflow (the x pass in injection).
bool has_inflow(const Stage& stage) { return stage.halo.domain.side(stage.direction, Side::low).has_inflow(); }

/// The inflow of this rank's low side: nothing on a rank away from the domain's inflow side.
void add_inflow(StepProgram& program, const std::string& name, const Stage& stage) {
  if (!has_inflow(stage)) return;
  program
      .add(OpKind::kernel, name,
           [stage](const Stream& stream) {
             apply_inflow_halos(stream, stage.forcing, stage.context.background, stage.context.geometry,
                                stage.halo.sides);
           })
      .bytes = inflow_bytes(stage.pass());
}

/// True when ghost cells of the pass come from neighbour ranks.
bool exchanges(const Stage& stage) { return stage.halo.exchanges(stage.direction); }

void add_exchange(StepProgram& program, const std::string& prefix, const Stage& stage) {
  const HaloExchange* exchange = stage.direction == Direction::x ? stage.halo.x : stage.halo.z;
  add_halo_ops(program, prefix, stage.forcing, exchange, stage.halo.path);
}

void add_fluxes(StepProgram& program, const std::string& name, const Stage& stage, FaceRegion region, int lane) {
  program
      .add(
          OpKind::kernel, name,
          [stage, region](const Stream& stream) {
            compute_fluxes(stream, stage.direction, stage.forcing, stage.fields.flux, all_vars, stage.context, region);
          },
          lane)
      .bytes = flux_bytes(stage.pass(), region);
}

/// Interior fluxes can overlap an MPI exchange when asked and the rank has room for them.
/// An NCCL exchange runs in stream order: beside the interior-flux kernel in the graph, its
/// kernel waited for the GPU and made every measured step slower (docs/performance.md).
bool overlaps(const Stage& stage) {
  const int cells = stage.direction == Direction::x ? stage.forcing.shape.nx : stage.forcing.shape.nz;
  return exchanges(stage) && stage.halo.overlap && stage.halo.path != HaloPath::nccl && cells >= 4;
}

/// fill (walls or periodic) → [send halos ‖ interior fluxes on lane 1] → receive halos →
/// inflow → boundary fluxes → join → update; without overlap, all fluxes after the exchange.
void add_fused_stage(StepProgram& program, const std::string& prefix, const Stage& stage) {
  if (fills_halos(stage.direction, stage.halo.sides)) add_halo_fill(program, prefix + "fill_halos", stage, all_vars, 0);
  if (overlaps(stage)) {
    const HaloExchange* exchange = stage.direction == Direction::x ? stage.halo.x : stage.halo.z;
    program.add_join(prefix + "join_before_exchange");
    add_halo_send_ops(program, prefix, stage.forcing, exchange, stage.halo.path);
    add_fluxes(program, prefix + "fluxes_interior", stage, FaceRegion::interior, 1);
    add_halo_receive_ops(program, prefix, stage.forcing, exchange, stage.halo.path);
    add_inflow(program, prefix + "inflow", stage);
    add_fluxes(program, prefix + "fluxes_boundary", stage, FaceRegion::boundary, 0);
    program.add_join(prefix + "join_fluxes");  // the update reads the interior fluxes too
  } else {
    if (exchanges(stage)) add_exchange(program, prefix, stage);
    add_inflow(program, prefix + "inflow", stage);
    add_fluxes(program, prefix + "fluxes", stage, FaceRegion::all, 0);
  }
  program
      .add(OpKind::kernel, prefix + "update",
           [stage](const Stream& stream) {
             apply_tendency_update(stream, stage.direction, stage.stage_fields(), all_vars, stage.context,
                                   stage.wave_source);
           })
      .bytes = update_bytes(stage.pass());
}

/// Adds one kernel per variable on the variable's own lane, named prefix + operation + "." + variable.
template <class Launch>
void add_per_variable(StepProgram& program, const std::string& prefix, const std::string& operation, FineOp op,
                      const PassShape& pass, Launch launch) {
  for (int v = 0; v < var::count; ++v) {
    const VarRange one{v, v + 1};
    program
        .add(
            OpKind::kernel, prefix + operation + "." + variable_names[v],
            [launch, one](const Stream& stream) { launch(stream, one); }, v)
        .bytes = fine_bytes(op, pass, v);
  }
}

/// Variable v's kernels run on lane v. Lanes meet where a kernel needs other variables:
///   fill_halos.v → [inflow, after a join] → reconstruct.v → join → flux.v (reads every
///   variable's face values) → join (before the next stage overwrites face values) →
///   tendency.v → update.v.
void add_fine_stage(StepProgram& program, const std::string& prefix, const Stage& stage) {
  if (fills_halos(stage.direction, stage.halo.sides))
    for (int v = 0; v < var::count; ++v)
      add_halo_fill(program, prefix + "fill_halos." + variable_names[v], stage, VarRange{v, v + 1}, v);
  if (exchanges(stage)) {  // one exchange of every variable, between joins
    program.add_join(prefix + "join_before_exchange");
    add_exchange(program, prefix, stage);
    program.add_join(prefix + "join_after_exchange");
  }
  if (has_inflow(stage)) {
    program.add_join(prefix + "join_halos");
    add_inflow(program, prefix + "inflow", stage);
    program.add_join(prefix + "join_inflow");
  }
  const StepFields<2>& f = stage.fields;
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

void add_stage_kernel(StepProgram& program, const std::string& name, const Stage& stage, const CellBox& cells,
                      int lane) {
  const BoundaryConditions<2>& sides = stage.halo.sides;
  program
      .add(
          OpKind::kernel, name,
          [stage, cells](const Stream& stream) {
            apply_stage(stream, stage.direction, stage_arrays(stage.init, stage.forcing, stage.out), stage.context,
                        stage.wave_source, stage.halo.sides, cells);
          },
          lane)
      .bytes = stage_kernel_bytes(stage.pass(), IndexBox{cells.i_lo, cells.i_hi, cells.k_lo, cells.k_hi},
                                  sides.side(stage.direction, Side::low).from_neighbour(),
                                  sides.side(stage.direction, Side::high).from_neighbour(),
                                  stage.init.data == stage.forcing.data);
}

/// One kernel a stage; ghost cells the rank fills itself are made inside it. With an exchange:
/// exchange → stage kernel, or, overlapped, [send ‖ interior cells on lane 1] → receive →
/// the cells next to the ghosts → join.
void add_single_kernel_stage(StepProgram& program, const std::string& prefix, const Stage& stage) {
  const FieldShape<2>& shape = stage.forcing.shape;
  if (!overlaps(stage)) {
    if (exchanges(stage)) add_exchange(program, prefix, stage);
    add_stage_kernel(program, prefix + "stage", stage, interior_cells(shape), 0);
    return;
  }
  const HaloExchange* exchange = stage.direction == Direction::x ? stage.halo.x : stage.halo.z;
  program.add_join(prefix + "join_before_exchange");
  add_halo_send_ops(program, prefix, stage.forcing, exchange, stage.halo.path);
  add_stage_kernel(program, prefix + "stage_interior", stage, stage_interior_cells(stage.direction, shape), 1);
  add_halo_receive_ops(program, prefix, stage.forcing, exchange, stage.halo.path);
  add_stage_kernel(program, prefix + "stage_low", stage, stage_low_cells(stage.direction, shape), 0);
  add_stage_kernel(program, prefix + "stage_high", stage, stage_high_cells(stage.direction, shape), 0);
  program.add_join(prefix + "join_stage");
}

const StepParams<2>* params_of_slot(const StepResources& resources, int slot) {
  return resources.params != nullptr ? resources.params->device_slot(slot) : nullptr;
}

/// Adds the RK3 stages of one split pass, each reading and writing the arrays the scheme names:
/// qⁿ → q* → q** → qⁿ⁺¹ (three distinct arrays, so no stage reads the array it writes, except
/// the point-wise qⁿ + dt R in the last), qⁿ in `arrays[placement.input]` (updated in place) and
/// q*, q** in the placement's other two.
void add_split_pass(StepProgram& program, const StepResources& resources, const StepScheme& scheme, Direction direction,
                    int slot, const FieldView<double, 2> (&arrays)[3], const PassPlacement& placement) {
  const StepParams<2>* params = params_of_slot(resources, slot);
  const std::string pass = direction == Direction::x ? "x" : "z";
  const FieldView<double, 2>& initial = arrays[placement.input];
  const FieldView<double, 2>& stage1 = arrays[placement.stage1()];
  const FieldView<double, 2>& stage2 = arrays[placement.stage2()];

  for (int s = 0; s < rk_stages; ++s) {
    const RkStage& rk = scheme.stages[s];
    const Stage stage{direction,
                      initial,
                      stage_array(rk.input, initial, stage1, stage2),
                      stage_array(rk.output, initial, stage1, stage2),
                      resources.fields,
                      FluxContext<2>{resources.geometry, resources.background, params, s},
                      resources.wave_source,
                      resources.halo};
    const std::string prefix = pass + ".stage" + std::to_string(s + 1) + ".";
    switch (resources.granularity) {
      case Granularity::fine: add_fine_stage(program, prefix, stage); break;
      case Granularity::fused: add_fused_stage(program, prefix, stage); break;
      case Granularity::stage:
      case Granularity::pass: add_single_kernel_stage(program, prefix, stage); break;
      case Granularity::automatic: refuse_unresolved_granularity();
    }
    add_tracer_stage(program, prefix,
                     TracerStage<2>{direction, stage.init, stage.forcing, stage.out, stage.context, resources.tracers,
                                    resources.halo.sides, has_inflow(stage)});
  }
}

/// One split pass as one pass kernel, qⁿ from `input` into `output`.
void add_pass_kernel(StepProgram& program, const StepResources& resources, Direction direction, int slot,
                     const FieldView<double, 2>& input, const FieldView<double, 2>& output) {
  const CellGeometry<2> geometry = resources.geometry;
  const HydrostaticView background = resources.background;
  const StepParams<2>* params = params_of_slot(resources, slot);
  const Bump<2> wave_source = resources.wave_source;
  program
      .add(OpKind::kernel, direction == Direction::x ? "x.pass" : "z.pass",
           [direction, input, output, geometry, background, params, wave_source](const Stream& stream) {
             apply_pass(stream, direction, input, output, geometry, background, params, wave_source);
           })
      .bytes = pass_kernel_bytes(input.shape.nx, input.shape.nz);
}

/// The check of the state after a step, then its count and the copy to the host mirror.
void add_health_check(StepProgram& program, const std::string& prefix, const StepResources& resources,
                      bool after_lanes) {
  if (after_lanes) program.add_join(prefix + "join_before_check");
  const FieldView<double, 2> state = resources.fields.state;
  const HydrostaticView background = resources.background;
  const CellGeometry<2> geometry = resources.geometry;
  const HealthCheckOps health = resources.health;
  program
      .add(OpKind::kernel, prefix + "check_health",
           [state, background, geometry, health](const Stream& stream) {
             check_health(stream, state, background, geometry, health.record);
           })
      .bytes = health_check_bytes(state.shape.nx, state.shape.nz);
  program.add(OpKind::kernel, prefix + "count_health_check",
              [health](const Stream& stream) { count_health_check(stream, health.record, health.mirror); });
}

}  // namespace

StepProgram build_step_program(const StepResources& resources, const StepScheme& scheme, StepParity parity, int slot) {
  std::array<bool, split_passes> can_fuse{};
  for (int p = 0; p < split_passes; ++p)
    can_fuse[p] = resources.granularity == Granularity::pass && !has_tracers(resources.fields.state) &&
                  pass_tile_makes_along(resources.halo.sides, scheme.pass(parity, p));
  const auto placement = place_passes(can_fuse);
  const StepFields<2>& f = resources.fields;
  const FieldView<double, 2> arrays[3] = {f.state, f.stage1, f.stage2};
  StepProgram program;
  for (int p = 0; p < split_passes; ++p) {
    const Direction direction = scheme.pass(parity, p);
    if (placement[p].pass_kernel)
      add_pass_kernel(program, resources, direction, slot, arrays[placement[p].input], arrays[placement[p].output]);
    else
      add_split_pass(program, resources, scheme, direction, slot, arrays, placement[p]);
  }
  return program;
}

StepProgram build_step_program(const StepResources& resources, StepParity parity, int slot) {
  return build_step_program(resources, step_scheme(), parity, slot);
}

ChunkLayout chunk_layout(long completed, int steps, long num_steps, int check_every) {
  ChunkLayout layout{parity_of(completed + 1), steps, {}};
  for (int j = 0; j < steps; ++j)
    if (step_scheme().checks_after(completed + 1 + j, num_steps, check_every)) layout.checked.push_back(j);
  return layout;
}

void add_chunk_steps(StepProgram& chunk, const ChunkLayout& layout,
                     const std::function<StepProgram(StepParity, int)>& step_of,
                     const std::function<void(const std::string&, const StepProgram&)>& add_check) {
  auto next_check = layout.checked.begin();
  for (int j = 0; j < layout.steps; ++j) {
    const bool odd = (j % 2 == 0) == (layout.first == StepParity::odd);
    const StepProgram step = step_of(odd ? StepParity::odd : StepParity::even, j);
    const std::string prefix = "step" + std::to_string(j + 1) + "/";
    chunk.append(step, prefix);
    if (next_check != layout.checked.end() && *next_check == j) {
      add_check(prefix, step);
      ++next_check;
    }
  }
}

namespace {

/// Appends the steps of `layout`, step j reading slot j, followed by the health check where
/// layout.checked holds j.
void add_steps(StepProgram& chunk, const StepResources& resources, const ChunkLayout& layout) {
  add_chunk_steps(
      chunk, layout, [&](StepParity parity, int slot) { return build_step_program(resources, parity, slot); },
      [&](const std::string& prefix, const StepProgram& step) {
        add_health_check(chunk, prefix, resources, step.uses_lanes());
      });
}

}  // namespace

StepProgram build_chunk_program(const StepResources& resources, const ChunkLayout& layout) {
  StepProgram chunk;
  const StepParamsBlock* params = resources.params;
  const int steps = layout.steps;
  chunk.add(OpKind::transfer, "refresh_step_params",
            [params, steps](const Stream& stream) { params->enqueue_refresh(stream, steps); });
  add_steps(chunk, resources, layout);
  return chunk;
}

StepProgram build_loop_body_program(const StepResources& resources, const ChunkLayout& layout,
                                    const LoopControl* loop) {
  StepProgram body;
  StepParams<2>* slots = resources.params != nullptr ? resources.params->writable_device_slots() : nullptr;
  const int steps = layout.steps;
  body.add(OpKind::kernel, "advance_step_params", [loop, slots, steps](const Stream& stream) {
    advance_step_params(stream, loop->clock, slots, steps, loop->schedule);
  });
  add_steps(body, resources, layout);
  const HealthRecord* health = resources.health.every > 0 ? resources.health.record : nullptr;
  body.add(OpKind::kernel, "count_loop_steps", [loop, steps, health](const Stream& stream) {
    count_loop_steps(stream, loop->clock, steps, health, loop->condition);
  });
  return body;
}

}  // namespace simapp
