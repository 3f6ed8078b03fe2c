// cascade/detail/arg_scan.cuh: the first smallest and largest item of a 16-byte vector, for argmin,
// argmax and minmax (detail/input_iterators.cuh folds each vector with these, then compares once
// with the thread's value).
//
// "First" is what arg_min and arg_max decide item by item: a later item wins only when strictly
// smaller (larger). NaN is never strictly smaller or larger, nor is anything against it, so a scan
// that starts from item 0 gives exactly the item-by-item fold's result, NaN included.
//
// 1-byte integers (int8, uint8) take a faster way, since the scan would spend about 4 instructions
// on each byte and reach only a third of the read bandwidth: the 16 bytes as 8 pairs of 16-bit lanes,
// reduced by min.u16x2 / max.u16x2 (one instruction each on sm_90: __vminu2), and only when the
// vector's extremum improves on the thread's is its first position looked up.
#pragma once

#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

namespace cascade::detail {

template <class T, int Width, class Raw>
__device__ void scan_vector(Raw const& v, T& lo, int& lo_at, T& hi, int& hi_at, bool want_lo, bool want_hi) {
  lo = hi = static_cast<T>(v.items[0]);
  lo_at = hi_at = 0;
#pragma unroll
  for (int j = 1; j < Width; ++j) {
    T const x = static_cast<T>(v.items[j]);
    if (want_lo && x < lo) lo = x, lo_at = j;
    if (want_hi && hi < x) hi = x, hi_at = j;
  }
}

template <class U>
inline constexpr bool is_byte_integer_v =
    cuda::std::is_integral_v<U> && sizeof(U) == 1 && !cuda::std::is_same_v<U, bool>;

// The 16 bytes as four words (byte j of the vector is byte j % 4 of word j / 4, little-endian).
template <class Raw>
__device__ void words_of(Raw const& v, unsigned (&w)[4]) {
  static_assert(sizeof(Raw) == 16, "a 16-byte vector");
  __builtin_memcpy(w, &v, 16);
}

// A byte as an unsigned key with the items' order: signed bytes have their sign bit flipped.
template <class U>
__device__ constexpr unsigned byte_bias() {
  return cuda::std::is_signed_v<U> ? 0x80u : 0u;
}

// The smallest (Max: largest) byte key of the vector, in 0..255.
template <class U, bool Max>
__device__ unsigned byte_extremum(unsigned const (&w)[4]) {
  constexpr unsigned bias = byte_bias<U>() * 0x00010001u;
  unsigned m = 0;
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    unsigned const even = (w[k] & 0x00FF00FFu) ^ bias, odd = ((w[k] >> 8) & 0x00FF00FFu) ^ bias;
    unsigned const pair = Max ? __vmaxu2(even, odd) : __vminu2(even, odd);
    m = k == 0 ? pair : Max ? __vmaxu2(m, pair) : __vminu2(m, pair);
  }
  return Max ? __vmaxu2(m, m >> 16) & 0xFFFFu : __vminu2(m, m >> 16) & 0xFFFFu;
}

// The first position of byte key `key` in the vector (which holds it).
template <class U>
__device__ int first_byte(unsigned const (&w)[4], unsigned key) {
  unsigned const pattern = (key ^ byte_bias<U>()) * 0x01010101u;
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    unsigned const x = w[k] ^ pattern;
    // A zero byte of x: the lowest set bit of this mask is exact (higher ones may be borrows).
    unsigned const zero = (x - 0x01010101u) & ~x & 0x80808080u;
    if (zero != 0) return 4 * k + (__ffs(static_cast<int>(zero)) - 1) / 8;
  }
  return 0;
}

// The item whose byte key is `key`.
template <class U>
__device__ U byte_item(unsigned key) {
  return static_cast<U>(static_cast<unsigned char>(key ^ byte_bias<U>()));
}

}  // namespace cascade::detail
