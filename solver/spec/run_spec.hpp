#pragma once
/// Everything a run is configured with, as typed values (filled by io/config).
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "foundation/name_table.hpp"
#include "kernels/backend/backend_kind.hpp"
#include "kernels/cases/case_list.hpp"
#include "kernels/physics/bump.hpp"
#include "kernels/physics/constants.hpp"
#include "kernels/physics/variables.hpp"
#include "kernels/time/step_params.hpp"
#include "solver/grid/grid_spec.hpp"
#include "solver/spec/execution_mode.hpp"
#include "solver/spec/input_sounding.hpp"
#include "solver/spec/precision.hpp"

namespace simapp {

struct TimeSpec {
  double sim_time = 1000.0;                    ///< simulated time, s
  double cfl = numerics::default_cfl;          ///< Courant number: dt = cfl · min(dx, dz) / 450 m/s
  std::string start = "2000-01-01T00:00:00Z";  ///< the date and time of t = 0, ISO 8601 in UTC
};

/// output.layout: how snapshots are stored: a file per output time (fields_<step>.nc, indexed by
/// fields.xmf), or every output time in one file (fields.nc) along its time dimension.
enum class OutputLayout { per_time, series };

inline constexpr std::array<std::pair<OutputLayout, std::string_view>, 2> output_layout_names{{
    {OutputLayout::per_time, "per_time"},
    {OutputLayout::series, "series"},
}};

/// What output.variables names unless given: the physical field each variable of the model of a
/// grid of `ny` cells in y is written as (its output_name, kernels/physics/variables.hpp).
inline std::vector<std::string> default_output_variables(int ny) {
  std::vector<std::string> names;
  for (const VariableInfo& variable : model_variables_of_grid(ny)) names.emplace_back(variable.output_name);
  return names;
}

struct OutputSpec {
  std::string dir = "output";  ///< directory for results
  double every = 0.0;          ///< snapshot interval, s (0: none)
  OutputLayout layout = OutputLayout::per_time;
  int progress_every = 0;  ///< progress line every N steps (0: about every 2 s of wall time)
  std::vector<std::string> variables = default_output_variables(1);  ///< snapshot fields, each once
  int compression = 0;            ///< deflate level of snapshot datasets, 0..9 (0: none)
  double checkpoint_every = 0.0;  ///< checkpoint interval, s (0: none)
  double stats_every = 0.0;       ///< interval between rows of stats.nc, s (0: none); not given: `every`
};

struct ExecutionSpec {
  BackendChoice backend = BackendChoice::automatic;
  ExecutionMode mode = ExecutionMode::graph;
  Granularity granularity = Granularity::automatic;
  Precision precision = Precision::float64;  ///< the state's floating-point type
  int steps_per_graph = 0;                   ///< steps per captured graph (0: chosen for a few hundred nodes per graph)
  int check_every = 10;                      ///< steps between health checks inside the step programs (0: none)
  double wall_limit = 0.0;  ///< s of wall-clock time from the start; the run stops with a checkpoint before (0: none)
  int repeats = 5;          ///< compare: rounds that time every mode once each
  double max_noise = 0.0;   ///< compare: more rounds until each median is known to this fraction (0: none)
  double max_noise_time = 300.0;  ///< compare: s the rounds for max_noise may take at most
  std::vector<ExecutionMode> compare{timed_modes.begin(), timed_modes.end()};  ///< the modes compare times
};

/// parallel.cuda_aware_mpi: whether MPI is given device buffers directly.
enum class CudaAwareMpi { automatic, on, off };

inline constexpr std::array<std::pair<CudaAwareMpi, std::string_view>, 3> cuda_aware_mpi_names{{
    {CudaAwareMpi::automatic, "auto"},
    {CudaAwareMpi::on, "on"},
    {CudaAwareMpi::off, "off"},
}};

/// parallel.overlap: whether interior fluxes are computed while halos travel.
enum class HaloOverlap { on, off };

inline constexpr std::array<std::pair<HaloOverlap, std::string_view>, 2> halo_overlap_names{{
    {HaloOverlap::on, "on"},
    {HaloOverlap::off, "off"},
}};

/// parallel.halo: what carries halo messages between ranks (automatic: chosen at start-up,
/// choose_halo_transport()).
enum class HaloTransport { automatic, mpi, nccl };

inline constexpr std::array<std::pair<HaloTransport, std::string_view>, 3> halo_transport_names{{
    {HaloTransport::automatic, "auto"},
    {HaloTransport::mpi, "mpi"},
    {HaloTransport::nccl, "nccl"},
}};

constexpr std::string_view to_string(HaloTransport transport) { return name_in(halo_transport_names, transport); }

struct ParallelSpec {
  /// MPI ranks along x, y and z, {px, py, pz} (0: chosen by MPI_Dims_create); py is 0 or 1
  /// in the 2-D model (grid.ny = 1), where the ranks are px × pz.
  std::array<int, 3> ranks{0, 0, 0};
  HaloTransport halo = HaloTransport::automatic;
  CudaAwareMpi cuda_aware_mpi = CudaAwareMpi::automatic;
  HaloOverlap overlap = HaloOverlap::on;
};

/// physics.rain: whether the microphysics makes rain (off: the saturation adjustment alone, the
/// reversible, non-precipitating system).
enum class Rain { on, off };

inline constexpr std::array<std::pair<Rain, std::string_view>, 2> rain_names{{
    {Rain::on, "on"},
    {Rain::off, "off"},
}};

inline constexpr std::array<std::pair<DiffusionReference, std::string_view>, 2> diffusion_reference_names{{
    {DiffusionReference::background, "background"},
    {DiffusionReference::initial_state, "initial_state"},
}};

/// How the microphysics (grid.microphysics) steps.
struct MoistureSpec {
  Rain rain = Rain::on;  ///< physics.rain
  int every = 1;         ///< physics.microphysics_every: after each multiple of `every` steps and the run's last
};

/// perturbation.*: the case's bump (case_bump) as configured; a value not given is the case's own.
/// Lists are [x, z] in the 2-D model ([x, y, z] are for the 3-D one).
struct PerturbationSpec {
  std::vector<double> center;       ///< m; empty: the case's
  std::vector<double> radii;        ///< m, each > 0 or +∞ (uniform along that axis); empty: the case's
  std::optional<double> amplitude;  ///< K (straka: ΔT; gravity_waves: the source, m s⁻²); none: the case's

