// cascade/exact/exact_sum.cuh: the exact sum behind cascade::exact_plus (and the rounding and grid
// that the binned sum behind reproducible_plus, exact/binned_sum.cuh, shares).
//
// Every finite float, double, __half and __nv_bfloat16 is an integer multiple of 2^-1074, so a sum of
// them is an integer on that grid; bit position p weighs 2^(p - 1074). Positions are grouped in
// 32-wide bins (bin b: positions [32b, 32b + 32)).
//
// A state (the accumulator the trees and finishes combine) keeps a window of K + 1 bins in doubles:
// level 0 is bin top + 1 (carries only), level k bin top + 1 - k. A level holds an exact multiple of
// its bin's unit, biased (state, below) so that adding an item to it splits the item exactly: the
// part at or above the level's unit stays, the rounding error goes on to the next level. An item x
// with |x| < limit (the unit of bin top + 1) costs 3 double operations a level; the state's count
// keeps every level within its binade, normalize() carrying into the level above. What does not fit
// the window (bits of an item below the lowest level, levels a merge shifts out, items at or above
// 2^942) is spilled: added, as 32-bit pieces, to a full-width integer in device memory (int64
// chunks, atomics: exact and order-free). The result is the real sum rounded once, at the end
// (finalize), so it is the same for any grouping, order, policy, grid or GPU. With typical data
// nothing spills: an item spills only when its bits reach more than about 2^-40 (float items) or
// 2^-43 (double items) below the largest item its thread has seen.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cuda/std/bit>
#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

#include <cmath>

#include "../detail/meta/known_op.cuh"
#include "../detail/meta/unroll.cuh"

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
inline constexpr int max_count = 1 << 18;   // deposits between normalizations: levels stay within 2^51 units

// The spill: flags, which chunks were touched, and chunk_count int64 chunks; zeroed before a call's
// first kernel, and zeroed again by the rounding at its end (finalize), so that a stream can keep one
// for all its calls (detail/runtime/stream_state.cuh). Flags: what the spilled states and items held of NaN,
// +inf, -inf. touched: bit j of the 128 is set once chunk j may be nonzero, so the rounding reads only
// those chunks (none, with typical data).
inline constexpr unsigned flag_nan = 1u, flag_pos_inf = 2u, flag_neg_inf = 4u;
struct spill_area {
  unsigned long long flags;
  unsigned long long touched[2];
  long long chunks[chunk_count];
};
inline constexpr std::size_t spill_bytes = sizeof(spill_area);

__host__ __device__ inline double pow2(int e) {  // 2^e, e in [-1022, 1023]
  return cuda::std::bit_cast<double>(static_cast<cuda::std::uint64_t>(e + 1023) << 52);
}
__host__ __device__ inline double three_halves_pow2(int e) {  // 1.5 * 2^e
  return cuda::std::bit_cast<double>((static_cast<cuda::std::uint64_t>(e + 1023) << 52) | (cuda::std::uint64_t(1) << 51));
}

// r truncated (toward zero) to a multiple of 2^lo, |r| < 2^(lo + 51): r + copysign(c, r), c = 1.5 *
// 2^(lo + 52), lies in c's binade, whose ulp is 2^lo, so rounding it toward zero drops exactly r's bits
// below 2^lo.
__host__ __device__ inline double trunc_at(double r, int lo) {
#ifdef __CUDA_ARCH__
  double const s = copysign(three_halves_pow2(lo + 52), r);
  return __dadd_rz(r, s) - s;
#else
  return r - std::fmod(r, std::ldexp(1.0, lo));
#endif
}

// Sets bits `mask` of word w (the spill's touched bitmap and flags), atomically on the device; a plain
// read first, since the bits stay set (a stale read costs an atomic, nothing else).
__host__ __device__ inline void mark(unsigned long long* w, unsigned long long mask) {
  if (mask == 0 || (*w & mask) == mask) return;
#ifdef __CUDA_ARCH__
  atomicOr(w, mask);
#else
  *w |= mask;
#endif
}

// The largest v of a whole warp: one instruction from sm_80, shuffles before it (the exact and binned
// ops' align_warp; their headers compile for any architecture).
__device__ inline int warp_max(int v) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  return __reduce_max_sync(0xffffffffu, v);
#else
  for (int offset = 16; offset > 0; offset >>= 1) {
    int const w = __shfl_xor_sync(0xffffffffu, v, offset);
    v = w > v ? w : v;
  }
  return v;
