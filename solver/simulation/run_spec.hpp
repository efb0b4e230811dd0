#pragma once
/// Everything a run is configured with, as typed values (filled by io/config).
#include <string>

#include "kernels/backend/backend_kind.hpp"
#include "kernels/initial_conditions/case_name.hpp"
#include "solver/executor/execution_mode.hpp"
#include "solver/grid/grid_spec.hpp"

namespace simapp {

struct TimeSpec {
  double sim_time = 1000.0;  ///< simulated time, s
};

struct OutputSpec {
  std::string dir = "output";  ///< directory for results
  double every = 0.0;          ///< snapshot interval, s (0: none)
  int progress_every = 0;      ///< progress line every N steps (0: about every 2 s of wall time)
};

struct ExecutionSpec {
  BackendChoice backend = BackendChoice::automatic;
  ExecutionMode mode = ExecutionMode::graph;
  Granularity granularity = Granularity::fused;
  int steps_per_graph = 0;  ///< K steps per captured graph (0: chosen for a few hundred nodes per graph)
};

struct RunSpec {
  CaseName case_name = CaseName::thermal;
  GridSpec grid;
  TimeSpec time;
  OutputSpec output;
  ExecutionSpec execution;
};

}  // namespace simapp
