// cascade/exact/binned_small_sum.cuh: reproducible_plus's binned sum for items that are floats exactly
// (float, __half, __nv_bfloat16, integers of at most 16 bits), in float arithmetic and integers.
//
// The scheme of exact/binned_sum.cuh on the float grid: position p weighs 2^(p - 149) (every such
// item is a multiple of 2^-149), bin b holds positions [22b, 22b + 22), and a state keeps 3 levels,
// the bins top, top - 1, top - 2 (top: the bin of the position just above the largest item's top
// bit). An item's slice at a level is the multiple of the level's unit nearest to what is left of the
// item (ties to an even number of units), found with one float addition of the constant
// 1.5 * 2^(lo + 23), whose binade has the unit 2^lo: what is left is at most 2^(lo + 21), so the sum
// stays in that binade and its bits minus the constant's are the slice, in units. The addition is to
// a constant, never to an accumulated value, so the slice depends on the item and the bin alone.
// Levels are int64 counts of their bin's unit: they add exactly and need no bias, count or carry; a
// slice is at most 2^21 units, so 2^41 items fit with room (dispatch refuses more). Per item: 7 float
// additions and 3 integer additions, no double arithmetic and no conversion. What is left below the
// lowest level (2^-44 of the top bin's unit and less) is dropped; the error is at most half an ulp
// plus n * max|x| * 2^-43.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cuda/std/bit>
#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

#include "../detail/meta/unroll.cuh"
#include "binned_sum.cuh"

