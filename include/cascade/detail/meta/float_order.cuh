// cascade/detail/meta/float_order.cuh: the IEEE 754-2019 minimum and maximum operations over float,
// double, __half and __nv_bfloat16, and the order argmin and argmax rank such items by. They make
// cascade::minimum / maximum (and minimum_number / maximum_number, arg_min, arg_max) associative and
// commutative on every value, NaN and signed zeros included, so that no policy can change an answer.
//
//   minimum / maximum:                 NaN if either operand is NaN, else the smaller (larger), -0 < +0;
//   minimum_number / maximum_number:   a NaN operand is ignored; NaN only when both are;
//   every NaN they return is the canonical one (canonical_nan: 0x7fffffff for float, 0x7fff... for
//   the others), so the bits agree whichever NaN came in.
//
// Equal operands of one of these types are the same bits once NaN and the zeros are settled, so which
// operand is returned on a tie cannot show. The device takes PTX's min / max, which order -0 below +0
// and return the canonical NaN (min.NaN / max.NaN for f32, f16 and bf16 from sm_80 on; for f64,
// min.f64 with a test for a NaN, and off sm_90 one for equal operands, whose sign bits settle the
// zeros); the host takes the same rules written out.
// One order ranks items for argmin (argmax): NaN first (the first NaN wins), then -inf .. -0, +0 ..
// +inf ascending (descending); items of one rank are bitwise equal, and the smaller index wins.
#pragma once

#include "config.cuh"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cuda/std/bit>
#include <cuda/std/cstdint>
#include <cuda/std/limits>
#include <cuda/std/type_traits>

