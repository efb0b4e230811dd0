#include "solver/step/halo_ops.hpp"

namespace simapp {

template <class Real, int Dims>
void add_halo_send_ops(StepProgram& program, const std::string& prefix, FieldView<Real, Dims> field,
                       const HaloExchange* exchange, HaloPath path) {
  program.add(OpKind::kernel, prefix + "pack_halos",
              [exchange, field](const Stream& stream) { exchange->pack(stream, FieldView<const Real, Dims>(field)); });
  if (path == HaloPath::mpi_staged)
    program.add(OpKind::transfer, prefix + "copy_halos_to_host",
                [exchange](const Stream& stream) { exchange->copy_to_host(stream); });
  if (exchanges_on_host(path))
    program.add(OpKind::transfer, prefix + "signal_halos_ready",
                [exchange](const Stream& stream) { exchange->signal_ready(stream); });
}

template <class Real, int Dims>
void add_halo_receive_ops(StepProgram& program, const std::string& prefix, FieldView<Real, Dims> field,
                          const HaloExchange* exchange, HaloPath path) {
  if (path == HaloPath::nccl)
    program.add(OpKind::transfer, prefix + "exchange_halos",
                [exchange](const Stream& stream) { exchange->exchange_on_stream(stream); });
  else
    program.add(OpKind::host, prefix + "exchange_halos", [exchange](const Stream&) { exchange->exchange_messages(); });
  if (path == HaloPath::mpi_staged)
    program.add(OpKind::transfer, prefix + "copy_halos_to_device",
                [exchange](const Stream& stream) { exchange->copy_to_device(stream); });
  program.add(OpKind::kernel, prefix + "unpack_halos",
              [exchange, field](const Stream& stream) { exchange->unpack(stream, field); });
}

template <class Real, int Dims>
void add_halo_ops(StepProgram& program, const std::string& prefix, FieldView<Real, Dims> field,
                  const HaloExchange* exchange, HaloPath path) {
  add_halo_send_ops(program, prefix, field, exchange, path);
  add_halo_receive_ops(program, prefix, field, exchange, path);
}

#define SIMAPP_HALO_OPS_OF(Real, Dims)                                                                             \
  template void add_halo_send_ops(StepProgram&, const std::string&, FieldView<Real, Dims>, const HaloExchange*,    \
                                  HaloPath);                                                                       \
  template void add_halo_receive_ops(StepProgram&, const std::string&, FieldView<Real, Dims>, const HaloExchange*, \
                                     HaloPath);                                                                    \
  template void add_halo_ops(StepProgram&, const std::string&, FieldView<Real, Dims>, const HaloExchange*, HaloPath);
SIMAPP_HALO_OPS_OF(double, 2)
SIMAPP_HALO_OPS_OF(double, 3)
SIMAPP_HALO_OPS_OF(float, 2)
SIMAPP_HALO_OPS_OF(float, 3)
#undef SIMAPP_HALO_OPS_OF

}  // namespace simapp
