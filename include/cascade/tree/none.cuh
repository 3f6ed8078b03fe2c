// cascade/tree/none.cuh: no block tree. Each thread's value (its CoarseFactor items folded) goes
// straight to the finishing strategy: the blog ladder's naive reduce1, one atomicAdd per element when the
// coarse factor is 1. Only finish::atomic accepts per-thread values; other finishes reject it at
// compile time.
#pragma once

#include "tag.cuh"

namespace cascade::tree {

struct none : tag {
  static constexpr char const* name = "tree::none";
  // Order is whatever the atomics make of it.
  static constexpr bool preserves_order = false;
  static constexpr bool per_thread_results = true;
};

}  // namespace cascade::tree

namespace cascade::detail {

template <int BlockSize, class T>
struct block_reduce<tree::none, BlockSize, T> {
  struct storage {};
  template <class Op>
  __device__ T operator()(storage&, T value, int, Op) const {
    return value;
  }
};

}  // namespace cascade::detail
