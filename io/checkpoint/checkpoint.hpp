#pragma once
/// Checkpoints: the full prognostic state of the whole grid with its step, time and a hash of
/// the configuration that decides the physics, so a run can continue bit for bit, on any
/// rank count. File `checkpoint_<step>.h5` in the output directory (checkpoint format 7, of
/// either model; V the model's variables, kernels/physics/variables.hpp):
///   /state            [V][nz][nx] IEEE floats of the run's precision (attribute precision):
///                     64-bit, or 32-bit in a float32 run (execution.precision), the variables in
///                     the order `variables` names them (the 2-D model: dens, umom, wmom, rhot),
///                     contiguous; read back as doubles
///   /state_checksums  [V][nz][segments] uint64: for each row of each variable and each segment
///                     of 4096 columns, the sum modulo 2^64 of a 64-bit mix of every value's bits
///                     (as a double: a float widened) with its column, so damaged data fails to read, and every rank
///                     can add its part of a segment without the others' values
///   root attributes: format_version (int32: 7), variables (string: the stored names of /state's
///                    variables, in order, separated by spaces), precision (string: "float64" or
///                    "float32", the run's execution.precision, that of /state; a checkpoint
///                    without it, written before it, is float64), step (int64), time (double, s),
///                    config_hash (uint64), case (string), nx, nz (int32), xlen, zlen (double, m),
///                    initial_mass, initial_total_energy (double: the run's t = 0 diagnostics,
///                    so a restarted run reports d_mass and d_te as the uninterrupted one),
///                    viscosity (double, m²/s), hyperviscosity (double: β), diffusivity (double,
///                    m²/s; only where it is not the viscosity, which it is without), cfl (double:
///                    time.cfl, which with the grid, the viscosity and the diffusivity makes dt),
///                    where perturbation.* makes another bump than the case's own (the initial
///                    state's; gravity_waves' forcing of every stage): perturbation_amplitude,
///                    perturbation_x0, perturbation_z0, perturbation_xr, perturbation_zr (double;
///                    without them the bump is the case's own),
///                    with tracers (physics.tracers): tracer_init (string: physics.tracer_init),
///                    initial_mass_<name> (double: each tracer's mass at t = 0, for its d_mass_<name>),
///                    and /state holds each tracer's ρ_x′ after the dry variables, named "rho" + its
///                    name in `variables` (config_hash covers both),
///   /surface_water    with water (physics.microphysics): [3][nx] 64-bit IEEE floats, the
///                     microphysics' surface fields precipitation_amount, rain rate and clipped
///                     water (SurfaceWater's order) on the columns ([3][ny][nx] in 3-D), with
///                     attribute checksum (uint64: the sum modulo 2^64 of checksum_share(value,
///                     its index in the dataset)), so that a restart continues them bit for bit;
///                     written whole by rank 0 from the gathered columns (a run with water holds
///                     whole columns on each rank)
///                    header_checksum (uint64: FNV-1a of the attributes above, exactly; precision
///                    only where it is float32, so a float64 checkpoint's is as before it),
///                    input_yaml (string: the configuration, for people; not read back)
/// The 3-D model's (ny > 1): /state [V][nz][ny][nx] (dens, umom, vmom, wmom, rhot),
/// /state_checksums [V][nz][ny][segments] (a checksum for each row (k, j) of each variable, of
/// the same mix with the global column i), and the attributes above with ny (int32) and ylen
/// (double, m), and with a bump perturbation_y0 and perturbation_yr too, which header_checksum
/// and config_hash cover too; a 2-D checkpoint has none of them.
/// The formats before, 5 (the 2-D model's) and 6 (the 3-D model's), are format 7 without the
/// attribute `variables` (their model's variables, unnamed) and its part of header_checksum:
/// they are read as they are, and a run continues from them bit for bit.
/// A 2-D checkpoint is refused for a 3-D run and a 3-D one for a 2-D run, by name; so is one
/// whose variables are not its model's.
/// Written as snapshots are, without gathering the state: rank 0 lays the file out under a
/// temporary name, every rank writes its rows, the checksums are summed to rank 0, the ranks
/// agree, the file is synced and renamed, then read back; older checkpoints are removed only
/// after that, so a crash never leaves the run without a complete checkpoint. Its header and
/// state do not depend on the rank count. Reading verifies every type, shape and checksum and
/// refuses values that are not finite; a checkpoint of a format before 5 is refused.
#include <mpi.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "kernels/physics/bump.hpp"
#include "solver/grid/rank_box.hpp"
#include "solver/spec/run_spec.hpp"
#include "solver/time/time_stepping.hpp"

