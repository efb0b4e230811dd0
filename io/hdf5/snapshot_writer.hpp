#pragma once
/// Snapshots: one netCDF-4 file per output time holding the whole grid, written through the
/// serial HDF5 C API only: built in memory by the rank that gathered the grid (compressed
/// snapshots), or laid out by rank 0 with every rank writing its own block (uncompressed); or
/// every output time of a run in one file (io/hdf5/snapshot_series.hpp).
///
/// The files follow the CF conventions (CF-1.10) and netCDF-4's own: made with HDF5's
/// dimension-scale API (io/hdf5/netcdf_dimensions.hpp), text attributes as netCDF-C's NC_CHAR and
/// links and attributes in creation order (io/hdf5/hdf5_file.hpp), so that netCDF-C, NCO, CDO,
/// netCDF4-python, xarray (h5netcdf or netcdf4) and ParaView's CF reader read them, and netCDF-C's
/// tools change them (ncatted), as their own; h5py and the HDF5 C API see plain datasets. The
/// machines simapp runs on have HDF5 and not always netCDF-C, so HDF5 writes them. Layout (every
/// variable double unless said):
///   /time                the output time (1), in seconds since time.start (CF time: units
///                        "seconds since 2000-01-01 00:00:00", calendar proleptic_gregorian); a
///                        dimension scale, unlimited (chunked), so that the files of a run
///                        concatenate along it (open_mfdataset)
///   /step                step(time), int64: the time step of each output time
///   /x, /z               cell centres (nx), (nz), m: dimension scales, with standard_name,
///                        bounds, and for z axis ("Z") and positive ("up") (no axis "X": ParaView
///                        would take x for longitude)
///   /y                   the 3-D model's (ny > 1): cell centres (ny), m, the same way
///   /bnds                the dimension (2) of the bounds, without a variable (netCDF-C's mark)
///   /x_bnds, /z_bnds     cell edges: [nx][2], [nz][2], m (CF cell bounds); /y_bnds [ny][2] in 3-D
///   /<field>             one per selected field of the grid, shape [1][nz][nx] (time, z, x; x
///                        fastest), in the 3-D model [1][nz][ny][nx] (time, z, y, x); in the
///                        run's precision (execution.precision): 64-bit floats, or 32-bit floats
///                        (the values rounded to the nearest float) in a float32 run
///   /<profile>           one per selected profile of the background (rho_bar, theta_bar, p_bar):
///                        shape [nz] (z)
///   /<surface field>     with water (physics.microphysics): precipitation_amount (kg m-2) and
///                        rain_rate (kg m-2 s-1), shape [1][nx] (time, x), in 3-D [1][ny][nx]
///                        (time, y, x); with them the moist temperature T, a field of the grid
///   every variable has "units" and "long_name" (a few words), and "standard_name" where CF has
///   one and "comment" where the definition says more than the name
///   root attributes: Conventions ("CF-1.10"), title, source, dx, dz (double, m), nx, nz (int32),
///                    in 3-D also dy (double, m) and ny (int32), case, simapp_version, git_hash,
///                    input_yaml (text), simapp_precision (text: "float64" or "float32", the
///                    run's execution.precision, in which the fields of the grid are stored);
///                    nothing that differs from one output time to the next. The coordinates,
///                    their bounds, time, the profiles and the surface fields are double in either
/// A grid with ny = 1 is the 2-D model's: its files hold no y, y_bnds, dy or ny.
#include <mpi.h>

#include <filesystem>
#include <future>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "solver/grid/grid_spec.hpp"
#include "solver/model/derived_fields.hpp"
#include "solver/spec/precision.hpp"