#endif
}

// The largest v of a whole block (every thread calls it; v < 0 counts as none): the exact and binned
// ops' align_block.
__device__ inline int block_max(int v) {
  __shared__ int top;
  __syncthreads();  // a previous call's readers are done with `top`
  if (threadIdx.x == 0) top = -1;
  __syncthreads();
  if (v >= 0) atomicMax(&top, v);
  __syncthreads();
  return top;
}

// v = (-1)^negative * m * 2^(p - 1074), m < 2^53 (v finite).
struct decomposed {
  cuda::std::uint64_t m;
  int p;
  bool negative;
};
__host__ __device__ inline decomposed decompose(double v) {
  auto const bits = cuda::std::bit_cast<cuda::std::uint64_t>(v);
  int const e = static_cast<int>((bits >> 52) & 0x7ff);
  cuda::std::uint64_t m = bits & ((cuda::std::uint64_t(1) << 52) - 1);
  if (e != 0) m |= cuda::std::uint64_t(1) << 52;
  return {m, e != 0 ? e - 1 : 0, static_cast<bool>(bits >> 63)};
}

// Bit position of |x|'s highest bit (x finite, nonzero).
__host__ __device__ inline int top_position(double x) {
  decomposed const d = decompose(x);
  return d.p + 63 - cuda::std::countl_zero(d.m);
}

// The finite double v as 32-bit pieces on chunks j, j + 1, j + 2 (signed: each in (-2^32, 2^32)).
struct pieces {
  int j;
  long long part[3];
};
// (-1)^negative * m * 2^(p - 1074) (m < 2^64) as those pieces.
__host__ __device__ inline pieces pieces_at(cuda::std::uint64_t m, int p, bool negative) {
  int const s = p & 31;
  cuda::std::uint64_t const lo = m << s, hi = s ? m >> (64 - s) : 0;
  long long const sign = negative ? -1 : 1;
  return {p >> 5,
          {sign * static_cast<long long>(lo & 0xffffffffu), sign * static_cast<long long>(lo >> 32),
           sign * static_cast<long long>(hi)}};
}
__host__ __device__ inline pieces pieces_of(double v) {
  decomposed const d = decompose(v);
  return pieces_at(d.m, d.p, d.negative);
}
// Adds (-1)^negative * m * 2^(p - 1074) (m < 2^64) to the spill's integer, 32 bits a chunk, one piece
// at a time: atomically on the device (exact in any order), plainly on the host. Few registers: the
// spill runs out of line, and a function's registers count against every kernel that may call it
// (the call convention saves the caller's live registers around the call): built on pieces_at, whose
// three int64 pieces are live at once, the float grid's <256, 16> kernel spills 52 bytes.
__host__ __device__ inline void add_at(spill_area* spill, cuda::std::uint64_t m, int p, bool negative) {
  int const s = p & 31;
  cuda::std::uint64_t const lo = m << s;
  unsigned const hi = s ? static_cast<unsigned>(m >> (64 - s)) : 0u;
  for (int i = 0; i < 3; ++i) {
    unsigned const part = i == 0 ? static_cast<unsigned>(lo) : i == 1 ? static_cast<unsigned>(lo >> 32) : hi;
    if (part == 0) continue;
    int const j = (p >> 5) + i;
    auto const v = static_cast<unsigned long long>(negative ? -static_cast<long long>(part) : static_cast<long long>(part));
#ifdef __CUDA_ARCH__
    atomicAdd(reinterpret_cast<unsigned long long*>(spill->chunks + j), v);
#else
    spill->chunks[j] = static_cast<long long>(static_cast<cuda::std::uint64_t>(spill->chunks[j]) + v);  // wraps as the atomic does
#endif
    mark(&spill->touched[j >> 6], 1ull << (j & 63));
  }
}
// Adds the finite double v (any multiple of 2^-1074) to the spill's integer.
__host__ __device__ inline void add_to_chunks(spill_area* spill, double v) {
  if (v == 0) return;
  decomposed const d = decompose(v);
  add_at(spill, d.m, d.p, d.negative);
}