  /// Whether any value was given.
  bool given() const { return !center.empty() || !radii.empty() || amplitude.has_value(); }
};

/// background.*: what the run's background is integrated from instead of its case's.
struct BackgroundSpec {
  std::string sounding_file;              ///< background.sounding as given (empty: none)
  std::optional<InputSounding> sounding;  ///< its contents, read when the configuration is loaded
};

struct RunSpec {
  CaseName case_name = CaseName::thermal;
  GridSpec grid;
  BackgroundSpec background;
  PerturbationSpec perturbation;
  TimeSpec time;
  Dissipation physics;  ///< physics.viscosity, .hyperviscosity, .diffusivity (not given: ν), .diffusion_reference
  MoistureSpec moisture;
  OutputSpec output;
  ExecutionSpec execution;
  ParallelSpec parallel;
};

/// The bump of `spec`'s case in the `Dims`-dimensional model: its own (model_bump of case_bump)
/// with what spec.perturbation gives in its place. x is a list's first item and z its last; y
/// (3-D) its middle one in a list of three numbers [x, y, z].
template <int Dims>
Bump<Dims> configured_bump(const RunSpec& spec) {
  Bump<2> xz = case_bump(spec.case_name, spec.grid.xlen);
  const PerturbationSpec& given = spec.perturbation;
  if (!given.center.empty()) {
    xz.x0 = given.center.front();
    xz.z0 = given.center.back();
  }
  if (!given.radii.empty()) {
    xz.xr = given.radii.front();
    xz.zr = given.radii.back();
  }
  if (given.amplitude) xz.amplitude = *given.amplitude;
  Bump<Dims> bump = model_bump<Dims>(xz, spec.grid.ylen);
  if constexpr (Dims == 3) {
    if (given.center.size() == 3) bump.y0 = given.center[1];
    if (given.radii.size() == 3) bump.yr = given.radii[1];
  }
  return bump;
}

}  // namespace simapp
