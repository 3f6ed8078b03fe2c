// cascade/tree/unrolled_warp.cuh: sequential addressing down to 64 values, then the last warp
// without block-wide barriers.
//
// The slides' kernel 5 ("unroll the last warp"), the blog ladder's warpReduce. Once 32 threads or fewer are
// active, __syncthreads() is wasted on the other warps; one warp finishes alone. The seeds do it with
// `volatile` and no barrier, a race since Volta; detail/block/warp_tail.cuh explains and fixes it with
// __syncwarp(). Reorders operands (like `sequential`).
#pragma once

#include "../detail/block/shared_tree.cuh"
#include "tag.cuh"

namespace cascade::tree {

struct unrolled_warp : tag {
  static constexpr char const* name = "tree::unrolled_warp";
  static constexpr bool preserves_order = false;
};

}  // namespace cascade::tree

namespace cascade::detail {

// Block-wide rounds down to stride 64, then warp_tail; the rounds' loop is left to the compiler
// (kernel 5 of the slides), where tree::unrolled unrolls it (kernel 6).
template <int BlockSize, class T>
struct block_reduce<tree::unrolled_warp, BlockSize, T>
    : shared_memory_tree<BlockSize, T, sequential_pairs<64, true, false>> {};

}  // namespace cascade::detail
