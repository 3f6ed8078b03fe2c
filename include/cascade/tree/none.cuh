// cascade/tree/none.cuh: no block tree. Each thread's value (its CoarseFactor items folded) goes
// straight to the finishing strategy: the blog ladder's naive reduce1, one atomicAdd per element when the
// coarse factor is 1. Only finish::atomic accepts per-thread values; other finishes reject it at
// compile time.
#pragma once

#include "tag.cuh"

namespace cascade::tree {

struct none : tag {
  // Order is whatever the atomics make of it.
  static constexpr bool preserves_order = false;
  static constexpr bool per_thread_results = true;
};

}  // namespace cascade::tree

namespace cascade::detail {

template <class Op>
struct tree_order_check<tree::none, Op> {
  static_assert(is_commutative_v<Op>,
                "cascade: tree::none (every thread's value straight to finish::atomic) reorders operands, and the op is cascade::non_commutative; use "
                "tree::shuffle, tree::interleaved, tree::interleaved_strided or tree::cub_block, or "
                "cascade::default_policy, which picks an order-preserving tree by itself");
  static constexpr bool value = true;
};

template <int BlockSize, class T>
struct block_reduce<tree::none, BlockSize, T> {
  struct storage {};
  template <class Op>
  __device__ T operator()(storage&, T value, int, Op) const {
    return value;
  }
};

}  // namespace cascade::detail
