#pragma once
/// The halo exchange of one direction between neighbour ranks, as StepProgram ops. By path:
///   mpi_staged: pack (kernel) → device-to-host copy into pinned memory (transfer) → signal
///               → MPI_Irecv/MPI_Isend/MPI_Waitall (host op: a graph boundary)
///               → host-to-device copy (transfer) → unpack (kernel);
///   mpi:        the same without the copies (MPI reads and writes the packing buffers);
///   nccl:       pack (kernel) → ncclRecv/ncclSend on the stream (transfer) → unpack (kernel),
///               all device work, so the exchange sits inside the step's graph.
/// On the MPI paths the send ops end by recording an event; the host op waits for that event
/// only, so device work queued between the send ops and the host op (interior fluxes) runs
/// while the messages travel.
#include <mpi.h>

#include <string>

#include "kernels/backend/device_buffer.hpp"
#include "kernels/backend/pinned_buffer.hpp"
#include "kernels/halo/halo_pack.hpp"
#include "solver/decomposition/decomposition.hpp"
#include "solver/halo/halo_path.hpp"
#include "solver/halo/nccl_communicator.hpp"
#include "solver/step/step_program.hpp"

namespace simapp {

class HaloExchange {
 public:
  /// `nccl`: the communicator of the nccl path (null on the MPI paths).
  HaloExchange(const Decomposition& decomposition, Direction direction, const FieldShape& shape, Backend backend,
               HaloPath path, const NcclCommunicator* nccl);
  HaloExchange(const HaloExchange&) = delete;
  HaloExchange& operator=(const HaloExchange&) = delete;
  ~HaloExchange();

  /// Adds the exchange of `field`'s halos to `program`, on lane 0: add_send_ops (pack and, on
  /// the MPI paths, copy out and record the ready event) then add_receive_ops (the messages,
  /// copy in, unpack). `exchange` may be null for a program that is only described (its ops
  /// must then never run).
  static void add_send_ops(StepProgram& program, const std::string& prefix, Direction direction,
                           FieldView<double> field, const HaloExchange* exchange, HaloPath path);
  static void add_receive_ops(StepProgram& program, const std::string& prefix, Direction direction,
                              FieldView<double> field, const HaloExchange* exchange, HaloPath path);
  /// Both, with nothing between them.
  static void add_ops(StepProgram& program, const std::string& prefix, Direction direction, FieldView<double> field,
                      const HaloExchange* exchange, HaloPath path);

 private:
  /// The MPI part: waits for the ready event, then exchanges both sides with the neighbours.
  void exchange_messages() const;

  MPI_Comm comm_;
  Direction direction_;
  int low_neighbour_, high_neighbour_;
  HaloSides sides_;
  std::size_t side_size_;
  HaloPath path_;
  const NcclCommunicator* nccl_;
  DeviceBuffer<double> send_, receive_;            ///< both sides: [low | high]
  PinnedBuffer<double> host_send_, host_receive_;  ///< staging copies (mpi_staged only)
  CUevent_st* ready_;                              ///< recorded once the send buffer is filled (MPI paths)
};

}  // namespace simapp
