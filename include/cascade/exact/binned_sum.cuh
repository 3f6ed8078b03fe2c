// cascade/exact/binned_sum.cuh: the binned sum behind cascade::reproducible_plus.
//
// The grid and bins of exact/exact_sum.cuh: bit position p weighs 2^(p - 1074), bin b holds positions
// [32b, 32b + 32) and has the unit 2^(32b - 1074). A state keeps K levels: the bins top, top - 1, ...,
// top - K + 1, where top is the highest bin among its items' (an item's bin: that of the position just
// above its top bit, so every item is below half the unit of the bin above it). Each item is cut into
// slices, a level each from the top: the multiple of the level's unit nearest to what is left of the
// item (halves away from zero); what is left below the lowest level is dropped. A slice depends only
// on the item and the level's bin, and the levels add slices exactly, so each level holds the exact
// sum of its bin's slices of all the items, in whatever order or grouping they came. A state of a
// lower window merged into a higher one drops its levels below the higher window's lowest: exactly
// the slices the higher window would have dropped. The result, init plus the levels rounded once, is
// therefore the same bits for the same items under any policy, grid, GPU, run or order, and it is
// within half an ulp plus n * max|x| * 2^(1 - 32 (K - 1)) of the exact sum (docs/reproducible.md).
//
// Per item: a conversion to double and, a level, an integer OR and 3 double additions (one at the
// lowest level). Nothing spills, so the state needs no memory beside it but for finish::atomic,
// whose blocks add their levels, bin by bin, to integers in device memory (atomic_area).
#pragma once

#include "../detail/meta/unroll.cuh"
#include "exact_sum.cuh"

