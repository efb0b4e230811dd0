#include "solver/step/tracer_ops.hpp"

#include "kernels/boundary/halo_fill.hpp"
#include "kernels/update/tracer_transport.hpp"
#include "solver/step/kernel_traffic.hpp"

namespace simapp {

namespace {

/// Bytes the transport kernel moves: ρ′ and the normal momentum read, each tracer read twice
/// (the stage's input and qⁿ) and written once, at every interior cell, counted as doubles (the
/// step's program scales its bytes to the state's type).
template <int Dims>
std::size_t transport_bytes(const FieldShape<Dims>& shape, int tracers) {
  const auto cells = static_cast<std::size_t>(shape.nx) * shape.ny * shape.nz;
  return cells * static_cast<std::size_t>(2 + 3 * tracers) * sizeof(double);
}

}  // namespace

template <int Dims, class Real>
void add_tracer_stage(StepProgram& program, const std::string& prefix, const TracerStage<Dims, Real>& stage) {
  if (tracer_count(stage.forcing) == 0) return;
  const VarRange tracers{ModelVariables<Dims>::count, stage.forcing.shape.num_vars};
  // The transport re-forms the dry flux's face velocity, so it reads the dry ghost cells too.
  const VarRange unfilled = stage.dry_ghosts_filled ? tracers : VarRange{0, stage.forcing.shape.num_vars};
  if (program.uses_lanes()) program.add_join(prefix + "join_before_tracers");
  const PassShape<Dims> pass{stage.direction, stage.forcing.shape};
  if (fills_halos(stage.direction, stage.sides))
    program
        .add(OpKind::kernel, prefix + "tracers.fill_halos",
             [stage, unfilled](const Stream& stream) {
               fill_halos(stream, stage.direction, stage.forcing, unfilled, stage.context.background, stage.sides);
             })
        .bytes = halo_fill_bytes(pass, unfilled.last - unfilled.first, stage.sides);
  if (stage.inflow)
    program
        .add(OpKind::kernel, prefix + "tracers.inflow",
             [stage](const Stream& stream) {
               apply_inflow_halos(stream, stage.forcing, stage.context.background, stage.context.geometry, stage.sides);
             })
        .bytes = inflow_bytes(pass);
  program
      .add(OpKind::kernel, prefix + "tracers",
           [stage, tracers](const Stream& stream) {
             apply_tracer_transport(stream, stage.direction,
                                    TracerStageFields<Real, Dims>{stage.init, stage.forcing, stage.out}, tracers,
                                    stage.context, stage.background);
           })
      .bytes = transport_bytes(stage.out.shape, tracers.last - tracers.first);
}

template void add_tracer_stage(StepProgram&, const std::string&, const TracerStage<2, double>&);
template void add_tracer_stage(StepProgram&, const std::string&, const TracerStage<3, double>&);
template void add_tracer_stage(StepProgram&, const std::string&, const TracerStage<2, float>&);
template void add_tracer_stage(StepProgram&, const std::string&, const TracerStage<3, float>&);

}  // namespace simapp
