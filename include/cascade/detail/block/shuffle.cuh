// cascade/detail/block/shuffle.cuh: __shfl_down_sync (and up, and from one lane) for any trivially copyable
// T, moved in 4-byte words (the hardware shuffles 32 bits at a time), so 8- and 16-byte user structs
// work like int; and warp_or, a whole warp's bitwise or.
// Register moves in cascade's kernels use __builtin_memcpy: CCCL 3.5's cuda::std::memcpy asserts on its
// pointers in device code when CCCL_ENABLE_ASSERTIONS is on (Meson defines it unless b_ndebug), which
// puts the values in local memory (3x slower segmented kernels).
#pragma once

#include "../meta/config.cuh"

namespace cascade::detail {

inline constexpr unsigned full_warp_mask = 0xffffffffu;

// `value` moved word by word through `shuffle` (one of the __shfl_*_sync intrinsics on a word).
template <class T, class Shuffle>
__device__ __forceinline__ T shuffle_words(T const& value, Shuffle shuffle) {
  constexpr int words = (sizeof(T) + 3) / 4;
  unsigned in[words] = {};
  unsigned out[words];
  __builtin_memcpy(in, &value, sizeof(T));
#pragma unroll
  for (int w = 0; w < words; ++w) out[w] = shuffle(in[w]);
  T result;
  __builtin_memcpy(&result, out, sizeof(T));
  return result;
}

template <class T>
__device__ T shuffle_down(T const& value, int offset, unsigned mask = full_warp_mask) {
  return shuffle_words(value, [&](unsigned x) { return __shfl_down_sync(mask, x, offset); });
}

template <class T>
__device__ T shuffle_up(T const& value, int offset, unsigned mask = full_warp_mask) {
  return shuffle_words(value, [&](unsigned x) { return __shfl_up_sync(mask, x, offset); });
}

// Lane `lane`'s value, in every lane.
template <class T>
__device__ T shuffle_from(T const& value, int lane, unsigned mask = full_warp_mask) {
  return shuffle_words(value, [&](unsigned x) { return __shfl_sync(mask, x, lane); });
}

// The bitwise or of v over the whole warp: one instruction from sm_80, shuffles before it.
__device__ __forceinline__ unsigned warp_or(unsigned v) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  return __reduce_or_sync(full_warp_mask, v);
#else
#pragma unroll
  for (int d = 16; d > 0; d /= 2) v |= __shfl_xor_sync(full_warp_mask, v, d);
  return v;
#endif
}

}  // namespace cascade::detail
