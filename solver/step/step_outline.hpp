#pragma once
/// The shape of a run's step programs, worked out without allocating or running anything
/// (what `simapp --plan` prints).
#include <string>
#include <vector>

#include "solver/decomposition/decomposition.hpp"
#include "solver/grid/grid.hpp"
#include "solver/halo/halo_path.hpp"
#include "solver/spec/run_spec.hpp"
#include "solver/step/build_step_program.hpp"
#include "solver/step/step_program.hpp"

namespace simapp {

struct StepOutline {
  /// The step in words (describe_step): passes, stages, ghost cells, checks, boundaries.
  std::vector<std::string> description;
  StepProgram step;  ///< one odd step (even steps run the passes in the other order)
  /// The run's first chunk: the StepParams<2> refresh, then steps_per_graph steps (fewer in a
  /// shorter run), with the health check after those that are multiples of check_every or the
  /// run's last; later chunks hold theirs where their own steps fall, or none.
  StepProgram chunk;
  int steps_per_graph = 0;
  long num_steps = 0;
  long full_chunks = 0;     ///< chunks of steps_per_graph steps
  int remainder_steps = 0;  ///< steps of the final shorter chunk (0: none)
  /// Chunk programs the run uses without outputs or progress lines (each captured once in
  /// graph mode): one for each layout (ChunkLayout) its chunks take.
  int distinct_chunks = 0;
};

/// The chunk layouts a run of `num_steps` steps in chunks of `steps_per_graph`, with elements of
/// `cadences`, takes without outputs or progress lines (at most a few per step of a
/// chunk: found without visiting every chunk).
int distinct_chunk_layouts(long num_steps, int steps_per_graph, const Cadences& cadences);

/// The outline on a single rank.
StepOutline outline_steps(const RunSpec& spec);

/// The sides of the domain of case `name` in `Dims` dimensions (3-D: y periodic).
template <int Dims>
BoundaryConditions<Dims> domain_sides(CaseName name);

/// How this rank of a decomposition fills its ghost cells, halo messages taking `path`; the
/// exchanges themselves are left null (a description, until a model supplies them).
template <int Dims>
GhostFill<Dims> ghost_fill(const RunSpec& spec, const Decomposition& decomposition, HaloPath path);

/// The step resources of `spec` on the rank of `grid` whose ghost cells are filled as `halo`
/// says: the arrays' shapes without memory, no step values, the health check's cadence without
/// its record (a description, until a model supplies them), for a state of type Real.
template <int Dims, class Real = double>
StepResources<Dims, Real> described_resources(const RunSpec& spec, const Grid& grid, const GhostFill<Dims>& halo);

/// The outline of this rank of a decomposition whose halo messages take `path`.
StepOutline outline_steps(const RunSpec& spec, const Decomposition& decomposition, HaloPath path);

/// Kernels on the longest chain of dependent kernels: per stretch between joins, the most
/// kernels any one lane holds, summed over stretches.
std::size_t critical_path_kernels(const StepProgram& program);

/// Kernel and Transfer ops (graph nodes) in a segment.
std::size_t device_ops(const StepProgram& program, const Segment& segment);

}  // namespace simapp
