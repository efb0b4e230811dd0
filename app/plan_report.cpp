#include "app/plan_report.hpp"

#include <fmt/core.h>

#include "solver/halo/halo_path.hpp"
#include "solver/step/step_outline.hpp"

namespace simapp::app {

namespace {

std::string_view kind_name(OpKind kind) {
  switch (kind) {
    case OpKind::kernel: return "kernel";
    case OpKind::transfer: return "transfer";
    case OpKind::host: return "host";
    case OpKind::join: return "join";
  }
  return "?";
}

}  // namespace

void print_plan(std::FILE* out, const RunSpec& spec, const Decomposition& decomposition, Backend backend,
                const std::string& granularity, const std::string& mode) {
  const HaloPath path = halo_path(backend, spec.parallel);
  const StepOutline plan = outline_steps(spec, decomposition, path);
  const std::size_t kernels = plan.step.count(OpKind::kernel);
  const std::size_t transfers = plan.step.count(OpKind::transfer);
  const GridSpec& grid = spec.grid;
  const RankBox& box = decomposition.box();
  const auto cells = [three_d = grid.ny > 1](int nx, int ny, int nz) {
    return three_d ? fmt::format("{} x {} x {}", nx, ny, nz) : fmt::format("{} x {}", nx, nz);
  };
  fmt::print(out, "plan: case {}, {} cells, {} steps, granularity {}, mode {}\n", to_string(spec.case_name),
             cells(grid.nx, grid.ny, grid.nz), plan.num_steps, granularity, mode);
  fmt::print(out, "ranks: {} as {}; rank 0 holds {} cells{}\n", decomposition.size(),
             cells(decomposition.px(), decomposition.py(), decomposition.pz()), cells(box.nx, box.ny, box.nz),
             decomposition.size() == 1 ? std::string()
                                       : fmt::format("; {} ({} ops)", describe(path, backend),
                                                     exchanges_on_host(path) ? "host" : "transfer"));
  fmt::print(out, "\nthe step:\n");
  for (const std::string& line : plan.description) fmt::print(out, "  {}\n", line);
  fmt::print(out, "\none odd step: {} ops\n", plan.step.ops().size());
  fmt::print(out, "  {:>4}  {:<8}  {:>4}  {}\n", "#", "kind", "lane", "name");
  for (std::size_t n = 0; n < plan.step.ops().size(); ++n) {
    const StepOp& op = plan.step.ops()[n];
    fmt::print(out, "  {:4}  {:<8}  {:>4}  {}\n", n + 1, kind_name(op.kind),
               op.kind == OpKind::join ? "all" : std::to_string(op.lane), op.name);
  }

  const auto segments = plan.chunk.segments();
  fmt::print(out, "\nkernels per step:      {}\n", kernels);
  fmt::print(out, "critical path:         {} dependent kernels per step (lanes run in parallel in a graph)\n",
             critical_path_kernels(plan.step));
  fmt::print(out, "host ops per step:     {}\n", plan.step.count(OpKind::host));
  fmt::print(out, "steps per graph:       {}{}\n", plan.steps_per_graph,
             spec.execution.steps_per_graph == 0 ? " (automatic)" : "");
  fmt::print(out, "chunk program:         1 transfer (StepParams refresh) + {} kernels + {} host ops\n",
             plan.chunk.count(OpKind::kernel), plan.chunk.count(OpKind::host));
  fmt::print(out, "segments per chunk:    {}\n", segments.size());
  fmt::print(out, "nodes per graph:      ");
  for (const Segment& segment : segments) fmt::print(out, " {}", device_ops(plan.chunk, segment));
  fmt::print(out, "\nchunks:                {} of {} steps", plan.full_chunks, plan.steps_per_graph);
  if (plan.remainder_steps > 0) fmt::print(out, " + 1 of {} steps", plan.remainder_steps);
  fmt::print(out, "\ngraphs to capture:     {} (one per distinct chunk program x segment)\n",
             plan.distinct_chunks * static_cast<int>(segments.size()));
  fmt::print(out, "graphs per step:       {:.3f}\n", static_cast<double>(segments.size()) / plan.steps_per_graph);
  const double k = plan.steps_per_graph;
  fmt::print(
      out, "launches per step:     eager {:.3f} ({} kernels + {} transfers + 1/{} StepParams refresh), graph {:.3f}\n",
      static_cast<double>(kernels + transfers) + 1.0 / k, kernels, transfers, plan.steps_per_graph,
      static_cast<double>(segments.size()) / k);
}

}  // namespace simapp::app
