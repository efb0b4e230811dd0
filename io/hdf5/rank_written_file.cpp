#include "io/hdf5/rank_written_file.hpp"

#include <utility>

#include "foundation/error.hpp"
#include "solver/decomposition/error_agreement.hpp"

namespace simapp::io {

namespace fs = std::filesystem;

namespace {

/// Runs `action`, reporting a FileFailure as the I/O Error naming `path`.
template <class Action>
void as_io_error(const fs::path& path, Action&& action) {
  try {
    action();
  } catch (const FileFailure& failure) {
    throw Error(ExitCode::io, path.string(), failure.what());
  }
}

/// write_rows of values of type T.
template <class T>
void write_rows_of(const RowSink& sink, const T* data, std::size_t row_values, std::size_t rows,
                   std::size_t file_row_values, long long first) {
  const std::size_t row_bytes = row_values * sizeof(T);
  if (row_values == file_row_values) {
    sink(data, rows * row_bytes, static_cast<off_t>(first));
    return;
  }
  const auto file_row_bytes = static_cast<long long>(file_row_values * sizeof(T));
  for (std::size_t r = 0; r < rows; ++r)
    sink(data + r * row_values, row_bytes, static_cast<off_t>(first + static_cast<long long>(r) * file_row_bytes));
}

}  // namespace

void write_rows(const RowSink& sink, const double* data, std::size_t row_values, std::size_t rows,
                std::size_t file_row_values, long long first) {
  write_rows_of(sink, data, row_values, rows, file_row_values, first);
}

void write_rows(const RowSink& sink, const float* data, std::size_t row_values, std::size_t rows,
                std::size_t file_row_values, long long first) {
  write_rows_of(sink, data, row_values, rows, file_row_values, first);
}

RankWrittenFile::RankWrittenFile(fs::path path, long long size_bound, const std::vector<std::string>& reserved,
                                 const std::function<void(hid_t file)>& fill, MPI_Comm comm)
    : path_(std::move(path)), ranges_(reserved.size()) {
  MPI_Comm_rank(comm, &rank_);
  run_on_root_agreed(comm, [&] {
    as_io_error(path_, [&] {
      file_.emplace(path_);
      ranges_ = write_layout(*file_, size_bound, reserved, fill);
    });
  });
  MPI_Bcast(ranges_.data(), static_cast<int>(ranges_.size() * sizeof(ReservedRange)), MPI_BYTE, 0, comm);
}

void RankWrittenFile::write_part(const std::function<void(const RowSink&)>& rows,
                                 const std::function<void()>& before_sync) {
  as_io_error(path_, [&] {
    if (rank_ == 0) {
      rows([this](const void* data, std::size_t size, off_t offset) { file_->write_at(data, size, offset); });
      if (before_sync) before_sync();
      file_->sync_and_close();
      return;
    }
    ExistingFileWriter writer(unfinished_path(path_));
    rows([&writer](const void* data, std::size_t size, off_t offset) { writer.write_at(data, size, offset); });
    if (before_sync) before_sync();
    writer.sync_and_close();
  });
}

void RankWrittenFile::publish() {
  as_io_error(path_, [&] { file_->publish(Replace::never); });
}

}  // namespace simapp::io
