// cascade/detail/kernel/arg/keyed_input.cuh: argmin's, argmax's and minmax's items over a pointer to
// float, double, __half or __nv_bfloat16 as rank keys, so that the block's tree and the finish
// compare integers.
//
// Each item becomes {i, rank_key<Max>(x)} (detail/meta/float_order.cuh): a signed integer of the
// item's size that orders the items as argmin (Max: argmax) ranks them, every NaN the smallest key.
// The tree and the finish then fold the pairs with arg_min over integers, one compare an operation
// where the values' ranking takes a NaN test, the sign bits and two compares (on an H200 argmin of
// 2^16 floats took 5.4 us with value pairs, 4.8 with keys, as int32 items do; docs/notes/arg-pairs.md,
// "Rank keys through the tree"). A thread still folds its vectors in value space (the vector's
// NaN-propagating extremum, as the value views do) and keys only that extremum. The result is turned
// back into the value (keyed_result): a key is the number's bits, rearranged, except a NaN's, whose
// bits the writing thread reads again at the result's position, so that the first NaN comes back
// with its own bits.
#pragma once

#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

#include "../../../ops/indexed.cuh"
#include "../../meta/float_order.cuh"
#include "scan.cuh"
#include "../input_iterators.cuh"
#include "../vector_load.cuh"

namespace cascade::detail {

// {i, rank_key<Max>(first[i])}: argmin's (argmax's) input, folded with arg_min.
template <class U, bool Max, class Index>
struct keyed_input {
  using read_type = cuda::std::remove_cv_t<U>;  // (the tables are keyed on the item, not the key)
  using key_type = ieee_key_t<read_type>;
  U* first;
  template <class Offset>
  __device__ indexed<key_type, Index> operator[](Offset i) const {
    return {static_cast<Index>(i), rank_key<Max>(static_cast<read_type>(first[i]))};
  }
};

// {{i, rank_key<false>(x)}, {i, rank_key<true>(x)}}: minmax's input, folded with keyed_min_max.
template <class U, class Index>
struct keyed_minmax_input {
  using read_type = cuda::std::remove_cv_t<U>;
  using key_type = ieee_key_t<read_type>;
  U* first;
  template <class Offset>
  __device__ minmax_result<key_type, Index> operator[](Offset i) const {
    auto const x = static_cast<read_type>(first[i]);
    return {{static_cast<Index>(i), rank_key<false>(x)}, {static_cast<Index>(i), rank_key<true>(x)}};
  }
};

// minmax over keyed_minmax_input's pairs: both sides rank by their keys, the max side's keys being
// argmax's order.
struct keyed_min_max {
  static constexpr bool idempotent = true;
  static constexpr bool is_arg_reduction = true;  // (the tuning tables' arg entries)
  template <class K, class I>
  __host__ __device__ constexpr minmax_result<K, I> operator()(minmax_result<K, I> const& a,
                                                              minmax_result<K, I> const& b) const {
    return {arg_min{}(a.min, b.min), arg_min{}(a.max, b.max)};
  }
};

// acc becomes the vector's first item that ranks first, e being its extremum and k e's key.
template <bool Max, class T, int Width, class K, class Index, class Raw, class Offset>
__device__ __forceinline__ void take_keyed(indexed<K, Index>& acc, Raw const& v, T const& e, K k, Offset i) {
  int at;
  T value;
  take_first_ranked<T, Width, Max>(v, e, at, value);
  acc = {static_cast<Index>(i + static_cast<Offset>(at)), k};
}

// A thread's fold of one vector into acc, for one side: the vector's extremum in value space (on the
// device min / max order -0 below +0 and propagate NaN, so it is the item that ranks first), its key
// against acc's, and only where it ranks strictly before acc the position of its first such item.
template <bool Max, class T, int Width, class K, class Index, class Raw, class Offset>
__device__ __forceinline__ void fold_keyed_vector(indexed<K, Index>& acc, bool fresh, Raw const& v, Offset i) {
  T const e = vector_extremum<T, Width, Max>(v);
  K const k = rank_key<Max>(e);
  if (!fresh && acc.value <= k) return;  // a tie keeps acc: its index is smaller
  take_keyed<Max, T, Width>(acc, v, e, k, i);
}

template <class U, bool Max, class Index>
struct vector_input<keyed_input<U, Max, Index>> : vector_view<U, keyed_input<U, Max, Index>> {
  using base = vector_view<U, keyed_input<U, Max, Index>>;
  using T = cuda::std::remove_cv_t<U>;
  using K = ieee_key_t<T>;
  template <class Offset>
  __device__ static indexed<K, Index> item(keyed_input<U, Max, Index> const&, typename base::raw_type const& v, int j,
                                           Offset i) {
    return {static_cast<Index>(i), rank_key<Max>(static_cast<T>(v.items[j]))};
  }
  template <class Offset>
  __device__ static void fold(indexed<K, Index>& acc, bool fresh, typename base::raw_type const& v, Offset i, arg_min) {
    fold_keyed_vector<Max, T, base::width>(acc, fresh, v, i);
  }
};

template <class U, class Index>
struct vector_input<keyed_minmax_input<U, Index>> : vector_view<U, keyed_minmax_input<U, Index>> {
  using base = vector_view<U, keyed_minmax_input<U, Index>>;
  using T = cuda::std::remove_cv_t<U>;
  using K = ieee_key_t<T>;
  template <class Offset>
  __device__ static minmax_result<K, Index> item(keyed_minmax_input<U, Index> const&,
                                                 typename base::raw_type const& v, int j, Offset i) {
    auto const x = static_cast<T>(v.items[j]);
    return {{static_cast<Index>(i), rank_key<false>(x)}, {static_cast<Index>(i), rank_key<true>(x)}};
  }
  template <class Offset>
  __device__ static void fold(minmax_result<K, Index>& acc, bool fresh, typename base::raw_type const& v, Offset i,
                              keyed_min_max) {
    T const lo = vector_extremum<T, base::width, false>(v), hi = vector_extremum<T, base::width, true>(v);
    K const klo = rank_key<false>(lo), khi = rank_key<true>(hi);
    if (!fresh && acc.min.value <= klo && acc.max.value <= khi) return;  // the common case: one branch
    if (fresh || klo < acc.min.value) take_keyed<false, T, base::width>(acc.min, v, lo, klo, i);
    if (fresh || khi < acc.max.value) take_keyed<true, T, base::width>(acc.max, v, hi, khi, i);
  }
};

// The keyed result as the value result: {index + base, value}, the value a NaN's own bits, read
// again at its position in `first` (the range the keys were made from). Max: a single side's keys
// are argmax's (minmax's max side always is).
template <class U, bool Max = false>
struct keyed_result {
  using T = cuda::std::remove_cv_t<U>;
  U* first;
  cuda::std::int64_t base = 0;