namespace cascade::detail {

// The IEEE types these rules cover, and their bits as unsigned and signed integers of their size.
template <class T>
inline constexpr bool is_ieee_v = cuda::std::is_same_v<T, float> || cuda::std::is_same_v<T, double> ||
                                  cuda::std::is_same_v<T, __half> || cuda::std::is_same_v<T, __nv_bfloat16>;

template <class T>
using ieee_bits_t = cuda::std::conditional_t<sizeof(T) == 8, cuda::std::uint64_t,
                                             cuda::std::conditional_t<sizeof(T) == 4, cuda::std::uint32_t,
                                                                      cuda::std::uint16_t>>;
template <class T>
using ieee_key_t = cuda::std::make_signed_t<ieee_bits_t<T>>;

template <class T>
__host__ __device__ constexpr ieee_bits_t<T> bits_of(T const& x) {
  return cuda::std::bit_cast<ieee_bits_t<T>>(x);
}
template <class T>
__host__ __device__ constexpr T from_bits(ieee_bits_t<T> b) {
  return cuda::std::bit_cast<T>(b);
}

template <class T>
inline constexpr ieee_bits_t<T> sign_mask = ieee_bits_t<T>(ieee_bits_t<T>(1) << (8 * sizeof(T) - 1));
// The exponent field all ones (infinity's bits).
template <class T>
inline constexpr ieee_bits_t<T> infinity_bits = cuda::std::is_same_v<T, double>  ? ieee_bits_t<T>(0x7ff0000000000000ull)
                                                : cuda::std::is_same_v<T, float> ? ieee_bits_t<T>(0x7f800000u)
                                                : cuda::std::is_same_v<T, __half> ? ieee_bits_t<T>(0x7c00u)
                                                                                  : ieee_bits_t<T>(0x7f80u);

// Every NaN the ops return: sign clear, every other bit set (what the GPU's single-precision
// arithmetic returns for NaN operands).
template <class T>
__host__ __device__ constexpr T canonical_nan() {
  return from_bits<T>(static_cast<ieee_bits_t<T>>(~sign_mask<T>));
}

template <class T>
__host__ __device__ constexpr bool is_nan(T const& x) {
  if constexpr (cuda::std::is_floating_point_v<T>) return x != x;
#ifdef __CUDA_ARCH__
  else return __hisnan(x);  // one comparison (16-bit integer arithmetic costs byte permutes)
#else
  else return static_cast<ieee_bits_t<T>>(bits_of(x) & ~sign_mask<T>) > infinity_bits<T>;
#endif
}

template <class T>
__host__ __device__ constexpr bool sign_of(T const& x) {
  return (bits_of(x) & sign_mask<T>) != 0;
}

// The bits as a signed integer, the magnitude's bits flipped when negative: its own inverse, so it
// maps a value's bits to its order key and a key back to the bits.
template <class T>
__host__ __device__ constexpr ieee_key_t<T> flip_negative(ieee_key_t<T> b) {
  return b >= 0 ? b : static_cast<ieee_key_t<T>>(b ^ static_cast<ieee_key_t<T>>(~sign_mask<T>));
}

// A signed integer that orders the non-NaN values as the reals do, with -0 below +0: the bits for a
// positive value, the magnitude's bits flipped below zero for a negative one.
template <class T>
__host__ __device__ constexpr ieee_key_t<T> order_key(T const& x) {
  return flip_negative<T>(static_cast<ieee_key_t<T>>(bits_of(x)));
}

// The NaN-propagating minimum (Max: maximum).
template <bool Max, class T>
__host__ __device__ inline T ieee_extremum(T const& a, T const& b) {
#ifdef __CUDA_ARCH__
  if constexpr (cuda::std::is_same_v<T, float>) {
#if __CUDA_ARCH__ >= 800
    float r;
    if constexpr (Max) asm("max.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
    else asm("min.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
    return r;
#else
    float r;  // min.f32 / max.f32: -0 < +0, NaN ignored
    if constexpr (Max) asm("max.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
    else asm("min.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
    return (a != a || b != b) ? canonical_nan<float>() : r;
#endif
  } else if constexpr (cuda::std::is_same_v<T, double>) {
    double const r = Max ? fmax(a, b) : fmin(a, b);
#if __CUDA_ARCH__ == 900
    // sm_90's min.f64 / max.f64 order -0 below +0 in either operand order (checked on an H200;
    // test/algorithms/semantics_test.cu asserts it wherever it runs): a NaN test is all they lack
    return (a != a || b != b) ? canonical_nan<double>() : r;
#else
    // equal operands: the same bits but for the zeros, whose sign bits or (and) give the minimum
    // (maximum): PTX does not say how min.f64 orders the zeros
    auto const ab = bits_of(a), bb = bits_of(b);
    double const tie = from_bits<double>(Max ? ab & bb : ab | bb);
    return (a != a || b != b) ? canonical_nan<double>() : a == b ? tie : r;
#endif
  } else {
#if __CUDA_ARCH__ >= 800
    return Max ? __hmax_nan(a, b) : __hmin_nan(a, b);  // min.NaN.{f16,bf16}: -0 < +0; NaN: 0x7fff, canonical
#else
    if (is_nan(a) || is_nan(b)) return canonical_nan<T>();
    return (order_key(b) < order_key(a)) != Max ? b : a;
#endif
  }
#else
  if (is_nan(a) || is_nan(b)) return canonical_nan<T>();
  return (order_key(b) < order_key(a)) != Max ? b : a;
#endif
}

// The minimumNumber (Max: maximumNumber): a NaN operand ignored, the canonical NaN when both are.
template <bool Max, class T>
__host__ __device__ inline T ieee_extremum_number(T const& a, T const& b) {
#ifdef __CUDA_ARCH__
  if constexpr (cuda::std::is_same_v<T, float>) {
    float r;  // min.f32 / max.f32 (not fminf: no .ftz under --use_fast_math); both NaN: 0x7fffffff
    if constexpr (Max) asm("max.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
    else asm("min.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
    return r;
  } else if constexpr (cuda::std::is_same_v<T, double>) {
    double const r = Max ? fmax(a, b) : fmin(a, b);
    auto const ab = bits_of(a), bb = bits_of(b);
    double const tie = from_bits<double>(Max ? ab & bb : ab | bb);
    return r != r ? canonical_nan<double>() : a == b ? tie : r;
  } else {
#if __CUDA_ARCH__ >= 800
    return Max ? __hmax(a, b) : __hmin(a, b);  // min.{f16,bf16}: NaN ignored, -0 < +0; two NaNs: 0x7fff
#else
    if (is_nan(a)) return is_nan(b) ? canonical_nan<T>() : b;
    if (is_nan(b)) return a;
    return (order_key(b) < order_key(a)) != Max ? b : a;
#endif
  }
#else
  if (is_nan(a)) return is_nan(b) ? canonical_nan<T>() : b;
  if (is_nan(b)) return a;
  return (order_key(b) < order_key(a)) != Max ? b : a;
#endif
}

// How x ranks against y for argmin (Max: argmax): negative when x ranks strictly before y, positive
// when after, 0 when they rank alike (bitwise equal, or both NaN). NaN ranks before every number,
// then the smallest (largest) number, -0 below +0. Two numbers that differ, or are equal and not
// zero, decide by the type's own comparisons, the ones argmin made before NaN had a rank; a NaN or a
// pair of zeros take rank_special.
template <bool Max, class T>
__host__ __device__ __forceinline__ int rank_special(T const& x, T const& y) {
  bool const nx = is_nan(x), ny = is_nan(y);
  if (nx || ny) return nx == ny ? 0 : nx ? -1 : 1;
  bool const sx = sign_of(x), sy = sign_of(y);  // two zeros
  if (sx == sy) return 0;
  return (Max ? !sx : sx) ? -1 : 1;
}
// The same, out of line: for 16-bit types, whose argmin and minmax kernels ran faster so on an
// H200 (minmax of 2^30 halves 497 us against 536 inline), where float's and double's ran slower (argmin
// of 2^24 floats 27.3 against 25.2 us).
template <bool Max, class T>
__host__ __device__ __noinline__ int rank_special_call(T x, T y) {
  return rank_special<Max>(x, y);
}

template <bool Max, class T>
__host__ __device__ __forceinline__ int rank_compare(T const& x, T const& y) {
  if constexpr (is_ieee_v<T>) {
    if (Max ? y < x : x < y) return -1;
    if (Max ? x < y : y < x) return 1;
    if (__builtin_expect(x == y && !(x == T(0.0f)), 1)) return 0;  // a tie
    if constexpr (sizeof(T) == 2) return rank_special_call<Max>(x, y);
    else return rank_special<Max>(x, y);
  } else {
    return (Max ? y < x : x < y) ? -1 : (Max ? x < y : y < x) ? 1 : 0;
  }
}

// The same order as one signed integer a value, without a branch: NaN (every NaN alike) the smallest
// key, then order_key ascending (argmin) or descending (argmax). Equal keys: both NaN or the same bits.
// (Doubles: rank_compare_keyed decides from FP64 compares and sign bits instead, below.)
// The ops (arg_min, arg_max: the tree, the partial tile, the finish) compare so, where a chain of
// dependent compares sets the latency (on an H200, minmax of 2^16 floats 5.7 -> 5.0 us, of 2^18
// doubles 7.9 -> 7.4); the vector folds keep rank_compare, whose first test settles most vectors.
// (argmin, argmax and minmax over a pointer carry the keys themselves through the tree and the
// finish: detail/kernel/arg/keyed_input.cuh.)
template <class T>
inline constexpr ieee_key_t<T> nan_rank_key = cuda::std::numeric_limits<ieee_key_t<T>>::min();
template <bool Max, class T>
__host__ __device__ __forceinline__ ieee_key_t<T> rank_key(T const& x) {
  ieee_key_t<T> const k = order_key(x);
  return is_nan(x) ? nan_rank_key<T> : Max ? static_cast<ieee_key_t<T>>(~k) : k;
}
// The number a rank key stands for (the NaN key gives a NaN, not the item's own bits).
template <bool Max, class T>
__host__ __device__ constexpr T value_of_rank_key(ieee_key_t<T> k) {
  return from_bits<T>(static_cast<ieee_bits_t<T>>(flip_negative<T>(Max ? static_cast<ieee_key_t<T>>(~k) : k)));
}
template <bool Max, class T>
__host__ __device__ __forceinline__ int rank_compare_keyed(T const& x, T const& y) {
  if constexpr (cuda::std::is_same_v<T, double>) {
    // doubles: the same order from FP64 compares and the sign bits. 64-bit keys take two 32-bit
    // instructions an operation, and argmin's and minmax's kernels over doubles executed twice the
    // instructions of int64's (Nsight Compute); this took 3-7% off their time on an H200.
    bool const nx = x != x, ny = y != y;
    bool const sx = sign_of(x), sy = sign_of(y);
    bool const zeros = (x == y) & (sx != sy);  // equal, signs differ: +0 and -0
    bool const before = (nx & !ny) | (Max ? y < x : x < y) | (zeros & (Max ? sy : sx));
    bool const after = (ny & !nx) | (Max ? x < y : y < x) | (zeros & (Max ? sx : sy));
    return static_cast<int>(after) - static_cast<int>(before);
  } else if constexpr (is_ieee_v<T>) {
    auto const kx = rank_key<Max>(x), ky = rank_key<Max>(y);
    return (ky < kx) - (kx < ky);
  } else {
    return rank_compare<Max>(x, y);
  }
}

// Whether x ranks strictly before y for argmin (Max: argmax).
template <bool Max, class T>
__host__ __device__ __forceinline__ bool ranks_before(T const& x, T const& y) {
  return rank_compare<Max>(x, y) < 0;
}

}  // namespace cascade::detail
