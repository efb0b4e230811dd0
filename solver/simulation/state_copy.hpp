#pragma once
/// The host copy of a rank's interior state that outputs are written from, taken without
/// stopping the steps: begun in stream order after the step it shows, collected later. On CUDA
/// the interior is first copied on the device into a staging buffer (a fraction of a
/// millisecond, so the steps queued after it run at once), and a stream of its own brings that
/// to pinned host memory when the copy is collected. On the host backend the copy is taken at
/// once, into the buffer collect() returns.
#include <cstddef>
#include <span>
#include <vector>

#include "kernels/backend/device_buffer.hpp"
#include "kernels/backend/owned_event.hpp"
#include "kernels/backend/owned_stream.hpp"
#include "kernels/backend/pinned_buffer.hpp"
#include "solver/spec/precision.hpp"
#include "solver/state/interior_layout.hpp"

namespace simapp {

class StateCopy {
 public:
  /// For a state of `precision` whose interior cells lie as `layout` says (with its halos) on
  /// `backend`, and `surface_values` values of fields over the surface (the microphysics',
  /// double; 0 in a dry run).
  StateCopy(Backend backend, InteriorLayout layout, std::size_t surface_values = 0,
            Precision precision = Precision::float64);
  /// The bytes such a copy takes: its host buffer, and on CUDA its staging buffer on the GPU.
  static std::size_t bytes_needed(Backend backend, const InteriorLayout& layout, std::size_t surface_values = 0);

  /// Queues on `stream` the copy of the interior of `state` (values of the precision; its rows in
  /// the layout's order: [var][k][i], or [var][k][j][i] in the 3-D model) and of the surface
  /// fields at `surface`.
  void begin(const Stream& stream, const void* state, const double* surface = nullptr);
  /// Waits for the copy begun last and returns it, the interior as doubles (a float32 state's
  /// values exactly), in one buffer kept for the run: valid until the next begin() on the host
  /// backend, the next collect() on CUDA.
  std::span<const double> collect();
  /// The surface fields of the copy collect() returned last, valid as long as its interior.
  std::span<const double> surface() const { return {collected_ + layout_.values(), surface_values_}; }
  /// Whether begin() writes the buffer collect() returned (the host backend) rather than only
  /// the next collect() (CUDA).
  bool overwrites_collected() const { return backend_ != Backend::cuda; }

 private:
  Backend backend_;
  InteriorLayout layout_;
  std::size_t surface_values_;
  std::size_t value_bytes_;            ///< of a value of the state: 8 or 4
  std::size_t interior_slots_;         ///< doubles that hold the interior's values (the surface's follow)
  PinnedBuffer<double> host_;          ///< the interior state on the host (as copied), then the surface fields
  std::vector<double> widened_;        ///< float32: the interior as doubles, then the surface fields
  const double* collected_ = nullptr;  ///< what collect() returned last
  DeviceBuffer<double> staged_;        ///< CUDA: the interior and the surface copied on the device at begin()
  OwnedStream copy_stream_;            ///< CUDA: brings staged_ to host_
  OwnedEvent staged_ready_;            ///< CUDA: staged_ is written
  OwnedEvent host_ready_;              ///< host_ is written
};

}  // namespace simapp
