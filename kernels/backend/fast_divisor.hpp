#pragma once
/// Division of a non-negative int by a divisor fixed before a kernel runs, as a multiplication
/// and a shift (Granlund & Montgomery 1994): with p = 31 + ⌈log₂ d⌉ and m = ⌈2^p / d⌉,
/// n / d = ⌊n m / 2^p⌋ for 0 ≤ n < 2³¹ — two instructions on a GPU where a division by a
/// run-time int takes about twenty. The results are the exact quotient and remainder.
#include <cstdint>

#include "kernels/backend/host_device.hpp"

namespace simapp {

class FastDivisor {
 public:
  FastDivisor() = default;
  /// divisor ≥ 1.
  explicit constexpr FastDivisor(int divisor) : divisor_(static_cast<std::uint32_t>(divisor)) {
    if (divisor_ <= 1) return;  // n / 1 = n: multiplier 0 marks it
    int ceil_log2 = 0;
    while ((std::uint64_t{1} << ceil_log2) < divisor_) ++ceil_log2;
    const int p = 31 + ceil_log2;
    multiplier_ = static_cast<std::uint32_t>(((std::uint64_t{1} << p) + divisor_ - 1) / divisor_);
    shift_ = static_cast<std::uint32_t>(p - 32);
  }

  SIMAPP_HOST_DEVICE int divisor() const { return static_cast<int>(divisor_); }

  /// ⌊n / d⌋, 0 ≤ n < 2³¹.
  SIMAPP_HOST_DEVICE int quotient(int n) const {
    if (multiplier_ == 0) return n;
    return static_cast<int>(high_product(static_cast<std::uint32_t>(n), multiplier_) >> shift_);
  }
  /// n mod d, 0 ≤ n < 2³¹.
  SIMAPP_HOST_DEVICE int remainder(int n) const { return n - quotient(n) * divisor(); }
  /// n mod d in [0, d) for any n > −2³¹ (a periodic index: ((n % d) + d) % d).
  SIMAPP_HOST_DEVICE int wrapped(int n) const { return n >= 0 ? remainder(n) : divisor() - 1 - remainder(-1 - n); }

 private:
  /// The high 32 bits of a · b.
  SIMAPP_HOST_DEVICE static std::uint32_t high_product(std::uint32_t a, std::uint32_t b) {
#if defined(__CUDA_ARCH__)
    return __umulhi(a, b);
#else
    return static_cast<std::uint32_t>((std::uint64_t{a} * b) >> 32);
#endif
  }

  std::uint32_t divisor_ = 1;
  std::uint32_t multiplier_ = 0;
  std::uint32_t shift_ = 0;
};

}  // namespace simapp
