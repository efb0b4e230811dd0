#include "solver/halo/halo_exchange.hpp"

namespace simapp {

namespace {
/// Message tags: a side's data travels towards that side's neighbour.
constexpr int tag_towards_low = 1;
constexpr int tag_towards_high = 2;
}  // namespace

template <int Dims>
HaloExchange::HaloExchange(const Decomposition& decomposition, Direction direction, const FieldShape<Dims>& shape,
                           Backend backend, HaloPath path, const NcclCommunicator* nccl)
    : HaloExchange(decomposition, direction, halo_side_size(direction, shape), backend, path, nccl) {}

HaloExchange::HaloExchange(const Decomposition& decomposition, Direction direction, std::size_t side_size,
                           Backend backend, HaloPath path, const NcclCommunicator* nccl)
    : comm_(decomposition.comm()),
      direction_(direction),
      low_neighbour_(decomposition.neighbours(direction).first),
      high_neighbour_(decomposition.neighbours(direction).second),
      sides_{low_neighbour_ != MPI_PROC_NULL, high_neighbour_ != MPI_PROC_NULL},
      side_size_(side_size),
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
  double* send = staged ? host_send_.data() : send_.data();
  double* receive = staged ? host_receive_.data() : receive_.data();
  const int count = static_cast<int>(side_size_);
  const int tag_base = direction_ == Direction::x ? 0 : direction_ == Direction::z ? 10 : 20;
  MPI_Request requests[4];
  // My low ghosts hold what the low neighbour sent towards its high side, and vice versa.
  MPI_Irecv(receive, count, MPI_DOUBLE, low_neighbour_, tag_base + tag_towards_high, comm_, &requests[0]);
  MPI_Irecv(receive + side_size_, count, MPI_DOUBLE, high_neighbour_, tag_base + tag_towards_low, comm_, &requests[1]);
  MPI_Isend(send, count, MPI_DOUBLE, low_neighbour_, tag_base + tag_towards_low, comm_, &requests[2]);
  MPI_Isend(send + side_size_, count, MPI_DOUBLE, high_neighbour_, tag_base + tag_towards_high, comm_, &requests[3]);
  MPI_Waitall(4, requests, MPI_STATUSES_IGNORE);
}

template <int Dims>
void HaloExchange::pack(const Stream& stream, FieldView<const double, Dims> field) const {
  pack_halos(stream, direction_, field, send_.data());
}

void HaloExchange::copy_to_host(const Stream& stream) const {
  device::copy_async(stream, host_send_.data(), send_.data(), send_.size() * sizeof(double),
                     device::CopyDirection::device_to_host);
}

void HaloExchange::signal_ready(const Stream& stream) const { ready_.record(stream); }

void HaloExchange::exchange_on_stream(const Stream& stream) const {
  nccl_->exchange(stream, send_.data(), receive_.data(), side_size_, low_neighbour_, high_neighbour_);
}

void HaloExchange::copy_to_device(const Stream& stream) const {
  device::copy_async(stream, receive_.data(), host_receive_.data(), receive_.size() * sizeof(double),
                     device::CopyDirection::host_to_device);
}

template <int Dims>
void HaloExchange::unpack(const Stream& stream, FieldView<double, Dims> field) const {
  unpack_halos(stream, direction_, field, receive_.data(), sides_);
}

template HaloExchange::HaloExchange(const Decomposition&, Direction, const FieldShape<2>&, Backend, HaloPath,
                                    const NcclCommunicator*);
template HaloExchange::HaloExchange(const Decomposition&, Direction, const FieldShape<3>&, Backend, HaloPath,
                                    const NcclCommunicator*);
template void HaloExchange::pack(const Stream&, FieldView<const double, 2>) const;
template void HaloExchange::pack(const Stream&, FieldView<const double, 3>) const;
template void HaloExchange::unpack(const Stream&, FieldView<double, 2>) const;
template void HaloExchange::unpack(const Stream&, FieldView<double, 3>) const;

}  // namespace simapp