// Adds v to the spill out of line: the hot loop and the trees' merges only branch over the call, and
// keep the registers the spill's integer arithmetic would take.
__host__ __device__ inline __noinline__ void spill_low(spill_area* spill, double v) { add_to_chunks(spill, v); }
// Adds units * 2^(p - 1074) to the spill, out of line as spill_low (the float grid's levels, which
// hold integers: binned_small_sum.cuh).
__host__ __device__ inline __noinline__ void spill_units(spill_area* spill, long long units, int p) {
  if (units == 0) return;
  bool const negative = units < 0;
  auto const m = static_cast<cuda::std::uint64_t>(units);
  add_at(spill, negative ? 0 - m : m, p, negative);
}

// Level k >= 1 is held biased: lv[k] = bias + the level's value, the bias being 1.5 * 2^(lo + 52) (lo:
// the level's lowest bit). While the value stays within +-2^(lo + 51) the biased double keeps its
// binade, whose ulp is 2^lo; so adding r to it adds r rounded to a multiple of 2^lo (the difference
// of the two biased doubles, exact), and r minus that is the rounding error, exact: one addition and
// two subtractions split an item at a level and accumulate it (split_near). `count` bounds the
// values: each level's is below (count + 1) * 2^(lo + 32) (a deposit adds at most one such unit,
// normalize leaves less than one, a merge of two windows alike adds the bounds), and normalize runs
// before it reaches max_count. The state is small (it travels through shuffles and shared memory):
// the window's constants follow from `window`.
template <int K>
struct state {
  double lv[K + 1];  // lv[0]: bin top + 1 (carries, unbiased), lv[k]: bin top + 1 - k (biased)
  int window;        // top + 1 (bin top: the highest level's); 0 for the empty state
  int count;
  unsigned flags;
};

template <int K>
__host__ __device__ inline int top_of(state<K> const& s) {
  return s.window - 1;
}
// Lowest bit (exponent) of level k >= 1, and its bias.
template <int K>
__host__ __device__ inline int lo_of(state<K> const& s, int k) {
  return unit_exp + bin_bits * (s.window - k);
}
template <int K>
__host__ __device__ inline double bias_of(state<K> const& s, int k) {
  return three_halves_pow2(lo_of(s, k) + 52);
}
// Items below it fit the window: 2^(lo of level 0) (s not empty).
template <int K>
__host__ __device__ inline double limit_of(state<K> const& s) {
  return pow2(unit_exp + bin_bits * s.window);
}

// Level k's value.
template <int K>
__host__ __device__ inline double value(state<K> const& s, int k) {
  return k == 0 ? s.lv[0] : s.lv[k] - bias_of(s, k);
}

template <int K>
__host__ __device__ inline void set_window(state<K>& s, int top) {
  s.window = top + 1;
  for (int k = 1; k <= K; ++k) s.lv[k] = bias_of(s, k);
  s.lv[0] = 0;
  s.count = 0;
}

// Carries every level's bits above its bin into the level above: afterwards each value of level k >=
// 1 is below 2^32 of its units.
template <int K>
__host__ __device__ inline void normalize(state<K>& s) {
  if (s.window == 0) return;
  for (int k = K; k >= 1; --k) {
    double const carry = trunc_at(value(s, k), lo_of(s, k) + bin_bits);  // level k - 1's unit
    s.lv[k] -= carry;
    s.lv[k - 1] += carry;
  }
  s.count = 0;
}

// a + b of different windows (or near the count's bound): the lower window's levels move to the
// higher's bins, those below it spill. Out of line: the trees merge windows alike.
template <int K>
__host__ __device__ __noinline__ state<K> merge_windows(state<K> a, state<K> b, spill_area* spill) {
  if (a.window < b.window) {
    state<K> const t = a;
    a = b;
    b = t;
  }
  normalize(a);
  normalize(b);
  int const d = a.window - b.window;
  for (int j = 0; j <= K; ++j) {
    double const v = value(b, j);
    for (int i = 0; i <= K; ++i) a.lv[i] += (i == j + d) ? v : 0.0;
    if (j + d > K) add_to_chunks(spill, v);
  }
  a.flags |= b.flags;
  normalize(a);
  return a;
}

