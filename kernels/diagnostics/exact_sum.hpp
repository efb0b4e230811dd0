#pragma once
/// Exact, order-independent sums of doubles: each value is rounded once to a fixed-point
/// integer (value · 2^scale_bits, truncated) and the integers are added in 128 bits. Integer
/// addition is associative, so the sum is the same for any thread count, backend schedule or
/// MPI decomposition (docs/model.md: diagnostics must not depend on the decomposition).
#include <cmath>
#include <cstdint>

#include "kernels/backend/host_device.hpp"

namespace simapp {

class ExactSum {
 public:
  /// Adds `value` at 2^-scale_bits resolution; |value| · 2^scale_bits must stay below 2^62,
  /// and a value that is not finite or out of range marks the sum as invalid.
  SIMAPP_HOST_DEVICE void add(double value, int scale_bits) {
    const double scaled = ldexp(value, scale_bits);
    if (!(fabs(scaled) < 4.6e18)) {  // also false for NaN
      invalid_ = 1;
      return;
    }
    add_integer(static_cast<std::int64_t>(scaled));
  }

  SIMAPP_HOST_DEVICE void add(const ExactSum& other) {
    const std::uint64_t before = low_;
    low_ += other.low_;
    high_ += other.high_ + (low_ < before ? 1 : 0);
    invalid_ |= other.invalid_;
  }

  /// Subtracts the sum `other`: adds its two's complement negation, so a difference of exact
  /// sums is exact too.
  SIMAPP_HOST_DEVICE void subtract(const ExactSum& other) {
    ExactSum negated;
    negated.low_ = ~other.low_ + 1;
    negated.high_ = static_cast<std::int64_t>(~static_cast<std::uint64_t>(other.high_) + (negated.low_ == 0 ? 1 : 0));
    negated.invalid_ = other.invalid_;
    add(negated);
  }

  bool valid() const { return invalid_ == 0; }

  /// The sum as a double (NaN when invalid).
  double value(int scale_bits) const {
    if (!valid()) return std::nan("");
    if (high_ >= 0) return magnitude(low_, static_cast<std::uint64_t>(high_), scale_bits);
    const std::uint64_t low = ~low_ + 1;  // two's complement negation of the 128-bit value
    return -magnitude(low, ~static_cast<std::uint64_t>(high_) + (low == 0 ? 1 : 0), scale_bits);
  }

 private:
  static double magnitude(std::uint64_t low, std::uint64_t high, int scale_bits) {
    return std::ldexp(std::ldexp(static_cast<double>(high), 64) + static_cast<double>(low), -scale_bits);
  }

  SIMAPP_HOST_DEVICE void add_integer(std::int64_t term) {
    const std::uint64_t before = low_;
    low_ += static_cast<std::uint64_t>(term);
    high_ += (term < 0 ? -1 : 0) + (low_ < before ? 1 : 0);
  }

  std::uint64_t low_ = 0;  ///< two's complement 128-bit integer: high_ · 2^64 + low_
  std::int64_t high_ = 0;
  std::uint64_t invalid_ = 0;
};

}  // namespace simapp
