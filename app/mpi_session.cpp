#include "app/mpi_session.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <system_error>
#include <utility>

#include <fmt/core.h>

#include "foundation/printable_text.hpp"
#include "solver/decomposition/error_agreement.hpp"

namespace simapp::app {

namespace {

/// Whether a launcher (mpirun, srun) started this process as a rank of a job.
bool launched() {
  for (const char* variable : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"})
    if (std::getenv(variable) != nullptr) return true;
  return false;
}

/// A process started without a launcher is an MPI singleton: Open MPI's MPI_Init starts a
/// helper daemon for it, whose default launcher component looks for ssh or rsh on PATH and,
/// finding neither (no PATH: `env -i simapp …`, or a container without ssh), fails MPI_Init
/// with a page of banners. A singleton launches nothing, so it is told to use the launcher that
/// launches nothing (plm isolated), unless the environment names one.
void start_singletons_without_rsh() {
  if (!launched() && std::getenv("OMPI_MCA_plm") == nullptr) ::setenv("OMPI_MCA_plm", "isolated", 0);
}

/// Starts MPI. Open MPI's start-up prints "Error: Unable to get the current working directory"
/// four times (the process and a singleton's helper daemon) when the working directory was
/// removed (a shell left in it); MPI is then started from /, and the process returns to its own
/// directory after (held open meanwhile), where a relative path is refused with one line.
void init_mpi(int& argc, char**& argv) {
  std::error_code error;
  int removed_directory =
      std::filesystem::current_path(error).empty() ? ::open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
  if (removed_directory >= 0 && ::chdir("/") != 0) {
    ::close(removed_directory);
    removed_directory = -1;
  }
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  if (removed_directory < 0) return;
  if (::fchdir(removed_directory) != 0) {  // relative paths must never be taken from / instead
    std::fprintf(stderr, "simapp: error: working directory: cannot return to it after starting MPI (%s)\n",
                 std::strerror(errno));
    MPI_Finalize();
    std::exit(static_cast<int>(ExitCode::internal));
  }
  ::close(removed_directory);
}

}  // namespace

MpiSession::MpiSession(int& argc, char**& argv) {
  start_singletons_without_rsh();
  init_mpi(argc, argv);
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

void print_to_stderr(const std::string& line) {
  std::fflush(stdout);
  std::fputs(line.c_str(), stderr);
  std::fflush(stderr);
}

}  // namespace

std::string error_line(const Error& error, int rank) {
  return fmt::format("simapp: error: {}{}: {}\n", rank >= 0 ? fmt::format("rank {}: ", rank) : "",
                     printable(error.where()), printable(error.what()));
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
