// cascade/tree/interleaved.cuh: interleaved addressing with a divergent branch.
//
// PMPP Fig 10.6 (SimpleSumReductionKernel), the slides' kernel 1. Stride doubles; a thread works when
// tid % (2 * stride) == 0, so active threads are scattered over every warp: divergent on purpose, and
// the slowest tree. Kept as the first rung of the ladder.
//
//   stride 1:  a0 a1 a2 a3 a4 a5 a6 a7  ->  (a0a1) . (a2a3) . (a4a5) . (a6a7) .
//   stride 2:                           ->  (a0a1a2a3) . . . (a4a5a6a7) . . .
//   stride 4:                           ->  (a0 ... a7)
//
// Each step combines a left neighbour with the right one: operand order is preserved.
#pragma once

#include "../detail/block/shared_tree.cuh"
#include "tag.cuh"

namespace cascade::tree {

struct interleaved : tag {
  static constexpr char const* name = "tree::interleaved";
  static constexpr bool preserves_order = true;
};

}  // namespace cascade::tree

namespace cascade::detail {

// Strides 1, 2, 4, ...: thread tid with tid % (2 * stride) == 0 takes tid + stride.
struct interleaved_pairs {
  static constexpr bool ascending = true;
  static constexpr int last_stride = 1;
  static constexpr bool warp_tail = false;
  static constexpr bool unroll = true;
  __device__ static bool pair(int tid, int stride, int& dst, int& src) {
    dst = tid;
    src = tid + stride;
    return tid % (2 * stride) == 0;
  }
};

template <int BlockSize, class T>
struct block_reduce<tree::interleaved, BlockSize, T> : shared_memory_tree<BlockSize, T, interleaved_pairs> {};

}  // namespace cascade::detail
