// cascade/detail/meta/fast_divmod.cuh: division by a divisor fixed on the host, as a multiply and a
// shift (Granlund and Montgomery; CUTLASS's FastDivmod is the same), for the index arithmetic of the
// axis reductions: a 64-bit division is some 70 instructions on the GPU, this is 4. Exact for every
// dividend below 2^32; larger ones take the hardware's division.
#pragma once

#include "config.cuh"

#include <cuda/std/cstdint>

namespace cascade::detail {

struct fast_divmod {
  long long divisor = 1;
  cuda::std::uint32_t multiplier = 0;
  int shift = 0;

  fast_divmod() = default;
  __host__ __device__ explicit fast_divmod(long long d) : divisor(d < 1 ? 1 : d) {
    // multiplier = floor(2^32 (2^shift - d) / d) + 1 with shift = ceil(log2 d); d = 1 gives 0, 0.
    if (divisor < (1ll << 32)) {
      while ((1ll << shift) < divisor) ++shift;
      auto const d32 = static_cast<cuda::std::uint64_t>(divisor);
      multiplier = static_cast<cuda::std::uint32_t>(((1ull << 32) * ((1ull << shift) - d32)) / d32 + 1);
    }
  }

  // n / divisor, n >= 0.
  __host__ __device__ __forceinline__ long long div(long long n) const {
    if (divisor < (1ll << 32) && static_cast<cuda::std::uint64_t>(n) < (1ull << 32)) {
      auto const n32 = static_cast<cuda::std::uint32_t>(n);
      cuda::std::uint32_t hi;
#ifdef __CUDA_ARCH__
      hi = __umulhi(n32, multiplier);
#else
      hi = static_cast<cuda::std::uint32_t>((static_cast<cuda::std::uint64_t>(n32) * multiplier) >> 32);
#endif
      return static_cast<long long>((static_cast<cuda::std::uint64_t>(hi) + n32) >> shift);
    }
    return n / divisor;
  }
};

}  // namespace cascade::detail
