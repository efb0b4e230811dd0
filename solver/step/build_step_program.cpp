#include "solver/step/build_step_program.hpp"

#include <array>
#include <functional>
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
#include "solver/step/step_elements.hpp"
#include "solver/step/tracer_ops.hpp"

namespace simapp {

namespace {

template <int Dims>
constexpr int variables = ModelVariables<Dims>::count;
template <int Dims>
constexpr VarRange all_vars{0, variables<Dims>};

std::string pass_name(Direction direction) {
  return direction == Direction::x ? "x" : direction == Direction::y ? "y" : "z";
}

/// One RK3 stage of one pass: q_out = q_init + dt/divisor · R(q_forcing).
template <int Dims, class Real>
struct Stage {
  Direction direction = Direction::x;
  FieldView<Real, Dims> init;
  FieldView<Real, Dims> forcing;  ///< the stage's input, whose ghosts along the pass are made or received
  FieldView<Real, Dims> out;
  StepFields<Dims, Real> fields;  ///< flux and the fine granularity's scratch arrays
  FluxContext<Dims> context;
  SourceTerms<Dims> sources;
  GhostFill<Dims> halo;

  const BoundaryConditions<Dims>& sides() const { return halo.sides; }
  const HaloExchange* exchange() const { return halo.along(direction); }
  /// Ghost cells of the pass come from neighbour ranks.
  bool exchanges() const { return halo.exchanges(direction); }
  /// The domain's low side along the pass is an inflow (the x pass in injection).
  bool has_inflow() const { return side_of(halo.domain, direction, Side::low).has_inflow(); }
  StageFields<Real, Dims> stage_fields() const { return {init, forcing, fields.flux, out}; }
  PassShape<Dims> pass() const { return {direction, forcing.shape}; }
  /// Work can overlap an MPI exchange when asked and the rank has room for it. An NCCL exchange
  /// runs in stream order: beside the interior-flux kernel in the graph, its kernel waited for
  /// the GPU and made every measured step slower (docs/performance.md).
  bool overlaps() const { return exchanges() && halo.overlap && halo.path != HaloPath::nccl && pass().along() >= 4; }
};

template <int Dims, class Real>
void add_halo_fill(StepProgram& program, const std::string& name, const Stage<Dims, Real>& stage, VarRange vars,
                   int lane) {
  program
      .add(
          OpKind::kernel, name,
          [stage, vars](const Stream& stream) {
            fill_halos(stream, stage.direction, stage.forcing, vars, stage.context.background, stage.sides());
          },
          lane)
      .bytes = halo_fill_bytes(stage.pass(), vars.last - vars.first, stage.sides());
}

/// The inflow of this rank's low side: nothing on a rank away from the domain's inflow side.
template <int Dims, class Real>
void add_inflow(StepProgram& program, const std::string& name, const Stage<Dims, Real>& stage) {
  if (!stage.has_inflow()) return;
  program
      .add(OpKind::kernel, name,
           [stage](const Stream& stream) {
             apply_inflow_halos(stream, stage.forcing, stage.context.background, stage.context.geometry, stage.sides());
           })
      .bytes = inflow_bytes(stage.pass());
}

template <int Dims, class Real>
void add_exchange(StepProgram& program, const std::string& prefix, const Stage<Dims, Real>& stage) {
  add_halo_ops(program, prefix, stage.forcing, stage.exchange(), stage.halo.path);
}

template <int Dims, class Real>
void add_fluxes(StepProgram& program, const std::string& name, const Stage<Dims, Real>& stage, FaceRegion region,
                int lane) {
  program
      .add(
          OpKind::kernel, name,
          [stage, region](const Stream& stream) {
            compute_fluxes(stream, stage.direction, stage.forcing, stage.fields.flux, all_vars<Dims>, stage.context,
                           region);
          },
          lane)
      .bytes = flux_bytes(stage.pass(), region);
}

/// fill (walls or periodic) → [send halos ‖ interior fluxes on lane 1] → receive halos →
/// inflow → boundary fluxes → join → update; without overlap, all fluxes after the exchange.
template <int Dims, class Real>
void add_fused_stage(StepProgram& program, const std::string& prefix, const Stage<Dims, Real>& stage) {
  if (fills_halos(stage.direction, stage.sides()))
    add_halo_fill(program, prefix + "fill_halos", stage, all_vars<Dims>, 0);
  if (stage.overlaps()) {
    program.add_join(prefix + "join_before_exchange");
    add_halo_send_ops(program, prefix, stage.forcing, stage.exchange(), stage.halo.path);
    add_fluxes(program, prefix + "fluxes_interior", stage, FaceRegion::interior, 1);
    add_halo_receive_ops(program, prefix, stage.forcing, stage.exchange(), stage.halo.path);
    add_inflow(program, prefix + "inflow", stage);
    add_fluxes(program, prefix + "fluxes_boundary", stage, FaceRegion::boundary, 0);
    program.add_join(prefix + "join_fluxes");  // the update reads the interior fluxes too
  } else {
    if (stage.exchanges()) add_exchange(program, prefix, stage);
    add_inflow(program, prefix + "inflow", stage);
    add_fluxes(program, prefix + "fluxes", stage, FaceRegion::all, 0);
  }
  program
      .add(OpKind::kernel, prefix + "update",
           [stage](const Stream& stream) {
             apply_tendency_update(stream, stage.direction, stage.stage_fields(), all_vars<Dims>, stage.context,
                                   stage.sources);
           })
      .bytes = update_bytes(stage.pass());
}

/// Adds one kernel per variable on the variable's own lane, named prefix + operation + "." + variable.
template <int Dims, class Launch>
void add_per_variable(StepProgram& program, const std::string& prefix, const std::string& operation, FineOp op,
                      const PassShape<Dims>& pass, Launch launch) {
  for (int v = 0; v < variables<Dims>; ++v) {
    const VarRange one{v, v + 1};
    program
        .add(
            OpKind::kernel, prefix + operation + "." + variable_names<Dims>[v],
            [launch, one](const Stream& stream) { launch(stream, one); }, v)
        .bytes = fine_bytes(op, pass, v);
  }
}

/// Variable v's kernels run on lane v. Lanes meet where a kernel needs other variables:
///   fill_halos.v → [exchange, inflow, between joins] → reconstruct.v → join → flux.v (reads
///   every variable's face values) → join (before the next stage overwrites face values) →
///   tendency.v → update.v.
template <int Dims, class Real>
void add_fine_stage(StepProgram& program, const std::string& prefix, const Stage<Dims, Real>& stage) {
  if (fills_halos(stage.direction, stage.sides()))
    for (int v = 0; v < variables<Dims>; ++v)
      add_halo_fill(
          program, prefix + "fill_halos." + variable_names<Dims>[v], stage, VarRange { v, v + 1 }, v);
  if (stage.exchanges()) {  // one exchange of every variable, between joins
    program.add_join(prefix + "join_before_exchange");
    add_exchange(program, prefix, stage);
    program.add_join(prefix + "join_after_exchange");
  }
  if (stage.has_inflow()) {
    program.add_join(prefix + "join_halos");
    add_inflow(program, prefix + "inflow", stage);
    program.add_join(prefix + "join_inflow");
  }
  const StepFields<Dims, Real>& f = stage.fields;
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
                                        stage.sources);
                   });
  add_per_variable(program, prefix, "update", FineOp::update, stage.pass(),
                   [stage, f](const Stream& stream, VarRange one) {
                     apply_updates(stream, stage.init, f.tendency, stage.out, one, stage.context);
                   });
}

