#pragma once
/// The halo exchange of one direction between neighbour ranks, as StepProgram ops:
///   pack (kernel) → device-to-host copy into pinned memory (transfer)
///   → MPI_Irecv/MPI_Isend/MPI_Waitall (host op: a graph boundary)
///   → host-to-device copy (transfer) → unpack (kernel).
/// With CUDA-aware MPI (or on the host backend) MPI reads and writes the packing buffers
/// directly and the two copies are left out. The send ops end by recording an event; the
/// host op waits for that event only, so device work queued between the send ops and the
/// host op (interior fluxes) runs while the messages travel.
#include <mpi.h>

#include <string>

#include "kernels/backend/device_buffer.hpp"
#include "kernels/backend/pinned_buffer.hpp"
#include "kernels/halo/halo_pack.hpp"
#include "solver/decomposition/decomposition.hpp"
#include "solver/step/step_program.hpp"

namespace simapp {

class HaloExchange {
 public:
  /// `staged`: copy through pinned host buffers (MPI without CUDA support on the CUDA backend).
  HaloExchange(const Decomposition& decomposition, Direction direction, const FieldShape& shape, Backend backend,
               bool staged);
  HaloExchange(const HaloExchange&) = delete;
  HaloExchange& operator=(const HaloExchange&) = delete;
  ~HaloExchange();

  bool staged() const { return staged_; }

  /// Adds the exchange of `field`'s halos to `program`, on lane 0: add_send_ops (pack, copy
  /// out, record the ready event) then add_receive_ops (MPI, copy in, unpack). `exchange` may
  /// be null for a program that is only described (its ops must then never run).
  static void add_send_ops(StepProgram& program, const std::string& prefix, Direction direction,
                           FieldView<double> field, const HaloExchange* exchange, bool staged);
  static void add_receive_ops(StepProgram& program, const std::string& prefix, Direction direction,
                              FieldView<double> field, const HaloExchange* exchange, bool staged);
  /// Both, with nothing between them.
  static void add_ops(StepProgram& program, const std::string& prefix, Direction direction, FieldView<double> field,
                      const HaloExchange* exchange, bool staged);

 private:
  /// The MPI part: waits for the ready event, then exchanges both sides with the neighbours.
  void exchange_messages(const Stream& stream) const;

  MPI_Comm comm_;
  Direction direction_;
  int low_neighbour_, high_neighbour_;
  HaloSides sides_;
  std::size_t side_size_;
  bool staged_;
  DeviceBuffer<double> send_, receive_;              ///< both sides: [low | high]
  PinnedBuffer<double> host_send_, host_receive_;    ///< staging copies (staged only)
  CUevent_st* ready_;                                ///< recorded once the send buffer is filled
};

}  // namespace simapp
