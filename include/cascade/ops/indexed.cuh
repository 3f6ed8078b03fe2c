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

#include "../detail/meta/float_order.cuh"

namespace cascade {

namespace detail {

// The index init carries: every item's index is smaller, so an item equal to the identity wins, and a
// result that still has it saw no item.
inline constexpr cuda::std::int64_t no_index = 0x7fffffffffffffffll;

}  // namespace detail

template <class T>
struct indexed {
  cuda::std::int64_t index;
  T value;

  __host__ __device__ friend constexpr bool operator==(indexed const& a, indexed const& b) {
    return a.index == b.index && a.value == b.value;
  }
};

template <class T>
struct minmax_result {
  indexed<T> min;
  indexed<T> max;

  __host__ __device__ friend constexpr bool operator==(minmax_result const& a, minmax_result const& b) {
    return a.min == b.min && a.max == b.max;
  }
};

// The smaller value; of values that rank alike, the smaller index.
struct arg_min {
  template <class T>
  __host__ __device__ constexpr indexed<T> operator()(indexed<T> const& a, indexed<T> const& b) const {
    int const c = detail::rank_compare<false>(b.value, a.value);
    return c < 0 || (c == 0 && b.index < a.index) ? b : a;
  }
};

// The larger value; of values that rank alike, the smaller index.
struct arg_max {
  template <class T>
  __host__ __device__ constexpr indexed<T> operator()(indexed<T> const& a, indexed<T> const& b) const {
    int const c = detail::rank_compare<true>(b.value, a.value);
    return c < 0 || (c == 0 && b.index < a.index) ? b : a;
  }
};

struct arg_min_max {
  template <class T>
  __host__ __device__ constexpr minmax_result<T> operator()(minmax_result<T> const& a, minmax_result<T> const& b) const {
    return {arg_min{}(a.min, b.min), arg_max{}(a.max, b.max)};
  }
};

}  // namespace cascade
