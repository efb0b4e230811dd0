#pragma once
/// The halo exchange of one direction between neighbour ranks: the packing buffers, the
/// messages and the pieces of work one exchange is made of. By path:
///   mpi_staged: pack → copy_to_host (into pinned memory) → signal_ready
///               → exchange_messages (MPI_Irecv/MPI_Isend/MPI_Waitall, on the host)
///               → copy_to_device → unpack;
///   mpi:        the same without the copies (MPI reads and writes the packing buffers);
///   nccl:       pack → exchange_on_stream (ncclRecv/ncclSend) → unpack, all device work.
/// exchange_messages waits for the event signal_ready records only, so device work queued
/// between the two (interior fluxes) runs while the messages travel. The step program puts
/// these pieces in order as its ops (solver/step/halo_ops.hpp). The fields are those of the model
/// in `Dims` dimensions (the 3-D model's exchanges also along y; kernels/halo/halo_pack.hpp).
#include <mpi.h>

#include "kernels/backend/device_buffer.hpp"
#include "kernels/backend/owned_event.hpp"
#include "kernels/backend/pinned_buffer.hpp"
#include "kernels/halo/halo_pack.hpp"
#include "solver/decomposition/decomposition.hpp"
#include "solver/halo/halo_path.hpp"
#include "solver/halo/nccl_communicator.hpp"
#include "solver/spec/precision.hpp"

namespace simapp {

class HaloExchange {
 public:
  /// The exchange along `direction` of fields of `shape`; `nccl`: the communicator of the nccl
  /// path (null on the MPI paths).
  /// The messages carry values of `precision` (the state's).
  template <int Dims>
  HaloExchange(const Decomposition& decomposition, Direction direction, const FieldShape<Dims>& shape, Backend backend,
               HaloPath path, const NcclCommunicator* nccl, Precision precision);
  HaloExchange(const HaloExchange&) = delete;
  HaloExchange& operator=(const HaloExchange&) = delete;

  /// Send buffer ← the interior cells of `field` next to each side (a kernel).
  template <class Real, int Dims>
  void pack(const Stream& stream, FieldView<const Real, Dims> field) const;
  /// Pinned send buffer ← send buffer (mpi_staged).
  void copy_to_host(const Stream& stream) const;
  /// Records the event exchange_messages waits for (MPI paths).
  void signal_ready(const Stream& stream) const;
  /// The MPI messages with both neighbours, from the host, once signal_ready's event has fired.
  void exchange_messages() const;
  /// The NCCL messages with both neighbours, queued on `stream` (nccl).
  void exchange_on_stream(const Stream& stream) const;
  /// Receive buffer ← pinned receive buffer (mpi_staged).
  void copy_to_device(const Stream& stream) const;
  /// The ghost cells of `field` on each side with a neighbour ← receive buffer (a kernel).
  template <class Real, int Dims>
  void unpack(const Stream& stream, FieldView<Real, Dims> field) const;

 private:
  HaloExchange(const Decomposition& decomposition, Direction direction, std::size_t side_size, Backend backend,
               HaloPath path, const NcclCommunicator* nccl, Precision precision);
  /// The bytes of one side's message.
  std::size_t side_bytes() const { return side_size_ * value_bytes_; }

  MPI_Comm comm_;
  Direction direction_;
  int low_neighbour_, high_neighbour_;
  NeighbourSides sides_;
  std::size_t side_size_;    ///< values in one side's message
  std::size_t value_bytes_;  ///< of a value: 8 (float64) or 4 (float32)
  HaloPath path_;
  const NcclCommunicator* nccl_;
  /// Both sides, [low | high], of values of value_bytes_ (room for doubles).
  DeviceBuffer<double> send_, receive_;
  PinnedBuffer<double> host_send_, host_receive_;  ///< staging copies (mpi_staged only)
  OwnedEvent ready_;  ///< recorded once the send buffer is filled (MPI paths; none on the host backend)
};

}  // namespace simapp
