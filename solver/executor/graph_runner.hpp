#pragma once
/// Runs a StepProgram as captured segments: the first run (or prepare) of a program
/// captures each of its segments once; every run replays them, with the Host ops between
/// them performed inline. Programs are identified by address and must outlive the runner's
/// use of them.
#include <map>
#include <memory>
#include <vector>

#include "solver/executor/captured_segment.hpp"
#include "solver/executor/program_runner.hpp"

namespace simapp {

class GraphRunner final : public ProgramRunner {
 public:
  void run(const StepProgram& program, const Stream& stream) override;
  void prepare(const StepProgram& program, const Stream& stream) override;
  bool captures() const override { return true; }

 private:
  struct CapturedProgram {
    std::vector<Segment> bounds;                           ///< the program's segments
    std::vector<std::unique_ptr<CapturedSegment>> graphs;  ///< one per segment
  };
  const CapturedProgram& captured(const StepProgram& program, const Stream& stream);

  std::map<const StepProgram*, CapturedProgram> captured_;
};

}  // namespace simapp
