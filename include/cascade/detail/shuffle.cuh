// cascade/detail/shuffle.cuh: __shfl_down_sync for any trivially copyable T, moved in 4-byte words
// (the hardware shuffles 32 bits at a time), so 8- and 16-byte user structs work like int.
#pragma once

#include <cuda/std/cstring>

namespace cascade::detail {

inline constexpr unsigned full_warp_mask = 0xffffffffu;

template <class T>
__device__ T shuffle_down(T const& value, int offset, unsigned mask = full_warp_mask) {
  constexpr int words = (sizeof(T) + 3) / 4;
  unsigned in[words] = {};
  unsigned out[words];
  cuda::std::memcpy(in, &value, sizeof(T));
#pragma unroll
  for (int w = 0; w < words; ++w) out[w] = __shfl_down_sync(mask, in[w], offset);
  T result;
  cuda::std::memcpy(&result, out, sizeof(T));
  return result;
}

}  // namespace cascade::detail
