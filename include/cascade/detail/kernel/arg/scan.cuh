// cascade/detail/kernel/arg/scan.cuh: the first smallest and largest item of a 16-byte vector, for argmin,
// argmax and minmax (detail/kernel/input_iterators.cuh folds each vector with these, then compares once
// with the thread's value).
//
// "First" is what arg_min and arg_max decide item by item: a later item wins only when it ranks
// strictly before (detail::ranks_before: for IEEE types NaN first, then by value, -0 below +0), so
// the first item that ranks first is exactly the item-by-item fold's result, NaN included. For IEEE
// types the vector's NaN-propagating extremum (three min.NaN for four floats) is that item's value,
// and, unless it is a NaN or a zero, its first equal item is that item: one comparison an item.
//
// 1-byte integers (int8, uint8) take a faster way, since the scan would spend about 4 instructions
// on each byte and reach only a third of the read bandwidth: the 16 bytes as 8 pairs of 16-bit lanes,
// reduced by min/max.{s,u}16x2 (byte_extremum: under one instruction a byte), and only when the
// vector's extremum improves on the thread's is its first position looked up.
#pragma once

#include <cuda_fp16.h>

#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

#include "../../meta/float_order.cuh"

namespace cascade::detail {

// Integers (and other non-IEEE types): the first smallest / largest by operator<.
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

// Whether no item of the vector can be strictly smaller (Max: larger) than `best`: the vector's
// smallest item (min otherwise) is not. Most vectors stop here once a thread's best is low, at a
// third of the scan's instructions.
template <class T, int Width, bool Max, class Raw>
__device__ bool cannot_improve(Raw const& v, T const& best) {
  T e = static_cast<T>(v.items[0]);
#pragma unroll
  for (int j = 1; j < Width; ++j) {
    T const x = static_cast<T>(v.items[j]);
    e = Max ? (e < x ? x : e) : (x < e ? x : e);
  }
  return Max ? !(best < e) : !(e < best);
}

// ---- float, double, __half, __nv_bfloat16 -------------------------------------------------------

// The vector's item that ranks first for argmin (Max: argmax), as a value: the NaN-propagating
// extremum (min.NaN / max.NaN; packed for halves), which is that item's value, or the canonical NaN
// when the vector holds a NaN (detail/meta/float_order.cuh).
template <class T, int Width, bool Max, class Raw>
__device__ T vector_extremum(Raw const& v) {
  if constexpr (cuda::std::is_same_v<T, __half> && Width == 8) {
    __half2 h[4];
    __builtin_memcpy(h, &v, 16);
    __half2 const m = Max ? __hmax2_nan(__hmax2_nan(h[0], h[1]), __hmax2_nan(h[2], h[3]))
                          : __hmin2_nan(__hmin2_nan(h[0], h[1]), __hmin2_nan(h[2], h[3]));
    return Max ? __hmax_nan(__low2half(m), __high2half(m)) : __hmin_nan(__low2half(m), __high2half(m));
  } else {
    T e = static_cast<T>(v.items[0]);
#pragma unroll
    for (int j = 1; j < Width; ++j) e = ieee_extremum<Max>(e, static_cast<T>(v.items[j]));
    return e;
  }
}

// The first position of e in the vector, e being one of its items and neither NaN nor zero: then
// an item equal to e has e's bits.
template <class T, int Width, class Raw>
__device__ int first_equal(Raw const& v, T const& e) {
  int at = Width - 1;
#pragma unroll
  for (int j = Width - 2; j >= 0; --j) at = static_cast<T>(v.items[j]) == e ? j : at;
  return at;
}

// The first item that ranks first, item by item, and its position; out of line: vectors whose
// extremum is a NaN or a zero are rare, and the hot loop stays short.
template <class T>
struct ranked_item {
  int at;
  T value;
};
template <class T, int Width, bool Max, class Raw>
__device__ __noinline__ ranked_item<T> first_ranked(Raw v) {
  ranked_item<T> r{0, static_cast<T>(v.items[0])};
#pragma unroll
  for (int j = 1; j < Width; ++j) {
    T const x = static_cast<T>(v.items[j]);
    if (rank_compare<Max>(x, r.value) < 0) r = {j, x};
  }
  return r;
}

// The vector's first item that ranks first, given its extremum e: its position and its value (a
// NaN keeps its own bits).
template <class T, int Width, bool Max, class Raw>
__device__ void take_first_ranked(Raw const& v, T const& e, int& at, T& value) {
  if (__builtin_expect(is_nan(e) || e == T(0.0f), 0)) {
    auto const r = first_ranked<T, Width, Max>(v);
    at = r.at, value = r.value;
  } else {
    at = first_equal<T, Width>(v, e);
    value = e;
  }
}

// The item types cannot_improve serves: integers (IEEE types take vector_extremum).
template <class T>
inline constexpr bool has_cheap_extremum_v = cuda::std::is_integral_v<T> && !cuda::std::is_same_v<T, bool>;

template <class U>
inline constexpr bool is_byte_integer_v =
    cuda::std::is_integral_v<U> && sizeof(U) == 1 && !cuda::std::is_same_v<U, bool>;

// The 16 bytes as four words (byte j of the vector is byte j % 4 of word j / 4, little-endian).
template <class Raw>
__device__ void words_of(Raw const& v, unsigned (&w)[4]) {
  static_assert(sizeof(Raw) == 16, "a 16-byte vector");
  __builtin_memcpy(w, &v, 16);
}

// max or min of two words as pairs of 16-bit lanes, signed for signed bytes (one instruction each on
// sm_90: max/min.{s,u}16x2).
template <class U, bool Max>
__device__ unsigned lanes_extremum(unsigned a, unsigned b) {
  if constexpr (cuda::std::is_signed_v<U>) return Max ? __vmaxs2(a, b) : __vmins2(a, b);
  else return Max ? __vmaxu2(a, b) : __vminu2(a, b);
}

// The bits of the smallest (Max: largest) byte of the vector, in 0..255. A 16-bit lane's high byte
// decides its order (signed bytes in signed lanes), so the extremum of w's lanes (odd bytes high) and
// of w << 8's (even bytes high) leaves the extremum of each pair of bytes in the high bytes; the low
// bytes only order lanes whose high bytes are equal. 14 instructions for 16 bytes.
template <class U, bool Max>
__device__ unsigned byte_extremum(unsigned const (&w)[4]) {
  auto const pick = [](unsigned a, unsigned b) { return lanes_extremum<U, Max>(a, b); };
  unsigned const m01 = pick(pick(w[0], w[0] << 8), pick(w[1], w[1] << 8));
  unsigned const m23 = pick(pick(w[2], w[2] << 8), pick(w[3], w[3] << 8));
  unsigned const m = pick(m01, m23);
  return pick(m, m << 16) >> 24;  // the high lane's high byte: both lanes' extremum
}

// The first position of the byte whose bits are `bits` in the vector (which holds it).
__device__ inline int first_byte(unsigned const (&w)[4], unsigned bits) {
  unsigned const pattern = bits * 0x01010101u;
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    unsigned const x = w[k] ^ pattern;
    // A zero byte of x: the lowest set bit of this mask is exact (higher ones may be borrows).
    unsigned const zero = (x - 0x01010101u) & ~x & 0x80808080u;
    if (zero != 0) return 4 * k + (__ffs(static_cast<int>(zero)) - 1) / 8;
  }
  return 0;
}

// The item whose bits are `bits`.
template <class U>
__device__ U byte_item(unsigned bits) {
  return static_cast<U>(static_cast<unsigned char>(bits));
}

}  // namespace cascade::detail