namespace simapp::io {

struct CheckpointHeader {
  long step = 0;
  double time = 0.0;
  std::uint64_t config_hash = 0;
  int nx = 0, nz = 0;
  double initial_mass = 0.0;          ///< kg per metre of y (kg in the 3-D model), at t = 0
  double initial_total_energy = 0.0;  ///< J per metre of y (J), at t = 0
  /// The configuration's case and domain (m).
  std::string case_name{};
  double xlen = 0.0, zlen = 0.0;
  /// The configuration's physics.viscosity, physics.hyperviscosity and physics.diffusivity.
  Dissipation physics{};
  /// The configuration's time.cfl: with the grid and the diffusion it makes dt, so the steps.
  double cfl = numerics::default_cfl;
  int ny = 1;         ///< cells in y: 1 is the 2-D model, more the 3-D one
  double ylen = 0.0;  ///< m (the 3-D model)
  /// The bump perturbation.* configures in place of the case's own (configured_perturbation);
  /// none: the case's own.
  std::optional<Bump<3>> perturbation{};
  /// physics.tracers, held after the dry variables, and physics.tracer_init, which makes their
  /// background (none: no tracers, and neither is in the file).
  std::vector<std::string> tracers{};
  TracerInit tracer_init = TracerInit::bump;
  /// Each tracer's mass at t = 0 (as initial_mass), the reference of its d_mass_<name>.
  std::vector<double> initial_tracer_mass{};
  /// The run's execution.precision: /state holds its values (a float32 checkpoint the block's
  /// values rounded to floats, which a float32 run's are already).
  Precision precision = Precision::float64;
};

/// Columns one checksum of /state_checksums covers (the last segment of a row may be shorter).
inline constexpr int checksum_columns = 4096;

/// What a value at global column `column` adds (modulo 2^64) to its segment's checksum: its
/// bits mixed with the column, so the sum adds up from the parts different ranks hold and any
/// change of a value or of its place changes it. For tools that edit a checkpoint.
std::uint64_t checksum_share(double value, std::uint64_t column);

/// The bump perturbation.* configures when it is not the case's own (configured_bump<3> in the
/// 3-D model; in the 2-D one configured_bump<2>, uniform in y), else none.
std::optional<Bump<3>> configured_perturbation(const RunSpec& spec);

/// FNV-1a hash of what a checkpoint's state depends on: the case, the grid and domain (with ny
/// and ylen in the 3-D model), the physics (viscosity, hyperviscosity), time.cfl and a bump
/// perturbation.* configures in place of the case's own (configured_perturbation).
std::uint64_t physics_hash(const RunSpec& spec);

/// The file name of the checkpoint at `step`.
std::filesystem::path checkpoint_path(const std::filesystem::path& directory, long step);

/// Collective over `comm`: writes the checkpoint of the state whose cells [var][k][i] over
/// `box` ([var][k][j][i] in 3-D: box.nz x box.ny x box.nx from box.k_offset, box.j_offset,
/// box.i_offset) each rank passes in `block`, reads it back, then removes the other
/// checkpoints in `directory`: only regular files (no links, pipes or directories) named
/// checkpoint_<step>.h5 that is_simapp_checkpoint() recognizes. No rank holds more than its own block (and, in
/// a float32 checkpoint, its values as floats). The state is stored in header.precision. A state (as stored) or
/// t = 0 diagnostics that are not finite are not written (a numerical Error naming the first
/// such value; earlier checkpoints kept). Throws an I/O Error, the same on every rank, on any
/// other failure (earlier checkpoints kept, no file left); an internal Error when the header's
/// case, grid and domain do not give its config_hash.
/// `surface`: in a run with water, on rank 0, the surface fields over the global columns
/// [field][j][i] (/surface_water; none elsewhere, and without water).
void write_checkpoint(const std::filesystem::path& directory, const CheckpointHeader& header, const RankBox& box,
                      std::span<const double> block, const std::string& input_yaml, MPI_Comm comm,
                      std::span<const double> surface = {});

/// The same by one process holding the whole grid's state [var][k][i] ([var][k][j][i] in 3-D).
void write_checkpoint(const std::filesystem::path& directory, const CheckpointHeader& header,
                      const std::vector<double>& global_state, const std::string& input_yaml,
                      std::span<const double> surface = {});

/// Whether `path` is a regular file (not a symbolic link) holding an HDF5 file with simapp's
/// checkpoint attributes config_hash and input_yaml, of any checkpoint format. Never throws,
/// never opens anything but a regular file.
bool is_simapp_checkpoint(const std::filesystem::path& path);

/// The newest checkpoint in `directory`: of the regular files (or links to one) named
/// checkpoint_<step>.h5, the one with the largest step; names whose step does not fit a long
/// are not checkpoints. None when there is none.
std::optional<std::filesystem::path> latest_checkpoint(const std::filesystem::path& directory);

/// Reads and verifies a checkpoint's attributes: a bad-input Error naming the file and the
/// problem when it is not a regular file (never opened then), not a simapp checkpoint, of a
/// format other than 5, 6 and 7, a 3-D one without ny and ylen (or with ny = 1), one whose
/// variables are not its model's, has an attribute of another type, a value that is not finite
/// (or a count that is not positive), or attributes that fail their checksum.
CheckpointHeader read_checkpoint_header(const std::filesystem::path& path);

/// Reads the cells of `box` from the checkpoint: [var][k][i] over box.nz × box.nx ([var][k][j][i]
/// in 3-D), as doubles (a float32 checkpoint's floats widened, exactly). A bad-input Error when
/// the header does not verify, /state is not IEEE floats of the header's precision (64-bit, or
/// 32-bit for float32) of its format's shape with checksums, the chunks read fail their checksum, or a value read is
/// not finite (naming the variable and the global cell (i, k), or (i, j, k), of the first).
std::vector<double> read_checkpoint_block(const std::filesystem::path& path, const RankBox& box);

/// Reads the surface fields of the columns of `box` from the checkpoint of a run with water:
/// [field][j][i] over box.ny × box.nx. A bad-input Error when the header does not verify, the file
/// has no /surface_water of its grid's shape in 64-bit IEEE floats, it fails its checksum, or a
/// value is not finite.
std::vector<double> read_checkpoint_surface(const std::filesystem::path& path, const RankBox& box);

/// Refuses (a bad-input Error naming the file and what differs) a checkpoint a run of `spec`
/// with `stepping` cannot continue: one of the other model (2-D for a run with grid.ny > 1, 3-D
/// for one with grid.ny = 1), another case, grid (ny too), domain (ylen too, in 3-D), physics
/// (viscosity, hyperviscosity), time.cfl (the continuation would not be the run it continues:
/// other steps), bump (perturbation.amplitude, center, radii: gravity_waves' forcing, the
/// initial state of the others) or config hash, or a time at or past sim_time that is not the
/// run's last step (a finished run is its last step); first of all, one of another precision
/// than execution.precision ("holds a float32 state; this run's execution.precision is float64
/// (restart with --set execution.precision=float32)"). What may change is what leaves the
/// solution as it is: sim_time, outputs, and how the steps are run (execution but its precision,
/// parallel).
void check_restart_compatible(const std::filesystem::path& path, const CheckpointHeader& header, const RunSpec& spec,
                              const TimeStepping& stepping);

/// Where a run continuing from `header` starts its steps: at 0, when the checkpoint's step and
/// time are on `stepping`'s grid (the continuation is bit-identical to a run without the
/// restart); else (a longer sim_time after a shortened last step, say) at the checkpoint's step
/// and time.
TimeOrigin restart_origin(const CheckpointHeader& header, const TimeStepping& stepping);

}  // namespace simapp::io