namespace cascade::detail::binned {

using exact::bin_bits;
using exact::unit_exp;

inline constexpr int scaled_from = 62;      // top bins from here hold levels times 2^-scale: a level's
inline constexpr int scale = 256;           // bias, 1.5 * 2^(lo + 52), must be a double
inline constexpr int bin_count = 66;        // bins 0..65: a double's top bit is at position 2097
inline constexpr int max_count = 1 << 19;   // a deposit adds at most 2^31 + 1 units a level; 2^51 fit
inline constexpr unsigned count_mask = (1u << 24) - 1;
inline constexpr int flag_shift = 24;        // exact's flags (NaN, +inf, -inf) above the count

// Level k is held biased, as exact's levels are (exact/exact_sum.cuh): lv[k] = bias + value, so that
// adding r to it adds r's slice (r rounded to the level's unit), the difference of the two biased
// doubles, exactly. r's last bit is set first: r is then never halfway between two multiples of the
// unit (its bits reach far below the unit), so round to nearest breaks no ties and the slice depends
// on r alone, not on the level's contents (ties to even would look at its last bit). `carry` holds
// what normalize moved out of each level: kept per level, not carried into the level above, so that
// a level dropped later takes all of its slices with it. Windows whose top bin is scaled_from or more
// hold levels and carries times 2^-scale.
template <int K>
struct state {
  double lv[K];     // level k: bin window - 1 - k
  double carry[K];  // multiples of 2^(lo + 32)
  int window;       // top bin + 1; 0 for the empty state
  unsigned meta;    // deposits and merges since normalize (count_mask), and flags << flag_shift
};

// finish::atomic's accumulator (in the stream's spill, zeroed at rest): the largest window, and per bin
// the sums of the blocks' level values (units of the bin) and carries (units of the bin above), as
// integers: exact in any order. finalize drops the bins below the largest window's lowest level.
struct atomic_area {
  unsigned long long flags;
  unsigned long long touched[2];  // bins whose sums may be nonzero
  unsigned long long window;
  long long value[bin_count];
  long long carry[bin_count];
};

__host__ __device__ inline int shift_of(int window) { return window - 1 >= scaled_from ? scale : 0; }

template <int K>
__host__ __device__ inline int count_of(state<K> const& s) {
  return static_cast<int>(s.meta & count_mask);
}
template <int K>
__host__ __device__ inline unsigned flags_of(state<K> const& s) {
  return s.meta >> flag_shift;
}
// Level k's unit's exponent, as held (scaled), and its bias.
template <int K>
__host__ __device__ inline int lo_of(state<K> const& s, int k) {
  return unit_exp + bin_bits * (s.window - 1 - k) - shift_of(s.window);
}
template <int K>
__host__ __device__ inline double bias_of(state<K> const& s, int k) {
  return exact::three_halves_pow2(lo_of(s, k) + 52);
}
// Items below it go into the window as they are: half the unit of the bin above the top one; 0 (none)
// for the empty state and scaled windows (their items are scaled first, out of line).
template <int K>
__host__ __device__ inline double limit_of(state<K> const& s) {
  return s.window == 0 || s.window - 1 >= scaled_from ? 0.0 : exact::pow2(lo_of(s, 0) + bin_bits - 1);
}
// Level k's value, as held.
template <int K>
__host__ __device__ inline double stored(state<K> const& s, int k) {
  return s.lv[k] - bias_of(s, k);
}

template <int K>
__host__ __device__ inline void set_window(state<K>& s, int top) {
  s.window = top + 1;
CASCADE_UNROLL
  for (int k = 0; k < K; ++k) {
    s.lv[k] = bias_of(s, k);
    s.carry[k] = 0;
  }
  s.meta &= ~count_mask;
}

// r with its last bit or'ed with `bit`.
__host__ __device__ __forceinline__ double sticky(double r, unsigned bit) {
#ifdef __CUDA_ARCH__
  return __hiloint2double(__double2hiint(r), __double2loint(r) | bit);
#else
  return cuda::std::bit_cast<double>(cuda::std::bit_cast<cuda::std::uint64_t>(r) | bit);
#endif
}

// Adds r's slice to the biased level and returns it; r minus it is exact. `bit`: 1, but 0 for bin 0,
// whose unit is the grid's: there r is a multiple of the unit (its slice is r), and its last bit may
// be the unit itself.
__host__ __device__ __forceinline__ double take_slice(double& biased, double r, unsigned bit = 1) {
  double const t = biased + sticky(r, bit);
  double const d = t - biased;
  biased = t;
  return d;
}

// Moves each level's bits from 2^(lo + 32) up into its carry.
template <int K>
__host__ __device__ inline void normalize(state<K>& s) {
  if (s.window == 0) return;
CASCADE_UNROLL
  for (int k = 0; k < K; ++k) {
    double const c = exact::trunc_at(stored(s, k), lo_of(s, k) + bin_bits);
    s.lv[k] -= c;
    s.carry[k] += c;
  }
  s.meta &= ~count_mask;
}

template <int K>
__host__ __device__ __noinline__ state<K> normalized(state<K> s) {
  normalize(s);
  return s;
}

// a + b of different windows (or near the count's bound), neither empty: the lower window's levels
// move to the higher's bins; those below its lowest are dropped.
template <int K>
__host__ __device__ __noinline__ state<K> merge_windows(state<K> a, state<K> b) {
  if (a.window < b.window) {
    state<K> const t = a;
    a = b;
    b = t;
  }
  normalize(a);
  normalize(b);
  int const d = a.window - b.window;
  double const f = exact::pow2(shift_of(b.window) - shift_of(a.window));  // exact on every kept level
  for (int j = 0; j < K; ++j) {
    double const v = stored(b, j) * f, c = b.carry[j] * f;
    for (int i = 0; i < K; ++i) {
      a.lv[i] += i == j + d ? v : 0.0;
      a.carry[i] += i == j + d ? c : 0.0;
    }
  }
  a.meta = ((a.meta | b.meta) & ~count_mask) | 2u;  // two normalized states: below (2 + 2) * 2^31 units
  return a;
}

// a + b. States of one window (every tree's, after align_block) add level by level; the count bounds
// each level within its binade: a state of count c holds less than (c + 2) * 2^31 units a level.
template <int K>
__host__ __device__ inline state<K> merge(state<K> a, state<K> const& b) {
  if (b.window == 0) {
    a.meta |= b.meta & ~count_mask;
    return a;
  }
  if (a.window == 0) {
    state<K> r = b;
    r.meta |= a.meta & ~count_mask;
    return r;
  }
  unsigned const count = (a.meta & count_mask) + (b.meta & count_mask) + 2;
  if (a.window != b.window || count > static_cast<unsigned>(max_count)) return merge_windows(a, b);
CASCADE_UNROLL
  for (int k = 0; k < K; ++k) {
    a.lv[k] += b.lv[k] - bias_of(b, k);
    a.carry[k] += b.carry[k];
  }
  a.meta = ((a.meta | b.meta) & ~count_mask) | count;
  return a;
}

// x (as held: scaled for a scaled window; below half the unit of the bin above the top) into the
// levels, not counted.
template <int K>
__host__ __device__ __forceinline__ void deposit_uncounted(state<K>& s, double x, unsigned lowest_bit) {
  double r = x;
CASCADE_UNROLL
  for (int k = 0; k < K - 1; ++k) r -= take_slice(s.lv[k], r);
  take_slice(s.lv[K - 1], r, lowest_bit);
}
// take_slice's bit for the lowest level: 0 when its bin is 0.
template <int K>
__host__ __device__ __forceinline__ unsigned lowest_bit(state<K> const& s) {
  return s.window > K ? 1u : 0u;
}

template <int K>
__host__ __device__ __forceinline__ void deposit_counted(state<K>& s, double x) {
  deposit_uncounted(s, x, lowest_bit(s));
  if (static_cast<int>(++s.meta & count_mask) >= max_count) s = normalized(s);
}

// The rare cases: NaN, infinities, zero, the first item, an item above the window, a scaled window.
template <int K>
__host__ __device__ __noinline__ state<K> deposit_slow(state<K> s, double x) {
  if (x != x) {
    s.meta |= exact::flag_nan << flag_shift;
    return s;
  }
  if (x == 0) return s;
  if (isinf(x)) {
    s.meta |= (x > 0 ? exact::flag_pos_inf : exact::flag_neg_inf) << flag_shift;
    return s;
  }
  int top = (exact::top_position(x) + 1) / bin_bits;
  if (top < K - 1) top = K - 1;  // the lowest level's bin is at least 0
  if (s.window == 0 || top > s.window - 1) {
    state<K> w{};
    set_window(w, top);
    if (s.window == 0) {
      w.meta = s.meta & ~count_mask;
      s = w;
    } else {
      s = merge_windows(w, s);
    }
  }
  // Scaled by a power of two: exact, but for items far below the window's lowest level (whose
  // slices are 0 either way).
  deposit_counted(s, x * exact::pow2(-shift_of(s.window)));
  return s;
}

template <int K>
__host__ __device__ __forceinline__ void deposit(state<K>& s, double x) {
  if (fabs(x) < limit_of(s)) deposit_counted(s, x);
  else s = deposit_slow(s, x);
}

// One item at a time, out of line (the tile loop keeps one copy of the fast path).
template <int K, class X, int N>
__host__ __device__ __noinline__ state<K> deposit_each(state<K> s, exact::batch<X, N> b) {
  for (int k = 0; k < N; ++k) deposit(s, to_double(b.items[k]));
  return s;
}

// N items as the tile loop reads them: when all are below the window's limit (typical data, after the
// first batch), one test, then per item a conversion and the levels' additions.
template <int K, class X, int N>
__host__ __device__ __forceinline__ void deposit_all(state<K>& s, X const (&items)[N]) {
  if (s.window == 0) {
    // A thread's first batch: the window is the largest item's, set here rather than in the slow
    // path, which would take the batch one item at a time (as exact/binned_small_sum.cuh does).
    unsigned long long top2 = 0;  // the largest 2|x|'s bits: NaN and infinities above every finite item
CASCADE_UNROLL
    for (int k = 0; k < N; ++k) {
      unsigned long long const u = cuda::std::bit_cast<unsigned long long>(to_double(items[k])) << 1;
      top2 = u > top2 ? u : top2;
    }
    if (top2 == 0) return;                  // zeros only: nothing to add
    if (top2 < (0x7ffull << 53)) {          // finite (else the slow path sets the flags)
      int top = (exact::top_position(cuda::std::bit_cast<double>(top2 >> 1)) + 1) / bin_bits;
      if (top < K - 1) top = K - 1;
      state<K> w{};
      set_window(w, top);
      w.meta = s.meta & ~count_mask;
      s = w;
    }
  }
  if (exact::all_below(items, limit_of(s))) {
    if (count_of(s) > max_count - N) s = normalized(s);
    unsigned const bit = lowest_bit(s);
CASCADE_UNROLL
    for (int k = 0; k < N; ++k) deposit_uncounted(s, to_double(items[k]), bit);
    s.meta += N;
  } else {
    exact::batch<X, N> b;
CASCADE_UNROLL
    for (int k = 0; k < N; ++k) b.items[k] = items[k];
    s = deposit_each(s, b);
  }
}

// Levels by item: 3 for doubles (their bits within 2^-63 of the largest item's are kept), 2 for 32-bit
// integers (all their bits). Float, half and bfloat16 items (and integers of 16 bits or fewer) take
// the float-arithmetic sum of exact/binned_small_sum.cuh instead.
template <class X>
inline constexpr int levels_for = sizeof(X) > 4 ? 3 : 2;

// v, a multiple of 2^lo, as int64 units of 2^lo.
__host__ __device__ inline long long units_of(double v, int lo) {
  if (v == 0) return 0;
  exact::decomposed const d = exact::decompose(v);
  int const s = d.p + unit_exp - lo;
  long long const n = static_cast<long long>(s >= 0 ? d.m << s : d.m >> -s);
  return d.negative ? -n : n;
}

// Adds the state's levels, as integers, to the area's bins (finish::atomic): with atomics on the device
// (exact in any order), plainly on the host.
template <int K>
__host__ __device__ inline void add_to_area(atomic_area* area, state<K> s) {
  if (s.window != 0) {
    normalize(s);
#ifdef __CUDA_ARCH__
    atomicMax(&area->window, static_cast<unsigned long long>(s.window));
#else
    if (area->window < static_cast<unsigned long long>(s.window)) area->window = s.window;
#endif
    unsigned long long mask[2] = {0, 0};
    for (int k = 0; k < K; ++k) {
      int const b = s.window - 1 - k;
      long long const parts[2] = {units_of(stored(s, k), lo_of(s, k)), units_of(s.carry[k], lo_of(s, k) + bin_bits)};
      long long* const sums[2] = {area->value + b, area->carry + b};
      for (int i = 0; i < 2; ++i) {
        if (parts[i] == 0) continue;
        mask[b >> 6] |= 1ull << (b & 63);
#ifdef __CUDA_ARCH__
        atomicAdd(reinterpret_cast<unsigned long long*>(sums[i]), static_cast<unsigned long long>(parts[i]));
#else
        *sums[i] += parts[i];
#endif
      }
    }
    exact::mark(&area->touched[0], mask[0]);
    exact::mark(&area->touched[1], mask[1]);
  }
  exact::mark(&area->flags, flags_of(s));
}

// The op the layers below see (as exact::op): merges for the trees and finishes, deposits for the tile
// loop, alignment before a tree (merges of one window stay inline), atomic_merge for finish::atomic.
template <int K>
struct op {
  atomic_area* area;
  using state_type = state<K>;
  using area_type = atomic_area;
  static constexpr bool is_binned_sum = true;  // default_policy's tables key it as op_kind::binned
  static constexpr bool zero_items_add_nothing = true;  // (detail/kernel/tile_loop.cuh pads partial tiles)
  __device__ state<K> operator()(state<K> const& a, state<K> const& b) const { return merge(a, b); }
  template <class X>
    requires exact::is_item_v<X>
  __device__ void deposit(state<K>& s, X const& x) const {
    binned::deposit(s, to_double(x));
  }
  template <class X, int N>
    requires exact::is_item_v<X>
  __device__ void deposit_all(state<K>& s, X const (&items)[N]) const {
    binned::deposit_all(s, items);
  }
  __device__ void align_block(state<K>& s, bool valid) const {
    realign(s, exact::block_max(valid && s.window != 0 ? s.window - 1 : -1), valid);
  }
  __device__ void align_warp(state<K>& s, bool valid) const {  // by a whole warp
    realign(s, exact::warp_max(valid && s.window != 0 ? s.window - 1 : -1), valid);
  }
  __device__ void realign(state<K>& s, int top, bool valid) const {
    if (!valid) {
      s = state<K>{};
    } else if (s.window != 0 && s.window - 1 < top) {
      state<K> w{};
      set_window(w, top);
      s = merge_windows(w, s);
    }
  }
  // finish::atomic: the block's levels, as integers, added bin by bin.
  __device__ void atomic_merge(state<K>*, state<K> const& v) const { add_to_area(area, v); }
};

// init + the levels of s and of the area, in the largest window among them, rounded to nearest (ties
// to even) to R; special values as exact::finalize. Zeroes the area, for the stream's next call.
template <class R, int K>
__host__ __device__ inline R finalize(atomic_area& area, state<K> s, double init) {
  using exact::load_word;
  unsigned flags = static_cast<unsigned>(load_word(&area.flags)) | flags_of(s);
  unsigned long long const touched[2] = {load_word(&area.touched[0]), load_word(&area.touched[1])};
  int const area_window = static_cast<int>(load_word(&area.window));
  exact::init_terms const it = exact::terms_of(init);
  flags |= it.flags;
  exact::pieces const in = it.in;

  int const window = s.window > area_window ? s.window : area_window;
  int const bottom = window - K;  // the lowest kept bin
  normalize(s);
  long long value[K] = {}, carry[K] = {};
  for (int k = 0; k < K; ++k) {
    if (s.window != 0 && s.window - 1 - k >= bottom) {
      value[k] = units_of(stored(s, k), lo_of(s, k));
      carry[k] = units_of(s.carry[k], lo_of(s, k) + bin_bits);
    }
  }
  auto const is_touched = [&](int b) { return b >= 0 && b < bin_count && (touched[b >> 6] >> (b & 63)) & 1; };
  int lo = window != 0 ? bottom : exact::chunk_count, hi = window != 0 ? window : -1;
  if (in.j >= 0) {
    lo = in.j < lo ? in.j : lo;
    hi = in.j + 2 > hi ? in.j + 2 : hi;
  }
  R const r = exact::round_chunks<R>(lo, hi + 3, [&](int j) {
    long long v = 0;
    if (j >= bottom && j < window && is_touched(j))
      v += static_cast<long long>(load_word(reinterpret_cast<unsigned long long const*>(area.value + j)));
    if (j - 1 >= bottom && j - 1 < window && is_touched(j - 1))
      v += static_cast<long long>(load_word(reinterpret_cast<unsigned long long const*>(area.carry + j - 1)));
    for (int k = 0; k < K; ++k) {
      int const b = s.window - 1 - k;  // level k's bin; its carry is on the chunk above
      v += j == b ? value[k] : 0;
      v += j == b + 1 ? carry[k] : 0;
    }
    for (int i = 0; i < 3; ++i) v += j == in.j + i ? in.part[i] : 0;
    return v;
  });
  for (int b = 0; b < bin_count; ++b) {
    if (is_touched(b)) area.value[b] = area.carry[b] = 0;
  }
  area.flags = 0;
  area.touched[0] = area.touched[1] = 0;
  area.window = 0;
  return exact::with_specials<R>(flags, r);
}

}  // namespace cascade::detail::binned
