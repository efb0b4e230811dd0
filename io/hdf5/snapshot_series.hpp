#pragma once
/// output.layout: series. Every snapshot of a run in one netCDF-4/CF file (fields.nc) along its
/// unlimited time dimension, one more time at each append: the layout of a snapshot
/// (snapshot_writer.hpp) with the fields of the grid [time][nz][nx] ([time][nz][ny][nx] in 3-D),
/// each time one chunk (of at most 1 GiB: a larger grid's fields are cut into bands of rows, or of
/// layers in 3-D), and step(time). Written by one process with the whole grid, one writer at a
/// time (a run's output directory lock).
///
/// Any reader may open the file at any moment of the run and gets a whole file holding a prefix
/// of the run's times: the published file is never written to. Each append extends a private
/// working copy (io/files/versioned_file.hpp: in place, the space it may need taken first so that
/// a full disk or a file-size limit fails before HDF5 writes, which HDF5 1.10 cannot recover from
/// at a close), syncs it and renames it over the file. The working copy is the version the last
/// append replaced, caught up with the time that append added (read back from the file), where no
/// reader has it open; else a copy of the file. HDF5 in SWMR mode, which changes the file a
/// reader is reading, is not used: a plain reader (not opened for SWMR) is refused a file a
/// writer has open in that mode ("file is already open for write"), and reads metadata being
/// rewritten in place as nonsense ("addr overflow").
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "io/files/versioned_file.hpp"
#include "io/hdf5/snapshot_writer.hpp"

namespace simapp::io {

class SnapshotSeriesFile {
 public:
  /// A series at `path` of `fields` (deflated at `compression_level`, 0: none), made at the first
  /// append where there is none. `kept_step` set: a restarted run continues the file at `path`
  /// if there is one, keeping its times of steps up to `kept_step` and dropping the others now
  /// (its datasets keep the compression they were made with). Throws a bad-input Error for an
  /// unknown or repeated field, a level outside 0..9, or a file to continue that is not such a
  /// series of the same fields (left as it was); an I/O Error when it cannot be changed.
  /// `fields` may name `tracers` and `water` (the snapshots' Snapshot::tracer_fields and
  /// water_fields) and, with water, the surface fields.
  SnapshotSeriesFile(std::filesystem::path path, std::vector<std::string> fields, int compression_level,
                     std::optional<long> kept_step, std::span<const DerivedField> tracers = {},
                     std::span<const DerivedField> water = {});
  SnapshotSeriesFile(const SnapshotSeriesFile&) = delete;
  SnapshotSeriesFile& operator=(const SnapshotSeriesFile&) = delete;

  /// Appends `snapshot` (the whole grid, with its state) as the next time, synced. Throws an
  /// I/O Error when `path` exists at the first append or writing fails (the file stays as it
  /// was), a bad-input Error naming both when the grid (nx, ny, nz), the time's units (its
  /// time_start) or the precision (simapp_precision; float64 where the file has none) are not
  /// the continued file's, or for a field of the 3-D model in a 2-D
  /// snapshot, an internal Error for a snapshot whose arrays do not match its grid.
  void append(const Snapshot& snapshot);
  /// The times the file holds.
  long times() const { return times_; }

 private:
  void create(const Snapshot& snapshot);
  void extend(const Snapshot& snapshot);
  /// Drops the times of steps after `kept_step`; returns the times kept.
  long keep_until(long kept_step);

  std::filesystem::path path_;
  std::vector<std::string> fields_;
  int compression_level_;
  VersionedFile versions_;
  bool exists_ = false;  ///< on the disk (made, or continued)
  long times_ = 0;
};

}  // namespace simapp::io