// a + b, exactly. States of one window (every tree's, after align_block) add level by level.
template <int K>
__host__ __device__ inline state<K> merge(state<K> a, state<K> const& b, spill_area* spill) {
  if (b.window == 0) {
    a.flags |= b.flags;
    return a;
  }
  if (a.window == 0) {
    state<K> r = b;
    r.flags |= a.flags;
    return r;
  }
  if (a.window != b.window || a.count + b.count + 1 > max_count) return merge_windows(a, b, spill);
  a.lv[0] += b.lv[0];
CASCADE_UNROLL
  for (int k = 1; k <= K; ++k) a.lv[k] += b.lv[k] - bias_of(b, k);
  a.count += b.count + 1;
  a.flags |= b.flags;
  return a;
}

// Adds to the biased level `biased` (lowest bit lo) r rounded to the level's unit, and returns that part: r
// minus it is the addition's rounding error, exact (round to nearest: the error of a sum of two
// doubles is a double), in [-2^(lo - 1), 2^(lo - 1)]. (Rounded down, the error of a small negative r
// would be 2^lo - |r|, too many bits.)
__host__ __device__ __forceinline__ double split_near(double& biased, double r, int lo) {
#ifdef __CUDA_ARCH__
  (void)lo;
  double const t = biased + r;
  double const d = t - biased;
  biased = t;
#else
  double const ulp = std::ldexp(1.0, lo);
  double const m = std::fmod(r, ulp);  // exact, with r's sign
  double const d = 2 * std::fabs(m) > ulp ? (r - m) + std::copysign(ulp, m) : r - m;
  biased += d;
#endif
  return d;
}

// x into the window (|x| < limit_of(s)), not counted.
template <int K>
__host__ __device__ __forceinline__ void deposit_uncounted(state<K>& s, double x, spill_area* spill) {
  double r = x;
CASCADE_UNROLL
  for (int k = 1; k < K; ++k) r -= split_near(s.lv[k], r, lo_of(s, k));
  double const d = split_near(s.lv[K], r, lo_of(s, K));
  if (d != r) spill_low(spill, r - d);  // bits below the window
}

// normalize, out of line for the hot loop (once every max_count deposits).
template <int K>
__host__ __device__ __noinline__ state<K> normalized(state<K> s) {
  normalize(s);
  return s;
}

template <int K>
__host__ __device__ __forceinline__ void deposit_in_window(state<K>& s, double x, spill_area* spill) {
  deposit_uncounted(s, x, spill);
  if (++s.count >= max_count) s = normalized(s);
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
    add_to_chunks(spill, x);
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
  if (s.window == 0 || !(fabs(x) < limit_of(s))) s = deposit_slow(s, x, spill);
  else deposit_in_window(s, x, spill);
}

// |x| < limit for every item, compared in the items' own precision where it can be (float's compare
// is cheaper than double's, and converts nothing): limit is a power of two, exact as a float within
// float's range, +inf above it (every finite float is below) and 0 below it (none is).
template <class X, int N>
__host__ __device__ __forceinline__ bool all_below(X const (&items)[N], double limit) {
  bool in = true;
  if constexpr (sizeof(X) <= 4 && !cuda::std::is_integral_v<X>) {
    float const f = static_cast<float>(limit);
CASCADE_UNROLL
    for (int k = 0; k < N; ++k) in &= fabsf(static_cast<float>(items[k])) < f;  // & : no branch an item
  } else {
CASCADE_UNROLL
    for (int k = 0; k < N; ++k) in &= fabs(to_double(items[k])) < limit;
  }
  return in;
}

template <class X, int N>
struct batch {
  X items[N];
};

// The batch one item at a time; out of line, so that each tile loop holds one copy of the fast path
// only (code size is time in kernels this short: instruction fetch).
template <int K, class X, int N>
__host__ __device__ __noinline__ state<K> deposit_each(state<K> s, batch<X, N> b, spill_area* spill) {
  for (int k = 0; k < N; ++k) deposit(s, to_double(b.items[k]), spill);
  return s;
}