template <int Dims, class Real>
void add_stage_kernel(StepProgram& program, const std::string& name, const Stage<Dims, Real>& stage,
                      const CellBox& cells, int lane) {
  const StageArrays<Real, Dims> arrays = stage_arrays(stage.init, stage.forcing, stage.out);
  const FluxContext<Dims> context = stage.context;
  const SourceTerms<Dims> sources = stage.sources;
  const BoundaryConditions<Dims> sides = stage.sides();
  const Direction direction = stage.direction;
  program
      .add(
          OpKind::kernel, name,
          [direction, arrays, context, sources, sides, cells](const Stream& stream) {
            apply_stage(stream, direction, arrays, context, sources, sides, cells);
          },
          lane)
      .bytes =
      stage_kernel_bytes(stage.pass(), cells, side_of(sides, direction, Side::low).from_neighbour(),
                         side_of(sides, direction, Side::high).from_neighbour(), stage.init.data == stage.forcing.data);
}

/// One kernel a stage; ghost cells the rank makes itself are made inside it. With an exchange:
/// exchange → stage kernel, or, overlapped, [send ‖ interior cells on lane 1] → receive → the
/// cells next to the ghosts → join.
template <int Dims, class Real>
void add_single_kernel_stage(StepProgram& program, const std::string& prefix, const Stage<Dims, Real>& stage) {
  const FieldShape<Dims>& shape = stage.forcing.shape;
  if (!stage.overlaps()) {
    if (stage.exchanges()) add_exchange(program, prefix, stage);
    add_stage_kernel(program, prefix + "stage", stage, interior_cells(shape), 0);
    return;
  }
  program.add_join(prefix + "join_before_exchange");
  add_halo_send_ops(program, prefix, stage.forcing, stage.exchange(), stage.halo.path);
  add_stage_kernel(program, prefix + "stage_interior", stage, stage_interior_cells(stage.direction, shape), 1);
  add_halo_receive_ops(program, prefix, stage.forcing, stage.exchange(), stage.halo.path);
  add_stage_kernel(program, prefix + "stage_low", stage, stage_low_cells(stage.direction, shape), 0);
  add_stage_kernel(program, prefix + "stage_high", stage, stage_high_cells(stage.direction, shape), 0);
  program.add_join(prefix + "join_stage");
}

