#include "io/output/run_log.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <mutex>
#include <regex>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <spdlog/logger.h>
#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/base_sink.h>

#include "foundation/printable_text.hpp"
#include "io/files/new_file.hpp"
#include "simapp_version.hpp"

namespace simapp::io {

namespace fs = std::filesystem;

namespace {

/// The file's lines: the UTC wall clock to the millisecond, then the line.
constexpr const char* file_pattern = "[%Y-%m-%d %H:%M:%S.%e UTC] %v";
/// How a run's first line starts, after its time stamp.
constexpr const char* start_mark = "started: ";
/// Lines kept for a file that is not open yet, at most: far more than a run prints before it
/// owns its directory.
constexpr std::size_t most_kept_lines = 10000;

/// Lines written to a stream as they are, each flushed (a terminal, a pipe, a batch log).
class StreamSink final : public spdlog::sinks::base_sink<std::mutex> {
 public:
  explicit StreamSink(std::FILE* stream) : stream_(stream) {}

 protected:
  void sink_it_(const spdlog::details::log_msg& message) override {
    spdlog::memory_buf_t line;
    formatter_->format(message, line);
    std::fwrite(line.data(), 1, line.size(), stream_);
    std::fflush(stream_);
  }
  void flush_() override { std::fflush(stream_); }

 private:
  std::FILE* stream_;
};

/// Opens `path` for appending: created when missing, never through a link, never a named pipe
/// or anything else but a regular file.
std::FILE* open_for_appending(const fs::path& path) {
  const int descriptor =
      ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);
  if (descriptor < 0) fail_system("cannot open " + path.string());
  struct stat status {};
  if (::fstat(descriptor, &status) != 0 || !S_ISREG(status.st_mode)) {
    ::close(descriptor);
    throw FileFailure(path.string() + ": not a regular file");
  }
  ::fcntl(descriptor, F_SETFL, O_APPEND);  // writes block again
  std::FILE* file = ::fdopen(descriptor, "a");
  if (file == nullptr) {
    ::close(descriptor);
    fail_system("cannot open " + path.string());
  }
  return file;
}

/// The log file: lines kept until it is opened, then written (every line, by the printing
/// rank) or appended one at a time (the other ranks' warnings and errors). A failed write
/// closes it and is remembered, for one warning.
class FileSink final : public spdlog::sinks::base_sink<std::mutex> {
 public:
  ~FileSink() override {
    if (file_ != nullptr) std::fclose(file_);
  }

  void write_to(const fs::path& path, bool every_line) {
    std::lock_guard<std::mutex> lock(mutex_);
    path_ = path;
    if (every_line) {
      file_ = open_for_appending(path);
      state_ = State::writing;
    } else {
      state_ = State::appending;
    }
    for (const std::string& line : std::exchange(kept_, {})) write(line);
  }

  void without_file() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (state_ == State::keeping) state_ = State::off;
    kept_.clear();
  }

  /// The warning a failed write calls for, once; "" when there is none.
  std::string take_failure() {
    std::lock_guard<std::mutex> lock(mutex_);
    return std::exchange(failure_, {});
  }

 protected:
  void sink_it_(const spdlog::details::log_msg& message) override {
    spdlog::memory_buf_t line;
    formatter_->format(message, line);
    write(std::string(line.data(), line.size()));
  }
  void flush_() override {
    if (file_ != nullptr) std::fflush(file_);
  }

 private:
  enum class State { keeping, writing, appending, off };

  void write(const std::string& line) {
    switch (state_) {
      case State::keeping:
        if (kept_.size() < most_kept_lines) kept_.push_back(line);
        return;
      case State::writing:
        if (std::fputs(line.c_str(), file_) == EOF || std::fflush(file_) != 0) fail();
        return;
      case State::appending:
        try {
          std::FILE* file = open_for_appending(path_);
          const bool written = std::fputs(line.c_str(), file) != EOF;
          if (std::fclose(file) != 0 || !written) fail();
        } catch (const FileFailure& failure) {
          stop(failure.what());
        }
        return;
      case State::off: return;
    }
  }

  void fail() { stop(fmt::format("{}: cannot be written ({})", path_.string(), std::strerror(errno))); }

