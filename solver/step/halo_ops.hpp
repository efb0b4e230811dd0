#pragma once
/// A halo exchange (solver/halo/halo_exchange.hpp) as StepProgram ops on lane 0, in two parts so
/// that interior work can go between them: the send ops (pack; on the MPI paths the copy out
/// and the ready signal) and the receive ops (the messages, the copy in, unpack). The messages
/// are a Host op on the MPI paths (so each exchange ends a graph) and a Transfer on the NCCL path.
#include <string>

#include "kernels/backend/field_view.hpp"
#include "solver/halo/halo_exchange.hpp"
#include "solver/halo/halo_path.hpp"
#include "solver/step/step_program.hpp"

namespace simapp {

/// `exchange` may be null for a program that is only described (its ops must then never run);
/// `path` says which ops there are. `field`: of the model in `Dims` dimensions.
template <class Real, int Dims>
void add_halo_send_ops(StepProgram& program, const std::string& prefix, FieldView<Real, Dims> field,
                       const HaloExchange* exchange, HaloPath path);
template <class Real, int Dims>
void add_halo_receive_ops(StepProgram& program, const std::string& prefix, FieldView<Real, Dims> field,
                          const HaloExchange* exchange, HaloPath path);
/// Both, with nothing between them.
template <class Real, int Dims>
void add_halo_ops(StepProgram& program, const std::string& prefix, FieldView<Real, Dims> field,
                  const HaloExchange* exchange, HaloPath path);

}  // namespace simapp
