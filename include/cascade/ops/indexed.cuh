// cascade/ops/indexed.cuh: a value with its position, what argmin, argmax and minmax return, and the ops
// that reduce such pairs.
//
//   cascade::indexed<float> m = cascade::argmin(policy{}, d, d + n);  // m.index, m.value
//
// Items rank by value, and of items that rank alike the smaller index wins, so the result is the
// first occurrence; the ops are associative and commutative (index breaks ties), so every policy may
// use them and gives the same index. Over float, double, __half and __nv_bfloat16 a NaN ranks before
// every number (the first NaN wins, as numpy's argmin and argmax: the value returned is that item,
// its bits unchanged) and -0 before +0 for argmin (+0 before -0 for argmax), so argmin's value is
// bitwise what cascade::minimum gives, but for the NaN's bits (detail/meta/float_order.cuh). Other types
// rank by operator<.
#pragma once

#include <cuda/std/cstdint>
#include <cuda/std/limits>

#include "../detail/meta/float_order.cuh"

namespace cascade {

namespace detail {

// The index init carries: every item's index is smaller, so an item equal to the identity wins, and a
// result that still has it saw no item. no_index_of<I>: the same for an index of type I (the largest I).
template <class I>
inline constexpr I no_index_of = cuda::std::numeric_limits<I>::max();
inline constexpr cuda::std::int64_t no_index = no_index_of<cuda::std::int64_t>;

}  // namespace detail

// Index: int64 wherever a result is returned or written; the one-range calls fold pairs of an int32
// index below 2^31 items (half the bytes in registers, shuffles and partials) and widen the result.
template <class T, class Index = cuda::std::int64_t>
struct indexed {
  Index index;
  T value;

  __host__ __device__ friend constexpr bool operator==(indexed const& a, indexed const& b) {
    return a.index == b.index && a.value == b.value;
  }
};

template <class T, class Index = cuda::std::int64_t>
struct minmax_result {
  indexed<T, Index> min;
  indexed<T, Index> max;

  __host__ __device__ friend constexpr bool operator==(minmax_result const& a, minmax_result const& b) {
    return a.min == b.min && a.max == b.max;
  }
};

// The smaller value; of values that rank alike, the smaller index.
struct arg_min {
  static constexpr bool idempotent = true;  // a selection: ops/idempotent.cuh
  template <class T, class I>
  __host__ __device__ constexpr indexed<T, I> operator()(indexed<T, I> const& a, indexed<T, I> const& b) const {
    int const c = detail::rank_compare_keyed<false>(b.value, a.value);
    return c < 0 || (c == 0 && b.index < a.index) ? b : a;
  }
};

// The larger value; of values that rank alike, the smaller index.
struct arg_max {
  static constexpr bool idempotent = true;
  template <class T, class I>
  __host__ __device__ constexpr indexed<T, I> operator()(indexed<T, I> const& a, indexed<T, I> const& b) const {
    int const c = detail::rank_compare_keyed<true>(b.value, a.value);
    return c < 0 || (c == 0 && b.index < a.index) ? b : a;
  }
};

struct arg_min_max {
  static constexpr bool idempotent = true;
  template <class T, class I>
  __host__ __device__ constexpr minmax_result<T, I> operator()(minmax_result<T, I> const& a,
                                                              minmax_result<T, I> const& b) const {
    return {arg_min{}(a.min, b.min), arg_max{}(a.max, b.max)};
  }
};

// std::minmax_element's maximum: the larger value; of values that rank alike, the larger index (the
// last occurrence; of NaNs, the last). The pair without a position (what an empty range gives) gives
// way to any other, so a tie never goes to it.
struct arg_max_last {
  static constexpr bool idempotent = true;
  static constexpr bool is_arg_reduction = true;  // (the tuning tables' arg entries)
  template <class T, class I>
  __host__ __device__ constexpr indexed<T, I> operator()(indexed<T, I> const& a, indexed<T, I> const& b) const {
    if (a.index == detail::no_index_of<I>) return b;
    if (b.index == detail::no_index_of<I>) return a;
    int const c = detail::rank_compare_keyed<true>(b.value, a.value);
    return c < 0 || (c == 0 && a.index < b.index) ? b : a;
  }
};

// The first smallest and the last largest, in one pass: what std::minmax_element returns.
struct arg_min_last_max {
  static constexpr bool idempotent = true;
  static constexpr bool is_arg_reduction = true;
  template <class T, class I>
  __host__ __device__ constexpr minmax_result<T, I> operator()(minmax_result<T, I> const& a,
                                                              minmax_result<T, I> const& b) const {
    return {arg_min{}(a.min, b.min), arg_max_last{}(a.max, b.max)};
  }
};

// The same under a caller's strict weak order comp(a, b) ("a before b"): arg_min_by keeps the first
// item no other comes before, arg_max_by the first that comes before no other. No identity is needed:
// the pair that carries no_index (what an empty range gives) gives way to any other. Values compare
// only through comp, so NaN and signed zeros rank as comp ranks them.
template <class Comp>
struct arg_min_by {
  static constexpr bool idempotent = true;
  static constexpr bool is_arg_reduction = true;  // (the tuning tables' arg entries)
  Comp comp;
  template <class T, class I>
  __host__ __device__ constexpr indexed<T, I> operator()(indexed<T, I> const& a, indexed<T, I> const& b) const {
    if (a.index == detail::no_index_of<I>) return b;
    if (b.index == detail::no_index_of<I>) return a;
    if (comp(b.value, a.value)) return b;
    if (comp(a.value, b.value)) return a;
    return b.index < a.index ? b : a;
  }
};

template <class Comp>
struct arg_max_by {
  static constexpr bool idempotent = true;
  static constexpr bool is_arg_reduction = true;
  Comp comp;
  template <class T, class I>
  __host__ __device__ constexpr indexed<T, I> operator()(indexed<T, I> const& a, indexed<T, I> const& b) const {
    if (a.index == detail::no_index_of<I>) return b;
    if (b.index == detail::no_index_of<I>) return a;
    if (comp(a.value, b.value)) return b;
    if (comp(b.value, a.value)) return a;
    return b.index < a.index ? b : a;
  }
};

template <class Comp>
struct arg_min_max_by {
  static constexpr bool idempotent = true;
  static constexpr bool is_arg_reduction = true;
  Comp comp;
  template <class T, class I>
  __host__ __device__ constexpr minmax_result<T, I> operator()(minmax_result<T, I> const& a,
                                                              minmax_result<T, I> const& b) const {
    return {arg_min_by<Comp>{comp}(a.min, b.min), arg_max_by<Comp>{comp}(a.max, b.max)};
  }
};

namespace detail {

// A result with the int64 index the API returns, its positions `base` further on (a chunk's result:
// arg_reduce.cuh); no_index_of<I> becomes no_index.
template <class T, class I>
__host__ __device__ constexpr indexed<T> widened(indexed<T, I> const& r, cuda::std::int64_t base = 0) {
  return {r.index == no_index_of<I> ? no_index : static_cast<cuda::std::int64_t>(r.index) + base, r.value};
}
template <class T, class I>
__host__ __device__ constexpr minmax_result<T> widened(minmax_result<T, I> const& r, cuda::std::int64_t base = 0) {
  return {widened(r.min, base), widened(r.max, base)};
}
struct widen {
  cuda::std::int64_t base = 0;
  template <class R>
  __host__ __device__ constexpr auto operator()(R const& r) const {
    return widened(r, base);
  }
};

}  // namespace detail

}  // namespace cascade