namespace cascade::detail::binned {

inline constexpr int small_unit_exp = -149;
inline constexpr int small_bin_bits = 22;
inline constexpr int small_levels = 3;
inline constexpr int small_scaled_from = 12;  // top bin 12 (items from 2^114): items scaled by 2^-64,
inline constexpr int small_scale = 64;        // so that the constants are floats
inline constexpr long long small_max_items = 1ll << 41;  // a level gains at most 2^21 units an item

// Items whose value is a float exactly.
template <class X>
inline constexpr bool is_small_item_v =
    cuda::std::is_same_v<X, float> || cuda::std::is_same_v<X, __half> || cuda::std::is_same_v<X, __nv_bfloat16> ||
    (cuda::std::is_integral_v<X> && sizeof(X) <= 2);

template <class X>
__host__ __device__ inline float to_float(X const& x) {
  if constexpr (cuda::std::is_same_v<X, __half>) return __half2float(x);
  else if constexpr (cuda::std::is_same_v<X, __nv_bfloat16>) return __bfloat162float(x);
  else return static_cast<float>(x);
}

struct small_state {
  long long lv[small_levels];  // level k: bin window - 1 - k, in units of that bin
  int window;                  // top bin + 1; 0 for the empty state
  unsigned flags;              // exact's flags
};

__host__ __device__ inline int small_shift_of(int window) {
  return window - 1 >= small_scaled_from ? small_scale : 0;
}
// Level k's unit's exponent, as the items are held (scaled in a scaled window).
__host__ __device__ inline int small_lo_of(small_state const& s, int k) {
  return small_unit_exp + small_bin_bits * (s.window - 1 - k) - small_shift_of(s.window);
}
// 1.5 * 2^(lo + 23): the float whose binade has the unit 2^lo.
__host__ __device__ inline float small_constant(int lo) {
  return cuda::std::bit_cast<float>((static_cast<unsigned>(lo + 23 + 127) << 23) | (1u << 22));
}
__host__ __device__ inline float small_pow2(int e) {  // e in [-126, 127]
  return cuda::std::bit_cast<float>(static_cast<unsigned>(e + 127) << 23);
}
// Items below it go in as they are: half the unit of the bin above the top one; 0 (none) for the empty
// state and scaled windows.
__host__ __device__ inline float small_limit_of(small_state const& s) {
  return s.window == 0 || s.window - 1 >= small_scaled_from ? 0.0f
                                                             : small_pow2(small_lo_of(s, 0) + small_bin_bits - 1);
}
// Float-grid bin b's lowest position on the exact sum's grid (exact/exact_sum.cuh).
__host__ __device__ inline int small_position(int bin) {
  return small_bin_bits * bin + (small_unit_exp - exact::unit_exp);
}

// What falls below a window: what is left of an item under the lowest level, and the levels a merge
// into a higher window shifts out. reproducible_plus drops it (hence its error bound, and the same
// bits for any grouping: a slice depends on the item and its bin alone); exact_plus keeps it, in the
// exact sum's spill (out of line: with typical data nothing reaches it), so that nothing is lost.
struct drop_below {
  static constexpr bool keeps = false;
  __host__ __device__ void item(float, int) const {}
  __host__ __device__ void level(long long, int) const {}
};
struct spill_below {
  exact::spill_area* spill;
  static constexpr bool keeps = true;
  // rest: what is left of an item, as held (scaled by 2^-shift).
  __host__ __device__ void item(float rest, int shift) const {
    exact::spill_low(spill, static_cast<double>(rest) * exact::pow2(shift));
  }
  __host__ __device__ void level(long long units, int bin) const { exact::spill_units(spill, units, small_position(bin)); }
};

// The levels' constants and what a batch adds to their bits.
struct small_batch {
  float c[small_levels];
  unsigned bits[small_levels] = {};
};
__host__ __device__ __forceinline__ small_batch small_batch_of(small_state const& s) {
  small_batch b;
CASCADE_UNROLL
  for (int k = 0; k < small_levels; ++k) b.c[k] = small_constant(small_lo_of(s, k));
  return b;
}
// x (as held) cut into the batch's levels: the sums' bits gather, in wrapping unsigned arithmetic. The
// addition is to a constant, so a tie rounds to even the same way every time: no sticky bit needed.
// Returns what is left under the lowest level when the sink keeps it (else 0, not computed).
template <class Sink>
__host__ __device__ __forceinline__ float small_cut(small_batch& b, float x) {
  float r = x;
CASCADE_UNROLL
  for (int k = 0; k < small_levels; ++k) {
    float const t = r + b.c[k];
    b.bits[k] += cuda::std::bit_cast<unsigned>(t);
    if (k < small_levels - 1 || Sink::keeps) r -= t - b.c[k];  // the slice, exact; and what is left, exact
  }
  return Sink::keeps ? r : 0.0f;
}
// The batch's n items into the levels: the bits gathered minus n constants' are the slices' units
// (less than 2^31 in all for a batch of fewer than 2^10 items).
__host__ __device__ __forceinline__ void small_close(small_state& s, small_batch const& b, int n) {
CASCADE_UNROLL
  for (int k = 0; k < small_levels; ++k)
    s.lv[k] += static_cast<int>(b.bits[k] - static_cast<unsigned>(n) * cuda::std::bit_cast<unsigned>(b.c[k]));
}

// a + b with different windows, neither empty: the lower window's levels move to the higher's bins,
// those below its lowest go to the sink.
template <class Sink>
__host__ __device__ __noinline__ inline small_state small_merge_windows(small_state a, small_state b, Sink sink) {
  if (a.window < b.window) {
    small_state const t = a;
    a = b;
    b = t;
  }
  int const d = a.window - b.window;
  for (int j = 0; j < small_levels; ++j) {
    for (int i = 0; i < small_levels; ++i) a.lv[i] += i == j + d ? b.lv[j] : 0;
    if (j + d >= small_levels) sink.level(b.lv[j], b.window - 1 - j);
  }
  a.flags |= b.flags;
  return a;
}

template <class Sink>
__host__ __device__ inline small_state merge(small_state a, small_state const& b, Sink const& sink) {
  if (b.window == 0) {
    a.flags |= b.flags;
    return a;
  }
  if (a.window == 0) {
    small_state r = b;
    r.flags |= a.flags;
    return r;
  }
  if (a.window != b.window) return small_merge_windows(a, b, sink);
CASCADE_UNROLL
  for (int k = 0; k < small_levels; ++k) a.lv[k] += b.lv[k];
  a.flags |= b.flags;
  return a;
}

// Position (on the float grid) of |x|'s top bit (x finite, nonzero).
__host__ __device__ inline int small_top_position(float x) {
  unsigned const bits = cuda::std::bit_cast<unsigned>(x) & 0x7fffffffu;
  unsigned const e = bits >> 23;
  return e != 0 ? static_cast<int>(e) + 22 : 31 - cuda::std::countl_zero(bits);
}

// The rare cases: NaN, infinities, zero, the first item, an item above the window, a scaled window,
// an item reaching under the lowest level (exact_plus: its remainder goes to the sink).
template <class Sink>
__host__ __device__ __noinline__ inline small_state small_deposit_slow(small_state s, float x, Sink sink) {
  if (x != x) {
    s.flags |= exact::flag_nan;
    return s;
  }
  if (x == 0) return s;
  if (isinf(x)) {
    s.flags |= x > 0 ? exact::flag_pos_inf : exact::flag_neg_inf;
    return s;
  }
  int top = (small_top_position(x) + 1) / small_bin_bits;
  if (top < small_levels - 1) top = small_levels - 1;  // the lowest level's bin is at least 0
  if (s.window == 0 || top > s.window - 1) {
    small_state w{};
    w.window = top + 1;
    if (s.window == 0) {
      w.flags = s.flags;
      s = w;
    } else {
      s = small_merge_windows(w, s, sink);
    }
  }
  // Scaled by a power of two: exact, but for items far below the window's lowest level (whose
  // slices are 0 either way: they go to the sink whole).
  int const shift = small_shift_of(s.window);
  float const xs = shift ? x * small_pow2(-small_scale) : x;
  if (Sink::keeps && shift && xs * small_pow2(small_scale) != x) {
    sink.item(x, 0);
    return s;
  }
  small_batch b = small_batch_of(s);
  float const rest = small_cut<Sink>(b, xs);
  small_close(s, b, 1);
  if (rest != 0) sink.item(rest, shift);
  return s;
}

// Whether items go in without the slow path: below the window's limit and, when the sink keeps what
// falls below, reaching no lower than the lowest level (0, or at least 2^23 of its unit: its 24 bits
// then lie above it). The bounds are computed once a batch, and a batch's test has no branch: per item
// one compare (NaN fails it) and, for exact_plus, an integer minimum of 2|x|'s bits less 1 (0 wraps to
// the largest, so zeros pass). The sink is called only out of line: a call in the kernel's own code
// would make the tile loop hold its registers to the call's convention (spills).
struct small_bounds {
  float limit;   // |x| < limit
  unsigned low;  // exact_plus: (bits(|x|) << 1) - 1 >= low
};
template <class Sink>
__host__ __device__ __forceinline__ small_bounds small_bounds_of(small_state const& s) {
  small_bounds b{small_limit_of(s), 0};
  if constexpr (Sink::keeps)
    b.low = s.window == 0 ? 0u : (cuda::std::bit_cast<unsigned>(small_pow2(small_lo_of(s, small_levels - 1) + 23)) << 1) - 1u;
  return b;
}
template <class Sink, class X, int N>
__host__ __device__ __forceinline__ bool small_all_fit(small_bounds const& b, X const (&items)[N]) {
  bool in = true;
  unsigned lowest = ~0u;
CASCADE_UNROLL
  for (int k = 0; k < N; ++k) {
    float const x = to_float(items[k]);
    in &= fabsf(x) < b.limit;
    if constexpr (Sink::keeps) {
      unsigned const m = (cuda::std::bit_cast<unsigned>(x) << 1) - 1u;
      lowest = m < lowest ? m : lowest;
    }
  }
  if constexpr (Sink::keeps) in &= lowest >= b.low;
  return in;
}
template <class Sink>
__host__ __device__ __forceinline__ bool small_fits(small_state const& s, float x) {
  float const one[1] = {x};
  return small_all_fit<Sink>(small_bounds_of<Sink>(s), one);
}

template <class Sink>
__host__ __device__ __forceinline__ void deposit(small_state& s, float x, Sink const& sink) {
  if (small_fits<Sink>(s, x)) {
    small_batch b = small_batch_of(s);
    small_cut<drop_below>(b, x);  // (nothing falls below)
    small_close(s, b, 1);
  } else {
    s = small_deposit_slow(s, x, sink);
  }
}

template <class X, int N, class Sink>
__host__ __device__ __noinline__ small_state small_deposit_each(small_state s, exact::batch<X, N> b, Sink sink) {
  for (int k = 0; k < N; ++k) deposit(s, to_float(b.items[k]), sink);
  return s;
}

// N items as the tile loop reads them: when all fit (small_all_fit: typical data, after the first batch),
// one test, then per item the levels' float additions and integer sums; else one by one.
template <class X, int N, class Sink>
__host__ __device__ __forceinline__ void deposit_all(small_state& s, X const (&items)[N], Sink const& sink) {
  static_assert(N < 1024, "binned small sum: a batch's slices must fit 31 bits");
  if (s.window == 0) {
    // A thread's first batch: the window is the largest item's (what item-by-item deposits would end
    // with, since a slice depends on the item and its bin alone), set here rather than in the slow
    // path, which would take the batch one item at a time (half a one-tile kernel's instructions).
    unsigned top2 = 0;  // the largest 2|x|'s bits: NaN and infinities above every finite item
CASCADE_UNROLL
    for (int k = 0; k < N; ++k) {
      unsigned const u = cuda::std::bit_cast<unsigned>(to_float(items[k])) << 1;
      top2 = u > top2 ? u : top2;
    }
    if (top2 == 0) return;  // zeros only: nothing to add
    if (top2 < (0xffu << 24)) {  // finite (else the slow path sets the flags)
      int const top = (small_top_position(cuda::std::bit_cast<float>(top2 >> 1)) + 1) / small_bin_bits;
      s.window = (top < small_levels - 1 ? small_levels - 1 : top) + 1;
    }
  }
  if (small_all_fit<Sink>(small_bounds_of<Sink>(s), items)) {
    small_batch b = small_batch_of(s);
CASCADE_UNROLL
    for (int k = 0; k < N; ++k) small_cut<drop_below>(b, to_float(items[k]));  // (nothing falls below)
    small_close(s, b, N);
  } else {
    exact::batch<X, N> b;
CASCADE_UNROLL
    for (int k = 0; k < N; ++k) b.items[k] = items[k];
    s = small_deposit_each(s, b, sink);
  }
}

// Adds the state's levels to finish::atomic's bins (the float grid's bins 0..12 of the area).
__host__ __device__ inline void add_to_area(atomic_area* area, small_state const& s) {
  if (s.window != 0) {
#ifdef __CUDA_ARCH__
    atomicMax(&area->window, static_cast<unsigned long long>(s.window));
#else
    if (area->window < static_cast<unsigned long long>(s.window)) area->window = s.window;
#endif
    unsigned long long mask = 0;
    for (int k = 0; k < small_levels; ++k) {
      int const b = s.window - 1 - k;
      if (s.lv[k] == 0) continue;
      mask |= 1ull << b;
#ifdef __CUDA_ARCH__
      atomicAdd(reinterpret_cast<unsigned long long*>(area->value + b), static_cast<unsigned long long>(s.lv[k]));
#else
      area->value[b] += s.lv[k];
#endif
    }
    exact::mark(&area->touched[0], mask);
  }
  exact::mark(&area->flags, s.flags);
}

// exact_plus's finish::atomic: the state's levels to the spill, exact in any order.
__host__ __device__ inline void add_to_area(exact::spill_area* spill, small_state const& s) {
  for (int k = 0; k < small_levels && s.window != 0; ++k)
    exact::spill_units(spill, s.lv[k], small_position(s.window - 1 - k));
  exact::mark(&spill->flags, s.flags);
}

// negative ? -m : m, times 2^(p - 1074) (m < 2^107, p the position of its bit 0 on the exact sum's
// grid: the value is 0 or at least 2^-149), rounded to nearest (ties to even) to R, without the limb
// loop: its top 64 bits and a sticky bit, then 53 of them rounded to nearest (double) or to odd
// (float, whose rounding of that double is then the rounding of the value: 53 >= 24 + 2).
template <class R>
__host__ __device__ inline R round_wide(unsigned __int128 m, bool negative, int p) {
  if (m == 0) return R(0);
  auto const hi = static_cast<cuda::std::uint64_t>(m >> 64), lo = static_cast<cuda::std::uint64_t>(m);
  int const lz = hi != 0 ? cuda::std::countl_zero(hi) : 64 + cuda::std::countl_zero(lo);
  unsigned __int128 const n = m << lz;  // top bit at 127
  auto const top = static_cast<cuda::std::uint64_t>(n >> 64);
  bool const sticky = static_cast<cuda::std::uint64_t>(n) != 0;
  cuda::std::uint64_t mantissa = top >> 11;  // 53 bits
  cuda::std::uint64_t const rest = top & 0x7ff;
  if constexpr (cuda::std::is_same_v<R, double>) {
    if (rest > 0x400 || (rest == 0x400 && (sticky || (mantissa & 1)))) ++mantissa;  // (2^53: still exact)
  } else {
    if (rest != 0 || sticky) mantissa |= 1;
  }
  // The value is mantissa * 2^(p - 1074 + 75 - lz): a power-of-two scaling of a double, exact (the
  // result lies within 2^-202 .. 2^180).
  double const d = static_cast<double>(mantissa) * exact::pow2(p + exact::unit_exp + 75 - lz);
  R const r = static_cast<R>(d);
  return negative ? -r : r;
}

// Zeroes what a call wrote to the area (finish::atomic's bins), for the stream's next call.
__host__ __device__ inline void clear(atomic_area& area, unsigned long long touched) {
  for (int b = 0; b < 64; ++b) {
    if ((touched >> b) & 1) area.value[b] = 0;
  }
  area.flags = 0;
  area.touched[0] = 0;
  area.window = 0;
}

// Kept levels as one integer: (-1)^negative * magnitude * 2^(p - 1074), magnitude < 2^107 (levels'
// sums, bin by bin, below 2^63 each, 22 bits apart).
struct wide {
  unsigned __int128 magnitude;
  bool negative;
  int p;
};
__host__ __device__ inline wide wide_of(__int128 total, int window) {
  bool const negative = total < 0;
  return {negative ? 0 - static_cast<unsigned __int128>(total) : static_cast<unsigned __int128>(total), negative,
          small_position(window - small_levels)};
}

// w + init's pieces + extra(j) (int64 units of chunk j, nonzero only for j in [lo, hi]), rounded once
// to R by exact::round_chunks: 32 bits of w at a time.
template <class R, class Extra>
__host__ __device__ inline R round_with(wide const& w, exact::pieces const& in, int lo, int hi, Extra&& extra) {
  if (w.magnitude != 0) {
    lo = w.p >> 5 < lo ? w.p >> 5 : lo;
    hi = (w.p + 107) >> 5 > hi ? (w.p + 107) >> 5 : hi;
  }
  if (in.j >= 0) {
    lo = in.j < lo ? in.j : lo;
    hi = in.j + 2 > hi ? in.j + 2 : hi;
  }
  return exact::round_chunks<R>(lo, hi + 3, [&](int j) {
    int const q = 32 * j - w.p;  // where chunk j starts in the magnitude
    unsigned __int128 const bits = q >= 128 || q <= -32 ? 0 : q >= 0 ? w.magnitude >> q : w.magnitude << -q;
    long long v = static_cast<long long>(static_cast<unsigned>(bits));
    v = w.negative ? -v : v;
    for (int i = 0; i < 3; ++i) v += j == in.j + i ? in.part[i] : 0;
    return v + extra(j);
  });
}

// reproducible_plus: init + the levels of s and of the area's bins, in the largest window among them,
// rounded once to R; special values as exact::finalize. Zeroes the area, for the stream's next call.
// Few registers (it runs in the finish's kernel, whose register count is its largest path's): the
// kept levels, summed bin by bin, make one 128-bit integer, read 32 bits at a time.
template <class R>
__host__ __device__ inline R finalize(atomic_area& area, small_state const& s, double init) {
  using exact::load_word;
  unsigned flags = static_cast<unsigned>(load_word(&area.flags)) | s.flags;
  unsigned long long const touched = load_word(&area.touched[0]);
  int const area_window = static_cast<int>(load_word(&area.window));
  exact::init_terms const it = exact::terms_of(init);
  flags |= it.flags;
  int const window = s.window > area_window ? s.window : area_window;
  __int128 total = 0;  // the kept levels in units of the lowest kept bin
  for (int k = 0; k < small_levels && window != 0; ++k) {
    int const b = window - 1 - k;
    long long level = (touched >> b) & 1
                          ? static_cast<long long>(load_word(reinterpret_cast<unsigned long long const*>(area.value + b)))
                          : 0;
    int const from_s = s.window - 1 - b;  // s's level of bin b, if s has it
    if (s.window != 0 && from_s >= 0 && from_s < small_levels) level += s.lv[from_s];
    total += static_cast<__int128>(level) << (small_bin_bits * (small_levels - 1 - k));
  }
  wide const w = wide_of(total, window);
  clear(area, touched);
  if (flags == 0 && init == 0) return round_wide<R>(w.magnitude, w.negative, w.p);  // the common case
  R const r = round_with<R>(w, it.in, exact::chunk_count, -1, [](int) { return 0ll; });
  return exact::with_specials<R>(flags, r);
}

// exact_plus: init + s + the exact sum's spill (what fell below windows, and finish::atomic's levels),
// rounded once to R; special values as exact::finalize. Zeroes what it read of the spill. With
// typical data the spill holds nothing and init is 0: the levels alone, rounded.
template <class R>
__host__ __device__ inline R finalize(exact::spill_area& spill, small_state const& s, double init) {
  exact::spill_marks const marks = exact::take_marks(spill);
  exact::init_terms const it = exact::terms_of(init);
  unsigned const flags = marks.flags | s.flags | it.flags;
  __int128 total = 0;
  for (int k = 0; k < small_levels && s.window != 0; ++k)
    total += static_cast<__int128>(s.lv[k]) << (small_bin_bits * (small_levels - 1 - k));
  wide const w = wide_of(total, s.window);
  if (flags == 0 && init == 0 && marks.lo > marks.hi) return round_wide<R>(w.magnitude, w.negative, w.p);
  R const r = round_with<R>(w, it.in, marks.lo, marks.hi, [&](int j) { return exact::take_chunk(spill, marks, j); });
  return exact::with_specials<R>(flags, r);
}

// The op for small items, as binned::op over small_state: reproducible_plus's (Exact false: what falls
// below a window is dropped; finish::atomic adds to the area's bins) and exact_plus's (Exact true: it
// is spilled; finish::atomic adds to the spill).
struct binned_key {
  static constexpr bool is_binned_sum = true;  // default_policy's tables key it as op_kind::binned
};
struct exact_key {
  static constexpr bool is_exact_sum = true;  // as op_kind::exact
};
template <bool Exact>
struct small_op_of : cuda::std::conditional_t<Exact, exact_key, binned_key> {
  using area_type = cuda::std::conditional_t<Exact, exact::spill_area, atomic_area>;
  area_type* area;
  __host__ __device__ explicit small_op_of(area_type* a) : area(a) {}  // (the key base: not an aggregate)
  using state_type = small_state;
  static constexpr bool zero_items_add_nothing = true;  // (detail/kernel/tile_loop.cuh pads partial tiles)
  __device__ auto sink() const {
    if constexpr (Exact) return spill_below{area};
    else return drop_below{};
  }
  __device__ small_state operator()(small_state const& a, small_state const& b) const { return merge(a, b, sink()); }
  template <class X>
    requires is_small_item_v<X>
  __device__ void deposit(small_state& s, X const& x) const {
    binned::deposit(s, to_float(x), sink());
  }
  template <class X, int N>
    requires is_small_item_v<X>
  __device__ void deposit_all(small_state& s, X const (&items)[N]) const {
    binned::deposit_all(s, items, sink());
  }
  // As exact::op's: merges of windows alike (after these) never reach the sink.
  __device__ void align_block(small_state& s, bool valid) const {
    realign(s, exact::block_max(valid && s.window != 0 ? s.window - 1 : -1), valid);
  }
  __device__ void align_warp(small_state& s, bool valid) const {  // by a whole warp
    realign(s, exact::warp_max(valid && s.window != 0 ? s.window - 1 : -1), valid);
  }
  __device__ void realign(small_state& s, int top, bool valid) const {
    if (!valid) {
      s = small_state{};
    } else if (s.window != 0 && s.window - 1 < top) {
      small_state w{};
      w.window = top + 1;
      s = small_merge_windows(w, s, sink());
    }
  }
  __device__ void atomic_merge(small_state*, small_state const& v) const { add_to_area(area, v); }
};

}  // namespace cascade::detail::binned
