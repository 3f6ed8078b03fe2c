// cascade/detail/exact_sum.cuh: the exact sum behind cascade::exact_plus and cascade::reproducible_plus.
//
// Every finite float, double, __half and __nv_bfloat16 is an integer multiple of 2^-1074, so a sum of
// them is an integer on that grid; bit position p weighs 2^(p - 1074). Positions are grouped in
// 32-wide bins (bin b: positions [32b, 32b + 32)).
//
// A state (the accumulator the trees and finishes combine) keeps a window of K + 1 bins in doubles:
// level 0 is bin top + 1 (carries only), level k bin top + 1 - k. A level holds an exact multiple of
// its bin's weight, so adding to it never rounds as long as it stays below 2^53 of those units; after
// normalize() each level but 0 is below 2^32 units, and at most max_count deposits or one merge come
// between normalizations. An item x with |x| < limit (= the weight of bin top + 1) is split at the
// bin boundaries by truncation (round-toward-zero against 1.5 * 2^(lo + 52), two additions per
// level): the parts are x's own bits, so every split and every sum is exact. What does not fit the
// window (bits of an item below the lowest level, levels a merge shifts out, items at or above 2^942)
// is spilled: added, as 32-bit pieces, to a full-width integer in device memory (int64 chunks,
// atomics: exact and order-free). The result is the real sum rounded once, at the end (finalize), so
// it is the same for any grouping, order, policy, grid or GPU. With typical data nothing spills: an
// item spills only when its bits reach more than about 2^-40 (float items) or 2^-43 (double items)
// below the largest item its thread has seen.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cuda/std/bit>
#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

#include <cmath>

#include "known_op.cuh"

namespace cascade::detail {

// x as a double (exact for every type the exact sum takes; cross_check's tolerances use it too).
template <class X>
__host__ __device__ inline double to_double(X const& x) {
  if constexpr (cuda::std::is_same_v<X, __half>) return static_cast<double>(__half2float(x));
  else if constexpr (cuda::std::is_same_v<X, __nv_bfloat16>) return static_cast<double>(__bfloat162float(x));
  else return static_cast<double>(x);
}

}  // namespace cascade::detail

