#pragma once
/// Snapshots: one HDF5 file per output time holding the whole grid, written through the serial
/// HDF5 C API only: built in memory by the rank that gathered the grid (compressed snapshots),
/// or laid out by rank 0 with every rank writing its own block (uncompressed); or every output
/// time of a run in one file (SnapshotSeriesFile, below).
///
/// The files are netCDF-4 files following the CF conventions (CF-1.10), made with HDF5's
/// dimension-scale API (H5DS, its high-level library): netCDF-C, xarray (h5netcdf or netcdf4)
/// and ParaView's CF reader see named dimensions and coordinates, h5py and the HDF5 C API the
/// datasets as before. Layout (every dataset double, every string attribute a variable-length
/// UTF-8 string):
///   /time                the output time (1), s; a dimension scale, unlimited (chunked), so
///                        that the files of a run concatenate along it (open_mfdataset)
///   /x, /z               cell centres (nx), (nz), m: dimension scales, with axis, positive
///                        (z: up), standard_name and the bounds below
///   /y                   the 3-D model's (ny > 1): cell centres (ny), m, the same way
///   /bnds                (2): the dimension of the bounds
///   /x_bnds, /z_bnds     cell edges: [nx][2], [nz][2], m (CF cell bounds); /y_bnds [ny][2] in 3-D
///   /<field>             one per selected field, shape [1][nz][nx] (time, z, x; x fastest), in
///                        the 3-D model [1][nz][ny][nx] (time, z, y, x)
///   every variable has "units" and "long_name", and "standard_name" where CF has one
///   root attributes: Conventions ("CF-1.10"), title, source; time (double, s), step (int64),
///                    dx, dz (double, m), nx, nz (int32), in 3-D also dy (double, m) and ny
///                    (int32), case, simapp_version, git_hash, input_yaml (strings)
/// A grid with ny = 1 is the 2-D model's: its files hold no y, y_bnds, dy or ny.
#include <mpi.h>

#include <filesystem>
#include <future>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

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
  /// Prognostic variables [var][k][i], var = dens, umom, wmom, rhot, nx*nz each; in the 3-D model
  /// [var][k][j][i], var = dens, umom, vmom, wmom, rhot, nx*ny*nz each.
  std::vector<double> state;
  std::vector<double> density_cell;    ///< ρ̄_c(k), k = 0..nz-1 (interior rows only)
  std::vector<double> rho_theta_cell;  ///< ρ̄θ̄_c(k), k = 0..nz-1
  int ny = 1;                          ///< global cells in y: 1 is the 2-D model
  double dy = 0.0;                     ///< m (the 3-D model)
};

/// A rank's block of a snapshot's grid: its cells' values, viewed where they are (not copied).
struct SnapshotBlock {
  int nx = 0, nz = 0;                      ///< this rank's cells
  int i_offset = 0, k_offset = 0;          ///< its first cell in the whole grid
  std::span<const double> state;           ///< prognostic variables [var][k][i] ([var][k][j][i]) of the block
  std::span<const double> density_cell;    ///< ρ̄_c of rows k_offset .. k_offset + nz - 1
  std::span<const double> rho_theta_cell;  ///< ρ̄θ̄_c of the same rows
  int ny = 1;                              ///< this rank's cells in y (the 3-D model)
  int j_offset = 0;                        ///< its first cell's y index in the whole grid
};

/// A field a snapshot can hold.
struct FieldInfo {
  std::string name;
  std::string unit;
  std::string long_name;      ///< what it is, in words (CF's long_name)
  std::string standard_name;  ///< CF's standard name, where it has one; else empty
};

/// The fields a snapshot can hold, with their units: rho_prime, u, v, w, theta_prime (physical,
/// with ρ = ρ̄_c + dens: ρ′ = dens, u = umom/ρ, v = vmom/ρ, w = wmom/ρ, θ′ = (ρ̄θ̄_c + rhot)/ρ −
/// ρ̄θ̄_c/ρ̄_c), then the prognostic variables dens, umom, vmom, wmom, rhot as stored. v and vmom
/// are the 3-D model's only (is_3d_field); a 2-D snapshot asked for them is a bad-input Error.
const std::vector<FieldInfo>& snapshot_fields();

