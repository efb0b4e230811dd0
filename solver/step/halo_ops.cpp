#include "solver/step/halo_ops.hpp"

namespace simapp {

template <int Dims>
void add_halo_send_ops(StepProgram& program, const std::string& prefix, FieldView<double, Dims> field,
                       const HaloExchange* exchange, HaloPath path) {
  program.add(OpKind::kernel, prefix + "pack_halos",
              [exchange, field](const Stream& stream) { exchange->pack<Dims>(stream, field); });
  if (path == HaloPath::mpi_staged)
    program.add(OpKind::transfer, prefix + "copy_halos_to_host",
                [exchange](const Stream& stream) { exchange->copy_to_host(stream); });
  if (exchanges_on_host(path))
    program.add(OpKind::transfer, prefix + "signal_halos_ready",
                [exchange](const Stream& stream) { exchange->signal_ready(stream); });
}

template <int Dims>
void add_halo_receive_ops(StepProgram& program, const std::string& prefix, FieldView<double, Dims> field,
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
              [exchange, field](const Stream& stream) { exchange->unpack<Dims>(stream, field); });
}

template <int Dims>
void add_halo_ops(StepProgram& program, const std::string& prefix, FieldView<double, Dims> field,
                  const HaloExchange* exchange, HaloPath path) {
  add_halo_send_ops(program, prefix, field, exchange, path);
  add_halo_receive_ops(program, prefix, field, exchange, path);
}

template void add_halo_send_ops(StepProgram&, const std::string&, FieldView<double, 2>, const HaloExchange*, HaloPath);
template void add_halo_receive_ops(StepProgram&, const std::string&, FieldView<double, 2>, const HaloExchange*,
                                   HaloPath);
template void add_halo_ops(StepProgram&, const std::string&, FieldView<double, 2>, const HaloExchange*, HaloPath);
template void add_halo_send_ops(StepProgram&, const std::string&, FieldView<double, 3>, const HaloExchange*, HaloPath);
template void add_halo_receive_ops(StepProgram&, const std::string&, FieldView<double, 3>, const HaloExchange*,
                                   HaloPath);
template void add_halo_ops(StepProgram&, const std::string&, FieldView<double, 3>, const HaloExchange*, HaloPath);

}  // namespace simapp