namespace simapp::io {

class RankWrittenFile;

/// One output time of the whole (global) grid, as rank 0 holds it after gathering.
struct Snapshot {
  long step = 0;
  double time = 0.0;          ///< s
  int nx = 0, nz = 0;         ///< global cells
  double dx = 0.0, dz = 0.0;  ///< m
  std::string case_name;
  std::string input_yaml;  ///< the configuration as resolved
  std::string version, git_hash;
  /// Prognostic variables [var][k][i], nx*nz each; in the 3-D model [var][k][j][i], nx*ny*nz each;
  /// var the model's variables in the order of its table (kernels/physics/variables.hpp).
  std::vector<double> state;
  std::vector<double> density_cell;                 ///< ρ̄_c(k), k = 0..nz-1 (interior rows only)
  std::vector<double> rho_theta_cell;               ///< ρ̄θ̄_c(k), k = 0..nz-1
  int ny = 1;                                       ///< global cells in y: 1 is the 2-D model
  double dy = 0.0;                                  ///< m (the 3-D model)
  std::string time_start = "2000-01-01T00:00:00Z";  ///< the date and time of t = 0 (time.start)
  /// The mixing ratios of the state's tracers (tracer_fields), after the model's variables in
  /// `state`; fields the snapshot can hold besides the model's.
  std::vector<DerivedField> tracer_fields{};
  /// The water the run holds (physics.microphysics): with water the first tracer fields are its
  /// mixing ratios.
  Microphysics microphysics = Microphysics::none;
  /// With water, the fields of the grid it adds besides the mixing ratios (water_fields: T).
  std::vector<DerivedField> water_fields{};
  /// With water, the microphysics' surface fields over the global columns, [field][j][i]
  /// (SurfaceWater's order), from which the snapshot's surface fields (surface_fields()) are
  /// written, on (time, y, x), or (time, x) in the 2-D model. Empty without water.
  std::vector<double> surface{};
  /// ρ̄_x(k) of each of the state's tracers (their background, docs/model.md "Tracers"), [k][t],
  /// k = 0..nz-1: the tracer fields and water_fields read it. Empty without tracers.
  std::vector<double> tracer_background_cell{};
  /// The run's execution.precision: the fields of the grid are stored in it (`state` is double
  /// in either; in a float32 run it holds floats).
  Precision precision = Precision::float64;
};

/// A rank's block of a snapshot's grid: its cells' values, viewed where they are (not copied).
struct SnapshotBlock {
  int nx = 0, nz = 0;                                ///< this rank's cells
  int i_offset = 0, k_offset = 0;                    ///< its first cell in the whole grid
  std::span<const double> state;                     ///< prognostic variables [var][k][i] ([var][k][j][i]) of the block
  std::span<const double> density_cell;              ///< ρ̄_c of rows k_offset .. k_offset + nz - 1
  std::span<const double> rho_theta_cell;            ///< ρ̄θ̄_c of the same rows
  int ny = 1;                                        ///< this rank's cells in y (the 3-D model)
  int j_offset = 0;                                  ///< its first cell's y index in the whole grid
  std::span<const DerivedField> tracer_fields{};     ///< the snapshot's (Snapshot::tracer_fields)
  std::span<const DerivedField> water_fields{};      ///< the snapshot's (Snapshot::water_fields)
  std::span<const double> tracer_background_cell{};  ///< Snapshot::tracer_background_cell of this block's rows
};

/// A field a snapshot can hold.
struct FieldInfo {
  std::string name;
  std::string unit;
  std::string long_name;      ///< what it is, in a few words (CF's long_name: a plot's label)
  std::string standard_name;  ///< CF's standard name, where it has one; else empty
  std::string comment;        ///< how it is defined, where that says more than its name; else empty
  bool profile = false;       ///< a profile of the background, on z only, not a field of the grid
};

/// The fields a snapshot can hold, with their units: the fields of the 3-D model's table
/// (solver/model/derived_fields.hpp), which holds every field of the 2-D model's and v and vmom
/// (is_3d_field); a 2-D snapshot asked for those is a bad-input Error.
const std::vector<FieldInfo>& snapshot_fields();

/// The fields of `fields` that are fields of the grid (not profiles, not surface fields), in
/// order: those an XDMF index shows and a rank writes its block of.
std::vector<std::string> grid_fields(const std::vector<std::string>& fields);

/// The fields of `fields` that are surface fields of a run with water (surface_fields()), in order.
std::vector<std::string> surface_fields_among(const std::vector<std::string>& fields);

/// Whether field `name` exists in the 3-D model only (v, vmom).
bool is_3d_field(const std::string& name);

/// The values of field `name` (one of snapshot_fields(), or of the snapshot's tracer and water
/// fields) over the snapshot's grid, [k][i] ([k][j][i] in 3-D), of a profile [k], or of a surface
/// field [i] ([j][i] in 3-D); an internal Error for another name, a bad-input Error for v or vmom
/// of a 2-D snapshot.
std::vector<double> snapshot_field(const Snapshot& snapshot, const std::string& name);

/// Writes `path`, a new file, holding `fields` (names from snapshot_fields()) and the grid.
/// `compression_level` 0 stores plainly; 1..9 deflates chunks (at most 64 × 256 cells, in 3-D
/// 8 × 64 × 256: 1 MiB, which HDF5's default chunk cache holds) after a shuffle.
/// Builds the file in memory (about twice its size at the peak), writes it under its unfinished
/// name (`.simapp_tmp/` beside `path`: io/files/new_file.hpp), syncs and closes that, then renames
/// it to `path`. Throws a bad-input Error for an unknown or repeated field, a field of the 3-D
/// model in a 2-D snapshot or a level outside 0..9, an internal Error for a snapshot whose arrays
/// do not match its grid, and an I/O Error when `path` exists or writing fails; on failure
/// neither `path` nor the temporary file is left behind.
void write_snapshot(const std::filesystem::path& path, const Snapshot& snapshot, const std::vector<std::string>& fields,
                    int compression_level);

/// Collective over `comm`: writes `path`, a new file holding the same datasets and attributes
/// as write_snapshot of the whole grid (uncompressed), without gathering it. Every rank passes
/// its block and `global` (the whole grid's nx, ny, nz, dx, dy, dz, time, step, texts and, where
/// `fields` has profiles, background; its state unused). The block's row (k, j) of nx values goes to value ((k_offset +
/// k)·ny + j_offset + j)·nx + i_offset of each field (nx, ny: the whole grid's; j = 0 in 2-D). Rank 0 lays the file out
/// (HDF5 builds its metadata in memory, with the fields' storage reserved), every rank computes its rows of each field
/// a few MiB at a time and writes them into the unfinished file, and the ranks agree on the outcome before rank 0
/// publishes it. Memory: one buffer of a few MiB besides the block. No HDF5 call touches the disk and no collective
/// call can be left waiting: a failure on any rank is the same I/O Error on every rank (ErrorReach::every_rank), and no
/// file is left behind.
void write_snapshot_blocks(const std::filesystem::path& path, const Snapshot& global, const SnapshotBlock& block,
                           const std::vector<std::string>& fields, MPI_Comm comm);

/// The threads that write an uncompressed snapshot of `fields` fields (SnapshotWrite): its
/// writer thread and the ones it starts, for the memory they take.
std::size_t snapshot_writer_threads(std::size_t fields);

/// write_snapshot_blocks in parts, so that the rows reach the disk while the caller goes on
/// (the run loop: while the device steps). The constructor (collective) lays the file out as
/// write_snapshot_blocks does and starts a thread that computes and writes this rank's rows,
/// then syncs them. `block`'s arrays must stay unchanged until release_block() returns (the
/// rows are written; the sync may still run) or the object is finished or destroyed.
/// finish() (collective) waits for the thread, agrees on the outcome and publishes the file,
/// or throws the same I/O Error on every rank. Destroyed unfinished, it waits for the thread
/// and leaves no file behind.
class SnapshotWrite {
 public:
  SnapshotWrite(std::filesystem::path path, const Snapshot& global, const SnapshotBlock& block,
                const std::vector<std::string>& fields, MPI_Comm comm);
  SnapshotWrite(const SnapshotWrite&) = delete;
  SnapshotWrite& operator=(const SnapshotWrite&) = delete;
  ~SnapshotWrite();

  /// Waits until the block is no longer read (this rank only); returns the seconds it waited.
  double release_block();
  void finish();
  /// Seconds the thread took to write and sync this rank's rows (valid after finish()).
  double thread_seconds() const { return thread_seconds_; }
  /// Seconds finish() waited for the thread.
  double waited_seconds() const { return waited_seconds_; }

 private:
  MPI_Comm comm_;
  std::unique_ptr<RankWrittenFile> file_;
  std::promise<void> rows_released_;
  std::future<void> rows_written_;
  std::future<void> written_;
  double thread_seconds_ = 0.0;
  double waited_seconds_ = 0.0;
};

}  // namespace simapp::io
