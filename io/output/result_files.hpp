#pragma once
/// The results simapp keeps in output.dir, known by name (fields_<step>.nc, fields_<step>_failed.nc,
/// and fields_<step>.h5 as earlier versions named snapshots, checkpoint_<step>.h5, fields.xmf,
/// fields.nc, stats.nc, timing.json, profile.json, diagnostics.json, and the run's own record:
/// simapp.log and run.json) and told apart from a user's files of the same name by content: an
/// HDF5 file carrying simapp's root attributes, an XDMF index, timing report or run.json carrying
/// simapp's mark, a log starting with a run's start line. Only files that simapp wrote are ever
/// removed.
#include <filesystem>
#include <optional>
#include <vector>

namespace simapp::io {

enum class ResultKind {
  snapshot,
  checkpoint,
  xdmf_index,
  snapshot_series,
  statistics,
  timing_report,
  run_log,
  run_summary
};

/// An entry of output.dir named like a result; it may be any type of file.
struct ResultEntry {
  std::filesystem::path path;
  ResultKind kind = ResultKind::snapshot;
  long step = -1;  ///< of a snapshot or checkpoint; -1 for the others and for a number too large
};

/// The entries of `directory` named like results, sorted by name; none when the directory
/// does not exist. Throws a bad-input Error when it cannot be read.
std::vector<ResultEntry> result_entries(const std::filesystem::path& directory);

/// The entry for `path` when its name is a result's.
std::optional<ResultEntry> as_result_entry(const std::filesystem::path& path);

/// The run's own record in `directory` that is there (simapp.log, run.json; any type of file).
std::vector<ResultEntry> run_record_entries(const std::filesystem::path& directory);

/// True when `entry` is a regular file (not a link) that simapp wrote.
bool written_by_simapp(const ResultEntry& entry);

/// Throws a bad-input Error naming the first of `entries` that simapp did not write.
void require_written_by_simapp(const std::vector<ResultEntry>& entries);

/// Throws a bad-input Error naming the first of `entries` this process may not remove: it
/// needs write and search permission on the file's directory and, in a sticky directory (a
/// shared one, like /tmp), to own the file or the directory.
void require_removable(const std::vector<ResultEntry>& entries);

/// Removes `entries` from the disk; first throws a bad-input Error naming any of them that
/// simapp did not write or that may not be removed, so either all go or none does.
void remove_results(const std::vector<ResultEntry>& entries);

}  // namespace simapp::io
