/// parallel.halo: auto made concrete — NCCL only where the build has it, the backend is CUDA,
/// there are several ranks and each has a GPU of its own; an explicit choice is kept as asked.
#include <gtest/gtest.h>

#include "solver/halo/halo_path.hpp"

namespace simapp {
namespace {

TEST(HaloChoiceTest, AnExplicitTransportIsKeptAsConfigured) {
  for (const HaloTransport asked : {HaloTransport::mpi, HaloTransport::nccl}) {
    const HaloTransportChoice choice = choose_halo_transport(asked, Backend::host, 4, false);
    EXPECT_EQ(choice.transport, asked);
    EXPECT_EQ(choice.reason, "as configured");
  }
}

TEST(HaloChoiceTest, AutoTakesMpiWheneverNcclCannotCarryTheHalos) {
  const auto mpi_because = [](Backend backend, int ranks, bool own_gpu, const std::string& reason) {
    const HaloTransportChoice choice = choose_halo_transport(HaloTransport::automatic, backend, ranks, own_gpu);
    EXPECT_EQ(choice.transport, HaloTransport::mpi) << reason;
    EXPECT_EQ(choice.reason, reason);
  };
  mpi_because(Backend::cuda, 1, true, "auto: one rank, no halos between ranks");
  mpi_because(Backend::host, 4, true, "auto: the host backend");  // with or without NCCL
  if (!nccl_compiled()) {
    mpi_because(Backend::cuda, 4, true, "auto: this simapp was built without NCCL");
    return;
  }
  mpi_because(Backend::cuda, 4, false, "auto: ranks share a GPU, and NCCL needs one each");
}

TEST(HaloChoiceTest, AutoTakesNcclForSeveralRanksWithAGpuEach) {
  if (!nccl_compiled()) GTEST_SKIP() << "this build has no NCCL";
  const HaloTransportChoice choice = choose_halo_transport(HaloTransport::automatic, Backend::cuda, 2, true);
  EXPECT_EQ(choice.transport, HaloTransport::nccl);
  EXPECT_EQ(choice.reason, "auto: a build with NCCL, the CUDA backend and a GPU for every rank");
}

}  // namespace
}  // namespace simapp
