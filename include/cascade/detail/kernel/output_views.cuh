// cascade/detail/kernel/output_views.cuh: output iterators the algorithms built on reduce write their
// result through: the reduce's result goes in, f(result) comes out at the caller's iterator. The
// finishes write a result with `*out = value` (sinks.cuh, store_value), so any of them serves.
#pragma once

#include <cuda/std/cstdint>

#include "../../ops/indexed.cuh"
#include "sinks.cuh"

namespace cascade::detail {

template <class OutIt, class F>
struct transform_output {
  using wrapped_output = OutIt;  // (runtime/memory_check.cuh checks it)
  OutIt out;
  F f;
  struct proxy {
    OutIt out;
    F f;
    template <class V>
    __device__ proxy const& operator=(V const& value) const {
      store_value(out, f(value));
      return *this;
    }
  };
  __device__ proxy operator*() const { return {out, f}; }
};

// !x: all_of and none_of from "some item hits".
struct negation {
  template <class V>
  __device__ bool operator()(V const& x) const {
    return !x;
  }
};

// The position argmin / argmax found, as min_element's offset from first: 0 for an empty range (its
// result carries no_index), which is then `last`.
struct position_of {
  template <class T, class I>
  __device__ cuda::std::int64_t operator()(indexed<T, I> const& x) const {
    return x.index == no_index_of<I> ? 0 : static_cast<cuda::std::int64_t>(x.index);
  }
};

// minmax_element's two positions, to two iterators.
template <class MinIt, class MaxIt>
struct both_positions_output {
  MinIt min_out;
  MaxIt max_out;
  struct proxy {
    MinIt min_out;
    MaxIt max_out;
    template <class T, class I>
    __device__ proxy const& operator=(minmax_result<T, I> const& r) const {
      *min_out = position_of{}(r.min);
      *max_out = position_of{}(r.max);
      return *this;
    }
  };
  __device__ proxy operator*() const { return {min_out, max_out}; }
};

}  // namespace cascade::detail