  template <bool SideMax, class I>
  __device__ indexed<T> value(indexed<ieee_key_t<T>, I> const& r) const {
    T const v = r.value == nan_rank_key<T> && r.index != no_index_of<I> ? static_cast<T>(first[r.index])
                                                                         : value_of_rank_key<SideMax, T>(r.value);
    return widened(indexed<T, I>{r.index, v}, base);
  }
  template <class I>
  __device__ indexed<T> operator()(indexed<ieee_key_t<T>, I> const& r) const {
    return value<Max>(r);
  }
  template <class I>
  __device__ minmax_result<T> operator()(minmax_result<ieee_key_t<T>, I> const& r) const {
    return {value<false>(r.min), value<true>(r.max)};
  }
};

// Whether argmin, argmax and minmax over It with op Op rank keys: a pointer to one of the IEEE types,
// under arg_min, arg_max or arg_min_max (not the comparator ops, not minmax_element's last maximum).
template <class It, class Op>
inline constexpr bool ranks_keys =
    cuda::std::is_pointer_v<It> && is_ieee_v<cuda::std::remove_cv_t<cuda::std::remove_pointer_t<It>>> &&
    (cuda::std::is_same_v<Op, arg_min> || cuda::std::is_same_v<Op, arg_max> || cuda::std::is_same_v<Op, arg_min_max>);

}  // namespace cascade::detail
