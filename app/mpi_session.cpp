#include "app/mpi_session.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <utility>

#include <fmt/core.h>

#include "solver/decomposition/error_agreement.hpp"

namespace simapp::app {

MpiSession::MpiSession(int& argc, char**& argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

MpiSession::~MpiSession() { MPI_Finalize(); }

JobArguments::JobArguments(const MpiSession& mpi, int argc, char** argv) {
  int count = argc;
  MPI_Bcast(&count, 1, MPI_INT, 0, MPI_COMM_WORLD);
  for (int n = 0; n < count; ++n)
    arguments_.push_back(broadcast_text(mpi.root() ? std::string(argv[n]) : std::string(), 0, MPI_COMM_WORLD));
  for (std::string& argument : arguments_) pointers_.push_back(argument.data());
  pointers_.push_back(nullptr);
}

namespace {

/// `text` with control characters written as escapes, so it stays on one line.
std::string escaped(std::string_view text) {
  std::string out;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '\n')
      out += "\\n";
    else if (c == '\t')
      out += "\\t";
    else if (c == '\r')
      out += "\\r";
    else if (byte < 0x20 || byte == 0x7f)
      out += fmt::format("\\x{:02x}", byte);
    else
      out += c;
  }
  return out;
}

void print_to_stderr(const std::string& line) {
  std::fflush(stdout);
  std::fputs(line.c_str(), stderr);
  std::fflush(stderr);
}

}  // namespace

std::string error_line(const Error& error, int rank) {
  return fmt::format("simapp: error: {}{}: {}\n", rank >= 0 ? fmt::format("rank {}: ", rank) : "",
                     escaped(error.where()), escaped(error.what()));
}

int MpiSession::uniform_error(const Error& error, const ErrorPrinter& print) const {
  if (root()) (print ? print : print_to_stderr)(error_line(error));
  return static_cast<int>(error.code());
}

int MpiSession::report(const Error& error, const ErrorPrinter& print) const {
  if (error.reach() == ErrorReach::every_rank || size_ == 1) return uniform_error(error, print);
  (print ? print : print_to_stderr)(error_line(error, rank_));
  MPI_Abort(MPI_COMM_WORLD, static_cast<int>(error.code()));
  std::exit(static_cast<int>(error.code()));  // MPI_Abort does not return; keep the contract if it did
}

namespace {

/// This rank's place among the ranks of its node: {rank, size}, from a shared-memory split
/// (collective over MPI_COMM_WORLD).
std::pair<int, int> place_on_node() {
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int rank = 0, size = 1;
  MPI_Comm_rank(node, &rank);
  MPI_Comm_size(node, &size);
  MPI_Comm_free(&node);
  return {rank, size};
}

}  // namespace

int node_local_rank() {
  for (const char* variable : {"OMPI_COMM_WORLD_LOCAL_RANK", "SLURM_LOCALID", "MPI_LOCALRANKID"})
    if (const char* value = std::getenv(variable)) return std::atoi(value);
  return place_on_node().first;
}

int node_local_size() { return place_on_node().second; }

}  // namespace simapp::app
