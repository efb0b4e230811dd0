/// The statistics a run takes over time (ScheduledStatistics) do not depend on the decomposition,
/// the execution mode or the granularity: every row of a run on every rank of the job equals bit
/// for bit the row of the same case run by rank 0 alone in eager mode, on every rank, in the 2-D
/// model and the 3-D one; the statistics at the first and last steps are the run's initial and
/// final diagnostics bit for bit. Run under mpiexec with 1, 2 and 4 ranks on the host backend;
/// the CUDA variant (label gpu) where a GPU is visible.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstring>
#include <string>
#include <vector>

#include "kernels/backend/device_runtime.hpp"
#include "solver/output/output_schedule.hpp"
#include "solver/simulation/run_loop.hpp"
#include "tests/support/mpi_world.hpp"
#include "tests/support/small_case.hpp"

namespace simapp {
namespace {

using testing::world_rank;
using testing::world_size;

struct Row {
  long step = 0;
  double time = 0.0;
  FlowStatistics statistics;
};

struct Taken {
  std::vector<Row> rows;
  RunResult result;
};

/// Runs `spec` on `comm`, taking the statistics every 3 dt (and at the first and last steps).
Taken run(const RunSpec& spec, Backend backend, ExecutionMode mode, MPI_Comm comm) {
  const Decomposition decomposition(comm, spec.grid, spec.parallel);
  Simulation simulation(spec, backend, mode, decomposition);
  Taken taken;
  const ScheduledStatistics statistics{
      OutputSchedule(simulation.time_stepping(), 3.0 * simulation.time_stepping().dt(), true),
      [&taken](long step, double time, const FlowStatistics& values) {
        taken.rows.push_back({step, time, values});
      }};
  taken.result = run_to_end(
      simulation, 5, [](const ProgressReport&) {}, {}, std::nullopt, {}, {}, statistics);
  return taken;
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

/// Each value of the rows, with what it is.
std::vector<std::pair<std::string, double>> values_of(const Row& row) {
  const FlowStatistics& s = row.statistics;
  return {{"time", row.time},
          {"mass", s.totals.mass},
          {"total_energy", s.totals.total_energy},
          {"kinetic_energy", s.kinetic_energy},
          {"max_abs_u", s.max_abs_u},
          {"max_abs_v", s.max_abs_v},
          {"max_abs_w", s.max_abs_w},
          {"min_theta_prime", s.min_theta_prime},
          {"max_theta_prime", s.max_theta_prime},
          {"courant_number", s.courant_number}};
}

/// Every row of `got` equals `expected`'s bit for bit.
void expect_same_rows(const std::vector<Row>& got, const std::vector<Row>& expected, const std::string& what) {
  ASSERT_EQ(got.size(), expected.size()) << what;
  for (std::size_t r = 0; r < got.size(); ++r) {
    EXPECT_EQ(got[r].step, expected[r].step) << what;
    const auto values = values_of(got[r]), reference = values_of(expected[r]);
    for (std::size_t v = 0; v < values.size(); ++v)
      EXPECT_TRUE(same_bits(values[v].second, reference[v].second))
          << what << ", step " << got[r].step << ", " << values[v].first << ": " << values[v].second << " against "
          << reference[v].second;
  }
}

/// Rank 0's rows on every rank.
std::vector<Row> broadcast(std::vector<Row> rows) {
  unsigned long count = rows.size();
  MPI_Bcast(&count, 1, MPI_UNSIGNED_LONG, 0, MPI_COMM_WORLD);
  rows.resize(count);
  MPI_Bcast(rows.data(), static_cast<int>(count * sizeof(Row)), MPI_BYTE, 0, MPI_COMM_WORLD);
  return rows;
}

struct Variant {
  Granularity granularity;
  ExecutionMode mode;
};

/// Rank 0 alone (eager, stage) against the whole job in each variant.
void expect_rows_independent_of_the_run(const RunSpec& base, Backend backend, const std::vector<Variant>& variants) {
  const std::vector<Row> reference =
      broadcast(world_rank() == 0 ? run(base, backend, ExecutionMode::eager, MPI_COMM_SELF).rows : std::vector<Row>{});
  ASSERT_GT(reference.size(), 4U);
  EXPECT_GT(reference.back().statistics.max_abs_w, 0.0);  // the bubble rises
  for (const Variant& variant : variants) {
    RunSpec spec = base;
    spec.execution.granularity = variant.granularity;
    const Taken distributed = run(spec, backend, variant.mode, MPI_COMM_WORLD);
    const std::string what = std::string(to_string(variant.granularity)) + ", " + std::string(to_string(variant.mode));
    expect_same_rows(distributed.rows, reference, what);
    ASSERT_FALSE(distributed.rows.empty());
    // The first and last rows are the run's initial and final diagnostics.
    EXPECT_TRUE(same_bits(distributed.rows.front().statistics.totals.mass, distributed.result.initial.mass)) << what;
    EXPECT_TRUE(same_bits(distributed.rows.back().statistics.totals.mass, distributed.result.final.mass)) << what;
    EXPECT_TRUE(
        same_bits(distributed.rows.back().statistics.totals.total_energy, distributed.result.final.total_energy))
        << what;
  }
}

const std::vector<Variant> host_variants{{Granularity::fine, ExecutionMode::graph},
                                         {Granularity::fused, ExecutionMode::eager},
                                         {Granularity::stage, ExecutionMode::graph},
                                         {Granularity::pass, ExecutionMode::graph}};

/// The thermal bubble on 61 × 30 cells (uneven splits) for 16.5 dt.
RunSpec two_d_case() {
  RunSpec spec = testing::small_case(CaseName::thermal, 61, 30, 1.0);
  spec.time.sim_time = 16.5 * TimeStepping(1.0, spec.grid.xlen / 61, spec.grid.zlen / 30, spec.time.cfl).dt();
  return spec;
}

/// The thermal bubble off the centre on 18 × 11 × 9 cells for 10.5 dt.
RunSpec three_d_case() {
  RunSpec spec = testing::small_case(CaseName::thermal, 18, 9, 1.0);
  spec.grid.xlen = 18000.0;
  spec.grid.ny = 11;
  spec.grid.ylen = 11000.0;
  spec.perturbation.center = {7000.0, 4500.0, 3000.0};
  spec.perturbation.radii = {3000.0, 2500.0, 2000.0};
  spec.time.sim_time = 10.5 * TimeStepping(1.0, 1000.0, spec.grid.zlen / 9, spec.time.cfl).dt();
  return spec;
}

TEST(FlowStatisticsMpiTest, RowsOfTheTwoDModelAreTheSameOnAnyRanksModeAndGranularity_host) {
  expect_rows_independent_of_the_run(two_d_case(), Backend::host, host_variants);
}

TEST(FlowStatisticsMpiTest, RowsOfTheThreeDModelAreTheSameOnAnyRanksModeAndGranularity_host) {
  expect_rows_independent_of_the_run(three_d_case(), Backend::host, host_variants);
}

TEST(FlowStatisticsMpiTest, RowsOnTheGpuAreTheHostsOnAnyRanksModeAndGranularity_cuda) {
  if (device::device_count() == 0) GTEST_SKIP() << "no CUDA device visible";
  for (const RunSpec& spec : {two_d_case(), three_d_case()}) {
    const std::vector<Row> host = broadcast(
        world_rank() == 0 ? run(spec, Backend::host, ExecutionMode::eager, MPI_COMM_SELF).rows : std::vector<Row>{});
    std::vector<Variant> variants{{Granularity::stage, ExecutionMode::graph},
                                  {Granularity::pass, ExecutionMode::eager},
                                  {Granularity::fine, ExecutionMode::graph}};
    if (world_size() == 1)  // the modes that count steps on the device run one rank
      variants.insert(variants.end(), {{Granularity::stage, ExecutionMode::graph_loop},
                                       {Granularity::stage, ExecutionMode::persistent}});
    for (const Variant& variant : variants) {
      RunSpec on_gpu = spec;
      on_gpu.execution.granularity = variant.granularity;
      expect_same_rows(run(on_gpu, Backend::cuda, variant.mode, MPI_COMM_WORLD).rows, host,
                       std::string("cuda, ") + std::string(to_string(variant.granularity)) + ", " +
                           std::string(to_string(variant.mode)));
    }
  }
}

}  // namespace
}  // namespace simapp