namespace cascade::detail::exact {

inline constexpr int unit_exp = -1074;      // weight of position 0
inline constexpr int bin_bits = 32;
inline constexpr int max_window_bin = 62;   // a higher top would need rounding constants beyond double's range
inline constexpr int chunk_count = 68;      // spill chunks: positions [0, 2176); a double reaches position 2097
inline constexpr int max_count = 1 << 20;   // deposits between normalizations: levels stay below 2^53 units

// The spill: [flags | chunk_count int64 chunks], zeroed before the call. Flags: what the spilled
// states and items held of NaN, +inf, -inf.
inline constexpr unsigned flag_nan = 1u, flag_pos_inf = 2u, flag_neg_inf = 4u;
struct spill_area {
  unsigned long long flags;
  long long chunks[chunk_count];
};
inline constexpr std::size_t spill_bytes = sizeof(spill_area);

__host__ __device__ inline double pow2(int e) {  // 2^e, e in [-1022, 1023]
  return cuda::std::bit_cast<double>(static_cast<cuda::std::uint64_t>(e + 1023) << 52);
}
__host__ __device__ inline double three_halves_pow2(int e) {  // 1.5 * 2^e
  return cuda::std::bit_cast<double>((static_cast<cuda::std::uint64_t>(e + 1023) << 52) | (cuda::std::uint64_t(1) << 51));
}

// r truncated (toward zero) to a multiple of 2^lo, where c = 1.5 * 2^(lo + 52) and |r| < 2^(lo + 51):
// r + copysign(c, r) lies in c's binade, whose ulp is 2^lo, so rounding it toward zero drops exactly r's
// bits below 2^lo.
__host__ __device__ inline double trunc_at(double r, double c) {
#ifdef __CUDA_ARCH__
  double const s = copysign(c, r);
  return __dadd_rz(r, s) - s;
#else
  return r - std::fmod(r, (c / 1.5) * 0x1p-52);
#endif
}

// Bit position of |x|'s highest bit (x finite, nonzero).
__host__ __device__ inline int top_position(double x) {
  auto const bits = cuda::std::bit_cast<cuda::std::uint64_t>(x);
  int const e = static_cast<int>((bits >> 52) & 0x7ff);
  if (e != 0) return e + 51;
  return 63 - cuda::std::countl_zero(bits & ((cuda::std::uint64_t(1) << 52) - 1));
}

// Adds the finite double v (any multiple of 2^-1074) to the integer in chunks, 32 bits a chunk:
// atomically on the device (Atomic: the spill), else plainly.
template <bool Atomic = true>
__host__ __device__ inline void add_to_chunks(long long* chunks, double v) {
  if (v == 0) return;
  auto const bits = cuda::std::bit_cast<cuda::std::uint64_t>(v);
  bool const negative = bits >> 63;
  int const e = static_cast<int>((bits >> 52) & 0x7ff);
  cuda::std::uint64_t m = bits & ((cuda::std::uint64_t(1) << 52) - 1);
  int p = 0;  // v = m * 2^(p - 1074)
  if (e != 0) {
    m |= cuda::std::uint64_t(1) << 52;
    p = e - 1;
  }
  int const j = p >> 5, s = p & 31;
  cuda::std::uint64_t const lo = m << s, hi = s ? m >> (64 - s) : 0;
  cuda::std::uint64_t const parts[3] = {lo & 0xffffffffu, lo >> 32, hi};
  for (int i = 0; i < 3; ++i) {
    if (parts[i] == 0) continue;
    cuda::std::uint64_t const add = negative ? ~parts[i] + 1 : parts[i];  // two's complement wraps as signed
#ifdef __CUDA_ARCH__
    if constexpr (Atomic) {
      atomicAdd(reinterpret_cast<unsigned long long*>(chunks + j + i), static_cast<unsigned long long>(add));
      continue;
    }
#endif
    chunks[j + i] = static_cast<long long>(static_cast<cuda::std::uint64_t>(chunks[j + i]) + add);
  }
}

__host__ __device__ inline void add_flags(unsigned long long* flags, unsigned f) {
  if (f == 0) return;
#ifdef __CUDA_ARCH__
  atomicOr(flags, static_cast<unsigned long long>(f));
#else
  *flags |= f;
#endif
}

template <int K>
struct state {
  double lv[K + 1];  // lv[0]: bin top + 1 (carries), lv[k]: bin top + 1 - k
  double c[K];       // c[k - 1] = 1.5 * 2^(lo of level k + 52)
  double limit;      // 2^(lo of level 0); 0 while there is no window (the empty state)
  int top;
  int count;
  unsigned flags;
};

template <int K>
__host__ __device__ inline void set_window(state<K>& s, int top) {
  s.top = top;
  int const lo1 = unit_exp + bin_bits * top;
  for (int k = 1; k <= K; ++k) s.c[k - 1] = three_halves_pow2(lo1 - bin_bits * (k - 1) + 52);
  s.limit = pow2(lo1 + bin_bits);
}

// Carries every level's bits above its bin into the level above: afterwards |lv[k]| < 2^32 units for k >= 1.
template <int K>
__host__ __device__ inline void normalize(state<K>& s) {
  if (s.limit == 0) return;
  for (int k = K; k >= 1; --k) {
    double const c = k >= 2 ? s.c[k - 2] : s.c[0] * 0x1p32;
    double const carry = trunc_at(s.lv[k], c);
    s.lv[k] -= carry;
    s.lv[k - 1] += carry;
  }
  s.count = 0;
}

// a + b, exactly: the lower window's levels move to the higher's bins, those below it spill.
template <int K>
__host__ __device__ inline state<K> merge(state<K> a, state<K> b, spill_area* spill) {
  if (b.limit == 0) {
    a.flags |= b.flags;
    return a;
  }
  if (a.limit == 0) {
    b.flags |= a.flags;
    return b;
  }
  if (a.top < b.top) {
    state<K> const t = a;
    a = b;
    b = t;
  }
  normalize(a);
  normalize(b);
  int const d = a.top - b.top;
  for (int j = 0; j <= K; ++j) {
    double const v = b.lv[j];
    for (int i = 0; i <= K; ++i) a.lv[i] += (i == j + d) ? v : 0.0;
    if (j + d > K) add_to_chunks(spill->chunks, v);
  }
  a.flags |= b.flags;
  normalize(a);
  return a;
}

// x into the window (|x| < s.limit).
template <int K>
__host__ __device__ __forceinline__ void deposit_in_window(state<K>& s, double x, spill_area* spill) {
  double r = x;
  for (int k = 1; k < K; ++k) {
    double const d = trunc_at(r, s.c[k - 1]);
    s.lv[k] += d;
    r -= d;
  }
  double const d = trunc_at(r, s.c[K - 1]);
  s.lv[K] += d;
  if (d != r) add_to_chunks(spill->chunks, r - d);  // bits below the window
  if (++s.count == max_count) normalize(s);
}

// The rare cases: NaN, infinities, zero, the first item, an item at or above the window. Out of line,
// taking and returning the state by value, so that the hot path keeps it in registers.
template <int K>
__host__ __device__ __noinline__ state<K> deposit_slow(state<K> s, double x, spill_area* spill) {
  if (x != x) {
    s.flags |= flag_nan;
    return s;
  }
  if (x == 0) return s;
  if (isinf(x)) {
    s.flags |= x > 0 ? flag_pos_inf : flag_neg_inf;
    return s;
  }
  int const bin = top_position(x) / bin_bits;
  if (bin > max_window_bin) {
    add_to_chunks(spill->chunks, x);
    return s;
  }
  int const top = bin > K - 1 ? bin : K - 1;  // the lowest level's bin is at least 0
  state<K> w{};
  set_window(w, top);
  s = merge(w, s, spill);  // (from the empty state: only the window)
  deposit_in_window(s, x, spill);
  return s;
}

template <int K>
__host__ __device__ __forceinline__ void deposit(state<K>& s, double x, spill_area* spill) {
  if (!(fabs(x) < s.limit)) s = deposit_slow(s, x, spill);
  else deposit_in_window(s, x, spill);
}

// Items the exact sum takes: each converts to double exactly.
template <class X>
inline constexpr bool is_item_v = cuda::std::is_same_v<X, float> || cuda::std::is_same_v<X, double> ||
                                  cuda::std::is_same_v<X, __half> || cuda::std::is_same_v<X, __nv_bfloat16> ||
                                  (cuda::std::is_integral_v<X> && sizeof(X) <= 4);

// Levels by item: float, half and bfloat16 items (24 bits or fewer) span at most 2 bins, doubles 3.
template <class X>
inline constexpr int levels_for = sizeof(X) > 4 ? 3 : 2;

// The op the layers below see: merge for the trees and finishes, deposit for items as the tile loop
// reads them (detail/thread_fold.cuh), atomic_merge for finish::atomic.
template <int K>
struct op {
  spill_area* spill;
  using state_type = state<K>;
  __device__ state<K> operator()(state<K> const& a, state<K> const& b) const { return merge(a, b, spill); }
  template <class X>
    requires is_item_v<X>
  __device__ void deposit(state<K>& s, X const& x) const {
    exact::deposit(s, to_double(x), spill);
  }
  // Before a tree: every valid value takes the largest window among them, spilling (once, from the
  // thread that owns it) what falls below; the others become empty. A tree may merge redundantly
  // (every lane of a shuffle merges, most results are dropped), which is harmless only for merges
  // without side effects: merges of equal windows, or with an empty state, never spill.
  __device__ void align_block(state<K>& s, bool valid) const {
    __shared__ int top;
    __syncthreads();  // a previous call's readers are done with `top`
    if (threadIdx.x == 0) top = -1;
    __syncthreads();
    if (valid && s.limit != 0) atomicMax(&top, s.top);
    __syncthreads();
    realign(s, top, valid);
  }
  __device__ void align_warp(state<K>& s, bool valid) const {  // by a whole warp
    realign(s, __reduce_max_sync(0xffffffffu, valid && s.limit != 0 ? s.top : -1), valid);
  }
  __device__ void realign(state<K>& s, int top, bool valid) const {
    if (!valid) {
      s = state<K>{};
    } else if (s.limit != 0 && s.top < top) {
      state<K> w{};
      set_window(w, top);
      s = merge(w, s, spill);
    }
  }
  // finish::atomic: the value's levels go straight into the spill, which is exact in any order.
  __device__ void atomic_merge(state<K>*, state<K> const& v) const {
    for (int k = 0; k <= K; ++k) add_to_chunks(spill->chunks, v.lv[k]);
    add_flags(&spill->flags, v.flags);
  }
};

// The real number chunks + s + init, rounded to nearest (ties to even) to R (float or double): +-inf
// when it overflows R, +0 for an exact zero; NaN when any operand was NaN or both infinities occur,
// else the infinity that occurred.
template <class R, int K>
__host__ __device__ inline R finalize(spill_area const& spill, state<K> const& s, double init) {
  long long acc[chunk_count];
  auto const& area = const_cast<spill_area const volatile&>(spill);  // written by other blocks' atomics
  for (int j = 0; j < chunk_count; ++j) acc[j] = area.chunks[j];
  unsigned flags = static_cast<unsigned>(area.flags) | s.flags;
  if (s.limit != 0)
    for (int k = 0; k <= K; ++k) add_to_chunks<false>(acc, s.lv[k]);
  if (init != init) flags |= flag_nan;
  else if (isinf(init)) flags |= init > 0 ? flag_pos_inf : flag_neg_inf;
  else add_to_chunks<false>(acc, init);
  if ((flags & flag_nan) || (flags & flag_pos_inf && flags & flag_neg_inf)) return static_cast<R>(NAN);
  if (flags & flag_pos_inf) return static_cast<R>(INFINITY);
  if (flags & flag_neg_inf) return static_cast<R>(-INFINITY);

  // Carry into 32-bit limbs: a two's complement integer of limb_count limbs.
  constexpr int limb_count = chunk_count + 2;
  unsigned limb[limb_count];
  long long carry = 0;
  for (int j = 0; j < chunk_count; ++j) {
    long long const v = acc[j];
    // v + carry, split: low 32 bits to this limb, the rest (arithmetic shift) on.
    long long const lo = (v & 0xffffffffll) + (carry & 0xffffffffll);
    limb[j] = static_cast<unsigned>(lo);
    carry = (v >> 32) + (carry >> 32) + (lo >> 32);
  }
  limb[chunk_count] = static_cast<unsigned>(carry);
  limb[chunk_count + 1] = static_cast<unsigned>(carry >> 32);
  bool const negative = limb[limb_count - 1] >> 31;
  if (negative) {
    unsigned long long c = 1;
    for (int j = 0; j < limb_count; ++j) {
      c += static_cast<unsigned>(~limb[j]);
      limb[j] = static_cast<unsigned>(c);
      c >>= 32;
    }
  }
  int top = -1;
  for (int j = limb_count - 1; j >= 0 && top < 0; --j)
    if (limb[j] != 0) top = 32 * j + 31 - cuda::std::countl_zero(limb[j]);
  if (top < 0) return R(0);
  auto bit = [&](int p) -> unsigned { return p < 0 ? 0u : (limb[p >> 5] >> (p & 31)) & 1u; };
  constexpr int precision = cuda::std::is_same_v<R, float> ? 24 : 53;
  constexpr int min_ulp = cuda::std::is_same_v<R, float> ? -149 - unit_exp : 0;  // position of R's least ulp
  int const ulp = top - (precision - 1) > min_ulp ? top - (precision - 1) : min_ulp;
  unsigned long long m = 0;
  for (int p = top; p >= ulp; --p) m = (m << 1) | bit(p);
  bool sticky = false;
  for (int j = 0; j <= (ulp - 2) >> 5 && ulp >= 2; ++j) {
    unsigned const w = limb[j];
    int const hi = 32 * j + 31;  // bits of limb j below position ulp - 1
    unsigned const mask = hi < ulp - 1 ? 0xffffffffu : ((1u << ((ulp - 1) & 31)) - 1u);
    if (w & mask) sticky = true;
  }
  if (bit(ulp - 1) && (sticky || (m & 1))) ++m;
  double const v = ldexp(static_cast<double>(m), ulp + unit_exp);  // exact, or inf past double's range
  R const r = static_cast<R>(v);
  return negative ? -r : r;
}

// Where the last step of a call's finish writes: rounds the final state (with the spill and init) to
// the result type and writes it to the caller's output.
template <class OutIt, class R, int K>
struct result_writer {
  OutIt out;
  spill_area const* spill;
  double init;
  struct proxy {
    result_writer const& to;
    __device__ proxy const& operator=(state<K> const& s) const {
      spill_area const& area = *to.spill;
      *to.out = finalize<R>(area, s, to.init);
      return *this;
    }
  };
  __device__ proxy operator*() const { return {*this}; }
};

}  // namespace cascade::detail::exact
