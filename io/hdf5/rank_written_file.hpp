#pragma once
/// A new HDF5 file that rank 0 lays out and every rank fills with its own rows: what
/// block-written snapshots and checkpoints share. Rank 0 builds the metadata (write_layout,
/// no HDF5 call on the disk) in the file's unfinished name, every rank writes its rows into the
/// reserved ranges with plain writes and syncs them, and rank 0 publishes the file once the
/// ranks agree. Every failure is an I/O Error naming the file.
#include <mpi.h>
#include <sys/types.h>

#include <cstddef>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "io/files/new_file.hpp"
#include "io/hdf5/hdf5_file.hpp"

namespace simapp::io {

/// Where bytes go in the unfinished file: `size` bytes of `data` at byte `offset`.
using RowSink = std::function<void(const void* data, std::size_t size, off_t offset)>;

/// Writes `rows` rows of `row_values` doubles, consecutive in `data`, as rows `file_row_values`
/// doubles apart starting at byte `first` (one write when the rows are whole rows of the file).
void write_rows(const RowSink& sink, const double* data, std::size_t row_values, std::size_t rows,
                std::size_t file_row_values, long long first);
/// The same of floats (a dataset of 32-bit floats: execution.precision float32).
void write_rows(const RowSink& sink, const float* data, std::size_t row_values, std::size_t rows,
                std::size_t file_row_values, long long first);

class RankWrittenFile {
 public:
  /// Collective over `comm`: rank 0 creates `path`'s unfinished file and lays it out
  /// (write_layout with `size_bound`, `reserved` and `fill`); every rank learns the reserved
  /// ranges. A failure on rank 0 is the same I/O Error on every rank.
  RankWrittenFile(std::filesystem::path path, long long size_bound, const std::vector<std::string>& reserved,
                  const std::function<void(hid_t file)>& fill, MPI_Comm comm);

  /// The reserved datasets' byte ranges, in `reserved`'s order.
  const std::vector<ReservedRange>& ranges() const { return ranges_; }

  /// This rank's part (not collective; it may run on a thread of its own): `rows` writes
  /// through the sink it is given (from several threads if it likes, at distinct offsets), then
  /// `before_sync` runs, then the part is synced.
  void write_part(const std::function<void(const RowSink&)>& rows, const std::function<void()>& before_sync = {});

  /// Rank 0 only, once every rank's part is written: gives the file its final name.
  void publish();

 private:
  std::filesystem::path path_;
  int rank_ = 0;
  std::optional<NewFile> file_;  ///< rank 0's; removed unless published
  std::vector<ReservedRange> ranges_;
};

}  // namespace simapp::io
