#pragma once
/// eager_streams: runs a StepProgram eagerly with each lane's ops on a stream of its own,
/// ordered by events exactly where a graph capture puts its edges (at Join ops, and around
/// Host ops, which run on the stream the program is given). Its time against `eager` (one
/// stream) and `graph` (the same streams captured) separates what concurrent lanes buy from
/// what graphs buy. CUDA only (built with the CUDA backend): the host backend has one stream.
#include <memory>

#include "solver/executor/program_runner.hpp"

namespace simapp {

class LaneStreams;

class LaneStreamsRunner final : public ProgramRunner {
 public:
  LaneStreamsRunner();
  ~LaneStreamsRunner() override;

  void run(const StepProgram& program, const Stream& stream) override;
  void prepare(const StepProgram&, const Stream&) override {}

 private:
  std::unique_ptr<LaneStreams> lanes_;  ///< forked from the stream of the first run
};

}  // namespace simapp