  void stop(const std::string& why) {
    if (file_ != nullptr) std::fclose(file_);
    file_ = nullptr;
    state_ = State::off;
    failure_ = fmt::format("simapp: warning: {}; the run goes on without its log file", why);
  }

  State state_ = State::keeping;
  std::vector<std::string> kept_;
  fs::path path_;
  std::FILE* file_ = nullptr;
  std::string failure_;
};

std::unique_ptr<spdlog::formatter> plain_lines() { return std::make_unique<spdlog::pattern_formatter>("%v"); }

}  // namespace

struct RunLog::Loggers {
  std::shared_ptr<StreamSink> diagnostics;
  std::shared_ptr<FileSink> file;
  std::shared_ptr<spdlog::logger> lines;    ///< console (when printing) and file
  std::shared_ptr<spdlog::logger> notes;    ///< file only
  std::shared_ptr<spdlog::logger> notices;  ///< warnings and errors: diagnostics and file
};

RunLog::RunLog(std::FILE* console, std::FILE* diagnostics, std::string_view started,
               std::function<std::string_view()> console_warning)
    : loggers_(std::make_unique<Loggers>()), prints_(console != nullptr), console_warning_(std::move(console_warning)) {
  Loggers& l = *loggers_;
  l.diagnostics = std::make_shared<StreamSink>(diagnostics);
  l.diagnostics->set_formatter(plain_lines());
  l.file = std::make_shared<FileSink>();
  l.file->set_formatter(std::make_unique<spdlog::pattern_formatter>(file_pattern, spdlog::pattern_time_type::utc));
  std::vector<spdlog::sink_ptr> lines{l.file};
  if (console != nullptr) {
    auto console_sink = std::make_shared<StreamSink>(console);
    console_sink->set_formatter(plain_lines());
    lines.insert(lines.begin(), console_sink);
  }
  l.lines = std::make_shared<spdlog::logger>("simapp", lines.begin(), lines.end());
  l.notes = std::make_shared<spdlog::logger>("simapp.notes", l.file);
  l.notices = std::make_shared<spdlog::logger>("simapp.notices", spdlog::sinks_init_list{l.diagnostics, l.file});
  for (const auto& logger : {l.lines, l.notes, l.notices}) {
    logger->set_level(spdlog::level::trace);
    logger->set_error_handler([](const std::string&) {});  // a log never stops the run
  }
  note(fmt::format("simapp {} (git {}) {}{}", build_info::version, build_info::git_hash, start_mark, started));
}

RunLog::~RunLog() = default;

void RunLog::print(std::string_view line) {
  if (!prints_) return;
  loggers_->lines->info(fmt::string_view(printable(line)));
  after_writing();
}

void RunLog::note(std::string_view line) {
  if (!prints_) return;
  loggers_->notes->info(fmt::string_view(printable(line)));
  after_writing();
}

void RunLog::warning(std::string_view line) {
  loggers_->notices->warn(fmt::string_view(printable(line)));
  after_writing();
}

void RunLog::error(std::string_view line) {
  loggers_->lines->flush();
  loggers_->notices->error(fmt::string_view(printable(line)));
  after_writing();
}

void RunLog::write_to(const fs::path& path) {
  loggers_->file->write_to(path, prints_);
  after_writing();
}

void RunLog::without_file() { loggers_->file->without_file(); }

void RunLog::after_writing() {
  if (!console_warning_noted_ && console_warning_) {
    if (const std::string_view warning = console_warning_(); !warning.empty()) {
      console_warning_noted_ = true;
      loggers_->notes->warn(fmt::string_view(printable(warning)));  // stderr has it already
    }
  }
  if (const std::string failure = printable(loggers_->file->take_failure()); !failure.empty())
    loggers_->diagnostics->log(spdlog::details::log_msg("simapp", spdlog::level::warn, fmt::string_view(failure)));
}

bool is_run_log(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::string first(4096, '\0');
  in.read(first.data(), static_cast<std::streamsize>(first.size()));
  first.resize(static_cast<std::size_t>(in.gcount()));
  first = first.substr(0, first.find('\n'));
  static const std::regex start(R"(\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} UTC\] simapp \S+ \(git \S+\) )" +
                                std::string(start_mark) + ".*");
  return std::regex_match(first, start);
}

}  // namespace simapp::io
