#include "app/run_record.hpp"

#include <unistd.h>

#include <cstdio>
#include <iterator>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "app/standard_output.hpp"
#include "io/files/new_file.hpp"
#include "io/output/result_files.hpp"
#include "solver/decomposition/error_agreement.hpp"

#ifndef SIMAPP_CUDA_COMPILER_VERSION
#define SIMAPP_CUDA_COMPILER_VERSION ""
#endif

namespace simapp::app {

namespace fs = std::filesystem;

namespace {

/// `word` as a shell reads it back: as it is when plain, else in single quotes; control
/// characters escaped, so that it stays on its line.
std::string shell_word(std::string_view word) {
  const bool plain = !word.empty() && word.find_first_not_of(
                                          "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                          "0123456789_-+=.,:/@%") == std::string_view::npos;
  if (plain) return std::string(word);
  fmt::memory_buffer quoted;
  fmt::format_to(std::back_inserter(quoted), "'");
  for (const char c : word) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '\'')
      fmt::format_to(std::back_inserter(quoted), "'\\''");
    else if (byte < 0x20 || byte == 0x7f)
      fmt::format_to(std::back_inserter(quoted), "\\x{:02x}", byte);
    else
      quoted.push_back(c);
  }
  fmt::format_to(std::back_inserter(quoted), "'");
  return fmt::to_string(quoted);
}

std::string host_name() {
  char name[256] = {};
  gethostname(name, sizeof name - 1);
  return name;
}

/// What the log's first line says of the run: its command line, where and as what it runs.
std::string describe_start(const std::vector<std::string>& command, const std::string& host, int ranks) {
  std::vector<std::string> words;
  for (const std::string& word : command) words.push_back(shell_word(word));
  return fmt::format("{} (host {}, pid {}, {} rank{})", fmt::join(words, " "), host, ::getpid(), ranks,
                     ranks == 1 ? "" : "s");
}

}  // namespace

RunRecord::RunRecord(const MpiSession& mpi, const std::vector<std::string>& command,
                     std::chrono::system_clock::time_point started)
    : root_(mpi.root()),
      log_(mpi.root() ? stdout : nullptr, stderr, describe_start(command, host_name(), mpi.size()),
           standard_output_closed_warning) {
  summary_.command = command;
  summary_.host = host_name();
  summary_.pid = ::getpid();
  summary_.ranks = mpi.size();
  summary_.started = started;
  summary_.cuda_compiler = SIMAPP_CUDA_COMPILER_VERSION;
  summary_.build = io::this_build();
}

io::OutputSession& RunRecord::open_output(const io::LoadedConfig& config, MPI_Comm comm) {
  directory_ = config.spec.output.dir;
  return output_.emplace(config, comm, [this](const std::string& line) { log_.print(line); });
}

void RunRecord::write_into_directory(RecordStart start, MPI_Comm comm) {
  run_on_root_agreed(comm, [&] {
    if (start == RecordStart::continued) {
      const std::vector<io::ResultEntry> earlier = io::run_record_entries(directory_);
      io::require_written_by_simapp(earlier);
      io::require_removable(earlier);
    }
    try {
      log_.write_to(directory_ / io::run_log_name);
    } catch (const io::FileFailure& failure) {
      throw Error(ExitCode::bad_input, "output.dir",
                  fmt::format("cannot write to '{}': {}", directory_.string(), failure.what()));
    }
  });
  if (!root_) log_.write_to(directory_ / io::run_log_name);
  into_directory_ = true;
}

void RunRecord::write_nowhere() { log_.without_file(); }

void RunRecord::end(ExitCode code, const std::string& reason, SummaryFile file) {
  if (!root_) return;
  summary_.ended = std::chrono::system_clock::now();
  summary_.exit_code = static_cast<int>(code);
  summary_.reason = reason;
  if (into_directory_ && file == SummaryFile::write) {
    try {
      io::write_run_summary(directory_ / io::run_summary_name, summary_);
    } catch (const Error& error) {
      log_.warning(fmt::format("simapp: warning: {}: {}; the summary was not written", error.where(), error.what()));
    }
  }
  log_.note(fmt::format("simapp ended: exit code {} after {:.3f} s", summary_.exit_code,
                        std::chrono::duration<double>(summary_.ended - summary_.started).count()));
}

void RunRecord::fail(ExitCode code, const std::string& line) {
  const std::string text = line.ends_with('\n') ? line.substr(0, line.size() - 1) : line;
  log_.error(text);
  constexpr std::string_view prefix = "simapp: error: ";
  end(code, text.starts_with(prefix) ? text.substr(prefix.size()) : text);
}

}  // namespace simapp::app
