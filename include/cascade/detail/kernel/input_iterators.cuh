// cascade/detail/kernel/input_iterators.cuh: the views the algorithms built on reduce read their input
// through. Each offers a __device__ operator[], which is all the tile loop needs, and `read_type`, the
// type of what it reads (default_policy's tables are keyed on it). Over a pointer that vector loads
// suit, each also reads 16 bytes at a time (vector_input below), as reduce does over the pointer:
// transform_reduce and argmin then read as fast as reduce.
#pragma once

#include <cuda/atomic>
#include <cuda/std/cstdint>
#include <cuda/std/iterator>
#include <cuda/std/type_traits>

#include "../../ops/indexed.cuh"
#include "arg/scan.cuh"
#include "arguments.cuh"
#include "vector_load.cuh"

namespace cascade::detail {

// transform(first[i]) as T: transform_reduce's input. T is named rather than deduced because the
// host cannot ask an extended __device__ lambda for its return type.
template <class It, class F, class T>
struct transform_input {
  using read_type = cuda::std::remove_cv_t<typename cuda::std::iterator_traits<It>::value_type>;
  It first;
  F transform;
  template <class Offset>
  __device__ T operator[](Offset i) const {
    return static_cast<T>(transform(first[i]));
  }
};

// What inner_product reads an item as: one of each range. Its size keys the tuning tables, so that
// n pairs of floats run the policy of n doubles, the same bytes.
template <class V1, class V2>
struct read_pair {
  V1 first;
  V2 second;
};

// t(first1[i], first2[i]) as T: inner_product's input (t is its second op).
template <class It1, class It2, class F, class T>
struct pair_transform_input {
  using read_type = read_pair<cuda::std::remove_cv_t<typename cuda::std::iterator_traits<It1>::value_type>,
                              cuda::std::remove_cv_t<typename cuda::std::iterator_traits<It2>::value_type>>;
  It1 first1;
  It2 first2;
  F transform;
  template <class Offset>
  __device__ T operator[](Offset i) const {
    return static_cast<T>(transform(first1[i], first2[i]));
  }
};

// pred(first[i]) != Negate, as 0 or 1: any_of's input (all_of's and none_of's, negated). It may stop
// the tile loop (tile_loop.cuh, stops_early): a thread whose fold holds a 1 raises the flag, and a
// thread that sees it raised reads no further tile, so the time follows the first hit. The flag is
// raised in flag_copies words 128 bytes apart and each block reads one of them: every warp reads it
// once a tile, and one word read by the whole grid cost 11% of a 2^30-float read on an H200 (a
// single L2 slice serving some 2 G reads a second). flag == nullptr: no stopping (a call too small
// to gain from it, which then needs no zeroed flag).
template <class It, class Pred, bool Negate>
struct predicate_input {
  using read_type = cuda::std::remove_cv_t<typename cuda::std::iterator_traits<It>::value_type>;
  static constexpr int flag_copies = 16;
  static constexpr int flag_stride = 32;  // words: 128 bytes
  static constexpr unsigned flag_bytes = flag_copies * flag_stride * sizeof(unsigned);
  It first;
  Pred pred;
  unsigned* flag;
  template <class Offset>
  __device__ unsigned operator[](Offset i) const {
    return static_cast<bool>(pred(first[i])) != Negate ? 1u : 0u;
  }
  // Nonzero once some thread has raised the flag.
  __device__ unsigned raised() const {
    if (flag == nullptr) return 0;
    return cuda::atomic_ref<unsigned, cuda::thread_scope_device>(flag[(blockIdx.x % flag_copies) * flag_stride])
        .load(cuda::memory_order_relaxed);
  }
  __device__ static bool settled(unsigned acc) { return acc != 0; }
  __device__ void announce() const {
    if (flag == nullptr) return;
    for (int k = 0; k < flag_copies; ++k)
      cuda::atomic_ref<unsigned, cuda::thread_scope_device>(flag[k * flag_stride]).store(1u, cuda::memory_order_relaxed);
  }
};

// {i, first[i]}: argmin's and argmax's input (the index an Index: arg_call.cuh).
template <class It, class T, class Index = cuda::std::int64_t>
struct indexed_input {
  using read_type = cuda::std::remove_cv_t<typename cuda::std::iterator_traits<It>::value_type>;
  It first;
  template <class Offset>
  __device__ indexed<T, Index> operator[](Offset i) const {
    return {static_cast<Index>(i), static_cast<T>(first[i])};
  }
};

// {{i, first[i]}, {i, first[i]}}: minmax's input.
template <class It, class T, class Index = cuda::std::int64_t>
struct minmax_input {
  using read_type = cuda::std::remove_cv_t<typename cuda::std::iterator_traits<It>::value_type>;
  It first;
  template <class Offset>
  __device__ minmax_result<T, Index> operator[](Offset i) const {
    indexed<T, Index> const x{static_cast<Index>(i), static_cast<T>(first[i])};
    return {x, x};
  }
};

// A view answers for the input it wraps (arguments.cuh).
template <class It, class F, class T>
inline constexpr bool is_host_container_iterator_v<transform_input<It, F, T>> = is_host_container_iterator_v<It>;
template <class It1, class It2, class F, class T>
inline constexpr bool is_host_container_iterator_v<pair_transform_input<It1, It2, F, T>> =
    is_host_container_iterator_v<It1> || is_host_container_iterator_v<It2>;
template <class It, class Pred, bool Negate>
inline constexpr bool is_host_container_iterator_v<predicate_input<It, Pred, Negate>> = is_host_container_iterator_v<It>;
template <class It, class T, class Index>
inline constexpr bool is_host_container_iterator_v<indexed_input<It, T, Index>> = is_host_container_iterator_v<It>;
template <class It, class T, class Index>
inline constexpr bool is_host_container_iterator_v<minmax_input<It, T, Index>> = is_host_container_iterator_v<It>;

// ---- 16-byte loads through the views -----------------------------------------------------------

// What the views over a pointer U* share: the pointer's loads; `View::item` makes the fold's item.
template <class U, class View>
struct vector_view {
  using pointer = vector_input<U*>;
  static constexpr bool enabled = pointer::enabled;
  static constexpr int width = pointer::width;
  using raw_type = typename pointer::raw_type;