template <int Dims, class Real>
const StepParams<Dims>* params_of_slot(const StepResources<Dims, Real>& resources, int slot) {
  return resources.params != nullptr ? resources.params->device_slot(slot) : nullptr;
}

/// Adds the RK3 stages of one split pass, each reading and writing the arrays the scheme names:
/// qⁿ → q* → q** → qⁿ⁺¹ (three distinct arrays, so no stage reads the array it writes, except
/// the point-wise qⁿ + dt R in the last), qⁿ in `arrays[placement.input]` (updated in place) and
/// q*, q** in the placement's other two.
template <int Dims, class Real>
void add_split_pass(StepProgram& program, const StepResources<Dims, Real>& resources,
                    const ModelStepScheme<Dims>& scheme, Direction direction, int slot,
                    const FieldView<Real, Dims> (&arrays)[3], const PassPlacement& placement) {
  const StepParams<Dims>* params = params_of_slot(resources, slot);
  const FieldView<Real, Dims>& initial = arrays[placement.input];
  const FieldView<Real, Dims>& stage1 = arrays[placement.stage1()];
  const FieldView<Real, Dims>& stage2 = arrays[placement.stage2()];
  for (int s = 0; s < rk_stages; ++s) {
    const RkStage& rk = scheme.stages[s];
    const Stage<Dims, Real> stage{direction,
                                  initial,
                                  stage_array(rk.input, initial, stage1, stage2),
                                  stage_array(rk.output, initial, stage1, stage2),
                                  resources.fields,
                                  FluxContext<Dims>{resources.geometry, resources.background, params, s},
                                  resources.sources,
                                  resources.halo};
    const std::string prefix = pass_name(direction) + ".stage" + std::to_string(s + 1) + ".";
    switch (resources.granularity) {
      case Granularity::fine: add_fine_stage(program, prefix, stage); break;
      case Granularity::fused: add_fused_stage(program, prefix, stage); break;
      case Granularity::stage:
      case Granularity::pass: add_single_kernel_stage(program, prefix, stage); break;
      case Granularity::automatic: refuse_unresolved_granularity();
    }
    add_tracer_stage(program, prefix,
                     TracerStage<Dims, Real>{
                         direction, stage.init, stage.forcing, stage.out, stage.context, resources.tracers,
                         resources.halo.sides, stage.has_inflow(),
                         resources.granularity == Granularity::fused || resources.granularity == Granularity::fine});
  }
}

/// One split pass as one pass kernel, qⁿ from `input` into `output`, the tracers with the dry
/// variables.
template <int Dims, class Real>
void add_pass_kernel(StepProgram& program, const StepResources<Dims, Real>& resources, Direction direction, int slot,
                     const FieldView<Real, Dims>& input, const FieldView<Real, Dims>& output) {
  const CellGeometry<Dims> geometry = resources.geometry;
  const HydrostaticView background = resources.background;
  const StepParams<Dims>* params = params_of_slot(resources, slot);
  const SourceTerms<Dims> sources = resources.sources;
  const TracerBackground tracers = resources.tracers;
  program
      .add(OpKind::kernel, pass_name(direction) + ".pass",
           [direction, input, output, geometry, background, params, sources, tracers](const Stream& stream) {
             apply_pass(stream, direction, input, output, geometry, background, params, sources, tracers);
           })
      .bytes = pass_kernel_bytes(input.shape);
}

