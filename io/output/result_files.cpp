#include "io/output/result_files.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <string>
#include <system_error>

#include <fmt/format.h>

#include "foundation/error.hpp"
#include "io/checkpoint/checkpoint.hpp"
#include "io/files/numbered_name.hpp"
#include "io/hdf5/hdf5_reader.hpp"
#include "io/hdf5/statistics_file.hpp"
#include "io/output/run_log.hpp"
#include "io/output/run_summary.hpp"
#include "io/timing/timing_report.hpp"
#include "io/xdmf/xdmf_writer.hpp"

namespace simapp::io {

namespace fs = std::filesystem;

namespace {

bool is_plain_file(const fs::path& path) {
  struct stat status {};
  return ::lstat(path.c_str(), &status) == 0 && S_ISREG(status.st_mode);
}

std::string describe_type(const fs::path& path) {
  struct stat status {};
  if (::lstat(path.c_str(), &status) != 0) return "cannot be inspected";
  if (S_ISLNK(status.st_mode)) return "a symbolic link";
  if (S_ISDIR(status.st_mode)) return "a directory";
  if (S_ISFIFO(status.st_mode)) return "a named pipe";
  if (!S_ISREG(status.st_mode)) return "not a regular file";
  return "a file without simapp's attributes";
}

}  // namespace

std::optional<ResultEntry> as_result_entry(const fs::path& path) {
  const std::string name = path.filename().string();
  if (name == "fields.xmf") return ResultEntry{path, ResultKind::xdmf_index};
  if (name == run_log_name) return ResultEntry{path, ResultKind::run_log};
  if (name == run_summary_name) return ResultEntry{path, ResultKind::run_summary};
  if (name == "fields.nc") return ResultEntry{path, ResultKind::snapshot_series};
  if (name == statistics_file_name) return ResultEntry{path, ResultKind::statistics};
  if (name == "timing.json" || name == "profile.json" || name == "diagnostics.json")
    return ResultEntry{path, ResultKind::timing_report};
  // Snapshots, and those of earlier versions of simapp, named .h5.
  for (const char* suffix : {".nc", "_failed.nc", ".h5", "_failed.h5"})
    if (const auto step = numbered_name_step(name, "fields_", suffix))
      return ResultEntry{path, ResultKind::snapshot, *step};
  if (const auto step = numbered_name_step(name, "checkpoint_"))
    return ResultEntry{path, ResultKind::checkpoint, *step};
  return std::nullopt;
}

std::vector<ResultEntry> run_record_entries(const fs::path& directory) {
  std::vector<ResultEntry> entries;
  for (const char* name : {run_log_name, run_summary_name}) {
    std::error_code error;
    if (fs::exists(fs::symlink_status(directory / name, error))) entries.push_back(*as_result_entry(directory / name));
  }
  return entries;
}

std::vector<ResultEntry> result_entries(const fs::path& directory) {
  std::vector<ResultEntry> entries;
  std::error_code error;
  if (!fs::exists(fs::symlink_status(directory, error))) return entries;
  for (fs::directory_iterator it(directory, error), end; !error && it != end; it.increment(error))
    if (auto entry = as_result_entry(it->path())) entries.push_back(std::move(*entry));
  if (error) throw Error(ExitCode::bad_input, directory.string(), "cannot read the directory: " + error.message());
  std::ranges::sort(entries, {}, &ResultEntry::path);
  return entries;
}

bool written_by_simapp(const ResultEntry& entry) {
  if (!is_plain_file(entry.path)) return false;
  switch (entry.kind) {
    case ResultKind::snapshot:
    case ResultKind::snapshot_series:
    case ResultKind::statistics: return has_root_attributes(entry.path, {"simapp_version", "input_yaml"});
    case ResultKind::checkpoint: return is_simapp_checkpoint(entry.path);
    case ResultKind::xdmf_index: return is_simapp_xdmf(entry.path);
    case ResultKind::timing_report: return is_timing_report(entry.path);
    case ResultKind::run_log: return is_run_log(entry.path);
    case ResultKind::run_summary: return is_run_summary(entry.path);
  }
  return false;
}

void require_written_by_simapp(const std::vector<ResultEntry>& entries) {
  for (const ResultEntry& entry : entries)
    if (!written_by_simapp(entry))
      throw Error(ExitCode::bad_input, entry.path.string(),
                  fmt::format("named like a result but not written by simapp ({}); simapp never removes or "
                              "replaces it: move it away or choose another output.dir",
                              describe_type(entry.path)));
}

void require_removable(const std::vector<ResultEntry>& entries) {
  for (const ResultEntry& entry : entries) {
    const fs::path directory = entry.path.has_parent_path() ? entry.path.parent_path() : fs::path(".");
    const auto refuse = [&](const std::string& why) {
      throw Error(ExitCode::bad_input, entry.path.string(),
                  fmt::format("cannot be removed ({}), so the run would stop after removing other results: nothing "
                              "was removed",
                              why));
    };
    if (::access(directory.c_str(), W_OK | X_OK) != 0)
      refuse(fmt::format("'{}': {}", directory.string(), std::generic_category().message(errno)));
    struct stat folder {
    }, file{};
    if (::geteuid() == 0 || ::stat(directory.c_str(), &folder) != 0 || (folder.st_mode & S_ISVTX) == 0) continue;
    if (::lstat(entry.path.c_str(), &file) == 0 && file.st_uid != ::geteuid() && folder.st_uid != ::geteuid())
      refuse(fmt::format("'{}' is a shared directory (sticky) and the file belongs to user {}", directory.string(),
                         file.st_uid));
  }
}

void remove_results(const std::vector<ResultEntry>& entries) {
  require_written_by_simapp(entries);
  require_removable(entries);
  for (const ResultEntry& entry : entries) {
    std::error_code error;
    fs::remove(entry.path, error);
    if (error) throw Error(ExitCode::io, entry.path.string(), "cannot remove: " + error.message());
  }
}

}  // namespace simapp::io