  template <class Offset>
  __device__ static raw_type load(View const& view, Offset i) {
    return pointer::load(view.first, i);
  }
  __host__ __device__ static bool aligned(View const& view) { return pointer::aligned(view.first); }
};

template <class U, class F, class T>
struct vector_input<transform_input<U*, F, T>> : vector_view<U, transform_input<U*, F, T>> {
  template <class Offset>
  __device__ static T item(transform_input<U*, F, T> const& view,
                           typename vector_view<U, transform_input<U*, F, T>>::raw_type const& v, int j, Offset) {
    return static_cast<T>(view.transform(v.items[j]));
  }
};

template <class U, class Pred, bool Negate>
struct vector_input<predicate_input<U*, Pred, Negate>> : vector_view<U, predicate_input<U*, Pred, Negate>> {
  template <class Offset>
  __device__ static unsigned item(predicate_input<U*, Pred, Negate> const& view,
                                  typename vector_view<U, predicate_input<U*, Pred, Negate>>::raw_type const& v, int j,
                                  Offset) {
    return static_cast<bool>(view.pred(v.items[j])) != Negate ? 1u : 0u;
  }
};

// inner_product's view over two pointers whose items have one size: a 16-byte load from each.
template <class U1, class U2>
struct vector_pair {
  typename vector_input<U1*>::raw_type a;
  typename vector_input<U2*>::raw_type b;
};
template <class U1, class U2, class F, class T>
struct vector_input<pair_transform_input<U1*, U2*, F, T>> {
  using view = pair_transform_input<U1*, U2*, F, T>;
  static constexpr bool enabled =
      vector_input<U1*>::enabled && vector_input<U2*>::enabled && vector_input<U1*>::width == vector_input<U2*>::width;
  static constexpr int width = enabled ? vector_input<U1*>::width : 1;
  using raw_type = vector_pair<U1, U2>;
  template <class Offset>
  __device__ static raw_type load(view const& in, Offset i) {
    return {vector_input<U1*>::load(in.first1, i), vector_input<U2*>::load(in.first2, i)};
  }
  template <class Offset>
  __device__ static T item(view const& in, raw_type const& v, int j, Offset) {
    return static_cast<T>(in.transform(v.a.items[j], v.b.items[j]));
  }
  __host__ __device__ static bool aligned(view const& in) {
    return vector_input<U1*>::aligned(in.first1) && vector_input<U2*>::aligned(in.first2);
  }
};

// argmin's, argmax's and minmax's views fold a vector by a scan for its first smallest (largest)
// item (detail/kernel/arg/scan.cuh), then one comparison with the thread's value: a thread's items ascend by
// index, so "strictly smaller" keeps the first occurrence, exactly as arg_min does item by item.
template <class U, class T, class Index>
struct vector_input<indexed_input<U*, T, Index>> : vector_view<U, indexed_input<U*, T, Index>> {
  using base = vector_view<U, indexed_input<U*, T, Index>>;
  template <class Offset>
  __device__ static indexed<T, Index> item(indexed_input<U*, T, Index> const&, typename base::raw_type const& v, int j,
                                           Offset i) {
    return {static_cast<Index>(i), static_cast<T>(v.items[j])};
  }
  template <class Offset, class Op>
    requires(cuda::std::is_same_v<Op, arg_min> || cuda::std::is_same_v<Op, arg_max>)
  __device__ static void fold(indexed<T, Index>& acc, bool fresh, typename base::raw_type const& v, Offset i, Op) {
    constexpr bool is_min = cuda::std::is_same_v<Op, arg_min>;
    if constexpr (is_byte_integer_v<T> && cuda::std::is_same_v<T, cuda::std::remove_cv_t<U>>) {
      unsigned w[4];
      words_of(v, w);
      unsigned const key = byte_extremum<T, !is_min>(w);
      T const x = byte_item<T>(key);
      if (fresh || (is_min ? x < acc.value : acc.value < x))
        acc = {static_cast<Index>(i + static_cast<Offset>(first_byte(w, key))), x};
      return;
    }
    if constexpr (is_ieee_v<T> && cuda::std::is_same_v<T, cuda::std::remove_cv_t<U>>) {
      // the extremum first; only a vector that improves on the thread's looks for its position
      T const e = vector_extremum<T, base::width, !is_min>(v);
      if (!fresh && (is_min ? acc.value < e : e < acc.value)) return;  // the common case, by one test
      if (!fresh && rank_compare<!is_min>(e, acc.value) >= 0) return;
      int at;
      take_first_ranked<T, base::width, !is_min>(v, e, at, acc.value);
      acc.index = static_cast<Index>(i + static_cast<Offset>(at));
      return;
    }
    if constexpr (has_cheap_extremum_v<T> && cuda::std::is_same_v<T, cuda::std::remove_cv_t<U>>) {
      if (!fresh && cannot_improve<T, base::width, !is_min>(v, acc.value)) return;
    }
    T lo, hi;
    int lo_at, hi_at;
    scan_vector<T, base::width>(v, lo, lo_at, hi, hi_at, is_min, !is_min);
    if constexpr (is_min) {
      if (fresh || ranks_before<false>(lo, acc.value)) acc = {static_cast<Index>(i + static_cast<Offset>(lo_at)), lo};
    } else {
      if (fresh || ranks_before<true>(hi, acc.value)) acc = {static_cast<Index>(i + static_cast<Offset>(hi_at)), hi};
    }
  }
};

template <class U, class T, class Index>
struct vector_input<minmax_input<U*, T, Index>> : vector_view<U, minmax_input<U*, T, Index>> {
  using base = vector_view<U, minmax_input<U*, T, Index>>;
  template <class Offset>
  __device__ static minmax_result<T, Index> item(minmax_input<U*, T, Index> const&, typename base::raw_type const& v,
                                                 int j, Offset i) {
    indexed<T, Index> const x{static_cast<Index>(i), static_cast<T>(v.items[j])};
    return {x, x};
  }
  template <class Offset>
  __device__ static void fold(minmax_result<T, Index>& acc, bool fresh, typename base::raw_type const& v, Offset i,
                              arg_min_max) {
    if constexpr (is_byte_integer_v<T> && cuda::std::is_same_v<T, cuda::std::remove_cv_t<U>>) {
      unsigned w[4];
      words_of(v, w);
      unsigned const lo_key = byte_extremum<T, false>(w), hi_key = byte_extremum<T, true>(w);
      T const lo = byte_item<T>(lo_key), hi = byte_item<T>(hi_key);
      if (fresh || lo < acc.min.value) acc.min = {static_cast<Index>(i + static_cast<Offset>(first_byte(w, lo_key))), lo};
      if (fresh || acc.max.value < hi) acc.max = {static_cast<Index>(i + static_cast<Offset>(first_byte(w, hi_key))), hi};
      return;
    }
    if constexpr (is_ieee_v<T> && cuda::std::is_same_v<T, cuda::std::remove_cv_t<U>>) {
      T const lo = vector_extremum<T, base::width, false>(v), hi = vector_extremum<T, base::width, true>(v);
      // the common case, by two tests and one branch (false with a NaN: NaNs and ties take the ranking)
      if (!fresh && acc.min.value < lo && hi < acc.max.value) return;
      int at;
      if (fresh || rank_compare<false>(lo, acc.min.value) < 0) {
        take_first_ranked<T, base::width, false>(v, lo, at, acc.min.value);
        acc.min.index = static_cast<Index>(i + static_cast<Offset>(at));
      }
      if (fresh || rank_compare<true>(hi, acc.max.value) < 0) {
        take_first_ranked<T, base::width, true>(v, hi, at, acc.max.value);
        acc.max.index = static_cast<Index>(i + static_cast<Offset>(at));
      }
      return;
    }
    if constexpr (has_cheap_extremum_v<T> && cuda::std::is_same_v<T, cuda::std::remove_cv_t<U>>) {
      if (!fresh && cannot_improve<T, base::width, false>(v, acc.min.value) &&
          cannot_improve<T, base::width, true>(v, acc.max.value))
        return;
    }
    T lo, hi;
    int lo_at, hi_at;
    scan_vector<T, base::width>(v, lo, lo_at, hi, hi_at, true, true);
    if (fresh || ranks_before<false>(lo, acc.min.value)) acc.min = {static_cast<Index>(i + static_cast<Offset>(lo_at)), lo};
    if (fresh || ranks_before<true>(hi, acc.max.value)) acc.max = {static_cast<Index>(i + static_cast<Offset>(hi_at)), hi};
  }
};

}  // namespace cascade::detail