/// Appends the steps of `layout` to `chunk`: step j, of the parity the layout gives it, reads
/// slot j, is named "step<j+1>/…", and is followed by the elements layout.runs names after it.
template <int Dims, class Real>
void add_steps(StepProgram& chunk, const StepResources<Dims, Real>& resources, const ChunkLayout& layout) {
  const std::vector<StepElement<Dims, Real>> elements = step_elements(resources);
  auto next_run = layout.runs.begin();
  for (int j = 0; j < layout.steps; ++j) {
    const bool odd = (j % 2 == 0) == (layout.first == StepParity::odd);
    const StepProgram step = build_step_program(resources, odd ? StepParity::odd : StepParity::even, j);
    const std::string prefix = "step" + std::to_string(j + 1) + "/";
    chunk.append(step, prefix);
    for (; next_run != layout.runs.end() && next_run->step == j; ++next_run)
      elements[next_run->element].add_ops(chunk, prefix, resources, step, j);
  }
}

}  // namespace

template <int Dims, class Real>
StepProgram build_step_program(const StepResources<Dims, Real>& resources, const ModelStepScheme<Dims>& scheme,
                               StepParity parity, int slot) {
  constexpr int passes = ModelStepScheme<Dims>::passes;
  std::array<bool, passes> can_fuse{};
  for (int p = 0; p < passes; ++p)
    can_fuse[p] = resources.granularity == Granularity::pass &&
                  pass_kernel_carries(tracer_count(resources.fields.state)) &&
                  pass_tile_makes_along(resources.halo.sides, scheme.pass(parity, p));
  const auto placement = place_passes(can_fuse);
  const StepFields<Dims, Real>& f = resources.fields;
  const FieldView<Real, Dims> arrays[3] = {f.state, f.stage1, f.stage2};
  StepProgram program;
  for (int p = 0; p < passes; ++p) {
    const Direction direction = scheme.pass(parity, p);
    if (placement[p].pass_kernel)
      add_pass_kernel(program, resources, direction, slot, arrays[placement[p].input], arrays[placement[p].output]);
    else
      add_split_pass(program, resources, scheme, direction, slot, arrays, placement[p]);
  }
  program.scale_bytes(sizeof(Real), sizeof(double));  // kernel_traffic counts 8-byte values
  return program;
}

template <int Dims, class Real>
StepProgram build_step_program(const StepResources<Dims, Real>& resources, StepParity parity, int slot) {
  return build_step_program(resources, model_step_scheme<Dims>(), parity, slot);
}

ChunkLayout chunk_layout(long completed, int steps, long num_steps, const Cadences& cadences) {
  ChunkLayout layout{parity_of(completed + 1), steps, {}};
  for (int j = 0; j < steps; ++j)
    for (int e = 0; e < static_cast<int>(cadences.size()); ++e)
      if (element_follows(cadences[e], completed + 1 + j, num_steps)) layout.runs.push_back({j, e});
  return layout;
}

template <int Dims, class Real>
StepProgram build_chunk_program(const StepResources<Dims, Real>& resources, const ChunkLayout& layout) {
  StepProgram chunk;
  const StepParamsBlock<Dims>* params = resources.params;
  const int steps = layout.steps;
  chunk.add(OpKind::transfer, "refresh_step_params",
            [params, steps](const Stream& stream) { params->enqueue_refresh(stream, steps); });
  add_steps(chunk, resources, layout);
  return chunk;
}

template <int Dims, class Real>
StepProgram build_loop_body_program(const StepResources<Dims, Real>& resources, const ChunkLayout& layout,
                                    const LoopControl* loop) {
  StepProgram body;
  StepParams<Dims>* slots = resources.params != nullptr ? resources.params->writable_device_slots() : nullptr;
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

#define SIMAPP_STEP_PROGRAMS_OF(Dims, Real)                                                                           \
  template StepProgram build_step_program(const StepResources<Dims, Real>&, const ModelStepScheme<Dims>&, StepParity, \
                                          int);                                                                       \
  template StepProgram build_step_program(const StepResources<Dims, Real>&, StepParity, int);                         \
  template StepProgram build_chunk_program(const StepResources<Dims, Real>&, const ChunkLayout&);                     \
  template StepProgram build_loop_body_program(const StepResources<Dims, Real>&, const ChunkLayout&,                  \
                                               const LoopControl*);
SIMAPP_STEP_PROGRAMS_OF(2, double)
SIMAPP_STEP_PROGRAMS_OF(3, double)
SIMAPP_STEP_PROGRAMS_OF(2, float)
SIMAPP_STEP_PROGRAMS_OF(3, float)
#undef SIMAPP_STEP_PROGRAMS_OF

}  // namespace simapp
