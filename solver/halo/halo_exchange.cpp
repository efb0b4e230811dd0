#include "solver/halo/halo_exchange.hpp"

namespace simapp {

namespace {
/// Message tags: a side's data travels towards that side's neighbour.
constexpr int tag_towards_low = 1;
constexpr int tag_towards_high = 2;
}  // namespace

template <int Dims>
HaloExchange::HaloExchange(const Decomposition& decomposition, Direction direction, const FieldShape<Dims>& shape,
                           Backend backend, HaloPath path, const NcclCommunicator* nccl, Precision precision)
    : HaloExchange(decomposition, direction, halo_side_size(direction, shape), backend, path, nccl, precision) {}

HaloExchange::HaloExchange(const Decomposition& decomposition, Direction direction, std::size_t side_size,
                           Backend backend, HaloPath path, const NcclCommunicator* nccl, Precision precision)
    : comm_(decomposition.comm()),
      direction_(direction),
      low_neighbour_(decomposition.neighbours(direction).first),
      high_neighbour_(decomposition.neighbours(direction).second),
      sides_{low_neighbour_ != MPI_PROC_NULL, high_neighbour_ != MPI_PROC_NULL},
      side_size_(side_size),
      value_bytes_(value_bytes(precision)),
      path_(path),
      nccl_(nccl),
      send_(backend, 2 * side_size_),
      receive_(backend, 2 * side_size_),
      ready_(exchanges_on_host(path) ? backend : Backend::host) {  // the host backend: no event
  if (path_ == HaloPath::mpi_staged) {
    host_send_ = PinnedBuffer<double>(backend, 2 * side_size_);
    host_receive_ = PinnedBuffer<double>(backend, 2 * side_size_);
  }
}

void HaloExchange::exchange_messages() const {
  ready_.wait();  // packing (and the staging copy) complete
  const bool staged = path_ == HaloPath::mpi_staged;
  char* send = reinterpret_cast<char*>(staged ? host_send_.data() : send_.data());
  char* receive = reinterpret_cast<char*>(staged ? host_receive_.data() : receive_.data());
  const int count = static_cast<int>(side_size_);
  const MPI_Datatype type = value_bytes_ == sizeof(float) ? MPI_FLOAT : MPI_DOUBLE;
  const std::size_t high = side_bytes();  // where the high side's message starts
  const int tag_base = direction_ == Direction::x ? 0 : direction_ == Direction::z ? 10 : 20;
  MPI_Request requests[4];
  // My low ghosts hold what the low neighbour sent towards its high side, and vice versa.
  MPI_Irecv(receive, count, type, low_neighbour_, tag_base + tag_towards_high, comm_, &requests[0]);
  MPI_Irecv(receive + high, count, type, high_neighbour_, tag_base + tag_towards_low, comm_, &requests[1]);
  MPI_Isend(send, count, type, low_neighbour_, tag_base + tag_towards_low, comm_, &requests[2]);
  MPI_Isend(send + high, count, type, high_neighbour_, tag_base + tag_towards_high, comm_, &requests[3]);
  MPI_Waitall(4, requests, MPI_STATUSES_IGNORE);
}

template <class Real, int Dims>
void HaloExchange::pack(const Stream& stream, FieldView<const Real, Dims> field) const {
  pack_halos(stream, direction_, field, reinterpret_cast<Real*>(send_.data()));
}

void HaloExchange::copy_to_host(const Stream& stream) const {
  device::copy_async(stream, host_send_.data(), send_.data(), 2 * side_bytes(), device::CopyDirection::device_to_host);
}

void HaloExchange::signal_ready(const Stream& stream) const { ready_.record(stream); }

void HaloExchange::exchange_on_stream(const Stream& stream) const {
  nccl_->exchange(stream, send_.data(), receive_.data(), side_bytes(), low_neighbour_, high_neighbour_);
}

void HaloExchange::copy_to_device(const Stream& stream) const {
  device::copy_async(stream, receive_.data(), host_receive_.data(), 2 * side_bytes(),
                     device::CopyDirection::host_to_device);
}

template <class Real, int Dims>
void HaloExchange::unpack(const Stream& stream, FieldView<Real, Dims> field) const {
  unpack_halos(stream, direction_, field, reinterpret_cast<const Real*>(receive_.data()), sides_);
}

template HaloExchange::HaloExchange(const Decomposition&, Direction, const FieldShape<2>&, Backend, HaloPath,
                                    const NcclCommunicator*, Precision);
template HaloExchange::HaloExchange(const Decomposition&, Direction, const FieldShape<3>&, Backend, HaloPath,
                                    const NcclCommunicator*, Precision);
#define SIMAPP_HALO_EXCHANGE_OF(Real, Dims)                                           \
  template void HaloExchange::pack(const Stream&, FieldView<const Real, Dims>) const; \
  template void HaloExchange::unpack(const Stream&, FieldView<Real, Dims>) const;
SIMAPP_HALO_EXCHANGE_OF(double, 2)
SIMAPP_HALO_EXCHANGE_OF(double, 3)
SIMAPP_HALO_EXCHANGE_OF(float, 2)
SIMAPP_HALO_EXCHANGE_OF(float, 3)
#undef SIMAPP_HALO_EXCHANGE_OF

}  // namespace simapp