/// Whether field `name` exists in the 3-D model only (v, vmom).
bool is_3d_field(const std::string& name);

/// The values of field `name` (one of snapshot_fields()) over the snapshot's grid, [k][i]
/// ([k][j][i] in 3-D); an internal Error for another name, a bad-input Error for v or vmom of a
/// 2-D snapshot.
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
/// its block and `global` (the whole grid's nx, ny, nz, dx, dy, dz, time, step and texts; its
/// arrays unused). The block's row (k, j) of nx values goes to value ((k_offset + k)·ny +
/// j_offset + j)·nx + i_offset of each field (nx, ny: the whole grid's; j = 0 in 2-D). Rank 0
/// lays the file out (HDF5 builds its metadata in memory, with the fields' storage reserved),
/// every rank computes its rows of each field a few MiB at a time and writes them into the
/// unfinished file, and the ranks agree on the outcome before rank 0 publishes it. Memory: one
/// buffer of a few MiB besides the block. No HDF5 call touches the disk and no collective call
/// can be left waiting: a failure on any rank is the same I/O Error on every rank
/// (ErrorReach::every_rank), and no file is left behind.
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

/// output.layout: series. Every snapshot of a run in one netCDF-4/CF file along its unlimited time
/// dimension, one more time at each append: the layout of a snapshot (above) with the fields
/// [time][nz][nx] ([time][nz][ny][nx] in 3-D), each time one chunk (of at most 1 GiB: a larger
/// grid's fields are cut into bands of rows, or of layers in 3-D), the step a variable step(time)
/// (int64), and the root attributes but time and step. Written by one process with the whole grid,
/// one writer at a time (a run's output directory lock). The first append makes the file under its
/// unfinished name (in HDF5's latest format), syncs and publishes it; each later one opens it in
/// place in HDF5's SWMR mode (single writer, multiple readers: metadata written in an order that
/// keeps the file readable at every moment), extends the fields, step and then time by one, closes
/// and syncs it. Between appends the file is closed and whole for every reader; a run killed in an
/// append leaves the times before it readable by SWMR readers (h5py's swmr=True), and the restart
/// that continues the file makes it whole again. Unlike the other files here, HDF5 writes this one
/// to the disk itself: the space an append may need is taken first (io/files/file_space.hpp), so
/// that a full disk or a file-size limit fails before HDF5 writes (HDF5 1.10 cannot recover from a
/// write that fails when it closes a file), and what is left of it is given back after.
class SnapshotSeriesFile {
 public:
  /// A series at `path` of `fields` (deflated at `compression_level`, 0: none), made at the first
  /// append where there is none. `kept_step` set: a restarted run continues the file at `path`
  /// if there is one, keeping its times of steps up to `kept_step` and dropping the others now
  /// (its datasets keep the compression they were made with; the space of the dropped times
  /// stays in the file, unused). Throws a bad-input Error for an unknown or repeated field, a
  /// level outside 0..9, or a file to continue that is not such a series of the same fields
  /// (left as it was); an I/O Error when it cannot be changed.
  SnapshotSeriesFile(std::filesystem::path path, std::vector<std::string> fields, int compression_level,
                     std::optional<long> kept_step);
  SnapshotSeriesFile(const SnapshotSeriesFile&) = delete;
  SnapshotSeriesFile& operator=(const SnapshotSeriesFile&) = delete;

  /// Appends `snapshot` (the whole grid, with its state) as the next time, synced. Throws an
  /// I/O Error when `path` exists at the first append or writing fails (the times before stay
  /// readable), a bad-input Error naming both grids when the grid (nx, ny, nz) is not the
  /// continued file's, or for a field of the 3-D model in a 2-D snapshot, an internal Error
  /// for a snapshot whose arrays do not match its grid.
  void append(const Snapshot& snapshot);
  /// The times the file holds.
  long times() const { return times_; }

 private:
  void create(const Snapshot& snapshot);
  void extend(const Snapshot& snapshot);

  std::filesystem::path path_;
  std::vector<std::string> fields_;
  int compression_level_;
  bool exists_ = false;  ///< on the disk (made, or continued)
  long times_ = 0;
};

}  // namespace simapp::io
