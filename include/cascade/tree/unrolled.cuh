// cascade/tree/unrolled.cuh: the whole tree unrolled for the compile-time BlockSize.
//
// The slides' kernel 6 ("completely unrolled", the templated switch over block sizes). The rounds'
// strides are compile-time (the policy's BlockSize is the template parameter the slides switch over)
// and unrolled, so a block of 256 compiles to exactly the rounds 128, 64 and the warp tail: no loop,
// no stride arithmetic. Reorders operands (like `sequential`). detail/block/shared_tree.cuh holds the
// skeleton it shares with the other shared-memory trees.
#pragma once

#include "../detail/block/shared_tree.cuh"
#include "tag.cuh"

namespace cascade::tree {

struct unrolled : tag {
  static constexpr char const* name = "tree::unrolled";
  static constexpr bool preserves_order = false;
};

}  // namespace cascade::tree

namespace cascade::detail {

// Block-wide rounds down to stride 64, unrolled for the compile-time BlockSize, then warp_tail.
template <int BlockSize, class T>
struct block_reduce<tree::unrolled, BlockSize, T> : shared_memory_tree<BlockSize, T, sequential_pairs<64, true, true>> {};

}  // namespace cascade::detail
