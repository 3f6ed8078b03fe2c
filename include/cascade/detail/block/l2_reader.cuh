// cascade/detail/block/l2_reader.cuh: reading partials that other blocks of the same launch wrote.
#pragma once

#include "../meta/config.cuh"

namespace cascade::detail {

// Reads T from global memory through L2 only (ld.global.cg), in 4-byte words so any T works: for
// partials that other blocks of the same launch wrote, which this SM's L1 may hold stale.
template <class T>
struct l2_reader {
  T const* data;
  template <class Offset>
  __device__ T operator[](Offset i) const {
    constexpr int words = (sizeof(T) + 3) / 4;
    if constexpr (sizeof(T) % 4 == 0 && alignof(T) >= 4) {
      unsigned buffer[words];
      auto const* src = reinterpret_cast<unsigned const*>(data + i);
#pragma unroll
      for (int w = 0; w < words; ++w) buffer[w] = __ldcg(src + w);
      T value;
      __builtin_memcpy(&value, buffer, sizeof(T));
      return value;
    } else {
      auto const* src = reinterpret_cast<unsigned char const volatile*>(data + i);
      unsigned char buffer[sizeof(T)];
      for (unsigned b = 0; b < sizeof(T); ++b) buffer[b] = src[b];
      T value;
      __builtin_memcpy(&value, buffer, sizeof(T));
      return value;
    }
  }
};

}  // namespace cascade::detail