// N items, as the tile loop reads them: when all are inside the window (typical data, after the
// first batch), each costs a conversion and 3 double operations a level, the batch one test; else
// one by one.
template <int K, class X, int N>
__host__ __device__ __forceinline__ void deposit_all(state<K>& s, X const (&items)[N], spill_area* spill) {
  if (s.window != 0 && all_below(items, limit_of(s))) {
    if (s.count > max_count - N) s = normalized(s);
CASCADE_UNROLL
    for (int k = 0; k < N; ++k) deposit_uncounted(s, to_double(items[k]), spill);
    s.count += N;
  } else {
    batch<X, N> b;
CASCADE_UNROLL
    for (int k = 0; k < N; ++k) b.items[k] = items[k];
    s = deposit_each(s, b, spill);
  }
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
// reads them (detail/kernel/tile_loop.cuh), atomic_merge for finish::atomic.
template <int K>
struct op {
  spill_area* spill;
  using state_type = state<K>;
  using area_type = spill_area;
  static constexpr bool is_exact_sum = true;  // default_policy's tables key it as op_kind::exact
  // A vector's items a batch: each item's test for bits below the window (a call, rarely taken) holds
  // registers to the call's convention, and a tile's 8-16 doubles spilled (<256, 8>: 32 bytes).
  static constexpr int max_batch_bytes = 16;
  static constexpr bool zero_items_add_nothing = true;  // (detail/kernel/tile_loop.cuh pads partial tiles)
  __device__ state<K> operator()(state<K> const& a, state<K> const& b) const { return merge(a, b, spill); }
  template <class X>
    requires is_item_v<X>
  __device__ void deposit(state<K>& s, X const& x) const {
    exact::deposit(s, to_double(x), spill);
  }
  template <class X, int N>
    requires is_item_v<X>
  __device__ void deposit_all(state<K>& s, X const (&items)[N]) const {
    exact::deposit_all(s, items, spill);
  }
  // Before a tree: every valid value takes the largest window among them, spilling (once, from the
  // thread that owns it) what falls below; the others become empty. A tree may merge redundantly
  // (every lane of a shuffle merges, most results are dropped), which is harmless only for merges
  // without side effects: merges of equal windows, or with an empty state, never spill.
  __device__ void align_block(state<K>& s, bool valid) const {
    realign(s, block_max(valid && s.window != 0 ? top_of(s) : -1), valid);
  }
  __device__ void align_warp(state<K>& s, bool valid) const {  // by a whole warp
    realign(s, warp_max(valid && s.window != 0 ? top_of(s) : -1), valid);
  }
  __device__ void realign(state<K>& s, int top, bool valid) const {
    if (!valid) {
      s = state<K>{};
    } else if (s.window != 0 && top_of(s) < top) {
      state<K> w{};
      set_window(w, top);
      s = merge(w, s, spill);
    }
  }
  // finish::atomic: the value's levels go straight into the spill, which is exact in any order. An
  // empty state (window 0: every item zero, or spilled whole, as DBL_MAX is) has no levels: value()
  // would read its biases at a window of 0, far below the grid, as huge numbers.
  __device__ void atomic_merge(state<K>*, state<K> const& v) const {
    if (v.window != 0)
      for (int k = 0; k <= K; ++k) add_to_chunks(spill, value(v, k));
    mark(&spill->flags, v.flags);
  }
};

// The integer's top bits, read limb by limb from the bottom: the highest nonzero 32-bit limb (t), the
// two below it, and whether any lower limb is nonzero.
struct top_limbs {
  int t = -1;
  unsigned w0 = 0, w1 = 0, w2 = 0;
  bool sticky = false;
  unsigned prev1 = 0, prev2 = 0;  // limbs j - 1 and j - 2
  bool below = false;             // a limb under j - 2 was nonzero
  __host__ __device__ void push(int j, unsigned limb) {
    if (limb != 0) {
      t = j;
      w0 = limb;
      w1 = prev1;
      w2 = prev2;
      sticky = below;
    }
    below = below || prev2 != 0;
    prev2 = prev1;
    prev1 = limb;
  }
};

// The magnitude in `top` (its limbs t..t-2 and sticky bits below), rounded to nearest (ties to even)
// to R's precision, R's denormals included; +-inf past R's range.
template <class R>
__host__ __device__ inline R round_magnitude(top_limbs const& top, bool negative) {
  if (top.t < 0) return R(0);  // an exact zero is +0
  int const z = cuda::std::countl_zero(top.w0);
  int const high = 32 * top.t + 31 - z;  // position of the top bit
  cuda::std::uint64_t const w01 = (static_cast<cuda::std::uint64_t>(top.w0) << 32) | top.w1;
  cuda::std::uint64_t const bits = (w01 << z) | (z ? top.w2 >> (32 - z) : 0);  // top bit at 63
  bool sticky = top.sticky || static_cast<unsigned>(top.w2 << z) != 0;  // (z < 32)
  constexpr int precision = cuda::std::is_same_v<R, float> ? 24 : 53;
  constexpr int min_ulp = cuda::std::is_same_v<R, float> ? -149 - unit_exp : 0;  // position of R's least ulp
  int const ulp = high - (precision - 1) > min_ulp ? high - (precision - 1) : min_ulp;
  int const kept = high - ulp;  // bits kept below the top one: -1 (none: float's least denormal) .. 52
  cuda::std::uint64_t m = 0;
  bool guard = false;
  if (kept >= 0) {
    m = bits >> (63 - kept);
    guard = (bits >> (62 - kept)) & 1;
    sticky = sticky || (bits & ((cuda::std::uint64_t(1) << (62 - kept)) - 1)) != 0;
  } else {  // below half of R's least denormal, or from half of it up to one
    guard = kept == -1;
    sticky = sticky || kept < -1 || (bits << 1) != 0;
  }
  if (guard && (sticky || (m & 1))) ++m;
  R const r = static_cast<R>(ldexp(static_cast<double>(m), ulp + unit_exp));  // exact, or inf past the range
  return negative ? -r : r;
}

// The integer sum over j in [lo, end) of chunk(j) * 2^(32 j) (chunk(j): an int64 of units of 2^(32 j -
// 1074)), rounded to R as round_magnitude does; end must leave two chunks above the last nonzero one
// for the carries to settle. One pass from the bottom, in registers: a limb and a carry at a time,
// keeping the top limbs of the sum and of its negation (~limbs + 1).
template <class R, class Chunk>
__host__ __device__ inline R round_chunks(int lo, int end, Chunk&& chunk) {
  top_limbs pos, neg;
  long long carry = 0;
  bool borrow = true;  // the negation's +1, carried while the limbs below are all zero
  for (int j = lo; j < end; ++j) {
    long long const v = chunk(j);
    long long const low = (v & 0xffffffffll) + (carry & 0xffffffffll);  // v + carry: this limb, the rest on
    unsigned const limb = static_cast<unsigned>(low);
    carry = (v >> 32) + (carry >> 32) + (low >> 32);
    pos.push(j, limb);
    neg.push(j, ~limb + (borrow ? 1u : 0u));
    borrow = borrow && limb == 0;
  }
  // (carry is now 0 or -1: the sign)
  return carry < 0 ? round_magnitude<R>(neg, true) : round_magnitude<R>(pos, false);
}

// What init adds to a rounding: its special value as flags, its finite value as pieces (none for 0).
struct init_terms {
  unsigned flags;
  pieces in;
};
__host__ __device__ inline init_terms terms_of(double init) {
  if (init != init) return {flag_nan, {-1, {0, 0, 0}}};
  if (isinf(init)) return {init > 0 ? flag_pos_inf : flag_neg_inf, {-1, {0, 0, 0}}};
  return {0u, init == 0 ? pieces{-1, {0, 0, 0}} : pieces_of(init)};
}

// The result of a rounding given the special values met (flags): NaN when any operand was NaN or
// both infinities occur, else the infinity that occurred, else the rounded finite sum.
template <class R>
__host__ __device__ inline R with_specials(unsigned flags, R finite) {
  if ((flags & flag_nan) || (flags & flag_pos_inf && flags & flag_neg_inf)) return static_cast<R>(NAN);
  if (flags & flag_pos_inf) return static_cast<R>(INFINITY);
  if (flags & flag_neg_inf) return static_cast<R>(-INFINITY);
  return finite;
}

// Loads from the spill, whose chunks other blocks' atomics wrote: from L2 on the device. An area can
// also be a local copy (the distributed reduce rounds the ranks' areas added in registers), which
// ld.global.cg cannot read (cudaErrorInvalidAddressSpace).
__host__ __device__ inline unsigned long long load_word(unsigned long long const* p) {
#ifdef __CUDA_ARCH__
  return __isGlobal(p) ? __ldcg(p) : *p;
#else
  return *p;
#endif
}

// What the spill's marks say, read once by a rounding, which zeroes them (and each chunk it reads:
// take_chunk) for the stream's next call: the special values met, and the range [lo, hi] of chunks
// that may be nonzero (lo > hi: none, with typical data).
struct spill_marks {
  unsigned flags;
  unsigned long long touched[2];
  int lo, hi;
};
__host__ __device__ inline spill_marks take_marks(spill_area& spill) {
  spill_marks m{static_cast<unsigned>(load_word(&spill.flags)),
                {load_word(&spill.touched[0]), load_word(&spill.touched[1])},
                chunk_count,
                -1};
  if (m.touched[0] | m.touched[1]) {
    m.lo = m.touched[0] ? cuda::std::countr_zero(m.touched[0]) : 64 + cuda::std::countr_zero(m.touched[1]);
    m.hi = m.touched[1] ? 127 - cuda::std::countl_zero(m.touched[1]) : 63 - cuda::std::countl_zero(m.touched[0]);
    spill.touched[0] = spill.touched[1] = 0;
  }
  if (m.flags) spill.flags = 0;
  return m;
}
// Chunk j of the spill (0 where untouched), zeroed for the next call.
__host__ __device__ inline long long take_chunk(spill_area& spill, spill_marks const& m, int j) {
  bool const read = j >= 0 && j < chunk_count && (m.touched[j >> 6] >> (j & 63)) & 1;
  if (!read) return 0;
  long long const v = static_cast<long long>(load_word(reinterpret_cast<unsigned long long const*>(spill.chunks + j)));
  spill.chunks[j] = 0;
  return v;
}

// Level k's value as int64 units of its chunk, top + 1 - k (s normalized).
template <int K>
__host__ __device__ inline long long level_units(state<K> const& s, int k) {
  double const v = value(s, k);
  if (v == 0) return 0;
  decomposed const d = decompose(v);
  int const shift = d.p - bin_bits * (s.window - k);  // v is a multiple of its chunk's unit
  long long const n = static_cast<long long>(shift >= 0 ? d.m << shift : d.m >> -shift);
  return d.negative ? -n : n;
}

// The real number spill + s + init, rounded to nearest (ties to even) to R (float or double): +-inf
// when it overflows R, +0 for an exact zero; NaN when any operand was NaN or both infinities occur,
// else the infinity that occurred. Zeroes what it read of the spill, for the stream's next call.
// One thread, in registers: it carries limb by limb through the chunks the spill touched and those of
// s and init (a handful with typical data), keeping only the top limbs of the sum and of its negation.
template <class R, int K>
__host__ __device__ inline R finalize(spill_area& spill, state<K> s, double init) {
  spill_marks const marks = take_marks(spill);
  init_terms const it = terms_of(init);
  unsigned const flags = marks.flags | s.flags | it.flags;
  pieces const in = it.in;

  // The limbs that can be nonzero: [lo, hi], then carries settle within two more limbs.
  int lo = marks.lo, hi = marks.hi;
  long long units[K + 1] = {};
  int const base = s.window - K;  // s's lowest chunk
  if (s.window != 0) {
    normalize(s);
    for (int k = 0; k <= K; ++k) units[k] = level_units(s, k);
    lo = base < lo ? base : lo;
    hi = s.window > hi ? s.window : hi;
  }
  if (in.j >= 0) {
    lo = in.j < lo ? in.j : lo;
    hi = in.j + 2 > hi ? in.j + 2 : hi;
  }
  int const end = hi + 3 < chunk_count + 2 ? hi + 3 : chunk_count + 2;

  R const r = round_chunks<R>(lo, end, [&](int j) {
    long long v = take_chunk(spill, marks, j);
    for (int k = 0; k <= K; ++k) v += j == base + K - k ? units[k] : 0;  // level k is chunk top + 1 - k
    for (int i = 0; i < 3; ++i) v += j == in.j + i ? in.part[i] : 0;
    return v;
  });
  return with_specials<R>(flags, r);
}

// Where the last step of a call's finish writes: rounds the final state (with the call's area and
// init) to the result type and writes it to the caller's output. finalize is found by the state's
// namespace: exact's here, binned's (exact/binned_sum.cuh) for reproducible_plus.
template <class OutIt, class R, class State, class Area>
struct result_writer {
  OutIt out;
  Area* area;
  double init;
  struct proxy {
    result_writer const& to;
    __device__ proxy const& operator=(State const& s) const {
      *to.out = finalize<R>(*to.area, s, to.init);
      return *this;
    }
  };
  __device__ proxy operator*() const { return {*this}; }
};

}  // namespace cascade::detail::exact
